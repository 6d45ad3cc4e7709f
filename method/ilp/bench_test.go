package ilp

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkOptimize solves the same random problems (20 to 59 tokens, budget 40% of the
// sentence length, as the Google test tuples' compression ratio) with every backend of
// the build, so that their times compare within one run:
// go test -tags glpk -run XXX -bench Optimize ./ilp
func BenchmarkOptimize(b *testing.B) {
	rng := rand.New(rand.NewPCG(21, 22))
	ps := make([]*Problem, 500)
	for i := range ps {
		for ps[i] == nil || ps[i].N() < 20 {
			ps[i] = randomProblem(b, rng, 59)
		}
		p := ps[i]
		total, lq := -1, -1
		for _, l := range p.Lens {
			total += l + 1
		}
		for _, q := range p.Query {
			lq += p.Lens[q-1] + 1
		}
		p.Budget = max(lq, total*2/5, 1)
	}
	for _, name := range Backends() {
		b.Run(name, func(b *testing.B) {
			opt, err := NewOptimizer(name)
			if err != nil {
				b.Fatal(err)
			}
			var sol Solution
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := opt.Optimize(ps[i%len(ps)], &sol); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
