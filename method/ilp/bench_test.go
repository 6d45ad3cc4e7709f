package ilp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/syntax"
)

// BenchmarkOptimize solves the same random problems (20 to 59 tokens, budget 40% of the
// sentence length, as the Google test tuples' compression ratio) with every backend of
// the build, so that their times compare within one run:
// go test -tags glpk -run XXX -bench Optimize ./ilp
func BenchmarkOptimize(b *testing.B) {
	ps := benchProblems(b, rand.New(rand.NewPCG(21, 22)), nil)
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

// BenchmarkRules solves the same random problems under well-formedness rules, exactly
// (the Snippet decoding's TreeDP) and by nested decoding, so that the two compare within
// one run: go test -run XXX -bench Rules ./method/ilp
func BenchmarkRules(b *testing.B) {
	ps := benchProblems(b, rand.New(rand.NewPCG(23, 24)), func(rng *rand.Rand, p *Problem) {
		p.QueryViaRoot = false
		p.Rules = randomRules(b, rng, p)
	})
	for _, nested := range []bool{false, true} {
		name := "exact"
		if nested {
			name = "nested"
		}
		b.Run(name, func(b *testing.B) {
			var d TreeDP
			var sol Solution
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := ps[i%len(ps)]
				p.Nested = nested
				if err := d.Optimize(p, &sol); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// benchProblems draws 500 random problems of 20 to 59 tokens with the budget 40% of the
// sentence's length (as the Google test tuples' compression ratio), and passes each to
// set, when not nil, after its budget.
func benchProblems(b *testing.B, rng *rand.Rand, set func(*rand.Rand, *Problem)) []*Problem {
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
		if set != nil {
			set(rng, p)
		}
	}
	return ps
}

// BenchmarkSnippetDecoding times the snippet decoding's two programs on the same random
// problems under rules (benchProblems, with random relations and forms): the tree
// program's optimum C* (OptimizeFit, trimmed by the rules), and the run program's best
// display of it (method.DisplayStep.Show, the budget in tokens and in the display): go test -run XXX -bench SnippetDecoding
// ./method/ilp
func BenchmarkSnippetDecoding(b *testing.B) {
	rng := rand.New(rand.NewPCG(25, 26))
	sentences := map[*Problem]*syntax.Sentence{}
	ps := benchProblems(b, rng, func(rng *rand.Rand, p *Problem) {
		p.QueryViaRoot = false
		sentences[p], p.Rules = randomRuled(b, rng, p)
	})
	var d TreeDP
	var sol Solution
	opts := make([][]int, len(ps))
	for i, p := range ps {
		kept, _, err := d.OptimizeFit(p, &sol, func(k []int) []int { return p.Rules.Trim(sentences[p], k) }, nil)
		if err != nil {
			b.Fatal(err)
		}
		opts[i] = slices.Clone(kept)
	}
	b.Run("tree", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, _, err := d.OptimizeFit(ps[i%len(ps)], &sol, nil, nil); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	// runs: the budget counts the tokens (clean cuts); runs-display: it counts the display,
	// as the ellipsis rendering shows it (Input.Fits set; the run program reads the
	// display's width model, not Fits itself).
	for _, mode := range []string{"runs", "runs-display"} {
		b.Run(mode, func(b *testing.B) {
			var disp method.DisplayStep
			pr := runs.Default()
			ins := make([]method.Input, len(ps))
			for i, p := range ps {
				ins[i] = method.Input{Sentence: sentences[p], Tree: p.Tree, Query: p.Query, Budget: p.Budget, Rules: p.Rules}
				if mode == "runs-display" {
					ins[i].Fits = func([]int) bool { return true }
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := i % len(ps)
				disp.Show(&ins[k], ps[k].Lens, pr, opts[k])
				i++
			}
		})
	}
}
