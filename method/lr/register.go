package lr

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/va"
)

// FileName is the embedded VA_LR model file (MODELS.md), in this package's directory.
const FileName = "va-lr-v3.qsm"

//go:embed va-lr-v3.qsm
var file []byte

// The compile-time checks of what the method package provides.
var (
	_ method.Method = (*LR)(nil)
	_ va.Decider    = (*LR)(nil)
	_ va.Tracker    = (*LR)(nil)
)

func init() {
	modelfile.Register(FileName, file)
	baseline.SetMarginalReader(marginal)
	method.Register(method.Entry{Name: method.NameLR, File: FileName, Public: true,
		Summary: "VERTEX ADDITION_LR: logistic regression on edge, stateful and interaction features",
		Open:    Opener(method.NameLR)})
}

// Opener returns the method.Entry Open function of a logistic-regression model file that
// must hold the model called name (method.NameLR or method.NameAblated).
func Opener(name string) func([]byte, uint64) (method.Method, error) {
	return func(data []byte, _ uint64) (method.Method, error) {
		m, err := Load(data)
		if err != nil {
			return nil, err
		}
		if m.Name() != name {
			return nil, fmt.Errorf("the file holds the %q model, not %q", m.Name(), name)
		}
		return m, nil
	}
}

// marginal reads RANDOM's acceptance probability from an LR-format file (of either
// model): the share of y = 1 among the decisions the runtime asks about
// (docs/features.md), or, in a file that lacks it, among all training decisions.
func marginal(data []byte) (float64, error) {
	info, err := LoadInfo(data)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(info.MarginalAsked) {
		return info.Marginal, nil
	}
	return info.MarginalAsked, nil
}

// Embedded returns a copy of the embedded model file (FileName), for Load.
func Embedded() []byte { return bytes.Clone(file) }
