//go:build glpk

package ilp

import (
	"math/rand/v2"
	"testing"
)

// TestSolversAgree solves thousands of random problems with both exact solvers: the same
// optimum every time (the chosen sets may differ only on ties).
func TestSolversAgree(t *testing.T) {
	const count = 4000
	rng := rand.New(rand.NewPCG(11, 12))
	var d TreeDP
	var m MIP
	var a, b Solution
	mismatches, differentSets := 0, 0
	for i := range count {
		maxN := 12
		if i%2 == 1 {
			maxN = 60
		}
		p := randomProblem(t, rng, maxN)
		if err := d.Optimize(p, &a); err != nil {
			t.Fatalf("instance %d: DP: %v", i, err)
		}
		if err := m.Optimize(p, &b); err != nil {
			t.Fatalf("instance %d: GLPK: %v", i, err)
		}
		checkSolution(t, p, &a)
		checkSolution(t, p, &b)
		if !nearTol(a.Score, b.Score) {
			mismatches++
			t.Errorf("instance %d (n %d, b %d, Q %v): DP %v %v, GLPK %v %v", i, p.N(), p.Budget, p.Query, a.Score, a.Kept, b.Score, b.Kept)
		}
		if !equalInts(a.Kept, b.Kept) {
			differentSets++
			if !integral(p) { // real-valued scores have no ties
				t.Errorf("instance %d: DP keeps %v, GLPK %v, both scoring %v", i, a.Kept, b.Kept, a.Score)
			}
		}
	}
	t.Logf("%d random problems (n ≤ 12 and n ≤ 60): %d objective mismatches; %d different optimal sets (ties)", count, mismatches, differentSets)
}

// integral reports whether every score of p is an integer (randomProblem makes such
// problems, with ties, a quarter of the time).
func integral(p *Problem) bool {
	for i := range p.Edge {
		if p.Edge[i] != float64(int64(p.Edge[i])) || p.Root[i] != float64(int64(p.Root[i])) {
			return false
		}
	}
	return true
}

// nearTol compares objectives within GLPK's tolerances.
func nearTol(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-6*(1+max(a, -a, b, -b))
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
