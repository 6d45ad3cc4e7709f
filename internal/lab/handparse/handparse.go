// Package handparse builds sentences parsed by hand, for tests: the forms, tags, heads and
// relations of each token written out, as the tests of the display rules and of the run
// program state their cases.
package handparse

import (
	"fmt"

	"github.com/qsc-nlp/qsc/syntax"
)

// Sentence returns the sentence of the tokens forms[i] (tag xpos[i], head heads[i],
// relation rels[i]; no offsets), its tree and its token lengths in bytes. The four slices
// must have one length, and heads must make a tree.
func Sentence(forms, xpos []string, heads []int, rels []string) (*syntax.Sentence, *syntax.Tree, []int, error) {
	if len(xpos) != len(forms) || len(heads) != len(forms) || len(rels) != len(forms) {
		return nil, nil, nil, fmt.Errorf("handparse: %d forms, %d tags, %d heads, %d relations", len(forms), len(xpos), len(heads), len(rels))
	}
	s := &syntax.Sentence{}
	lens := make([]int, len(forms))
	for i, f := range forms {
		s.Tokens = append(s.Tokens, syntax.Token{Form: f, XPOS: xpos[i], Head: heads[i], Rel: rels[i], Start: -1, End: -1})
		lens[i] = len(f)
	}
	tree, err := syntax.NewTree(heads)
	if err != nil {
		return nil, nil, nil, err
	}
	return s, tree, lens, nil
}

// Rules is what Parsed asks of the rules it computes: wellformed.Rules, named by its
// method here because handparse may not import wellformed (whose own tests import
// handparse).
type Rules interface {
	Reset(s *syntax.Sentence, t *syntax.Tree, lens []int, query []int, budget int) error
}

// TB is what Parsed asks of its test: the methods of testing.TB it calls, named here so
// that handparse does not import package testing, which a non-test package should not
// (a binary that linked it would link the test framework). A *testing.T or *testing.B
// is one.
type TB interface {
	Helper()
	Fatal(args ...any)
}

// Parsed is Sentence for a test: it returns the sentence, its tree and its token lengths
// after resetting r for them, the query and the budget, and fails tb (Fatal) when the
// slices do not make a sentence or r does not accept it.
func Parsed(tb TB, r Rules, forms, xpos []string, heads []int, rels []string, query []int, budget int) (*syntax.Sentence, *syntax.Tree, []int) {
	tb.Helper()
	s, tree, lens, err := Sentence(forms, xpos, heads, rels)
	if err != nil {
		tb.Fatal(err)
	}
	if err := r.Reset(s, tree, lens, query, budget); err != nil {
		tb.Fatal(err)
	}
	return s, tree, lens
}
