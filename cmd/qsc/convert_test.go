package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/tagger"
)

// TestConvert rewrites a tagger file of format version 1 as the newest version, which
// loads and tags alike; a kind without a newer format, a file that is not a model and a
// missing argument are errors.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("..", "..", "tagger", "testdata", "format-v1.qsm")
	out := filepath.Join(dir, "v3.qsm")
	code, stdout, stderr := runQSC(t, "convert", in, out)
	if code != 0 || !strings.Contains(stdout, "format version 1") || !strings.Contains(stdout, "format version 3") {
		t.Fatalf("convert: %d %q %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if kind, v, err := modelfile.Header(data); err != nil || kind != tagger.Kind || v != tagger.Version {
		t.Fatalf("converted file: %s version %d (%v)", kind, v, err)
	}
	old, _ := os.ReadFile(in)
	m1, err1 := tagger.Load(old)
	m3, err3 := tagger.Load(data)
	if err1 != nil || err3 != nil || m1.NumFeatures() != m3.NumFeatures() {
		t.Fatalf("loaded: %v %v", err1, err3)
	}
	lr := filepath.Join(dir, "lr.qsm")
	os.WriteFile(lr, []byte(mustEncode(t, "va-lr")), 0o644)
	if code, _, stderr := runQSC(t, "convert", lr, filepath.Join(dir, "x.qsm")); code != 1 || !strings.Contains(stderr, "no newer format") {
		t.Errorf("lr file: %d %q", code, stderr)
	}
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("hello"), 0o644)
	if code, _, stderr := runQSC(t, "convert", junk, filepath.Join(dir, "y.qsm")); code != 1 || !strings.Contains(stderr, "not a qsc model file") {
		t.Errorf("junk: %d %q", code, stderr)
	}
	if code, _, stderr := runQSC(t, "convert", in); code != 2 || !strings.Contains(stderr, "want an input and an output") {
		t.Errorf("one argument: %d %q", code, stderr)
	}
}

// mustEncode returns a model file of the given kind with an empty payload.
func mustEncode(t *testing.T, kind string) string {
	b, err := modelfile.Encode(kind, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
