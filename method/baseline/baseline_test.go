package baseline_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	. "github.com/qsc-nlp/qsc/method/baseline"
)

func TestOracleAndErrors(t *testing.T) {
	var c method.Compressor
	for _, in := range synth.Inputs(9, 50) {
		kept, err := c.Compress(Oracle{}, in)
		if err != nil || !slices.Equal(kept, in.Gold) {
			t.Fatalf("oracle kept %v, gold %v (%v)", kept, in.Gold, err)
		}
	}
	in := synth.Inputs(9, 1)[0]
	in.Gold = nil
	if _, err := c.Compress(Oracle{}, in); !errors.Is(err, method.ErrNoGold) {
		t.Errorf("oracle without gold: %v", err)
	}
	if _, err := c.Compress(Oracle{}, method.Input{}); !errors.Is(err, method.ErrNoSentence) {
		t.Errorf("empty input: %v", err)
	}
	if _, err := NewRandom(1.5, 1); err == nil {
		t.Error("marginal 1.5 accepted")
	}
}

func TestRandomDeterministic(t *testing.T) {
	ins := synth.Inputs(4, 200)
	run := func(seed uint64, order []int) [][]int {
		r, err := NewRandom(0.4, seed)
		if err != nil {
			t.Fatal(err)
		}
		out := make([][]int, len(ins))
		var c method.Compressor
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
