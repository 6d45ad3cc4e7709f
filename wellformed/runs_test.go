package wellformed

import (
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
)

// handParsed returns a sentence from forms, tags, heads and relations, with its tree,
// token lengths and rules for the query.
func handParsed(t *testing.T, forms, xpos []string, heads []int, rels []string, query []int) (*syntax.Sentence, *syntax.Tree, *Rules) {
	t.Helper()
	s := &syntax.Sentence{}
	lens := make([]int, len(forms))
	for i := range forms {
		s.Tokens = append(s.Tokens, syntax.Token{Form: forms[i], XPOS: xpos[i], Head: heads[i], Rel: rels[i], Start: -1, End: -1})
		lens[i] = len(forms[i])
	}
	tr, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatal(err)
	}
	r := new(Rules)
	if err := r.Reset(s, tr, lens, query, 1000); err != nil {
		t.Fatal(err)
	}
	return s, tr, r
}

// TestRuns checks the display rules on "The duped client 's lawyer sued Saks Fifth Avenue
// , AP writer Philip Rivers said .", parsed by hand.
func TestRuns(t *testing.T) {
	forms := []string{"The", "duped", "client", "'s", "lawyer", "sued", "Saks", "Fifth", "Avenue", ",", "AP", "writer", "Philip", "Rivers", "said", "."}
	xpos := []string{"DT", "JJ", "NN", "POS", "NN", "VBD", "NNP", "NNP", "NNP", ",", "NNP", "NNP", "NNP", "NNP", "VBD", "."}
	heads := []int{3, 3, 5, 3, 6, 15, 9, 9, 6, 15, 12, 13, 15, 13, 0, 15}
	rels := []string{"det", "amod", "nmod:poss", "case", "nsubj", "ccomp", "compound", "compound", "obj", "punct", "compound", "nmod:desc", "nsubj", "flat", "root", "punct"}
	s, tr, r := handParsed(t, forms, xpos, heads, rels, []int{5})
	var u Runs
	u.Reset(s, tr, r, []int{5})
	for _, c := range []struct {
		v, lo, hi int
		why       string
	}{
		// Each token names what it needs itself; a run holding "The" holds "client", so
		// it must also meet the needs of "client" (the run check is transitive).
		{1, 1, 3, `"The" shares a run with "client": no "The … client"`},
		{2, 2, 3, `"duped" with "client"`},
		{3, 3, 5, `"client" with its possessive and "lawyer"`},
		{4, 3, 4, `"'s" with "client"`},
		{7, 7, 9, `"Saks Fifth Avenue" whole`},
		{9, 7, 9, `"Saks Fifth Avenue" whole`},
		{11, 11, 12, `"AP writer", a name of its own`},
		{13, 13, 14, `"Philip Rivers", not "AP writer Philip Rivers"`},
		{10, 10, 10, "a comma is free"},
	} {
		if u.Lo(c.v) != c.lo || u.Hi(c.v) != c.hi {
			t.Errorf("token %d %q: run must span [%d, %d], want [%d, %d]: %s", c.v, forms[c.v-1], u.Lo(c.v), u.Hi(c.v), c.lo, c.hi, c.why)
		}
	}
	if !u.CanStart(1) || u.CanStart(4) || u.CanStart(10) {
		t.Errorf("starts: The %v, 's %v, comma %v; want true, false, false", u.CanStart(1), u.CanStart(4), u.CanStart(10))
	}
	if u.CanEnd(1) || u.CanEnd(10) || !u.CanEnd(9) || !u.CanEnd(16) {
		t.Errorf("ends: The %v, comma %v, Avenue %v, final period %v; want false, false, true, true", u.CanEnd(1), u.CanEnd(10), u.CanEnd(9), u.CanEnd(16))
	}
	// "sued" leans on its object after it, "Rivers" (flat) on nothing, "Philip" on "said".
	if !u.Dangles(6) || u.Dangles(9) || !u.Dangles(14) && !u.Dangles(13) {
		t.Errorf("dangles: sued %v, Avenue %v, Philip %v", u.Dangles(6), u.Dangles(9), u.Dangles(13))
	}
	if u.Dangles(5) {
		t.Errorf("the query term %q dangles", forms[4])
	}
	if got := u.Names(); len(got) != 3 {
		t.Errorf("names %v, want Saks Fifth Avenue, AP writer, Philip Rivers", got)
	}
}

// TestRunsDate checks that a date is one name: "on May 5 , 2019 ."
func TestRunsDate(t *testing.T) {
	forms := []string{"Sales", "fell", "on", "May", "5", ",", "2019", "."}
	xpos := []string{"NNS", "VBD", "IN", "NNP", "CD", ",", "CD", "."}
	heads := []int{2, 0, 4, 2, 4, 4, 4, 2}
	rels := []string{"nsubj", "root", "case", "obl", "nummod", "punct", "nummod", "punct"}
	s, tr, r := handParsed(t, forms, xpos, heads, rels, []int{1})
	var u Runs
	u.Reset(s, tr, r, []int{1})
	if u.Lo(5) != 3 && u.Lo(5) != 4 || u.Hi(4) != 7 {
		t.Errorf("May 5, 2019: month spans [%d, %d], day from %d; want the date whole", u.Lo(4), u.Hi(4), u.Lo(5))
	}
}
