package lr

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/parser"
)

// benchFile returns the model file of $env or the file at path (relative to this
// package), or skips.
func benchFile(tb testing.TB, env, path string) []byte {
	tb.Helper()
	if p := os.Getenv(env); p != "" {
		path = p
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Skipf("model file %s not available (set %s): %v", path, env, err)
	}
	return data
}

// testInputs parses the Google test tuples with the parser model (internal/core/pipeline/en-ewt-parser-v3.qsm
// or $QSC_PARSER), keeping the corpus's tags, as the parse cache does.
func testInputs(tb testing.TB) []method.Input {
	tb.Helper()
	path := shared.Require(tb, shared.GoogleTest)
	pm, err := parser.Load(benchFile(tb, "QSC_PARSER", filepath.Join("..", "..", "internal", "core", "pipeline", "en-ewt-parser-v3.qsm")))
	if err != nil {
		tb.Skipf("parser model: %v", err)
	}
	d, err := dataset.Load(path, dataset.Test, dataset.Options{Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	p := pm.NewParser()
	ins := make([]method.Input, 0, len(d.Tuples))
	for _, t := range d.Tuples {
		if err := p.Parse(t.Sentence); err != nil {
			tb.Fatal(err)
		}
		tree, err := method.TreeOf(t.Sentence)
		if err != nil {
			tb.Fatal(err)
		}
		ins = append(ins, method.Input{Sentence: t.Sentence, Tree: tree, Query: t.Query, Budget: t.Budget, Gold: t.Gold})
	}
	return ins
}

// BenchmarkCompressLR times the VA_LR compression of pre-parsed test sentences (features,
// model and engine; the parse and the tree are given), cycling through the test set.
// ns/op is the arithmetic mean; geomean-µs/sent is the geometric mean of per-sentence
// times over one pass, the paper's summary (4.1 ms for the authors' implementation).
func BenchmarkCompressLR(b *testing.B) {
	benchMethod(b, "QSC_VA_LR", FileName)
}

// BenchmarkCompressAblated is BenchmarkCompressLR for ABLATED.
func BenchmarkCompressAblated(b *testing.B) {
	benchMethod(b, "QSC_VA_ABLATED", filepath.Join("..", "ablated", "va-ablated-v5.qsm"))
}

func benchMethod(b *testing.B, env, file string) {
	m, err := Load(benchFile(b, env, file))
	if err != nil {
		b.Fatal(err)
	}
	ins := testInputs(b)
	var c method.Compressor
	// warm up the buffers, then time every sentence once for the geometric mean
	for _, in := range ins {
		if _, err := c.Compress(m, in); err != nil {
			b.Fatal(err)
		}
	}
	ds := make([]time.Duration, len(ins))
	for i, in := range ins {
		t0 := time.Now()
		c.Compress(m, in)
		ds[i] = time.Since(t0)
	}
	lat, err := metrics.SummarizeLatency(ds)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.Compress(m, ins[i])
		if i++; i == len(ins) {
			i = 0
		}
	}
	b.ReportMetric(float64(lat.GeoMean.Nanoseconds())/1e3, "geomean-µs/sent")
	b.ReportMetric(float64(lat.P99.Nanoseconds())/1e3, "p99-µs/sent")
}
