// Package features is the edge layer shared by the VERTEX ADDITION models (method/lr) and
// the ILP baseline (method/ilp): the features of a dependency arc h → n, hashed into a
// weight table (docs/features.md).
//
//   - Edge features (Filippova & Altun 2013, as Handler & O'Connor's get_features_of_dep
//     computes them) describe an arc: its label, the POS tags of h and n, the sibling words
//     of n, the lemma of n, lemma(h)+label, and five numeric features (children counts,
//     depth, length and index of h). There is no NER feature (the project has no NER tagger)
//     and no lemmatizer: a lemma is the normalized form, as the Google train file writes
//     words (lowercased, "##" for a token with a digit, "<unk>" outside the training
//     vocabulary; see Vocab).
//   - Conjoined features (Config.Conjoined) conjoin the label with what the edge features
//     see alone or not at all.
//   - Query features (Config.Query) conjoin the label with where the arc lies relative to
//     the query (Sentence.SetQuery).
//
// A feature is a 64-bit hash of its template and values, reduced to a bucket of a weight
// table of 2^Bits entries (Config.Bucket). A method may add its own features to the same
// table under the templates reserved for it (FirstMethodTemplate, Key, Mix). Word-level
// values are hashed once per sentence (Sentence), so that the features of one arc cost
// O(features) and allocate nothing once the buffers have grown.
package features

import (
	"errors"
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
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

// Config selects the edge features and the weight table they are hashed into. Bits must
// be set (Validate); the zero value of the rest is F&A's edge features with raw numeric
// values, as the authors' code computes them.
type Config struct {
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
	case c.Numeric > NumBoth:
		return fmt.Errorf("%w: Numeric = %d", ErrConfig, c.Numeric)
	}
	return nil
}

// String describes c in one line.
func (c Config) String() string {
	num := [...]string{"raw", "binned", "both"}[min(int(c.Numeric), 2)]
	s := fmt.Sprintf("numeric=%s bits=%d", num, c.Bits)
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

// Dot returns Σ w[id]·val, the products added in x's order. Every id must index w.
func (x *Vector) Dot(w []float32) float32 { return x.DotFrom(0, w) }

// DotFrom returns z + Σ w[id]·val, the products added to z one at a time in x's order:
// so the Dot of a vector made of the entries of a and then those of b is, to the bit,
// b.DotFrom(a.Dot(w), w). Every id must index w. A weight table of a power of two
// entries (Config.Size) is read at the ids masked by its size less one, which are the
// ids (Config.Bucket), so that the loads need no bounds test.
func (x *Vector) DotFrom(z float32, w []float32) float32 {
	vals := x.Vals[:len(x.IDs)]
	if n := uint(len(w)); n > 0 && n&(n-1) == 0 {
		mask := n - 1
		for i, id := range x.IDs {
			z += w[uint(id)&mask] * vals[i]
		}
		return z
	}
	for i, id := range x.IDs {
		z += w[id] * vals[i]
	}
	return z
}

// Feature templates: the high byte of every feature key. Their numbers are part of
// Version.
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
)

// Templates FirstMethodTemplate to LastMethodTemplate are reserved for the features that a
// method adds to the edge features in the same table (the decision features of method/lr):
// their keys (Key, Mix, BinKey) cannot collide with the edge features' by template.
const (
	FirstMethodTemplate uint64 = tIsNeg + 1
	LastMethodTemplate  uint64 = 27
)

// The templates after the reserved ones.
const (
	// bins of numeric features
	tBin uint64 = LastMethodTemplate + 1 + iota
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

// Key starts the key of a feature of template t, one of FirstMethodTemplate to
// LastMethodTemplate.
func Key(t uint64) uint64 { return key(t) }

// Mix combines a feature key with a value (a hash, a count or another key); it is not
// symmetric.
func Mix(k, v uint64) uint64 { return mix(k, v) }

// BinKey returns the key of bin b of numeric feature t, as the edge features' bins are
// keyed (NumBinned, NumBoth).
func BinKey(t uint64, b int) uint64 { return mix(mix(key(tBin), t), uint64(b)) }

// LabelKey returns the key of the edge feature "label = l" for a label hash l
// (Sentence.Label).
func LabelKey(l uint64) uint64 { return mix(key(tDep), l) }

// Bucket returns the weight bucket of key k: its top Bits bits, so below Size() whatever
// k. This is where the bound of every feature id is established: the edge features reduce
// their keys by the same shift, and a method's own features (FirstMethodTemplate) are
// reduced by Bucket. A weight table for c has exactly Size() entries: a model file
// records Bits, and its loader (method/lr, method/ilp) allocates the table from them and
// extracts the features with the same Config. So every id indexes the table, and
// Vector.DotFrom and EdgeScores read a table of a power of two entries at id & (Size()-1),
// which is id, with no bounds test. The mask is not a check: ids of a Config with more
// Bits, read against this table, would read other weights without an error.
func (c *Config) Bucket(k uint64) uint32 { return uint32(k >> c.shift()) }

// shift is the right shift that reduces a 64-bit key to its bucket (Bucket).
func (c *Config) shift() uint8 { return 64 - c.Bits }
