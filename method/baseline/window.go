package baseline

import (
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/method"
)

// Window is the baseline that a search engine's highlighter implements: keep Q, then add
// the tokens nearest to Q (by distance in tokens to the nearest query token; on a tie, the
// left one first), nearest first, while they fit. It stops at the first token that does
// not fit, so that the result is one window of text around each query token. It ignores
// the well-formedness rules. With an empty query the window grows from the first token.
// It is a method.Solver, safe for concurrent use; a compression costs O(n).
type Window struct{}

// Name returns "window".
func (Window) Name() string { return NameWindow }

// windowScratch is Window's reusable memory.
type windowScratch struct {
	in   []bool
	out  []int
	lens []int
}

// Solve returns the window compression of in.
func (Window) Solve(in method.Input, scratch *any) ([]int, error) {
	if in.Sentence == nil || in.Tree == nil {
		return nil, method.ErrNoSentence
	}
	sc, ok := (*scratch).(*windowScratch)
	if !ok {
		sc = new(windowScratch)
		*scratch = sc
	}
	n := in.Sentence.Len()
	sc.in = reuse.Resize(sc.in, n+1)
	clear(sc.in)
	sc.lens = in.Sentence.AppendLens(sc.lens[:0])
	length, size := 0, 0
	add := func(v int) {
		sc.in[v] = true
		length += sc.lens[v-1]
		if size > 0 {
			length++
		}
		size++
	}
	for _, q := range in.Query {
		if q < 1 || q > n || sc.in[q] {
			return nil, validateQuery(in)
		}
		add(q)
	}
	if in.Budget <= 0 || length > in.Budget {
		return nil, validateQuery(in)
	}
	anchors := in.Query
	if len(anchors) == 0 && n > 0 {
		anchors = []int{1}
		if sc.lens[0] > in.Budget {
			return sc.out[:0], nil
		}
		add(1)
	}
	// Grow by distance d = 1, 2, …: at each d, the tokens at distance d from an anchor,
	// left before right, in anchor order; stop at the first that does not fit.
grow:
	for d := 1; d < n; d++ {
		any := false
		for _, a := range anchors {
			for _, v := range [2]int{a - d, a + d} {
				if v < 1 || v > n {
					continue
				}
				any = true
				if sc.in[v] {
					continue
				}
				cost := sc.lens[v-1]
				if size > 0 {
					cost++
				}
				if length+cost > in.Budget {
					break grow
				}
				add(v)
			}
		}
		if !any {
			break
		}
	}
	sc.out = sc.out[:0]
	for v := 1; v <= n; v++ {
		if sc.in[v] {
			sc.out = append(sc.out, v)
		}
	}
	return sc.out, nil
}

// validateQuery returns the error of an input whose query or budget is invalid, as VERTEX
// ADDITION reports it.
func validateQuery(in method.Input) error {
	var c method.Compressor
	_, err := c.VA.Run(in.Problem(), Oracle{})
	return err
}
