package va_test

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/va"
)

// fuzzTree decodes a tree of up to 96 tokens from data, three bytes per token (sort key,
// attachment choice, length): the tokens are attached in the order of their keys, each to
// the root or to a token attached before it, so every tree over n tokens can come out.
func fuzzTree(data []byte) (heads, lens []int) {
	n := min(len(data)/3, 96)
	heads, lens = make([]int, n), make([]int, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
		lens[i] = int(data[3*i+2] % 16)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(data[3*a], data[3*b]) })
	for k, v := range order {
		if c := int(data[3*v+1]) % (k + 1); c < k {
			heads[v] = order[c] + 1
		}
	}
	return heads, lens
}

// wantErr returns the error Run must return for a query and budget, or nil.
func wantErr(n int, lens, q []int, b int) error {
	for i, v := range q {
		if v < 1 || v > n {
			return va.ErrNotInSentence
		}
		if slices.Contains(q[:i], v) {
			return va.ErrDuplicate
		}
	}
	if b <= 0 {
		return va.ErrBadBudget
	}
	if setLen(lens, q) > b {
		return va.ErrBudgetTooSmall
	}
	return nil
}

// FuzzRun checks on arbitrary trees, lengths, queries (possibly out of range or repeated)
// and budgets that Run either returns the right typed error or a C that contains Q, fits
// b, is ascending and matches the reference; and that the oracle rebuilds that C from
// b = ℓ(C). Seeds are in testdata/fuzz/FuzzRun.
func FuzzRun(f *testing.F) {
	f.Fuzz(func(t *testing.T, tree, query []byte, budget int, seed uint64) {
		heads, lens := fuzzTree(tree)
		q := make([]int, min(len(query), 8))
		for i := range q {
			q[i] = int(int8(query[i]))
		}
		p := va.Problem{Tree: mustTree(t, heads), Lens: lens, Query: q, Budget: budget}
		d := coin{Seed: seed, Num: min(16, seed>>59)}
		var c va.Compressor
		if want := wantErr(len(heads), lens, q, budget); want != nil {
			got, err := c.Run(p, d)
			var ve *va.VertexError
			var be *va.BudgetError
			if got != nil || !errors.Is(err, want) || !errors.As(err, &ve) && !errors.As(err, &be) {
				t.Fatalf("Run = %v, %v (%T); want a typed error wrapping %v", got, err, err, want)
			}
			return
		}
		kept := slices.Clone(verify(t, &c, heads, p, d))
		if setLen(lens, kept) > 0 {
			checkOracle(t, &c, rand.New(rand.NewPCG(seed, 1)), heads, p, lens, kept)
		}
	})
}
