package lr

import (
	"testing"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
)

// TestRandomFile checks that RANDOM reads this package's file, and opens once it is linked.
func TestRandomFile(t *testing.T) {
	if baseline.LRFile != FileName {
		t.Fatalf("baseline.LRFile = %q, want %q", baseline.LRFile, FileName)
	}
	m, err := method.Open(baseline.NameRandom, nil, 1)
	if err != nil || m.Name() != baseline.NameRandom {
		t.Fatalf("Open(random) = %v, %v", m, err)
	}
}
