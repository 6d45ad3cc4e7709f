package ilp

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// bruteForce returns the best objective over all token subsets.
func bruteForce(p *Problem) float64 {
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
		if s, ok := p.Evaluate(kept); ok && s > best {
			best = s
		}
	}
	return best
}

// checkSolution checks that sol is a feasible solution of p whose arcs are consistent
// and whose score is what it claims.
func checkSolution(t *testing.T, p *Problem, sol *Solution) {
	t.Helper()
	s, ok := p.Evaluate(sol.Kept)
	if !ok {
		t.Fatalf("infeasible solution %v (budget %d, query %v)", sol.Kept, p.Budget, p.Query)
	}
	if !near(s, sol.Score) {
		t.Fatalf("solution %v scores %v, claims %v", sol.Kept, s, sol.Score)
	}
	n := p.N()
	if len(sol.Parent) != n+1 || sol.Parent[0] != -1 {
		t.Fatalf("Parent has %d entries, Parent[0] = %d", len(sol.Parent), sol.Parent[0])
	}
	in := make([]bool, n+1)
	for i, v := range sol.Kept {
		if i > 0 && v <= sol.Kept[i-1] {
			t.Fatalf("Kept %v not ascending", sol.Kept)
		}
		in[v] = true
	}
	arcs := 0.0
	for v := 1; v <= n; v++ {
		h := p.Tree.Head(v)
		switch par := sol.Parent[v]; {
		case par < 0:
			if in[v] {
				t.Fatalf("kept token %d has no arc", v)
			}
			continue
		case !in[v]:
			t.Fatalf("token %d has arc from %d but is not kept", v, par)
		case par == h && par > 0 && p.QueryViaRoot && slices.Contains(p.Query, v):
			t.Fatalf("query token %d takes its parse edge", v)
		case par == 0 && h == 0, par == h && par > 0 && in[h]:
			arcs += p.Edge[v-1]
		case par == 0:
			arcs += p.Root[v-1]
		default:
			t.Fatalf("token %d (head %d) has arc from %d", v, h, par)
		}
	}
	if !near(arcs, sol.Score) {
		t.Fatalf("arcs score %v, claimed %v", arcs, sol.Score)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*(1+math.Abs(a)+math.Abs(b)) }

func TestTreeDPBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var d TreeDP
	var sol Solution
	for i := range 3000 {
		p := randomProblem(t, rng, 12)
		if err := d.Optimize(p, &sol); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		checkSolution(t, p, &sol)
		if want := bruteForce(p); !near(sol.Score, want) {
			t.Fatalf("instance %d (n %d, b %d, Q %v): DP %v, brute force %v", i, p.N(), p.Budget, p.Query, sol.Score, want)
		}
	}
}

func TestTreeDPLarge(t *testing.T) {
	// Long sentences and large budgets: feasible, consistent, and at least as good as the
	// greedy "keep Q and every token with a positive score that fits".
	rng := rand.New(rand.NewPCG(3, 4))
	var d TreeDP
	var sol Solution
	for range 200 {
		p := randomProblem(t, rng, 150)
		if err := d.Optimize(p, &sol); err != nil {
			t.Fatal(err)
		}
		checkSolution(t, p, &sol)
		if g, ok := p.Evaluate(p.Query); ok && g > sol.Score+1e-9 {
			t.Fatalf("Q alone scores %v > optimum %v", g, sol.Score)
		}
	}
}

func TestTreeDPAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ps := make([]*Problem, 50)
	for i := range ps {
		ps[i] = randomProblem(t, rng, 60)
	}
	var d TreeDP
	var sol Solution
	for _, p := range ps { // grow the buffers
		if err := d.Optimize(p, &sol); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(5, func() {
		for _, p := range ps {
			if err := d.Optimize(p, &sol); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pass over 50 problems, want 0", allocs)
	}
}

func TestProblemErrors(t *testing.T) {
	tree, err := syntax.NewTree([]int{2, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	ok := func() *Problem {
		return &Problem{Tree: tree, Lens: []int{3, 4, 1}, Edge: []float64{1, 1, 1}, Root: []float64{0, 0, 0}, Query: []int{1}, Budget: 8}
	}
	for _, c := range []struct {
		name   string
		change func(*Problem)
		want   error
	}{
		{"no tree", func(p *Problem) { p.Tree = nil }, va.ErrInvalidInput},
		{"lengths", func(p *Problem) { p.Lens = p.Lens[:2] }, va.ErrInvalidInput},
		{"negative length", func(p *Problem) { p.Lens[1] = -1 }, va.ErrInvalidInput},
		{"NaN score", func(p *Problem) { p.Root[2] = math.NaN() }, va.ErrInvalidInput},
		{"query 0", func(p *Problem) { p.Query = []int{0} }, va.ErrNotInSentence},
		{"query 4", func(p *Problem) { p.Query = []int{4} }, va.ErrNotInSentence},
		{"duplicate", func(p *Problem) { p.Query = []int{1, 1} }, va.ErrDuplicate},
		{"budget 0", func(p *Problem) { p.Budget = 0 }, va.ErrBadBudget},
		{"budget < ℓ(Q)", func(p *Problem) { p.Query, p.Budget = []int{1, 2}, 7 }, va.ErrBudgetTooSmall},
	} {
		p := ok()
		c.change(p)
		var d TreeDP
		var sol Solution
		if err := d.Optimize(p, &sol); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	// ℓ(Q) = b exactly is feasible: keep "abc defg" (3 + 1 + 4 = 8).
	p := ok()
	p.Query = []int{1, 2}
	var d TreeDP
	var sol Solution
	if err := d.Optimize(p, &sol); err != nil || len(sol.Kept) != 2 {
		t.Errorf("ℓ(Q) = b: %v, kept %v", err, sol.Kept)
	}
}
