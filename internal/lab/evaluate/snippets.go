package evaluate

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// SLORFunc returns the SLOR of compression kept of input i; nil when no language model
// is at hand.
type SLORFunc func(i int, kept []int) (float64, error)

// SnippetRow is the evaluation of one method and decoding as a snippet compressor.
type SnippetRow struct {
	Method   string  `json:"method"`
	Decoding string  `json:"decoding"`
	N        int     `json:"sentences"`
	F1       float64 `json:"f1"`
	CR       float64 `json:"cr"`
	// SLOR is the mean SLOR of the compressions (NaN without a language model).
	SLOR float64 `json:"-"`
	// SLORJSON is SLOR for the JSON report (absent without a language model).
	SLORJSON *float64 `json:"slor,omitempty"`
	// BudgetUse is the mean of ℓ(C) / min(b, ℓ(S)).
	BudgetUse float64 `json:"budget_use"`
	// Yielded counts the inputs where the rules yielded to the query.
	Yielded int `json:"yielded"`
	// Checks are the rule violations of the compressions, by category
	// (wellformed.Categories order); Forced those that involve a query token.
	Checks map[string]int    `json:"violations"`
	Forced map[string]int    `json:"violations_forced_by_query"`
	Counts wellformed.Counts `json:"-"`
	// Broken counts the compressions with at least one violation (hedges aside).
	Broken int `json:"broken"`
	// RoomLeft counts the compressions shorter than their sentence that leave room for
	// more: a word outside C whose closure under the rules still fits the budget.
	RoomLeft int `json:"room_left"`
	// Chop is how choppy the compressions read in the display rendering, where every cut
	// that drops a word is shown as "…" (wellformed.Chopper), summed over the compressions.
	Chop wellformed.Choppiness `json:"choppiness"`
	// PerF1, PerSLOR and Kept are per input, in input order.
	PerF1   []float64 `json:"-"`
	PerSLOR []float64 `json:"-"`
	Kept    [][]int   `json:"-"`
}

// Gold is a pseudo-method whose compressions are the gold ones, for the checker and
// SLOR tables.
const Gold = "gold"

// SnippetScore compresses every input with m under dec (m nil: the gold compressions) and
// measures F1 against the gold, CR, SLOR (when slor is not nil), budget use, the rule
// checker, the choppiness of the display rendering and the yields. off switches
// well-formedness rules off in the decoding and in the room-left measure, for ablations
// (wellformed.Rules.Off; 0 for none).
func SnippetScore(m method.Method, dec method.Decoding, off uint16, inputs []method.Input, slor SLORFunc) (SnippetRow, error) {
	name := Gold
	if m != nil {
		name = m.Name()
	}
	row := SnippetRow{Method: name, Decoding: dec.String(), N: len(inputs), Kept: make([][]int, len(inputs)),
		PerF1: make([]float64, len(inputs))}
	if m == nil {
		row.Decoding = "—"
		for i, in := range inputs {
			row.Kept[i] = in.Gold
		}
	} else {
		ev, err := EvaluateCompressor(m, inputs, runtime.GOMAXPROCS(0), method.Compressor{Decoding: dec, RulesOff: off})
		if err != nil {
			return row, fmt.Errorf("%s: %w", name, err)
		}
		row.Kept, row.Yielded = ev.Kept, ev.Yielded
	}
	var crs, use []float64
	var ck wellformed.Checker
	var ch wellformed.Chopper
	rm := room{off: off}
	for i, in := range inputs {
		kept := row.Kept[i]
		f1, err := metrics.F1(in.Tree.N(), kept, in.Gold)
		if err != nil {
			return row, err
		}
		row.PerF1[i] = f1
		forms := in.Sentence.Forms()
		cr, err := metrics.CompressionRatio(forms, kept)
		if err != nil {
			return row, err
		}
		crs = append(crs, cr)
		use = append(use, budgetUse(forms, kept, in.Budget))
		c := ck.Check(in.Sentence, kept, in.Query)
		row.Counts.Add(c)
		if c.Any() {
			row.Broken++
		}
		row.Chop.Add(ch.Chop(in.Sentence, in.Tree, kept, in.Query))
		if rm.left(in, forms, kept) {
			row.RoomLeft++
		}
	}
	row.F1, _ = metrics.Mean(row.PerF1)
	row.CR, _ = metrics.Mean(crs)
	row.BudgetUse, _ = metrics.Mean(use)
	row.Checks, row.Forced = map[string]int{}, map[string]int{}
	for _, k := range wellformed.Categories() {
		row.Checks[k.String()] = row.Counts.Total[k]
		row.Forced[k.String()] = row.Counts.Forced[k]
	}
	row.SLOR = math.NaN()
	if slor != nil {
		row.PerSLOR = make([]float64, len(inputs))
		for i, k := range row.Kept {
			v, err := slor(i, k)
			if err != nil {
				return row, fmt.Errorf("%s: SLOR: %w", name, err)
			}
			row.PerSLOR[i] = v
		}
		row.SLOR, _ = metrics.Mean(row.PerSLOR)
		row.SLORJSON = &row.SLOR
	}
	return row, nil
}

// room measures whether compressions stop before nothing more fits; its buffers are
// reused from one compression to the next.
type room struct {
	off   uint16 // the rules switched off (wellformed.Rules.Off)
	rules wellformed.Rules
	lens  []int
	in    []bool
}

// left reports whether a compression kept of in, shorter than the sentence, leaves room
// in the budget for a word (a token that is not punctuation) outside it with its closure
// under the rules (those m.off leaves on): whether the decoding stopped before nothing
// more fit.
func (m *room) left(in method.Input, forms []string, kept []int) bool {
	n := len(forms)
	if len(kept) == n {
		return false
	}
	m.lens = in.Sentence.AppendLens(m.lens[:0])
	m.rules.Off = m.off
	if err := m.rules.Reset(in.Sentence, in.Tree, m.lens, in.Query, in.Budget); err != nil {
		return false
	}
	m.in = slices.Grow(m.in[:0], n+1)[:n+1]
	clear(m.in)
	for _, v := range kept {
		m.in[v] = true
	}
	inC := func(u int) bool { return m.in[u] }
	free := in.Budget - charLen(forms, kept)
	for v := 1; v <= n; v++ {
		if !m.in[v] && !m.rules.Punct(v) && m.rules.Closure(v, inC, nil) <= free {
			return true
		}
	}
	return false
}

// charLen returns ℓ of kept (tokens joined by single spaces), in runes.
func charLen(forms []string, kept []int) int {
	n, _ := metrics.CharLen(forms, kept)
	return n
}

// fullLen returns ℓ(S).
func fullLen(forms []string) int {
	w := 0
	for _, f := range forms {
		w += syntax.TokenLen(f) + 1
	}
	return syntax.Length(w)
}

// budgetUse returns ℓ(C) / min(b, ℓ(S)).
func budgetUse(forms []string, kept []int, b int) float64 {
	all := fullLen(forms)
	if all == 0 {
		return 1
	}
	return float64(charLen(forms, kept)) / float64(min(b, all))
}

// SweepFractions are the budgets of the sweep, as fractions of ℓ(S).
var SweepFractions = []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2}

// SweepPoint is a method's evaluation at one budget fraction.
type SweepPoint struct {
	Fraction  float64 `json:"fraction"`
	F1        float64 `json:"f1"`
	BudgetUse float64 `json:"budget_use"`
	Broken    int     `json:"broken"`
	Yielded   int     `json:"yielded"`
}

// Sweep is a method's budget sweep.
type Sweep struct {
	Method   string       `json:"method"`
	Decoding string       `json:"decoding"`
	N        int          `json:"sentences"`
	Points   []SweepPoint `json:"points"`
	// Pairs counts adjacent budget pairs (b < b') over all sentences; Regressions those
	// where ℓ(C(b')) < ℓ(C(b)), and Nested those where C(b) ⊆ C(b').
	Pairs       int `json:"pairs"`
	Regressions int `json:"length_regressions"`
	Nested      int `json:"nested"`
}

// SweepBudgets compresses every input at budgets SweepFractions of ℓ(S) (at least ℓ(Q),
// rounded up) with m under dec, and measures F1 against the gold (which was made for
// b = ℓ(gold), so it measures fidelity, not an upper bound), budget use, the checker,
// length regressions and nesting between adjacent budgets, with the rules off switches
// off (as in SnippetScore).
func SweepBudgets(m method.Method, dec method.Decoding, off uint16, inputs []method.Input) (Sweep, error) {
	sw := Sweep{Method: m.Name(), Decoding: dec.String(), N: len(inputs)}
	prev := make([][]int, len(inputs))
	for fi, f := range SweepFractions {
		ins := make([]method.Input, len(inputs))
		for i, in := range inputs {
			forms := in.Sentence.Forms()
			b := int(math.Ceil(f * float64(fullLen(forms))))
			ins[i] = in
			ins[i].Budget = max(b, charLen(forms, slices.Sorted(slices.Values(in.Query))), 1)
		}
		row, err := SnippetScore(m, dec, off, ins, nil)
		if err != nil {
			return sw, err
		}
		pt := SweepPoint{Fraction: f, F1: row.F1, BudgetUse: row.BudgetUse, Broken: row.Broken, Yielded: row.Yielded}
		sw.Points = append(sw.Points, pt)
		if fi > 0 {
			for i := range inputs {
				a, b := prev[i], row.Kept[i]
				forms := inputs[i].Sentence.Forms()
				sw.Pairs++
				if charLen(forms, b) < charLen(forms, a) {
					sw.Regressions++
				}
				if subset(a, b) {
					sw.Nested++
				}
			}
		}
		for i := range inputs {
			prev[i] = slices.Clone(row.Kept[i])
		}
	}
	return sw, nil
}

// SlackOffsets are the budgets of the slack table, in characters beyond ℓ(gold).
var SlackOffsets = []int{0, 2, 4, 8, 16}

// SlackPoint is a method's evaluation at b = ℓ(gold) + Offset.
type SlackPoint struct {
	Offset    int      `json:"offset"`
	F1        float64  `json:"f1"`
	SLOR      float64  `json:"-"`
	SLORJSON  *float64 `json:"slor,omitempty"`
	BudgetUse float64  `json:"budget_use"`
}

// Slack is a method's evaluation at budgets a few characters beyond the gold length.
type Slack struct {
	Method   string       `json:"method"`
	Decoding string       `json:"decoding"`
	N        int          `json:"sentences"`
	Points   []SlackPoint `json:"points"`
}

// SlackBudgets compresses every input at b = ℓ(gold) + k for each k of SlackOffsets with
// m under dec, and measures F1 against the gold, SLOR (when slor is not nil) and budget
// use. The gold compressions are exactly ℓ(gold) long, so a decoder that packs the budget
// to the character can rebuild them at k = 0 and not at k = 2: the table shows how much
// of a method's F1 at b = ℓ(gold) comes from the budget being the gold's length, which a
// reader's budget never is. at0, when not nil, is SnippetScore's row for m, dec and the
// same inputs at b = ℓ(gold), which is then the point k = 0 instead of being computed
// again. off switches rules off as in SnippetScore.
func SlackBudgets(m method.Method, dec method.Decoding, off uint16, inputs []method.Input, slor SLORFunc, at0 *SnippetRow) (Slack, error) {
	sl := Slack{Method: m.Name(), Decoding: dec.String(), N: len(inputs)}
	ins := make([]method.Input, len(inputs))
	for _, k := range SlackOffsets {
		if k == 0 && at0 != nil {
			if at0.Method != sl.Method || at0.Decoding != sl.Decoding || at0.N != sl.N {
				return sl, fmt.Errorf("slack: the row at b = ℓ(gold) is %s, %s on %d inputs, not %s, %s on %d", at0.Method, at0.Decoding, at0.N, sl.Method, sl.Decoding, sl.N)
			}
			sl.Points = append(sl.Points, SlackPoint{Offset: 0, F1: at0.F1, SLOR: at0.SLOR, SLORJSON: at0.SLORJSON, BudgetUse: at0.BudgetUse})
			continue
		}
		for i, in := range inputs {
			ins[i] = in
			ins[i].Budget = in.Budget + k
		}
		row, err := SnippetScore(m, dec, off, ins, slor)
		if err != nil {
			return sl, err
		}
		sl.Points = append(sl.Points, SlackPoint{Offset: k, F1: row.F1, SLOR: row.SLOR, SLORJSON: row.SLORJSON, BudgetUse: row.BudgetUse})
	}
	return sl, nil
}

// subset reports whether the ascending a is a subset of the ascending b.
func subset(a, b []int) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// Words joins the forms of kept with spaces, with "…" where tokens were cut, for
// examples in reports.
func Words(forms []string, kept []int) string {
	var b strings.Builder
	last := 0
	for _, v := range kept {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if v != last+1 && (last > 0 || v > 1) {
			b.WriteString("… ")
		}
		b.WriteString(forms[v-1])
		last = v
	}
	if last > 0 && last < len(forms) {
		b.WriteString(" …")
	}
	return b.String()
}
