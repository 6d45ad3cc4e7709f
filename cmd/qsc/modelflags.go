package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/qsc-nlp/qsc/internal/pipeline"
	"github.com/qsc-nlp/qsc/models"
)

// modelFlags are the flags that replace the embedded default models by files.
type modelFlags struct {
	tagger, parser *string
}

func addModelFlags(fs *flag.FlagSet) *modelFlags {
	return &modelFlags{
		tagger: fs.String("tagger", "", "tagger model file (default: the embedded "+models.TaggerName+")"),
		parser: fs.String("parser", "", "parser model file (default: the embedded "+models.ParserName+")"),
	}
}

// pipeline loads the chosen models.
func (m *modelFlags) pipeline() (*pipeline.Pipeline, error) {
	if *m.tagger == "" && *m.parser == "" {
		return pipeline.Default()
	}
	td, err := modelBytes(*m.tagger, models.TaggerName)
	if err != nil {
		return nil, fmt.Errorf("tagger model: %w", err)
	}
	pd, err := modelBytes(*m.parser, models.ParserName)
	if err != nil {
		return nil, fmt.Errorf("parser model: %w", err)
	}
	return pipeline.Load(td, pd)
}

// modelBytes reads path, or the embedded model name when path is empty.
func modelBytes(path, name string) ([]byte, error) {
	if path == "" {
		return models.Load(name)
	}
	return os.ReadFile(path)
}
