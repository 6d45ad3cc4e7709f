package ilp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
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
			z += p.gain(v, h == 0 || in[h], slices.Contains(p.Query, v)) + -mu*w
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
