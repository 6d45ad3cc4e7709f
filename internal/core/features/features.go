// Package features computes the features of Handler & O'Connor (2019) for VERTEX
// ADDITION, and the edge features of Filippova & Altun (2013) that the ILP baseline shares:
//
//   - Edge features (authors' §3.1; see docs/features.md) describe a dependency edge h → n of the
//     parse: its label, the POS tags of h and n, the sibling words of n, the lemma of n,
//     lemma(h)+label, and five numeric features (children counts, depth, length and index of
//     h), as the authors' get_features_of_dep computes them. There is no NER feature (the
//     project has no NER tagger) and no lemmatizer: a lemma is the normalized form, as the
//     Google train file writes words (lowercased, "##" for a token with a digit, "<unk>"
//     outside the training vocabulary; see Vocab).
//   - Local features (authors' §3.2) of a candidate v: the decision type CHILD (v's head is in C),
//     GOVERNOR (a child of v is in C) or DISCONNECTED, plus edge features.
//   - Stateful features (§3.3): position of v, the compression goal, the query's share of
//     the budget, the budget used after adding v, whether v lies left of, inside or right of
//     C, and the history features of C (POS tags, child labels and head labels of its
//     members).
//   - Interaction features (§3.4): crossed features f also fire as (f, dep), (f, type) and
//     (f, type, dep).
//
// A feature is a 64-bit hash of its template and values, reduced to a bucket of a weight
// table of 2^Bits entries. Word-level values are hashed once per sentence (Sentence), and
// the history features of C are maintained incrementally (History, driven by va.Tracker),
// so that the extraction of one decision costs O(features) and allocates nothing once the
// buffers have grown.
package features

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// GovEdge selects the edge whose features describe a GOVERNOR decision.
type GovEdge uint8

// The GOVERNOR edge choices.
const (
	// GovIncoming uses v's own incoming edge head(v) → v, as the authors' code does.
	GovIncoming GovEdge = iota
	// GovChild uses the edge v → u to the leftmost child u of v in C, as the paper says.
	GovChild
)

// Numeric selects how numeric features are represented.
type Numeric uint8

// The numeric feature representations.
const (
	// NumRaw uses the unscaled value, as the authors' DictVectorizer does.
	NumRaw Numeric = iota
	// NumBinned replaces each numeric feature by a one-hot bin.
	NumBinned
	// NumBoth emits both the raw value and the bin.
	NumBoth
)

// Config selects a feature set. The zero value is the authors' ABLATED set with 2^0
// buckets; use LR or Ablated.
type Config struct {
	// Stateful adds the stateful (§3.3) and interaction (§3.4) features: VA_LR. Without it
	// the features are the local ones only: ABLATED.
	Stateful bool
	// GovEdge is the edge described by a GOVERNOR decision.
	GovEdge GovEdge
	// DisconnectedEdge gives DISCONNECTED decisions the edge features of v's incoming edge;
	// the authors give them only the type and the label.
	DisconnectedEdge bool
	// CrossAll crosses every stateful feature with type and label, as the paper says; the
	// authors cross only the position indicators (left/middle/right) and the history.
	CrossAll bool
	// Numeric is the representation of numeric features.
	Numeric Numeric
	// Bits is log2 of the number of weight buckets, 1 to MaxBits.
	Bits uint8
	// Conjoined adds, beyond F&A 2013, conjunctions of the edge's label with what the F&A
	// templates see only alone or not at all: the direction, distance and POS tags of the
	// arc, the head's own label, the dependent's word, position, neighbours, subtree,
	// children, case or mark word and siblings, and the sentence's length (the table in
	// docs/features.md). The ILP's model records it.
	Conjoined bool
	// Query adds conjunctions of the edge's label with where the arc lies relative to the
	// query (Sentence.SetQuery): whether its tokens are query tokens, their parents,
	// children, siblings, ancestors or descendants, and their distance to the nearest query
	// token in words and in the tree. The ILP's model records it.
	Query bool
}

// Version identifies the feature definitions (templates and hashing). Model files record
// it; a model trained under another version cannot be used.
const Version = 1

// MaxBits bounds Config.Bits.
const MaxBits = 26

// ErrConfig is wrapped by the error of an invalid Config.
var ErrConfig = errors.New("features: invalid configuration")

// Validate reports whether c is usable.
func (c Config) Validate() error {
	switch {
	case c.Bits < 1 || c.Bits > MaxBits:
		return fmt.Errorf("%w: Bits = %d, want 1 to %d", ErrConfig, c.Bits, MaxBits)
	case c.GovEdge > GovChild:
		return fmt.Errorf("%w: GovEdge = %d", ErrConfig, c.GovEdge)
	case c.Numeric > NumBoth:
		return fmt.Errorf("%w: Numeric = %d", ErrConfig, c.Numeric)
	}
	return nil
}

// String describes c in one line.
func (c Config) String() string {
	gov := "incoming"
	if c.GovEdge == GovChild {
		gov = "child"
	}
	num := [...]string{"raw", "binned", "both"}[min(int(c.Numeric), 2)]
	s := fmt.Sprintf("stateful=%t gov=%s disconnected-edge=%t cross-all=%t numeric=%s bits=%d",
		c.Stateful, gov, c.DisconnectedEdge, c.CrossAll, num, c.Bits)
	if c.Conjoined {
		s += " conjoined=true"
	}
	if c.Query {
		s += " query=true"
	}
	return s
}

// Size returns the number of weight buckets, 2^Bits.
func (c Config) Size() int { return 1 << c.Bits }

// Vector is a sparse feature vector: feature IDs[i] has value Vals[i]. IDs may repeat
// (hash collisions, or a sibling word that occurs twice); repeated ids add up.
type Vector struct {
	IDs  []uint32
	Vals []float32
}

// Reset empties x, keeping its memory.
func (x *Vector) Reset() { x.IDs, x.Vals = x.IDs[:0], x.Vals[:0] }

// Len returns the number of entries.
func (x *Vector) Len() int { return len(x.IDs) }

// Dot returns Σ w[id]·val. Every id must index w.
func (x *Vector) Dot(w []float32) float32 {
	var z float32
	for i, id := range x.IDs {
		z += w[id] * x.Vals[i]
	}
	return z
}

// Decision types (§3.2).
const (
	TypeChild        = 1 // head(v) ∈ C
	TypeGovernor     = 2 // a child of v is in C
	TypeDisconnected = 3 // neither
)

// TypeName returns "CHILD", "GOVERNOR" or "DISCONNECTED".
func TypeName(t int) string {
	switch t {
	case TypeChild:
		return "CHILD"
	case TypeGovernor:
		return "GOVERNOR"
	case TypeDisconnected:
		return "DISCONNECTED"
	}
	return "?"
}

// Feature templates: the high byte of every feature key.
const (
	// edge features (§3.1)
	tDep          uint64 = iota + 1 // label of the edge
	tSibling                        // (ds, s)
	tPosH                           // POS of h
	tPosN                           // POS of n
	tChildrenH                      // children of h (numeric)
	tChildrenN                      // children of n (numeric)
	tDepthN                         // depth of n (numeric; "depth_h" in the authors' code)
	tCharLenH                       // length of h's word (numeric)
	tIndexH                         // token index of h (numeric; "no_words_in_h")
	tLemmaN                         // lemma of n
	tLemmaHLabel                    // lemma(h) + label
	tSiblingLemma                   // (s:, s, lemma(h))
	tIsNeg                          // label = neg
	// local
	tType // decision type
	// stateful (§3.3)
	tPosition  // round(v/n, 1)
	tCRGoal    // b / ℓ(S)
	tQFrac     // ℓ(Q) / b
	tRemaining // (ℓ(C) + len(v)) / b
	tMiddle    // min C < v < max C
	tRAdd      // v > max C
	tLAdd      // v < min C
	tHasPOS    // (has_already, POS(u))
	tHasChild  // (has_already_d, label of a child edge of u)
	tHasDep    // (has_already_d_dep, label of u's incoming edge)
	// crossings (§3.4)
	tXDep     // (f, dep)
	tXType    // (f, type)
	tXTypeDep // (f, type, dep)
	// bins of numeric features
	tBin
	// conjoined edge features (Config.Conjoined); "label" is the arc's label
	tDirPosN        // label, direction, POS of n
	tPosPair        // POS of h, POS of n, label
	tDist           // label, direction, distance bin
	tGrandLabel     // label, label of h
	tPositionN      // label, position of n in tenths of the sentence
	tWordNLabel     // label, word of n
	tMarkerN        // label, word of n's first case or mark child
	tPunctN         // label, whether n has a punctuation child
	tLenS           // label, sentence length bin
	tChildrenNLabel // label, children of n (bin)
	tDepthLabel     // label, depth of n (bin)
	tPrevPOS        // label, POS of the token before n
	tNextPOS        // label, POS of the token after n
	tBilex          // lemma of h, word of n
	tSubSize        // label, tokens in n's subtree (bin)
	tSubFrac        // label, characters in n's subtree over ℓ(S), in tenths
	tPrevWord       // label, word of the token before n
	tNextWord       // label, word of the token after n
	tPOSTri         // label, POS of the token before n, POS of n
	tOwnLabel       // label, n's label in the parse, POS of n (for ROOT arcs: what n was)
	tRealHead       // label, POS of n's head in the parse, n's label in the parse
	tHeadDir        // label, POS of h, direction
	tLeftChild      // label, label of n's first child
	tRightChild     // label, label of n's last child
	tPrevSib        // label, label of the sibling before n in the parse
	tNextSib        // label, label of the sibling after n in the parse
	tHeadMarker     // label, word of h's first case or mark child
	// query features (Config.Query)
	tQRelN    // label, n's relation to Q
	tQRelH    // label, h's relation to Q
	tQWords   // label, side of n from the nearest query token, distance in words (bin)
	tQTree    // label, distance of n from Q in the tree (bin)
	tQRelPOS  // label, n's relation to Q, POS of n
	tQRelPair // label, h's relation to Q, n's relation to Q
)

// mix combines a key with a value; it is not symmetric.
func mix(a, b uint64) uint64 { return hashing.Fmix(a*0x9e3779b97f4a7c15 + b) }

// key starts a feature key for template t.
func key(t uint64) uint64 { return hashing.Fmix(t << 56) }

// hashString hashes s (FNV-1a, then fmix).
func hashString(s string) uint64 {
	return hashing.Fmix(hashing.String(s))
}

// hashLower hashes the lowercase of s, as hashString(strings.ToLower(s)) for ASCII and
// rune by rune otherwise, without allocating.
func hashLower(s string) uint64 {
	h := uint64(hashing.FNVOffset)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			h = hashing.Add(h, uint64(c))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], unicode.ToLower(r))
		for _, b := range buf[:n] {
			h = hashing.Add(h, uint64(b))
		}
		i += size
	}
	return hashing.Fmix(h)
}

// hashWord hashes the normalized form of a word, as the Google train file writes words
// (wordform.Normalize: lowercased, and "##" for any token containing a digit), without
// allocating.
func hashWord(form string) uint64 {
	if wordform.HasDigit(form) {
		return hashDigits
	}
	return hashLower(form)
}

// Vocab is the set of normalized words seen in training. A word outside it is read as
// "<unk>", as the Google train file writes the words outside its 50,000-word vocabulary,
// so that a model trained on that file sees test text under the same normalization.
type Vocab struct {
	// slots is an open-addressing set of the word hashes other than 0 (0 marks an empty
	// slot), at most half full, so that a lookup reads one or two slots of one cache line
	// (it is made once per token of every sentence compressed); zero tells whether 0 is
	// in the set.
	slots []uint64
	n     int
	zero  bool
}

// NewVocab returns the vocabulary of the given forms (normalized as the features read
// them).
func NewVocab(forms func(yield func(string) bool)) *Vocab {
	var hs []uint64
	for f := range forms {
		hs = append(hs, hashWord(f))
	}
	return VocabOf(hs)
}

// VocabOf returns a vocabulary made of word hashes, as Hashes returns them.
func VocabOf(hashes []uint64) *Vocab {
	size := 16
	for size < 2*len(hashes) {
		size *= 2
	}
	v := &Vocab{slots: make([]uint64, size)}
	for _, h := range hashes {
		v.add(h)
	}
	return v
}

// add puts h in the set.
func (v *Vocab) add(h uint64) {
	if h == 0 {
		if !v.zero {
			v.zero = true
			v.n++
		}
		return
	}
	mask := uint64(len(v.slots) - 1)
	for i := hashing.Fmix(h) & mask; ; i = (i + 1) & mask {
		switch v.slots[i] {
		case h:
			return
		case 0:
			v.slots[i] = h
			v.n++
			return
		}
	}
}

// has reports whether h is in the set.
func (v *Vocab) has(h uint64) bool {
	if h == 0 {
		return v.zero
	}
	mask := uint64(len(v.slots) - 1)
	for i := hashing.Fmix(h) & mask; ; i = (i + 1) & mask {
		switch v.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// Hashes returns the word hashes of v, ascending.
func (v *Vocab) Hashes() []uint64 {
	hs := make([]uint64, 0, v.n)
	if v.zero {
		hs = append(hs, 0)
	}
	for _, h := range v.slots {
		if h != 0 {
			hs = append(hs, h)
		}
	}
	slices.Sort(hs)
	return hs
}

// Len returns the number of words.
func (v *Vocab) Len() int { return v.n }

// word returns the hash under which the features read form.
func (v *Vocab) word(form string) uint64 {
	h := hashWord(form)
	if v != nil && !v.has(h) {
		return hashUnk
	}
	return h
}

// Values of the dummy root token (index 0), as in the authors' code.
var (
	rootWord  = hashString("")
	rootLemma = hashString("is_root")
	rootPOS   = hashString("root")
	labelNeg  = hashString("neg")

	hashDigits = hashString(wordform.Digits)
	hashUnk    = hashString("<unk>")
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
	queue            []int32 // scratch: the vertices in breadth-first order
	// What the query features read (SetQuery), for 0 ≤ n ≤ N: n's relation to Q (qNone,
	// qIn …; the root reads qRoot), the side (1: before n, 2: after) and distance in words
	// of the nearest query token, and the distance in the tree. qrel is empty when no query
	// was set since Reset. qbelow is scratch: n is below a query token.
	qrel, qside, qwords, qtree []uint8
	qbelow                     []bool
}

// Relations of a token to the query (Config.Query): the first that holds, in this order.
const (
	qNone       = iota
	qIn         // a query token
	qParent     // the head of a query token
	qChild      // a child of a query token
	qSibling    // another child of a query token's head (the root's too)
	qAncestor   // above a query token (not its head)
	qDescendant // below a query token (not its child)
	qRoot       // the root, the tail of the ROOT arcs
)

// qFar is the distance of a token that no query token reaches: none, or only through the
// root. Distances are capped just below it.
const qFar = 255

// SetQuery records the query tokens q (1-based ids) for the query features, in time
// linear in the sentence; ids outside 1..N are ignored. Reset forgets them, and without
// a query every token reads as unrelated to it and far from it.
func (x *Sentence) SetQuery(q []int) {
	t := x.tree
	if t == nil {
		return
	}
	n := t.N()
	x.qrel = reuse.Resize(x.qrel, n+1)
	x.qside = reuse.Resize(x.qside, n+1)
	x.qwords = reuse.Resize(x.qwords, n+1)
	x.qtree = reuse.Resize(x.qtree, n+1)
	x.qbelow = reuse.Resize(x.qbelow, n+1)
	clear(x.qrel)
	clear(x.qside)
	clear(x.qbelow)
	for v := range x.qtree {
		x.qtree[v], x.qwords[v] = qFar, qFar
	}
	x.queue = x.queue[:0]
	for _, v := range q {
		if v >= 1 && v <= n && x.qrel[v] != qIn {
			x.qrel[v], x.qtree[v] = qIn, 0
			x.queue = append(x.queue, int32(v))
		}
	}
	nq := len(x.queue)
	if nq == 0 {
		x.qrel = x.qrel[:0]
		return
	}
	// The distance in the tree: breadth first from Q over heads and children, not
	// through the root.
	for i := 0; i < len(x.queue); i++ {
		v := int(x.queue[i])
		d := min(x.qtree[v]+1, qFar-1)
		if h := t.Head(v); h >= 1 && x.qtree[h] == qFar {
			x.qtree[h] = d
			x.queue = append(x.queue, int32(h))
		}
		for _, c := range t.Children(v) {
			if x.qtree[c] == qFar {
				x.qtree[c] = d
				x.queue = append(x.queue, c)
			}
		}
	}
	// The distance in words, and the side of the nearest query token (before on ties).
	last := 0
	for v := 1; v <= n; v++ {
		if x.qrel[v] == qIn {
			last = v
		}
		if last > 0 {
			x.qwords[v], x.qside[v] = uint8(min(v-last, qFar-1)), 1
		}
	}
	last = 0
	for v := n; v >= 1; v-- {
		if x.qrel[v] == qIn {
			last = v
		}
		if d := uint8(min(last-v, qFar-1)); last > 0 && d < x.qwords[v] {
			x.qwords[v], x.qside[v] = d, 2
		}
	}
	// The relations, from the first in the order to the last: each pass marks only the
	// tokens that no earlier one did. x.queue[:nq] still holds Q (the search above only
	// appended after it).
	qs := x.queue[:nq]
	for _, v := range qs {
		x.markQuery(t.Head(int(v)), qParent)
	}
	for _, v := range qs {
		for _, c := range t.Children(int(v)) {
			x.markQuery(int(c), qChild)
		}
	}
	for _, v := range qs {
		for _, s := range t.Children(t.Head(int(v))) {
			x.markQuery(int(s), qSibling)
		}
	}
	for _, v := range qs {
		// Stop at a query token or a parent of one, whose own walk goes on above it,
		// and at an ancestor already marked: each token is climbed through once.
		for a := t.Head(t.Head(int(v))); a >= 1 && x.qrel[a] != qIn && x.qrel[a] != qParent && x.qrel[a] != qAncestor; a = t.Head(a) {
			x.markQuery(a, qAncestor)
		}
	}
	// Descendants: top down from the root.
	x.queue = append(x.queue[:0], 0)
	for i := 0; i < len(x.queue); i++ {
		v := int(x.queue[i])
		for _, c := range t.Children(v) {
			x.qbelow[c] = v >= 1 && (x.qbelow[v] || x.qrel[v] == qIn)
			if x.qbelow[c] {
				x.markQuery(int(c), qDescendant)
			}
			x.queue = append(x.queue, c)
		}
	}
	x.qrel[0] = qRoot
}

// markQuery gives token v the relation r to the query unless it has one.
func (x *Sentence) markQuery(v int, r uint8) {
	if v >= 1 && x.qrel[v] == qNone {
		x.qrel[v] = r
	}
}

// ErrSentence is wrapped by the error of Reset for a sentence that does not match its
// tree.
var ErrSentence = errors.New("features: sentence and tree do not match")

// Reset computes the values of s, whose dependency tree is tree, reusing memory. Words
// outside vocab, if not nil, read as "<unk>". The conjoined features read s and tree
// again on their first use, so neither may change until the next Reset.
func (x *Sentence) Reset(s *syntax.Sentence, tree *syntax.Tree, vocab *Vocab) error {
	if s == nil || tree == nil || s.Len() != tree.N() {
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
	x.lenS = max(n-1, 0)
	for i := range s.Tokens {
		t := &s.Tokens[i]
		w := vocab.word(t.Form)
		x.word[i+1], x.lemma[i+1] = w, w
		x.pos[i+1] = hashString(t.XPOS)
		x.rel[i+1] = hashString(t.Rel)
		l := utf8.RuneCountInString(t.Form)
		x.lens[i+1] = l
		x.lenS += l
	}
	x.conj = false
	x.qrel = x.qrel[:0]
	return nil
}

// emitter appends features to a Vector, reducing keys to buckets. With w set it adds
// their products with w to z instead, in the order Vector.Dot would (so to the same
// float32), and sib, when set, holds the weights of the sibling features of the head being
// scored (EdgeScores).
//
// With w set, add defers the products: it queues each bucket and value, and flush adds
// them to z in order. The weight loads of a whole arc are then independent of one another
// and of the hashing, so the processor overlaps their cache misses (the weight tables are
// megabytes); the sum is the same float32.
type emitter struct {
	x     *Vector
	shift uint8
	num   Numeric
	w     []float32
	z     float32
	sib   []float32
	q     *pending // the deferred products, with w set
}

// pending is the emitter's queue of deferred products: EdgeScores holds one, so that the
// emitters that build vectors carry none.
type pending struct {
	n    int
	ids  [pendingCap]uint32
	vals [pendingCap]float32
}

// pendingCap is the emitter's queue of deferred products; a fuller queue is flushed.
const pendingCap = 128

// sibID marks a queued value that is already a product (a sibling feature's weight).
const sibID = ^uint32(0)

func (e *emitter) add(k uint64, v float32) {
	if e.w != nil {
		e.queue(uint32(k>>e.shift), v)
		return
	}
	e.x.IDs = append(e.x.IDs, uint32(k>>e.shift))
	e.x.Vals = append(e.x.Vals, v)
}

// queue defers z += w[id]·v (z += v for sibID) to flush.
func (e *emitter) queue(id uint32, v float32) {
	q := e.q
	if q.n == pendingCap {
		e.flush()
	}
	q.ids[q.n], q.vals[q.n] = id, v
	q.n++
}

// flush adds the queued products to z in the order they were queued.
func (e *emitter) flush() {
	z, w, q := e.z, e.w, e.q
	for i, id := range q.ids[:q.n] {
		if id == sibID {
			z += q.vals[i]
		} else {
			z += w[id] * q.vals[i]
		}
	}
	e.z, q.n = z, 0
}

// numeric emits numeric feature t with value v, raw and/or as bin b.
func (e *emitter) numeric(t uint64, v float64, b int) {
	if e.num != NumBinned {
		if v != 0 {
			e.add(key(t), float32(v))
		}
	}
	if e.num != NumRaw {
		e.add(mix(mix(key(tBin), t), uint64(b)), 1)
	}
}

// binCount bins a count or index.
func binCount(v int) int {
	switch {
	case v <= 4:
		return v
	case v <= 7:
		return 5
	case v <= 12:
		return 6
	case v <= 20:
		return 7
	case v <= 35:
		return 8
	}
	return 9
}

// binFrac bins a fraction to tenths, capped at 2.
func binFrac(f float64) int { return int(math.Round(10 * min(max(f, 0), 2))) }

// edge appends the edge features (§3.1) of the edge head(n) → n.
func (c *Config) edge(e *emitter, x *Sentence, n int) {
	c.arc(e, x, x.tree.Head(n), n, x.rel[n])
}

// arc appends the edge features (§3.1) of an arc h → n with label hash rel. The
// siblings of n are the children of h in the parse other than n; the child counts and
// the depth of n are those of the parse.
func (c *Config) arc(e *emitter, x *Sentence, h, n int, rel uint64) {
	t := x.tree
	e.add(mix(key(tDep), rel), 1)
	e.add(mix(key(tPosH), x.pos[h]), 1)
	e.add(mix(key(tPosN), x.pos[n]), 1)
	e.add(mix(key(tLemmaN), x.lemma[n]), 1)
	e.add(mix(mix(key(tLemmaHLabel), x.lemma[h]), rel), 1)
	if rel == labelNeg {
		e.add(key(tIsNeg), 1)
	}
	for i, s := range t.Children(h) {
		if int(s) == n {
			continue
		}
		if e.sib != nil { // their products with w, which are the weights (value 1)
			e.queue(sibID, e.sib[2*i])
			e.queue(sibID, e.sib[2*i+1])
			continue
		}
		a, b := siblingKeys(x, h, int(s))
		e.add(a, 1)
		e.add(b, 1)
	}
	nh := t.NumChildren(h)
	e.numeric(tChildrenH, float64(nh), binCount(nh))
	nn := t.NumChildren(n)
	e.numeric(tChildrenN, float64(nn), binCount(nn))
	d := t.Depth(n)
	e.numeric(tDepthN, float64(d), binCount(d))
	e.numeric(tCharLenH, float64(x.lens[h]), binCount(x.lens[h]))
	e.numeric(tIndexH, float64(h), binCount(h))
	if c.Conjoined {
		conjoin(e, x, h, n, rel)
	}
	if c.Query {
		queryFeatures(e, x, h, n, rel)
	}
}

// queryFeatures appends the query features (Config.Query) of an arc h → n with label
// hash rel; without a query (SetQuery) every token reads as qNone and far from it.
func queryFeatures(e *emitter, x *Sentence, h, n int, rel uint64) {
	var rn, rh, side uint64 = qNone, qNone, 0
	words, tree := uint64(binCount(qFar)), uint64(binCount(qFar))
	if h == 0 {
		rh = qRoot
	}
	if len(x.qrel) > 0 {
		rn, rh, side = uint64(x.qrel[n]), uint64(x.qrel[h]), uint64(x.qside[n])
		words, tree = uint64(binCount(int(x.qwords[n]))), uint64(binCount(int(x.qtree[n])))
	}
	e.add(mix(mix(key(tQRelN), rel), rn), 1)
	e.add(mix(mix(key(tQRelH), rel), rh), 1)
	e.add(mix(mix(mix(key(tQWords), rel), side), words), 1)
	e.add(mix(mix(key(tQTree), rel), tree), 1)
	e.add(mix(mix(mix(key(tQRelPOS), rel), rn), x.pos[n]), 1)
	e.add(mix(mix(mix(key(tQRelPair), rel), rh), rn), 1)
}

// conjoin appends the conjoined features (Config.Conjoined) of an arc h → n with label
// hash rel.
func conjoin(e *emitter, x *Sentence, h, n int, rel uint64) {
	if !x.conj {
		x.conjoined()
	}
	t := x.tree
	dir, dist := uint64(0), n-h
	if n < h {
		dir, dist = 1, h-n
	}
	e.add(mix(mix(mix(key(tDirPosN), rel), dir), x.pos[n]), 1)
	e.add(mix(mix(mix(key(tPosPair), x.pos[h]), x.pos[n]), rel), 1)
	e.add(mix(mix(mix(key(tDist), rel), dir), uint64(binCount(dist))), 1)
	e.add(mix(mix(key(tGrandLabel), rel), x.rel[h]), 1)
	e.add(mix(mix(key(tPositionN), rel), uint64(binFrac(float64(n)/float64(t.N())))), 1)
	e.add(mix(mix(key(tWordNLabel), rel), x.word[n]), 1)
	e.add(mix(mix(key(tMarkerN), rel), x.marker[n]), 1)
	punct := uint64(0)
	if x.punct[n] {
		punct = 1
	}
	e.add(mix(mix(key(tPunctN), rel), punct), 1)
	e.add(mix(mix(key(tLenS), rel), uint64(binCount(t.N()/3))), 1)
	e.add(mix(mix(key(tChildrenNLabel), rel), uint64(binCount(t.NumChildren(n)))), 1)
	e.add(mix(mix(key(tDepthLabel), rel), uint64(binCount(t.Depth(n)))), 1)
	var prevPOS, nextPOS, prevWord, nextWord uint64
	if n > 1 {
		prevPOS, prevWord = x.pos[n-1], x.word[n-1]
	}
	if n < t.N() {
		nextPOS, nextWord = x.pos[n+1], x.word[n+1]
	}
	e.add(mix(mix(key(tPrevPOS), rel), prevPOS), 1)
	e.add(mix(mix(key(tNextPOS), rel), nextPOS), 1)
	e.add(mix(mix(key(tBilex), x.lemma[h]), x.word[n]), 1)
	e.add(mix(mix(key(tSubSize), rel), uint64(binCount(x.sub[n]))), 1)
	e.add(mix(mix(key(tSubFrac), rel), uint64(binFrac(float64(x.subLen[n])/float64(x.lenS+1)))), 1)
	e.add(mix(mix(key(tPrevWord), rel), prevWord), 1)
	e.add(mix(mix(key(tNextWord), rel), nextWord), 1)
	e.add(mix(mix(mix(key(tPOSTri), rel), prevPOS), x.pos[n]), 1)
	e.add(mix(mix(mix(key(tOwnLabel), rel), x.rel[n]), x.pos[n]), 1)
	e.add(mix(mix(mix(key(tRealHead), rel), x.pos[t.Head(n)]), x.rel[n]), 1)
	e.add(mix(mix(mix(key(tHeadDir), rel), x.pos[h]), dir), 1)
	var first, last uint64
	if k := t.Children(n); len(k) > 0 {
		first, last = x.rel[k[0]], x.rel[k[len(k)-1]]
	}
	e.add(mix(mix(key(tLeftChild), rel), first), 1)
	e.add(mix(mix(key(tRightChild), rel), last), 1)
	e.add(mix(mix(key(tPrevSib), rel), x.prevSib[n]), 1)
	e.add(mix(mix(key(tNextSib), rel), x.nextSib[n]), 1)
	e.add(mix(mix(key(tHeadMarker), rel), x.marker[h]), 1)
}

// Relations that the conjoined features read.
const (
	relCase  = 1 // case or mark, with any subtype
	relPunct = 2 // punct, with any subtype
)

// relCat returns relCase, relPunct or 0 for a relation.
func relCat(rel string) uint8 {
	switch syntax.Universal(rel) {
	case "case", "mark":
		return relCase
	case "punct":
		return relPunct
	}
	return 0
}

// conjoined computes what the conjoined features read beyond the tokens' values (see the
// fields of Sentence), in time linear in the sentence.
func (x *Sentence) conjoined() {
	tree := x.tree
	n := tree.N()
	x.conj = true
	x.marker = reuse.Resize(x.marker, n+1)
	x.punct = reuse.Resize(x.punct, n+1)
	x.sub = reuse.Resize(x.sub, n+1)
	x.subLen = reuse.Resize(x.subLen, n+1)
	x.prevSib = reuse.Resize(x.prevSib, n+1)
	x.nextSib = reuse.Resize(x.nextSib, n+1)
	clear(x.marker)
	clear(x.punct)
	clear(x.prevSib)
	clear(x.nextSib)
	for v := 1; v <= n; v++ {
		h := tree.Head(v)
		switch relCat(x.sent.Tokens[v-1].Rel) {
		case relCase:
			if x.marker[h] == 0 {
				x.marker[h] = x.word[v]
			}
		case relPunct:
			x.punct[h] = true
		}
	}
	x.queue = append(x.queue[:0], 0)
	for i := 0; i < len(x.queue); i++ {
		kids := tree.Children(int(x.queue[i]))
		for j, c := range kids {
			if j > 0 {
				x.prevSib[c] = x.rel[kids[j-1]]
			}
			if j+1 < len(kids) {
				x.nextSib[c] = x.rel[kids[j+1]]
			}
		}
		x.queue = append(x.queue, kids...)
	}
	for v := range x.sub {
		x.sub[v], x.subLen[v] = 1, x.lens[v]+1
	}
	for i := len(x.queue) - 1; i > 0; i-- {
		v := int(x.queue[i])
		h := tree.Head(v)
		x.sub[h] += x.sub[v]
		x.subLen[h] += x.subLen[v]
	}
}

// siblingKeys returns the keys of the two sibling features that child s of h gives the
// arcs from h to its other children: its word, and its word with h's lemma.
func siblingKeys(x *Sentence, h, s int) (uint64, uint64) {
	w := x.word[s]
	return mix(key(tSibling), w), mix(mix(key(tSiblingLemma), w), x.lemma[h])
}

// EdgeScores sets edge[n-1] to Edge(x, n)·w and root[n-1] to Arc(x, 0, n, RootLabel)·w
// (0 where head(n) is the root) for every token n, as Vector.Dot of those vectors gives
// them, to the bit, without building them: the products are added in the same order, and
// the weights of each child's sibling features are looked up once per head instead of once
// per other child of the head. sib is scratch memory, returned for the next call. edge and
// root must have room for N entries; w must have Size() entries.
func (c *Config) EdgeScores(x *Sentence, w []float32, edge, root []float64, sib []float32) []float32 {
	t := x.tree
	if t == nil {
		return sib
	}
	var q pending
	e := emitter{shift: 64 - c.Bits, num: c.Numeric, w: w, q: &q}
	for h := 0; h <= t.N(); h++ {
		kids := t.Children(h)
		sib = slices.Grow(sib[:0], 2*len(kids))[:2*len(kids)]
		for i, s := range kids {
			a, b := siblingKeys(x, h, int(s))
			sib[2*i], sib[2*i+1] = w[uint32(a>>e.shift)], w[uint32(b>>e.shift)]
		}
		e.sib = sib
		for _, n := range kids {
			e.z = 0
			c.arc(&e, x, h, int(n), x.rel[n])
			e.flush()
			edge[n-1] = float64(e.z)
		}
		if h == 0 { // the arcs ROOT → n of the tokens whose head is not the root
			for n := 1; n <= t.N(); n++ {
				root[n-1] = 0
				if t.Head(n) != 0 {
					e.z = 0
					c.arc(&e, x, 0, n, rootLabel)
					e.flush()
					root[n-1] = float64(e.z)
				}
			}
		}
	}
	return sib
}

// Edge appends to out the edge features of the edge head(n) → n of the sentence x, for
// 1 ≤ n ≤ N (no-op otherwise). The features do not depend on c's stateful options.
func (c *Config) Edge(x *Sentence, n int, out *Vector) {
	if x.tree == nil || n < 1 || n > x.tree.N() {
		return
	}
	e := emitter{x: out, shift: 64 - c.Bits, num: c.Numeric}
	c.edge(&e, x, n)
}

// RootLabel is the label of the arcs ROOT → n that the ILP baseline adds from the root to
// every token (Filippova & Altun 2013, as the authors' filippova_tree_transform does).
const RootLabel = "ROOT"

var rootLabel = hashString(RootLabel)

// Arc appends to out the edge features of an arc h → n with label rel, which need not be
// an edge of the parse: the ILP baseline scores the parse edges and the added arcs
// ROOT → n (h = 0, rel = RootLabel). As for the authors' code, the siblings of n are the
// children of h in the parse other than n, and the child counts and the depth of n are
// those of the parse. Arc(x, head(n), n, label of n, out) appends what Edge(x, n, out)
// does. It is a no-op unless 0 ≤ h ≤ N, 1 ≤ n ≤ N and h ≠ n.
func (c *Config) Arc(x *Sentence, h, n int, rel string, out *Vector) {
	if x.tree == nil || n < 1 || n > x.tree.N() || h < 0 || h > x.tree.N() || h == n {
		return
	}
	r := rootLabel
	if rel != RootLabel {
		r = hashString(rel)
	}
	e := emitter{x: out, shift: 64 - c.Bits, num: c.Numeric}
	c.arc(&e, x, h, n, r)
}

// History is the set of history features (§3.3) of C, as feature keys. It is maintained
// incrementally: Add(u) when u joins C. A history feature is present or absent (the
// authors' feature dictionary keeps one entry per key), so Keys holds distinct keys.
type History struct {
	keys []uint64
}

// Reset empties h.
func (h *History) Reset() { h.keys = h.keys[:0] }

// Keys returns the distinct history keys in order of first appearance. The slice must not
// be modified.
func (h *History) Keys() []uint64 { return h.keys }

func (h *History) insert(k uint64) {
	for _, o := range h.keys {
		if o == k {
			return
		}
	}
	h.keys = append(h.keys, k)
}

// Add records that u joined C: (has_already, POS(u)), (has_already_d, l) for the label l
// of every child edge of u in the full parse, and (has_already_d_dep, label of u).
func (h *History) Add(x *Sentence, u int) {
	if x.tree == nil || u < 1 || u > x.tree.N() {
		return
	}
	h.insert(mix(key(tHasPOS), x.pos[u]))
	for _, c := range x.tree.Children(u) {
		h.insert(mix(key(tHasChild), x.rel[c]))
	}
	h.insert(mix(key(tHasDep), x.rel[u]))
}

// Scratch is the per-run data of an Extractor, kept in va.State.Scratch.
type Scratch struct {
	Sentence Sentence
	History  History
	Vector   Vector
	// Err is the error of the last Start (a sentence that does not match its tree), or nil.
	Err error
}

// Extractor computes the features of VERTEX ADDITION decisions. It implements va.Tracker:
// Start and Added keep the Sentence and History of the run in a *Scratch in
// va.State.Scratch. It is read-only after construction and safe for concurrent use.
type Extractor struct {
	cfg   Config
	vocab *Vocab
}

// NewExtractor returns an extractor for cfg. Words outside vocab read as "<unk>"; a nil
// vocab keeps every word.
func NewExtractor(cfg Config, vocab *Vocab) (*Extractor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Extractor{cfg: cfg, vocab: vocab}, nil
}

// Vocab returns the vocabulary, or nil.
func (f *Extractor) Vocab() *Vocab { return f.vocab }

// Config returns the configuration.
func (f *Extractor) Config() Config { return f.cfg }

// ScratchOf returns the *Scratch of s, creating it when s.Scratch holds something else.
func ScratchOf(s *va.State) *Scratch {
	sc, ok := s.Scratch.(*Scratch)
	if !ok {
		sc = new(Scratch)
		s.Scratch = sc
	}
	return sc
}

// Start prepares the run: the sentence values, the query (Config.Query) and the history
// of C = Q. A run without a
// Sentence, or whose Sentence does not match the tree, records an error in Scratch.Err,
// and every decision of that run then has no features (method.Compressor rejects such
// inputs before the run).
func (f *Extractor) Start(s *va.State) {
	sc := ScratchOf(s)
	sc.History.Reset()
	sc.Err = sc.Sentence.Reset(s.Sentence(), s.Tree(), f.vocab)
	if sc.Err != nil {
		sc.Sentence.tree = nil
		return
	}
	if f.cfg.Query {
		sc.Sentence.SetQuery(s.Query())
	}
	if f.cfg.Stateful {
		for _, u := range s.Query() {
			sc.History.Add(&sc.Sentence, u)
		}
		for _, u := range s.Accepted() {
			sc.History.Add(&sc.Sentence, u)
		}
	}
}

// Added records that v joined C.
func (f *Extractor) Added(s *va.State, v int) {
	if !f.cfg.Stateful {
		return
	}
	sc := ScratchOf(s)
	sc.History.Add(&sc.Sentence, v)
}

// DecisionType returns the type of candidate v (TypeChild, TypeGovernor or
// TypeDisconnected) and the vertex n whose incoming edge describes the decision: v for
// CHILD and DISCONNECTED decisions and, for GOVERNOR ones, v or its leftmost child in C
// (GovChild).
func (f *Extractor) DecisionType(s *va.State, v int) (typ, n int) {
	t := s.Tree()
	if h := t.Head(v); h > 0 && s.InC(h) {
		return TypeChild, v
	}
	for _, c := range t.Children(v) {
		if s.InC(int(c)) {
			if f.cfg.GovEdge == GovChild {
				return TypeGovernor, int(c)
			}
			return TypeGovernor, v
		}
	}
	return TypeDisconnected, v
}

// Features computes the features of deciding candidate v in state s into the Scratch's
// Vector and returns it. The Vector is valid until the next call with the same s.
// Start must have been called for the run (va.Compressor does so for Trackers).
func (f *Extractor) Features(s *va.State, v int) *Vector {
	sc := ScratchOf(s)
	sc.Vector.Reset()
	f.extract(s, sc, v, &sc.Vector)
	return &sc.Vector
}

// extract appends the features of candidate v to out.
func (f *Extractor) extract(s *va.State, sc *Scratch, v int, out *Vector) {
	e := emitter{x: out, shift: 64 - f.cfg.Bits, num: f.cfg.Numeric}
	x := &sc.Sentence
	if x.tree == nil || v < 1 || v > x.tree.N() {
		return
	}
	typ, n := f.DecisionType(s, v)
	dep := x.rel[n]
	e.add(mix(key(tType), uint64(typ)), 1)
	if typ == TypeDisconnected && !f.cfg.DisconnectedEdge {
		e.add(mix(key(tDep), dep), 1)
	} else {
		f.cfg.edge(&e, x, n)
	}
	if !f.cfg.Stateful {
		return
	}
	cr := crosser{e: &e, typ: uint64(typ), dep: dep}
	b := float64(s.Budget())
	nTok := x.tree.N()
	pos := math.Round(10*float64(v)/float64(nTok)) / 10
	crGoal := b / float64(max(x.lenS, 1))
	lq := 0
	for _, q := range s.Query() {
		lq += x.lens[q] + 1
	}
	lq = max(lq-1, 0)
	qFrac := float64(lq) / b
	rem := float64(s.Len()+x.lens[v]) / b
	if f.cfg.CrossAll {
		cr.numeric(tPosition, pos, binFrac(pos))
		cr.numeric(tCRGoal, crGoal, binFrac(crGoal))
		cr.numeric(tQFrac, qFrac, binFrac(qFrac))
		cr.numeric(tRemaining, rem, binFrac(rem))
	} else {
		e.numeric(tPosition, pos, binFrac(pos))
		e.numeric(tCRGoal, crGoal, binFrac(crGoal))
		e.numeric(tQFrac, qFrac, binFrac(qFrac))
		e.numeric(tRemaining, rem, binFrac(rem))
	}
	if s.Size() > 0 {
		lo, hi := s.MinC(), s.MaxC()
		switch {
		case v < lo:
			cr.indicator(key(tLAdd))
		case v > hi:
			cr.indicator(key(tRAdd))
		default:
			cr.indicator(key(tMiddle))
		}
	}
	for _, k := range sc.History.keys {
		cr.indicator(k)
	}
}

// crosser emits a feature f crossed with the decision type and label (§3.4).
type crosser struct {
	e        *emitter
	typ, dep uint64
}

// cross emits f, (f, dep), (f, type), (f, type, dep), all with value v.
func (c *crosser) cross(f uint64, v float32) {
	c.e.add(f, v)
	c.e.add(mix(mix(f, tXDep), c.dep), v)
	ft := mix(mix(f, tXType), c.typ)
	c.e.add(ft, v)
	c.e.add(mix(mix(ft, tXTypeDep), c.dep), v)
}

func (c *crosser) indicator(f uint64) { c.cross(f, 1) }

// numeric emits a crossed numeric feature, raw and/or binned.
func (c *crosser) numeric(t uint64, v float64, b int) {
	if c.e.num != NumBinned && v != 0 {
		c.cross(key(t), float32(v))
	}
	if c.e.num != NumRaw {
		c.cross(mix(mix(key(tBin), t), uint64(b)), 1)
	}
}
