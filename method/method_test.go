package methods

import (
	"errors"
	"testing"

	"github.com/qsc-nlp/qsc/internal/features"
	"github.com/qsc-nlp/qsc/internal/lr"
	"github.com/qsc-nlp/qsc/internal/synth"
	"github.com/qsc-nlp/qsc/model"
)

func TestOpenEmbedded(t *testing.T) {
	for _, e := range All() {
		m, err := Open(e.Name, nil, 1)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if m.Name() != e.Name {
			t.Errorf("Open(%q) returned method %q", e.Name, m.Name())
		}
	}
}

func TestUnknown(t *testing.T) {
	if _, err := Open("nope", nil, 1); !errors.Is(err, model.ErrUnknownMethod) {
		t.Fatalf("Open(nope) = %v, want ErrUnknownMethod", err)
	}
	for _, n := range Names(true) {
		if n == model.NameOracle {
			t.Error("the oracle is listed as a public method")
		}
	}
}

// TestOpenFile opens methods from a model file given by the caller: the file must hold
// the named model, and RANDOM reads the marginal from any logistic-regression file.
func TestOpenFile(t *testing.T) {
	res, err := lr.Train(synth.Inputs(1, 60), synth.Inputs(2, 10), lr.TrainConfig{Name: model.NameAblated,
		Features: features.Config{Bits: 12}, Cs: []float64{1}, MaxIter: 20})
	if err != nil {
		t.Fatal(err)
	}
	data, err := res.Model.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{model.NameAblated, data, true}, {model.NameLR, data, false}, {model.NameRandom, data, true},
		{model.NameOracle, nil, true}, {model.NameLR, []byte("QSCMODEL garbage"), false},
	} {
		m, err := Open(c.name, c.data, 1)
		if (err == nil) != c.ok {
			t.Errorf("Open(%q): %v", c.name, err)
			continue
		}
		if err == nil && m.Name() != c.name {
			t.Errorf("Open(%q) returned %q", c.name, m.Name())
		}
	}
}
