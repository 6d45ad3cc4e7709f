package runs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// vocab is a small vocabulary of forms, tags and relations that the rules treat in their
// own ways: punctuation that attaches to the word before it, function words, names,
// numbers, wh-words, negations.
var vocab = []struct{ form, upos, xpos, rel string }{
	{"et", "X", "FW", "flat"}, {"al.", "X", "FW", "flat"}, {"which", "PRON", "WDT", "nsubj"},
	{"who", "PRON", "WP", "nsubj"}, {"where", "ADV", "WRB", "advmod"}, {"out", "ADP", "RP", "compound:prt"},
	{"is", "AUX", "VBZ", "cop"}, {"sells", "VERB", "VBZ", "acl:relcl"}, {"not", "PART", "RB", "advmod"},
	{",", "PUNCT", ",", "punct"}, {".", "PUNCT", ".", "punct"}, {"(", "PUNCT", "-LRB-", "punct"},
	{")", "PUNCT", "-RRB-", "punct"}, {"May", "PROPN", "NNP", "flat"}, {"5", "NUM", "CD", "nummod"},
	{"2019", "NUM", "CD", "nmod"}, {"kg", "NOUN", "NNS", "obj"}, {"'s", "PART", "POS", "case"},
	{"whether", "SCONJ", "IN", "mark"}, {"the", "DET", "DT", "det"}, {"a", "DET", "DT", "det"},
	{"and", "CCONJ", "CC", "cc"}, {"Smith", "PROPN", "NNP", "nsubj"}, {"Bank", "PROPN", "NNP", "compound"},
	{"of", "ADP", "IN", "case"}, {"lazy", "ADJ", "JJ", "amod"}, {"runs", "VERB", "VBZ", "root"},
	{"dog", "NOUN", "NN", "obj"}, {"wear", "VERB", "VB", "xcomp"}, {"no", "DET", "DT", "det"},
	{"\"", "PUNCT", "``", "punct"}, {"to", "PART", "TO", "mark"}, {"Yale", "PROPN", "NNP", "compound"},
	{"-", "PUNCT", "HYPH", "punct"}, {"said", "VERB", "VBD", "ccomp"}, {"…", "PUNCT", ":", "punct"},
}

// vocabInput returns a random problem of 1 to maxN tokens drawn from vocab: a random
// tree, each token as long as its form, no offsets (the display places spaces by the
// forms), and up to 3 query tokens that are not punctuation; Budget and Rules unset.
func vocabInput(t testing.TB, rng *rand.Rand, maxN int) *runs.Input {
	t.Helper()
	n := 1 + rng.IntN(maxN)
	heads := synth.Heads(rng, n)
	tree, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatal(err)
	}
	s := &syntax.Sentence{Tokens: make([]syntax.Token, n)}
	lens := make([]int, n)
	for i := range n {
		v := vocab[rng.IntN(len(vocab))]
		s.Tokens[i] = syntax.Token{Form: v.form, UPOS: v.upos, XPOS: v.xpos, Rel: v.rel, Head: heads[i], Start: -1, End: -1}
		if heads[i] == 0 {
			s.Tokens[i].Rel = "root"
		}
		lens[i] = len([]rune(v.form))
	}
	in := &runs.Input{Sentence: s, Tree: tree, Lens: lens}
	for _, q := range rng.Perm(n)[:rng.IntN(min(n, 3)+1)] {
		if s.Tokens[q].UPOS != "PUNCT" {
			in.Query = append(in.Query, q+1)
		}
	}
	slices.Sort(in.Query)
	return in
}

// TestNestedNarrowerLater checks the cases of the review where the nested decoding
// yielded though a display fits: the smallest runs that hold the query, "no ccomp …
// not" (15 characters shown), are wider than the whole sentence "no ccomp, not" (14), a
// later state of the sequence, since the cut " … " is wider than ", ". At b = 13 (room
// for 14 with the separator) the nested display is the whole sentence, a state of the
// sequence, and the rules do not yield.
func TestNestedNarrowerLater(t *testing.T) {
	for _, c := range []struct {
		forms, xpos, rels []string
		heads, query      []int
	}{
		{[]string{"no", "ccomp", ",", "not"}, []string{"DT", "VB", ",", "RB"}, []string{"det", "ccomp", "punct", "root"}, []int{2, 4, 4, 0}, []int{1, 4}},
		{[]string{"the", "is", ",", "sells"}, []string{"DT", "VBZ", ",", "VBZ"}, []string{"det", "root", "punct", "acl:relcl"}, []int{2, 0, 2, 2}, []int{1, 2, 4}},
	} {
		in := handInput(t, c.forms, c.xpos, c.heads, c.rels, c.query, 13)
		pr := runs.Default()
		pr.Display = true
		var d runs.Program
		if _, ok, _ := d.Solve(in, pr, nil); !ok {
			t.Fatalf("%v: the snippet decoding finds no display: the case needs one", c.forms)
		}
		kept, ok := d.Nested(in, pr, []int32{1, 3, 4, 2}, 0, nil)
		if !ok || in.Rules.Yielded() || d.NestedFell() || !slices.Equal(kept, []int{1, 2, 3, 4}) {
			t.Errorf("%v: Nested = %v, %v (yielded %v, fell back %v); want the whole sentence, a state of the sequence", c.forms, kept, ok, in.Rules.Yielded(), d.NestedFell())
		}
	}
}

// TestNestedFindsWhatSnippetFinds checks the nested display on 600 random problems drawn
// from vocab (with and without a query, widths as the display or the tokens count them),
// at every budget where the well-formedness rules hold: it finds a display under the full
// display rules exactly when the snippet decoding does (and marks the rules yielded when
// it does not), the display is allowed, and two budgets whose displays are states of the
// sequence nest.
func TestNestedFindsWhatSnippetFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	found, fell, pairs := 0, 0, 0
	nestedTrials(t, rng, 600, vocabInput, 10, func(trial int, d *runs.Program, p *runs.Input, order []int32) {
		n := p.Tree.N()
		wanted := rng.IntN(n + 1)
		pr := runs.Default()
		pr.Display = rng.IntN(2) == 0
		var prev []int // the display of the last budget, when a state of the sequence
		for b := 1; b <= sentenceWidth(p.Lens)+3*n+4; b++ {
			p.Budget = b
			if resetRules(t, p) {
				prev = nil
				continue
			}
			_, snippet, big := d.Solve(p, pr, nil)
			if big {
				t.Fatalf("trial %d: tables beyond MaxCells", trial)
			}
			resetRules(t, p)
			kept, ok := d.Nested(p, pr, order, wanted, nil)
			if !ok && !p.Rules.Yielded() {
				t.Fatalf("trial %d, b = %d: no nested display, and the rules are not marked yielded", trial, b)
			}
			shown := ok && !p.Rules.Yielded()
			if shown != snippet {
				t.Fatalf("trial %d, b = %d (query %v): nested shows a display %v (%v), the snippet decoding %v", trial, b, p.Query, shown, kept, snippet)
			}
			if !shown {
				prev = nil
				continue
			}
			found++
			mustAllow(t, trial, d, p, pr, kept)
			if d.NestedFell() {
				fell++
				prev = nil
				continue
			}
			if prev != nil {
				pairs++
				mustNest(t, trial, b, prev, kept)
			}
			prev = slices.Clone(kept)
		}
	})
	if found == 0 || fell == 0 || pairs == 0 {
		t.Fatalf("%d displays, %d of them the snippet decoding's, %d pairs: want some of each", found, fell, pairs)
	}
	t.Logf("%d displays, %d of them the snippet decoding's; %d pairs of adjacent budgets", found, fell, pairs)
}

// resetRules computes p's rules for its budget afresh and reports whether they yield to
// the query already.
func resetRules(t *testing.T, p *runs.Input) bool {
	t.Helper()
	p.Rules = new(wellformed.Rules)
	if err := p.Rules.Reset(p.Sentence, p.Tree, p.Lens, p.Query, p.Budget); err != nil {
		t.Fatal(err)
	}
	return p.Rules.Yielded()
}
