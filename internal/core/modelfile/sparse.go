package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// ErrPayload is wrapped by the errors of ReadSparse and ReadHashes for a malformed
// payload.
var ErrPayload = errors.New("malformed payload")

// AppendSparse appends the non-zero entries of the weight vector w to b: their count as a
// little-endian uint64, then, in ascending index order, each entry's index as the uvarint
// gap from the previous index (the first from −1) and its value as a little-endian
// float32. The linear models (method/lr, method/ilp) store their hashed weights this way.
func AppendSparse(b []byte, w []float32) []byte {
	nnz := 0
	for _, v := range w {
		if v != 0 {
			nnz++
		}
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(nnz))
	prev := -1
	for i, v := range w {
		if v == 0 {
			continue
		}
		b = binary.AppendUvarint(b, uint64(i-prev))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		prev = i
	}
	return b
}

// ReadSparse reads from r what AppendSparse wrote into w, whose length is the dimension.
// An index out of range, a value that is not finite or a short payload gives an error
// wrapping ErrPayload.
func ReadSparse(r *bytes.Reader, w []float32) error {
	var nb [8]byte
	if n, _ := r.Read(nb[:]); n != len(nb) {
		return fmt.Errorf("%w: no weight count", ErrPayload)
	}
	dim := len(w)
	nnz := binary.LittleEndian.Uint64(nb[:])
	if nnz > uint64(dim) {
		return fmt.Errorf("%w: %d weights for %d features", ErrPayload, nnz, dim)
	}
	id := -1
	var wb [4]byte
	for range nnz {
		gap, err := binary.ReadUvarint(r)
		if err != nil || gap == 0 || gap > uint64(dim) || id+int(gap) >= dim {
			return fmt.Errorf("%w: bad weight index", ErrPayload)
		}
		id += int(gap)
		if n, _ := r.Read(wb[:]); n != len(wb) {
			return fmt.Errorf("%w: short weights", ErrPayload)
		}
		w[id] = math.Float32frombits(binary.LittleEndian.Uint32(wb[:]))
		if f := float64(w[id]); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: weight %d is not finite", ErrPayload, id)
		}
	}
	return nil
}

// AppendHashes appends an ascending set of 64-bit hashes (a vocabulary): the count as a
// uvarint, then the uvarint gaps between consecutive hashes, the first from 0.
func AppendHashes(b []byte, hs []uint64) []byte {
	b = binary.AppendUvarint(b, uint64(len(hs)))
	last := uint64(0)
	for _, h := range hs {
		b = binary.AppendUvarint(b, h-last)
		last = h
	}
	return b
}

// ReadHashes reads what AppendHashes wrote. A set that is not strictly ascending or a
// short payload gives an error wrapping ErrPayload.
func ReadHashes(r *bytes.Reader) ([]uint64, error) {
	nv, err := binary.ReadUvarint(r)
	if err != nil || nv > uint64(r.Len()) {
		return nil, fmt.Errorf("%w: bad vocabulary size", ErrPayload)
	}
	hs := make([]uint64, nv)
	last := uint64(0)
	for i := range hs {
		gap, err := binary.ReadUvarint(r)
		if err != nil || (i > 0 && gap == 0) {
			return nil, fmt.Errorf("%w: bad vocabulary", ErrPayload)
		}
		last += gap
		hs[i] = last
	}
	return hs, nil
}

// Precision is how a linear model's weights are stored.
type Precision int

// Precisions of AppendWeights.
const (
	// Float32 stores each non-zero weight as a float32 after the gap from the previous
	// one (AppendSparse).
	Float32 Precision = iota
	// BFloat16 rounds the weights to bfloat16 (RoundBF16) and stores a bitmap of the
	// non-zero ones, then their values (AppendBF16): about half the bytes.
	BFloat16
)

// AppendWeights appends the tail of a linear model's payload (method/lr, method/ilp): its
// weights at precision p, then the hashes of its word vocabulary (AppendHashes; none for
// a model without one).
func AppendWeights(b []byte, w []float32, vocab []uint64, p Precision) []byte {
	if p == BFloat16 {
		b = AppendBF16(b, w)
	} else {
		b = AppendSparse(b, w)
	}
	return AppendHashes(b, vocab)
}

// ReadWeights reads what AppendWeights wrote at precision p into w, whose length is the
// dimension, and returns the vocabulary's hashes. The payload must end there: trailing
// bytes are an error, as are the errors of ReadSparse, ReadBF16 and ReadHashes.
func ReadWeights(r *bytes.Reader, w []float32, p Precision) ([]uint64, error) {
	read := ReadSparse
	if p == BFloat16 {
		read = ReadBF16
	}
	if err := read(r, w); err != nil {
		return nil, err
	}
	hs, err := ReadHashes(r)
	if err != nil {
		return nil, err
	}
	if r.Len() != 0 {
		return nil, errors.New("trailing bytes")
	}
	return hs, nil
}

// RoundBF16 rounds f to the nearest bfloat16 (ties to even), as a float32.
func RoundBF16(f float32) float32 {
	b := math.Float32bits(f)
	if f != f { // NaN stays NaN
		return f
	}
	b += 0x7fff + (b>>16)&1
	return math.Float32frombits(b &^ 0xffff)
}

// AppendBF16 appends the weight vector w rounded to bfloat16: a bitmap of the weights
// that are not zero once rounded (bit i%8 of byte i/8, len(w) bits), then each of them
// in index order as a little-endian bfloat16 (the upper half of its float32).
func AppendBF16(b []byte, w []float32) []byte {
	start := len(b)
	b = append(b, make([]byte, (len(w)+7)/8)...)
	bitmap := b[start:]
	for i, v := range w {
		if r := RoundBF16(v); r != 0 {
			bitmap[i/8] |= 1 << (i % 8)
			b = binary.LittleEndian.AppendUint16(b, uint16(math.Float32bits(r)>>16))
			bitmap = b[start:] // b may have moved
		}
	}
	return b
}

// ReadBF16 reads from r what AppendBF16 wrote into w, whose length is the dimension. A
// value that is not finite, a bit set past the dimension or a short payload gives an
// error wrapping ErrPayload.
func ReadBF16(r *bytes.Reader, w []float32) error {
	nb := (len(w) + 7) / 8
	if r.Len() < nb {
		return fmt.Errorf("%w: short bitmap of weights", ErrPayload)
	}
	rest := make([]byte, r.Len())
	r.Read(rest)
	bitmap, vals := rest[:nb], rest[nb:]
	if len(w)%8 != 0 && bitmap[nb-1]>>(len(w)%8) != 0 {
		return fmt.Errorf("%w: weight bitmap past the dimension %d", ErrPayload, len(w))
	}
	k := 0
	for i, m := range bitmap {
		for m != 0 {
			j := bits.TrailingZeros8(m)
			m &= m - 1
			if k+2 > len(vals) {
				return fmt.Errorf("%w: short weights", ErrPayload)
			}
			v := math.Float32frombits(uint32(binary.LittleEndian.Uint16(vals[k:])) << 16)
			if f := float64(v); v == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("%w: weight %d is zero or not finite", ErrPayload, 8*i+j)
			}
			w[8*i+j] = v
			k += 2
		}
	}
	r.Reset(vals[k:])
	return nil
}
