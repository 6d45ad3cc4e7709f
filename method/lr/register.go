package lr

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/model"
	"github.com/qsc-nlp/qsc/va"
)

// FileName is the embedded VA_LR model file (MODELS.md), in this package's directory.
const FileName = "va-lr-v3.qsm"

//go:embed va-lr-v3.qsm
var file []byte

// The compile-time checks of what the method package provides.
var (
	_ model.Method = (*LR)(nil)
	_ va.Decider   = (*LR)(nil)
	_ va.Tracker   = (*LR)(nil)
)

func init() {
	modelfile.Register(FileName, file)
	method.Register(method.Entry{Name: model.NameLR, File: FileName, Public: true,
		Summary: "VERTEX ADDITION_LR: logistic regression on edge, stateful and interaction features",
		Open:    Opener(model.NameLR)})
	method.Register(method.Entry{Name: model.NameRandom, File: FileName, Public: true,
		Summary: "RANDOM: accepts with the training marginal (read from the LR file), seeded",
		Open:    openRandom})
}

// Opener returns the method.Entry Open function of a logistic-regression model file that
// must hold the model called name (model.NameLR or model.NameAblated).
func Opener(name string) func([]byte, uint64) (model.Method, error) {
	return func(data []byte, _ uint64) (model.Method, error) {
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

// openRandom reads the training marginal from a logistic-regression file: the share of
// y = 1 among the decisions the runtime asks about (docs/features.md), or, in a file
// that lacks it, among all training decisions.
func openRandom(data []byte, seed uint64) (model.Method, error) {
	info, err := LoadInfo(data)
	if err != nil {
		return nil, err
	}
	p := info.MarginalAsked
	if math.IsNaN(p) {
		p = info.Marginal
	}
	return model.NewRandom(p, seed)
}

// Embedded returns a copy of the embedded model file (FileName), for Load.
func Embedded() []byte { return bytes.Clone(file) }
