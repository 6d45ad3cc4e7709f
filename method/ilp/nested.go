package ilp

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/qsc-nlp/qsc/va"
)

// Nested decoding. The program's objective is supermodular: the gain of a token can only
// grow when its head is kept (gain(v | head ∈ C) = max(edge, root) ≥ root), and the sets
// closed under the well-formedness rules and holding Q form a lattice. So the optimal
// sets of the Lagrangian relaxation, max Σ_{v∈C} (gain(v) − μ·w_v), grow as μ falls
// (Topkis), whatever the budget. NestedOptimize solves the relaxation at a fixed grid of μ,
// from high to low, in O(n) each; a token's rank is the first grid point whose optimum
// holds it. Then C is the closure of Q under the rules, and the tokens, by rank and then
// left to right, join C with their closure while they fit. The order does not depend on
// the budget, so a larger budget keeps what a smaller one kept, unless a unit that did not
// fit at the smaller budget fits at the larger one and takes the place of later ones.

// nestedGrid is the number of points of the grid of μ.
const nestedGrid = 33

// NestedOptimize solves p (which must carry Rules) by nested decoding; see above. The
// solution's Score is the program's objective at the result, Parent as Optimize gives it.
// The work is O(nestedGrid · n + n log n) per sentence.
func (d *TreeDP) NestedOptimize(p *Problem, sol *Solution) error {
	var err error
	if d.mark, err = p.validate(d.mark); err != nil {
		return err
	}
	r := p.Rules
	if r == nil || r.N() != p.Tree.N() {
		return fmt.Errorf("%w: nested decoding needs the rules of the problem", va.ErrInvalidInput)
	}
	t := r.Tree()
	n := d.prepare(p, t)
	// The scale of μ: the largest gain per character.
	scale := 1e-9
	for v := 1; v <= n; v++ {
		g := max(math.Abs(p.Edge[v-1]), math.Abs(p.Root[v-1])) / float64(d.w[v])
		scale = max(scale, g)
	}
	d.rank, _ = grow(d.rank[:0], n+1)
	for v := range d.rank {
		d.rank[v] = nestedGrid
	}
	for k := range nestedGrid {
		mu := gridMu(k, scale)
		d.lagrange(p, mu)
		for v := 1; v <= n; v++ {
			if d.in[v] && d.rank[v] == nestedGrid {
				d.rank[v] = int32(k)
			}
		}
	}
	// Greedy: C = closure(Q), then the tokens by rank, left to right, while they fit.
	d.in, _ = grow(d.in[:0], n+1)
	clear(d.in)
	inC := func(v int) bool { return d.in[v] }
	add := func(v int) { d.in[v] = true }
	weight := 0
	for _, q := range p.Query {
		if !d.in[q] {
			d.in[q] = true
			weight += d.w[q]
		}
	}
	weight += r.QueryClosure(p.Query, inC, add)
	capK := p.capacity()
	d.byRank = d.byRank[:0]
	for v := 1; v <= n; v++ {
		d.byRank = append(d.byRank, int32(v))
	}
	slices.SortStableFunc(d.byRank, func(a, b int32) int { return cmp.Compare(d.rank[a], d.rank[b]) })
	for _, v := range d.byRank {
		if d.in[v] {
			continue
		}
		if c := r.Closure(int(v), inC, nil); weight+c <= capK {
			weight += r.Closure(int(v), inC, add)
		}
	}
	sol.Kept = sol.Kept[:0]
	sol.Parent, _ = grow(sol.Parent[:0], n+1)
	sol.Score = 0
	for v := range sol.Parent {
		sol.Parent[v] = -1
	}
	for v := 1; v <= n; v++ {
		if !d.in[v] {
			continue
		}
		sol.Kept = append(sol.Kept, v)
		h := t.Head(v)
		headIn := h == 0 || d.in[h]
		sol.Parent[v] = p.parent(v, headIn, d.mark[v])
		sol.Score += p.gain(v, headIn, d.mark[v])
	}
	return nil
}

// gridMu returns the k-th point of the grid of μ: from scale down through 0 to −scale,
// denser near 0.
func gridMu(k int, scale float64) float64 {
	h := nestedGrid / 2
	switch {
	case k < h:
		return scale * math.Exp2(-float64(k)/2)
	case k == h:
		return 0
	}
	return -scale * math.Exp2(-float64(nestedGrid-1-k)/2)
}

// lagrange sets d.in to the smallest optimum of max Σ_{v∈C} (gain(v) − μ·w_v) under the
// rules and Q ⊆ C, without the budget: a tree DP over the rule tree with two states per
// token (head kept or not), in O(n).
func (d *TreeDP) lagrange(p *Problem, mu float64) {
	r := p.Rules
	t := r.Tree()
	n := t.N()
	d.lf, _ = grow(d.lf[:0], 2*(n+1))
	d.lc, _ = grow(d.lc[:0], 2*(n+1))
	for i := len(d.order) - 1; i >= 0; i-- {
		v := int(d.order[i])
		var sum [2]float64
		for _, k := range t.Children(v) {
			sum[0] += d.lf[2*int(k)]
			sum[1] += d.lf[2*int(k)+1]
		}
		for pIn := range 2 {
			out, in := negInf, negInf
			if !d.mark[v] && !(pIn == 1 && r.WithHead(v)) {
				out = sum[0]
			}
			if !(pIn == 0 && r.NeedsHead(v)) {
				in = p.gain(v, pIn == 1, d.mark[v]) - mu*float64(d.w[v]) + sum[1]
			}
			d.lf[2*v+pIn], d.lc[2*v+pIn] = max(out, in), in > out
		}
	}
	d.in, _ = grow(d.in[:0], n+1)
	clear(d.in)
	d.stack = d.stack[:0]
	for _, k := range t.Children(0) {
		d.stack = append(d.stack, frame{v: int(k), p: 1})
	}
	for len(d.stack) > 0 {
		fr := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		s := 0
		if d.lc[2*fr.v+fr.p] {
			d.in[fr.v], s = true, 1
		}
		for _, k := range t.Children(fr.v) {
			d.stack = append(d.stack, frame{v: int(k), p: s})
		}
	}
}
