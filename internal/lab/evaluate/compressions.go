package evaluate

import (
	"errors"
	"sync"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/metrics"
)

// Evaluation is the mean quality of a method's compressions.
type Evaluation struct {
	N      int     // inputs compressed
	F1, CR float64 // mean token F1 and compression ratio
	// PerF1 and PerCR are the per-input values, in input order.
	PerF1, PerCR []float64
	// Kept are the compressions (kept token ids), in input order.
	Kept [][]int
	// Yielded counts the inputs for which the well-formedness rules yielded to the query
	// (Snippet and Nested decodings only).
	Yielded int
}

// Evaluate compresses every input with m (workers goroutines) and returns the mean token
// F1 against the gold compressions and the mean compression ratio (package metrics), with
// the Paper decoding.
func Evaluate(m method.Method, inputs []method.Input, workers int) (*Evaluation, error) {
	return EvaluateWith(m, inputs, workers, method.Paper)
}

// EvaluateWith is Evaluate with the decoding dec.
func EvaluateWith(m method.Method, inputs []method.Input, workers int, dec method.Decoding) (*Evaluation, error) {
	return EvaluateCompressor(m, inputs, workers, method.Compressor{Decoding: dec})
}

// EvaluateCompressor is Evaluate with each worker's Compressor a copy of proto (its
// Decoding and RulesOff; proto must not have been used).
func EvaluateCompressor(m method.Method, inputs []method.Input, workers int, proto method.Compressor) (*Evaluation, error) {
	ev := &Evaluation{N: len(inputs), PerF1: make([]float64, len(inputs)), PerCR: make([]float64, len(inputs)),
		Kept: make([][]int, len(inputs))}
	errs := make([]error, len(inputs))
	yielded := make([]bool, len(inputs))
	var wg sync.WaitGroup
	workers = max(workers, 1)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := method.Compressor{Decoding: proto.Decoding, RulesOff: proto.RulesOff}
			for i := w; i < len(inputs); i += workers {
				in := inputs[i]
				kept, err := c.Compress(m, in)
				if c.Yielded() {
					yielded[i] = true
				}
				ev.Kept[i] = append([]int(nil), kept...)
				if err == nil {
					ev.PerF1[i], err = metrics.F1(in.Tree.N(), kept, in.Gold)
				}
				if err == nil {
					ev.PerCR[i], err = metrics.CompressionRatio(in.Sentence.Forms(), kept)
				}
				errs[i] = err
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, y := range yielded {
		if y {
			ev.Yielded++
		}
	}
	if len(inputs) == 0 {
		return ev, nil
	}
	var err error
	if ev.F1, err = metrics.Mean(ev.PerF1); err != nil {
		return nil, err
	}
	if ev.CR, err = metrics.Mean(ev.PerCR); err != nil {
		return nil, err
	}
	return ev, nil
}
