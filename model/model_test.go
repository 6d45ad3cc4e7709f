package model

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/features"
	"github.com/qsc-nlp/qsc/internal/modelfile"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/syntax"
)

// synthetic returns random parsed inputs whose gold compressions follow a learnable rule
// (keep the query, nouns and verbs, drop the rest, with 10% noise).
func synthetic(seed uint64, count int) []Input {
	rng := rand.New(rand.NewPCG(seed, 7))
	tags := []string{"NN", "VB", "DT", "JJ", "IN", "."}
	rels := map[string]string{"NN": "nsubj", "VB": "ccomp", "DT": "det", "JJ": "amod", "IN": "case", ".": "punct"}
	words := map[string][]string{"NN": {"cat", "dog", "city"}, "VB": {"ran", "saw"}, "DT": {"the", "a"},
		"JJ": {"big", "old"}, "IN": {"of", "in"}, ".": {"."}}
	var ins []Input
	for len(ins) < count {
		n := 2 + rng.IntN(20)
		heads := make([]int, n)
		perm := rng.Perm(n)
		for i, v := range perm {
			if i > 0 {
				heads[v] = perm[rng.IntN(i)] + 1
			}
		}
		s := &syntax.Sentence{}
		var gold, nouns []int
		for i, h := range heads {
			tag := tags[rng.IntN(len(tags))]
			rel := rels[tag]
			if h == 0 {
				rel = "root"
			}
			ws := words[tag]
			s.Tokens = append(s.Tokens, syntax.Token{Form: ws[rng.IntN(len(ws))], XPOS: tag, Head: h, Rel: rel})
			keep := tag == "NN" || tag == "VB"
			if rng.IntN(10) == 0 {
				keep = !keep
			}
			if keep {
				gold = append(gold, i+1)
				if tag == "NN" {
					nouns = append(nouns, i+1)
				}
			}
		}
		if len(nouns) == 0 {
			continue
		}
		tree, err := TreeOf(s)
		if err != nil {
			panic(err)
		}
		b, _ := metrics.CharLen(s.Forms(), gold)
		ins = append(ins, Input{Sentence: s, Tree: tree, Query: nouns[:1], Budget: b, Gold: gold})
	}
	return ins
}

func randomExamples(rng *rand.Rand, n, dim int) *examples {
	e := newExamples()
	for range n {
		var x features.Vector
		for range 1 + rng.IntN(5) {
			x.IDs = append(x.IDs, uint32(rng.IntN(dim)))
			v := float32(1)
			if rng.IntN(3) == 0 {
				v = float32(rng.NormFloat64() * 3)
			}
			x.Vals = append(x.Vals, v)
		}
		e.add(&x, rng.IntN(2) == 0)
	}
	return e
}

func TestGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const dim = 8
	data := randomExamples(rng, 40, dim)
	obj := newLRObjective(data, dim, 0.7, 2)
	theta := make([]float64, dim+1)
	for i := range theta {
		theta[i] = rng.NormFloat64()
	}
	grad := make([]float64, dim+1)
	obj.eval(theta, grad)
	tmp := make([]float64, dim+1)
	for j := range theta {
		const h = 1e-6
		tp, tm := slices.Clone(theta), slices.Clone(theta)
		tp[j] += h
		tm[j] -= h
		fd := (obj.eval(tp, tmp) - obj.eval(tm, tmp)) / (2 * h)
		if math.Abs(fd-grad[j]) > 1e-5*max(1, math.Abs(fd)) {
			t.Errorf("∂f/∂θ%d = %g, finite difference %g", j, grad[j], fd)
		}
	}
}

// TestFitKnownOptimum checks the optimiser against closed-form optima: with one binary
// feature and (almost) no regularisation, the fitted model reproduces the empirical
// log-odds of each group; with no feature, the bias is the log-odds of the labels.
func TestFitKnownOptimum(t *testing.T) {
	e := newExamples()
	one := &features.Vector{IDs: []uint32{0}, Vals: []float32{1}}
	none := &features.Vector{}
	for i := range 10 {
		e.add(one, i < 8) // with the feature: 8 of 10 positive
	}
	for i := range 10 {
		e.add(none, i < 3) // without: 3 of 10 positive
	}
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	theta := make([]float64, 2)
	res, err := fitLR(e, 1, theta, fitOptions{C: 1e9, MaxIter: 200, Workers: 1})
	if err != nil || !res.Converged {
		t.Fatalf("fit: %v %+v", err, res)
	}
	if math.Abs(theta[1]-logit(0.3)) > 1e-4 || math.Abs(theta[0]+theta[1]-logit(0.8)) > 1e-4 {
		t.Errorf("θ = %v, want bias %g, w %g", theta, logit(0.3), logit(0.8)-logit(0.3))
	}
	// Separable data with C = 1: the optimum is finite and stationary.
	s := newExamples()
	for i := range 20 {
		s.add(&features.Vector{IDs: []uint32{uint32(i % 2)}, Vals: []float32{1}}, i%2 == 0)
	}
	theta = make([]float64, 3)
	res, err = fitLR(s, 2, theta, fitOptions{C: 1, MaxIter: 200, Workers: 1})
	if err != nil || !res.Converged || res.GradNorm > 1e-4 {
		t.Fatalf("separable fit: %v %+v", err, res)
	}
	if !(theta[0]+theta[2] > 0 && theta[1]+theta[2] < 0) {
		t.Errorf("separable data misclassified: θ = %v", theta)
	}
	// By symmetry of the two classes, w0 = −w1 and the bias is 0; stationarity gives
	// w0 = C·Σ(1−σ(w0))·… : check with the 1-D equation w = 10·C·(1 − σ(w)).
	w := theta[0]
	if math.Abs(theta[0]+theta[1]) > 1e-4 || math.Abs(theta[2]) > 1e-4 || math.Abs(w-10*(1-sigmoid(w))) > 1e-4 {
		t.Errorf("separable optimum θ = %v does not solve w = 10(1 − σ(w))", theta)
	}
}

func TestTrainDeterministic(t *testing.T) {
	train, valid := synthetic(1, 300), synthetic(2, 50)
	cfg := TrainConfig{Name: NameLR, Features: features.Config{Stateful: true, Bits: 16}, Cs: []float64{1, 0.1}, MaxIter: 50}
	var files [][]byte
	for _, w := range []int{1, 3} {
		cfg.Workers = w
		res, err := Train(train, valid, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Grid) != 2 || res.Grid[0].C != 0.1 || res.Decisions == 0 {
			t.Fatalf("grid %+v", res.Grid)
		}
		if res.Grid[res.Best].F1 < 0.8 {
			t.Errorf("validation F1 %.3f on a learnable synthetic task", res.Grid[res.Best].F1)
		}
		data, err := res.Model.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("training with 1 and 3 workers gave different model files")
	}
}

func trained(t *testing.T, name string) *LR {
	t.Helper()
	f := features.Config{Stateful: name == NameLR, Bits: 14}
	res, err := Train(synthetic(1, 100), synthetic(2, 20), TrainConfig{Name: name, Features: f, Cs: []float64{1}, MaxIter: 30})
	if err != nil {
		t.Fatal(err)
	}
	return res.Model
}

func TestModelFileRoundTrip(t *testing.T) {
	m := trained(t, NameLR)
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.w, m2.w) || m.bias != m2.bias || m.Info != m2.Info || m2.ext.Vocab().Len() != m.ext.Vocab().Len() || m.ext.Vocab().Len() == 0 {
		t.Fatal("round trip changed the model")
	}
	ins := synthetic(5, 30)
	var c1, c2 Compressor
	for _, in := range ins {
		a, err1 := c1.Compress(m, in)
		b, err2 := c2.Compress(m2, in)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Fatalf("compressions differ: %v %v (%v, %v)", a, b, err1, err2)
		}
	}
	// corrupt: a flipped byte, a truncated file, another kind, a bad payload
	bad := slices.Clone(data)
	bad[len(bad)/2] ^= 1
	if _, err := Load(bad); !errors.Is(err, modelfile.ErrChecksum) {
		t.Errorf("flipped byte: %v", err)
	}
	if _, err := Load(data[:len(data)-40]); !errors.Is(err, modelfile.ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
	other, _ := modelfile.Encode("tagger", fileVersion, []byte{1})
	if _, err := Load(other); err == nil {
		t.Error("tagger file accepted")
	}
	for _, payload := range [][]byte{nil, {2, 'l', 'r'}, {5, 'w', 'h', 'a', 't', '?'}, {2, 'l', 'r', features.Version, 0}, append([]byte{2, 'l', 'r', features.Version, 0, 1, 0, 0, 0, 0, 99}, make([]byte, 40)...)} {
		f, _ := modelfile.Encode(fileKind, fileVersion, payload)
		if _, err := Load(f); !errors.Is(err, ErrFormat) {
			t.Errorf("payload %v: %v", payload, err)
		}
	}
	if _, err := Load(nil); err == nil {
		t.Error("empty file accepted")
	}
}

func TestOpen(t *testing.T) {
	m := trained(t, NameAblated)
	data, _ := m.MarshalBinary()
	for _, c := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{NameAblated, data, true}, {NameLR, data, false}, {NameRandom, data, true}, {NameOracle, nil, true},
		{NameLR, nil, false}, {"ilp", data, false},
	} {
		meth, err := Open(c.name, c.data, 1)
		if (err == nil) != c.ok {
			t.Errorf("Open(%q): %v", c.name, err)
			continue
		}
		if err == nil && meth.Name() != c.name {
			t.Errorf("Open(%q) returned %q", c.name, meth.Name())
		}
	}
	if _, err := Open("nope", nil, 1); !errors.Is(err, ErrUnknownMethod) {
		t.Errorf("unknown method: %v", err)
	}
}

func TestOracleAndErrors(t *testing.T) {
	var c Compressor
	for _, in := range synthetic(9, 50) {
		kept, err := c.Compress(Oracle{}, in)
		if err != nil || !slices.Equal(kept, in.Gold) {
			t.Fatalf("oracle kept %v, gold %v (%v)", kept, in.Gold, err)
		}
	}
	in := synthetic(9, 1)[0]
	in.Gold = nil
	if _, err := c.Compress(Oracle{}, in); !errors.Is(err, ErrNoGold) {
		t.Errorf("oracle without gold: %v", err)
	}
	if _, err := c.Compress(Oracle{}, Input{}); !errors.Is(err, ErrNoSentence) {
		t.Errorf("empty input: %v", err)
	}
	if _, err := NewRandom(1.5, 1); err == nil {
		t.Error("marginal 1.5 accepted")
	}
}

func TestRandomDeterministic(t *testing.T) {
	ins := synthetic(4, 200)
	run := func(seed uint64, order []int) [][]int {
		r, err := NewRandom(0.4, seed)
		if err != nil {
			t.Fatal(err)
		}
		out := make([][]int, len(ins))
		var c Compressor
		for _, i := range order {
			kept, err := c.Compress(r, ins[i])
			if err != nil {
				t.Fatal(err)
			}
			out[i] = slices.Clone(kept)
		}
		return out
	}
	fwd := make([]int, len(ins))
	rev := make([]int, len(ins))
	for i := range ins {
		fwd[i], rev[i] = i, len(ins)-1-i
	}
	a, b, c := run(7, fwd), run(7, rev), run(8, fwd)
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Error("RANDOM depends on the order of compressions")
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Error("RANDOM ignores its seed")
	}
}
