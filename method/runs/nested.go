package runs

import (
	"math"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

// The nested display: the display of the snippet decoding, grown by one sequence of moves
// that does not depend on the budget, so that a larger budget shows everything a smaller
// one showed (method.Nested).
//
// Every value is budget-free. The reference is the method's nested order, the tokens in
// the order the method wants them whatever the budget (the ILP's falling entry prices,
// VERTEX ADDITION's order of addition), of which the first wanted are the tokens the
// method keeps at all. Those of the order's prefix up to NestedShare of the sentence's
// weight (Σ w_v) are worth NestedKeep·Keep·w_v, the other wanted tokens NestedRest of it,
// the rest nothing. Fill (by nearness to the wanted tokens and Q) and Carrier are as in the
// snippet decoding, and so are the costs of a cut (Gap), a dangling end and a short run,
// the Edge bonus and the width model (Params.Display).
//
// The display starts as the smallest allowed runs that hold the query terms. A move
// extends a run to its next allowed end (or start), extending the other side when a
// binding demands it, opens a new allowed run, or adds the free sentence-final
// punctuation; a run that reaches the next one merges with it. Each step picks, among
// the runs' extensions by 1 to Lookahead allowed boundaries on either side and the new
// runs of up to Lookahead boundaries, the one with the best gain of the objective per
// character of width, and plays it one allowed boundary at a time, so that every state
// of the sequence is a display the rules allow. The sequence stops when no move gains.
// The display at b is the last state of the sequence whose width fits b: a prefix of
// one sequence, so C(b) ⊆ C(b′) for b < b′ whenever the rules (computed for each budget)
// yield at neither and both are states of the sequence. The widths of the sequence do
// not always grow: a move that joins two runs across a comma replaces " … " by ", ", and
// one that reaches the sentence's start drops the leading "…". So the sequence is
// followed past a state that does not fit as long as a later one still may (floor), and
// the state shown is the last that fits, not the one before the first that does not.
//
// When no state of the sequence fits b (its first states are wider than b, or wider
// than a display that the sequence passes by), the display at b is the snippet
// decoding's best display under the same values (bestDisplay): budget-true and allowed
// by the rules, where the rules would otherwise yield to the query. It is not a state of
// the sequence, so a larger budget's display need not hold it.
//
// Each step costs O((k + n)·Lookahead) closures of an interval (k runs, n tokens), and
// there are at most n steps: O(n²·Lookahead) closures in the worst case, plus the
// snippet decoding's program when no state fits; nothing is allocated once the memory
// has grown.

// Lookahead is the number of allowed boundaries a move of the nested display may reach
// past a run's end (or start) when its gain is weighed.
const Lookahead = FillReach

// The reference values of the nested display: the tokens of the nested order's prefix
// up to NestedShare of the sentence's weight are worth NestedKeep·Keep a character, the
// other wanted tokens NestedRest of that, the rest nothing.
const (
	NestedShare = 0.45
	NestedKeep  = 4
	NestedRest  = 0.5
)

// span is a run [s, e] of the nested display.
type span struct{ s, e int }

// move is a candidate move: the chain of allowed runs that starts at [s, e] (a run, or
// the token v of a new run when fresh) and grows by steps boundaries to the left (left)
// or right, or the final punctuation (final).
type move struct {
	s, e, steps int
	left, fresh bool
	final       bool
	gain, ratio float64
	width       int
	mi, mj      int // the runs [mi, mj) that merge with it
}

// nestedState is the memory of the nested display.
type nestedState struct {
	pr         Params
	keepw      []float64 // the weight of Keep per token
	valPre     []float64 // Σ_{v≤i} value(v)
	qPre       []int     // query words ≤ i
	cov        []bool    // shown
	runs       []span
	moveTok    []int32 // the tokens each move showed, in turn
	moveEnd    []int   // where each move ends in moveTok
	moveW      []int   // the width of the display after each move
	fell       bool    // no state fitted: the display is the snippet decoding's (bestDisplay)
	final, cut int     // the free final punctuation (0: none); the width of a cut
	finalOn    bool    // the final punctuation is shown after a cut
}

// Nested returns the nested display of in under pr (see above) for the reference order
// (distinct token ids, the most wanted first; tokens it leaves out are worth nothing) of
// which the first wanted are the tokens the method keeps at all: the last state of the
// sequence whose width fits in.Budget and that passes fits when fits is not nil. When no
// state does, it is the snippet decoding's best display under the same values (which
// also passes fits; none when its tables would exceed MaxCells), which a larger budget's
// display need not hold. When the display
// rules and the budget leave no display (or in is inconsistent), the rules yield as in
// Show: first those of wellformed.Runs.Loose, then all, and Nested reports false, so that
// the caller returns its compression under the well-formedness rules alone; in.Rules.
// MarkYielded records either yield. The slice is d's memory, valid until the next call.
// It costs O(n²·Lookahead) closures, plus the snippet decoding's program when no state
// fits, and allocates nothing once d has grown.
func (d *Program) Nested(in *Input, pr Params, order []int32, wanted int, fits func([]int) bool) ([]int, bool) {
	kept, ok := d.nested(in, pr, order, wanted, fits)
	if !ok {
		d.u.Loose = true
		kept, ok = d.nested(in, pr, order, wanted, fits)
		d.u.Loose = false
		if in.Rules != nil {
			in.Rules.MarkYielded()
		}
	}
	return kept, ok
}

// nested is Nested under the display rules of d.u as they are (Loose or not): the last
// state of the sequence that fits, or else the snippet decoding's best display.
func (d *Program) nested(in *Input, pr Params, order []int32, wanted int, fits func([]int) bool) ([]int, bool) {
	d.ns.fell = false
	if in.Tree == nil || len(in.Lens) != in.Tree.N() {
		return nil, false
	}
	n := in.Tree.N()
	ns := &d.ns
	ns.keepw = zeroed(ns.keepw, n+1)
	d.opt = zeroed(d.opt, n+1)
	total := 0
	for _, l := range in.Lens {
		total += l + 1
	}
	cum := 0
	for i, v := range order {
		if i >= wanted {
			break
		}
		if v < 1 || int(v) > n || d.opt[v] {
			continue
		}
		cum += in.Lens[v-1] + 1
		ns.keepw[v], d.opt[v] = NestedRest, true
		if float64(cum) <= NestedShare*float64(total) {
			ns.keepw[v] = 1
		}
	}
	pr.Keep *= NestedKeep
	if kept, ok := d.sequence(in, pr, fits); ok {
		return kept, true
	}
	// No state fits: the best display under the same values, if any.
	kept, ok, _ := d.bestDisplay(in, pr, ns.keepw)
	if !ok || (fits != nil && !fits(kept)) {
		return nil, false
	}
	ns.fell = true
	return kept, true
}

// sequence grows the sequence of displays for the values of ns.keepw and d.opt and
// returns its last state whose width fits in.Budget and that passes fits (when not nil),
// or false when none does.
func (d *Program) sequence(in *Input, pr Params, fits func([]int) bool) ([]int, bool) {
	n := in.Tree.N()
	ns := &d.ns
	K, cut, ok := d.prepare(in, pr, ns.keepw)
	if !ok {
		return nil, false
	}
	u := &d.u
	ns.valPre, ns.qPre = reuse.Resize(ns.valPre, n+1), zeroed(ns.qPre, n+1)
	ns.valPre[0] = 0
	for v := 1; v <= n; v++ {
		ns.valPre[v] = ns.valPre[v-1] + d.val[v]
		ns.qPre[v] = ns.qPre[v-1]
		if u.Query(v) && u.Word(v) {
			ns.qPre[v]++
		}
	}
	ns.cov = zeroed(ns.cov, n+1)
	ns.runs = ns.runs[:0]
	ns.moveTok, ns.moveEnd = ns.moveTok[:0], ns.moveEnd[:0]
	ns.final = d.finalPunct(in.Rules, n)
	ns.finalOn = false
	ns.cut, ns.pr = cut, pr
	// The seed: the smallest allowed runs that hold the query terms.
	W := 0
	for _, q := range in.Query {
		if q < 1 || q > n || ns.cov[q] {
			continue
		}
		a, b, ok := d.closeRun(q, q, n)
		if !ok || !d.legal(a, b) {
			return nil, false
		}
		mv := d.place(a, b, n)
		W += mv.width
		d.apply(mv.s, mv.e, mv.mi, mv.mj, W)
	}
	seeded, W0 := len(ns.runs) > 0, W // without a query, the seed shows nothing: no state
	ns.moveEnd, ns.moveTok, ns.moveW = ns.moveEnd[:0], ns.moveTok[:0], ns.moveW[:0]
	// The moves, while the next one gains and a later state may still fit.
	for d.floor(W, n) <= K {
		mv, found := d.bestMove(n)
		if !found {
			break
		}
		moves := len(ns.moveEnd)
		if W, ok = d.take(mv, W, K, n); !ok || len(ns.moveEnd) == moves {
			break // no later state fits, or (never expected) a move that shows nothing
		}
	}
	// The last state that fits: the moves are undone, last first, until one does.
	for {
		k := len(ns.moveEnd)
		w := W0
		if k > 0 {
			w = ns.moveW[k-1]
		}
		if w <= K && (k > 0 || seeded) {
			if kept := d.keptRuns(n); fits == nil || fits(kept) {
				return kept, true
			}
		}
		if k == 0 {
			return nil, false
		}
		from := 0
		if k > 1 {
			from = ns.moveEnd[k-2]
		}
		for _, v := range ns.moveTok[from:ns.moveEnd[k-1]] {
			ns.cov[v] = false
		}
		ns.moveTok, ns.moveEnd, ns.moveW = ns.moveTok[:from], ns.moveEnd[:k-1], ns.moveW[:k-1]
	}
}

// floor returns a bound below the width of every display that shows what the runs of
// width W show: the display can be narrower only where the cut between two runs is wider
// than the tokens between them, or where a leading or trailing "…" gives way to the
// tokens before or after. O(k) for k runs.
func (d *Program) floor(W, n int) int {
	ns := &d.ns
	k := len(ns.runs)
	if k == 0 {
		return W
	}
	for i := 1; i < k; i++ {
		a, b := ns.runs[i-1].e, ns.runs[i].s
		between := d.lpre[b-1] - d.lpre[a] + d.spre[b] - d.spre[a] // the gap's tokens and spaces
		W -= max(0, 1+ns.cut-between)
	}
	return W - d.lead(ns.runs[0].s) - d.trail(ns.runs[k-1].e, n)
}

// keptRuns returns the shown tokens, ascending, in d.kept.
func (d *Program) keptRuns(n int) []int {
	d.kept = d.kept[:0]
	for v := 1; v <= n; v++ {
		if d.ns.cov[v] {
			d.kept = append(d.kept, v)
		}
	}
	return d.kept
}

// closeRun returns the smallest allowed run (by the spans, starts and ends of d.u) that
// holds [a, b], or false when none does. Every allowed run that holds [a, b] holds it.
func (d *Program) closeRun(a, b, n int) (int, int, bool) {
	u := &d.u
	if a < 1 || b > n || a > b {
		return 0, 0, false
	}
	lo, hi := a, b
	for v := a; v <= b; v++ {
		lo, hi = min(lo, u.Lo(v)), max(hi, u.Hi(v))
	}
	sa, sb := a, b // the tokens scanned
	for {
		na, nb := lo, hi
		if na >= 1 && !u.CanStart(na) {
			na--
		}
		if nb <= n && !u.CanEnd(nb) {
			nb++
		}
		if na < 1 || nb > n {
			return 0, 0, false
		}
		if na == sa && nb == sb {
			return sa, sb, true
		}
		for v := na; v < sa; v++ {
			lo, hi = min(lo, u.Lo(v)), max(hi, u.Hi(v))
		}
		for v := sb + 1; v <= nb; v++ {
			lo, hi = min(lo, u.Lo(v)), max(hi, u.Hi(v))
		}
		lo, hi = min(lo, na), max(hi, nb)
		sa, sb = na, nb
	}
}

// legal reports whether an allowed run [a, b] holds a word, and a query term when it
// holds only one word, and does not join the final punctuation shown after a cut to a
// run that may not end on it.
func (d *Program) legal(a, b int) bool {
	ns := &d.ns
	if ns.finalOn && b == ns.final-1 && !d.u.CanEnd(ns.final) {
		return false // the final punctuation would end the run
	}
	words := d.wordPre[b] - d.wordPre[a-1]
	return words > 1 || (words == 1 && ns.qPre[b] > ns.qPre[a-1])
}

// runValue is a run's term of the objective: its tokens' values with the per-run terms
// (runTerms), plus Edge at the sentence's start, and at its end for a run that holds a
// query word (or when the query has none), as the run program pays it.
func (d *Program) runValue(s, e, n int) float64 {
	ns := &d.ns
	pr := &ns.pr
	words, word := d.wordPre[e]-d.wordPre[s-1], 0
	if words == 1 {
		word = d.lastWord(s, e) // short reads the word of a one-word run only
	}
	x := d.runTerms(ns.valPre[e]-ns.valPre[s-1], pr, s, e, n, words, ns.qPre[e]-ns.qPre[s-1], word)
	if s == 1 {
		x += pr.Edge
	}
	if e == n && d.endsEdge(ns.qPre[e]-ns.qPre[s-1]) {
		x += pr.Edge
	}
	return x
}

// place returns the move that adds the allowed run [a, b] to the runs: the runs it
// overlaps or touches merge with it (the runs [mi, mj)), and so does the final
// punctuation shown after a cut, with the change of the objective (gain) and of the
// width.
func (d *Program) place(a, b, n int) move {
	ns := &d.ns
	if ns.finalOn && b == ns.final-1 {
		b = ns.final // one run that ends the sentence, not a run and the punctuation after it
	}
	k := len(ns.runs)
	i := 0
	for i < k && ns.runs[i].e < a-1 {
		i++
	}
	j := i
	for j < k && ns.runs[j].s <= b+1 {
		j++
	}
	na, nb := a, b
	if j > i {
		na, nb = min(a, ns.runs[i].s), max(b, ns.runs[j-1].e)
	}
	gain := d.runValue(na, nb, n)
	width := d.width(na, nb)
	for _, r := range ns.runs[i:j] {
		gain -= d.runValue(r.s, r.e, n)
		width -= d.width(r.s, r.e)
	}
	kNew := k - (j - i) + 1
	gapsOld, gapsNew := max(k-1, 0), kNew-1
	gain -= ns.pr.Gap * float64(gapsNew-gapsOld)
	width += ns.cut * (gapsNew - gapsOld)
	// The leading and trailing cuts.
	if k > 0 {
		width -= d.lead(ns.runs[0].s) + d.trail(ns.runs[k-1].e, n)
	}
	first, last := na, nb
	if i > 0 {
		first = ns.runs[0].s
	}
	if j < k {
		last = ns.runs[k-1].e
	}
	width += d.lead(first) + d.trail(last, n)
	if ns.finalOn && nb >= ns.final {
		gain -= d.val[ns.final]
		width -= d.finalWidth()
	}
	return move{s: na, e: nb, mi: i, mj: j, gain: gain, width: width}
}

// lead returns the width of a leading "…" before a first run that starts at s.
func (d *Program) lead(s int) int {
	if d.wordPre[s-1] > 0 {
		return d.ns.cut
	}
	return 0
}

// trail returns the width of a trailing "…" after a last run that ends at e.
func (d *Program) trail(e, n int) int {
	if d.wordPre[n] > d.wordPre[e] {
		return d.ns.cut
	}
	return 0
}

// finalWidth is the width of the final punctuation shown after a cut.
func (d *Program) finalWidth() int {
	f := d.ns.final
	return d.lpre[f] - d.lpre[f-1] + d.spre[f] - d.spre[f-1]
}

// apply replaces the runs [i, j) by [a, b] (inserts it at i when i = j), showing its
// tokens and recording them as one move, after which the display's width is W.
func (d *Program) apply(a, b, i, j, W int) {
	ns := &d.ns
	for v := a; v <= b; v++ {
		if !ns.cov[v] {
			ns.cov[v] = true
			ns.moveTok = append(ns.moveTok, int32(v))
		}
	}
	if ns.finalOn && b >= ns.final {
		ns.finalOn = false
	}
	ns.moveEnd, ns.moveW = append(ns.moveEnd, len(ns.moveTok)), append(ns.moveW, W)
	if j == i {
		ns.runs = append(ns.runs, span{})
		copy(ns.runs[i+1:], ns.runs[i:])
		ns.runs[i] = span{a, b}
		return
	}
	ns.runs[i] = span{a, b}
	ns.runs = append(ns.runs[:i+1], ns.runs[j:]...)
}

// chainStep returns the allowed run after one more boundary of a chain from [a, b].
func (d *Program) chainStep(a, b int, left bool, n int) (int, int, bool) {
	if left {
		return d.closeRun(a-1, b, n)
	}
	return d.closeRun(a, b+1, n)
}

// bestMove returns the move of the best gain per character among the runs' extensions,
// the new runs and the final punctuation, or false when none gains.
func (d *Program) bestMove(n int) (move, bool) {
	ns := &d.ns
	best := move{ratio: math.Inf(-1)}
	found := false
	consider := func(mv move) {
		if mv.gain <= 0 {
			return
		}
		mv.ratio = mv.gain / math.Max(float64(mv.width), 0.5)
		if mv.ratio > best.ratio {
			best, found = mv, true
		}
	}
	// chain weighs the moves of 1 to Lookahead boundaries from [a, b] (take replays
	// them from [s0, e0]).
	chain := func(a, b int, left, fresh bool, s0, e0 int) {
		for step := 1; step <= Lookahead; step++ {
			var ok bool
			if a, b, ok = d.chainStep(a, b, left, n); !ok {
				return
			}
			if !d.legal(a, b) {
				continue
			}
			mv := d.place(a, b, n)
			mv.s, mv.e, mv.steps, mv.left, mv.fresh = s0, e0, step, left, fresh
			consider(mv)
		}
	}
	for ri := range ns.runs {
		r := ns.runs[ri]
		chain(r.s, r.e, false, false, r.s, r.e)
		chain(r.s, r.e, true, false, r.s, r.e)
	}
	lastA, lastB := 0, 0 // the run of the last start: the same chain from another start is skipped
	for v := 1; v <= n; v++ {
		if ns.cov[v] || (v > 1 && ns.cov[v-1]) || (v < n && ns.cov[v+1]) || !d.u.CanStart(v) {
			continue
		}
		a, b, ok := d.closeRun(v, v, n)
		if !ok || (a == lastA && b == lastB) {
			continue
		}
		lastA, lastB = a, b
		if d.legal(a, b) {
			mv := d.place(a, b, n)
			mv.s, mv.e, mv.steps, mv.fresh = v, v, 0, true
			consider(mv)
		}
		chain(a, b, false, true, v, v)
	}
	if f := ns.final; f != 0 && !ns.finalOn && !ns.cov[f] && len(ns.runs) > 0 && ns.runs[len(ns.runs)-1].e < f-1 {
		consider(move{final: true, gain: d.val[f], width: d.finalWidth()})
	}
	return best, found
}

// take plays mv one allowed boundary at a time from the width W, each step a move of its
// own, and returns the new width and whether it went on to the end of mv: it stops after
// a step past which no state fits K (floor).
func (d *Program) take(mv move, W, K, n int) (int, bool) {
	ns := &d.ns
	if mv.final {
		W += mv.width
		ns.finalOn = true
		ns.cov[ns.final] = true
		ns.moveTok = append(ns.moveTok, int32(ns.final))
		ns.moveEnd, ns.moveW = append(ns.moveEnd, len(ns.moveTok)), append(ns.moveW, W)
		return W, d.floor(W, n) <= K
	}
	a, b := mv.s, mv.e
	if mv.fresh {
		var ok bool
		if a, b, ok = d.closeRun(a, b, n); !ok {
			return W, false
		}
	}
	play := func(a, b int) bool {
		if !d.legal(a, b) {
			return true
		}
		st := d.place(a, b, n)
		W += st.width
		d.apply(st.s, st.e, st.mi, st.mj, W)
		return d.floor(W, n) <= K
	}
	if mv.fresh && !play(a, b) {
		return W, false
	}
	for range mv.steps {
		var ok bool
		if a, b, ok = d.chainStep(a, b, mv.left, n); !ok {
			return W, false
		}
		if !play(a, b) {
			return W, false
		}
	}
	return W, true
}
