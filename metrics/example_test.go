package metrics_test

import (
	"fmt"
	"time"

	"github.com/qsc-nlp/qsc/metrics"
)

func Example() {
	forms := []string{"The", "cat", "sat", "on", "the", "mat", "."}
	gold := []int{2, 3, 6}    // "cat sat mat"
	pred := []int{1, 2, 3, 6} // "The cat sat mat"

	f1, _ := metrics.F1(len(forms), pred, gold)
	cr, _ := metrics.CompressionRatio(forms, pred)
	fmt.Printf("F1 %.3f, compression ratio %.3f\n", f1, cr)

	lat, _ := metrics.SummarizeLatency([]time.Duration{2 * time.Millisecond, 8 * time.Millisecond, 4 * time.Millisecond})
	fmt.Printf("latency: n=%d geomean=%v median=%v p99=%v\n", lat.N, lat.GeoMean, lat.Median, lat.P99)

	// Per-sentence F1 of two systems on the same five sentences.
	a := []float64{0.9, 0.8, 1.0, 0.7, 0.9}
	b := []float64{0.6, 0.5, 0.8, 0.4, 0.7}
	bs, _ := metrics.PairedBootstrap(a, b, 0, 1)
	fmt.Printf("delta %.2f, p %.4f over %d samples\n", bs.Delta, bs.P, bs.Samples)
	// Output:
	// F1 0.857, compression ratio 0.625
	// latency: n=3 geomean=4ms median=4ms p99=8ms
	// delta 0.26, p 0.0000 over 10000 samples
}
