package parser

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// TestQuantizeRow checks the 8-bit rows: every weight within half a step of its row's
// scale, the largest using the top of the int8 range, and quantizing the weights a row
// stands for gives the same row again.
func TestQuantizeRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 1 + rng.IntN(60)
		src := make([]float32, n)
		scale := math.Exp2(float64(rng.IntN(40) - 20))
		for i := range src {
			if rng.IntN(4) > 0 {
				src[i] = float32(rng.NormFloat64() * scale)
			}
		}
		row := make([]byte, 1+n)
		quantizeRow(row, src)
		step := float64(expScale[row[0]])
		big := 0.0
		for i, v := range src {
			w := float64(int8(row[1+i])) * step
			if d := math.Abs(w - float64(v)); d > step/2 {
				t.Fatalf("%v: weight %d is %g, stored as %g (step %g)", src, i, v, w, step)
			}
			big = max(big, math.Abs(float64(v)))
		}
		if big > 0 && big/step < 63 {
			t.Fatalf("%v: largest weight %g is only %g steps", src, big, big/step)
		}
		back := make([]float32, n)
		for i := range back {
			back[i] = float32(int8(row[1+i])) * expScale[row[0]]
		}
		again := make([]byte, 1+n)
		quantizeRow(again, back)
		if !bytes.Equal(row, again) && big > 0 {
			t.Fatalf("%v: row %v, requantized %v", src, row, again)
		}
	}
	zero := []byte{9, 9, 9}
	quantizeRow(zero, []float32{0, 0})
	if !bytes.Equal(zero, []byte{0, 0, 0}) {
		t.Errorf("zero row: %v", zero)
	}
}

// TestLoadVersion2 loads a file of the older format (bfloat16 weights, DEFLATE: the
// accurate parser's), and round-trips it through version 3: the two models parse alike,
// and writing the second gives the same bytes.
func TestLoadVersion2(t *testing.T) {
	data, err := os.ReadFile("accurate/en-ewt-parser-beam8-v1.qsm")
	if err != nil {
		t.Fatal(err)
	}
	old, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	testRoundTrip(t, old, old.Beam())
}
