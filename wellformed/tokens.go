package wellformed

import (
	"strings"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// rel is the universal part of a UD relation (syntax.Universal) as a small code: one for
// each relation that a rule names, relOther for every other one (and for no relation).
// relOf(a) == relOf(b) ≠ relOther exactly when a and b have the same universal part, so
// a test of the code is the test of the string.
type rel uint8

// Relations that the rules name.
const (
	relOther rel = iota
	relAcl
	relAdvcl
	relAdvmod
	relAmod
	relAux
	relCase
	relCc
	relCcomp
	relClf
	relCompound
	relConj
	relCop
	relCsubj
	relDet
	relDiscourse
	relExpl
	relFixed
	relFlat
	relGoeswith
	relIobj
	relMark
	relNeg
	relNmod
	relNsubj
	relNummod
	relObj
	relObl
	relParataxis
	relPunct
	relXcomp
)

// relOf returns the code of the universal part of the UD relation label.
func relOf(label string) rel {
	switch syntax.Universal(label) {
	case "acl":
		return relAcl
	case "advcl":
		return relAdvcl
	case "advmod":
		return relAdvmod
	case "amod":
		return relAmod
	case "aux":
		return relAux
	case "case":
		return relCase
	case "cc":
		return relCc
	case "ccomp":
		return relCcomp
	case "clf":
		return relClf
	case "compound":
		return relCompound
	case "conj":
		return relConj
	case "cop":
		return relCop
	case "csubj":
		return relCsubj
	case "det":
		return relDet
	case "discourse":
		return relDiscourse
	case "expl":
		return relExpl
	case "fixed":
		return relFixed
	case "flat":
		return relFlat
	case "goeswith":
		return relGoeswith
	case "iobj":
		return relIobj
	case "mark":
		return relMark
	case "neg":
		return relNeg
	case "nmod":
		return relNmod
	case "nsubj":
		return relNsubj
	case "nummod":
		return relNummod
	case "obj":
		return relObj
	case "obl":
		return relObl
	case "parataxis":
		return relParataxis
	case "punct":
		return relPunct
	case "xcomp":
		return relXcomp
	}
	return relOther
}

// fact is a set of what a token is, as the rules ask it: one bit for each predicate that
// tokens records.
type fact uint8

// Facts of a token.
const (
	factPunct    fact = 1 << iota // punctuation: relation punct or UPOS PUNCT
	factProper                    // a proper noun (isProper)
	factNumber                    // a cardinal number (isNumber)
	factNegation                  // a negation of its head (IsNegation)
	factHedge                     // an epistemic hedge on its head (IsHedge)
	factOpens                     // the opening half of a pair: pairOpen is +1
	factCloses                    // the closing half of a pair: pairOpen is −1
)

// tokens holds, for each token v (1-based; index 0 is the root, with no relation and no
// fact) of one sentence, the code of its relation and its facts: what the rules ask of a
// token many times over (Rules, Runs, Check), derived from the token alone, once per
// sentence. The zero value is ready; reset costs O(n) and, once grown, allocates nothing.
type tokens struct {
	rel []rel
	is  []fact
}

// reset derives the relations and facts of the tokens of s.
func (k *tokens) reset(s *syntax.Sentence) {
	n := s.Len()
	k.rel = reuse.Resize(k.rel, n+1)
	k.is = reuse.Resize(k.is, n+1)
	k.rel[0], k.is[0] = relOther, 0
	for v := 1; v <= n; v++ {
		tok := &s.Tokens[v-1]
		r := relOf(tok.Rel)
		var f fact
		if r == relPunct || tok.UPOS == "PUNCT" {
			f |= factPunct
		}
		if isProper(tok) {
			f |= factProper
		}
		if isNumber(tok) {
			f |= factNumber
		}
		if isNegation(r, tok.Form) {
			f |= factNegation
		}
		if isHedge(r, tok.Form) {
			f |= factHedge
		}
		switch pairOpen(tok.Form) {
		case 1:
			f |= factOpens
		case -1:
			f |= factCloses
		}
		k.rel[v], k.is[v] = r, f
	}
}

// copyFrom sets k to a copy of src.
func (k *tokens) copyFrom(src *tokens) {
	k.rel = append(k.rel[:0], src.rel...)
	k.is = append(k.is[:0], src.is...)
}

// has reports whether token v has the fact f (any of them, for a set).
func (k *tokens) has(v int, f fact) bool { return k.is[v]&f != 0 }

// pairOpen returns pairOpen of token v's form.
func (k *tokens) pairOpen(v int) int {
	switch {
	case k.has(v, factOpens):
		return 1
	case k.has(v, factCloses):
		return -1
	}
	return 0
}

// isNumber reports whether a token is a cardinal number.
func isNumber(tok *syntax.Token) bool { return tok.XPOS == "CD" || tok.UPOS == "NUM" }

// isProper reports whether a token is a proper noun.
func isProper(tok *syntax.Token) bool {
	return strings.HasPrefix(tok.XPOS, "NNP") || tok.UPOS == "PROPN"
}
