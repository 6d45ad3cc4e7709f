package va_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// TestOracleHandBuilt checks the labelled decisions on the tree of TestCandidateOrder
// with C_g = {1, 2, 5}, Q = {5} and b = ℓ(C_g) = 6: 4 is rejected, 7 would not fit, and
// the path ends when C = C_g.
func TestOracleHandBuilt(t *testing.T) {
	heads := []int{2, 0, 4, 2, 4, 7, 5}
	p := va.Problem{Sentence: sentence("a bb ccc dddd e ff ggggggg", heads), Tree: mustTree(t, heads), Query: []int{5}, Budget: 6}
	var c va.Compressor
	c.Trace = true
	var calls []string
	got, err := c.Oracle(p, []int{5, 2, 1}, nil, func(s *va.State, v int, y, skipped bool) {
		calls = append(calls, fmt.Sprintf("%d:%v:%v:%d", v, y, skipped, s.Len()))
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "4:false:false:1 7:false:true:1 1:true:false:1 2:true:false:3"; strings.Join(calls, " ") != want {
		t.Errorf("callbacks = %q, want %q", strings.Join(calls, " "), want)
	}
	if s := steps(c.Steps()); s != "4:reject 7:skip 1:accept 2:accept" {
		t.Errorf("steps = %q", s)
	}
	if !slices.Equal(got, []int{1, 2, 5}) {
		t.Errorf("C = %v, want [1 2 5]", got)
	}

	f := func(*va.State, int, bool, bool) {}
	if allocs := testing.AllocsPerRun(100, func() { c.Oracle(p, []int{5, 2, 1}, nil, f) }); allocs != 0 {
		t.Errorf("Oracle: %v allocations per run", allocs)
	}
}

// TestOracleErrors checks the gold-set errors of Oracle and Gold.Reset.
func TestOracleErrors(t *testing.T) {
	heads := []int{2, 0, 2}
	p := va.Problem{Tree: mustTree(t, heads), Lens: []int{1, 1, 1}, Query: []int{2}, Budget: 5}
	var c va.Compressor
	for _, tt := range []struct {
		gold []int
		want error
	}{
		{[]int{1, 3}, va.ErrNotInGold},
		{[]int{2, 4}, va.ErrNotInSentence},
		{[]int{2, 0}, va.ErrNotInSentence},
		{[]int{2, 1, 2}, va.ErrDuplicate},
	} {
		_, err := c.Oracle(p, tt.gold, nil, nil)
		var ve *va.VertexError
		if !errors.Is(err, tt.want) || !errors.As(err, &ve) {
			t.Errorf("gold %v: err = %v, want a *VertexError wrapping %v", tt.gold, err, tt.want)
		}
	}
	if _, err := c.Oracle(va.Problem{Tree: p.Tree, Lens: p.Lens, Budget: 0}, nil, nil, nil); !errors.Is(err, va.ErrBadBudget) {
		t.Errorf("zero budget: err = %v", err)
	}
	var g va.Gold
	if err := g.Reset(-1, nil); !errors.Is(err, va.ErrInvalidInput) {
		t.Errorf("Gold.Reset(-1): err = %v", err)
	}
	if err := g.Reset(3, []int{1, 3}); err != nil || !g.Contains(3) || g.Contains(2) || g.Contains(4) || g.Contains(-1) {
		t.Errorf("Gold.Reset: %v, Contains wrong", err)
	}
}

// checkOracle follows the oracle for gold ⊇ p.Query with b = ℓ(gold) and checks that it
// rebuilds gold exactly, that the callbacks see the right labels and states, that Gold as a
// Decider takes the same path, and that a smaller budget yields a gold subset that fits.
func checkOracle(t *testing.T, c *va.Compressor, rng *rand.Rand, heads []int, p va.Problem, lens, gold []int) {
	t.Helper()
	p.Budget = setLen(lens, gold)
	isGold := func(v int) bool { return slices.Contains(gold, v) }
	ck := &checker{t: t, lens: lens, b: p.Budget, q: p.Query}
	var calls []int
	c.Trace = true
	got, err := c.Oracle(p, gold, ck, func(s *va.State, v int, y, skipped bool) {
		ck.check(s, "oracle")
		if y != isGold(v) {
			t.Fatalf("candidate %d: y = %v", v, y)
		}
		if want := s.Len()+s.TokenLen(v)+min(1, s.Size()) > s.Budget(); skipped != want {
			t.Fatalf("candidate %d: skipped = %v, want %v", v, skipped, want)
		}
		if y && skipped {
			t.Fatalf("gold candidate %d skipped with b = ℓ(gold)", v)
		}
		calls = append(calls, v)
	})
	if err != nil {
		t.Fatalf("Oracle: %v", err)
	}
	if !slices.Equal(got, gold) {
		t.Fatalf("heads %v Q %v: oracle rebuilt %v, gold %v", heads, p.Query, got, gold)
	}
	path := slices.Clone(c.Steps())
	var accepted []int
	for i, s := range path {
		if calls[i] != s.V || (s.Outcome == va.Accepted) != isGold(s.V) || s.P != map[bool]float64{true: 1}[isGold(s.V)] {
			t.Fatalf("step %d = %+v, callback %d", i, s, calls[i])
		}
		if s.Outcome == va.Accepted {
			accepted = append(accepted, s.V)
		}
	}
	if ck.started != 1 || !slices.Equal(ck.added, accepted) || len(calls) != len(path) {
		t.Fatalf("Tracker: %d starts, added %v, accepted %v", ck.started, ck.added, accepted)
	}

	var g va.Gold
	if err := g.Reset(len(heads), gold); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Run(p, &g); err != nil || !slices.Equal(got, gold) || !slices.Equal(c.Steps(), path) {
		t.Fatalf("Run with Gold: %v, %v; steps %v, oracle steps %v", got, err, c.Steps(), path)
	}

	if lq := max(1, setLen(lens, p.Query)); lq < p.Budget {
		p.Budget = lq + rng.IntN(p.Budget-lq)
		got, err := c.Oracle(p, gold, nil, nil)
		_, want := refRun(heads, lens, p.Query, p.Budget, isGold)
		if err != nil || !slices.Equal(got, want) || setLen(lens, got) > p.Budget {
			t.Fatalf("b = %d < ℓ(gold): %v, %v; want %v", p.Budget, got, err, want)
		}
	}
}

// checkCorpus runs Run (against the reference) and the oracle on every sentence of a
// CoNLL-U file, draws times each, with random Q, b, deciders and gold sets Q ⊆ C_g.
func checkCorpus(t *testing.T, path string, draws int) {
	css, err := conllu.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var c va.Compressor
	for _, cs := range css {
		s := syntax.FromCoNLLU(cs)
		heads := s.Heads()
		tree := mustTree(t, heads)
		n := s.Len()
		lens := make([]int, n)
		for i, tok := range s.Tokens {
			lens[i] = len([]rune(tok.Form))
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i + 1
		}
		for range draws {
			q := rng.Perm(n)[:rng.IntN(min(n, 3)+1)]
			for i := range q {
				q[i]++
			}
			p := va.Problem{Sentence: s, Tree: tree, Query: q}
			p.Budget = max(1, setLen(lens, q)) + rng.IntN(setLen(lens, all)+1)
			verify(t, &c, heads, p, coin{Seed: rng.Uint64(), Num: uint64(rng.IntN(17))})

			density := rng.Float64()
			gold := slices.DeleteFunc(slices.Clone(all), func(v int) bool {
				return !slices.Contains(q, v) && rng.Float64() >= density
			})
			if setLen(lens, gold) > 0 {
				checkOracle(t, &c, rng, heads, p, lens, gold)
			}
		}
	}
	t.Logf("%d sentences × %d draws", len(css), draws)
}

// TestTinyCorpus runs the corpus checks on the hand-made UD sentences in testdata.
func TestTinyCorpus(t *testing.T) { checkCorpus(t, "testdata/tiny.conllu", 500) }

// TestEWTDev runs the corpus checks on UD English-EWT dev (skipped without shared data).
func TestEWTDev(t *testing.T) {
	draws := 3
	if testing.Short() {
		draws = 1
	}
	checkCorpus(t, shared.Require(t, shared.EWTDev), draws)
}
