package ilp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
)

// randomProblem returns a random Problem of 1 to maxN tokens: a random tree, token
// lengths of 0 to 12, scores of mixed signs (integers a quarter of the time, so that
// ties occur), up to 3 query tokens (a quarter of the time attached to the root) and a
// feasible budget from ℓ(Q) to beyond ℓ(S).
func randomProblem(t testing.TB, rng *rand.Rand, maxN int) *Problem {
	t.Helper()
	n := 1 + rng.IntN(maxN)
	heads := make([]int, n)
	perm := rng.Perm(n)
	for i, v := range perm {
		if i > 0 {
			heads[v] = perm[rng.IntN(i)] + 1
			if rng.IntN(8) == 0 {
				heads[v] = 0 // several root dependents
			}
		}
	}
	tree, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Tree: tree, Lens: make([]int, n), Edge: make([]float64, n), Root: make([]float64, n)}
	ints := rng.IntN(4) == 0
	bias := rng.NormFloat64()
	total := -1
	for i := range n {
		p.Lens[i] = rng.IntN(13)
		total += p.Lens[i] + 1
		for _, s := range []*float64{&p.Edge[i], &p.Root[i]} {
			*s = bias + 2*rng.NormFloat64()
			if ints {
				*s = math.Round(*s)
			}
		}
	}
	lq := -1
	for _, q := range rng.Perm(n)[:rng.IntN(min(n, 3)+1)] {
		p.Query = append(p.Query, q+1)
		lq += p.Lens[q] + 1
	}
	p.Budget = max(lq, 1) + rng.IntN(total+10)
	p.QueryViaRoot = rng.IntN(4) == 0
	return p
}
