// Package synth generates small synthetic compression problems for tests: random trees
// whose gold compressions follow a learnable rule, so that a trainer's output can be
// checked without the corpus.
package synth

import (
	"math/rand/v2"
	"strings"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/syntax"
)

// Inputs returns random parsed inputs whose gold compressions follow a learnable rule
// (keep the query, nouns and verbs, drop the rest, with 10% noise).
func Inputs(seed uint64, count int) []method.Input {
	rng := rand.New(rand.NewPCG(seed, 7))
	tags := []string{"NN", "VB", "DT", "JJ", "IN", "."}
	rels := map[string]string{"NN": "nsubj", "VB": "ccomp", "DT": "det", "JJ": "amod", "IN": "case", ".": "punct"}
	words := map[string][]string{"NN": {"cat", "dog", "city"}, "VB": {"ran", "saw"}, "DT": {"the", "a"},
		"JJ": {"big", "old"}, "IN": {"of", "in"}, ".": {"."}}
	var ins []method.Input
	for len(ins) < count {
		heads := Heads(rng, 2+rng.IntN(20))
		s := &syntax.Sentence{}
		var gold, nouns []int
		for i, h := range heads {
			tag := tags[rng.IntN(len(tags))]
			rel := rels[tag]
			if h == 0 {
				rel = "root"
			}
			ws := words[tag]
			s.Tokens = append(s.Tokens, syntax.Token{Form: ws[rng.IntN(len(ws))], XPOS: tag, Head: h, Rel: rel})
			keep := tag == "NN" || tag == "VB"
			if rng.IntN(10) == 0 {
				keep = !keep
			}
			if keep {
				gold = append(gold, i+1)
				if tag == "NN" {
					nouns = append(nouns, i+1)
				}
			}
		}
		if len(nouns) == 0 {
			continue
		}
		tree, err := method.TreeOf(s)
		if err != nil {
			panic(err)
		}
		b, _ := metrics.CharLen(s.Forms(), gold)
		ins = append(ins, method.Input{Sentence: s, Tree: tree, Query: nouns[:1], Budget: b, Gold: gold})
	}
	return ins
}

// Heads returns a random tree of n tokens as its heads (heads[i] is the head of token
// i+1, 0 for the root): each token in a random order hangs off one drawn before it.
func Heads(rng *rand.Rand, n int) []int {
	heads := make([]int, n)
	perm := rng.Perm(n)
	for i, v := range perm {
		if i > 0 {
			heads[v] = perm[rng.IntN(i)] + 1
		}
	}
	return heads
}

// RuledSentence gives the tokens of a tree (heads[i] is the head of token i+1) random
// forms and relations drawn so that the well-formedness rules of package wellformed bind
// some of them: determiners, case markers, flat chains, negations and commas among
// plain objects, nouns and verbs.
func RuledSentence(rng *rand.Rand, heads []int) *syntax.Sentence {
	s := &syntax.Sentence{Tokens: make([]syntax.Token, len(heads))}
	for i, h := range heads {
		tok := syntax.Token{Form: strings.Repeat("x", 1+rng.IntN(8)), XPOS: "NN", Head: h, Rel: "obj"}
		switch rng.IntN(8) {
		case 0:
			tok.Rel, tok.XPOS = "det", "DT"
		case 1:
			tok.Rel = "flat"
		case 2:
			tok.Form, tok.Rel, tok.XPOS = "not", "advmod", "RB"
		case 3:
			tok.Form, tok.Rel, tok.XPOS = ",", "punct", ","
		case 4:
			tok.Rel, tok.XPOS = "case", "IN"
		case 5:
			tok.XPOS = "VB" // a word that does not read alone (wellformed.Runs.Alone)
		}
		s.Tokens[i] = tok
	}
	return s
}
