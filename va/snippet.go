package va

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// Filled is the outcome of a candidate that the Decider rejected and that Snippet added
// afterwards, to use the budget; or, after Shown, one rejected or skipped that the
// display step shows.
const Filled Outcome = Skipped + 1

// Trimmed is the outcome of a candidate that was accepted or filled and then dropped by
// wellformed.Rules.Trim, so that the compression does not end on a function word; or,
// after Shown, one that the display step leaves out.
const Trimmed Outcome = Filled + 1

// Cut is the outcome, under Nested, of a candidate that the ordering run accepted or
// filled and that the budget's prefix of the order leaves out.
const Cut Outcome = Trimmed + 1

// rejected is a candidate the Decider rejected, with its probability.
type rejected struct {
	v int
	p float64
}

// fillHeap is a binary max-heap of rejected candidates: highest p first, then leftmost.
// It is written out rather than built on container/heap, whose interface boxes every
// element, so that the fill allocates nothing once grown.
type fillHeap []rejected

func (h fillHeap) less(i, j int) bool {
	if h[i].p != h[j].p {
		return h[i].p > h[j].p
	}
	return h[i].v < h[j].v
}

func (h *fillHeap) push(x rejected) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		parent := (i - 1) / 2
		if !a.less(i, parent) {
			break
		}
		a[i], a[parent] = a[parent], a[i]
		i = parent
	}
}

func (h *fillHeap) pop() rejected {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		l, best := 2*i+1, i
		if l < len(a) && a.less(l, best) {
			best = l
		}
		if r := l + 1; r < len(a) && a.less(r, best) {
			best = r
		}
		if best == i {
			break
		}
		a[i], a[best] = a[best], a[i]
		i = best
	}
	*h = a
	return top
}

// snippetState is the extra memory of Snippet.
type snippetState struct {
	rules  *wellformed.Rules
	rej    []rejected // rejected candidates, in order of decision
	prob   []float64  // prob[v]: the Decider's p for a rejected v
	heap   fillHeap
	filled bool
	joined int     // len(c.s.order) after closure(Q): what joined C after it follows (for Nested)
	order  []int32 // Nested's order
	wanted int     // the tokens of order that its run added
	// closure holds the units that closure(Q) adds to Q, in the order queryClosure took
	// them, for Nested's second run, which starts from the same C.
	closure []int32
	// prefix grows C along Nested's order.
	prefix wellformed.Prefix
}

// Snippet compresses p for a snippet: budget-true and well-formed under rules r, which
// must have been computed for p's sentence, lengths, query and budget.
//
//   - When the whole sentence fits, ℓ(S) ≤ b, the result is S, and d is not asked.
//   - Otherwise C starts as the closure of Q under r and grows by VERTEX ADDITION, as
//     Run does, except that accepting a candidate adds its closure (its unit and the
//     units it needs), and a candidate whose closure does not fit is skipped.
//   - Then the budget left is used: the rejected candidates adjacent to C, highest p
//     first, join C with their closure while they fit; then the other rejected ones, in
//     the same order.
//   - Last, r.Trim drops trailing function words.
//
// The main pass is linear, as Run's; the fill orders the rejected candidates by p, in
// O(r log r) for r rejections. Q ⊆ C, ℓ(C) ≤ b and C closed under r always hold.
func (c *Compressor) Snippet(p Problem, r *wellformed.Rules, d Decider) ([]int, error) {
	if d == nil || r == nil {
		return nil, errNil(d == nil)
	}
	if err := c.start(&p); err != nil {
		return nil, err
	}
	s := &c.s
	if r.N() != s.N() {
		return nil, errRules(r.N(), s.N())
	}
	if all, ok := Whole(c.out[:0], s.lens[1:], s.budget); ok {
		c.out = all
		return all, nil
	}
	if err := c.startSnippet(r); err != nil {
		return nil, err
	}
	return c.grow(d), nil
}

// startSnippet starts a Snippet run on the problem c.start has set: C is the closure of Q
// under r (queryClosure), and the memory of the fill is empty. It fails as queryClosure.
func (c *Compressor) startSnippet(r *wellformed.Rules) error {
	sn := &c.snip
	sn.rules, sn.filled = r, false
	sn.rej = sn.rej[:0]
	sn.heap = sn.heap[:0]
	sn.prob = reuse.Resize(sn.prob, c.s.N()+1)
	return c.queryClosure()
}

// grow is the rest of a Snippet run that startSnippet started, for the budget c.s holds:
// VERTEX ADDITION with closures, the fill, and r.Trim. It returns C as Snippet does.
func (c *Compressor) grow(d Decider) []int {
	s, sn, r := &c.s, &c.snip, c.snip.rules
	tr := c.tracker(d)
	if tr != nil {
		tr.Start(s)
		for _, v := range s.order[s.nq:sn.joined] { // the closure's units beyond Q
			tr.Added(s, v)
		}
	}
	for s.more() {
		v, _ := s.pop()
		cost := c.closureCost(v)
		var dec Decision
		out := Skipped
		if s.length+cost <= s.budget {
			dec = d.Decide(s, v)
			out = Rejected
			if dec.Accept {
				out = Accepted
			}
		}
		switch out {
		case Skipped:
			s.status[v] = stSkipped
		case Rejected:
			s.status[v] = stRejected
			sn.prob[v] = dec.P
			sn.rej = append(sn.rej, rejected{v, dec.P})
		case Accepted:
			c.addClosure(v, tr)
		}
		if c.Trace {
			c.steps = append(c.steps, Step{V: v, P: dec.P, Outcome: out, Len: s.length})
		}
	}
	c.fill(tr)
	kept := c.result()
	n := len(kept)
	kept = r.Trim(s.sent, kept)
	if c.Trace && len(kept) < n { // the trace says which accepted tokens Trim dropped
		for i := range c.steps {
			if st := &c.steps[i]; st.Outcome == Accepted || st.Outcome == Filled {
				if _, ok := slices.BinarySearch(kept, st.V); !ok {
					st.Outcome = Trimmed
				}
			}
		}
	}
	return kept
}

// NestedOrder returns the order of the tokens of the last Nested call and how many of
// its first tokens the run that made it added (the others follow, left to right): the
// reference of the nested display (runs.Program.Nested). The slice is c's memory, valid
// until the next call; it is empty when the whole sentence fitted.
func (c *Compressor) NestedOrder() ([]int32, int) { return c.snip.order, c.snip.wanted }

// Shown records in the trace of the last Snippet or Nested (when Trace is set) that kept,
// ascending, is shown instead of its compression (the display step of the Snippet and
// Nested decodings, package method/runs): a candidate accepted or filled that kept
// leaves out becomes Trimmed, one rejected or skipped that kept holds becomes Filled, and
// one cut by Nested's prefix that kept holds becomes Accepted again. It costs
// O(s log |kept|) for s steps and allocates nothing.
func (c *Compressor) Shown(kept []int) {
	if !c.Trace {
		return
	}
	for i := range c.steps {
		st := &c.steps[i]
		_, in := slices.BinarySearch(kept, st.V)
		switch {
		case !in && (st.Outcome == Accepted || st.Outcome == Filled):
			st.Outcome = Trimmed
		case in && (st.Outcome == Rejected || st.Outcome == Skipped):
			st.Outcome = Filled
		case in && st.Outcome == Cut:
			st.Outcome = Accepted
		}
	}
}

// queryClosure starts C as the closure of Q under the rules (the query's units, and the
// units they need), which c.snip.rules holds, and sets c.snip.joined to where what
// joins C after it starts in c.s.order. It fails when the closure does not fit the budget: the rules
// yield when it does not, so they were computed for another budget.
func (c *Compressor) queryClosure() error {
	s := &c.s
	nq := len(s.order)
	c.snip.rules.QueryClosure(s.order[:nq:nq], s.InC, func(u int) { c.take(u, nil) })
	if s.length > s.budget {
		return errRules(-1, s.length)
	}
	c.snip.joined = len(s.order)
	return nil
}

// Whole is the one check that the whole sentence fits: when ℓ(S) ≤ b, for the token
// lengths lens (lens[i] of token i+1), it returns S, the ids 1..len(lens) in dst's memory,
// and true; otherwise dst and false. Every budget-true decoding returns S when it fits.
// It costs O(n) and, once dst has grown, allocates nothing.
func Whole(dst, lens []int, b int) ([]int, bool) {
	if wholeLen(lens) > b {
		return dst, false
	}
	for v := 1; v <= len(lens); v++ {
		dst = append(dst, v)
	}
	return dst, true
}

// wholeLen returns ℓ(S) for the token lengths lens.
func wholeLen(lens []int) int {
	w := 0
	for _, l := range lens {
		w += l + 1
	}
	return syntax.Length(w)
}

// closureCost returns ℓ(C ∪ closure(v)) − ℓ(C) for v ∉ C.
func (c *Compressor) closureCost(v int) int {
	s := &c.s
	w := c.snip.rules.Closure(v, s.InC, nil)
	if len(s.order) == 0 {
		w--
	}
	return w
}

// addClosure adds v and its closure to C, telling the tracker of each new member.
func (c *Compressor) addClosure(v int, tr Tracker) {
	c.snip.rules.Closure(v, c.s.InC, func(u int) { c.take(u, tr) })
}

// take moves u into C, from wherever it is.
func (c *Compressor) take(u int, tr Tracker) {
	s := &c.s
	switch s.status[u] {
	case stC:
		return
	case stP:
		s.np--
		s.frontier.remove(u)
	}
	s.status[u] = stC
	s.enter(u)
	s.push(u)
	if c.snip.filled {
		c.pushRejected(u)
	}
	if tr != nil {
		tr.Added(s, u)
	}
}

// pushRejected adds the rejected neighbours of u, which just joined C, to the fill heap.
func (c *Compressor) pushRejected(u int) {
	s := &c.s
	if h := s.tree.Head(u); h > 0 && s.status[h] == stRejected {
		c.snip.heap.push(rejected{h, c.snip.prob[h]})
	}
	for _, k := range s.tree.Children(u) {
		if s.status[k] == stRejected {
			c.snip.heap.push(rejected{int(k), c.snip.prob[k]})
		}
	}
}

// adjacent reports whether v is a tree neighbour of C.
func (s *State) adjacent(v int) bool {
	if h := s.tree.Head(v); h > 0 && s.status[h] == stC {
		return true
	}
	for _, k := range s.tree.Children(v) {
		if s.status[k] == stC {
			return true
		}
	}
	return false
}

// fill uses the budget left with the rejected candidates: those adjacent to C first,
// highest p first, then the others.
func (c *Compressor) fill(tr Tracker) {
	s, sn := &c.s, &c.snip
	sn.filled = true
	for _, x := range sn.rej {
		if s.adjacent(x.v) {
			sn.heap.push(x)
		}
	}
	try := func(v int) {
		if s.status[v] != stRejected || s.length+c.closureCost(v) > s.budget {
			return
		}
		c.addClosure(v, tr)
		if c.Trace {
			c.steps = append(c.steps, Step{V: v, P: sn.prob[v], Outcome: Filled, Len: s.length})
		}
	}
	for len(sn.heap) > 0 && s.length < s.budget {
		try(sn.heap.pop().v)
	}
	sn.filled = false
	if s.length >= s.budget {
		return
	}
	slices.SortStableFunc(sn.rej, func(a, b rejected) int { return cmp.Compare(b.p, a.p) })
	for _, x := range sn.rej {
		try(x.v)
	}
}

// errNil is the error for a nil Decider or nil rules.
func errNil(decider bool) error {
	if decider {
		return fmt.Errorf("%w: nil Decider", ErrInvalidInput)
	}
	return fmt.Errorf("%w: nil rules", ErrInvalidInput)
}

// errRules is the error for rules that do not belong to the problem.
func errRules(rn, n int) error {
	if rn < 0 {
		return fmt.Errorf("%w: the closure of the query (%d) does not fit the budget; the rules were computed for another budget", ErrInvalidInput, n)
	}
	return fmt.Errorf("%w: rules for %d tokens, sentence of %d", ErrInvalidInput, rn, n)
}

// NestedOrderBudget is the budget, as a fraction of ℓ(S), of the Snippet run that orders
// the tokens for Nested: VA_LR's decisions are trained at the gold's length, about 40% of
// ℓ(S), and with a budget near ℓ(S) it accepts most candidates in the order they come.
// docs/snippets-history.md ("Nested decoding") compares it with other fractions.
const NestedOrderBudget = 0.45

// Nested compresses p for a snippet under the Nested decoding (method.Nested): as Snippet,
// but so that a larger budget keeps everything a smaller one kept. The order of the
// tokens is the one in which Snippet adds them with the budget NestedOrderBudget·ℓ(S)
// (or ℓ(S) − 1 when the closure of Q does not fit it): the accepted ones by VERTEX
// ADDITION, then the fill, followed by every token it did not add, left to right. C is
// the closure of Q under r (computed once, by the ordering run), and the tokens join it
// in that order, each with its closure, while the next one fits b
// (wellformed.Prefix.Grow); last, r.Trim.
// The order does not depend on b, so C(b) is a prefix of it. With Trace set, Steps are
// those of the run that made the order, the candidates it added that C leaves out marked
// Cut. It costs one Snippet run and O(n) more.
func (c *Compressor) Nested(p Problem, r *wellformed.Rules, d Decider) ([]int, error) {
	if d == nil || r == nil {
		return nil, errNil(d == nil)
	}
	if err := c.start(&p); err != nil {
		return nil, err
	}
	s := &c.s
	c.snip.order, c.snip.wanted = c.snip.order[:0], 0
	if all, ok := Whole(c.out[:0], s.lens[1:], p.Budget); ok {
		c.out = all
		return c.Snippet(p, r, d)
	}
	if r.N() != s.N() {
		return nil, errRules(r.N(), s.N())
	}
	// The run that orders the tokens starts as Snippet's does, with C the closure of Q,
	// which no budget changes (it fails when the closure does not fit b: the rules were
	// computed for another budget). Its budget is NestedOrderBudget·ℓ(S), or ℓ(S) − 1
	// when that is not positive or the closure does not fit it; a Snippet run with either
	// budget would make this same start, so the run goes on from it.
	if err := c.startSnippet(r); err != nil {
		return nil, err
	}
	total := wholeLen(s.lens[1:])
	s.budget = int(NestedOrderBudget * float64(total))
	if s.budget <= 0 || s.length > s.budget {
		s.budget = total - 1
	}
	c.grow(d)
	sn := &c.snip
	sn.closure = sn.closure[:0]
	for _, v := range s.order[s.nq:sn.joined] {
		sn.closure = append(sn.closure, int32(v))
	}
	sn.order = sn.order[:0]
	for _, v := range s.order[sn.joined:] {
		sn.order = append(sn.order, int32(v))
	}
	sn.wanted = len(sn.order)
	for v := 1; v <= s.N(); v++ {
		if s.status[v] != stC { // not added: last, left to right
			sn.order = append(sn.order, int32(v))
		}
	}
	// The prefix of the order that fits b.
	steps := c.steps
	if err := c.start(&p); err != nil {
		return nil, err
	}
	c.steps = steps
	for _, u := range sn.closure { // C = closure(Q) again, as the ordering run found it
		c.take(int(u), nil)
	}
	sn.joined = len(s.order)
	// ℓ(C) ≤ b as weights: Σ (len + 1) ≤ b + 1 (b < ℓ(S) here, so b + 1 cannot overflow).
	weight := 0
	if len(s.order) > 0 {
		weight = s.length + 1
	}
	sn.prefix.Reset()
	sn.prefix.Grow(r, sn.order, weight, s.budget+1, s.InC, func(u int) { c.take(u, nil) })
	kept := r.Trim(s.sent, c.result())
	for i := range c.steps { // the ordering run's steps, as this budget ends them
		if st := &c.steps[i]; st.Outcome == Accepted || st.Outcome == Filled || st.Outcome == Trimmed {
			if _, ok := slices.BinarySearch(kept, st.V); !ok {
				st.Outcome = Cut
			}
		}
	}
	return kept, nil
}
