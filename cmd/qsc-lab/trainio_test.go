package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/parser"
	"github.com/qsc-nlp/qsc/tagger"
)

// TestReadTrainDev reads the tagger fixture as train and dev, and without dev; a file
// without sentences is an error that names it.
func TestReadTrainDev(t *testing.T) {
	fixture := filepath.Join("..", "..", "tagger", "testdata", "ewt-sample.conllu")
	train, dev, err := readTrainDev(fixture, fixture)
	if err != nil || len(train) == 0 || len(dev) != len(train) {
		t.Fatalf("train and dev: %d and %d sentences, %v", len(train), len(dev), err)
	}
	if train, dev, err = readTrainDev(fixture, ""); err != nil || len(train) == 0 || dev != nil {
		t.Fatalf("no dev: %d and %d sentences, %v", len(train), len(dev), err)
	}
	empty := filepath.Join(t.TempDir(), "empty.conllu")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readTrainDev(fixture, empty); err == nil || !strings.Contains(err.Error(), "empty.conllu: no sentences") {
		t.Errorf("empty dev file: %v", err)
	}
}

// fakeClusters stands for the tagger's or the parser's clusters.
type fakeClusters struct{}

func (*fakeClusters) Len() int                        { return 7 }
func (*fakeClusters) NumClusters() (fine, coarse int) { return 3, 2 }

// TestLearnClusters checks that learnClusters learns nothing without a path, reports what
// it learnt under its label, and passes an error on.
func TestLearnClusters(t *testing.T) {
	calls := 0
	learn := func(path string, _ struct{}) (*fakeClusters, error) {
		calls++
		if path == "bad" {
			return nil, errors.New("unreadable")
		}
		return &fakeClusters{}, nil
	}
	var w bytes.Buffer
	if c, err := learnClusters("", learn, &w, "clusters"); c != nil || err != nil || calls != 0 || w.Len() != 0 {
		t.Errorf("no path: %v, %v, %d calls, wrote %q", c, err, calls, w.String())
	}
	if c, err := learnClusters("words.conllu", learn, &w, "word clusters"); c == nil || err != nil ||
		!strings.HasPrefix(w.String(), "word clusters: 7 words, 3 fine, 2 coarse from words.conllu in ") {
		t.Errorf("a path: %v, %v, wrote %q", c, err, w.String())
	}
	if _, err := learnClusters("bad", learn, io.Discard, "clusters"); err == nil || err.Error() != "unreadable" {
		t.Errorf("an error of learn: %v", err)
	}
}

// TestLoadModel loads the embedded tagger and parser, and names a file that is no model.
func TestLoadModel(t *testing.T) {
	if _, err := loadModel("", pipeline.TaggerName, tagger.Load); err != nil {
		t.Errorf("embedded tagger: %v", err)
	}
	if _, err := loadModel("", pipeline.ParserName, parser.Load); err != nil {
		t.Errorf("embedded parser: %v", err)
	}
	bad := filepath.Join("..", "..", "tagger", "testdata", "ewt-sample.conllu")
	if _, err := loadModel(bad, pipeline.TaggerName, tagger.Load); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("a CoNLL-U file as the model: %v, want an error naming it", err)
	}
	if _, err := loadModel(filepath.Join(t.TempDir(), "none.qsm"), pipeline.ParserName, parser.Load); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// marshaler is a model whose binary form is fixed, or fails.
type marshaler struct {
	data []byte
	err  error
}

func (m marshaler) MarshalBinary() ([]byte, error) { return m.data, m.err }

// TestWriteModel checks that writeModel writes the model's bytes and returns their
// number, and writes nothing when the model cannot be marshalled.
func TestWriteModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "m.qsm")
	n, err := writeModel(path, marshaler{data: []byte("model")})
	if got, rerr := os.ReadFile(path); err != nil || n != 5 || rerr != nil || string(got) != "model" {
		t.Fatalf("wrote %d bytes, %v; file %q, %v", n, err, got, rerr)
	}
	other := filepath.Join(filepath.Dir(path), "other.qsm")
	if _, err := writeModel(other, marshaler{err: errors.New("cannot")}); err == nil {
		t.Error("a failing marshal: no error")
	}
	if _, err := os.Stat(other); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failing marshal left a file: %v", err)
	}
}

// TestTupleFlags checks the defaults and usages that addTupleFlags gives the trainers.
func TestTupleFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f := addTupleFlags(fs, tupleSpec{seed: "the seed"})
	if err := fs.Parse([]string{"--train", "x.conllu", "--seed", "7", "--train-n", "3"}); err != nil {
		t.Fatal(err)
	}
	if *f.train != "x.conllu" || *f.seed != 7 || *f.trainN != 3 || *f.validN != 0 || f.sample {
		t.Errorf("parsed %q %d %d %d %v", *f.train, *f.seed, *f.trainN, *f.validN, f.sample)
	}
	if u := fs.Lookup("valid-n").Usage; u != "use only the first N validation tuples (0: all)" {
		t.Errorf("--valid-n usage %q", u)
	}
	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	f = addTupleFlags(fs, tupleSpec{seed: "the seed", sample: true, validN: 20, validUsage: "validate on N"})
	if *f.validN != 20 || !f.sample || fs.Lookup("valid-n").Usage != "validate on N" || fs.Lookup("seed").Usage != "the seed" ||
		!strings.Contains(fs.Lookup("train-n").Usage, "random sample") {
		t.Errorf("sampling trainer: valid-n %d, sample %v, usages %q %q", *f.validN, f.sample, fs.Lookup("valid-n").Usage, fs.Lookup("train-n").Usage)
	}
}
