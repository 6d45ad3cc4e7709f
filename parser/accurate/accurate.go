// Package accurate embeds the accurate parser, en-ewt-parser-beam8-v1.qsm (6.5 MB): the
// greedy parser's features with beam search (width 8) and global training, about 6 times
// slower (MODELS.md). qsc.Options{Accurate: true} and the --accurate flags parse with it
// in a program that links it:
//
//	import _ "github.com/qsc-nlp/qsc/parser/accurate"
package accurate

import (
	_ "embed"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
)

// FileName is the embedded model file, in this package's directory.
const FileName = pipeline.ParserBeamName

//go:embed en-ewt-parser-beam8-v1.qsm
var file []byte

func init() { modelfile.Register(FileName, file) }
