package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/service/demo"
)

// TestDataDemo builds a collection from small treebank files laid out as the shared data.
func TestDataDemo(t *testing.T) {
	data := t.TempDir()
	dev, err := os.ReadFile(filepath.Join("..", "..", "internal", "service", "demo", "testdata", "ewt-sample.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	test := []byte("# newdoc id = t1\n# text = Dogs bark.\n1\tDogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n# text = Cats sleep.\n1\tCats\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n")
	ewt := filepath.Join(data, "ud-english", "UD_English-EWT")
	if err := os.MkdirAll(ewt, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"en_ewt-ud-dev.conllu.gz": dev, "en_ewt-ud-test.conllu.gz": test} {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(b)
		zw.Close()
		if err := os.WriteFile(filepath.Join(ewt, name), gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "ewt.jsonl.gz")
	code, stdout, errs := runQSC(t, "data", "demo", "--data", data, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "4 documents, 18 sentences (1 documents of fewer than 2 sentences left out)") {
		t.Errorf("stdout %q", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	docs, err := demo.Read(f, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 4 || docs[3] != (demo.Doc{ID: "t1", Title: "Dogs bark.", Text: "Dogs bark. Cats sleep."}) {
		t.Errorf("documents: %+v", docs)
	}
	if code, _, _ := runQSC(t, "data", "demo", "--data", data, "extra"); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
	if code, _, _ := runQSC(t, "data", "demo", "--data", t.TempDir(), "--out", out); code != 1 {
		t.Errorf("missing treebank: exit %d, want 1", code)
	}
}
