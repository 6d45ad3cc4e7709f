package nn

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/va"
)

func tinyConfig(workers int) TrainConfig {
	return TrainConfig{Sizes: Sizes{Embed: 6, Hidden: 5}, Epochs: 3, LearnRate: 0.1, BatchSize: 20, Clip: 5,
		MinCount: 1, UseSkipped: true, Labels: true, Seed: 3, Workers: workers}
}

// bothInputs runs f for a words-only network (the paper's) and for one with label input.
func bothInputs(t *testing.T, f func(t *testing.T, cfg TrainConfig)) {
	for _, labels := range []bool{false, true} {
		t.Run(fmt.Sprintf("labels=%t", labels), func(t *testing.T) {
			cfg := tinyConfig(1)
			cfg.Labels = labels
			f(t, cfg)
		})
	}
}

// trainFile trains with cfg and returns the result and its model file.
func trainFile(t *testing.T, train, valid []method.Input, cfg TrainConfig) (*TrainResult, []byte) {
	t.Helper()
	res, err := Train(train, valid, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := res.Model.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// TestDeterministic trains twice, with one and with three workers, and expects the same
// model bytes.
func TestDeterministic(t *testing.T) {
	train, valid := synth.Inputs(1, 60), synth.Inputs(2, 20)
	_, one := trainFile(t, train, valid, tinyConfig(1))
	_, three := trainFile(t, train, valid, tinyConfig(3))
	if !bytes.Equal(one, three) {
		t.Fatal("training with 1 and 3 workers gave different model bytes")
	}
	other := tinyConfig(1)
	other.Seed = 4
	if _, b := trainFile(t, train, valid, other); bytes.Equal(b, one) {
		t.Fatal("another seed gave the same model")
	}
}

// TestLearns checks that training beats the majority class on data with a simple rule.
func TestLearns(t *testing.T) {
	train, valid := synth.Inputs(1, 300), synth.Inputs(2, 100)
	cfg := tinyConfig(2)
	cfg.Sizes = Sizes{Embed: 8, Hidden: 8}
	cfg.Epochs = 4
	cfg.CheckEvery = 150 // two checkpoints per epoch
	res, err := Train(train, valid, cfg)
	if err != nil {
		t.Fatal(err)
	}
	base := max(res.Model.Info.Marginal, 1-res.Model.Info.Marginal)
	if acc := res.Checks[res.Best].ValidAcc; acc < base+0.1 {
		t.Fatalf("validation accuracy %.3f, majority baseline %.3f", acc, base)
	}
	if res.Best != res.Model.Info.BestCheck-1 || res.Model.Info.ValidAcc != res.Checks[res.Best].ValidAcc {
		t.Fatalf("best checkpoint %d, info %+v", res.Best, res.Model.Info)
	}
	if len(res.Checks) != cfg.Epochs*2 {
		t.Fatalf("%d checkpoints, want 2 per epoch", len(res.Checks))
	}
	for _, e := range res.Checks {
		if e.ValidAcc > res.Checks[res.Best].ValidAcc {
			t.Fatalf("checkpoint with accuracy %.4f beats the kept one %.4f", e.ValidAcc, res.Checks[res.Best].ValidAcc)
		}
	}
}

// TestDecideMatchesTraining checks that the incremental Decider (cached projections,
// reused LSTM prefixes) gives exactly the probabilities of the training forward pass.
func TestDecideMatchesTraining(t *testing.T) { bothInputs(t, testDecideMatchesTraining) }

func testDecideMatchesTraining(t *testing.T, cfg TrainConfig) {
	train := synth.Inputs(5, 80)
	res, err := Train(train, synth.Inputs(6, 10), cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model
	exs, _, _ := examples(train, &m.lex, true)
	w := newWork(m.p)
	var c va.Compressor
	checked := 0
	k := 0
	for _, in := range train {
		var got []float64
		_, err := c.Oracle(in.Problem(), in.Gold, m,
			func(s *va.State, v int, y, skipped bool) { got = append(got, m.Decide(s, v).P) })
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			continue // no decisions: not among the examples
		}
		w.sentence(m.p, exs[k], nil)
		k++
		if len(got) != len(w.probs) {
			t.Fatalf("%d decisions, training pass %d", len(got), len(w.probs))
		}
		for i := range got {
			if got[i] != w.probs[i] {
				t.Errorf("decision %d: Decide p = %v, training pass %v", i, got[i], w.probs[i])
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d decisions checked", checked)
	}
}

// TestFileRoundTrip writes, reads and rewrites a model and checks errors on bad files.
func TestFileRoundTrip(t *testing.T) { bothInputs(t, testFileRoundTrip) }

func testFileRoundTrip(t *testing.T, cfg TrainConfig) {
	res, err := Train(synth.Inputs(1, 40), synth.Inputs(2, 10), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := res.Model.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := m.MarshalBinary()
	if !bytes.Equal(b, b2) {
		t.Fatal("round trip changed the bytes")
	}
	if m.Info != res.Model.Info {
		t.Fatalf("info %+v, want %+v", m.Info, res.Model.Info)
	}
	if (m.Info.Labels > 0) != cfg.Labels || !slices.Equal(m.labels, res.Model.labels) {
		t.Fatalf("labels %q (Info.Labels %d), want label input %t", m.labels, m.Info.Labels, cfg.Labels)
	}
	if !cfg.Labels {
		// A words-only model as a version-1 file (no label count) loads the same.
		payload, _, err := modelfile.Decode(b, fileKind, fileVersion)
		if err != nil {
			t.Fatal(err)
		}
		sz := m.p.Sizes
		weights := NumStates*m.p.V*sz.Embed*2 + 4*(2*(4*sz.Hidden*(sz.Embed+sz.Hidden+1))+2*2*sz.Hidden+2)
		at := len(payload) - weights - 4 // the label count, 0
		v1 := append(slices.Clone(payload[:at]), payload[at+4:]...)
		file1, _ := modelfile.Encode(fileKind, 1, v1)
		m1, err := Load(file1)
		if err != nil {
			t.Fatalf("version-1 file: %v", err)
		}
		if b1, _ := m1.MarshalBinary(); !bytes.Equal(b1, b) {
			t.Fatal("version-1 file: a different model")
		}
	}
	// A valid container with a truncated payload.
	payload, _, _ := modelfile.Decode(b, fileKind, fileVersion)
	for _, cut := range []int{3, 60, len(payload) - 1} {
		bad, _ := modelfile.Encode(fileKind, fileVersion, payload[:cut])
		if _, err := Load(bad); !errors.Is(err, ErrFormat) {
			t.Errorf("payload cut at %d: error %v, want ErrFormat", cut, err)
		}
	}
	if _, err := Load(b[:len(b)-5]); err == nil {
		t.Error("truncated file loaded")
	}
}

// TestStates checks the four token states at a decision.
func TestStates(t *testing.T) {
	in := synth.Inputs(8, 1)[0]
	var c va.Compressor
	_, err := c.Oracle(in.Problem(), in.Gold, nil,
		func(s *va.State, v int, y, skipped bool) {
			st := make([]uint8, s.N())
			States(s, v, st)
			for i, x := range st {
				u := i + 1
				var want uint8
				switch {
				case u == v:
					want = StateCandidate
				case s.InC(u):
					want = StateC
				case s.Remaining(u):
					want = StateRemaining
				default:
					want = StateRejected
				}
				if x != want || (x == StateRejected && !s.Rejected(u) && !s.Skipped(u)) {
					t.Errorf("token %d: state %d, want %d", u, x, want)
				}
			}
		})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBF16 checks the rounding of the stored embeddings: relative error at most 2^−8.
func TestBF16(t *testing.T) {
	for _, x := range []float32{0, 1, -2.5, 3.14159, 1e-20, 65504, -0.0123} {
		got := fromBF16(toBF16(x))
		if d := math.Abs(float64(got - x)); d > math.Abs(float64(x))/256 {
			t.Errorf("bf16(%v) = %v", x, got)
		}
	}
	if fromBF16(toBF16(1.00390625)) != 1 { // halfway between 1 and 1 + 2^−7: to even
		t.Error("ties do not round to even")
	}
}

// TestMaxChecks stops at a checkpoint and gives the model of a run with fewer epochs.
func TestMaxChecks(t *testing.T) {
	train, valid := synth.Inputs(1, 60), synth.Inputs(2, 20)
	cfg := tinyConfig(1)
	cfg.Epochs, cfg.MaxChecks = 5, 2
	a, ba := trainFile(t, train, valid, cfg)
	if len(a.Checks) != 2 || a.Model.Info.Checkpoints != 2 {
		t.Fatalf("%d checkpoints, want 2", len(a.Checks))
	}
	cfg.Epochs, cfg.MaxChecks = 2, 0
	if _, bb := trainFile(t, train, valid, cfg); !bytes.Equal(ba, bb) {
		t.Fatal("stopping after 2 checkpoints differs from 2 epochs")
	}
}

// TestStop checks that a closed Stop channel ends training at the first checkpoint, with
// the model that MaxChecks 1 gives.
func TestStop(t *testing.T) {
	train, valid := synth.Inputs(1, 60), synth.Inputs(2, 20)
	cfg := tinyConfig(1)
	cfg.Epochs = 5
	stop := make(chan struct{})
	close(stop)
	cfg.Stop = stop
	a, ba := trainFile(t, train, valid, cfg)
	if len(a.Checks) != 1 {
		t.Fatalf("%d checkpoints after a stop, want 1", len(a.Checks))
	}
	cfg.Stop, cfg.MaxChecks = nil, 1
	if _, bb := trainFile(t, train, valid, cfg); !bytes.Equal(ba, bb) {
		t.Fatal("a stop at checkpoint 1 differs from MaxChecks 1")
	}
}
