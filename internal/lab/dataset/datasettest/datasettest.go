// Package datasettest makes data directories for the tests of the commands that read the
// Google compression corpus.
package datasettest

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Data returns a new temporary data directory that holds the dataset fixture
// (internal/lab/dataset/testdata/fixture.conllu) as both the Google train and test files.
func Data(t testing.TB) string {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("datasettest: no source path")
	}
	src, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "testdata", "fixture.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	g := filepath.Join(dir, "google-compression")
	if err := os.MkdirAll(g, 0o755); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(src)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"train.conllu.gz", "test.conllu.gz"} {
		if err := os.WriteFile(filepath.Join(g, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
