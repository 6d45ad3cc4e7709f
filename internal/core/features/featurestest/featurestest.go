// Package featurestest compares feature vectors with features written out by hand, for the
// tests of package features and of the methods that extend it.
package featurestest

import (
	"cmp"
	_ "embed"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/syntax"
)

//go:embed tiny.conllu
var tiny string

// Tiny returns the parsed sentence of tiny.conllu, "The old cat chased a mouse yesterday
// ." with The ←det– cat, old ←amod– cat, cat ←nsubj– chased (root), a ←det– mouse,
// mouse ←obj– chased, yesterday ←obl:tmod– chased, . ←punct– chased, and its tree.
func Tiny(t testing.TB) (*syntax.Sentence, *syntax.Tree) {
	t.Helper()
	r, err := conllu.NewReader(strings.NewReader(tiny), "tiny.conllu")
	if err != nil {
		t.Fatal(err)
	}
	ss, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	s := syntax.FromCoNLLU(ss[0])
	tree, err := syntax.NewTree(s.Heads())
	if err != nil {
		t.Fatal(err)
	}
	return s, tree
}

// RandomSentence returns a sentence over the tree heads (heads[i] is the head of token
// i+1, 0 for the root) with random words, tags and relations from short fixed lists, and
// its tree.
func RandomSentence(t testing.TB, rng *rand.Rand, heads []int) (*syntax.Sentence, *syntax.Tree) {
	t.Helper()
	s := &syntax.Sentence{}
	for _, h := range heads {
		s.Tokens = append(s.Tokens, syntax.Token{Form: words[rng.IntN(len(words))], XPOS: tags[rng.IntN(len(tags))],
			Head: h, Rel: labels[rng.IntN(len(labels))]})
	}
	tree, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatal(err)
	}
	return s, tree
}

var (
	tags   = []string{"NN", "NNS", "VB", "DT", "JJ", "IN", "."}
	labels = []string{"nsubj", "obj", "det", "amod", "case", "nmod", "punct", "root"}
	words  = []string{"a", "The", "cat", "ran", "of", "Paris", "big", "."}
)

// Feature is an expected feature: its bucket and value, and a name for the messages.
type Feature struct {
	Name string
	ID   uint32
	Val  float32
}

// Check fails t unless the vector of buckets ids and values vals (a features.Vector's IDs
// and Vals) holds exactly want, as multisets of (bucket, value); it names each missing
// feature. It takes the slices, not the Vector, so that package features' own tests can
// use it.
func Check(t testing.TB, ids []uint32, vals []float32, want []Feature) {
	t.Helper()
	type pair struct {
		id  uint32
		val float32
	}
	var g, w []pair
	for i, id := range ids {
		g = append(g, pair{id, vals[i]})
	}
	names := map[pair]string{}
	for _, f := range want {
		p := pair{f.ID, f.Val}
		w = append(w, p)
		names[p] = f.Name
	}
	order := func(a, b pair) int { return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.val, b.val)) }
	slices.SortFunc(g, order)
	slices.SortFunc(w, order)
	if slices.Equal(g, w) {
		return
	}
	for _, p := range w {
		if !slices.Contains(g, p) {
			t.Errorf("missing feature %s = %v", names[p], p.val)
		}
	}
	t.Errorf("got %d features, want %d", len(g), len(w))
}
