package models

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestEmbedded(t *testing.T) {
	for _, name := range []string{TaggerName, ParserName, ParserBeamName} {
		b, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "QSCMODEL") {
			t.Errorf("%s lacks the model header", name)
		}
		if len(b) > 20<<20 {
			t.Errorf("%s is %d bytes, over the 20 MB limit", name, len(b))
		}
		if !slices.Contains(Names(), name) {
			t.Errorf("Names() = %v lacks %s", Names(), name)
		}
	}
	if _, err := Load("nope.qsm"); err == nil || !strings.Contains(err.Error(), "not embedded") {
		t.Errorf("missing model: %v", err)
	}
}

// TestDocumented checks that every embedded model has an entry in MODELS.md.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("../MODELS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		if !strings.Contains(string(doc), "## "+name) {
			t.Errorf("MODELS.md has no section for %s", name)
		}
	}
}
