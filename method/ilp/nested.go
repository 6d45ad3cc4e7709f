package ilp

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/va"
	"github.com/qsc-nlp/qsc/wellformed"
)

// Nested decoding: one order of the tokens for every budget, so that a larger budget keeps
// everything a smaller one kept.
//
// The order is that of the Lagrangian relaxation of the program,
//
//	max Σ_{v∈C} (gain(v) − μ·w_v)  over the sets C ⊇ Q closed under the rules,
//
// as μ, the price of a character, falls. The objective is supermodular (the gain of a
// token can only grow when its head is kept), so the smallest optimum grows as μ falls
// (Topkis): every token has an entry price, rank(v), above which it is out and below
// which it is in. Keeping tokens by falling rank is the ratio rule of scheduling with
// tree precedence (Horn 1972; Sidney 1975): it maximises the average objective over all
// budgets among the orders that respect the rules, and at each budget where a whole block
// of equal rank ends, the prefix is the exact optimum of the program at its own length.
//
// NestedOptimize computes every entry price exactly, in one pass up the rule tree and one
// down. Each vertex v holds, for its head kept (p = 1) or not (p = 0), the value of its
// subtree's relaxation as a function of μ, F_v^p(μ): convex and piecewise linear, with at
// most one breakpoint per token of the subtree. Out_v = Σ_k F_k^0 over the children k
// (v dropped), In_v^p = gain(v | p) − μ·w_v + Σ_k F_k^1 (v kept); In − Out falls strictly
// with μ, so they cross once, at v's threshold t_v^p, and F_v^p is Out above it and In
// below. Going down, rank(v) = max(min(rank(head), t_v^1), t_v^0). The work is
// O(Σ_v |subtree(v)|), O(n·depth), plus a sort.
//
// Then C is the closure of Q under the rules, and the tokens join it by falling rank
// (ties: nearer the query first, then left to right), each with its closure, while the
// next one fits: C(b) is a prefix of one order, so C(b) ⊆ C(b') for b < b'. The price of
// that guarantee is the budget left when the next unit does not fit, which a smaller
// unit further down the order could have used (docs/snippets-history.md, "Nested
// decoding").

// hinge is one breakpoint of a piecewise-linear function: it adds dw·max(0, mu − μ).
type hinge struct{ mu, dw float64 }

// pwl is a convex piecewise-linear function of μ: a − s·μ above its highest hinge, plus
// its hinges, d.hs[off : off+n], by falling mu. ok is false for an infeasible state.
type pwl struct {
	a, s   float64
	off, n int
	ok     bool
}

// NestedOptimize solves p (which must carry Rules) by nested decoding; see above. The
// solution's Score is the program's objective at the result, Parent as Optimize gives it.
func (d *TreeDP) NestedOptimize(p *Problem, sol *Solution) error {
	_, _, err := d.NestedFit(p, sol, nil, nil)
	return err
}

// NestedFit is NestedOptimize under one more constraint that only a whole solution can be
// checked against, as OptimizeFit: when the prefix, passed through post when post is not
// nil (a trim), does not fit, its last units are dropped until it fits, or only the
// closure of Q is left. The order stays that of every budget, so the result is still a
// prefix of it: a larger budget, checked by the same fits, keeps at least as much when a
// longer prefix never fits where a shorter one does not. It returns the kept set through
// post (aliasing sol.Kept or post's memory) and whether it fits.
func (d *TreeDP) NestedFit(p *Problem, sol *Solution, post func([]int) []int, fits func([]int) bool) ([]int, bool, error) {
	r, n, err := d.setup(p)
	if err != nil {
		return nil, false, err
	}
	// C = closure(Q), then the tokens by falling rank while the next one fits.
	weight, capK := d.seed(p, r, n, nil), p.capacity()
	if !d.entryPrices(p) {
		return nil, false, errInfeasible
	}
	inC := func(v int) bool { return d.in[v] }
	d.prefix.Grow(r, d.byRank, weight, capK, inC, func(v int) { d.in[v] = true })
	return d.finish(p, sol, post, fits)
}

// nestedOrder returns the tokens of p (which must carry Rules) by falling entry price,
// in the order of nested decoding (entryPrices), with the number of them whose price is
// positive: the tokens the relaxation keeps when a
// character costs nothing. The slices alias d's memory.
func (d *TreeDP) nestedOrder(p *Problem) ([]int32, int, error) {
	if _, _, err := d.setup(p); err != nil {
		return nil, 0, err
	}
	if !d.entryPrices(p) {
		return nil, 0, errInfeasible
	}
	wanted := 0
	for _, v := range d.byRank {
		if !(d.rank[v] > 0) {
			break
		}
		wanted++
	}
	return d.byRank, wanted, nil
}

// setup validates p, which must carry its rules, and prepares d for them: the query marks,
// the token weights and order over the rule tree as solve does, and the distances to Q
// (d.far), which only nested decoding reads.
// It returns the rules and the number of tokens.
func (d *TreeDP) setup(p *Problem) (*wellformed.Rules, int, error) {
	var err error
	if d.mark, err = p.validate(d.mark); err != nil {
		return nil, 0, err
	}
	r := p.Rules
	if r == nil || r.N() != p.Tree.N() {
		return nil, 0, fmt.Errorf("%w: nested decoding needs the rules of the problem", va.ErrInvalidInput)
	}
	n := d.prepare(p, r.Tree())
	d.distances(p)
	return r, n, nil
}

// seed sets C (d.in) to Q, the closure of Q and that of every token of base, empties the
// record of the units added after them (d.prefix), and returns the weight of C.
func (d *TreeDP) seed(p *Problem, r *wellformed.Rules, n int, base []int) int {
	d.in = reuse.Resize(d.in, n+1)
	clear(d.in)
	inC := func(v int) bool { return d.in[v] }
	set := func(v int) { d.in[v] = true }
	weight := 0
	for _, q := range p.Query {
		if !d.in[q] {
			d.in[q] = true
			weight += d.w[q]
		}
	}
	weight += r.QueryClosure(p.Query, inC, set)
	for _, v := range base {
		if v >= 1 && v <= n && !d.in[v] {
			weight += r.Closure(v, inC, set)
		}
	}
	d.prefix.Reset()
	return weight
}

// finish collects C (d.in) into sol, passes it through post, and, while it does not pass
// fits, drops the last unit added (d.prefix.Shrink).
func (d *TreeDP) finish(p *Problem, sol *Solution, post func([]int) []int, fits func([]int) bool) ([]int, bool, error) {
	kept := func() []int {
		k := d.collect(p, sol)
		if post != nil {
			k = post(k)
		}
		return k
	}
	c, ok := d.prefix.Shrink(kept, fits, func(v int) { d.in[v] = false })
	return c, ok, nil
}

// collect writes the set d.in into sol (Kept, Parent and Score) and returns sol.Kept.
func (d *TreeDP) collect(p *Problem, sol *Solution) []int {
	t := p.Rules.Tree()
	n := t.N()
	sol.Kept = sol.Kept[:0]
	sol.Parent = reuse.Resize(sol.Parent, n+1)
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
	return sol.Kept
}

// entryPrices sets d.rank[v], the entry price of every token v of the relaxation of p
// (see above; +Inf for a token that is always kept), over the rule tree, after prepare
// and distances. It reports false when no set satisfies the rules and Q.
func (d *TreeDP) entryPrices(p *Problem) bool {
	r := p.Rules
	t := r.Tree()
	n := t.N()
	d.fn = reuse.Resize(d.fn, 2*(n+1))
	d.thr = reuse.Resize(d.thr, 2*(n+1))
	d.hs = d.hs[:0]
	for i := len(d.order) - 1; i >= 0; i-- {
		v := int(d.order[i])
		kids := t.Children(v)
		var out, in []hinge
		var ao, so, ab, sb float64
		var outOK, inOK bool
		d.sumA, ao, so, outOK = d.sum(kids, 0, d.sumA)
		out = d.sumA
		d.sumB, ab, sb, inOK = d.sum(kids, 1, d.sumB)
		in = d.sumB
		wv := float64(d.w[v])
		for pIn := range 2 {
			oOK := outOK && !d.mark[v] && !(pIn == 1 && r.WithHead(v))
			iOK := inOK && !(pIn == 0 && r.NeedsHead(v))
			g := p.gain(v, pIn == 1, d.mark[v])
			ai, si := g+ab, wv+sb
			f := &d.fn[2*v+pIn]
			switch {
			case oOK && iOK:
				*f, d.thr[2*v+pIn] = d.join(out, ao, so, in, ai, si)
			case iOK:
				off := len(d.hs)
				d.hs = append(d.hs, in...)
				*f, d.thr[2*v+pIn] = pwl{a: ai, s: si, off: off, n: len(in), ok: true}, math.Inf(1)
			case oOK:
				off := len(d.hs)
				d.hs = append(d.hs, out...)
				*f, d.thr[2*v+pIn] = pwl{a: ao, s: so, off: off, n: len(out), ok: true}, math.Inf(-1)
			default:
				*f = pwl{}
			}
		}
	}
	for _, k := range t.Children(0) {
		if !d.fn[2*int(k)+1].ok {
			return false
		}
	}
	d.rank = reuse.Resize(d.rank, n+1)
	d.rank[0] = math.Inf(1)
	for _, v := range d.order { // top down: heads first
		h := t.Head(int(v))
		d.rank[v] = max(min(d.rank[h], d.thr[2*v+1]), d.thr[2*v])
	}
	d.snapRanks()
	return true
}

// rankTolerance is the relative difference below which two entry prices are the same:
// the tokens of one block get their price through different sums, which can differ in
// the last bits.
const rankTolerance = 1e-9

// snapRanks gives the prices within rankTolerance of a higher one of a group that
// group's highest price, so that the tokens of one block tie, and leaves the tokens in
// d.byRank in the order of nested decoding: by falling price, and within a price nearer
// the query first (d.far), then left to right.
func (d *TreeDP) snapRanks() {
	d.byRank = d.byRank[:0]
	for v := 1; v < len(d.rank); v++ {
		d.byRank = append(d.byRank, int32(v))
	}
	slices.SortFunc(d.byRank, func(a, b int32) int { return cmp.Compare(d.rank[b], d.rank[a]) })
	nearer := func(a, b int32) int {
		if c := cmp.Compare(d.far[a], d.far[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	start := 0 // the group d.byRank[start:i], all at price rep
	rep := math.NaN()
	for i, v := range d.byRank {
		if samePrice(d.rank[v], rep) {
			d.rank[v] = rep
			continue
		}
		slices.SortFunc(d.byRank[start:i], nearer)
		start, rep = i, d.rank[v]
	}
	slices.SortFunc(d.byRank[start:], nearer)
}

// samePrice reports whether two prices are the same within rankTolerance (infinities
// only equal themselves).
func samePrice(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= rankTolerance*(1+max(math.Abs(a), math.Abs(b)))
}

// sum writes into dst the hinges of Σ_k F_k^s over kids, and returns them with the sum's
// line (a, s) and whether every F_k^s is feasible.
func (d *TreeDP) sum(kids []int32, s int, dst []hinge) ([]hinge, float64, float64, bool) {
	dst = dst[:0]
	var a, sl float64
	for _, k := range kids {
		f := d.fn[2*int(k)+s]
		if !f.ok {
			return dst, 0, 0, false
		}
		a, sl = a+f.a, sl+f.s
		if f.n == 0 {
			continue
		}
		src := d.hs[f.off : f.off+f.n]
		if len(dst) == 0 {
			dst = append(dst, src...)
			continue
		}
		// Merge dst and src by falling mu, through d.tmp.
		d.tmp = d.tmp[:0]
		i, j := 0, 0
		for i < len(dst) || j < len(src) {
			if j == len(src) || (i < len(dst) && dst[i].mu >= src[j].mu) {
				d.tmp = append(d.tmp, dst[i])
				i++
			} else {
				d.tmp = append(d.tmp, src[j])
				j++
			}
		}
		dst = append(dst[:0], d.tmp...)
	}
	return dst, a, sl, true
}

// join appends to d.hs the function that is Out (line ao − so·μ and hinges out) above the
// price t where In (ai − si·μ and hinges in) overtakes it, and In below, and returns it
// with t. In − Out falls strictly with μ (si exceeds so by at least the token's weight on
// every segment), so t is unique: the walk down the merged hinges stops on the segment
// that holds it.
func (d *TreeDP) join(out []hinge, ao, so float64, in []hinge, ai, si float64) (pwl, float64) {
	a0, s0 := ao, so
	i, j := 0, 0
	var t float64
	for {
		next, has := math.Inf(-1), false
		if i < len(out) {
			next, has = out[i].mu, true
		}
		if j < len(in) && (!has || in[j].mu > next) {
			next, has = in[j].mu, true
		}
		t = (ai - ao) / (si - so)
		if !has || t >= next {
			break
		}
		// Every hinge at next, of both functions, before the next segment's line.
		for ; i < len(out) && out[i].mu == next; i++ {
			ao, so = ao+out[i].dw*next, so+out[i].dw
		}
		for ; j < len(in) && in[j].mu == next; j++ {
			ai, si = ai+in[j].dw*next, si+in[j].dw
		}
	}
	off := len(d.hs)
	d.hs = append(d.hs, out[:i]...)
	d.hs = append(d.hs, hinge{mu: t, dw: si - so})
	d.hs = append(d.hs, in[j:]...)
	return pwl{a: a0, s: s0, off: off, n: len(d.hs) - off, ok: true}, t
}
