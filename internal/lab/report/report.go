// Package report writes the test-set evaluation of Handler & O'Connor (2019) in the
// shape of the paper, with the paper's own figures beside ours as reference columns:
//
//   - Table 2: token F1, SLOR and latency (geometric mean) of every method;
//   - the compression-ratio table, with the gold compressions' ratio;
//   - the paired-bootstrap significance of VERTEX ADDITION_LR against the ILP, for F1
//     and for SLOR (metrics.PairedBootstrap);
//   - Figure 3: the densities of the log latencies of VERTEX ADDITION_LR and the ILP.
//
// The evaluation gathers, for each method, the per-sentence F1, compression ratio and
// SLOR over the test tuples (in the same tuple order for every method, so that the
// bootstrap can pair them) and the per-sample latencies, and calls Write:
//
//	rep, err := report.Write(dir, report.Input{Methods: ms, GoldCR: goldCR, Seed: seed})
//
// which writes table2.md (all three tables), table2.json (the same figures and the
// per-method latency summaries), figure3.svg and figure3.png into dir. Build and the
// Report's methods give the same pieces without files.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/method/ilp"
	"github.com/qsc-nlp/qsc/method/nn"
	"github.com/qsc-nlp/qsc/metrics"
)

// Method holds one compression method's results on the test tuples.
type Method struct {
	// Name is the method's name as package method gives it ("lr", "ilp", "nn",
	// "ablated", "random", …); the paper's figures are found by it.
	Name string
	// F1, CR and SLOR are the per-tuple token F1, compression ratio and SLOR, in the
	// test tuples' order, the same for every method. SLOR may be nil (no language
	// model): the report then shows no SLOR for the method.
	F1, CR, SLOR []float64
	// Latency holds the time of each sampled compression; nil when not measured.
	Latency []time.Duration
}

// Input is what the report is made from.
type Input struct {
	Methods []Method
	// GoldCR is the mean compression ratio of the gold compressions of the test tuples.
	GoldCR float64
	// GoldSLOR, if not nil, is the SLOR of each gold compression, in tuple order: a
	// reference row of Table 2.
	GoldSLOR []float64
	// Seed seeds the paired bootstrap; Samples is its number of samples (0:
	// metrics.DefaultSamples, the paper's 10,000).
	Seed    uint64
	Samples int
	// Note, if not empty, is printed under the title (tags, parser, machine…).
	Note string
}

// Paper holds the paper's figures for one method.
type Paper struct {
	F1        float64 `json:"f1"`
	SLOR      float64 `json:"slor"`
	LatencyMS float64 `json:"latency_ms"`
	CR        float64 `json:"cr"`
}

// Reference figures of Handler & O'Connor (2019): Table 2 (F1, SLOR, latency as the
// geometric mean in ms) and the appendix's compression-ratio table.
var (
	paper = map[string]Paper{
		baseline.NameRandom: {F1: 0.653, SLOR: 0.377, LatencyMS: 0.5, CR: 0.405},
		method.NameAblated:  {F1: 0.827, SLOR: 0.669, LatencyMS: 3.7, CR: 0.387},
		nn.Name:             {F1: 0.873, SLOR: 0.728, LatencyMS: 2929.1, CR: 0.405},
		ilp.Name:            {F1: 0.852, SLOR: 0.756, LatencyMS: 44.0, CR: 0.408},
		method.NameLR:       {F1: 0.881, SLOR: 0.745, LatencyMS: 4.1, CR: 0.403},
	}
	paperGoldTestCR = 0.413
	// paperOrder is the row order of the paper's Table 2.
	paperOrder = []string{baseline.NameRandom, method.NameAblated, nn.Name, ilp.Name, method.NameLR}
	// displayName is the paper's name of each method.
	displayName = map[string]string{
		baseline.NameRandom: "RANDOM",
		method.NameAblated:  "ABLATED (edge only)",
		nn.Name:             "VERTEX ADDITION_NN",
		ilp.Name:            "ILP",
		method.NameLR:       "VERTEX ADDITION_LR",
	}
)

// PaperFigures returns the paper's figures for the method called name (false for a
// method the paper does not report, such as the oracle).
func PaperFigures(name string) (Paper, bool) {
	p, ok := paper[name]
	return p, ok
}

// Row is one method's line of Table 2 and of the compression-ratio table.
type Row struct {
	Method  string   `json:"method"`
	Display string   `json:"display_name"`
	N       int      `json:"sentences"`
	F1      float64  `json:"f1"`
	CR      float64  `json:"cr"`
	SLOR    *float64 `json:"slor,omitempty"`
	SLORStd *float64 `json:"slor_std,omitempty"` // population standard deviation, as the authors report it
	// SLOREmpty counts the empty compressions (NaN SLOR), left out of SLOR and SLORStd.
	SLOREmpty int              `json:"slor_empty,omitempty"`
	Latency   *metrics.Latency `json:"latency,omitempty"`
	Paper     *Paper           `json:"paper,omitempty"`
}

// Test is one paired-bootstrap test: is Better's mean really above Worse's?
type Test struct {
	Metric string  `json:"metric"` // "F1" or "SLOR"
	Better string  `json:"better"`
	Worse  string  `json:"worse"`
	MeanB  float64 `json:"mean_better"`
	MeanW  float64 `json:"mean_worse"`
	// Delta, P and Samples are metrics.PairedBootstrap's, with A = Better.
	Delta   float64 `json:"delta"`
	P       float64 `json:"p"`
	Samples int     `json:"samples"`
	// LeftOut counts the sentences left out because a score is undefined (the SLOR of
	// an empty compression).
	LeftOut int `json:"left_out,omitempty"`
}

// Report holds every figure of the three tables and the latency figure's inputs.
type Report struct {
	Rows            []Row    `json:"rows"`
	GoldCR          float64  `json:"gold_cr"`
	PaperGoldCR     float64  `json:"gold_cr_paper"`
	GoldSLOR        *float64 `json:"gold_slor,omitempty"`
	GoldSLORStd     *float64 `json:"gold_slor_std,omitempty"`
	Significance    []Test   `json:"significance"`
	SignificanceMsg string   `json:"significance_note,omitempty"`
	Seed            uint64   `json:"bootstrap_seed"`
	Note            string   `json:"note,omitempty"`

	latency map[string][]time.Duration
}

// ErrInput is wrapped by the errors of Build for inconsistent input.
var ErrInput = errors.New("report: bad input")

// Build computes the report's figures. Every method needs F1 and CR for the same number
// of tuples (SLOR too when given); method names must be distinct.
func Build(in Input) (*Report, error) {
	if len(in.Methods) == 0 {
		return nil, fmt.Errorf("%w: no methods", ErrInput)
	}
	r := &Report{GoldCR: in.GoldCR, PaperGoldCR: paperGoldTestCR, Seed: in.Seed, Note: in.Note, latency: map[string][]time.Duration{}}
	n := len(in.Methods[0].F1)
	if in.GoldSLOR != nil {
		if len(in.GoldSLOR) != n {
			return nil, fmt.Errorf("%w: %d gold SLOR values for %d tuples", ErrInput, len(in.GoldSLOR), n)
		}
		m, sd, _ := meanStd(in.GoldSLOR)
		r.GoldSLOR, r.GoldSLORStd = &m, &sd
	}
	seen := map[string]bool{}
	for _, m := range in.Methods {
		if m.Name == "" || seen[m.Name] {
			return nil, fmt.Errorf("%w: method name %q empty or repeated", ErrInput, m.Name)
		}
		seen[m.Name] = true
		if len(m.F1) != n || len(m.CR) != n || (m.SLOR != nil && len(m.SLOR) != n) {
			return nil, fmt.Errorf("%w: method %s: %d F1, %d CR, %d SLOR values; want %d each (as the first method)", ErrInput, m.Name, len(m.F1), len(m.CR), len(m.SLOR), n)
		}
		row := Row{Method: m.Name, Display: displayName[m.Name], N: n}
		if row.Display == "" {
			row.Display = m.Name
		}
		var err error
		if row.F1, err = metrics.Mean(m.F1); err != nil {
			return nil, fmt.Errorf("%w: method %s: F1: %v", ErrInput, m.Name, err)
		}
		if row.CR, err = metrics.Mean(m.CR); err != nil {
			return nil, fmt.Errorf("%w: method %s: CR: %v", ErrInput, m.Name, err)
		}
		if m.SLOR != nil {
			mean, std, empty := meanStd(m.SLOR)
			row.SLOR, row.SLORStd, row.SLOREmpty = &mean, &std, empty
		}
		if len(m.Latency) > 0 {
			l, err := metrics.SummarizeLatency(m.Latency)
			if err != nil {
				return nil, fmt.Errorf("%w: method %s: latency: %v", ErrInput, m.Name, err)
			}
			row.Latency = &l
			r.latency[m.Name] = m.Latency
		}
		if p, ok := paper[m.Name]; ok {
			row.Paper = &p
		}
		r.Rows = append(r.Rows, row)
	}
	// The paper's order first, then the others as given.
	rank := func(name string) int {
		if i := slices.Index(paperOrder, name); i >= 0 {
			return i
		}
		return len(paperOrder)
	}
	slices.SortStableFunc(r.Rows, func(a, b Row) int { return rank(a.Method) - rank(b.Method) })

	// Significance: VERTEX ADDITION_LR against the ILP, as in the paper.
	lr, il := find(in.Methods, method.NameLR), find(in.Methods, ilp.Name)
	if lr == nil || il == nil {
		r.SignificanceMsg = fmt.Sprintf("needs both %s and %s", method.NameLR, ilp.Name)
		return r, nil
	}
	for _, metric := range []struct {
		name string
		a, b []float64
		// empty: a NaN score is an empty compression's, to leave out (SLOR); for F1
		// it is an error.
		empty bool
	}{{"F1", lr.F1, il.F1, false}, {"SLOR", lr.SLOR, il.SLOR, true}} {
		if metric.a == nil || metric.b == nil {
			continue
		}
		a, b, left := metric.a, metric.b, 0
		if metric.empty {
			a, b, left = finitePairs(a, b)
		}
		t, err := bootstrap(metric.name, lr.Name, il.Name, a, b, in.Samples, in.Seed)
		t.LeftOut = left
		if err != nil {
			return nil, err
		}
		r.Significance = append(r.Significance, t)
	}
	return r, nil
}

func find(ms []Method, name string) *Method {
	for i := range ms {
		if ms[i].Name == name {
			return &ms[i]
		}
	}
	return nil
}

// bootstrap tests the method with the higher mean against the other.
func bootstrap(metric, nameA, nameB string, a, b []float64, samples int, seed uint64) (Test, error) {
	ma, _ := metrics.Mean(a)
	mb, _ := metrics.Mean(b)
	t := Test{Metric: metric, Better: nameA, Worse: nameB, MeanB: ma, MeanW: mb}
	if mb > ma {
		t.Better, t.Worse, t.MeanB, t.MeanW = nameB, nameA, mb, ma
		a, b = b, a
	}
	bs, err := metrics.PairedBootstrap(a, b, samples, seed)
	if err != nil {
		return t, fmt.Errorf("%w: %s: %v", ErrInput, metric, err)
	}
	t.Delta, t.P, t.Samples = bs.Delta, bs.P, bs.Samples
	return t, nil
}

// finitePairs returns the pairs (a[i], b[i]) where neither score is NaN (the SLOR of an
// empty compression), and how many it left out; a and b when none is.
func finitePairs(a, b []float64) ([]float64, []float64, int) {
	if len(a) != len(b) || !slices.ContainsFunc(a, math.IsNaN) && !slices.ContainsFunc(b, math.IsNaN) {
		return a, b, 0
	}
	fa, fb := make([]float64, 0, len(a)), make([]float64, 0, len(b))
	for i := range a {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			fa, fb = append(fa, a[i]), append(fb, b[i])
		}
	}
	return fa, fb, len(a) - len(fa)
}

// meanStd returns the mean and population standard deviation of xs, leaving out NaN
// values (the SLOR of an empty compression), and how many it left out.
func meanStd(xs []float64) (float64, float64, int) {
	var sum float64
	n := 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), len(xs)
	}
	mean := sum / float64(n)
	var v float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			v += (x - mean) * (x - mean)
		}
	}
	return mean, math.Sqrt(v / float64(n)), len(xs) - n
}

// ms formats a duration in milliseconds with four significant digits.
func ms(d time.Duration) string { return fmt.Sprintf("%.4g", float64(d)/1e6) }

func paperCell(v float64, format string) string { return fmt.Sprintf(format, v) }

// WriteMarkdown writes Table 2, the compression-ratio table and the significance table.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Test-set results (Handler & O'Connor 2019, Table 2)\n\n")
	if r.Note != "" {
		b.WriteString(r.Note + "\n\n")
	}
	b.WriteString("Columns marked *paper* are the figures printed in the paper, for reference; the others are ours.\n\n")
	b.WriteString("| method | sentences | F1 | *paper* F1 | SLOR (± std) | *paper* SLOR | latency (ms, geo. mean) | *paper* latency (ms) | latency median / p99 (ms) | samples |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, row := range r.Rows {
		pf1, pslor, plat := "—", "—", "—"
		if p := row.Paper; p != nil {
			pf1, pslor, plat = paperCell(p.F1, "%.3f"), paperCell(p.SLOR, "%.3f"), paperCell(p.LatencyMS, "%.1f")
		}
		slor := "—"
		if row.SLOR != nil {
			slor = fmt.Sprintf("%.3f ± %.3f", *row.SLOR, *row.SLORStd)
			if row.SLOREmpty > 0 {
				slor += fmt.Sprintf(" (%d empty left out)", row.SLOREmpty)
			}
		}
		lat, spread, samples := "—", "—", "—"
		if l := row.Latency; l != nil {
			lat, spread, samples = ms(l.GeoMean), ms(l.Median)+" / "+ms(l.P99), fmt.Sprint(l.N)
		}
		fmt.Fprintf(&b, "| %s (`%s`) | %d | %.3f | %s | %s | %s | %s | %s | %s | %s |\n",
			row.Display, row.Method, row.N, row.F1, pf1, slor, pslor, lat, plat, spread, samples)
	}
	if r.GoldSLOR != nil && len(r.Rows) > 0 {
		fmt.Fprintf(&b, "| gold compressions (reference) | %d | 1.000 | — | %.3f ± %.3f | — | — | — | — | — |\n", r.Rows[0].N, *r.GoldSLOR, *r.GoldSLORStd)
	}
	if lr, il := r.row(method.NameLR), r.row(ilp.Name); lr != nil && il != nil && lr.Latency != nil && il.Latency != nil && lr.Latency.GeoMean > 0 {
		fmt.Fprintf(&b, "\nILP / VERTEX ADDITION_LR latency: %.1f× (the paper: %.1f×).\n",
			float64(il.Latency.GeoMean)/float64(lr.Latency.GeoMean), paper[ilp.Name].LatencyMS/paper[method.NameLR].LatencyMS)
	}

	b.WriteString("\n## Compression ratios\n\n| method | CR | *paper* CR |\n|---|--:|--:|\n")
	for _, row := range r.Rows {
		pcr := "—"
		if row.Paper != nil {
			pcr = paperCell(row.Paper.CR, "%.3f")
		}
		fmt.Fprintf(&b, "| %s (`%s`) | %.3f | %s |\n", row.Display, row.Method, row.CR, pcr)
	}
	fmt.Fprintf(&b, "| gold compressions (test) | %.3f | %.3f |\n", r.GoldCR, r.PaperGoldCR)

	b.WriteString("\n## Significance: VERTEX ADDITION_LR against the ILP\n\n")
	if len(r.Significance) == 0 {
		fmt.Fprintf(&b, "Not computed: %s.\n", r.SignificanceMsg)
	} else {
		b.WriteString("Paired bootstrap over the test sentences (Berg-Kirkpatrick et al. 2012): p is the fraction of resampled differences above twice the observed one. *Paper*: every LR–ILP difference significant at p < .01.\n\n")
		b.WriteString("| metric | higher | mean | lower | mean | δ | p | samples | p < .01 |\n|---|---|--:|---|--:|--:|--:|--:|:-:|\n")
		for _, t := range r.Significance {
			p := fmt.Sprintf("%.4f", t.P)
			if t.P == 0 && t.Samples > 0 {
				p = fmt.Sprintf("< %.2g", 1/float64(t.Samples)) // none of the samples
			}
			fmt.Fprintf(&b, "| %s | `%s` | %.4f | `%s` | %.4f | %+.4f | %s | %d | %s |\n",
				t.Metric, t.Better, t.MeanB, t.Worse, t.MeanW, t.Delta, p, t.Samples, yesNo(t.Delta > 0 && t.P < 0.01))
		}
		for _, t := range r.Significance {
			if t.LeftOut > 0 {
				fmt.Fprintf(&b, "\n%s leaves out %d sentences where a compression is empty (no SLOR).\n", t.Metric, t.LeftOut)
			}
		}
		fmt.Fprintf(&b, "\nBootstrap seed %d.\n", r.Seed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (r *Report) row(name string) *Row {
	for i := range r.Rows {
		if r.Rows[i].Method == name {
			return &r.Rows[i]
		}
	}
	return nil
}

// WriteJSON writes the report's figures as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// File names Write uses.
const (
	MarkdownFile = "table2.md"
	JSONFile     = "table2.json"
	FigureSVG    = "figure3.svg"
	FigurePNG    = "figure3.png"
)

// Write builds the report from in and writes MarkdownFile, JSONFile, FigureSVG and
// FigurePNG into dir (created if needed). The figure is written when VERTEX
// ADDITION_LR or the ILP has latencies.
func Write(dir string, in Input) (*Report, error) {
	r, err := Build(in)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{MarkdownFile, r.WriteMarkdown},
		{JSONFile, r.WriteJSON},
	} {
		if err := writeFile(filepath.Join(dir, f.name), f.write); err != nil {
			return nil, err
		}
	}
	if r.HasFigure() {
		if err := writeFile(filepath.Join(dir, FigureSVG), func(w io.Writer) error { return r.WriteFigure(w, "svg") }); err != nil {
			return nil, err
		}
		if err := writeFile(filepath.Join(dir, FigurePNG), func(w io.Writer) error { return r.WriteFigure(w, "png") }); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// HasFigure reports whether the report has Figure 3: whether VERTEX ADDITION_LR or the ILP
// has latencies. Write writes FigureSVG and FigurePNG only then.
func (r *Report) HasFigure() bool {
	return r.latency[method.NameLR] != nil || r.latency[ilp.Name] != nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
