package ilp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/synth"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TestEntryPricesBruteForce checks every entry price against the relaxation solved by
// enumeration: at any price μ between two entry prices, the tokens whose price is above
// μ are the smallest optimum of max Σ_{v∈C} (gain(v) − μ·w_v) over the sets that hold Q
// and satisfy the rules.
func TestEntryPricesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var d TreeDP
	var sol Solution
	for i := range 1500 {
		p := randomProblem(t, rng, 10)
		p.QueryViaRoot = false
		p.Rules = randomRules(t, rng, p)
		p.Price, p.Proximity = -3*rng.Float64(), 3*rng.Float64()
		if err := d.NestedOptimize(p, &sol); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		n := p.N()
		ranks := slices.Clone(d.rank[1 : n+1])
		slices.Sort(ranks)
		ranks = slices.CompactFunc(ranks, samePrice)
		var mus []float64
		for k, x := range ranks {
			if math.IsInf(x, 0) {
				continue
			}
			mus = append(mus, x-0.3731)
			if k+1 < len(ranks) && !math.IsInf(ranks[k+1], 0) {
				mus = append(mus, (x+ranks[k+1])/2)
			} else {
				mus = append(mus, x+0.2917)
			}
		}
		if len(mus) == 0 {
			mus = []float64{0}
		}
		for _, mu := range mus {
			if slices.ContainsFunc(ranks, func(x float64) bool { return math.Abs(x-mu) < 1e-6 }) {
				continue // too near a price for the enumeration's tolerance
			}
			want := smallestOptimum(p, d.far, mu)
			for v := 1; v <= n; v++ {
				if got := d.rank[v] > mu; got != want[v] {
					t.Fatalf("instance %d (n %d, Q %v), μ %v: token %d has price %v, in the smallest optimum: %v (prices %v)",
						i, n, p.Query, mu, v, d.rank[v], want[v], d.rank[1:n+1])
				}
			}
		}
	}
}

// smallestOptimum solves the relaxation of p at price mu by enumeration and returns the
// intersection of its optima (the smallest optimum).
func smallestOptimum(p *Problem, far []float64, mu float64) []bool {
	n := p.N()
	r := p.Rules
	best := math.Inf(-1)
	var opt []uint
	in := make([]bool, n+1)
	for mask := range uint(1 << n) {
		for v := 1; v <= n; v++ {
			in[v] = mask&(1<<(v-1)) != 0
		}
		ok := true
		for _, q := range p.Query {
			ok = ok && in[q]
		}
		if !ok {
			continue
		}
		kept := []int{}
		for v := 1; v <= n; v++ {
			if in[v] {
				kept = append(kept, v)
			}
		}
		if !closed(r, kept) {
			continue
		}
		z := 0.0
		for _, v := range kept {
			h := r.Head(v)
			w := float64(p.Lens[v-1] + 1)
			z += p.gain(v, h == 0 || in[h], slices.Contains(p.Query, v)) + (-p.Price-p.Proximity*far[v]-mu)*w
		}
		switch {
		case opt == nil || z > best+1e-9*(1+math.Abs(best)):
			best, opt = z, []uint{mask}
		case math.Abs(z-best) <= 1e-9*(1+math.Abs(best)):
			opt = append(opt, mask)
		}
	}
	and := ^uint(0)
	for _, m := range opt {
		and &= m
	}
	want := make([]bool, n+1)
	for v := 1; v <= n; v++ {
		want[v] = and&(1<<(v-1)) != 0
	}
	return want
}

// TestNestedIsNested checks the promise of nested decoding: for one sentence and query,
// the compression at budget b is a subset of the one at b + 1, for every b from the
// query's length to the sentence's, with the rules computed for each budget.
func TestNestedIsNested(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var d TreeDP
	var sol Solution
	var r wellformed.Rules
	for i := range 400 {
		p := randomProblem(t, rng, 16)
		p.QueryViaRoot = false
		p.Price, p.Proximity = -3*rng.Float64(), 3*rng.Float64()
		p.Nested = true
		heads := make([]int, p.N())
		for v := range heads {
			heads[v] = p.Tree.Head(v + 1)
		}
		s := synth.RuledSentence(rng, heads)
		total, lq := -1, -1
		for _, l := range p.Lens {
			total += l + 1
		}
		for _, q := range p.Query {
			lq += p.Lens[q-1] + 1
		}
		var prev []int
		prevYielded := false
		for b := max(lq, 1); b <= total; b++ {
			p.Budget = b
			if err := r.Reset(s, p.Tree, p.Lens, p.Query, b); err != nil {
				t.Fatal(err)
			}
			p.Rules = &r
			if err := d.Optimize(p, &sol); err != nil {
				t.Fatalf("instance %d, b %d: %v", i, b, err)
			}
			if s, ok := p.Evaluate(sol.Kept); !ok || !near(s, sol.Score) || !closed(&r, sol.Kept) {
				t.Fatalf("instance %d, b %d: %v feasible %v closed %v, scores %v, claims %v", i, b, sol.Kept, ok, closed(&r, sol.Kept), s, sol.Score)
			}
			// The rules free the query when its closure does not fit, so nesting is
			// promised between budgets where they agree.
			if prev != nil && prevYielded == r.Yielded() && !isSubset(prev, sol.Kept) {
				t.Fatalf("instance %d: C(%d) = %v is not in C(%d) = %v", i, b-1, prev, b, sol.Kept)
			}
			prev, prevYielded = slices.Clone(sol.Kept), r.Yielded()
		}
	}
}

func isSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// TestExtendFit checks the snippet decoding's extension on random problems under their
// rules against extendRef, a direct reading of its definition: from the exact optimum at
// a price, and from no base, it keeps the base, fits the budget, satisfies the rules and
// grows as extendRef does; from the same base, a larger budget keeps what a smaller one
// kept; and it extends some optima.
func TestExtendFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var d TreeDP
	var sol, nested Solution
	extended := 0
	for i := range 1500 {
		p := randomProblem(t, rng, 16)
		p.QueryViaRoot = false
		p.Price, p.Proximity = 3*rng.Float64(), 3*rng.Float64()
		p.Rules = randomRules(t, rng, p)
		if p.Rules.Yielded() {
			continue
		}
		if _, _, err := d.NestedFit(p, &nested, nil, nil); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		byRank := slices.Clone(d.byRank) // the order depends on p only
		if err := d.Optimize(p, &sol); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		base := slices.Clone(sol.Kept)
		for _, from := range [][]int{nil, base} {
			got, _, err := d.ExtendFit(p, &sol, from, nil, nil)
			if err != nil {
				t.Fatalf("instance %d: %v", i, err)
			}
			if _, ok := p.Evaluate(got); !ok || !closed(p.Rules, got) || !isSubset(from, got) {
				t.Fatalf("instance %d: extension %v of %v: feasible and closed %v", i, got, from, closed(p.Rules, got))
			}
			if want := extendRef(p, from, byRank); !slices.Equal(got, want) {
				t.Fatalf("instance %d: extension of %v is %v, want %v", i, from, got, want)
			}
		}
		got := slices.Clone(sol.Kept)
		if len(got) > len(base) {
			extended++
		}
		budget := p.Budget
		for p.Budget = budget + 1; p.Budget <= budget+30; p.Budget += 1 + rng.IntN(5) {
			more, _, err := d.ExtendFit(p, &sol, base, nil, nil)
			if err != nil {
				t.Fatalf("instance %d: %v", i, err)
			}
			if !isSubset(got, more) {
				t.Fatalf("instance %d: from %v, budget %d gives %v, budget %d %v", i, base, budget, got, p.Budget, more)
			}
			got = slices.Clone(more)
		}
	}
	if extended == 0 {
		t.Fatal("no optimum was extended")
	}
}

// extendRef is ExtendFit by its definition, in O(n²) per step: C is Q, base and their
// closures; the candidates are the tokens outside C next to a run of C that holds a word
// (not only punctuation), those between two such runs first, each group by byRank; the
// first candidate joins C with its closure while that fits the budget.
func extendRef(p *Problem, base []int, byRank []int32) []int {
	r := p.Rules
	n := r.N()
	in := make([]bool, n+1)
	inC := func(v int) bool { return in[v] }
	weight := 0
	add := func(v int) {
		if !in[v] {
			in[v] = true
			weight += p.Lens[v-1] + 1
		}
	}
	for _, q := range p.Query {
		add(q)
	}
	r.QueryClosure(p.Query, inC, add)
	for _, v := range base {
		r.Closure(v, inC, add)
	}
	words := func(v, step int) bool { // the run of C from v in direction step holds a word
		for ; v >= 1 && v <= n && in[v]; v += step {
			if !r.Punct(v) {
				return true
			}
		}
		return false
	}
	for {
		best := -1
		for _, group := range []int{2, 1} {
			for _, v := range byRank {
				u := int(v)
				if in[u] {
					continue
				}
				touches := 0
				if u > 1 && in[u-1] && words(u-1, -1) {
					touches++
				}
				if u < n && in[u+1] && words(u+1, 1) {
					touches++
				}
				if touches == group {
					best = u
					break
				}
			}
			if best >= 0 {
				break
			}
		}
		if best < 0 || weight+r.Closure(best, inC, nil) > p.capacity() {
			break
		}
		r.Closure(best, inC, add)
	}
	var kept []int
	for v := 1; v <= n; v++ {
		if in[v] {
			kept = append(kept, v)
		}
	}
	return kept
}
