package nn

import (
	"bytes"
	_ "embed"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/va"
)

// FileName is the embedded VA_NN model file (MODELS.md), in this package's directory.
const FileName = "va-nn-v2.qsm"

//go:embed va-nn-v2.qsm
var file []byte

// The compile-time checks of what the method package provides.
var (
	_ method.Method = (*Model)(nil)
	_ va.Decider    = (*Model)(nil)
	_ va.Tracker    = (*Model)(nil)
)

func init() {
	modelfile.Register(FileName, file)
	method.Register(method.Entry{Name: Name, File: FileName, Public: true,
		Summary:   "VERTEX ADDITION_NN: BiLSTM over the words and token states (pure Go)",
		Open:      func(data []byte, _ uint64) (method.Method, error) { return Load(data) },
		MaxTokens: 256}) // its time grows with n·|C|: 2 s at 400 tokens, 47 s at 2,000 (docs/reliability.md)
}

// Embedded returns a copy of the embedded model file (FileName), for Load.
func Embedded() []byte { return bytes.Clone(file) }
