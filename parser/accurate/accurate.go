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

// sha256 is the file's SHA-256, declared so that loading it need not hash it
// (modelfile.RegisterSum; TestEmbeddedFiles checks it).
const sha256 = "4459c4e3b62f97b12200d1b9644486f23a07177ed2e0c2415c4ffb4882083259"

func init() { modelfile.RegisterSum(FileName, file, sha256) }
