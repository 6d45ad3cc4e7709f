// Package evaluate runs the paper's test-set evaluation: it loads the parsed test tuples,
// scores each compression method (token F1, compression ratio) and measures latency as the
// geometric mean over sampled compressions. `qsc-lab eval` and `qsc bench` share it.
package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"time"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/syntax"
)

// Test holds the test tuples, parsed, as model inputs.
type Test struct {
	Variant parsecache.Variant
	Tuples  []*dataset.Tuple
	Inputs  []method.Input
}

// LoadTest parses the Google test file with p into the cache (or finds it there) and
// returns its tuples with seed (suspect sentences are left out by package dataset). The
// tuples (Q, b, C_g) always come from the corpus's own tags, so that every variant
// evaluates the same problems; variant v decides only the tags and trees of S.
func LoadTest(ctx context.Context, dataDir, cacheDir string, p *pipeline.Pipeline, v parsecache.Variant, seed uint64) (*Test, error) {
	ensure := func(v parsecache.Variant) (string, error) {
		res, err := parsecache.Ensure(ctx, cacheDir, filepath.Join(dataDir, shared.GoogleTest), p, v, false, 0)
		return res.Path, err
	}
	path, err := ensure(parsecache.Given)
	if err != nil {
		return nil, err
	}
	d, err := dataset.Load(path, dataset.Test, dataset.Options{Seed: seed})
	if err != nil {
		return nil, err
	}
	sents := map[string]*syntax.Sentence{}
	if v != parsecache.Given {
		path, err := ensure(v)
		if err != nil {
			return nil, err
		}
		all, err := conllu.ReadAll(path)
		if err != nil {
			return nil, err
		}
		for _, cs := range all {
			id, _ := cs.Meta("sent_id")
			sents[id] = syntax.FromCoNLLU(cs)
		}
	}
	tuples := d.Tuples
	if v != parsecache.Given {
		tuples = make([]*dataset.Tuple, len(d.Tuples))
		for i, tu := range d.Tuples {
			s := sents[tu.ID]
			if s == nil {
				return nil, fmt.Errorf("test sentence %s: missing from the %s parse", tu.ID, v.Name)
			}
			cp := *tu
			cp.Sentence = s
			tuples[i] = &cp
		}
	}
	inputs, err := Inputs(tuples)
	if err != nil {
		return nil, err
	}
	return &Test{Variant: v, Tuples: d.Tuples, Inputs: inputs}, nil
}

// ErrUnparsed is returned by Inputs for a tuple whose sentence has no tree.
var ErrUnparsed = errors.New("sentence is not parsed (run qsc-lab data parse)")

// Inputs turns parsed tuples into model inputs, building each sentence's tree.
func Inputs(ts []*dataset.Tuple) ([]method.Input, error) {
	ins := make([]method.Input, len(ts))
	for i, t := range ts {
		for _, tok := range t.Sentence.Tokens {
			if tok.Head == syntax.NoHead {
				return nil, fmt.Errorf("sentence %s: %w", t.ID, ErrUnparsed)
			}
		}
		tree, err := syntax.NewTree(t.Sentence.Heads())
		if err != nil {
			return nil, fmt.Errorf("sentence %s: %w", t.ID, err)
		}
		ins[i] = method.Input{Sentence: t.Sentence, Tree: tree, Query: t.Query, Budget: t.Budget, Gold: t.Gold}
	}
	return ins, nil
}

// Row is the evaluation of one method on one variant of the test set.
type Row struct {
	Method  string          `json:"method"`
	Tags    string          `json:"xpos"` // parsecache variant name
	N       int             `json:"sentences"`
	F1      float64         `json:"f1"`
	CR      float64         `json:"cr"`
	Latency metrics.Latency `json:"latency"`
	// PerF1 and PerCR are the per-sentence F1 and compression ratio, and Kept the
	// compressions, in tuple order, for SLOR and significance tests.
	PerF1 []float64 `json:"-"`
	PerCR []float64 `json:"-"`
	Kept  [][]int   `json:"-"`
	// Samples are the times of the sampled compressions (nil when not measured).
	Samples []time.Duration `json:"-"`
}

// Score evaluates m on t: F1 and CR over all tuples (in parallel), and latency over
// samples compressions (0 to skip) drawn uniformly with replacement with seed, timed one
// at a time on one goroutine.
func Score(m method.Method, t *Test, samples int, seed uint64) (Row, error) {
	ev, err := Evaluate(m, t.Inputs, runtime.GOMAXPROCS(0))
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", m.Name(), err)
	}
	row := Row{Method: m.Name(), Tags: t.Variant.Name, N: ev.N, F1: ev.F1, CR: ev.CR, PerF1: ev.PerF1, PerCR: ev.PerCR, Kept: ev.Kept}
	if samples > 0 {
		if row.Samples, err = latencySamples(m, method.Paper, t.Inputs, samples, seed, nil); err != nil {
			return Row{}, err
		}
		if row.Latency, err = metrics.SummarizeLatency(row.Samples); err != nil {
			return Row{}, err
		}
	}
	return row, nil
}

// LatencyWith compresses samples inputs drawn uniformly with replacement (seeded) with m
// under dec, one at a time on one goroutine, and summarizes the time of each compression.
// With p == nil the inputs are pre-parsed and only the compression is timed; otherwise
// every timed call also tags and parses the sentence from its forms (a copy), as a
// raw-token request would. It fails for no inputs.
func LatencyWith(m method.Method, dec method.Decoding, inputs []method.Input, samples int, seed uint64, p *pipeline.Pipeline) (metrics.Latency, error) {
	ds, err := latencySamples(m, dec, inputs, samples, seed, p)
	if err != nil {
		return metrics.Latency{}, err
	}
	return metrics.SummarizeLatency(ds)
}

// latencySamples returns the time of each compression that LatencyWith summarizes.
func latencySamples(m method.Method, dec method.Decoding, inputs []method.Input, samples int, seed uint64, p *pipeline.Pipeline) ([]time.Duration, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("no inputs")
	}
	rng := rand.New(rand.NewPCG(seed, 0x1a7e))
	ds := make([]time.Duration, samples)
	c := method.Compressor{Decoding: dec}
	var w *pipeline.Worker
	var scratch syntax.Sentence
	var tree syntax.Tree
	if p != nil {
		w = p.NewWorker()
	}
	bar := progress.New("latency "+m.Name()+" "+dec.String(), samples)
	for i := range ds {
		in := inputs[rng.IntN(len(inputs))]
		if p == nil {
			start := time.Now()
			_, err := c.Compress(m, in)
			ds[i] = time.Since(start)
			if err != nil {
				return nil, err
			}
		} else {
			scratch.Tokens = append(scratch.Tokens[:0], in.Sentence.Tokens...)
			for j := range scratch.Tokens {
				scratch.Tokens[j].Head, scratch.Tokens[j].Rel = syntax.NoHead, ""
			}
			start := time.Now()
			err := w.Sentence(&scratch, pipeline.Options{})
			if err == nil {
				err = tree.Reset(scratch.Heads())
			}
			if err == nil {
				pin := in
				pin.Sentence, pin.Tree = &scratch, &tree
				_, err = c.Compress(m, pin)
			}
			ds[i] = time.Since(start)
			if err != nil {
				return nil, err
			}
		}
		if i%1024 == 0 {
			bar.Add(1024)
		}
	}
	bar.Done()
	return ds, nil
}

// Micros formats d in microseconds with one decimal, as the latency tables print it.
func Micros(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/1e3) }
