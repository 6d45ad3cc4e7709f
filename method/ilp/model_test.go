package ilp

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/va"
	"github.com/qsc-nlp/qsc/wellformed"
)

// trained returns a model trained on synthetic inputs, and its validation inputs.
func trained(t *testing.T) (*Model, *TrainResult, []method.Input) {
	t.Helper()
	train, valid := synth.Inputs(1, 1500), synth.Inputs(2, 300)
	res, err := Train(train, valid, TrainConfig{Epochs: 3, Seed: 1, Bits: 18, Score: evaluate.Scorer(2)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Model, res, valid
}

func TestTrain(t *testing.T) {
	m, res, valid := trained(t)
	if len(res.Epochs) != 3 || res.Model.Info.Epochs != res.Epochs[res.Best].Epoch {
		t.Fatalf("epochs %+v, best %d, model epochs %d", res.Epochs, res.Best, res.Model.Info.Epochs)
	}
	for _, e := range res.Epochs {
		t.Logf("epoch %d: %d mistakes, validation F1 %.4f (unconstrained %.4f)", e.Epoch, e.Mistakes, e.F1, e.FreeF1)
		if e.F1 < res.Epochs[res.Best].F1 {
			continue
		}
		if e.F1 > res.Epochs[res.Best].F1 {
			t.Errorf("epoch %d has a better F1 than the chosen one", e.Epoch)
		}
	}
	// The synthetic gold keeps nouns and verbs with 10% noise: the perceptron learns it.
	ev, err := evaluate.Evaluate(m, valid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ev.F1 < 0.85 || ev.F1 != res.Epochs[res.Best].F1 {
		t.Errorf("validation F1 %.4f (chosen epoch: %.4f), want ≥ 0.85", ev.F1, res.Epochs[res.Best].F1)
	}
	if res.Epochs[0].Mistakes == 0 || res.Epochs[2].Mistakes >= res.Epochs[0].Mistakes {
		t.Errorf("mistakes per epoch %d, %d, %d: want fewer as training goes on", res.Epochs[0].Mistakes, res.Epochs[1].Mistakes, res.Epochs[2].Mistakes)
	}
	// Determinism: the same inputs give the same bytes.
	m2, _, _ := trained(t)
	a, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b, err := m2.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two trainings gave different model files")
	}
}

func TestModelFile(t *testing.T) {
	m, _, valid := trained(t)
	data, l := roundTrip(t, m)
	again, _ := l.MarshalBinary()
	if !bytes.Equal(data, again) || l.Info != m.Info || l.Name() != Name || l.Backend() != DP {
		t.Fatalf("round trip differs: info %+v vs %+v", l.Info, m.Info)
	}
	sameCompressions(t, m, l, valid[:50])
	// Damaged files are refused with an error.
	for i, bad := range [][]byte{nil, data[:len(data)/2], append(slices.Clone(data[:len(data)-1]), data[len(data)-1]^1)} {
		if _, err := Load(bad); err == nil {
			t.Errorf("damaged file %d loaded", i)
		}
	}
}

func TestSolve(t *testing.T) {
	m, _, valid := trained(t)
	free, root := m.Unconstrained(), m.RootQuery()
	if free.Name() != NameUnconstrained || m.Name() != Name || root.Name() != NameRootQuery {
		t.Fatalf("names %q, %q, %q", m.Name(), free.Name(), root.Name())
	}
	rng := rand.New(rand.NewPCG(9, 9))
	var c method.Compressor
	for _, in := range valid {
		// A random budget from ℓ(Q) to ℓ(S): Q ⊆ C and ℓ(C) ≤ b, C ascending.
		forms := in.Sentence.Forms()
		lq, _ := metrics.CharLen(forms, in.Query)
		all := len(forms) - 1
		for _, f := range forms {
			all += len([]rune(f))
		}
		in.Budget = max(lq, 1) + rng.IntN(all+1)
		for _, mm := range []*Model{m, free, root} {
			kept, err := c.Compress(mm, in)
			if err != nil {
				t.Fatal(err)
			}
			if l, _ := metrics.CharLen(forms, kept); l > in.Budget || !slices.IsSorted(kept) {
				t.Fatalf("%s: kept %v of length %d > budget %d", mm.Name(), kept, l, in.Budget)
			}
			if mm != free {
				for _, q := range in.Query {
					if !slices.Contains(kept, q) {
						t.Fatalf("query token %d not kept: %v", q, kept)
					}
				}
			}
		}
	}
	// Errors wrap the va errors, so that the Engine maps them to 4xx.
	in := valid[0]
	n := in.Tree.N()
	for _, c2 := range []struct {
		q    []int
		b    int
		want error
	}{{[]int{n + 1}, 100, va.ErrNotInSentence}, {[]int{1, 1}, 100, va.ErrDuplicate}, {[]int{1}, 0, va.ErrBadBudget},
		{[]int{1}, 1, va.ErrBudgetTooSmall}} {
		bad := in
		bad.Query, bad.Budget = c2.q, c2.b
		if len([]rune(bad.Sentence.Tokens[0].Form)) <= 1 && c2.want == va.ErrBudgetTooSmall {
			continue
		}
		if _, err := c.Compress(m, bad); !errors.Is(err, c2.want) {
			t.Errorf("query %v budget %d: %v, want %v", c2.q, c2.b, err, c2.want)
		}
	}
	var sc any
	if _, err := m.Solve(method.Input{}, &sc); !errors.Is(err, method.ErrNoSentence) {
		t.Errorf("no sentence: %v", err)
	}
	if _, err := m.WithBackend("simplex"); !errors.Is(err, ErrNoBackend) {
		t.Errorf("unknown backend: %v", err)
	}
	if !slices.Contains(Backends(), DP) {
		t.Errorf("backends %v", Backends())
	}
}

// TestSolveAllocs checks that a compression allocates nothing once the scratch memory has
// grown, under every decoding: the snippet decoding's extension and nested decoding
// included.
func TestSolveAllocs(t *testing.T) {
	m, _, valid := trained(t)
	for _, dec := range []method.Decoding{method.Paper, method.Snippet, method.Nested} {
		c := method.Compressor{Decoding: dec}
		for _, in := range valid {
			if _, err := c.Compress(m, in); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(3, func() {
			for _, in := range valid {
				if _, err := c.Compress(m, in); err != nil {
					t.Fatal(err)
				}
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per pass over %d inputs, want 0", dec, allocs, len(valid))
		}
	}
}

// TestConjoinedModel trains with the conjoined features and a cap on the weights: the file
// records the features, the cap holds, and the loaded model compresses as the trained one.
// A file of version 2 (without the flags byte) still loads, as a model without them.
func TestConjoinedModel(t *testing.T) {
	train, valid := synth.Inputs(1, 1500), synth.Inputs(2, 300)
	full, err := Train(train, valid, TrainConfig{Epochs: 2, Seed: 1, Bits: 18, Conjoined: true, Score: evaluate.Scorer(1)})
	if err != nil {
		t.Fatal(err)
	}
	const keep = 500
	res, err := Train(train, valid, TrainConfig{Epochs: 2, Seed: 1, Bits: 18, Conjoined: true, Keep: keep, Score: evaluate.Scorer(1)})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model
	if !m.Info.Conjoined || full.Model.NonZero() <= keep || m.NonZero() < keep || m.NonZero() > keep+keep/10 {
		t.Fatalf("conjoined %t, non-zero weights %d (%d unpruned), want about %d", m.Info.Conjoined, m.NonZero(), full.Model.NonZero(), keep)
	}
	_, l := roundTrip(t, m)
	if l.Info != m.Info {
		t.Fatalf("round trip: info %+v, want %+v", l.Info, m.Info)
	}
	sameCompressions(t, m, l, valid[:50])

	// Version 2: the same payload without the flags byte.
	plain, _, _ := trained(t)
	data, err := plain.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	payload, _, err := modelfile.Decode(data, Kind, fileVersion, fileVersion)
	if err != nil {
		t.Fatal(err)
	}
	const flagsAt = 2 + 2 + 4 + 8 + 8
	if payload[flagsAt] != 0 {
		t.Fatalf("flags %#x of a model without conjoined features", payload[flagsAt])
	}
	v2, err := modelfile.Encode(Kind, 2, append(slices.Clone(payload[:flagsAt]), payload[flagsAt+1:]...))
	if err != nil {
		t.Fatal(err)
	}
	old, err := Load(v2)
	if err != nil {
		t.Fatal(err)
	}
	if old.Info != plain.Info || old.NonZero() != plain.NonZero() {
		t.Fatalf("version 2: info %+v, %d weights; want %+v, %d", old.Info, old.NonZero(), plain.Info, plain.NonZero())
	}
	// Unknown flags are refused.
	payload[flagsAt] = 4
	bad, _ := modelfile.Encode(Kind, fileVersion, payload)
	if _, err := Load(bad); !errors.Is(err, ErrFormat) {
		t.Fatalf("unknown flags: %v, want ErrFormat", err)
	}
}

// TestQueryModel trains with the query features: the file records them, the loaded
// model compresses as the trained one, the arc scores depend on the query, and a
// compression allocates nothing once the scratch memory has grown.
func TestQueryModel(t *testing.T) {
	train, valid := synth.Inputs(1, 1500), synth.Inputs(2, 300)
	res, err := Train(train, valid, TrainConfig{Epochs: 2, Seed: 1, Bits: 18, Conjoined: true, Query: true, Score: evaluate.Scorer(1)})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model
	if !m.Info.Query || !m.cfg.Query {
		t.Fatalf("info %+v: no query features", m.Info)
	}
	_, l := roundTrip(t, m)
	if l.Info != m.Info {
		t.Fatalf("round trip: info %+v, want %+v", l.Info, m.Info)
	}
	sameCompressions(t, m, l, valid[:50])

	// The same sentence scored for two queries.
	var x features.Sentence
	var p1, p2 Problem
	var sib []uint32
	differ := 0
	for _, in := range valid[:50] {
		if err := x.Reset(in.Sentence, in.Tree, m.vocab); err != nil {
			t.Fatal(err)
		}
		x.SetQuery(in.Query)
		m.problem(&p1, &x, &sib, in, in.Query)
		other := []int{1 + (in.Query[0] % in.Tree.N())}
		x.SetQuery(other)
		m.problem(&p2, &x, &sib, in, other)
		if !slices.Equal(p1.Edge, p2.Edge) || !slices.Equal(p1.Root, p2.Root) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("the arc scores do not depend on the query")
	}

	var c method.Compressor
	allocs := testing.AllocsPerRun(3, func() {
		for _, in := range valid[:100] {
			if _, err := c.Compress(m, in); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pass, want 0", allocs)
	}
}

// sameCompressions checks that the trained model m and the loaded model l compress the
// inputs alike.
func sameCompressions(t *testing.T, m, l *Model, inputs []method.Input) {
	t.Helper()
	var c1, c2 method.Compressor
	for _, in := range inputs {
		a, err1 := c1.Compress(m, in)
		b, err2 := c2.Compress(l, in)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Fatalf("loaded model compresses differently: %v %v / %v %v", a, err1, b, err2)
		}
	}
}

// roundTrip writes m as a model file and loads it back.
func roundTrip(t *testing.T, m *Model) ([]byte, *Model) {
	t.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	return data, l
}

// TestRuleSolver checks the method.RuleSolver contract as the Compressor uses it: under
// the Snippet decoding the result is the display step's best display of Solve's C*
// under the input's rules; the evaluation variants do not honour the rules, so that
// their compression is the result, and NestedOrder refuses them.
func TestRuleSolver(t *testing.T) {
	m, _, valid := trained(t)
	if !m.HonoursRules() || m.Unconstrained().HonoursRules() || m.RootQuery().HonoursRules() {
		t.Fatalf("HonoursRules: %v, unconstrained %v, root query %v", m.HonoursRules(), m.Unconstrained().HonoursRules(), m.RootQuery().HonoursRules())
	}
	c := method.Compressor{Decoding: method.Snippet}
	var (
		disp  method.DisplayStep
		rules wellformed.Rules
		sc    any
	)
	moved := 0
	for i, in := range valid {
		got, err := c.Compress(m, in)
		if err != nil {
			t.Fatal(err)
		}
		lens := in.Sentence.AppendLens(nil)
		if _, whole := va.Whole(nil, lens, in.Budget); whole {
			continue
		}
		if err := rules.Reset(in.Sentence, in.Tree, lens, in.Query, in.Budget); err != nil {
			t.Fatal(err)
		}
		in.Rules = &rules
		opt, err := m.Solve(in, &sc)
		if err != nil {
			t.Fatal(err)
		}
		opt = slices.Clone(opt)
		if want := disp.Show(&in, lens, runs.Default(), opt); !slices.Equal(got, want) {
			t.Fatalf("input %d: Compress %v, the display of C* %v is %v", i, got, opt, want)
		}
		if !slices.Equal(got, opt) {
			moved++
		}
		if _, _, err := m.Unconstrained().NestedOrder(in, &sc); !errors.Is(err, va.ErrInvalidInput) {
			t.Fatalf("input %d: NestedOrder of the unconstrained model: %v, want va.ErrInvalidInput", i, err)
		}
	}
	if moved == 0 {
		t.Error("the display step never changed C*: the test shows nothing")
	}
	t.Logf("%d of %d inputs shown otherwise than C*", moved, len(valid))
}

// TestTrainScorer checks that Train takes its validation scores from TrainConfig.Score
// alone: without it Train refuses, the epoch with the best score it gives is the one
// kept (here the first, which the perceptron's own progress would not choose), each
// epoch is scored on the chosen decoding and unconstrained, and its error is Train's.
func TestTrainScorer(t *testing.T) {
	train, valid := synth.Inputs(1, 300), synth.Inputs(2, 50)
	if _, err := Train(train, valid, TrainConfig{Epochs: 1, Bits: 16}); !errors.Is(err, ErrNoScorer) {
		t.Fatalf("no scorer: err %v, want ErrNoScorer", err)
	}
	var calls, free int
	score := func(m method.Method, dec method.Decoding, in []method.Input) (method.Score, error) {
		calls++
		mm, ok := m.(*Model)
		if !ok || dec != method.Paper || len(in) != len(valid) {
			t.Fatalf("scored %T under %v on %d inputs, want *Model under Paper on %d", m, dec, len(in), len(valid))
		}
		if mm.variant == unconstrained {
			free++
		}
		return method.Score{F1: 1 / float64(mm.Info.Epochs), CR: float64(mm.Info.Epochs)}, nil
	}
	res, err := Train(train, valid, TrainConfig{Epochs: 3, Seed: 1, Bits: 16, Score: score})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != 0 || res.Model.Info.Epochs != 1 || calls != 6 || free != 3 {
		t.Fatalf("best %d (model of epoch %d) after %d scores (%d unconstrained): want epoch 1 after 6 (3)", res.Best, res.Model.Info.Epochs, calls, free)
	}
	if e := res.Epochs[2]; e.F1 != 1.0/3 || e.CR != 3 || e.FreeF1 != 1.0/3 || e.FreeCR != 3 {
		t.Fatalf("epoch 3 %+v: want the scorer's values", e)
	}
	bad := errors.New("scorer failed")
	_, err = Train(train, valid, TrainConfig{Epochs: 1, Bits: 16, Score: func(method.Method, method.Decoding, []method.Input) (method.Score, error) {
		return method.Score{}, bad
	}})
	if !errors.Is(err, bad) {
		t.Fatalf("scorer error: got %v, want %v", err, bad)
	}
}
