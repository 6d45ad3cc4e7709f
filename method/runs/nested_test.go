package runs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/method/runs"
)

// TestNestedBruteForce checks the nested display on 2,000 random problems, each at every
// budget from the query's length to beyond the sentence's, with a random reference order
// and weights: unless the rules yield to the query, the display is allowed (every run
// allowed by the display rules, Q kept, the width within the budget, read from the
// objective's definition), and a larger budget keeps what a smaller one kept when both
// are states of the sequence; and a display exists whenever a budget below it had one.
func TestNestedBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	checked, pairs := 0, 0
	nestedTrials(t, rng, 2000, randomInput, 11, func(trial int, d *runs.Program, p *runs.Input, order []int32) {
		n := p.Tree.N()
		pr := randomParams(rng, 20, 7, 7)
		pr.Clean = false // the nested display's sequence does not read it
		wanted := rng.IntN(n + 1)
		lq := -1
		for _, q := range p.Query {
			lq += p.Lens[q-1] + 1
		}
		var prev []int
		had := false // a smaller budget had a display
		for b := max(lq, 1); b <= sentenceWidth(p.Lens)+3*n+4; b++ {
			p.Budget = b
			resetRules(t, p)
			kept, ok := d.Nested(p, pr, order, wanted, nil)
			if !ok || p.Rules.Yielded() {
				if had && !p.Rules.Yielded() {
					t.Fatalf("trial %d: no display at b = %d, one at a smaller budget (%v)", trial, b, prev)
				}
				prev, had = nil, false
				continue
			}
			mustAllow(t, trial, d, p, pr, kept)
			checked++
			if d.NestedFell() {
				prev, had = nil, true // the snippet decoding's display: not a state to nest
				continue
			}
			if had && prev != nil {
				pairs++
				mustNest(t, trial, b, prev, kept)
			}
			prev, had = slices.Clone(kept), true
		}
	})
	if checked == 0 || pairs == 0 {
		t.Fatalf("no display checked (%d) or no pair compared (%d)", checked, pairs)
	}
	t.Logf("%d displays, %d pairs of adjacent budgets", checked, pairs)
}

// TestNestedFits checks that the nested display undoes its moves, last first, until the
// display passes fits: under a fits that takes at most m tokens, the result passes it,
// holds Q, and is a state of the sequence (within the display without fits) unless no
// state passes, when it is the snippet decoding's display; with no display that passes,
// the rules yield.
func TestNestedFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tested, fell, none := 0, 0, 0
	nestedTrials(t, rng, 500, randomInput, 11, func(trial int, d *runs.Program, p *runs.Input, order []int32) {
		n, pr := p.Tree.N(), runs.Default()
		full, ok := d.Nested(p, pr, order, n, nil)
		if !ok || p.Rules.Yielded() || len(full) < 2 {
			return
		}
		full = slices.Clone(full)
		m := len(full) - 1 - rng.IntN(len(full)-1)
		kept, ok := d.Nested(p, pr, order, n, func(k []int) bool { return len(k) <= m })
		if !ok {
			if !p.Rules.Yielded() {
				t.Fatalf("trial %d: no display under fits, and the rules do not yield", trial)
			}
			none++
			return
		}
		if len(kept) > m {
			t.Fatalf("trial %d: under fits (at most %d tokens) %v", trial, m, kept)
		}
		if d.NestedFell() {
			fell++
		} else {
			for _, v := range kept {
				if !slices.Contains(full, v) {
					t.Fatalf("trial %d: under fits %v holds %d, outside the display %v", trial, kept, v, full)
				}
			}
		}
		for _, q := range p.Query {
			if !slices.Contains(kept, q) {
				t.Fatalf("trial %d: under fits %v drops the query token %d", trial, kept, q)
			}
		}
		tested++
	})
	if tested == fell || fell+none == 0 {
		t.Fatalf("%d problems with a display under fits (%d of them the snippet decoding's), %d with none: want states of the sequence, and some of the others", tested, fell, none)
	}
	t.Logf("%d problems with a display under fits (%d of them the snippet decoding's), %d with none", tested, fell, none)
}

// randomOrder returns the token ids 1..n in a random order, a reference order for the
// nested display.
func randomOrder(rng *rand.Rand, n int) []int32 {
	order := make([]int32, 0, n)
	for _, v := range rng.Perm(n) {
		order = append(order, int32(v+1))
	}
	return order
}

// nestedTrials calls check on count random problems drawn by draw (1 to maxN tokens) from
// rng, each with a random reference order of its tokens (drawn after it) and one Program
// shared by the calls: the setup of the tests that walk the nested display over random
// problems. Check may draw from rng too; the draws stay in one seeded sequence.
func nestedTrials(t *testing.T, rng *rand.Rand, count int, draw func(testing.TB, *rand.Rand, int) *runs.Input, maxN int, check func(trial int, d *runs.Program, p *runs.Input, order []int32)) {
	t.Helper()
	var d runs.Program
	for trial := range count {
		p := draw(t, rng, maxN)
		check(trial, &d, p, randomOrder(rng, p.Tree.N()))
	}
}

// mustAllow fails t when kept is not a display that the objective's definition allows
// for p under pr (Objective, after the last call of d on p).
func mustAllow(t *testing.T, trial int, d *runs.Program, p *runs.Input, pr runs.Params, kept []int) {
	t.Helper()
	in := make([]bool, p.Tree.N()+1)
	for _, v := range kept {
		in[v] = true
	}
	if _, allowed := d.Objective(p, pr, in); !allowed {
		t.Fatalf("trial %d, b = %d: %v is not an allowed display", trial, p.Budget, kept)
	}
}

// mustNest fails t when kept, the display at budget b, drops a token of prev, the display
// at b − 1.
func mustNest(t *testing.T, trial, b int, prev, kept []int) {
	t.Helper()
	for _, v := range prev {
		if !slices.Contains(kept, v) {
			t.Fatalf("trial %d: b = %d keeps %v, b − 1 kept %v", trial, b, kept, prev)
		}
	}
}
