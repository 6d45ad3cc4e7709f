package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// tinyExample returns a sentence of n tokens with D decisions whose states follow a
// VERTEX ADDITION run: each decision turns the previous candidate into C or rejected.
func tinyExample(rng *rand.Rand, n, d, vocab int) *example {
	ex := &example{words: make([]int32, n)}
	for i := range ex.words {
		ex.words[i] = int32(rng.IntN(vocab))
	}
	st := make([]uint8, n)
	for i := range st {
		st[i] = StateRemaining
	}
	st[rng.IntN(n)] = StateC
	prev := -1
	for range d {
		if prev >= 0 {
			st[prev] = StateRejected
			if rng.IntN(2) == 0 {
				st[prev] = StateC
			}
		}
		var free []int
		for i, s := range st {
			if s == StateRemaining {
				free = append(free, i)
			}
		}
		if len(free) == 0 {
			break
		}
		v := free[rng.IntN(len(free))]
		st[v] = StateCandidate
		ex.states = append(ex.states, st...)
		ex.v = append(ex.v, int32(v))
		ex.y = append(ex.y, rng.IntN(2) == 0)
		prev = v
	}
	return ex
}

// TestGradient compares the analytic gradient of every tensor with central finite
// differences of the loss.
func TestGradient(t *testing.T) {
	for _, labels := range []int{0, 3} {
		t.Run(fmt.Sprintf("labels=%d", labels), func(t *testing.T) { testGradient(t, labels) })
	}
}

// testGradient checks the gradient of a network of 6 words and, when labels > 0, that many
// label rows added to each token's input.
func testGradient(t *testing.T, labels int) {
	const words = 6
	rng := rand.New(rand.NewPCG(3, 4))
	p := newParams(Sizes{Embed: 5, Hidden: 4}, words+labels)
	initParams(p, 7)
	for _, tn := range p.tensors() { // larger weights exercise the nonlinearities
		for i := range tn {
			tn[i] *= 1.5
		}
	}
	ex := tinyExample(rng, 7, 4, words)
	if labels > 0 {
		ex.rels = make([]int32, ex.n())
		for i := range ex.rels {
			ex.rels[i] = int32(words + rng.IntN(labels))
		}
	}
	w := newWork(p)
	g := newGrads(p)
	w.sentence(p, ex, g)
	loss := func() float64 {
		l, _ := newWork(p).sentence(p, ex, nil)
		return l
	}
	names := []string{"emb", "wx_f", "u_f", "b_f", "wx_b", "u_b", "b_b", "wo", "bo"}
	checked, labelRows := 0, 0
	for ti, tn := range p.tensors() {
		for i := range tn {
			var analytic float64
			if ti == 0 {
				row, col := int32(i/p.Embed), i%p.Embed
				if k, ok := g.rows[row]; ok {
					analytic = float64(g.vals[int(k)*p.Embed+col])
					if int(row)%p.V >= words && analytic != 0 {
						labelRows++
					}
				}
			} else {
				analytic = float64(g.dense.tensors()[ti][i])
			}
			// A small step: max-pooling is not differentiable where two positions tie, and a
			// step of 1e-2 crosses such a kink for a few weights once label rows enlarge the
			// inputs (the gradient there is one-sided, not wrong).
			const eps = 2e-3
			old := tn[i]
			tn[i] = old + eps
			lp := loss()
			tn[i] = old - eps
			lm := loss()
			tn[i] = old
			numeric := (lp - lm) / (2 * eps)
			if math.Abs(numeric-analytic) > 2e-3+2e-2*math.Abs(numeric) {
				t.Errorf("%s[%d]: analytic %.6f, numeric %.6f", names[ti], i, analytic, numeric)
			}
			checked++
		}
	}
	if checked == 0 || (labels > 0 && labelRows == 0) {
		t.Fatalf("%d weights checked, %d label-row gradients", checked, labelRows)
	}
}

// TestNonlinear compares the float32 exp, sigmoid and tanh with the math package.
func TestNonlinear(t *testing.T) {
	for x := -90.0; x <= 90; x += 0.01 {
		f := float32(x)
		x := float64(f)
		if want := math.Exp(math.Min(math.Max(x, -87), 88)); math.Abs(float64(exp32(f))-want) > 3e-7*want {
			t.Fatalf("exp32(%v) = %v, want %v", f, exp32(f), want)
		}
		if want := 1 / (1 + math.Exp(-x)); math.Abs(float64(sigmoid(f))-want) > 3e-7 {
			t.Fatalf("sigmoid(%v) = %v, want %v", f, sigmoid(f), want)
		}
		if want := math.Tanh(x); math.Abs(float64(tanh(f))-want) > 3e-7 {
			t.Fatalf("tanh(%v) = %v, want %v", f, tanh(f), want)
		}
	}
}

// TestMatVecAdd checks that the two-row kernel gives the bits of dot, row by row.
func TestMatVecAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{1, 3, 4, 7, 48} {
		for _, rows := range []int{1, 2, 5} {
			w, x := make([]float32, rows*k), make([]float32, k)
			for i := range w {
				w[i] = float32(rng.NormFloat64())
			}
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			out := make([]float32, rows)
			matVecAdd(w, x, out)
			for r := range rows {
				if want := 0 + dot(w[r*k:(r+1)*k], x); out[r] != want {
					t.Fatalf("k=%d row %d: %v, want %v", k, r, out[r], want)
				}
			}
		}
	}
}
