// Package baseline holds the methods that need no training of their own, and registers
// them with package method:
//
//   - "window": Q, then the tokens nearest to Q while they fit, as a search engine's
//     highlighter does (Window);
//   - "random": accepts a candidate with the training marginal of y, read from VA_LR's
//     model file, from a generator seeded per compression (Random);
//   - "oracle": keeps exactly the gold tokens, for evaluation (Oracle).
//
// The root package qsc imports it, so every program that uses the library has window and
// oracle; random reads VA_LR's file, so it also needs method/lr linked (import _
// "github.com/qsc-nlp/qsc/method/lr", or github.com/qsc-nlp/qsc/all).
package baseline

import (
	"fmt"

	"github.com/qsc-nlp/qsc/method"
)

// Names of the baselines.
const (
	NameWindow = "window"
	NameRandom = "random"
	NameOracle = "oracle"
)

// LRFile is the model file RANDOM reads its marginal from: VA_LR's, embedded and
// registered by method/lr (lr.FileName).
const LRFile = "va-lr-v3.qsm"

// marginal reads RANDOM's acceptance probability from the bytes of an LR-format file: the
// share of y = 1 among the training decisions the runtime asks about, or, in a file that
// lacks it, among all training decisions. Package method/lr, which owns the format, sets
// it from init (SetMarginalReader); the random entry Needs that package.
var marginal func(data []byte) (float64, error)

// SetMarginalReader sets how RANDOM reads its marginal from a model file. It is meant to
// be called once, from the init function of method/lr.
func SetMarginalReader(read func(data []byte) (float64, error)) { marginal = read }

func init() {
	method.Register(method.Entry{Name: NameWindow, Public: true,
		Summary: "window: Q, then the tokens nearest to Q while they fit (a search engine's highlighter; the baseline)",
		Open:    func([]byte, uint64) (method.Method, error) { return Window{}, nil }})
	method.Register(method.Entry{Name: NameRandom, File: LRFile, Public: true, Needs: method.NameLR,
		Summary: "RANDOM: accepts with the training marginal (read from the LR file), seeded",
		Open:    openRandom})
	method.Register(method.Entry{Name: NameOracle, Summary: "the static oracle: keeps exactly the gold tokens (evaluation only)",
		Open: func([]byte, uint64) (method.Method, error) { return Oracle{}, nil }})
}

// openRandom reads the marginal from data (the bytes of LRFile, or of another LR-format
// file) and returns a Random seeded with seed.
func openRandom(data []byte, seed uint64) (method.Method, error) {
	if marginal == nil {
		return nil, fmt.Errorf("random reads its marginal from VA_LR's file: %w %q (not linked: import _ %q)",
			method.ErrUnknownMethod, method.NameLR, method.NotLinked(method.NameLR))
	}
	p, err := marginal(data)
	if err != nil {
		return nil, err
	}
	return NewRandom(p, seed)
}
