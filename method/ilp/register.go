package ilp

import (
	"bytes"
	_ "embed"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/method"
)

// FileName is the embedded ILP model file (MODELS.md), in this package's directory.
const FileName = "ilp-v6.qsm"

//go:embed ilp-v6.qsm
var file []byte

// The compile-time checks of what the method package provides.
var (
	_ method.Method     = (*Model)(nil)
	_ method.RuleSolver = (*Model)(nil)
)

// init registers the ILP (the library's default method) and its two evaluation-only
// variants of the paper's Table 2, which user requests may not name.
func init() {
	modelfile.Register(FileName, file)
	method.Register(method.Entry{Name: Name, File: FileName, Public: true,
		Summary: "ILP: arc scores on Filippova & Altun's (2013) edge features and their conjunctions, Q ⊆ C and ℓ(C) ≤ b, solved exactly (default)",
		Open:    opener(Name)})
	method.Register(method.Entry{Name: NameUnconstrained, File: FileName,
		Summary: "the ILP without the query constraint, Q = ∅ (evaluation only)",
		Open:    opener(NameUnconstrained)})
	method.Register(method.Entry{Name: NameRootQuery, File: FileName,
		Summary: "the ILP with the authors' query constraint: each query token hangs off the root (evaluation only)",
		Open:    opener(NameRootQuery)})
}

// opener returns the Open function of the ILP variant called name.
func opener(name string) func([]byte, uint64) (method.Method, error) {
	return func(data []byte, _ uint64) (method.Method, error) {
		m, err := Load(data)
		switch {
		case err != nil:
			return nil, err
		case name == NameUnconstrained:
			return m.Unconstrained(), nil
		case name == NameRootQuery:
			return m.RootQuery(), nil
		}
		return m, nil
	}
}

// Embedded returns a copy of the embedded model file (FileName), for Load.
func Embedded() []byte { return bytes.Clone(file) }
