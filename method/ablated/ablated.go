// Package ablated registers ABLATED, VERTEX ADDITION with the edge features only (the
// paper's ablation of VA_LR), with its embedded model file. The model's code is VA_LR's
// (package github.com/qsc-nlp/qsc/method/lr); this package holds only its 5.8 MB of
// weights, so that a program links them only when it imports the package:
//
//	import _ "github.com/qsc-nlp/qsc/method/ablated"
package ablated

import (
	_ "embed"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/lr"
)

// Name is the method's name in requests.
const Name = method.NameAblated

// FileName is the embedded ABLATED model file (MODELS.md), in this package's directory.
const FileName = "va-ablated-v5.qsm"

//go:embed va-ablated-v5.qsm
var file []byte

func init() {
	modelfile.Register(FileName, file)
	method.Register(method.Entry{Name: Name, File: FileName, Public: true,
		Summary: "ABLATED: VERTEX ADDITION with edge features only",
		Open:    lr.Opener(Name)})
}
