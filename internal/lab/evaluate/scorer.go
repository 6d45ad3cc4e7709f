package evaluate

import "github.com/qsc-nlp/qsc/method"

// Scorer returns the validation scorer that a trainer takes from its caller
// (ilp.TrainConfig.Score, lr.TrainConfig.Score): EvaluateWith of a model under a decoding
// over workers goroutines, converted to the trainer's score type by conv. The trainers are
// product packages and do not link this package; the lab's train commands and the tests
// pass them this. Each call costs one EvaluateWith: a compression of every input.
func Scorer[S any](workers int, conv func(*Evaluation) S) func(method.Method, method.Decoding, []method.Input) (S, error) {
	return func(m method.Method, dec method.Decoding, valid []method.Input) (S, error) {
		ev, err := EvaluateWith(m, valid, workers, dec)
		if err != nil {
			var zero S
			return zero, err
		}
		return conv(ev), nil
	}
}
