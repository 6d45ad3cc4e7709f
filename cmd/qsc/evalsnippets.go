package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/lm"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/wellformed"
)

// snippetFlags are the flags of qsc eval --snippets and --ood.
type snippetFlags struct {
	snippets, ood, validation *bool
	methods                   *string
	sweepN, examples          *int
	slor                      *bool
	rulesOff                  *string
	decodings                 *string
	slack                     *bool
}

func addSnippetFlags(fs *flag.FlagSet) *snippetFlags {
	return &snippetFlags{
		snippets:   fs.Bool("snippets", false, "evaluate the methods as snippet compressors on the Google test split: F1, CR, SLOR, budget use and the well-formedness checker under the paper's and the snippet decoding, the budget sweep and 20 examples (snippets.md/.json, or ood.md/.json, in --out; by default in docs/results when no other setting than --samples, --data or --cache is given, else only printed)"),
		ood:        fs.Bool("ood", false, "the same on the out-of-domain EWT development set shipped in internal/lab/ood (gold trees, and qsc's own parse)"),
		validation: fs.Bool("validation", false, "with --snippets: use the validation split of the train file instead of the test split (for model selection)"),
		methods:    fs.String("snippet-methods", "window,lr,ablated,random,nn,ilp", "with --snippets or --ood: comma-separated methods"),
		sweepN:     fs.Int("sweep-n", 2000, "with --snippets: sentences in the budget sweep (the first N of the split)"),
		examples:   fs.Int("examples", 20, "with --snippets: fixed examples to print"),
		rulesOff:   fs.String("rules-off", "", "with --snippets or --ood: comma-separated well-formedness rules to switch off, for ablations ("+strings.Join(ruleNames(), ", ")+")"),
		decodings:  fs.String("decodings", "paper,snippet,nested", "with --snippets or --ood: comma-separated decodings to evaluate (paper, snippet, nested; the window has one)"),
		slor:       fs.Bool("slor", true, "with --snippets or --ood: SLOR from the 3-gram language model (built first if needed)"),
		slack:      fs.Bool("slack", true, "with --snippets: the budget slack table, F1 and SLOR at b = ℓ(gold) + 0, 2, 4, 8 and 16 characters"),
	}
}

// snippetReport is the JSON output of qsc eval --snippets / --ood.
type snippetReport struct {
	Date    string                `json:"date"`
	Seed    uint64                `json:"seed"`
	Split   string                `json:"split"`
	Rows    []evaluate.SnippetRow `json:"rows"`
	Sweeps  []evaluate.Sweep      `json:"sweeps,omitempty"`
	Slack   []evaluate.Slack      `json:"slack,omitempty"`
	Default string                `json:"default_method"`
}

// runSnippetEval is qsc eval --snippets or --ood.
func runSnippetEval(env *evalEnv, sf *snippetFlags, out string, stdout, stderr io.Writer) error {
	off, err := wellformed.ParseOff(*sf.rulesOff)
	if err != nil {
		return usagef("%v", err)
	}
	evaluate.RulesOff = off
	var decs []method.Decoding
	for _, name := range strings.Split(*sf.decodings, ",") {
		d, err := method.ParseDecoding(strings.TrimSpace(name))
		if err != nil {
			return usagef("--decodings: %v", err)
		}
		decs = append(decs, d)
	}
	var ms []method.Method
	for _, name := range strings.Split(*sf.methods, ",") {
		m, err := env.method(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	var slorLM *lm.Model
	if *sf.slor {
		var err error
		if slorLM, err = evalLM(env, stderr); err != nil {
			return err
		}
	}
	rep := snippetReport{Date: time.Now().UTC().Format(time.RFC3339), Seed: *env.seed, Default: defaultSnippetMethod}
	var md strings.Builder
	if *sf.ood {
		sets, err := oodInputs(env)
		if err != nil {
			return err
		}
		rep.Split = "ood"
		fmt.Fprintf(&md, "# Out-of-domain snippet evaluation (EWT development set, seed %d, %s)\n\n", rep.Seed, rep.Date)
		for _, set := range sets {
			rows, err := snippetRows(ms, decs, set.inputs, slorLM)
			if err != nil {
				return err
			}
			for i := range rows {
				rows[i].Method += " [" + set.name + "]"
			}
			rep.Rows = append(rep.Rows, rows...)
			fmt.Fprintf(&md, "## %s (%d sentences)\n\n", set.title, len(set.inputs))
			writeSnippetTable(&md, rows)
		}
		writeSnippetNotes(&md)
		return writeSnippetOutputs(&md, &rep, out, "ood", stdout)
	}
	inputs, split, err := snippetInputs(env, *sf.validation)
	if err != nil {
		return err
	}
	rep.Split = split
	rows, err := snippetRows(ms, decs, inputs, slorLM)
	if err != nil {
		return err
	}
	rep.Rows = rows
	fmt.Fprintf(&md, "# Snippet evaluation (%s split, seed %d, %s)\n\n", split, rep.Seed, rep.Date)
	fmt.Fprintf(&md, "%d tuples; b = ℓ(gold), Q = 1–3 gold nouns; the corpus's own XPOS, trees from qsc's parser.\n\n", len(inputs))
	writeSnippetTable(&md, rows)
	writeSnippetNotes(&md)
	if n := min(*sf.sweepN, len(inputs)); n > 0 {
		fmt.Fprintf(&md, "\n## Budget sweep (the first %d sentences, b = 30%% … 120%% of ℓ(S))\n\n", n)
		fmt.Fprintf(&md, "Use = ℓ(C) / min(b, ℓ(S)); a length regression is a larger b giving a shorter C; nested means C(b) ⊆ C(b′) for adjacent b < b′. F1 is against the gold made for b = ℓ(gold).\n\n")
		fmt.Fprintf(&md, "| method | decoding | length regressions | nested |")
		for _, f := range evaluate.SweepFractions {
			fmt.Fprintf(&md, " %.0f%%: F1 / use / broken |", 100*f)
		}
		fmt.Fprintf(&md, "\n|---|---|--:|--:|%s\n", strings.Repeat("--:|", len(evaluate.SweepFractions)))
		for _, m := range ms {
			for _, dec := range decodingsOf(m, decs) {
				sw, err := evaluate.SweepBudgets(m, dec, inputs[:n])
				if err != nil {
					return err
				}
				rep.Sweeps = append(rep.Sweeps, sw)
				fmt.Fprintf(&md, "| %s | %s | %.2f%% | %.1f%% |", sw.Method, sw.Decoding,
					pct(sw.Regressions, sw.Pairs), pct(sw.Nested, sw.Pairs))
				for _, p := range sw.Points {
					fmt.Fprintf(&md, " %.3f / %.2f / %d |", p.F1, p.BudgetUse, p.Broken)
				}
				fmt.Fprintln(&md)
			}
		}
	}
	if *sf.slack {
		if err := writeSlack(&md, &rep, ms, decs, inputs, slorLM, rows); err != nil {
			return err
		}
	}
	if *sf.examples > 0 {
		writeExamples(&md, rows, inputs, *sf.examples, *env.seed)
	}
	return writeSnippetOutputs(&md, &rep, out, "snippets", stdout)
}

// findRow returns the row of method under dec, nil when rows has none.
func findRow(rows []evaluate.SnippetRow, method, dec string) *evaluate.SnippetRow {
	for i := range rows {
		if rows[i].Method == method && rows[i].Decoding == dec {
			return &rows[i]
		}
	}
	return nil
}

// writeSlack evaluates every method and decoding at budgets beyond the gold length
// (evaluate.SlackBudgets, reusing the rows of the main table for k = 0) and writes the
// table.
func writeSlack(md *strings.Builder, rep *snippetReport, ms []method.Method, decs []method.Decoding, inputs []method.Input, slorLM *lm.Model, rows []evaluate.SnippetRow) error {
	fmt.Fprintf(md, "\n## Budget slack (b = ℓ(gold) + k characters, all %d tuples)\n\n", len(inputs))
	fmt.Fprintf(md, "The gold compressions are exactly ℓ(gold) long. A decoder that packs the budget to the character can rebuild them at k = 0 and not at k = 2; a reader's budget is never the gold's length. F1 is against the same gold.\n\n")
	fmt.Fprintf(md, "| method | decoding |")
	for _, k := range evaluate.SlackOffsets {
		fmt.Fprintf(md, " +%d: F1 / SLOR |", k)
	}
	fmt.Fprintf(md, "\n|---|---|%s\n", strings.Repeat("--:|", len(evaluate.SlackOffsets)))
	slor := snippetSLOR(slorLM, inputs)
	for _, m := range ms {
		for _, dec := range decodingsOf(m, decs) {
			sl, err := evaluate.SlackBudgets(m, dec, inputs, slor, findRow(rows, m.Name(), dec.String()))
			if err != nil {
				return err
			}
			rep.Slack = append(rep.Slack, sl)
			fmt.Fprintf(md, "| %s | %s |", sl.Method, sl.Decoding)
			for _, p := range sl.Points {
				fmt.Fprintf(md, " %.4f / %s |", p.F1, slorCell(p.SLOR))
			}
			fmt.Fprintln(md)
		}
	}
	return nil
}

// slorCell formats a SLOR, "—" without a language model.
func slorCell(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf("%.3f", v)
}

// defaultSnippetMethod is the method that the library, CLI, service and page use by
// default; the evaluation marks it.
const defaultSnippetMethod = "ilp"

func ruleNames() []string {
	var out []string
	for _, k := range wellformed.Categories() {
		out = append(out, k.String())
	}
	return out
}

// per returns a / b, 0 when b is 0.
func per(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// decodingsOf returns the decodings of decs that m has: the window has only the snippet
// decoding (it is nested already).
func decodingsOf(m method.Method, decs []method.Decoding) []method.Decoding {
	if m.Name() != baseline.NameWindow {
		return decs
	}
	if slices.Contains(decs, method.Snippet) {
		return []method.Decoding{method.Snippet}
	}
	return nil
}

// snippetSLOR returns the SLOR of a compression of inputs[i] under slorLM; nil without it.
func snippetSLOR(slorLM *lm.Model, inputs []method.Input) evaluate.SLORFunc {
	if slorLM == nil {
		return nil
	}
	return func(i int, kept []int) (float64, error) {
		return slorLM.SLORTokens(inputs[i].Sentence.Forms(), kept)
	}
}

// snippetRows evaluates the gold, then each method under each of its decodings in decs.
func snippetRows(ms []method.Method, decs []method.Decoding, inputs []method.Input, slorLM *lm.Model) ([]evaluate.SnippetRow, error) {
	slor := snippetSLOR(slorLM, inputs)
	gold, err := evaluate.SnippetScore(nil, method.Snippet, inputs, slor)
	if err != nil {
		return nil, err
	}
	rows := []evaluate.SnippetRow{gold}
	for _, m := range ms {
		for _, dec := range decodingsOf(m, decs) {
			row, err := evaluate.SnippetScore(m, dec, inputs, slor)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

func writeSnippetTable(w io.Writer, rows []evaluate.SnippetRow) {
	fmt.Fprintf(w, "| method | decoding | F1 | CR | SLOR | budget use | room left | inner gaps | 1-word islands | gap after function word | names cut | broken | yielded |")
	for _, k := range wellformed.Categories() {
		fmt.Fprintf(w, " %s |", k)
	}
	fmt.Fprintf(w, "\n|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|%s\n", strings.Repeat("--:|", int(wellformed.NumCategories)))
	for _, r := range rows {
		slor := "—"
		if !math.IsNaN(r.SLOR) {
			slor = fmt.Sprintf("%.3f", r.SLOR)
		}
		c := r.Chop
		fmt.Fprintf(w, "| %s | %s | %.4f | %.3f | %s | %.3f | %.1f%% | %.2f | %.1f%% | %.1f%% | %.1f%% | %d | %d |", r.Method, r.Decoding, r.F1, r.CR, slor, r.BudgetUse, pct(r.RoomLeft, r.N),
			per(c.Gaps, c.Snippets), pct(c.Islands, c.Snippets), pct(c.AfterFunction, c.Snippets), pct(c.NamesCut, c.Snippets), r.Broken, r.Yielded)
		for _, k := range wellformed.Categories() {
			if f := r.Counts.Forced[k]; f > 0 {
				fmt.Fprintf(w, " %d (%d by Q) |", r.Counts.Total[k], f)
			} else {
				fmt.Fprintf(w, " %d |", r.Counts.Total[k])
			}
		}
		fmt.Fprintln(w)
	}
}

func writeSnippetNotes(w io.Writer) {
	fmt.Fprintf(w, "\npaper = the decoder of Handler & O'Connor (Table 2); snippet = budget-true, well-formed decoding (the sentence itself when it fits; the rules of package wellformed; for the ILP, the best display of its optimum under the display rules of wellformed.Runs); nested = the snippet decoding with one order of the tokens for every budget, so that a larger budget keeps everything a smaller one kept (method.Nested). window = Q, then the nearest tokens while they fit. room left = compressions that stop while a word, with what the rules bind to it, still fits the budget. The next four columns read the display rendering, where every cut that drops a word is shown as …: inner gaps = … marks between two shown runs, per snippet; 1-word islands = snippets with a shown run of a single word that is not a query term; gap after function word = snippets with a cut right after a function word or \"to\" (\"the … client\"; a comma, colon, semicolon, dash or opening quote or bracket before a cut counts too); names cut = snippets that keep a name (proper nouns, with of/for inside, dates) in part (\"Saks … Avenue\"). broken = compressions with at least one violation (hedges aside); yielded = inputs where the rules yielded to the query; the category columns count violations (\"by Q\": involving a query token). Categories: function-head, a function word (case, mark, det, cc, aux, cop) without its head; function-end, ending on one; chain, part of a name or a flat/fixed/goeswith chain; symbol, a currency symbol or %% without its number; negation, a kept head without its negation; balance, half a pair of quotes or brackets; hedge, a kept head without its hedge (reported).\n")
}

// writeExamples prints n fixed examples (drawn with the seed among the sentences longer
// than their budget): the window, the paper's VA_LR, and the default method.
func writeExamples(w io.Writer, rows []evaluate.SnippetRow, inputs []method.Input, n int, seed uint64) {
	win, old := findRow(rows, baseline.NameWindow, "snippet"), findRow(rows, method.NameLR, "paper")
	def, nest := findRow(rows, defaultSnippetMethod, "snippet"), findRow(rows, defaultSnippetMethod, "nested")
	if win == nil || old == nil || def == nil {
		return
	}
	rng := rand.New(rand.NewPCG(seed, 0xe8a))
	fmt.Fprintf(w, "\n## %d examples (fixed by the seed)\n\n", n)
	head, rule := "| # | b | query | window | VA_LR, paper decoder (old default) | "+defaultSnippetMethod+", snippet decoder (default) |", "|--:|--:|---|---|---|---|"
	if nest != nil {
		head, rule = head+" "+defaultSnippetMethod+", nested decoder |", rule+"---|"
	}
	fmt.Fprintf(w, "%s\n%s\n", head, rule)
	for k, tries := 0, 0; k < n && tries < 100*n; tries++ {
		i := rng.IntN(len(inputs))
		in := inputs[i]
		forms := in.Sentence.Forms()
		if len(def.Kept[i]) == len(forms) || len(forms) > 45 {
			continue
		}
		var q []string
		for _, v := range in.Query {
			q = append(q, forms[v-1])
		}
		cell := func(kept []int) string { return strings.ReplaceAll(evaluate.Words(forms, kept), "|", `\|`) }
		fmt.Fprintf(w, "| %d | %d | %s | %s | %s | %s |", k+1, in.Budget, strings.Join(q, ", "), cell(win.Kept[i]), cell(old.Kept[i]), cell(def.Kept[i]))
		if nest != nil {
			fmt.Fprintf(w, " %s |", cell(nest.Kept[i]))
		}
		fmt.Fprintln(w)
		k++
	}
}

func writeSnippetOutputs(md *strings.Builder, rep *snippetReport, out, base string, stdout io.Writer) error {
	fmt.Fprint(stdout, md.String())
	if out == "" {
		return nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, base+".json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, base+".md"), []byte(md.String()), 0o644)
}

// snippetInputs returns the Google test inputs (given XPOS, qsc's trees), or the
// validation split's.
func snippetInputs(env *evalEnv, validation bool) ([]method.Input, string, error) {
	if !validation {
		t, err := env.test(parsecache.Given)
		if err != nil {
			return nil, "", err
		}
		return t.Inputs, "test", nil
	}
	_, valid, err := trainingInputs("", *env.seed, 1, 0, false, io.Discard)
	return valid, string(dataset.Validation), err
}
