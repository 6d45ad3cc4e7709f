package ilp

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TestArcsOf checks the arcs built from a token set: a kept token takes its head when the
// head is kept or is the root, the root arc otherwise, and a dropped token none.
func TestArcsOf(t *testing.T) {
	tree, err := syntax.NewTree([]int{2, 0, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	in := []bool{false, true, false, false, true, true}
	got := arcsOf(tree, in, nil)
	if want := []int{-1, 0, -1, -1, 0, 4}; !slices.Equal(got, want) {
		t.Errorf("arcsOf = %v, want %v", got, want)
	}
	in = []bool{false, true, true, true, true, true}
	if got, want := arcsOf(tree, in, got), []int{-1, 2, 0, 2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("arcsOf(all) = %v, want %v", got, want)
	}
}

// TestDisplayTarget checks the target of training for the display on random inputs: it
// holds the query and fits the budget it is computed under (the training budget, or the
// gold's length under TargetAtGold); unless the rules yielded to the query, the display
// alone shows no one-word island, no cut after a function word and no name kept in part
// (wellformed.Chopper); with TargetUnion it holds the gold. The synthetic golds, which
// keep nouns and verbs, are often shown otherwise, so the target differs from the gold
// in some inputs and equals it in others.
func TestDisplayTarget(t *testing.T) {
	ins := synth.Inputs(3, 400)
	fcfg, err := edgeConfig(16, DefaultNumeric, false, true)
	if err != nil {
		t.Fatal(err)
	}
	pr := runs.Default()
	pr.Fill = 0
	for _, c := range []struct{ atGold, union bool }{{false, false}, {true, false}, {false, true}} {
		p := &perceptron{cfg: fcfg, vocab: features.NewVocab(func(func(string) bool) {}), w: make([]float64, fcfg.Size()),
			acc: make([]float64, fcfg.Size()), target: &pr, atGold: c.atGold, union: c.union}
		var ck wellformed.Chopper
		changed, same := 0, 0
		for _, in := range ins {
			const extra = 5
			if _, err := p.step(in, extra); err != nil {
				t.Fatal(err)
			}
			var target []int
			for v := 1; v < len(p.gold); v++ {
				if p.gold[v] {
					target = append(target, v)
				}
			}
			if slices.Equal(target, in.Gold) {
				same++
			} else {
				changed++
			}
			forms := in.Sentence.Forms()
			b := in.Budget + extra
			if c.atGold {
				b = in.Budget
			}
			l, _ := metrics.CharLen(forms, target)
			switch {
			case c.union:
				for _, g := range in.Gold {
					if !p.gold[g] {
						t.Errorf("%+v %q: target %v drops gold token %d", c, forms, target, g)
					}
				}
			case l > b:
				t.Errorf("%+v %q: target %v is %d characters, budget %d", c, forms, target, l, b)
			}
			for _, q := range in.Query {
				if !p.gold[q] {
					t.Errorf("%+v %q: target %v drops query token %d", c, forms, target, q)
				}
			}
			if c.union || p.rules.Yielded() {
				continue
			}
			if ch := ck.Chop(in.Sentence, in.Tree, target, in.Query); ch.Islands+ch.AfterFunction+ch.NamesCut > 0 {
				t.Errorf("%+v %q, Q %v: target %v shows %+v", c, forms, in.Query, target, ch)
			}
		}
		if changed == 0 || same == 0 {
			t.Errorf("%+v: %d targets differ from the gold, %d equal it: want some of each", c, changed, same)
		}
	}
}

// TestTrainDisplay checks training for the display, with the target alone and with the
// displayed prediction: the epoch is chosen on the Snippet decoding's validation F1, the
// perceptron makes fewer mistakes after its first epoch, the same inputs give the same bytes, and
// ShowPrediction without Target is refused.
func TestTrainDisplay(t *testing.T) {
	train, valid := synth.Inputs(1, 1500), synth.Inputs(2, 300)
	pr := runs.Default()
	pr.Fill = 0
	for _, show := range []bool{false, true} {
		cfg := TrainConfig{Epochs: 3, Seed: 1, Bits: 18, Score: evaluate.Scorer(2), Query: true, Slack: 4, Target: &pr, ShowPrediction: show}
		res, err := Train(train, valid, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := evaluate.EvaluateWith(res.Model, valid, 1, method.Snippet)
		if err != nil {
			t.Fatal(err)
		}
		best := res.Epochs[res.Best]
		t.Logf("show %v: epoch %d, snippet F1 %.4f, mistakes %d", show, best.Epoch, best.F1, best.Mistakes)
		if ev.F1 != best.F1 {
			t.Errorf("show %v: chosen epoch's F1 %.4f, the model's Snippet F1 %.4f", show, best.F1, ev.F1)
		}
		if m := res.Epochs; min(m[1].Mistakes, m[2].Mistakes) >= m[0].Mistakes {
			t.Errorf("show %v: mistakes per epoch %d, %d, %d: want fewer after the first", show, m[0].Mistakes, m[1].Mistakes, m[2].Mistakes)
		}
		again, err := Train(train, valid, cfg)
		if err != nil {
			t.Fatal(err)
		}
		a, err := res.Model.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b, err := again.Model.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("show %v: two trainings gave different model files", show)
		}
	}
	if _, err := Train(train, valid, TrainConfig{Epochs: 1, ShowPrediction: true, Score: evaluate.Scorer(1)}); !errors.Is(err, features.ErrConfig) {
		t.Errorf("ShowPrediction without Target: err %v, want features.ErrConfig", err)
	}
}
