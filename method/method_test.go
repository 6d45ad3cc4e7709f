package method_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/method/lr"
)

// This test binary links method/lr (and so lr and random) and not the ILP, NN or ABLATED.

func TestOpenEmbedded(t *testing.T) {
	for _, e := range method.All() {
		m, err := method.Open(e.Name, nil, 1)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if m.Name() != e.Name {
			t.Errorf("Open(%q) returned method %q", e.Name, m.Name())
		}
	}
	if got, want := method.Names(false), []string{method.NameLR, baseline.NameRandom, baseline.NameWindow, baseline.NameOracle}; !slices.Equal(got, want) {
		t.Errorf("Names(false) = %v, want %v (registration order does not matter)", got, want)
	}
}

func TestUnknown(t *testing.T) {
	if _, err := method.Open("nope", nil, 1); !errors.Is(err, method.ErrUnknownMethod) {
		t.Fatalf("Open(nope) = %v, want ErrUnknownMethod", err)
	}
	for _, n := range method.Names(true) {
		if n == baseline.NameOracle {
			t.Error("the oracle is listed as a public method")
		}
	}
}

// TestNotLinked asks for methods of this module that the test binary does not link: the
// error names the import.
func TestNotLinked(t *testing.T) {
	for name, pkg := range map[string]string{"ilp": "method/ilp", "ilp-unconstrained": "method/ilp", "nn": "method/nn", "ablated": "method/ablated"} {
		_, err := method.Open(name, nil, 1)
		if !errors.Is(err, method.ErrUnknownMethod) {
			t.Fatalf("Open(%q) = %v, want ErrUnknownMethod", name, err)
		}
		want := `unknown method "` + name + `" (not linked: import _ "github.com/qsc-nlp/qsc/` + pkg + `")`
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q): %q, want it to say %q", name, err, want)
		}
	}
}

// TestRegisterDuplicate checks that Register panics on a name registered twice, as
// database/sql.Register does, and on an entry without a name or an Open function.
func TestRegisterDuplicate(t *testing.T) {
	open := func([]byte, uint64) (method.Method, error) { return baseline.Window{}, nil }
	for _, e := range []method.Entry{{Name: baseline.NameWindow, Open: open}, {Name: "", Open: open}, {Name: "no-open"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", e.Name)
				}
			}()
			method.Register(e)
		}()
	}
}

// TestOpenFile opens methods from a model file given by the caller: the file must hold
// the named model, and RANDOM reads the marginal from any logistic-regression file.
func TestOpenFile(t *testing.T) {
	res, err := lr.Train(synth.Inputs(1, 60), synth.Inputs(2, 10), lr.TrainConfig{Name: method.NameAblated,
		Features: lr.FeatureSet{Edge: features.Config{Bits: 12}}, Cs: []float64{1}, MaxIter: 20,
		Score: func(method.Method, method.Decoding, []method.Input) (method.Score, error) { return method.Score{}, nil }})
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
		{method.NameLR, data, false}, {baseline.NameRandom, data, true},
		{baseline.NameOracle, nil, true}, {method.NameLR, []byte("QSCMODEL garbage"), false},
	} {
		m, err := method.Open(c.name, c.data, 1)
		if (err == nil) != c.ok {
			t.Errorf("Open(%q): %v", c.name, err)
			continue
		}
		if err == nil && m.Name() != c.name {
			t.Errorf("Open(%q) returned %q", c.name, m.Name())
		}
	}
	if m, err := lr.Opener(method.NameAblated)(data, 1); err != nil || m.Name() != method.NameAblated {
		t.Errorf("lr.Opener(ablated) on an ABLATED file: %v, %v", m, err)
	}
}
