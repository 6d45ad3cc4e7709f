package features

import (
	"errors"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// Values of the dummy root token (index 0), as in the authors' code.
var (
	rootWord  = hashString("")
	rootLemma = hashString("is_root")
	rootPOS   = hashString("root")
)

// Sentence holds the per-sentence values the features read: hashes of words, lemmas, POS
// tags and labels, and ℓ(S). Index 0 is the dummy root.
type Sentence struct {
	sent  *syntax.Sentence
	tree  *syntax.Tree
	word  []uint64 // hash of the lowercased form (the "lemma"; see the package doc)
	lemma []uint64 // = word, except for the root ("is_root" vs "")
	pos   []uint64
	rel   []uint64
	lens  []int
	lenS  int // ℓ(S) = Σ len + n − 1
	// What the conjoined features read, for 0 ≤ n ≤ N, computed on their first use after
	// Reset (conj): the word hash of n's first case or mark child (0: none), whether n has
	// a punctuation child, the tokens and characters (each word and one space) in n's
	// subtree, and the labels of the siblings of n before and after it (0: none).
	conj             bool
	marker           []uint64
	punct            []bool
	sub, subLen      []int
	prevSib, nextSib []uint64
	// The bins (BinFrac) of n's position, n/N, and of its subtree's characters over ℓ(S)+1,
	// which every arc into n reads.
	posBin, subBin []uint8
	queue          []int32 // scratch: the vertices in breadth-first order
	// What the query features read (SetQuery), for 0 ≤ n ≤ N: n's relation to Q (qNone,
	// qIn …; the root reads qRoot), the side (1: before n, 2: after) and distance in words
	// of the nearest query token, and the distance in the tree. qrel is empty when no query
	// was set since Reset. qbelow is scratch: n is below a query token.
	qrel, qside, qwords, qtree []uint8
	qbelow                     []bool
	// rels caches the label-prefixed keys of the features (relKeys), across sentences.
	rels *relCache
	// pend is EdgeScores' queue of deferred products, and emitted the features of the arc
	// that Edge or Arc appends to a Vector.
	pend    pending
	emitted []product
}

// ErrSentence is wrapped by the error of Reset for a sentence that does not match its
// tree.
var ErrSentence = errors.New("features: sentence and tree do not match")

// Reset computes the values of s, whose dependency tree is tree, reusing memory. Words
// outside vocab, if not nil, read as "<unk>". The conjoined features read s and tree
// again on their first use, so neither may change until the next Reset. On error x holds
// no sentence: Tree returns nil and the features of x are empty until the next Reset.
func (x *Sentence) Reset(s *syntax.Sentence, tree *syntax.Tree, vocab *Vocab) error {
	if s == nil || tree == nil || s.Len() != tree.N() {
		x.sent, x.tree = nil, nil
		return ErrSentence
	}
	n := s.Len()
	x.sent, x.tree = s, tree
	x.word = reuse.Resize(x.word, n+1)
	x.lemma = reuse.Resize(x.lemma, n+1)
	x.pos = reuse.Resize(x.pos, n+1)
	x.rel = reuse.Resize(x.rel, n+1)
	x.lens = reuse.Resize(x.lens, n+1)
	x.word[0], x.lemma[0], x.pos[0], x.rel[0], x.lens[0] = rootWord, rootLemma, rootPOS, 0, 0
	width := 0 // Σ (len + 1), for syntax.Length
	for i := range s.Tokens {
		t := &s.Tokens[i]
		x.word[i+1] = hashWord(t.Form)
		x.pos[i+1] = hashString(t.XPOS)
		x.rel[i+1] = hashString(t.Rel)
		l := syntax.TokenLen(t.Form)
		x.lens[i+1] = l
		width += l + 1
	}
	x.lenS = syntax.Length(width)
	// The vocabulary after the hashes, in a loop of its own: its lookups, cache misses in
	// a table of a megabyte, are then independent of one another and overlap.
	for i, h := range x.word[1:] {
		w := vocab.known(h)
		x.word[i+1], x.lemma[i+1] = w, w
	}
	x.conj = false
	x.qrel = x.qrel[:0]
	return nil
}

// Rebind points x at s and tree, which must hold what the sentence and tree of its last
// successful Reset held, as the features read them (the tokens' forms, XPOS tags and
// labels, and the heads), under the same vocabulary: every value computed from them,
// the query's (SetQuery) included, stands. It is Reset and SetQuery again in O(1), for a
// caller that compared the two.
func (x *Sentence) Rebind(s *syntax.Sentence, tree *syntax.Tree) { x.sent, x.tree = s, tree }

// Tree returns the dependency tree of the sentence, or nil when x holds none.
func (x *Sentence) Tree() *syntax.Tree { return x.tree }

// Label returns the hash of the label of n's incoming edge (0 for the root), 0 ≤ n ≤ N.
func (x *Sentence) Label(n int) uint64 { return x.rel[n] }

// POS returns the hash of n's POS tag ("root" for the root), 0 ≤ n ≤ N.
func (x *Sentence) POS(n int) uint64 { return x.pos[n] }

// WordLen returns the length of n's word in characters (0 for the root), 0 ≤ n ≤ N.
func (x *Sentence) WordLen(n int) int { return x.lens[n] }

// LenS returns ℓ(S): the characters of the words joined by single spaces.
func (x *Sentence) LenS() int { return x.lenS }
