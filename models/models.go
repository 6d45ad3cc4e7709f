// Package models embeds the default model files, so that the qsc binary and library work
// with no download. How each file was trained is recorded in MODELS.md at the repository
// root; each file is in the modelfile container (magic header, version, SHA-256).
package models

import (
	"embed"
	"fmt"
)

// File names of the default models.
const (
	TaggerName = "en-ewt-tagger-v3.qsm" // Penn Treebank tagger: UD_English-EWT train and silver tags
	ParserName = "en-ewt-parser-v2.qsm" // UD dependency parser (greedy): EWT train and silver trees
	// ParserBeamName is the accurate parser: the same features with beam search (width 8)
	// and global training; about 6 times slower than ParserName.
	ParserBeamName = "en-ewt-parser-beam8-v1.qsm"
	LRName         = "va-lr-v3.qsm"      // VERTEX ADDITION_LR
	AblatedName    = "va-ablated-v5.qsm" // ABLATED (edge features only)
	NNName         = "va-nn-v2.qsm"      // VERTEX ADDITION_NN (BiLSTM)
	ILPName        = "ilp-v1.qsm"        // ILP baseline (Filippova & Altun 2013 arc weights)
)

//go:embed *.qsm
var files embed.FS

// Load returns the bytes of an embedded model file.
func Load(name string) ([]byte, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("model %s is not embedded in this build", name)
	}
	return b, nil
}

// Names lists the embedded model files.
func Names() []string {
	entries, _ := files.ReadDir(".")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
