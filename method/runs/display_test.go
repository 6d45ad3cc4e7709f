package runs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	_ "github.com/qsc-nlp/qsc/method/ablated"
	_ "github.com/qsc-nlp/qsc/method/baseline" // random
	_ "github.com/qsc-nlp/qsc/method/ilp"
	_ "github.com/qsc-nlp/qsc/method/lr" // lr, ablated
	_ "github.com/qsc-nlp/qsc/method/nn"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TestSnippetDisplayRules checks the promise of the snippet and nested decodings, for
// every method that honours them (the ILP and the VERTEX ADDITION methods, whose
// compressions the same display step shows), on 600 random parsed sentences (300 with nouns, verbs,
// determiners, adjectives and prepositions, 300 with flat chains, negations, commas and
// case markers), each at budgets from the query's length to beyond the sentence's:
// unless the rules yielded to the query, no output shows a one-word island, a cut right
// after a function word or a name kept in part (wellformed.Chopper, which reads the
// relations alone), every output holds the query and fits the budget, and under the
// nested decoding a larger budget keeps what a smaller one kept.
func TestSnippetDisplayRules(t *testing.T) {
	ins := inputs(t)
	for _, name := range []string{"ilp", method.NameLR, method.NameAblated, "nn", "random"} {
		t.Run(name, func(t *testing.T) {
			m, err := method.Open(name, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, dec := range []method.Decoding{method.Snippet, method.Nested} {
				t.Run(dec.String(), func(t *testing.T) { checkDisplay(t, m, dec, ins) })
			}
		})
	}
}

// checkDisplay checks the outputs of m under the decoding dec on ins (see
// TestSnippetDisplayRules); under Nested, that a larger budget keeps what a smaller one
// kept, when the rules yield at neither.
func checkDisplay(t *testing.T, m method.Method, dec method.Decoding, ins []method.Input) {
	t.Helper()
	c := method.Compressor{Decoding: dec}
	var ck wellformed.Chopper
	var total wellformed.Choppiness
	checked, yielded := 0, 0
	for _, in := range ins {
		forms := in.Sentence.Forms()
		full := len(forms) - 1
		for _, f := range forms {
			full += len([]rune(f))
		}
		var prev []int // the last output, under Nested
		for _, frac := range []float64{0.3, 0.45, 0.6, 0.8, 1.1} {
			in.Budget = max(1, int(frac*float64(full)))
			kept, err := c.Compress(m, in)
			if err != nil {
				continue // a budget below the query's length
			}
			if c.Yielded() {
				yielded++
				prev = nil
				continue
			}
			checked++
			if dec == method.Nested {
				for _, v := range prev {
					if !slices.Contains(kept, v) {
						t.Errorf("%q, Q %v, b %d: kept %v drops %d, which a smaller budget kept (%v)", forms, in.Query, in.Budget, kept, v, prev)
						break
					}
				}
				prev = append(prev[:0], kept...)
			}
			ch := ck.Chop(in.Sentence, in.Tree, kept, in.Query)
			total.Add(ch)
			if ch.Islands+ch.AfterFunction+ch.NamesCut > 0 {
				t.Errorf("%q, Q %v, b %d: kept %v shows %+v", forms, in.Query, in.Budget, kept, ch)
			}
			n, hasQ := -1, map[int]bool{}
			for _, v := range kept {
				n += len([]rune(forms[v-1])) + 1
				hasQ[v] = true
			}
			if n > in.Budget {
				t.Errorf("%q, b %d: ℓ(C) = %d", forms, in.Budget, n)
			}
			for _, q := range in.Query {
				if !hasQ[q] {
					t.Errorf("%q, b %d: query token %d dropped", forms, in.Budget, q)
				}
			}
		}
	}
	if checked < 2000 {
		t.Fatalf("only %d outputs checked (%d yielded)", checked, yielded)
	}
	t.Logf("%d outputs checked, %d yielded; %.2f inner gaps per snippet", checked, yielded, float64(total.Gaps)/float64(total.Snippets))
}

// inputs returns the random problems of TestSnippetDisplayRules.
func inputs(t *testing.T) []method.Input {
	ins := synth.Inputs(11, 300)
	rng := rand.New(rand.NewPCG(12, 13))
	for len(ins) < 600 {
		n := 3 + rng.IntN(25)
		s := synth.RuledSentence(rng, synth.Heads(rng, n))
		tree, err := method.TreeOf(s)
		if err != nil {
			t.Fatal(err)
		}
		q := 1 + rng.IntN(n)
		if f := s.Tokens[q-1].Form; f == "," || f == "not" {
			continue
		}
		ins = append(ins, method.Input{Sentence: s, Tree: tree, Query: []int{q}})
	}
	return ins
}

// TestSnippetAllocs checks that the Snippet and Nested decodings of the ILP and of a
// VERTEX ADDITION method, their display step included, allocate nothing once the
// Compressor's memory has grown, with the budget counted as tokens and as displayed
// (Input.Fits set), on every third problem of inputs at budgets of 30%, 60% and 90% of
// ℓ(S) (those below the query's length, which fail, left out). Among them are queries
// whose closure under the rules, but not the query alone, is longer than the share of
// the sentence from which VERTEX ADDITION's Nested decoding orders the tokens
// (va.NestedOrderBudget). The first pass of each case, which AllocsPerRun does not count,
// grows the memory; no call site needs more warming, since the Compressor asserts no type
// of a method it has met (a type assertion's call site allocates now and then while the
// runtime fills its cache).
func TestSnippetAllocs(t *testing.T) {
	var ins []method.Input
	for i, in := range inputs(t) {
		if i%3 != 0 {
			continue
		}
		s := in.Sentence
		all := make([]int, s.Len())
		for v := range all {
			all[v] = v + 1
		}
		for _, frac := range []float64{0.3, 0.6, 0.9} {
			in.Budget = max(1, int(frac*float64(s.Length(all))))
			ins = append(ins, in)
		}
	}
	fits := func([]int) bool { return true }
	for _, name := range []string{"ilp", method.NameLR} {
		m, err := method.Open(name, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, dec := range []method.Decoding{method.Snippet, method.Nested} {
			c := method.Compressor{Decoding: dec}
			var ok []method.Input
			for _, in := range ins {
				if _, err := c.Compress(m, in); err == nil {
					ok = append(ok, in)
				}
			}
			if len(ok) < len(ins)/2 {
				t.Fatalf("%s, %v: only %d of %d problems compress", name, dec, len(ok), len(ins))
			}
			for _, display := range []bool{false, true} {
				run := func() {
					for _, in := range ok {
						if display {
							in.Fits = fits
						}
						if _, err := c.Compress(m, in); err != nil {
							t.Fatal(err)
						}
					}
				}
				if a := testing.AllocsPerRun(3, run); a != 0 { // after a warm pass
					t.Errorf("%s, %v, display %v: %.0f allocations per pass, want 0", name, dec, display, a)
				}
			}
		}
	}
}

// TestOneCompressorManyMethods checks that a Compressor that compresses with one method
// after another, as each worker of the engine does, gives every method's compressions,
// errors, yields and steps as a Compressor of its own does, under every decoding: the
// Compressor resolves what a method is once for each method it meets, and two methods of
// one type (ilp and ilp-unconstrained, of which only the first honours the rules) or of a
// type of size zero (window, oracle) must not pass for one another.
func TestOneCompressorManyMethods(t *testing.T) {
	var ms []method.Method
	for _, name := range []string{"ilp", "ilp-unconstrained", method.NameLR, "random", "window", "oracle", method.NameAblated} {
		m, err := method.Open(name, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	ms = append(ms, nil) // an error, between two methods
	var ins []method.Input
	for _, in := range synth.Inputs(21, 60) {
		ins = append(ins, in)
		in.Budget *= 2
		ins = append(ins, in)
	}
	for _, dec := range []method.Decoding{method.Paper, method.Snippet, method.Nested} {
		shared := method.Compressor{Decoding: dec}
		shared.VA.Trace = true
		own := make([]method.Compressor, len(ms))
		for i := range own {
			own[i].Decoding, own[i].VA.Trace = dec, true
		}
		compared, steps := 0, 0
		for k, in := range ins {
			for i, m := range ms {
				want, werr := own[i].Compress(m, in)
				got, gerr := shared.Compress(m, in)
				if fmt.Sprint(gerr) != fmt.Sprint(werr) || !slices.Equal(got, want) ||
					shared.Yielded() != own[i].Yielded() || !slices.Equal(shared.Steps(), own[i].Steps()) {
					t.Fatalf("%v, input %d, method %d: shared Compressor %v, %v (yielded %v, %d steps); own %v, %v (yielded %v, %d steps)",
						dec, k, i, got, gerr, shared.Yielded(), len(shared.Steps()), want, werr, own[i].Yielded(), len(own[i].Steps()))
				}
				if werr == nil {
					compared++
				}
				if _, solver := m.(method.Solver); solver && shared.Steps() != nil {
					t.Fatalf("%v, input %d: the Solver %s has %d steps", dec, k, m.Name(), len(shared.Steps()))
				}
				steps += len(shared.Steps())
			}
		}
		if compared < len(ins)*(len(ms)-1)/2 || steps == 0 {
			t.Fatalf("%v: only %d compressions compared, %d steps", dec, compared, steps)
		}
	}
}
