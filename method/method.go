// Package methods is the one table of compression methods: each method's name, the
// embedded model file it reads and how to open it. The library (qsc.Engine), the CLI's
// compress, eval and bench commands, and the HTTP service all open methods here, so a new
// method is added in one place.
package methods

import (
	"fmt"
	"math"
	"strings"

	"github.com/qsc-nlp/qsc/ilp"
	"github.com/qsc-nlp/qsc/internal/lr"
	"github.com/qsc-nlp/qsc/model"
	"github.com/qsc-nlp/qsc/models"
	"github.com/qsc-nlp/qsc/nn"
)

// Entry describes one method.
type Entry struct {
	// Name is the method's name in requests ("lr", "ilp", …).
	Name string
	// File is the embedded model file the method reads ("" for none).
	File string
	// Summary is a one-line description, for help texts.
	Summary string
	// Public is false for methods a user request may not name (the oracle needs gold).
	Public bool
	// Open builds the method from the model file's bytes (nil when File is "").
	Open func(data []byte, seed uint64) (model.Method, error)
	// MaxTokens is the longest sentence, in tokens, that a request to the library or the
	// service may give the method (0: only the library's general limit). It bounds the
	// time of a method whose cost grows faster than the sentence.
	MaxTokens int
}

// openLR opens a logistic-regression file that must hold the model called name.
func openLR(name string) func([]byte, uint64) (model.Method, error) {
	return func(data []byte, _ uint64) (model.Method, error) {
		m, err := lr.Load(data)
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
	m, err := lr.Load(data)
	if err != nil {
		return nil, err
	}
	p := m.Info.MarginalAsked
	if math.IsNaN(p) {
		p = m.Info.Marginal
	}
	return model.NewRandom(p, seed)
}

// openNN opens a VERTEX ADDITION_NN model file.
func openNN(data []byte, _ uint64) (model.Method, error) { return nn.Load(data) }

func openWindow([]byte, uint64) (model.Method, error) { return model.Window{}, nil }

func openOracle([]byte, uint64) (model.Method, error) { return model.Oracle{}, nil }

// openILP opens the ILP variant called name.
func openILP(name string) func([]byte, uint64) (model.Method, error) {
	return func(data []byte, _ uint64) (model.Method, error) {
		m, err := ilp.Load(data)
		switch {
		case err != nil:
			return nil, err
		case name == ilp.NameUnconstrained:
			return m.Unconstrained(), nil
		case name == ilp.NameRootQuery:
			return m.RootQuery(), nil
		}
		return m, nil
	}
}

// table lists the methods in the order help texts and reports show them.
var table = []Entry{
	{Name: model.NameLR, File: models.LRName, Public: true, Summary: "VERTEX ADDITION_LR: logistic regression on edge, stateful and interaction features (default)", Open: openLR(model.NameLR)},
	{Name: model.NameAblated, File: models.AblatedName, Public: true, Summary: "ABLATED: VERTEX ADDITION with edge features only", Open: openLR(model.NameAblated)},
	{Name: model.NameRandom, File: models.LRName, Public: true, Summary: "RANDOM: accepts with the training marginal (read from the LR file), seeded", Open: openRandom},
	{Name: nn.Name, File: models.NNName, Public: true, Summary: "VERTEX ADDITION_NN: BiLSTM over the words and token states (pure Go)", Open: openNN,
		MaxTokens: 256}, // its time grows with n·|C|: 2 s at 400 tokens, 47 s at 2,000 (docs/reliability.md)
	{Name: ilp.Name, File: models.ILPName, Public: true, Summary: "ILP: Filippova & Altun (2013) arc scores, Q ⊆ C and ℓ(C) ≤ b, solved exactly", Open: openILP(ilp.Name)},
	{Name: ilp.NameUnconstrained, File: models.ILPName, Summary: "the ILP without the query constraint, Q = ∅ (evaluation only)", Open: openILP(ilp.NameUnconstrained)},
	{Name: ilp.NameRootQuery, File: models.ILPName, Summary: "the ILP with the authors' query constraint: each query token hangs off the root (evaluation only)", Open: openILP(ilp.NameRootQuery)},
	{Name: model.NameWindow, Public: true, Summary: "window: Q, then the tokens nearest to Q while they fit (a search engine's highlighter; the baseline)", Open: openWindow},
	{Name: model.NameOracle, Summary: "the static oracle: keeps exactly the gold tokens (evaluation only)", Open: openOracle},
}

// All returns every method, in table order.
func All() []Entry { return append([]Entry(nil), table...) }

// Names returns the names of the methods; public only leaves out evaluation-only methods.
func Names(public bool) []string {
	var out []string
	for _, e := range table {
		if e.Public || !public {
			out = append(out, e.Name)
		}
	}
	return out
}

// Lookup returns the entry called name.
func Lookup(name string) (Entry, error) {
	for _, e := range table {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("%w %q (want one of %s)", model.ErrUnknownMethod, name, strings.Join(Names(false), ", "))
}

// Open opens the method called name from data, or from its embedded model file when data
// is nil.
func Open(name string, data []byte, seed uint64) (model.Method, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if data == nil && e.File != "" {
		if data, err = models.Load(e.File); err != nil {
			return nil, fmt.Errorf("method %s: %w", name, err)
		}
	}
	m, err := e.Open(data, seed)
	if err != nil {
		return nil, fmt.Errorf("method %s: %w", name, err)
	}
	return m, nil
}
