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

// The SHA-256 of each file, which Pipeline.TaggerSum and ParserSum hold (and stored
// annotations record), declared here so that a program does not hash 16 MB at every
// start; TestEmbeddedFiles checks them (a retrained model needs its new sum here).
const (
	taggerSHA256 = "5f04d329d1142e9a760f830a2fa6dd403652f19fdda21c94b490b26cbc26a193"
	parserSHA256 = "51b0e5e12e05678bd58912b083f852df9b39e39c5dacd8ec1644e80f3f0cbff1"
)

func init() {
	modelfile.RegisterSum(TaggerName, taggerFile, taggerSHA256)
	modelfile.RegisterSum(ParserName, parserFile, parserSHA256)
}
