package qsc

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/syntax"
)

// What a budget counts: Request.BudgetCounts and SnippetRequest.BudgetCounts.
const (
	// BudgetTokens counts the characters of the kept tokens joined by single spaces, as
	// the paper (and the compression models' training) does. The default of Request.
	BudgetTokens = "tokens"
	// BudgetDisplay counts the characters a reader sees: the compression as text (its
	// kept runs in their own spelling) and its ellipsis rendering, "…" marks and their
	// spaces included; both fit in the budget. The default of SnippetRequest.
	BudgetDisplay = "display"
	// BudgetColumns is BudgetDisplay counted in columns, as a fixed-width box shows the
	// text: an East Asian wide or full-width character (漢字, かな, 한글) takes two, a
	// combining mark none (display.Columns).
	BudgetColumns = "columns"
)

// BudgetModes returns the values a request's BudgetCounts takes: BudgetTokens,
// BudgetDisplay and BudgetColumns ("" is the request's default).
func BudgetModes() []string { return []string{BudgetTokens, BudgetDisplay, BudgetColumns} }

// budgetMode checks a BudgetCounts value; "" is def.
func budgetMode(mode, def string) (string, error) {
	switch {
	case mode == "":
		return def, nil
	case slices.Contains(BudgetModes(), mode):
		return mode, nil
	}
	return "", fmt.Errorf("%w: budget_counts must be %q, %q or %q, not %q", ErrBadRequest, BudgetTokens, BudgetDisplay, BudgetColumns, mode)
}

// checkBudget checks the budget of a request: a missing (zero) budget is "required", a
// negative one is refused with its value. Its errors wrap ErrBadRequest.
func checkBudget(b int) error {
	switch {
	case b == 0:
		return fmt.Errorf("%w: budget is required (budget must be a positive number of characters)", ErrBadRequest)
	case b < 0:
		return fmt.Errorf("%w: budget must be a positive number of characters, got %d", ErrBadRequest, b)
	}
	return nil
}

// view is a sentence as it is displayed: the text it was cut from and the span of each
// token in it. The spans are those of toks when set (offsets into text), else spans.
type view struct {
	text  string
	toks  []syntax.Token
	spans []Span
}

// viewOf returns the view of sentence s of text: its tokens' own offsets when they are
// spans of text, ascending; else (a sentence given as tokens) the tokens detokenized.
func viewOf(text string, s *syntax.Sentence) view {
	end := 0
	for _, t := range s.Tokens {
		if t.Start < end || t.End <= t.Start || t.End > len(text) {
			forms := make([]string, len(s.Tokens))
			for i, t := range s.Tokens {
				forms[i] = t.Form
			}
			v := view{}
			v.text, v.spans = display.Detokenize(forms)
			return v
		}
		end = t.End
	}
	return view{text: text, toks: s.Tokens}
}

// span returns the span of the token of 1-based id.
func (v *view) span(id int) Span {
	if v.toks != nil {
		t := &v.toks[id-1]
		return Span{Start: t.Start, End: t.End}
	}
	return v.spans[id-1]
}

// len returns the number of tokens.
func (v *view) len() int {
	if v.toks != nil {
		return len(v.toks)
	}
	return len(v.spans)
}

// sentence returns the span of the whole sentence.
func (v *view) sentence() Span {
	return Span{Start: v.span(1).Start, End: v.span(v.len()).End}
}

// runs returns the maximal runs of consecutive tokens among ids (1-based, ascending).
func (v *view) runs(ids []int) []Span {
	return v.appendRuns(nil, ids)
}

// appendRuns appends the runs of ids (see runs) to out.
func (v *view) appendRuns(out []Span, ids []int) []Span {
	for k, id := range ids {
		sp := v.span(id)
		if k > 0 && ids[k-1] == id-1 {
			out[len(out)-1].End = sp.End
		} else {
			out = append(out, sp)
		}
	}
	return out
}

// spansOf returns the spans of the tokens of ids (1-based).
func (v *view) spansOf(ids []int) []Span {
	return v.appendSpans(make([]Span, 0, len(ids)), ids)
}

// appendSpans appends the spans of ids (see spansOf) to out.
func (v *view) appendSpans(out []Span, ids []int) []Span {
	for _, id := range ids {
		out = append(out, v.span(id))
	}
	return out
}

// render returns the compression kept as text, with the hits (1-based ids of the tokens
// that match the query) marked when markup, and "…" where words were cut when ellipsis.
func (v *view) render(kept, hits []int, ellipsis, markup bool) string {
	return display.Render(v.text, v.sentence(), v.runs(kept), v.spansOf(hits), ellipsis, markup)
}

// plain returns the plain rendering of the runs of the sentence, runs(kept): render(kept,
// nil, false, false) without finding the runs again.
func (v *view) plain(runs []Span) string {
	return display.Render(v.text, v.sentence(), runs, nil, false, false)
}

// wholeFits reports whether the sentence of v may fit b shown whole: its printable ASCII
// characters alone (display.MinLength), a lower bound of any rendering, do; a cheap test
// before the rendering.
func (v *view) wholeFits(b int) bool {
	sp := v.sentence()
	return display.MinLength(v.text[sp.Start:sp.End]) <= b
}

// whole sets w.all to the ids of a sentence of n tokens, 1 to n, and returns it.
func (w *worker) whole(n int) []int {
	w.all = w.all[:0]
	for i := 1; i <= n; i++ {
		w.all = append(w.all, i)
	}
	return w.all
}

// fitRounds bounds the recompressions of a display budget before the query alone.
const fitRounds = 8

// compress compresses in, whose Budget is the request's budget b, of the sentence v
// shows. With a token budget (shown false) under a budgeted decoding, a sentence whose
// plain rendering (its text as written) fits b is returned whole. With a display budget
// under the Snippet decoding, it asks the method for a compression that fits
// as displayed (method.Input.Fits): the ILP's dynamic program returns its best one, in one
// solve. Then, for every method, it renders the compression, and while the display
// (lengther.length, with the hits) is longer than b it shrinks the compressor's budget by the
// excess and compresses again: at most fitRounds times, the budget decreasing each time, and then with the
// budget of the query alone, which keeps the query alone. So the display of the result is
// at most b, or the error wraps ErrInfeasible. The slice is the compressor's memory.
func (w *worker) compress(m method.Method, in method.Input, v *view, shown bool, hits []int) ([]int, error) {
	b := in.Budget
	lq := in.Sentence.Length(in.Query)
	if len(in.Query) == 0 {
		lq = -1 // no query: the rounds may shrink the budget to −1 before the compressor refuses it
	}
	if !shown {
		if w.mc.Decoding.Budgeted() && v != nil && v.wholeFits(b) && utf8.RuneCountInString(v.plain(v.runs(w.whole(in.Sentence.Len())))) <= b {
			// The sentence as written fits: it is its own snippet, though its tokens
			// joined by spaces ("do n't know ,") may not.
			in.Budget = max(b, in.Sentence.Length(w.all))
		}
		v = nil
	}
	if v != nil {
		in.Budget = max(b, lq) // the display of the query may be shorter than ℓ(Q) (city's)
		if w.mc.Decoding.Budgeted() {
			// The whole sentence, when it fits as displayed.
			w.whole(in.Sentence.Len())
			if v.wholeFits(b) && w.length(v, w.all, hits) <= b {
				// The whole sentence fits as displayed: let the compressor return it (it
				// does when ℓ(S) ≤ b), so that its trace is this request's.
				in.Budget = max(in.Budget, in.Sentence.Length(w.all))
			}
		}
	}
	if v != nil && w.mc.Decoding.Budgeted() {
		// A solver that can (the ILP) returns its best compression that fits as displayed,
		// most often in the first round.
		if w.fit == nil {
			w.fit = w.fits
		}
		w.fv, w.fhits, w.fb, w.fkept = v, hits, b, w.fkept[:0]
		in.Fits = w.fit
		defer func() { w.fv, w.fhits = nil, nil }()
	}
	for round := 0; ; round++ {
		kept, err := w.mc.Compress(m, in)
		if err != nil {
			return nil, classify(err)
		}
		if len(in.Query) == 0 && !slices.ContainsFunc(kept, func(id int) bool { return display.HasWord(in.Sentence.Tokens[id-1].Form) }) {
			kept = kept[:0] // with no query, punctuation alone (".") says nothing
		}
		if v == nil {
			return kept, nil
		}
		d, ok := w.measured(kept)
		if !ok {
			d = w.length(v, kept, hits)
		}
		switch {
		case d <= b:
			return kept, nil
		case in.Budget <= lq:
			return nil, fmt.Errorf("%w: the query terms take %d characters as displayed (%q), more than the budget %d",
				ErrInfeasible, d, v.render(kept, hits, true, false), b)
		case round == fitRounds:
			in.Budget = lq
		default:
			in.Budget = max(lq, in.Budget-(d-b))
		}
	}
}

// fits reports whether kept fits the display budget being met (w.fb), as displayed. It
// remembers kept and its length for measured.
func (w *worker) fits(kept []int) bool {
	w.fkept = append(w.fkept[:0], kept...)
	w.flen = w.length(w.fv, kept, w.fhits)
	return w.flen <= w.fb
}

// measured returns the displayed length of kept when the last fits of this compression
// measured the same tokens: the ILP returns the compression it found to fit, which need
// not be measured twice.
func (w *worker) measured(kept []int) (int, bool) {
	if w.fv == nil || len(w.fkept) == 0 || !slices.Equal(kept, w.fkept) {
		return 0, false
	}
	return w.flen, true
}

// lengther computes displayed lengths with reusable memory: once grown, it
// allocates nothing. The zero value is ready; it is not safe for concurrent use.
type lengther struct {
	runs, hits []Span
	sc         display.Scratch
}

// length returns the displayed length of the compression kept of v, with the hits (1-based
// ids) marked: the larger number of characters of its text and of its ellipsis rendering.
func (l *lengther) length(v *view, kept, hits []int) int {
	l.runs = v.appendRuns(l.runs[:0], kept)
	l.hits = v.appendSpans(l.hits[:0], hits)
	return l.sc.Length(v.text, v.sentence(), l.runs, l.hits)
}
