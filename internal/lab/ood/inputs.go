package ood

import (
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/syntax"
)

// Inputs returns the out-of-domain set twice, its queries drawn with seed: with EWT's
// gold tags and trees (where the checker is exact), and as qsc sees raw text (tagged and
// parsed by p).
func Inputs(p *pipeline.Pipeline, seed uint64) ([]evaluate.InputSet, error) {
	sents, err := Sentences()
	if err != nil {
		return nil, err
	}
	var gold []*dataset.Tuple
	for _, cs := range sents {
		t, err := dataset.NewTuple(cs, dataset.Test, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", File, err)
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
	w := p.NewWorker()
	parsed := make([]*dataset.Tuple, len(gold))
	for i, t := range gold {
		s := &syntax.Sentence{Tokens: append([]syntax.Token(nil), t.Sentence.Tokens...)}
		for j := range s.Tokens {
			s.Tokens[j] = syntax.Token{Form: s.Tokens[j].Form, Head: syntax.NoHead}
		}
		if err := w.Sentence(s, pipeline.Options{}); err != nil {
			return nil, fmt.Errorf("%s: sentence %s: %w", File, t.ID, err)
		}
		cp := *t
		cp.Sentence = s
		parsed[i] = &cp
	}
	parsedIn, err := evaluate.Inputs(parsed)
	if err != nil {
		return nil, err
	}
	return []evaluate.InputSet{
		{Name: "gold-trees", Title: "EWT gold tags and trees", Inputs: goldIn},
		{Name: "qsc-parse", Title: "qsc's own tagger and parser", Inputs: parsedIn},
	}, nil
}
