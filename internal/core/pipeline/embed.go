package pipeline

import (
	_ "embed"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
)

// File names of the models of the built-in pipeline (MODELS.md).
const (
	TaggerName = "en-ewt-tagger-v4.qsm" // Penn Treebank tagger: UD_English-EWT train and silver tags
	ParserName = "en-ewt-parser-v3.qsm" // UD dependency parser (greedy): EWT train and silver trees
	// ParserBeamName is the accurate parser: the same features with beam search (width 8)
	// and global training; about 6 times slower than ParserName. Its file is in package
	// AccurateImport, which a program imports to link it.
	ParserBeamName = "en-ewt-parser-beam8-v1.qsm"
	// AccurateImport is the package that embeds ParserBeamName.
	AccurateImport = "github.com/qsc-nlp/qsc/parser/accurate"
)

// The default pipeline's model files, in this package's directory: every program that
// analyses text links them.
var (
	//go:embed en-ewt-tagger-v4.qsm
	taggerFile []byte
	//go:embed en-ewt-parser-v3.qsm
	parserFile []byte
)

func init() {
	modelfile.Register(TaggerName, taggerFile)
	modelfile.Register(ParserName, parserFile)
}
