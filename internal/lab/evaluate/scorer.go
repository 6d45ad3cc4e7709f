package evaluate

import "github.com/qsc-nlp/qsc/method"

// Scorer returns the validation scorer that a trainer takes from its caller
// (ilp.TrainConfig.Score, lr.TrainConfig.Score): EvaluateWith of a model under a decoding
// over workers goroutines, as a method.Score. The trainers are product packages and do not
// link this package; the lab's train commands and the tests pass them this. Each call
// costs one EvaluateWith: a compression of every input.
func Scorer(workers int) method.Scorer {
	return func(m method.Method, dec method.Decoding, valid []method.Input) (method.Score, error) {
		ev, err := EvaluateWith(m, valid, workers, dec)
		if err != nil {
			return method.Score{}, err
		}
		return method.Score{F1: ev.F1, CR: ev.CR, PerCR: ev.PerCR}, nil
	}
}
