package main

import (
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/evalflags"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/ood"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/syntax"
)

// oodSet is one reading of the out-of-domain development set.
type oodSet struct {
	name, title string
	inputs      []method.Input
}

// oodInputs returns the out-of-domain set twice: with EWT's gold tags and trees (where the
// checker is exact), and as qsc sees raw text (its own tagger and parser).
func oodInputs(env *evalflags.Env) ([]oodSet, error) {
	sents, err := ood.Sentences()
	if err != nil {
		return nil, err
	}
	var gold []*dataset.Tuple
	for _, cs := range sents {
		t, err := dataset.NewTuple(cs, dataset.Test, *env.Seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ood.File, err)
		}
		if len(t.Query) == 0 {
			continue
		}
		gold = append(gold, t)
	}
	goldIn, err := evaluate.Inputs(gold)
	if err != nil {
		return nil, err
	}
	w := env.Pipe.NewWorker()
	parsed := make([]*dataset.Tuple, len(gold))
	for i, t := range gold {
		s := &syntax.Sentence{Tokens: append([]syntax.Token(nil), t.Sentence.Tokens...)}
		for j := range s.Tokens {
			s.Tokens[j] = syntax.Token{Form: s.Tokens[j].Form, Head: syntax.NoHead}
		}
		if err := w.Sentence(s, pipeline.Options{}); err != nil {
			return nil, fmt.Errorf("%s: sentence %s: %w", ood.File, t.ID, err)
		}
		cp := *t
		cp.Sentence = s
		parsed[i] = &cp
	}
	parsedIn, err := evaluate.Inputs(parsed)
	if err != nil {
		return nil, err
	}
	return []oodSet{
		{"gold-trees", "EWT gold tags and trees", goldIn},
		{"qsc-parse", "qsc's own tagger and parser", parsedIn},
	}, nil
}
