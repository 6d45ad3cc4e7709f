package va_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/qsc-nlp/qsc/va"
	"github.com/qsc-nlp/qsc/wellformed"
)

// BenchmarkRun measures Run on random trees of growing length with a coin-flip Decider
// (accept with probability 1/2, by a seeded hash), 1–3 query tokens and b = 40% of ℓ(S)
// (about the compression ratio of the Google data). ns/token must stay flat and
// allocs/op must be 0. The problems cycled through hold 4096 tokens in all for every
// length, so that the cache working set (and what the branch predictor can learn) is the
// same at every length; it fits in L2, which isolates the engine from memory latency.
func BenchmarkRun(b *testing.B) {
	for _, n := range []int{10, 25, 50, 100, 200, 400} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(n), 9))
			m := 4096 / n
			problems := make([]va.Problem, m)
			deciders := make([]va.Decider, m)
			var c va.Compressor
			for i := range problems {
				heads := randomHeads(rng, n)
				lens := make([]int, n)
				for j := range lens {
					lens[j] = 1 + rng.IntN(10)
				}
				q := rng.Perm(n)[:1+rng.IntN(3)]
				for j := range q {
					q[j]++
				}
				total := 0
				for _, l := range lens {
					total += l + 1
				}
				problems[i] = va.Problem{Tree: mustTree(b, heads), Lens: lens, Query: q, Budget: max(setLen(lens, q), total*4/10)}
				deciders[i] = coin{Seed: rng.Uint64(), Num: 8}
				if _, err := c.Run(problems[i], deciders[i]); err != nil { // also warms up c
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			tokens := 0
			for i := 0; b.Loop(); i++ {
				c.Run(problems[i%m], deciders[i%m])
				tokens += n
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(tokens), "ns/token")
		})
	}
}

// BenchmarkNested measures Nested (with the Snippet run that orders the tokens) on random
// ruled sentences of up to 40 tokens, 1–3 query tokens and a budget halfway between ℓ(Q)
// and ℓ(S), with a coin-flip Decider; the rules of each problem are computed once, out of
// the timing. allocs/op must be 0.
func BenchmarkNested(b *testing.B) {
	rng := rand.New(rand.NewPCG(31, 32))
	const m = 256
	problems := make([]va.Problem, 0, m)
	rules := make([]wellformed.Rules, m)
	deciders := make([]va.Decider, 0, m)
	var c va.Compressor
	for len(problems) < m {
		s, tree, lens, total, q, lq := ruledInstance(b, rng, 40)
		bud := (total + lq) / 2
		if bud < lq || bud >= total {
			continue // the whole sentence fits, or no budget between
		}
		i := len(problems)
		if err := rules[i].Reset(s, tree, lens, q, bud); err != nil {
			b.Fatal(err)
		}
		problems = append(problems, va.Problem{Sentence: s, Tree: tree, Query: q, Budget: bud})
		deciders = append(deciders, coin{Seed: rng.Uint64(), Num: 5})
		if _, err := c.Nested(problems[i], &rules[i], deciders[i]); err != nil { // also warms up c
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.Nested(problems[i%m], &rules[i%m], deciders[i%m])
	}
}
