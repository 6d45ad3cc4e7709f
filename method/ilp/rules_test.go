package ilp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qsc-nlp/qsc/internal/synth"
	"github.com/qsc-nlp/qsc/wellformed"
)

// randomRules gives the tokens of p random relations and forms, so that the rules bind
// some of them, and computes the rules of p.
func randomRules(t testing.TB, rng *rand.Rand, p *Problem) *wellformed.Rules {
	t.Helper()
	heads := make([]int, p.N())
	for v := range heads {
		heads[v] = p.Tree.Head(v + 1)
	}
	r := new(wellformed.Rules)
	if err := r.Reset(synth.RuledSentence(rng, heads), p.Tree, p.Lens, p.Query, p.Budget); err != nil {
		t.Fatal(err)
	}
	return r
}

// closed reports whether kept satisfies the rules.
func closed(r *wellformed.Rules, kept []int) bool {
	in := make([]bool, r.N()+1)
	for _, v := range kept {
		in[v] = true
	}
	for v := 1; v <= r.N(); v++ {
		h := r.Head(v)
		if (in[v] && r.NeedsHead(v) && !in[h]) || (r.WithHead(v) && in[h] && !in[v]) {
			return false
		}
	}
	return true
}

func TestTreeDPRulesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var d TreeDP
	var sol Solution
	for i := range 3000 {
		p := randomProblem(t, rng, 11)
		p.QueryViaRoot = false
		p.Rules = randomRules(t, rng, p)
		if err := d.Optimize(p, &sol); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		if !closed(p.Rules, sol.Kept) {
			t.Fatalf("instance %d: %v breaks the rules", i, sol.Kept)
		}
		s, ok := p.Evaluate(sol.Kept)
		if !ok || !near(s, sol.Score) {
			t.Fatalf("instance %d: %v feasible %v, scores %v, claims %v", i, sol.Kept, ok, s, sol.Score)
		}
		// The best closed set, by brute force.
		n := p.N()
		best := math.Inf(-1)
		kept := make([]int, 0, n)
		for mask := range 1 << n {
			kept = kept[:0]
			for v := 1; v <= n; v++ {
				if mask&(1<<(v-1)) != 0 {
					kept = append(kept, v)
				}
			}
			if s, ok := p.Evaluate(kept); ok && s > best && closed(p.Rules, kept) {
				best = s
			}
		}
		if !near(sol.Score, best) {
			t.Fatalf("instance %d (n %d, b %d, Q %v): DP %v, brute force %v", i, n, p.Budget, p.Query, sol.Score, best)
		}
	}
}

func TestNestedRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var d TreeDP
	var sol Solution
	for i := range 2000 {
		p := randomProblem(t, rng, 14)
		p.QueryViaRoot = false
		p.Rules = randomRules(t, rng, p)
		p.Nested = true
		if err := d.Optimize(p, &sol); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		if s, ok := p.Evaluate(sol.Kept); !ok || !near(s, sol.Score) || !closed(p.Rules, sol.Kept) {
			t.Fatalf("instance %d: %v feasible %v closed %v, scores %v, claims %v", i, sol.Kept, ok, closed(p.Rules, sol.Kept), s, sol.Score)
		}
	}
	p := randomProblem(t, rng, 5)
	p.Nested = true
	if err := d.Optimize(p, &sol); err == nil {
		t.Error("nested decoding without rules did not fail")
	}
}
