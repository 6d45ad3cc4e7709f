package parser

import "math"

// The weights a finished model parses with are 8-bit, with an exponent per row: a row of
// n weights is stored as 1+n bytes, the exponent byte e, then each weight's mantissa as
// an int8 m, and weight = m × 2^(e−expBias). The exponent is the smallest that fits the
// row's largest weight in ±127, so every weight keeps its row's absolute precision (the
// largest, like bfloat16, about 8 significant bits). On UD_English-EWT dev+test this
// costs less than 0.02 LAS against bfloat16 weights (MODELS.md, parser v3).

// expBias maps exponent bytes 0…255 to the powers 2^-133…2^122: every float32 row fits.
const expBias = 133

// expScale[e] is 2^(e−expBias).
var expScale = func() (t [256]float32) {
	for e := range t {
		t[e] = float32(math.Ldexp(1, e-expBias))
	}
	return t
}()

// quantizeRow writes the weights src as a row of 1+len(src) bytes into dst.
func quantizeRow(dst []byte, src []float32) {
	dst = dst[:1+len(src)]
	big := 0.0
	for _, v := range src {
		big = max(big, math.Abs(float64(v)))
	}
	clear(dst)
	if big == 0 || math.IsNaN(big) || math.IsInf(big, 0) {
		return
	}
	// The smallest k with big/2^k ≤ 127: big = f·2^x, f in [0.5, 1).
	f, x := math.Frexp(big)
	k := x - 6
	if f <= 127.0/128 {
		k = x - 7
	}
	k = max(k, -expBias)
	dst[0] = byte(k + expBias)
	for i, v := range src {
		m := math.Round(math.Ldexp(float64(v), -k))
		dst[1+i] = byte(int8(max(-127, min(127, m))))
	}
}

// quantizeRows quantizes the rows of src, each the first n of stride weights, into dst
// (grown or reused) and returns it.
func quantizeRows(dst []byte, src []float32, stride, n int) []byte {
	rows := len(src) / stride
	size := rows * (1 + n)
	if cap(dst) >= size {
		dst = dst[:size]
	} else {
		dst = make([]byte, size)
	}
	for r := range rows {
		quantizeRow(dst[r*(1+n):], src[r*stride:r*stride+n])
	}
	return dst
}
