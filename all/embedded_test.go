package all_test

import (
	"crypto/sha256"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/method"
)

// TestEmbedded checks that package all links the seven model files, each with its header
// and under the size limit, and every method.
func TestEmbedded(t *testing.T) {
	want := []string{"en-ewt-parser-beam8-v1.qsm", "en-ewt-parser-v3.qsm", "en-ewt-tagger-v4.qsm",
		"ilp-v6.qsm", "va-ablated-v5.qsm", "va-lr-v3.qsm", "va-nn-v2.qsm"}
	if got := modelfile.EmbeddedNames(); !slices.Equal(got, want) {
		t.Errorf("embedded files %v, want %v", got, want)
	}
	for _, name := range []string{pipeline.TaggerName, pipeline.ParserName, pipeline.ParserBeamName} {
		b, err := modelfile.Embedded(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "QSCMODEL") {
			t.Errorf("%s lacks the model header", name)
		}
		if len(b) > 20<<20 {
			t.Errorf("%s is %d bytes, over the 20 MB limit", name, len(b))
		}
	}
	if _, err := modelfile.Embedded("nope.qsm"); err == nil || !strings.Contains(err.Error(), "not embedded") {
		t.Errorf("missing model: %v", err)
	}
	if got, want := method.Names(false), []string{"lr", "ablated", "random", "nn", "ilp", "ilp-unconstrained", "ilp-root-query", "window", "oracle"}; !slices.Equal(got, want) {
		t.Errorf("methods %v, want %v", got, want)
	}
	if _, err := pipeline.Accurate(); err != nil {
		t.Errorf("accurate pipeline: %v", err)
	}
}

// TestEmbeddedFiles checks the checksum of every embedded model file and the SHA-256 its
// package declares, which a program's start leaves to this test (modelfile.CheckEmbedded):
// a retrained model fails here until its package declares the new sum.
func TestEmbeddedFiles(t *testing.T) {
	if err := modelfile.CheckEmbedded(); err != nil {
		t.Error(err)
	}
	for _, name := range []string{pipeline.TaggerName, pipeline.ParserName, pipeline.ParserBeamName} {
		b, err := modelfile.Embedded(name)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := modelfile.Sum(b), sha256.Sum256(b); got != want {
			t.Errorf("%s: Sum %x, the file's SHA-256 %x", name, got, want)
		}
	}
}

// TestDocumented checks that every embedded model has an entry in MODELS.md.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("../MODELS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range modelfile.EmbeddedNames() {
		if !strings.Contains(string(doc), "## "+name) {
			t.Errorf("MODELS.md has no section for %s", name)
		}
	}
}

// TestRelease checks that an embedded file reads the same after Release has let the
// kernel reclaim its pages, and that it still loads.
func TestRelease(t *testing.T) {
	for _, name := range modelfile.EmbeddedNames() {
		b, err := modelfile.Embedded(name)
		if err != nil {
			t.Fatal(err)
		}
		before := sha256.Sum256(b)
		modelfile.Release(name)
		if sha256.Sum256(b) != before {
			t.Errorf("%s changed after Release", name)
		}
	}
	if _, err := method.Open("lr", nil, 1); err != nil {
		t.Errorf("lr after Release: %v", err)
	}
	modelfile.Release("nope.qsm") // ignored
}
