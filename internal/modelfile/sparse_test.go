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
