package nn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
)

// benchSentence returns paper-sized parameters and a sentence of 27 tokens with 17
// decisions (the means of the Google training split).
func benchSentence(sz Sizes) (*params, *example) {
	p := newParams(sz, 1000)
	initParams(p, 1)
	return p, tinyExample(rand.New(rand.NewPCG(1, 2)), 27, 17, 1000)
}

// BenchmarkTrainSentence is the forward and backward pass over the decisions of one
// sentence; divide by 17 for the cost per decision.
func BenchmarkTrainSentence(b *testing.B) {
	p, ex := benchSentence(Sizes{Embed: 315, Hidden: 79})
	w, g := newWork(p), newGrads(p)
	for b.Loop() {
		g.reset()
		w.sentence(p, ex, g)
	}
}

// BenchmarkForwardSentence is the forward pass only (validation).
func BenchmarkForwardSentence(b *testing.B) {
	p, ex := benchSentence(Sizes{Embed: 315, Hidden: 79})
	w := newWork(p)
	for b.Loop() {
		w.sentence(p, ex, nil)
	}
}

func BenchmarkSizes(b *testing.B) {
	for _, sz := range []Sizes{{315, 79}, {315, 48}, {128, 64}, {128, 48}, {64, 48}, {64, 32}} {
		b.Run(fmt.Sprintf("E%dH%d", sz.Embed, sz.Hidden), func(b *testing.B) {
			p, ex := benchSentence(sz)
			w, g := newWork(p), newGrads(p)
			for b.Loop() {
				g.reset()
				w.sentence(p, ex, g)
			}
		})
	}
}

// benchModel returns a randomly initialised model of the given sizes over a vocabulary of
// 1000 words and the longest of 200 synthetic problems (21 tokens).
func benchModel(b *testing.B, sz Sizes) (*Model, method.Input) {
	p := newParams(sz, 1000)
	initParams(p, 1)
	words := []string{Unknown}
	for i := 1; i < 1000; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	m, err := newModel(p, words, nil, Info{})
	if err != nil {
		b.Fatal(err)
	}
	var in method.Input
	for _, x := range synth.Inputs(11, 200) {
		if in.Tree == nil || x.Tree.N() > in.Tree.N() {
			in = x
		}
	}
	return m, in
}

// BenchmarkCompress is one compression with a warm projection cache, per size; the
// decisions are those of an untrained model (about half accepted).
func BenchmarkCompress(b *testing.B) {
	for _, sz := range []Sizes{{315, 79}, {315, 48}, {128, 32}} {
		b.Run(fmt.Sprintf("E%dH%d", sz.Embed, sz.Hidden), func(b *testing.B) {
			m, in := benchModel(b, sz)
			in.Budget = 1 << 20 // every token is a decision
			var c method.Compressor
			for b.Loop() {
				if _, err := c.Compress(m, in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(in.Tree.N()), "tokens")
		})
	}
}
