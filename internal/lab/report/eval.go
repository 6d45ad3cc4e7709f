package report

import (
	"fmt"
	"io"

	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/method/ilp"
)

// paperF1 returns the paper's F1 for a method, printed beside ours: Table 2's
// (PaperFigures), and the authors' figures for the evaluation-only variants.
func paperF1(name string) string {
	switch name {
	case baseline.NameOracle:
		return "1.000"
	case ilp.NameUnconstrained:
		return "0.76 (F&A: 0.843)"
	case ilp.NameRootQuery:
		return "0.852 (their Q constraint)"
	}
	if p, ok := PaperFigures(name); ok {
		return fmt.Sprintf("%.3f", p.F1)
	}
	return "—"
}

// Eval is the test-set evaluation of qsc-lab eval: a row per method and tag set, as
// JSON (eval.json) and Markdown (eval.md).
type Eval struct {
	Date    string         `json:"date"`
	Seed    uint64         `json:"seed"`
	Samples int            `json:"latency_samples"`
	GoldCR  float64        `json:"gold_cr"`
	Rows    []evaluate.Row `json:"rows"`
}

// WriteMarkdown writes the evaluation as a Markdown table beside the paper's F1, with
// notes on what the columns mean.
func (rep *Eval) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# Test-set evaluation (seed %d, %s)\n\n", rep.Seed, rep.Date)
	fmt.Fprintf(w, "Gold compression ratio of the test tuples: %.3f (the paper: 0.413).\n\n", rep.GoldCR)
	fmt.Fprintf(w, "| method | XPOS | sentences | F1 | paper F1 | CR | CR − gold | latency geo. mean | median | p99 |\n")
	fmt.Fprintf(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rep.Rows {
		lat := "—"
		med, p99 := "—", "—"
		if r.Latency.N > 0 {
			lat, med, p99 = evaluate.Micros(r.Latency.GeoMean), evaluate.Micros(r.Latency.Median), evaluate.Micros(r.Latency.P99)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.4f | %s | %.3f | %+.3f | %s | %s | %s |\n", r.Method, r.Tags, r.N, r.F1,
			paperF1(r.Method), r.CR, r.CR-rep.GoldCR, lat, med, p99)
	}
	fmt.Fprintf(w, "\nXPOS given-xpos = the corpus's own tags; own-tagger = qsc's tagger. Trees from qsc's parser. ")
	fmt.Fprintf(w, "Latency: per pre-parsed sentence, %d samples with replacement, one at a time. ", rep.Samples)
	fmt.Fprintf(w, "ilp: Q ⊆ C, ℓ(C) ≤ b (solved by the exact tree DP); ilp-unconstrained: Q = ∅, b = ℓ(gold), as the authors' vanilla ILP; ilp-root-query: each query token hangs off the root, the authors' constraint.\n")
}
