package main

import (
	"cmp"
	"encoding"
	"fmt"
	"io"
	"time"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/atomicfile"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/syntax"
)

// readTreebank reads the sentences of a CoNLL-U file (plain or gzip); a file without
// sentences is an error.
func readTreebank(path string) ([]*syntax.Sentence, error) {
	cs, err := conllu.ReadAll(path)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%s: no sentences", path)
	}
	out := make([]*syntax.Sentence, len(cs))
	for i, c := range cs {
		out[i] = syntax.FromCoNLLU(c)
	}
	return out, nil
}

// readTrainDev reads the training treebank of train tagger and train parser, and their
// dev treebank unless devPath is empty (then dev is nil), with readTreebank.
func readTrainDev(trainPath, devPath string) (train, dev []*syntax.Sentence, err error) {
	if train, err = readTreebank(trainPath); err != nil {
		return nil, nil, err
	}
	if devPath != "" {
		if dev, err = readTreebank(devPath); err != nil {
			return nil, nil, err
		}
	}
	return train, dev, nil
}

// wordClusters are the word clusters of the tagger or the parser, as learnClusters
// reports them.
type wordClusters interface {
	Len() int
	NumClusters() (fine, coarse int)
}

// learnClusters learns word clusters from the CoNLL-U file at path with learn (the
// tagger's or the parser's LearnClustersFile) and its default options, and writes to w a
// line that starts with label and says their size, the file and the time taken. An empty
// path learns nothing and returns the zero C (nil clusters: the model is trained
// without).
func learnClusters[C wordClusters, O any](path string, learn func(string, O) (C, error), w io.Writer, label string) (C, error) {
	var none C
	if path == "" {
		return none, nil
	}
	t0 := time.Now()
	var defaults O
	c, err := learn(path, defaults)
	if err != nil {
		return none, err
	}
	f, k := c.NumClusters()
	fmt.Fprintf(w, "%s: %d words, %d fine, %d coarse from %s in %s\n", label, c.Len(), f, k, path, time.Since(t0).Round(time.Millisecond))
	return c, nil
}

// loadModel loads the model file at path, or the embedded model name when path is
// empty, with load (the tagger's or the parser's Load); an error of load names the file.
func loadModel[M any](path, name string, load func([]byte) (M, error)) (M, error) {
	var none M
	data, err := cli.ModelBytes(path, name)
	if err != nil {
		return none, err
	}
	m, err := load(data)
	if err != nil {
		return none, fmt.Errorf("%s: %w", cmp.Or(path, name), err)
	}
	return m, nil
}

// writeModel writes the binary form of a trained model to path atomically (a reader sees
// the old file or the whole new one) and returns its size in bytes.
func writeModel(path string, m encoding.BinaryMarshaler) (int, error) {
	data, err := m.MarshalBinary()
	if err != nil {
		return 0, err
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return 0, err
	}
	return len(data), nil
}
