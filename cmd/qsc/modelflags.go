package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
)

// decodingUsage is the usage of the --decoding flag of qsc compress and qsc snippets.
const decodingUsage = "how the method's decisions become the compression: snippet (budget-true and well-formed), nested (the same, and a larger -b never drops a word: for a snippet that grows) or paper (Handler & O'Connor's decoder)"

// accurateUsage describes the --accurate flag of every command that parses raw text.
var accurateUsage = "parse with the embedded beam-search parser " + pipeline.ParserBeamName + ": better trees, about 6 times slower parsing"

// modelFlags are the flags that choose the tagger and parser: the embedded defaults, the
// embedded accurate parser, or files.
type modelFlags struct {
	tagger, parser *string
	accurate       *bool
}

func addModelFlags(fs *flag.FlagSet) *modelFlags {
	return &modelFlags{
		tagger:   fs.String("tagger", "", "tagger model file (default: the embedded "+pipeline.TaggerName+")"),
		parser:   fs.String("parser", "", "parser model file (default: the embedded "+pipeline.ParserName+")"),
		accurate: fs.Bool("accurate", false, accurateUsage),
	}
}

// embeddedParser returns the name of the embedded parser that --accurate chooses, or an
// error when a parser file (given with the flag named fileFlag) is chosen too.
func embeddedParser(accurate bool, file, fileFlag string) (string, error) {
	if !accurate {
		return pipeline.ParserName, nil
	}
	if file != "" {
		return "", usagef("--accurate chooses the embedded beam-search parser; it does not go with %s", fileFlag)
	}
	return pipeline.ParserBeamName, nil
}

// pipeline loads the chosen models.
func (m *modelFlags) pipeline() (*pipeline.Pipeline, error) {
	parserName, err := embeddedParser(*m.accurate, *m.parser, "--parser")
	if err != nil {
		return nil, err
	}
	if *m.tagger == "" && *m.parser == "" {
		return pipeline.Embedded(*m.accurate)
	}
	td, err := modelBytes(*m.tagger, pipeline.TaggerName)
	if err != nil {
		return nil, fmt.Errorf("tagger model: %w", err)
	}
	pd, err := modelBytes(*m.parser, parserName)
	if err != nil {
		return nil, fmt.Errorf("parser model: %w", err)
	}
	return pipeline.Load(td, pd)
}

// modelBytes reads path, or the embedded model name when path is empty.
func modelBytes(path, name string) ([]byte, error) {
	if path == "" {
		return modelfile.Embedded(name)
	}
	return os.ReadFile(path)
}

// methodName is the value of a --method flag: a method of qsc.Methods(), in any case.
type methodName string

func (m *methodName) String() string { return string(*m) }

// Set keeps the name lowercased: the library's names are lowercase and case-sensitive,
// the command line takes any case.
func (m *methodName) Set(s string) error {
	*m = methodName(strings.ToLower(s))
	return nil
}

// methodFlag defines the --method flag of the commands that compress (compress,
// snippets, annotate), with what it chooses; left out, the library chooses by language:
// qsc.DefaultMethod for English, qsc.MethodWindow for any other language.
func methodFlag(fs *flag.FlagSet, what string) *methodName {
	m := methodName("")
	fs.Var(&m, "method", "`name` of the "+what+" (any case): "+strings.Join(qsc.Methods(), ", ")+
		" (default: "+qsc.DefaultMethod+" for English text, "+qsc.MethodWindow+" for other languages; a method named reads any text as English)")
	return &m
}

// langFlag defines the --lang flag of the commands that take text.
func langFlag(fs *flag.FlagSet) *string {
	return fs.String("lang", "", "`code` of the text's language (ISO 639-1: en, de, ja, …; default: identified from the text)")
}
