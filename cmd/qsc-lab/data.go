package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/metrics"
)

func init() {
	prog.Register(&cli.Command{Name: "data stats", Summary: "summarize the query-focused compression tuples", Run: runDataStats})
}

// fileStats describes one corpus file: what was read, dropped and kept.
type fileStats struct {
	File           string `json:"file"`
	Read           int    `json:"read"`
	EmptyGold      int    `json:"dropped_empty_gold"`
	NoNoun         int    `json:"dropped_no_noun"`
	Suspect        int    `json:"dropped_suspect"`
	SuspectFlagged int    `json:"suspect_flagged"`
	Kept           int    `json:"kept"`
	PaperFilter    int    `json:"gold_has_noun"`
	PaperFilterRef int    `json:"gold_has_noun_paper"`
}

// splitStats describes the tuples of one split.
type splitStats struct {
	Split       string   `json:"split"`
	Sentences   int      `json:"sentences"`
	PaperN      int      `json:"sentences_paper"`
	MeanTokens  float64  `json:"mean_tokens"`
	MeanQuery   float64  `json:"mean_query"`
	MeanBudget  float64  `json:"mean_budget"`
	GoldCR      float64  `json:"gold_cr"`
	PaperGoldCR *float64 `json:"gold_cr_paper"`
}

type dataStats struct {
	Data   string       `json:"data"`
	Seed   uint64       `json:"seed"`
	Files  []fileStats  `json:"files"`
	Splits []splitStats `json:"splits"`
}

// Figures from Handler & O'Connor (2019): sentence counts (§4) and gold compression
// ratios (appendix, Table "compression ratios").
var (
	paperSentences = map[dataset.Split]int{dataset.Train: 173570, dataset.Validation: 25000, dataset.Test: 9949}
	paperGoldCR    = map[dataset.Split]float64{dataset.Train: 0.384, dataset.Test: 0.413}
)

func runDataStats(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("data stats", "", stderr)
	dir := fs.String("data", "", "data directory holding google-compression/ (default: $QSC_DATA or ../shared/data beside the repository)")
	seed := fs.Uint64("seed", 1, "seed for query sampling and the validation split")
	validation := fs.Int("validation", dataset.DefaultValidation, "training sentences held out for validation (negative: none)")
	format := fs.String("format", "md", "output format: md or json")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *format != "md" && *format != "json" {
		return cli.Usagef("--format must be md or json, not %q", *format)
	}
	if *dir == "" {
		*dir = shared.DataDir()
		if *dir == "" {
			return errors.New("no data directory: pass --data DIR or set QSC_DATA (looked for ../shared/data beside the repository)")
		}
	}
	st := dataStats{Data: *dir, Seed: *seed}
	for _, file := range []struct {
		rel  string
		kind dataset.Split
		ref  int
	}{
		{shared.GoogleTrain, dataset.Train, 198570},
		{shared.GoogleTest, dataset.Test, 9949},
	} {
		path := filepath.Join(*dir, file.rel)
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("corpus file missing (is --data right?): %w", err)
		}
		d, err := dataset.Load(path, file.kind, dataset.Options{Seed: *seed, Validation: *validation})
		if err != nil {
			return err
		}
		c := d.Counts
		st.Files = append(st.Files, fileStats{File: file.rel, Read: c.Read, EmptyGold: c.EmptyGold, NoNoun: c.NoNoun,
			Suspect: c.Suspect, SuspectFlagged: c.SuspectAll, Kept: c.Kept, PaperFilter: c.PaperFilter(), PaperFilterRef: file.ref})
		splits := []dataset.Split{dataset.Test}
		if file.kind == dataset.Train {
			splits = []dataset.Split{dataset.Train, dataset.Validation}
		}
		for _, s := range splits {
			ss, err := summarizeSplit(s, d.Split(s))
			if err != nil {
				return err
			}
			st.Splits = append(st.Splits, ss)
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	writeStatsMD(stdout, st)
	return nil
}

func summarizeSplit(s dataset.Split, ts []*dataset.Tuple) (splitStats, error) {
	out := splitStats{Split: string(s), Sentences: len(ts), PaperN: paperSentences[s]}
	if cr, ok := paperGoldCR[s]; ok {
		out.PaperGoldCR = &cr
	}
	if len(ts) == 0 {
		return out, nil
	}
	var tokens, query, budget int
	ratios := make([]float64, len(ts))
	for i, t := range ts {
		tokens += t.Sentence.Len()
		query += len(t.Query)
		budget += t.Budget
		r, err := t.GoldRatio()
		if err != nil {
			return out, fmt.Errorf("sentence %s: %w", t.ID, err)
		}
		ratios[i] = r
	}
	n := float64(len(ts))
	out.MeanTokens, out.MeanQuery, out.MeanBudget = float64(tokens)/n, float64(query)/n, float64(budget)/n
	out.GoldCR, _ = metrics.Mean(ratios)
	return out, nil
}

func writeStatsMD(w io.Writer, st dataStats) {
	fmt.Fprintf(w, "# Query-focused compression tuples (seed %d)\n\nData: %s\n\n", st.Seed, st.Data)
	fmt.Fprintln(w, "| file | read | dropped: empty gold | dropped: no noun in gold | dropped: suspect (flagged) | kept | gold has a noun (paper) |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|")
	for _, f := range st.Files {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s (%s) | %s | %s (%s) |\n", f.File, comma(f.Read), comma(f.EmptyGold),
			comma(f.NoNoun), comma(f.Suspect), comma(f.SuspectFlagged), comma(f.Kept), comma(f.PaperFilter), comma(f.PaperFilterRef))
	}
	fmt.Fprintln(w, "\n| split | sentences (paper) | mean \\|S\\| tokens | mean \\|Q\\| | mean b chars | gold CR (paper) |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|")
	for _, s := range st.Splits {
		ref := "—"
		if s.PaperGoldCR != nil {
			ref = fmt.Sprintf("%.3f", *s.PaperGoldCR)
		}
		fmt.Fprintf(w, "| %s | %s (%s) | %.2f | %.3f | %.2f | %.3f (%s) |\n", s.Split, comma(s.Sentences), comma(s.PaperN),
			s.MeanTokens, s.MeanQuery, s.MeanBudget, s.GoldCR, ref)
	}
	fmt.Fprintln(w, `
Drops are disjoint, each sentence counted under the first reason that applies: empty gold,
no noun in gold (the paper's filter), "# suspect" (test only; the number flagged in the file is
in brackets). "gold has a noun" = read − empty − no noun, the figure the paper reports
(198,570 train+validation, 9,949 test); the paper's test set still includes the suspect
sentences, ours leaves them out. Gold CR = mean over sentences of chars(gold joined by spaces) /
chars(S joined by spaces). Train forms are normalized ("##", "<unk>"), so train lengths and
ratios are approximate.`)
}

// comma formats n with thousands separators.
func comma(n int) string {
	if n < 0 {
		return "-" + comma(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
