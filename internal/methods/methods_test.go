package methods

import (
	"errors"
	"testing"

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
