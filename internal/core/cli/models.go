package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
)

// AccurateUsage describes the --accurate flag of every command that parses raw text.
var AccurateUsage = "parse with the embedded beam-search parser " + pipeline.ParserBeamName + ": better trees, about 6 times slower parsing"

// ModelFlags are the flags that choose the tagger and parser: the embedded defaults, the
// embedded accurate parser, or files.
type ModelFlags struct {
	Tagger, Parser *string
	Accurate       *bool
}

// AddModelFlags defines --tagger, --parser and --accurate on fs.
func AddModelFlags(fs *flag.FlagSet) *ModelFlags {
	return &ModelFlags{
		Tagger:   fs.String("tagger", "", "tagger model file (default: the embedded "+pipeline.TaggerName+")"),
		Parser:   fs.String("parser", "", "parser model file (default: the embedded "+pipeline.ParserName+")"),
		Accurate: fs.Bool("accurate", false, AccurateUsage),
	}
}

// EmbeddedParser returns the name of the embedded parser that --accurate chooses, or a
// usage error when a parser file (given with the flag named fileFlag) is chosen too.
func EmbeddedParser(accurate bool, file, fileFlag string) (string, error) {
	if !accurate {
		return pipeline.ParserName, nil
	}
	if file != "" {
		return "", Usagef("--accurate chooses the embedded beam-search parser; it does not go with %s", fileFlag)
	}
	return pipeline.ParserBeamName, nil
}

// Pipeline loads the chosen models.
func (m *ModelFlags) Pipeline() (*pipeline.Pipeline, error) {
	parserName, err := EmbeddedParser(*m.Accurate, *m.Parser, "--parser")
	if err != nil {
		return nil, err
	}
	if *m.Tagger == "" && *m.Parser == "" {
		return pipeline.Embedded(*m.Accurate)
	}
	td, err := ModelBytes(*m.Tagger, pipeline.TaggerName)
	if err != nil {
		return nil, fmt.Errorf("tagger model: %w", err)
	}
	pd, err := ModelBytes(*m.Parser, parserName)
	if err != nil {
		return nil, fmt.Errorf("parser model: %w", err)
	}
	return pipeline.Load(td, pd)
}

// ModelBytes reads path, or the embedded model name when path is empty.
func ModelBytes(path, name string) ([]byte, error) {
	if path == "" {
		return modelfile.Embedded(name)
	}
	return os.ReadFile(path)
}
