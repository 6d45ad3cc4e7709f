package modelfile

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"
)

func TestSparseAndHashes(t *testing.T) {
	w := []float32{0, 1.5, 0, 0, -2, 0, 0, 0, 0, 3}
	hs := []uint64{3, 10, 1 << 40, math.MaxUint64}
	b := AppendHashes(AppendSparse(nil, w), hs)
	r := bytes.NewReader(b)
	got := make([]float32, len(w))
	if err := ReadSparse(r, got); err != nil || !slices.Equal(got, w) {
		t.Fatalf("ReadSparse = %v, %v", got, err)
	}
	gh, err := ReadHashes(r)
	if err != nil || !slices.Equal(gh, hs) || r.Len() != 0 {
		t.Fatalf("ReadHashes = %v, %v (%d left)", gh, err, r.Len())
	}
	// every truncation, a too small dimension, a NaN weight, a repeated hash
	for cut := range len(b) {
		r := bytes.NewReader(b[:cut])
		err := ReadSparse(r, make([]float32, len(w)))
		if err == nil {
			_, err = ReadHashes(r)
		}
		if !errors.Is(err, ErrPayload) {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
	if err := ReadSparse(bytes.NewReader(b), make([]float32, 5)); !errors.Is(err, ErrPayload) {
		t.Errorf("small dimension: %v", err)
	}
	nan := AppendSparse(nil, []float32{float32(math.NaN())})
	if err := ReadSparse(bytes.NewReader(nan), make([]float32, 1)); !errors.Is(err, ErrPayload) {
		t.Errorf("NaN weight: %v", err)
	}
	dup := AppendHashes(nil, []uint64{5, 5})
	if _, err := ReadHashes(bytes.NewReader(dup)); !errors.Is(err, ErrPayload) {
		t.Errorf("repeated hash: %v", err)
	}
}

// TestBF16 round-trips weights through AppendWeights at bfloat16 precision: each comes
// back rounded to bfloat16, weights that round to zero are not stored, and corrupt
// payloads give errors.
func TestBF16(t *testing.T) {
	w := []float32{0, 1.5, 0, 1e-44, -2.00390625, 0, 0, 0, 0, 3.14159, 1 << 20}
	hs := []uint64{7, 1 << 50}
	b := AppendWeights(nil, w, hs, BFloat16)
	got := make([]float32, len(w))
	gh, err := ReadWeights(bytes.NewReader(b), got, BFloat16)
	if err != nil || !slices.Equal(gh, hs) {
		t.Fatalf("ReadWeights = %v, %v", gh, err)
	}
	for i, v := range w {
		if want := RoundBF16(v); got[i] != want {
			t.Errorf("weight %d: %g, want %g", i, got[i], want)
		}
	}
	if got[3] != 0 || got[4] != -2 || got[9] != 3.140625 {
		t.Errorf("rounded weights %v", got)
	}
	// 2 bytes of bitmap, 4 weights of 2 bytes (1e-44 rounds to zero), the vocabulary.
	if n := 2 + 4*2 + len(AppendHashes(nil, hs)); len(b) != n {
		t.Errorf("%d bytes, want %d", len(b), n)
	}
	bad := slices.Clone(b)
	bad[1] |= 0x80 // bit 15, past the dimension 11
	if _, err := ReadWeights(bytes.NewReader(bad), got, BFloat16); !errors.Is(err, ErrPayload) {
		t.Errorf("bit past the dimension: %v", err)
	}
	for n := range len(b) {
		if _, err := ReadWeights(bytes.NewReader(b[:n]), make([]float32, len(w)), BFloat16); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	nan := AppendBF16(nil, []float32{float32(math.Inf(1))})
	if err := ReadBF16(bytes.NewReader(nan), make([]float32, 1)); !errors.Is(err, ErrPayload) {
		t.Errorf("infinite weight: %v", err)
	}
}
