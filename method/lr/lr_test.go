package lr

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
)

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
	res, err := fitLR(e, 1, theta, fitOptions{C: 1e9, MaxIter: 200, Tol: 1e-10, Workers: 1})
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
	res, err = fitLR(s, 2, theta, fitOptions{C: 1, MaxIter: 200, Tol: 1e-8, Workers: 1})
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
	train, valid := synth.Inputs(1, 300), synth.Inputs(2, 50)
	cfg := TrainConfig{Name: method.NameLR, Features: FeatureSet{Stateful: true, Edge: features.Config{Bits: 16}}, Cs: []float64{1, 0.1}, MaxIter: 50}
	var files [][]byte
	for _, w := range []int{1, 3} {
		cfg.Workers, cfg.Score = w, evaluate.Scorer(w)
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
	f := FeatureSet{Stateful: name == method.NameLR, Edge: features.Config{Bits: 14}}
	res, err := Train(synth.Inputs(1, 100), synth.Inputs(2, 20), TrainConfig{Name: name, Features: f, Cs: []float64{1}, MaxIter: 30, Score: evaluate.Scorer(1)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Model
}

func TestModelFileRoundTrip(t *testing.T) {
	m := trained(t, method.NameLR)
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.w, m2.w) || m.bias != m2.bias || m.Info != m2.Info || m2.ext.vocab.Len() != m.ext.vocab.Len() || m.ext.vocab.Len() == 0 {
		t.Fatal("round trip changed the model")
	}
	ins := synth.Inputs(5, 30)
	var c1, c2 method.Compressor
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

// TestThresholdAndVersions trains with a threshold grid, checks the chosen threshold is
// stored in the file and used, and that a version-2 file (no threshold) still loads, with
// threshold 0.
func TestThresholdAndVersions(t *testing.T) {
	train, valid := synth.Inputs(1, 200), synth.Inputs(2, 40)
	res, err := Train(train, valid, TrainConfig{Name: method.NameLR, Features: FeatureSet{Stateful: true, Edge: features.Config{Bits: 14}},
		Cs: []float64{1}, MaxIter: 40, Thresholds: []float64{0.5, -0.5, 0}, Score: evaluate.Scorer(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Thresholds) != 3 || res.Thresholds[0].Threshold != -0.5 {
		t.Fatalf("thresholds %+v", res.Thresholds)
	}
	best := res.Thresholds[0]
	for _, p := range res.Thresholds {
		if p.F1 > best.F1 || (p.F1 == best.F1 && p.Threshold == 0) {
			best = p
		}
	}
	if res.Model.Info.Threshold != best.Threshold {
		t.Errorf("model threshold %v, best on validation %+v", res.Model.Info.Threshold, best)
	}
	m := res.Model.WithThreshold(0.25)
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m3, err := Load(data)
	if err != nil || m3.Info.Threshold != 0.25 || m3.threshold != 0.25 {
		t.Fatalf("version 3 round trip: threshold %v (%v)", m3.Info.Threshold, err)
	}
	// The same model as a version-2 file: drop the threshold field.
	payload, _, err := modelfile.Decode(data, fileKind, fileVersion)
	if err != nil {
		t.Fatal(err)
	}
	at := 1 + len(m.Info.Name) + 2 + 6 + 4*8
	v2 := append(slices.Clone(payload[:at]), payload[at+8:]...)
	file2, _ := modelfile.Encode(fileKind, 2, v2)
	m2, err := Load(file2)
	if err != nil {
		t.Fatal(err)
	}
	if m2.Info.Threshold != 0 || m2.Info.MarginalAsked != m.Info.MarginalAsked || !slices.Equal(m2.w, m.w) {
		t.Errorf("version 2 file: threshold %v, asked marginal %v (want 0, %v)", m2.Info.Threshold, m2.Info.MarginalAsked, m.Info.MarginalAsked)
	}
}

// TestThresholdCRGap checks the compression-ratio constraint of the threshold choice: the
// gold ratio is the oracle's, every point is marked eligible exactly when its ratio is
// within the gap, the chosen threshold is the best eligible one, and when none is
// eligible the closest ratio wins.
func TestThresholdCRGap(t *testing.T) {
	train, valid := synth.Inputs(1, 200), synth.Inputs(2, 40)
	grid := []float64{-4, -2, -1, 1, 2, 4}
	cfg := TrainConfig{Name: method.NameLR, Features: FeatureSet{Stateful: true, Edge: features.Config{Bits: 14}},
		Cs: []float64{1}, MaxIter: 40, Thresholds: grid, Score: evaluate.Scorer(1)}
	free, err := Train(train, valid, cfg)
	if err != nil {
		t.Fatal(err)
	}
	gold, err := evaluate.Evaluate(baseline.Oracle{}, valid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(free.Thresholds) != len(grid)+1 {
		t.Fatalf("want the grid and 0, got %+v", free.Thresholds)
	}
	// A gap just below the unconstrained choice's distance from the gold ratio excludes it.
	var chosen ThresholdPoint
	for _, p := range free.Thresholds {
		if !p.Eligible {
			t.Fatalf("without a gap every threshold is eligible: %+v", p)
		}
		if p.Threshold == free.Model.Info.Threshold {
			chosen = p
		}
	}
	dist := math.Abs(chosen.CR - gold.CR)
	if dist == 0 {
		t.Skip("the unconstrained choice already has the gold ratio on this data")
	}
	cfg.MaxCRGap = dist / 2
	res, err := Train(train, valid, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.GoldCR != gold.CR {
		t.Fatalf("gold ratio %v, oracle's %v", res.GoldCR, gold.CR)
	}
	var best, closest *ThresholdPoint
	for i := range res.Thresholds {
		p := &res.Thresholds[i]
		if p.GapSE <= 0 {
			t.Errorf("threshold %+v: no standard error of the gap", p)
		}
		if want := math.Abs(p.CR-gold.CR)+1.96*p.GapSE <= cfg.MaxCRGap; p.Eligible != want {
			t.Errorf("threshold %+v: eligible %t, want %t (gold %.4f, gap %.4f)", p.Threshold, p.Eligible, want, gold.CR, cfg.MaxCRGap)
		}
		if p.Eligible && (best == nil || p.F1 > best.F1) {
			best = p
		}
		if closest == nil || math.Abs(p.CR-gold.CR) < math.Abs(closest.CR-gold.CR) {
			closest = p
		}
	}
	want := closest
	if best != nil {
		want = best
	}
	if res.Model.Info.Threshold != want.Threshold {
		t.Errorf("chose %v, want %+v (gold ratio %.4f, gap %.4f, points %+v)", res.Model.Info.Threshold, *want, gold.CR, cfg.MaxCRGap, res.Thresholds)
	}
	if res.Model.Info.Threshold == chosen.Threshold {
		t.Errorf("the constraint did not exclude the unconstrained choice %+v", chosen)
	}
}

// TestTrainScorer checks that Train takes its validation scores from TrainConfig.Score
// alone: without it Train refuses, the C it scores best is chosen (here the smallest, which
// the data would not choose), the gold is scored under MaxCRGap, a score without a ratio
// per input is refused under MaxCRGap, and the scorer's error is Train's.
func TestTrainScorer(t *testing.T) {
	train, valid := synth.Inputs(1, 100), synth.Inputs(2, 20)
	cfg := TrainConfig{Name: method.NameLR, Features: FeatureSet{Stateful: true, Edge: features.Config{Bits: 12}},
		Cs: []float64{0.1, 1}, MaxIter: 20, Thresholds: []float64{0.5}, MaxCRGap: 1}
	if _, err := Train(train, valid, cfg); !errors.Is(err, ErrNoScorer) {
		t.Fatalf("no scorer: err %v, want ErrNoScorer", err)
	}
	var models, gold int
	perCR := make([]float64, len(valid))
	cfg.Score = func(m method.Method, dec method.Decoding, in []method.Input) (method.Score, error) {
		if dec != method.Paper || len(in) != len(valid) {
			t.Fatalf("scored under %v on %d inputs, want Paper on %d", dec, len(in), len(valid))
		}
		switch m := m.(type) {
		case *LR:
			models++
			return method.Score{F1: 1 / m.Info.C, CR: 0.5, PerCR: perCR}, nil
		case baseline.Oracle:
			gold++
			return method.Score{F1: 1, CR: 0.5, PerCR: perCR}, nil
		}
		t.Fatalf("scored %T", m)
		return method.Score{}, nil
	}
	res, err := Train(train, valid, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Two Cs, then thresholds 0 and 0.5 (0 again, for its ratio's standard error).
	if res.Grid[res.Best].C != 0.1 || res.Model.Info.C != 0.1 || models != 4 || gold != 1 {
		t.Fatalf("chose C = %v (model's %v) after %d model and %d gold scores: want 0.1 after 4 and 1",
			res.Grid[res.Best].C, res.Model.Info.C, models, gold)
	}
	perCR = nil
	if _, err := Train(train, valid, cfg); err == nil || !strings.Contains(err.Error(), "MaxCRGap") {
		t.Fatalf("no ratio per input under MaxCRGap: err %v", err)
	}
	bad := errors.New("scorer failed")
	cfg.Score = func(method.Method, method.Decoding, []method.Input) (method.Score, error) { return method.Score{}, bad }
	if _, err := Train(train, valid, cfg); !errors.Is(err, bad) {
		t.Fatalf("scorer error: got %v, want %v", err, bad)
	}
}
