package evaluate

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/qsc-nlp/qsc/lm"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/wellformed"
)

// SnippetEval is one evaluation of methods as snippet compressors, as qsc-lab eval
// --snippets and --ood make it: each method under each decoding of Decodings it has
// (DecodingsOf), with the well-formedness rules RulesOff switches off (wellformed.Rules.Off,
// for ablations), and SLOR from LM (nil: none). Its Markdown and its report are made
// together, from the same rows.
type SnippetEval struct {
	Methods   []method.Method
	Decodings []method.Decoding
	RulesOff  uint16
	LM        *lm.Model
	Seed      uint64 // of the examples, and printed
	Date      string // printed in the title and the report
}

// SnippetReport is the JSON output of a SnippetEval.
type SnippetReport struct {
	Date    string       `json:"date"`
	Seed    uint64       `json:"seed"`
	Split   string       `json:"split"`
	Rows    []SnippetRow `json:"rows"`
	Sweeps  []Sweep      `json:"sweeps,omitempty"`
	Slack   []Slack      `json:"slack,omitempty"`
	Default string       `json:"default_method"`
}

// InputSet is one set of inputs of an evaluation, such as one reading of the
// out-of-domain set (ood.Inputs).
type InputSet struct {
	Name, Title string
	Inputs      []method.Input
}

// SplitOptions are the parts of a split's snippet evaluation beyond its main table.
type SplitOptions struct {
	SweepN   int  // sentences in the budget sweep (the first SweepN; 0: no sweep)
	Slack    bool // the budget slack table
	Examples int  // fixed examples to print (0: none)
}

// OOD evaluates every set, the readings of the out-of-domain set (ood.Inputs: gold
// trees, and qsc's own parse), and returns the Markdown and the report: a table per set, the rows' methods marked with the
// set's name.
func (e *SnippetEval) OOD(sets []InputSet) (string, *SnippetReport, error) {
	rep := &SnippetReport{Date: e.Date, Seed: e.Seed, Default: DefaultSnippetMethod, Split: "ood"}
	var md strings.Builder
	fmt.Fprintf(&md, "# Out-of-domain snippet evaluation (EWT development set, seed %d, %s)\n\n", rep.Seed, rep.Date)
	for _, set := range sets {
		rows, err := e.rows(set.Inputs)
		if err != nil {
			return "", nil, err
		}
		for i := range rows {
			rows[i].Method += " [" + set.Name + "]"
		}
		rep.Rows = append(rep.Rows, rows...)
		fmt.Fprintf(&md, "## %s (%d sentences)\n\n", set.Title, len(set.Inputs))
		writeSnippetTable(&md, rows)
	}
	writeSnippetNotes(&md)
	return md.String(), rep, nil
}

// Split evaluates the inputs of a split (named split) and returns the Markdown and the
// report: the main table at b = ℓ(gold), then what o asks for: the budget sweep, the
// slack table and the examples.
func (e *SnippetEval) Split(inputs []method.Input, split string, o SplitOptions) (string, *SnippetReport, error) {
	rep := &SnippetReport{Date: e.Date, Seed: e.Seed, Default: DefaultSnippetMethod, Split: split}
	var md strings.Builder
	rows, err := e.rows(inputs)
	if err != nil {
		return "", nil, err
	}
	rep.Rows = rows
	fmt.Fprintf(&md, "# Snippet evaluation (%s split, seed %d, %s)\n\n", split, rep.Seed, rep.Date)
	fmt.Fprintf(&md, "%d tuples; b = ℓ(gold), Q = 1–3 gold nouns; the corpus's own XPOS, trees from qsc's parser.\n\n", len(inputs))
	writeSnippetTable(&md, rows)
	writeSnippetNotes(&md)
	if n := min(o.SweepN, len(inputs)); n > 0 {
		fmt.Fprintf(&md, "\n## Budget sweep (the first %d sentences, b = 30%% … 120%% of ℓ(S))\n\n", n)
		fmt.Fprintf(&md, "Use = ℓ(C) / min(b, ℓ(S)); a length regression is a larger b giving a shorter C; nested means C(b) ⊆ C(b′) for adjacent b < b′. F1 is against the gold made for b = ℓ(gold).\n\n")
		fmt.Fprintf(&md, "| method | decoding | length regressions | nested |")
		for _, f := range SweepFractions {
			fmt.Fprintf(&md, " %.0f%%: F1 / use / broken |", 100*f)
		}
		fmt.Fprintf(&md, "\n|---|---|--:|--:|%s\n", strings.Repeat("--:|", len(SweepFractions)))
		for _, m := range e.Methods {
			for _, dec := range DecodingsOf(m, e.Decodings) {
				sw, err := SweepBudgets(m, dec, e.RulesOff, inputs[:n])
				if err != nil {
					return "", nil, err
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
	if o.Slack {
		if err := e.writeSlack(&md, rep, inputs, rows); err != nil {
			return "", nil, err
		}
	}
	if o.Examples > 0 {
		writeExamples(&md, rows, inputs, o.Examples, e.Seed)
	}
	return md.String(), rep, nil
}

// findRow returns the row of method under dec, nil when rows has none.
func findRow(rows []SnippetRow, method, dec string) *SnippetRow {
	for i := range rows {
		if rows[i].Method == method && rows[i].Decoding == dec {
			return &rows[i]
		}
	}
	return nil
}

// writeSlack evaluates every method and decoding at budgets beyond the gold length
// (SlackBudgets, reusing the rows of the main table for k = 0) and writes the
// table.
func (e *SnippetEval) writeSlack(md *strings.Builder, rep *SnippetReport, inputs []method.Input, rows []SnippetRow) error {
	ms, decs := e.Methods, e.Decodings
	fmt.Fprintf(md, "\n## Budget slack (b = ℓ(gold) + k characters, all %d tuples)\n\n", len(inputs))
	fmt.Fprintf(md, "The gold compressions are exactly ℓ(gold) long. A decoder that packs the budget to the character can rebuild them at k = 0 and not at k = 2; a reader's budget is never the gold's length. F1 is against the same gold.\n\n")
	fmt.Fprintf(md, "| method | decoding |")
	for _, k := range SlackOffsets {
		fmt.Fprintf(md, " +%d: F1 / SLOR |", k)
	}
	fmt.Fprintf(md, "\n|---|---|%s\n", strings.Repeat("--:|", len(SlackOffsets)))
	slor := snippetSLOR(e.LM, inputs)
	for _, m := range ms {
		for _, dec := range DecodingsOf(m, decs) {
			sl, err := SlackBudgets(m, dec, e.RulesOff, inputs, slor, findRow(rows, m.Name(), dec.String()))
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

// DefaultSnippetMethod is the method that the library, CLI, service and page use by
// default; the evaluation marks it.
const DefaultSnippetMethod = "ilp"

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

// DecodingsOf returns the decodings of decs that m has: the window has only the snippet
// decoding (it is nested already).
func DecodingsOf(m method.Method, decs []method.Decoding) []method.Decoding {
	if m.Name() != baseline.NameWindow {
		return decs
	}
	if slices.Contains(decs, method.Snippet) {
		return []method.Decoding{method.Snippet}
	}
	return nil
}

// snippetSLOR returns the SLOR of a compression of inputs[i] under slorLM; nil without it.
func snippetSLOR(slorLM *lm.Model, inputs []method.Input) SLORFunc {
	if slorLM == nil {
		return nil
	}
	return func(i int, kept []int) (float64, error) {
		return slorLM.SLORTokens(inputs[i].Sentence.Forms(), kept)
	}
}

// rows evaluates the gold, then each method under each of its decodings.
func (e *SnippetEval) rows(inputs []method.Input) ([]SnippetRow, error) {
	ms, decs := e.Methods, e.Decodings
	slor := snippetSLOR(e.LM, inputs)
	gold, err := SnippetScore(nil, method.Snippet, e.RulesOff, inputs, slor)
	if err != nil {
		return nil, err
	}
	rows := []SnippetRow{gold}
	for _, m := range ms {
		for _, dec := range DecodingsOf(m, decs) {
			row, err := SnippetScore(m, dec, e.RulesOff, inputs, slor)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

func writeSnippetTable(w io.Writer, rows []SnippetRow) {
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
	fmt.Fprintf(w, "\npaper = the decoder of Handler & O'Connor (Table 2); snippet = budget-true, well-formed decoding (the sentence itself when it fits; the rules of package wellformed; for every method, the best display of its compression under the display rules of wellformed.Runs, package method/runs); nested = the snippet decoding with one order of the tokens for every budget, from which one sequence of displays under the same display rules grows, so that a larger budget keeps everything a smaller one kept (method.Nested, runs.Program.Nested). window = Q, then the nearest tokens while they fit. room left = compressions that stop while a word, with what the rules bind to it, still fits the budget. The next four columns read the display rendering, where every cut that drops a word is shown as …: inner gaps = … marks between two shown runs, per snippet; 1-word islands = snippets with a shown run of a single word that is not a query term; gap after function word = snippets with a cut right after a function word or \"to\" (\"the … client\"; a comma, colon, semicolon, dash or opening quote or bracket before a cut counts too); names cut = snippets that keep a name (proper nouns, with of/for inside, dates) in part (\"Saks … Avenue\"). broken = compressions with at least one violation (hedges aside); yielded = inputs where the rules yielded to the query; the category columns count violations (\"by Q\": involving a query token). Categories: function-head, a function word (case, mark, det, cc, aux, cop) without its head; function-end, ending on one; chain, part of a name or a flat/fixed/goeswith chain; symbol, a currency symbol or %% without its number; negation, a kept head without its negation; balance, half a pair of quotes or brackets; hedge, a kept head without its hedge (reported).\n")
}

// writeExamples prints n fixed examples (drawn with the seed among the sentences longer
// than their budget): the window, the paper's VA_LR, and the default method.
func writeExamples(w io.Writer, rows []SnippetRow, inputs []method.Input, n int, seed uint64) {
	win, old := findRow(rows, baseline.NameWindow, "snippet"), findRow(rows, method.NameLR, "paper")
	def, nest := findRow(rows, DefaultSnippetMethod, "snippet"), findRow(rows, DefaultSnippetMethod, "nested")
	if win == nil || old == nil || def == nil {
		return
	}
	rng := rand.New(rand.NewPCG(seed, 0xe8a))
	fmt.Fprintf(w, "\n## %d examples (fixed by the seed)\n\n", n)
	head, rule := "| # | b | query | window | VA_LR, paper decoder (old default) | "+DefaultSnippetMethod+", snippet decoder (default) |", "|--:|--:|---|---|---|---|"
	if nest != nil {
		head, rule = head+" "+DefaultSnippetMethod+", nested decoder |", rule+"---|"
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
		cell := func(kept []int) string { return strings.ReplaceAll(Words(forms, kept), "|", `\|`) }
		fmt.Fprintf(w, "| %d | %d | %s | %s | %s | %s |", k+1, in.Budget, strings.Join(q, ", "), cell(win.Kept[i]), cell(old.Kept[i]), cell(def.Kept[i]))
		if nest != nil {
			fmt.Fprintf(w, " %s |", cell(nest.Kept[i]))
		}
		fmt.Fprintln(w)
		k++
	}
}
