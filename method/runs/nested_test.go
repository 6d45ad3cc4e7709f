package runs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TestNestedBruteForce checks the nested display on 2,000 random problems, each at every
// budget from the query's length to beyond the sentence's, with a random reference order
// and weights: unless the rules yield to the query, the display is allowed (every run
// allowed by the display rules, Q kept, the width within the budget, read from the
// objective's definition), and a larger budget keeps what a smaller one kept when both
// are states of the sequence; and a display exists whenever a budget below it had one.
func TestNestedBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var d runs.Program
	checked, pairs := 0, 0
	for trial := 0; trial < 2000; trial++ {
		p := randomInput(t, rng, 11)
		n := p.Tree.N()
		pr := runs.Params{Keep: 1, Gap: float64(rng.IntN(20)), Fill: rng.Float64(), Carrier: float64(rng.IntN(7)), Dangle: float64(rng.IntN(9)), Short: float64(rng.IntN(7)), Edge: float64(rng.IntN(7)), Display: rng.IntN(2) == 0}
		order := randomOrder(rng, n)
		wanted := rng.IntN(n + 1)
		total, lq := -1, -1
		for _, l := range p.Lens {
			total += l + 1
		}
		for _, q := range p.Query {
			lq += p.Lens[q-1] + 1
		}
		var prev []int
		had := false // a smaller budget had a display
		for b := max(lq, 1); b <= total+3*n+4; b++ {
			p.Budget = b
			p.Rules = new(wellformed.Rules)
			if err := p.Rules.Reset(p.Sentence, p.Tree, p.Lens, p.Query, b); err != nil {
				t.Fatal(err)
			}
			kept, ok := d.Nested(p, pr, order, wanted, nil)
			if !ok || p.Rules.Yielded() {
				if had && !p.Rules.Yielded() {
					t.Fatalf("trial %d: no display at b = %d, one at a smaller budget (%v)", trial, b, prev)
				}
				prev, had = nil, false
				continue
			}
			in := make([]bool, n+1)
			for _, v := range kept {
				in[v] = true
			}
			if _, allowed := d.Objective(p, pr, in); !allowed {
				t.Fatalf("trial %d, b = %d: %v is not an allowed display", trial, b, kept)
			}
			checked++
			if d.NestedFell() {
				prev, had = nil, true // the snippet decoding's display: not a state to nest
				continue
			}
			if had && prev != nil {
				pairs++
				for _, v := range prev {
					if !slices.Contains(kept, v) {
						t.Fatalf("trial %d: b = %d keeps %v, b − 1 kept %v", trial, b, kept, prev)
					}
				}
			}
			prev, had = slices.Clone(kept), true
		}
	}
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
	var d runs.Program
	tested, fell, none := 0, 0, 0
	for trial := 0; trial < 500; trial++ {
		p := randomInput(t, rng, 11)
		n := p.Tree.N()
		order := randomOrder(rng, n)
		pr := runs.Default()
		full, ok := d.Nested(p, pr, order, n, nil)
		if !ok || p.Rules.Yielded() || len(full) < 2 {
			continue
		}
		full = slices.Clone(full)
		m := len(full) - 1 - rng.IntN(len(full)-1)
		kept, ok := d.Nested(p, pr, order, n, func(k []int) bool { return len(k) <= m })
		if !ok {
			if !p.Rules.Yielded() {
				t.Fatalf("trial %d: no display under fits, and the rules do not yield", trial)
			}
			none++
			continue
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
	}
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
