package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/dataset/datasettest"
	"github.com/qsc-nlp/qsc/lm"
)

func TestTrainLM(t *testing.T) {
	data := datasettest.Data(t)
	train := filepath.Join(data, "google-compression", "train.conllu.gz")
	cache := t.TempDir()
	args := []string{"train", "lm", "--train", train, "--cache", cache, "--validation", "-1", "--fallback"}
	code, out, errs := runQSC(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	path, err := lmCachePath(cache, train, 1, -1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "wrote "+path) || !strings.Contains(out, "| 3 |") {
		t.Fatalf("output:\n%s", out)
	}
	m, err := lm.ReadARPAFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The training text is each sentence lowercased without its final token ("."): the
	// model has "people" after "five" and no "." before </s>.
	if m.ID("five") == m.Unk() || m.Cond([]uint32{m.ID("five")}, m.ID("people")) < m.Cond([]uint32{m.ID("five")}, m.ID("crash")) {
		t.Error("the model did not learn the fixture's lowercased sentences")
	}
	if m.ID("Five") != m.Unk() {
		t.Error("the training text is not lowercased")
	}
	if m.ID(".") != m.Unk() {
		t.Error(`"." ends every fixture sentence and should not be in the training text`)
	}
	// Built once: a second run finds the file.
	if code, out, _ := runQSC(t, args...); code != 0 || !strings.Contains(out, "exists") {
		t.Errorf("second run: %d %s", code, out)
	}
	// Another seed or validation size is another file.
	if p2, _ := lmCachePath(cache, train, 2, -1, 3); p2 == path {
		t.Error("the cache path does not depend on the seed")
	}
	out2 := filepath.Join(t.TempDir(), "x.arpa")
	if code, _, errs := runQSC(t, "train", "lm", "--train", train, "--validation", "-1", "--out", out2); code != 1 || !strings.Contains(errs, "cannot estimate") {
		t.Errorf("tiny corpus without --fallback: %d %s", code, errs)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s", out2)
	}
	if code, _, errs := runQSC(t, "train", "lm", "--order", "4"); code != 2 || !strings.Contains(errs, "--order") {
		t.Errorf("bad order: %d %s", code, errs)
	}
}

func TestLoadEvalLM(t *testing.T) {
	data := datasettest.Data(t)
	cache := t.TempDir()
	if _, _, err := loadEvalLM(data, cache, 1); err == nil || !strings.Contains(err.Error(), "run qsc-lab train lm --seed 1") {
		t.Fatalf("missing model: error %v", err)
	}
	train := filepath.Join(data, "google-compression", "train.conllu.gz")
	// The default model (25,000 validation tuples) cannot be trained on the fixture: put
	// a toy model where loadEvalLM looks.
	path, _ := lmCachePath(cache, train, 1, 25000, 3)
	m, err := lm.Train(strings.NewReader("a b\nb a b\n"), lm.Options{DiscountFallback: &[3]float64{0.5, 1, 1.5}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteARPAFile(path); err != nil {
		t.Fatal(err)
	}
	got, p, err := loadEvalLM(data, cache, 1)
	if err != nil || p != path || got.Vocab() != m.Vocab() {
		t.Errorf("loadEvalLM: %v, %s", err, p)
	}
}
