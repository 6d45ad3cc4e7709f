package ilp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// randomRules gives the tokens of p random relations and forms, so that the rules bind
// some of them, and computes the rules of p.
func randomRules(t testing.TB, rng *rand.Rand, p *Problem) *wellformed.Rules {
	t.Helper()
	_, r := randomRuled(t, rng, p)
	return r
}

// randomRuled returns a sentence for p with random relations and forms
// (synth.RuledSentence), and the rules of p on it.
func randomRuled(t testing.TB, rng *rand.Rand, p *Problem) (*syntax.Sentence, *wellformed.Rules) {
	t.Helper()
	heads := make([]int, p.N())
	for v := range heads {
		heads[v] = p.Tree.Head(v + 1)
	}
	s := synth.RuledSentence(rng, heads)
	r := new(wellformed.Rules)
	if err := r.Reset(s, p.Tree, p.Lens, p.Query, p.Budget); err != nil {
		t.Fatal(err)
	}
	return s, r
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

// countRuns counts the maximal runs of consecutive ids in kept (ascending): a display's gaps.
func countRuns(kept []int) int {
	n := 0
	for i, v := range kept {
		if i == 0 || kept[i-1] != v-1 {
			n++
		}
	}
	return n
}

// TestOptimizeFit checks OptimizeFit against what shrinking the budget finds: with a
// constraint on the whole solution (here, at most g runs of consecutive tokens, as a
// display with "…" cares about), for every budget b' ≤ b the optimum of Optimize at b' is
// one of the per-weight optima OptimizeFit reads back, so the first b' whose optimum
// fits gives a lower bound on OptimizeFit's score, which must fit.
func TestOptimizeFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var d, e TreeDP
	var sol, sol2 Solution
	found, tried := 0, 0
	for i := range 2000 {
		p := randomProblem(t, rng, 11)
		p.QueryViaRoot = false
		p.Rules = randomRules(t, rng, p)
		g := 1 + rng.IntN(3)
		fits := func(kept []int) bool { return countRuns(kept) <= g }
		kept, ok, err := d.OptimizeFit(p, &sol, nil, fits)
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		if ok != fits(kept) || !closed(p.Rules, kept) {
			t.Fatalf("instance %d: %v: ok %v, %d runs (at most %d), closed %v", i, kept, ok, countRuns(kept), g, closed(p.Rules, kept))
		}
		score, feasible := p.Evaluate(kept)
		if !feasible || !near(score, sol.Score) {
			t.Fatalf("instance %d: %v feasible %v, score %v, claims %v", i, kept, feasible, score, sol.Score)
		}
		// Shrink the budget until the optimum fits.
		b := p.Budget
		for q := b; q >= 0; q-- {
			p.Budget = q
			if e.Optimize(p, &sol2) != nil {
				break
			}
			if fits(sol2.Kept) {
				tried++
				if !ok {
					// Allowed only when more than fitTries weights score at least as well.
					row, _ := e.solve(&Problem{Tree: p.Tree, Lens: p.Lens, Edge: p.Edge, Root: p.Root, Query: p.Query, Budget: b, Rules: p.Rules})
					better := 0
					for _, x := range row { // costs
						if -x >= sol2.Score {
							better++
						}
					}
					if better <= fitTries {
						t.Fatalf("instance %d: no fit found, but budget %d of %d gives %v (score %v)", i, q, b, sol2.Kept, sol2.Score)
					}
				} else if sol.Score < sol2.Score-1e-9 {
					t.Fatalf("instance %d: OptimizeFit %v (score %v) is worse than budget %d's %v (score %v)", i, kept, sol.Score, q, sol2.Kept, sol2.Score)
				}
				break
			}
		}
		p.Budget = b
		if ok {
			found++
		}
	}
	t.Logf("%d of 2000 fit (%d found by shrinking the budget)", found, tried)
	if found == 0 || found == 2000 {
		t.Errorf("%d of 2000 instances fit: the constraint does not discriminate", found)
	}
	// post is applied to what is checked and returned.
	p := randomProblem(t, rng, 11)
	p.Rules = randomRules(t, rng, p)
	p.QueryViaRoot = false
	calls := 0
	post := func(k []int) []int { calls++; return k[:0] }
	kept, ok, err := d.OptimizeFit(p, &sol, post, func(k []int) bool { return len(k) == 0 })
	if err != nil || !ok || len(kept) != 0 || calls != 1 {
		t.Errorf("with post: %v, %v, %v, %d calls", kept, ok, err, calls)
	}
}
