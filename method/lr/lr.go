// Package lr is VERTEX ADDITION_LR and ABLATED: an L2-regularised logistic regression over
// the features of a VERTEX ADDITION decision (FeatureSet: the decision's type, the edge
// features of internal/core/features, and the stateful and interaction features), its
// training by L-BFGS on the oracle decisions of the training tuples (Train), and its
// versioned model file (Load, LR.MarshalBinary). An *LR is a method.Method and a
// va.Decider.
//
// The package embeds the VA_LR model file (FileName) and registers the methods "lr" and
// "random" (which reads the training marginal from that file) with package method; ABLATED
// shares this code, and its weights are in package github.com/qsc-nlp/qsc/method/ablated.
package lr

import (
	"errors"
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/va"
)

// LR is a logistic-regression inclusion model (VA_LR or ABLATED): it accepts v when
// p(y = 1 | features) > 0.5. Load it from a model file.
type LR struct {
	ext       *extractor
	w         []float32
	bias      float32
	threshold float32 // Info.Threshold
	// Info describes how the model was trained.
	Info Info
}

// Info describes a trained model; it is stored in the model file.
type Info struct {
	Name      string     // method.NameLR or method.NameAblated
	Features  FeatureSet // the feature set
	C         float64    // inverse regularisation strength
	Decisions int        // training decisions used
	Marginal  float64    // fraction of training decisions with y = 1
	// MarginalAsked is the fraction with y = 1 among the training decisions that the
	// runtime asks a model about: candidates that fit the budget (the others are skipped
	// without a decision). RANDOM accepts with this probability. NaN in version-1 files.
	MarginalAsked float64
	// Threshold is the logit above which a candidate is accepted: 0 (p > 0.5, the
	// authors' predict) unless training chose another on validation. 0 in files before
	// version 3.
	Threshold float64
	SkipUsed  bool // over-budget candidates were among the training decisions
}

// Name returns the model's method name.
func (m *LR) Name() string { return m.Info.Name }

// Start starts a run (va.Tracker).
func (m *LR) Start(s *va.State) { m.ext.Start(s) }

// Added records an acceptance (va.Tracker).
func (m *LR) Added(s *va.State, v int) { m.ext.Added(s, v) }

// Decide returns p(y = 1) for candidate v and accepts v when it exceeds 0.5.
func (m *LR) Decide(s *va.State, v int) va.Decision {
	z := m.Score(s, v)
	p := sigmoid(float64(z))
	return va.Decision{Accept: z > m.threshold, P: p}
}

// Score returns the logit bias + w·x of candidate v, x its Features.
func (m *LR) Score(s *va.State, v int) float32 {
	return m.bias + m.ext.dot(s, v, m.w)
}

// NonZero returns the number of non-zero weights.
func (m *LR) NonZero() int {
	n := 0
	for _, w := range m.w {
		if w != 0 {
			n++
		}
	}
	return n
}

// newLR builds a model from trained weights θ = (w, bias) and the training vocabulary.
func newLR(info Info, theta []float64, vocab *features.Vocab) (*LR, error) {
	dim := info.Features.Size()
	if len(theta) != dim+1 {
		return nil, fmt.Errorf("lr: %d weights for %d features", len(theta), dim)
	}
	w := make([]float32, dim)
	for i, v := range theta[:dim] {
		w[i] = float32(v)
	}
	return newLRWeights(info, w, float32(theta[dim]), vocab)
}

// newLRWeights builds a model from its float32 weights (len(w) = info.Features.Size()),
// which it keeps.
func newLRWeights(info Info, w []float32, bias float32, vocab *features.Vocab) (*LR, error) {
	ext, err := newExtractor(info.Features, vocab)
	if err != nil {
		return nil, err
	}
	if len(w) != info.Features.Size() {
		return nil, fmt.Errorf("lr: %d weights for %d features", len(w), info.Features.Size())
	}
	m := &LR{ext: ext, w: w, bias: bias, threshold: float32(info.Threshold), Info: info}
	if math.IsNaN(float64(m.bias)) || math.IsNaN(info.Threshold) || math.IsInf(info.Threshold, 0) {
		return nil, errors.New("lr: NaN bias or threshold")
	}
	return m, nil
}

// WithThreshold returns a copy of m (sharing its weights) that accepts a candidate when its
// logit exceeds t.
func (m *LR) WithThreshold(t float64) *LR {
	c := *m
	c.threshold, c.Info.Threshold = float32(t), t
	return &c
}
