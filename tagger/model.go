package tagger

import (
	"math"
	"slices"

	"github.com/qsc-nlp/qsc/internal/hashing"
	"github.com/qsc-nlp/qsc/syntax"
)

// Model is a trained tagger. It is read-only and safe for concurrent use by many Taggers.
type Model struct {
	tags  []string // tag names by id, sorted
	feats table    // feature key -> sparse row of (tag, weight) entries
	dict  table    // exact form hash -> a single entry holding the tag (weight unused)
	clust *Clusters
}

// Tags returns the tag set of the model, sorted. The slice must not be modified.
func (m *Model) Tags() []string { return m.tags }

// NumFeatures returns the number of feature rows in the model.
func (m *Model) NumFeatures() int { return m.feats.n }

// table is an open-addressing hash table from a non-zero 64-bit key to a contiguous run
// of packed entries (tag<<16 | uint16(weight)). A slot keeps the key and the position of
// its run together, so that a lookup touches one slot and one run.
type table struct {
	mask  uint64
	slots []slot
	ents  []uint32
	n     int // number of keys
}

type slot struct {
	key    uint64 // 0 = empty
	off, n uint32 // entries are ents[off:off+n]
}

// row is one feature of a table under construction.
type row struct {
	key  uint64
	ents []uint32
}

func pack(tag int, w int16) uint32 { return uint32(tag)<<16 | uint32(uint16(w)) }

func entTag(e uint32) int      { return int(e >> 16) }
func entWeight(e uint32) int32 { return int32(int16(uint16(e))) }

// buildTable builds a table from rows with distinct non-zero keys.
func buildTable(rows []row) table {
	total := 0
	for _, r := range rows {
		total += len(r.ents)
	}
	t := newTable(len(rows), total)
	for _, r := range rows {
		t.add(r.key, r.ents)
	}
	return t
}

// newTable returns an empty table for keys distinct non-zero keys with ents entries in
// all: at most two thirds of its slots will be used.
func newTable(keys, ents int) table {
	size := 16
	for 2*size < 3*keys {
		size *= 2
	}
	return table{mask: uint64(size - 1), slots: make([]slot, size), ents: make([]uint32, 0, ents)}
}

// add adds a key that t does not hold, with its entries.
func (t *table) add(key uint64, ents []uint32) {
	s := key & t.mask
	for t.slots[s].key != 0 {
		s = (s + 1) & t.mask
	}
	t.slots[s] = slot{key: key, off: uint32(len(t.ents)), n: uint32(len(ents))}
	t.ents = append(t.ents, ents...)
	t.n++
}

// find returns the entries of key, or nil.
func (t *table) find(key uint64) []uint32 {
	if t.slots == nil {
		return nil
	}
	for s := key & t.mask; ; s = (s + 1) & t.mask {
		sl := &t.slots[s]
		if sl.key == key {
			return t.ents[sl.off : sl.off+sl.n]
		}
		if sl.key == 0 {
			return nil
		}
	}
}

// sortedKeys returns the keys of t in increasing order.
func (t *table) sortedKeys() []uint64 {
	keys := make([]uint64, 0, t.n)
	for _, sl := range t.slots {
		if sl.key != 0 {
			keys = append(keys, sl.key)
		}
	}
	slices.Sort(keys)
	return keys
}

// maxTags is the largest tag set a model can have.
const maxTags = 256

// Tagger tags sentences with a Model. It holds scratch memory, so that tagging does not
// allocate once it has seen a sentence of a given length. A Tagger is not safe for
// concurrent use; make one per goroutine.
type Tagger struct {
	m      *Model
	ex     extractor
	keys   []uint64
	static []int32 // static scores, token i at [i*T:(i+1)*T]
	scores [maxTags]int32
	p1, p2 []int32 // tags of pass 1 and 2
	runs   [][2]uint32
	sure   []bool // the first pass is confident: no second pass
	// words caches the scores of the features of one word alone (see cached) by a hash of
	// the form and the role: the offset of the T scores in wordScores. Emptied when it
	// holds wordCacheSize entries.
	words      map[uint64]int32
	wordScores []int32
}

// wordCacheSize bounds the entries a Tagger caches (about 200 bytes each with 49 tags; a
// word takes up to three: its own, as a left and as a right neighbour).
const wordCacheSize = 16384

// NewTagger returns a Tagger that uses m.
func (m *Model) NewTagger() *Tagger {
	return &Tagger{m: m}
}

// Tag sets the XPOS of every token of s from its Form.
func (t *Tagger) Tag(s *syntax.Sentence) {
	n := len(s.Tokens)
	if n == 0 || len(t.m.tags) == 0 {
		return
	}
	m := t.m
	T := len(m.tags)
	t.ex.load(s, m)
	a := t.ex.attrs
	t.static = grow32(t.static, n*T)
	t.p1 = grow32(t.p1, n)
	t.p2 = grow32(t.p2, n)
	if cap(t.sure) < n {
		t.sure = make([]bool, n, n+n/2)
	}
	t.sure = t.sure[:n]
	for i := range n {
		if d := a[i+pad].dict; d >= 0 {
			t.p1[i], t.p2[i] = d, d
			continue
		}
		c := i + pad
		clusters := a[c].cf != 0
		st := t.static[i*T : (i+1)*T]
		copy(st, t.cached(&a[c], 0, false, T))
		addVec(st, t.cached(&a[c-1], left, clusters, T))
		addVec(st, t.cached(&a[c+1], right, clusters, T))
		copy(t.scores[:T], st)
		t.keys = appendContext(t.keys[:0], a, i)
		t.addScores(&t.scores, t.keys)
		copy(st, t.scores[:T])
	}
	// Pass 1 runs right to left and sees the tags on the right; pass 2 runs left to right
	// and sees its own tags on the left and those of pass 1 on the right.
	for i := n - 1; i >= 0; i-- {
		if a[i+pad].dict >= 0 {
			continue
		}
		copy(t.scores[:T], t.static[i*T:(i+1)*T])
		t.keys = appendDyn(t.keys[:0], a, i, noTag, noTag, ctxTag(t.p1, i+1, n), ctxTag(t.p1, i+2, n))
		t.addScores(&t.scores, t.keys)
		best, margin := argmax(t.scores[:T])
		t.p1[i], t.p2[i] = best, best
		t.sure[i] = margin >= skipMargin
	}
	for i := range n {
		if a[i+pad].dict >= 0 || t.sure[i] {
			continue
		}
		copy(t.scores[:T], t.static[i*T:(i+1)*T])
		t.keys = appendDyn(t.keys[:0], a, i, ctxTag(t.p2, i-1, n), ctxTag(t.p2, i-2, n), ctxTag(t.p1, i+1, n), ctxTag(t.p1, i+2, n))
		t.addScores(&t.scores, t.keys)
		t.p2[i], _ = argmax(t.scores[:T])
	}
	for i := range s.Tokens {
		s.Tokens[i].XPOS = m.tags[t.p2[i]]
	}
}

// cached returns the T scores of the features of x alone: its word features (side 0,
// appendWord) or its features as the left or right neighbour of a token (appendNeighbour),
// from the cache or computed and cached. Frequent words recur within and across
// sentences, and these features are more than half of all feature lookups.
func (t *Tagger) cached(x *attr, side int, clusters bool, T int) []int32 {
	key := x.form
	if side != 0 {
		salt := uint64(side) << 1
		if clusters {
			salt |= 1
		}
		key = hashing.Fmix(key ^ salt*0x9E3779B97F4A7C15)
	}
	if off, ok := t.words[key]; ok {
		return t.wordScores[off : int(off)+T]
	}
	if t.words == nil {
		t.words = make(map[uint64]int32, wordCacheSize)
	}
	if len(t.words) >= wordCacheSize {
		clear(t.words)
		t.wordScores = t.wordScores[:0]
	}
	clear(t.scores[:T])
	if side == 0 {
		t.keys = appendWord(t.keys[:0], x)
	} else {
		t.keys = appendNeighbour(t.keys[:0], x, side, clusters)
	}
	t.addScores(&t.scores, t.keys)
	off := len(t.wordScores)
	t.wordScores = append(t.wordScores, t.scores[:T]...)
	t.words[key] = int32(off)
	return t.wordScores[off : off+T]
}

// addVec adds src to dst.
func addVec(dst, src []int32) {
	src = src[:len(dst)]
	for j, v := range src {
		dst[j] += v
	}
}

// addScores adds the weights of the features keys to sc. The slots of all keys are
// located first, so that their memory loads overlap, then the entries are added.
func (t *Tagger) addScores(sc *[maxTags]int32, keys []uint64) {
	f := &t.m.feats
	if f.slots == nil {
		return
	}
	runs := t.runs[:0]
	for _, k := range keys {
		for s := k & f.mask; ; s = (s + 1) & f.mask {
			sl := f.slots[s]
			if sl.key == k {
				runs = append(runs, [2]uint32{sl.off, sl.off + sl.n})
				break
			}
			if sl.key == 0 {
				break
			}
		}
	}
	t.runs = runs
	for _, r := range runs {
		for _, e := range f.ents[r[0]:r[1]] {
			sc[uint8(e>>16)] += int32(int16(uint16(e)))
		}
	}
}

// argmax returns the best tag and its margin over the second best.
func argmax(sc []int32) (int32, int32) {
	best, second := 0, int32(math.MinInt32)
	for j := 1; j < len(sc); j++ {
		if v := sc[j]; v > sc[best] {
			second = sc[best]
			best = j
		} else if v > second {
			second = v
		}
	}
	return int32(best), sc[best] - second
}

// skipMargin: a token whose first-pass score beats the runner-up by this much keeps its
// first-pass tag without a second pass.
const skipMargin = 40 * quantScale

func grow32(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n, n+n/2)
}
