package metrics

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestF1(t *testing.T) {
	for _, c := range []struct {
		name       string
		n          int
		pred, gold []int
		want       float64
	}{
		// tp = {2,3} = 2, fp = {1} = 1, fn = {4} = 1: 2·2/(4+1+1) = 4/6.
		{"overlap", 5, []int{1, 2, 3}, []int{2, 3, 4}, 4.0 / 6},
		// Same sets in another order.
		{"order", 5, []int{3, 1, 2}, []int{4, 3, 2}, 4.0 / 6},
		// tp = 1, fp = 0, fn = 3: P = 1, R = 1/4, F1 = 2·(1/4)/(5/4) = 2/5.
		{"high precision", 4, []int{1}, []int{1, 2, 3, 4}, 0.4},
		// tp = 1, fp = 3, fn = 0: 2/(2+3) = 2/5 (F1 is symmetric in P and R).
		{"high recall", 4, []int{1, 2, 3, 4}, []int{1}, 0.4},
		{"identical", 3, []int{1, 3}, []int{1, 3}, 1},
		// tp = 0: 0/(0+2+1) = 0.
		{"disjoint", 3, []int{1, 2}, []int{3}, 0},
		// Degenerate, as scikit-learn with zero_division=0.
		{"both empty", 3, nil, nil, 0},
		{"pred empty", 3, nil, []int{2}, 0},
		{"gold empty", 3, []int{2}, nil, 0},
		{"empty sentence", 0, nil, nil, 0},
	} {
		got, err := F1(c.n, c.pred, c.gold)
		if err != nil || !near(got, c.want) {
			t.Errorf("%s: F1(%d, %v, %v) = %v, %v; want %v", c.name, c.n, c.pred, c.gold, got, err, c.want)
		}
	}
	for _, c := range []struct {
		n          int
		pred, gold []int
	}{
		{3, []int{0}, nil}, {3, []int{4}, nil}, {3, nil, []int{4}}, {3, []int{1, 1}, nil},
		{3, nil, []int{2, 2}}, {-1, nil, nil},
	} {
		if _, err := F1(c.n, c.pred, c.gold); err == nil {
			t.Errorf("F1(%d, %v, %v): no error", c.n, c.pred, c.gold)
		}
	}
}

func TestCharLenAndCompressionRatio(t *testing.T) {
	forms := []string{"The", "cat", "sat", "on", "the", "mat", "."}
	for _, c := range []struct {
		ids  []int
		want int
	}{
		{nil, 0},
		{[]int{7}, 1},                    // "."
		{[]int{1, 2, 3}, 11},             // "The cat sat": 3+3+3 + 2 spaces
		{[]int{6, 3, 2}, 11},             // "cat sat mat" in any order: 3+3+3 + 2
		{[]int{1, 2, 3, 4, 5, 6, 7}, 24}, // "The cat sat on the mat .": 18 + 6 spaces
	} {
		if got, err := CharLen(forms, c.ids); err != nil || got != c.want {
			t.Errorf("CharLen(%v) = %d, %v; want %d", c.ids, got, err, c.want)
		}
	}
	// Runes, not bytes: "Québec £ 5" is 6+1+1 + 2 = 10 runes (12 bytes).
	if got, err := CharLen([]string{"Québec", "£", "5"}, []int{1, 2, 3}); err != nil || got != 10 {
		t.Errorf("CharLen(Québec £ 5) = %d, %v; want 10", got, err)
	}
	for _, c := range []struct {
		kept []int
		want float64
	}{
		{[]int{2, 3, 6}, 11.0 / 24}, // "cat sat mat" over "The cat sat on the mat ."
		{[]int{7}, 1.0 / 24},
		{nil, 0},
		{[]int{1, 2, 3, 4, 5, 6, 7}, 1},
	} {
		if got, err := CompressionRatio(forms, c.kept); err != nil || !near(got, c.want) {
			t.Errorf("CompressionRatio(%v) = %v, %v; want %v", c.kept, got, err, c.want)
		}
	}
	for _, c := range []struct {
		forms []string
		ids   []int
	}{
		{forms, []int{0}}, {forms, []int{8}}, {forms, []int{2, 2}}, {nil, nil}, {[]string{""}, nil},
	} {
		if _, err := CompressionRatio(c.forms, c.ids); err == nil {
			t.Errorf("CompressionRatio(%q, %v): no error", c.forms, c.ids)
		}
	}
}

func TestMean(t *testing.T) {
	if got, err := Mean([]float64{1, 0.5, 0}); err != nil || got != 0.5 { // 1.5/3
		t.Errorf("Mean = %v, %v; want 0.5", got, err)
	}
	if _, err := Mean(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("Mean(nil): err = %v, want ErrEmpty", err)
	}
}

func ms(xs ...int) []time.Duration {
	out := make([]time.Duration, len(xs))
	for i, x := range xs {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func TestSummarizeLatency(t *testing.T) {
	in := ms(3, 1, 2, 4)
	got, err := SummarizeLatency(in)
	// Sorted 1,2,3,4 ms. Median rank ⌈4/2⌉ = 2 → 2 ms; P99 rank ⌈3.96⌉ = 4 → 4 ms;
	// geometric mean (1·2·3·4)^(1/4) ms = 24^0.25 ms = 2.213363839 ms = 2213364 ns (rounded).
	want := Latency{N: 4, GeoMean: 2213364, Median: 2 * time.Millisecond, P99: 4 * time.Millisecond}
	if err != nil || got != want {
		t.Errorf("SummarizeLatency(%v) = %+v, %v; want %+v", in, got, err, want)
	}
	if !slices.Equal(in, ms(3, 1, 2, 4)) {
		t.Errorf("input modified: %v", in)
	}

	// sqrt(1 s · 4 s) = 2 s; median rank ⌈2/2⌉ = 1 → 1 s; P99 rank ⌈1.98⌉ = 2 → 4 s.
	got, err = SummarizeLatency([]time.Duration{4 * time.Second, time.Second})
	want = Latency{N: 2, GeoMean: 2 * time.Second, Median: time.Second, P99: 4 * time.Second}
	if err != nil || got != want {
		t.Errorf("SummarizeLatency(1s, 4s) = %+v, %v; want %+v", got, err, want)
	}

	// 1..100 ms: median rank 50 → 50 ms, P99 rank 99 → 99 ms.
	// 1..101 ms: median rank 51 → 51 ms, P99 rank ⌈99.99⌉ = 100 → 100 ms.
	for _, c := range []struct{ n, med, p99 int }{{100, 50, 99}, {101, 51, 100}, {1, 1, 1}} {
		var ds []time.Duration
		for i := c.n; i >= 1; i-- {
			ds = append(ds, time.Duration(i)*time.Millisecond)
		}
		got, err := SummarizeLatency(ds)
		if err != nil || got.N != c.n || got.Median != time.Duration(c.med)*time.Millisecond ||
			got.P99 != time.Duration(c.p99)*time.Millisecond {
			t.Errorf("1..%d ms: %+v, %v; want median %d ms, p99 %d ms", c.n, got, err, c.med, c.p99)
		}
	}

	// A zero observation makes the geometric mean 0 (log 0 = −∞).
	got, err = SummarizeLatency(ms(0, 5))
	want = Latency{N: 2, GeoMean: 0, Median: 0, P99: 5 * time.Millisecond}
	if err != nil || got != want {
		t.Errorf("SummarizeLatency(0, 5ms) = %+v, %v; want %+v", got, err, want)
	}

	if got, err := SummarizeLatency(nil); !errors.Is(err, ErrEmpty) || got != (Latency{}) {
		t.Errorf("SummarizeLatency(nil) = %+v, %v; want zero value and ErrEmpty", got, err)
	}
	if _, err := SummarizeLatency([]time.Duration{time.Second, -1}); err == nil {
		t.Error("negative duration: no error")
	}
}

func TestPairedBootstrap(t *testing.T) {
	// Differences d = [3, −1]: δ = 1. A resample of 2 indices has δ* = 3 (both 0, prob 1/4),
	// 1 (one of each, 1/2) or −1 (both 1, 1/4); δ* > 2δ = 2 only for the first, so p = 1/4.
	// With 10,000 samples the standard error is √(0.25·0.75/10⁴) ≈ 0.0043.
	a, b := []float64{3, 0}, []float64{0, 1}
	r1, err := PairedBootstrap(a, b, 0, 7)
	if err != nil || r1.Delta != 1 || r1.Samples != DefaultSamples || math.Abs(r1.P-0.25) > 0.02 {
		t.Errorf("d=[3,-1]: %+v, %v; want δ=1, p≈0.25, %d samples", r1, err, DefaultSamples)
	}
	r2, _ := PairedBootstrap(a, b, 0, 7)
	if r1 != r2 {
		t.Errorf("same seed, different results: %+v vs %+v", r1, r2)
	}
	if r3, _ := PairedBootstrap(a, b, 0, 8); r3 == r1 {
		t.Errorf("seeds 7 and 8 gave the same result %+v", r3)
	}

	// A clearly better: d = 0.1 on 90 sentences, −0.1 on 10, so δ = (9 − 1)/100 = 0.08.
	// δ* ≤ max d = 0.1 < 2δ = 0.16 for every resample, so p = 0 exactly.
	a, b = make([]float64, 100), make([]float64, 100)
	for i := range a {
		a[i], b[i] = 0.9, 0.8
		if i%10 == 0 {
			a[i], b[i] = 0.7, 0.8
		}
	}
	r, err := PairedBootstrap(a, b, 1000, 1)
	if err != nil || !near(r.Delta, 0.08) || r.P != 0 || r.Samples != 1000 {
		t.Errorf("clearly better: %+v, %v; want δ=0.08, p=0", r, err)
	}

	// Identical systems: δ = 0, p = 1 by definition; B better than A: p = 1 too.
	if r, err := PairedBootstrap(a, a, 0, 1); err != nil || r != (Bootstrap{Delta: 0, P: 1}) {
		t.Errorf("identical: %+v, %v; want δ=0, p=1", r, err)
	}
	if r, err := PairedBootstrap(b, a, 0, 1); err != nil || r.P != 1 || !near(r.Delta, -0.08) {
		t.Errorf("B better: %+v, %v; want δ=-0.08, p=1", r, err)
	}

	for _, c := range []struct {
		a, b    []float64
		samples int
	}{
		{[]float64{1}, []float64{1, 2}, 0}, {nil, nil, 0}, {[]float64{1}, []float64{0}, -1},
		{[]float64{math.NaN()}, []float64{0}, 0}, {[]float64{1}, []float64{math.Inf(-1)}, 0},
	} {
		if _, err := PairedBootstrap(c.a, c.b, c.samples, 1); err == nil {
			t.Errorf("PairedBootstrap(%v, %v, %d): no error", c.a, c.b, c.samples)
		}
	}
}

// TestPairedSE checks the standard error of a paired difference against a hand value.
func TestPairedSE(t *testing.T) {
	// Differences 1, 2, 3, 4: mean 2.5, sample variance 5/3, SE sqrt(5/3/4).
	got := PairedSE([]float64{1, 3, 5, 7}, []float64{0, 1, 2, 3})
	if want := math.Sqrt(5.0 / 3 / 4); math.Abs(got-want) > 1e-12 {
		t.Errorf("PairedSE = %v, want %v", got, want)
	}
	if got := PairedSE([]float64{1}, []float64{0}); got != 0 {
		t.Errorf("one pair: %v, want 0", got)
	}
	if got := PairedSE([]float64{1, 2}, []float64{0}); got != 0 {
		t.Errorf("unequal lengths: %v, want 0", got)
	}
}
