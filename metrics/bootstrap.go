package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// DefaultSamples is the number of bootstrap samples PairedBootstrap draws when asked for 0,
// as in Handler & O'Connor (2019).
const DefaultSamples = 10000

// Bootstrap is the result of a paired bootstrap test.
type Bootstrap struct {
	// Delta is the observed difference δ = mean(A) − mean(B), computed as the mean of the
	// paired differences A[i] − B[i].
	Delta float64
	// P is the one-sided p-value for "A is better than B": the fraction of bootstrap
	// samples whose difference δ* exceeds 2δ. It is 1 by definition when δ ≤ 0.
	P float64
	// Samples is the number of bootstrap samples drawn (0 when δ ≤ 0: none are needed).
	Samples int
}

// PairedBootstrap tests whether system A scores higher than system B on the same
// sentences, by the paired bootstrap of Berg-Kirkpatrick, Burkett and Klein (2012) as used
// by Handler & O'Connor (2019). a[i] and b[i] are the scores of the two systems on sentence
// i (for instance per-sentence F1).
//
// With δ = mean(a) − mean(b) > 0, each of the samples draws len(a) sentence indices
// uniformly with replacement and computes δ* = mean(a*) − mean(b*) over them; P is the
// fraction of samples with δ* > 2δ (strictly). Because the bootstrap distribution of δ* is
// centred near δ, this estimates how often a difference of δ would arise if the true
// difference were 0. When δ ≤ 0 A is not better than B and P is 1 without resampling (this
// also covers identical systems, where every δ* would be 0); swap a and b to test the other
// direction. The authors' code asserts δ ≥ 0 instead.
//
// samples = 0 means DefaultSamples. The resampling uses a PCG generator seeded with seed,
// so the result is deterministic. Slices of unequal length, empty slices, a negative
// samples and NaN or infinite scores are errors.
func PairedBootstrap(a, b []float64, samples int, seed uint64) (Bootstrap, error) {
	switch {
	case len(a) != len(b):
		return Bootstrap{}, fmt.Errorf("metrics: bootstrap: %d scores for A but %d for B", len(a), len(b))
	case len(a) == 0:
		return Bootstrap{}, fmt.Errorf("metrics: bootstrap: %w", ErrEmpty)
	case samples < 0:
		return Bootstrap{}, errors.New("metrics: bootstrap: negative number of samples")
	case samples == 0:
		samples = DefaultSamples
	}
	n := len(a)
	d := make([]float64, n)
	sum := 0.0
	for i := range a {
		d[i] = a[i] - b[i]
		if math.IsNaN(d[i]) || math.IsInf(d[i], 0) {
			return Bootstrap{}, fmt.Errorf("metrics: bootstrap: sentence %d: score %v vs %v is not finite", i, a[i], b[i])
		}
		sum += d[i]
	}
	delta := sum / float64(n)
	if delta <= 0 {
		return Bootstrap{Delta: delta, P: 1}, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x626f6f7473747270)) // "bootstrp"
	exceed := 0
	for range samples {
		s := 0.0
		for range n {
			s += d[rng.IntN(n)]
		}
		if s/float64(n) > 2*delta {
			exceed++
		}
	}
	return Bootstrap{Delta: delta, P: float64(exceed) / float64(samples), Samples: samples}, nil
}

// PairedSE returns the standard error of the mean of the paired differences a[i] − b[i]
// (sample standard deviation over √n), for instance of a method's per-sentence compression
// ratio against the gold's. It returns 0 for fewer than two pairs or slices of unequal
// length.
func PairedSE(a, b []float64) float64 {
	n := len(a)
	if n < 2 || len(b) != n {
		return 0
	}
	var sum, sq float64
	for i := range a {
		sum += a[i] - b[i]
	}
	mean := sum / float64(n)
	for i := range a {
		d := a[i] - b[i] - mean
		sq += d * d
	}
	return math.Sqrt(sq / float64(n-1) / float64(n))
}
