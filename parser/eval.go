package parser

import (
	"fmt"

	"github.com/qsc-nlp/qsc/syntax"
)

// Score counts attachment accuracy over words. Every word counts, punctuation included,
// and labels are compared by their universal part (before ':'), the CoNLL 2018 convention.
type Score struct {
	Words   int // words scored
	Head    int // words with the correct head
	Labeled int // words with the correct head and universal label
}

// UAS returns the unlabeled attachment score in percent.
func (s Score) UAS() float64 { return pct(s.Head, s.Words) }

// LAS returns the labeled attachment score in percent.
func (s Score) LAS() float64 { return pct(s.Labeled, s.Words) }

// Add returns the sum of two scores.
func (s Score) Add(o Score) Score {
	return Score{Words: s.Words + o.Words, Head: s.Head + o.Head, Labeled: s.Labeled + o.Labeled}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// String formats the score as "UAS 90.12 LAS 87.65 (25094 words)".
func (s Score) String() string {
	return fmt.Sprintf("UAS %.2f LAS %.2f (%d words)", s.UAS(), s.LAS(), s.Words)
}

// Evaluate scores the parsed sentences pred against gold, which must pair up and have the
// same number of tokens.
func Evaluate(gold, pred []*syntax.Sentence) (Score, error) {
	var sc Score
	if len(gold) != len(pred) {
		return sc, fmt.Errorf("parser: %d gold sentences but %d parsed", len(gold), len(pred))
	}
	for i := range gold {
		if len(gold[i].Tokens) != len(pred[i].Tokens) {
			return sc, fmt.Errorf("parser: sentence %d has %d gold tokens but %d parsed", i+1, len(gold[i].Tokens), len(pred[i].Tokens))
		}
		sc.add(gold[i], pred[i])
	}
	return sc, nil
}

func (sc *Score) add(gold, pred *syntax.Sentence) {
	for j := range gold.Tokens {
		g, p := &gold.Tokens[j], &pred.Tokens[j]
		sc.Words++
		if g.Head == p.Head {
			sc.Head++
			if syntax.Universal(g.Rel) == syntax.Universal(p.Rel) {
				sc.Labeled++
			}
		}
	}
}
