package metrics

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Latency summarizes per-sentence compression times.
type Latency struct {
	// N is the number of observations.
	N int
	// GeoMean is the geometric mean exp(mean(log t)), the figure Handler & O'Connor
	// report (their times are log-normal). It is 0 when any observation is 0.
	GeoMean time.Duration
	// Median is the nearest-rank 50th percentile: the ⌈N/2⌉-th smallest observation, so
	// the lower of the two middle values when N is even.
	Median time.Duration
	// P99 is the nearest-rank 99th percentile: the ⌈0.99·N⌉-th smallest observation.
	P99 time.Duration
}

// SummarizeLatency returns the Latency summary of ds, which it does not modify. Quantiles
// use the nearest-rank method: the p-quantile is the ⌈p·N⌉-th smallest value, always an
// observed time. Empty input returns the zero Latency and an error wrapping ErrEmpty; a
// negative duration is an error.
func SummarizeLatency(ds []time.Duration) (Latency, error) {
	n := len(ds)
	if n == 0 {
		return Latency{}, fmt.Errorf("metrics: latency: %w", ErrEmpty)
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	if sorted[0] < 0 {
		return Latency{}, fmt.Errorf("metrics: latency: negative duration %v", sorted[0])
	}
	var geo time.Duration
	if sorted[0] > 0 {
		logSum := 0.0
		for _, d := range sorted {
			logSum += math.Log(float64(d))
		}
		geo = time.Duration(math.Round(math.Exp(logSum / float64(n))))
	}
	// Ranks in integer arithmetic: ⌈N/2⌉ and ⌈99N/100⌉, 1-based.
	return Latency{
		N:       n,
		GeoMean: geo,
		Median:  sorted[(n+1)/2-1],
		P99:     sorted[(99*n+99)/100-1],
	}, nil
}
