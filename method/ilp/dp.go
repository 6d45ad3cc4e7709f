package ilp

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TreeDP is the exact solver of the default build: a dynamic program over the parse tree,
// a tree knapsack over characters. With the at-most-one-head constraint, every kept
// token n takes either its parse edge (allowed when head(n) ∈ C or head(n) is the root)
// or the arc ROOT → n, so the score of C is a sum of terms that each depend on one token
// and its head only. For every token v, whether its head is in C (p), and every total
// weight c of the kept tokens of v's subtree (token weight = length + 1), the program
// computes the best score of v's subtree, merging v's children one at a time by a
// max-plus convolution capped at b + 1 characters. The tables hold costs, the scores
// negated, and the merges are min-plus: negation is exact and commutes with the rounding
// of a sum, so every comparison, ties included, comes out as with the scores, and a
// minimum costs fewer instructions than a maximum. A merge convolves only the reachable weights: the rows
// hold long runs of +∞ (unreachable weights) at their ends, below the weight of the
// query tokens and above the largest reachable weight, which the merges skip, and the
// side with the shorter span of reachable weights is the outer loop, skipping its
// holes. The work is O(Σ_v min(W_v, b+1)·min(W_u, b+1)) over parent–child merges (W =
// total weight of a subtree), at most O(ℓ(S)·b) per sentence. Every merged row is kept,
// so the optimum is read back top-down, each merge's argmin found again in O(b):
// recording it in the merge itself cost a fifth more time.
//
// Its memory grows to the largest problem seen and is reused: once grown, Optimize
// allocates nothing. The zero value is ready to use; it is not safe for concurrent use.
type TreeDP struct {
	mark   []bool    // Q
	w      []int     // w[v] = Lens[v-1] + 1
	order  []int32   // vertices in breadth-first order from the root
	capv   []int     // capv[v]: largest weight of v's table
	foff   []int     // offset of v's table in f: f[foff[v] + p·(capv[v]+1) + c]
	f      []float64 // F_v[p][c]: least cost of v's subtree of weight exactly c, +∞ if none
	fs     []span    // fs[2v+p]: the span of F_v[p]
	choice []bool    // parallel to f: v ∈ C in that optimum
	rows   []float64 // the rows of every merge, in turn
	soff   [][2]int  // soff[u][s]: offset in rows of the row child u was merged into, state s
	scap   [][2]int  // scap[u][s]: its cap
	stack  []frame
	far    []float64 // far[v]: min(distance of v to Q, ProximityReach) / ProximityReach
	wq     []int     // wq[v]: total weight of the query tokens in v's subtree
	// nested decoding (NestedFit)
	fn     []pwl     // fn[2v+p]: F_v^p, the relaxation of v's subtree as a function of μ
	thr    []float64 // thr[2v+p]: v's threshold t_v^p
	hs     []hinge   // the hinges of every fn
	sumA   []hinge   // scratch: the hinges of Out_v
	sumB   []hinge   // and of In_v
	tmp    []hinge   // and of a merge
	rank   []float64 // entry price of every token
	in     []bool    // membership of the current set
	byRank []int32   // tokens by falling rank
	// prefix records the units added after closure(Q).
	prefix wellformed.Prefix
}

type frame struct{ v, p, c int }

// inf is the cost of no solution in the tree program.
var inf = math.Inf(1)

// fill sets every element of s to x.
func fill[T any](s []T, x T) {
	for i := range s {
		s[i] = x
	}
}

// errInfeasible is returned when no feasible solution exists; validation rules it out.
var errInfeasible = errors.New("ilp: no feasible solution")

// Optimize solves p exactly; see the type's doc. A problem with Nested set is solved by
// NestedOptimize instead.
func (d *TreeDP) Optimize(p *Problem, sol *Solution) error {
	if p.Nested {
		return d.NestedOptimize(p, sol)
	}
	_, _, err := d.OptimizeFit(p, sol, nil, nil)
	return err
}

// solve fills the tables of p bottom up and returns the root's row: row[c] is the least
// cost of a solution of total weight exactly c, +∞ if there is none. The tables hold
// costs, the scores negated (exactly: negation commutes with the rounding of a sum),
// because a minimum costs the merges fewer instructions than a maximum. The row is
// valid until the next call.
func (d *TreeDP) solve(p *Problem) ([]float64, error) {
	var err error
	if d.mark, err = p.validate(d.mark); err != nil {
		return nil, err
	}
	t := p.Tree
	if p.Rules != nil {
		if p.Rules.N() != t.N() {
			return nil, fmt.Errorf("%w: rules for %d tokens, tree of %d", va.ErrInvalidInput, p.Rules.N(), t.N())
		}
		t = p.Rules.Tree()
	}
	n := d.prepare(p, t)
	K := p.capacity() // Σ_{v∈C} w[v] ≤ b + 1 ⟺ ℓ(C) ≤ b for C ≠ ∅
	d.capv = reuse.Resize(d.capv, n+1)
	d.fs = reuse.Resize(d.fs, 2*(n+1))
	d.foff = reuse.Resize(d.foff, n+1)
	d.soff = reuse.Resize(d.soff, n+1)
	d.scap = reuse.Resize(d.scap, n+1)
	d.f, d.choice, d.rows = d.f[:0], d.choice[:0], d.rows[:0]
	// Every solution holds Q, so the subtree of v weighs at most K less the weight of the
	// query tokens outside it: columns beyond are never part of a solution.
	d.wq = reuse.Resize(d.wq, n+1)
	clear(d.wq)
	wq := 0
	for _, q := range p.Query {
		wq += d.w[q]
	}

	// Bottom up: children before parents.
	for i := len(d.order) - 1; i >= 0; i-- {
		v := int(d.order[i])
		kids := t.Children(v)
		if d.mark[v] {
			d.wq[v] += d.w[v]
		}
		d.wq[t.Head(v)] += d.wq[v] // the children's sums are complete: they came first
		lv := K - (wq - d.wq[v])
		// Merge the children under v ∉ C (s = 0) and v ∈ C (s = 1).
		var spS [2]span
		var rowS [2][]float64
		for s := range 2 {
			limit := lv
			if s == 1 {
				limit = lv - d.w[v]
			}
			if limit < 0 || (s == 0 && d.mark[v]) {
				spS[s] = span{0, -1} // this state is impossible
				continue
			}
			spS[s], rowS[s] = d.mergeChildren(kids, s, limit)
		}
		// F_v[p][c] = min(Out[c], In[c − w] − gain(v | p)).
		wv := d.w[v]
		cv := max(spS[0].hi, spS[1].hi+wv, 0)
		if spS[1].hi < 0 {
			cv = max(spS[0].hi, 0)
		}
		d.capv[v] = cv
		off := len(d.f)
		d.f = slices.Grow(d.f, 2*(cv+1))[:off+2*(cv+1)]
		d.choice = slices.Grow(d.choice, 2*(cv+1))[:off+2*(cv+1)]
		d.foff[v] = off
		for pIn := range 2 {
			g := p.gain(v, pIn == 1, d.mark[v])
			// The rules: v ∈ C needs its head (pIn = 1); its head in C needs v.
			outOK, inOK := spS[0].hi >= 0, spS[1].hi >= 0
			if r := p.Rules; r != nil {
				if pIn == 0 && r.NeedsHead(v) {
					inOK = false
				}
				if pIn == 1 && r.WithHead(v) {
					outOK = false
				}
			}
			base := off + pIn*(cv+1)
			fv, in := d.f[base:base+cv+1], d.choice[base:base+cv+1]
			n0 := 0 // F_v[p][c] = Out[c] for c < n0, then +∞
			sp := span{0, -1}
			if outOK {
				n0 = copy(fv, rowS[0])
				sp = spS[0]
			}
			fill(fv[n0:], inf)
			if si := spS[1]; !inOK {
				clear(in)
			} else {
				// The loop writes the choices of In's span; outside it, Out's stand.
				clear(in[:wv+si.lo])
				clear(in[wv+si.hi+1:])
				// +∞ − g = +∞ never wins; on a tie Out stays.
				fw, iw := fv[wv+si.lo:wv+si.hi+1], in[wv+si.lo:wv+si.hi+1]
				for j, y := range rowS[1][si.lo : si.hi+1] {
					x := y - g
					iw[j] = x < fw[j] // without a branch, as in the merges
					fw[j] = min(fw[j], x)
				}
				if sp.hi < 0 {
					sp = span{si.lo + wv, si.hi + wv}
				} else {
					sp = span{min(sp.lo, si.lo+wv), max(sp.hi, si.hi+wv)}
				}
			}
			d.fs[2*v+pIn] = sp
		}
	}
	// The root: its children hang off it, which is always there.
	_, row := d.mergeChildren(t.Children(0), 1, K)
	return row, nil
}

// prepare sets the token weights d.w of p and the order d.order of the vertices of t,
// breadth first from the root, and returns the number of tokens.
func (d *TreeDP) prepare(p *Problem, t *syntax.Tree) int {
	n := t.N()
	d.w = reuse.Resize(d.w, n+1)
	for v := 1; v <= n; v++ {
		d.w[v] = p.Lens[v-1] + 1
	}
	d.order = append(d.order[:0], t.Children(0)...)
	for i := 0; i < len(d.order); i++ {
		d.order = append(d.order, t.Children(int(d.order[i]))...)
	}
	return n
}

// readBack writes into sol the optimum of total weight c read top down from the tables
// of the last solve, whose root row is row.
func (d *TreeDP) readBack(p *Problem, sol *Solution, row []float64, weight int) {
	t := p.Tree
	if p.Rules != nil {
		t = p.Rules.Tree()
	}
	n := t.N()
	sol.Score = -row[weight]
	// Top down: read the optimum back.
	sol.Parent = reuse.Resize(sol.Parent, n+1)
	for v := range sol.Parent {
		sol.Parent[v] = -1
	}
	d.stack = d.pushChildren(d.stack[:0], t.Children(0), 1, weight)
	for len(d.stack) > 0 {
		fr := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		v, c := fr.v, fr.c
		s := 0
		if d.choice[d.foff[v]+fr.p*(d.capv[v]+1)+c] {
			s = 1
			sol.Parent[v] = p.parent(v, fr.p == 1, d.mark[v])
			c -= d.w[v]
		}
		d.stack = d.pushChildren(d.stack, t.Children(v), s, c)
	}
	sol.Kept = sol.Kept[:0]
	for v := 1; v <= n; v++ {
		if sol.Parent[v] >= 0 {
			sol.Kept = append(sol.Kept, v)
		}
	}
}

// fitTries bounds the read-backs of OptimizeFit.
const fitTries = 32

// OptimizeFit solves p (which must not be Nested) under one more constraint that only a
// whole solution can be checked against, such as the displayed length of a snippet: it
// solves p once, then reads back the optimum of each total weight in decreasing order of
// score (the smaller weight first among equal scores), and returns the first kept set
// that, passed through post when post is not nil (a trim), fits; a nil fits takes the
// optimum, as Optimize. After fitTries read-backs without a fit it returns the overall
// optimum (post applied) and false. The returned slice aliases sol.Kept.
func (d *TreeDP) OptimizeFit(p *Problem, sol *Solution, post func([]int) []int, fits func([]int) bool) ([]int, bool, error) {
	if p.Nested {
		return nil, false, fmt.Errorf("%w: OptimizeFit of a nested problem", va.ErrInvalidInput)
	}
	row, err := d.solve(p)
	if err != nil {
		return nil, false, err
	}
	// take reads back the optimum of weight c, through post.
	take := func(c int) []int {
		d.readBack(p, sol, row, c)
		if post != nil {
			return post(sol.Kept)
		}
		return sol.Kept
	}
	first := -1
	prev := -1
	for range fitTries {
		// The next weight in the order: score descending (cost ascending), weight
		// ascending.
		c := -1
		for j, x := range row {
			if x == inf {
				continue
			}
			if prev >= 0 && (x < row[prev] || x == row[prev] && j <= prev) {
				continue // already tried
			}
			if c < 0 || x < row[c] {
				c = j
			}
		}
		if c < 0 {
			break
		}
		if first < 0 {
			first = c
		}
		prev = c
		if kept := take(c); fits == nil || fits(kept) {
			return kept, true, nil
		}
	}
	if first < 0 {
		return nil, false, errInfeasible
	}
	return take(first), false, nil
}

// span is what the merges know of a row of costs: its finite entries lie in [lo, hi],
// and the entries at lo and hi are finite; hi < 0 when there is none.
type span struct{ lo, hi int }

// spanOf returns the span of row, whose entries before lo are +∞ and whose entry at lo,
// when lo is in row, is finite.
func spanOf(row []float64, lo int) span {
	hi := len(row) - 1
	for hi >= lo && row[hi] == inf {
		hi--
	}
	if hi < lo {
		return span{0, -1}
	}
	return span{lo, hi}
}

// mergeChildren merges the tables F_u[s] of the children u of a vertex in state s (for
// the children, the parent's state), capped at limit. Each merged row goes to d.rows, and
// each child records where the row it was merged into starts (d.soff) and its cap
// (d.scap), so that pushChildren finds the merge's argmin again. It returns the merged
// row (valid until the next solve), which ends at its last finite entry, and its span
// (hi < 0 and a nil row when no weight is reachable). The first child's row is copied;
// each other is convolved (minPlus) with the row so far, over their spans, the outer
// loop on the side whose span is shorter.
func (d *TreeDP) mergeChildren(kids []int32, s, limit int) (span, []float64) {
	off := len(d.rows)
	d.rows = slices.Grow(d.rows, 1)[:off+1]
	d.rows[off] = 0
	sa := span{0, 0} // the empty set, of weight 0
	for _, k := range kids {
		u := int(k)
		d.soff[u][s], d.scap[u][s] = off, sa.hi
		sf := d.fs[2*u+s]
		nc := min(sa.hi+sf.hi, limit)
		if sa.hi < 0 || sf.hi < 0 || sa.lo+sf.lo > nc {
			sa = span{0, -1} // nothing reachable, after u neither
			continue
		}
		cu := d.capv[u]
		fu := d.f[d.foff[u]+s*(cu+1) : d.foff[u]+(s+1)*(cu+1)]
		noff := len(d.rows)
		d.rows = slices.Grow(d.rows, nc+1)[:noff+nc+1]
		a, row := d.rows[off:off+sa.hi+1], d.rows[noff:noff+nc+1]
		switch {
		case sa.hi == 0 && a[0] == 0:
			copy(row, fu) // the first child: its row, capped
		case sf.hi-sf.lo <= sa.hi-sa.lo:
			fill(row, inf)
			minPlus(row, fu, sf, a, sa)
		default:
			fill(row, inf)
			minPlus(row, a, sa, fu, sf)
		}
		sa = spanOf(row, sa.lo+sf.lo)
		d.rows = d.rows[:noff+sa.hi+1]
		off = noff
	}
	if sa.hi < 0 {
		return sa, nil
	}
	return sa, d.rows[off : off+sa.hi+1]
}

// minPlus sets row[i+j] = min(row[i+j], outer[i] + inner[j]) for the finite entries i of
// outer within so and every j of inner within si, with i + j < len(row).
func minPlus(row, outer []float64, so span, inner []float64, si span) {
	nc := len(row) - 1
	for i := so.lo; i <= min(so.hi, nc-si.lo); i++ {
		x := outer[i]
		if x == inf {
			continue // the reachable weights only
		}
		top := min(si.hi, nc-i)
		ri, in := row[i+si.lo:i+top+1], inner[si.lo:top+1]
		ri = ri[:len(in)]
		// Without a branch: which of the two wins is unpredictable, and a mispredicted
		// branch cost a third of the merge. +∞ + x = +∞ never wins, so unreachable
		// weights of inner need no test. Four at a time: fewer loop instructions.
		j := 0
		for ; j+4 <= len(in); j += 4 {
			r, y := ri[j:j+4:j+4], in[j:j+4:j+4]
			r[0] = min(r[0], x+y[0])
			r[1] = min(r[1], x+y[1])
			r[2] = min(r[2], x+y[2])
			r[3] = min(r[3], x+y[3])
		}
		for ; j < len(in); j++ {
			ri[j] = min(ri[j], x+in[j])
		}
	}
}

// pushChildren pushes the children of a vertex in state s whose subtrees weigh c in
// total, each with its share of c (last child first). The share is the argmin of the
// child's merge, found again: the smallest weight j of the child with the least
// A[c−j] + F_u[s][j], so that every read-back of a solve sees the same optimum.
func (d *TreeDP) pushChildren(stack []frame, kids []int32, s, c int) []frame {
	for i := len(kids) - 1; i >= 0; i-- {
		u := int(kids[i])
		capA, cu := d.scap[u][s], d.capv[u]
		a := d.rows[d.soff[u][s] : d.soff[u][s]+capA+1]
		fu := d.f[d.foff[u]+s*(cu+1) : d.foff[u]+(s+1)*(cu+1)]
		best, j := inf, 0
		for k := max(0, c-capA); k <= min(cu, c); k++ {
			if z := a[c-k] + fu[k]; z < best {
				best, j = z, k
			}
		}
		stack = append(stack, frame{v: u, p: s, c: j})
		c -= j
	}
	return stack
}

// ProximityReach is the distance, in tokens, to the nearest query token beyond which
// nested decoding's tie-break (d.far) no longer tells tokens apart.
const ProximityReach = 10

// distances sets d.far for p's query, by which nested decoding breaks ties between tokens
// of one entry price (snapRanks): two passes over the tokens, O(n).
func (d *TreeDP) distances(p *Problem) {
	n := p.N()
	d.far = reuse.Resize(d.far, n+1)
	if len(p.Query) == 0 {
		clear(d.far)
		return
	}
	last := -ProximityReach
	for v := 1; v <= n; v++ { // distance to the nearest query token on the left
		if d.mark[v] {
			last = v
		}
		d.far[v] = float64(min(v-last, ProximityReach))
	}
	next := n + 1 + ProximityReach
	for v := n; v >= 1; v-- { // and on the right
		if d.mark[v] {
			next = v
		}
		d.far[v] = min(d.far[v], float64(min(next-v, ProximityReach))) / ProximityReach
	}
}
