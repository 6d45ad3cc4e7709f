package tagger

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// Model is a trained tagger. It is read-only and safe for concurrent use by many Taggers.
type Model struct {
	tags  []string // tag names by id, sorted
	feats table    // feature key -> sparse row of (tag, weight) entries, in place in the file
	dict  table    // exact form hash -> a single entry holding the tag (weight 0)
	clust *Clusters
}

// Tags returns the tag set of the model, sorted. The slice must not be modified.
func (m *Model) Tags() []string { return m.tags }

// NumFeatures returns the number of feature rows in the model.
func (m *Model) NumFeatures() int { return m.feats.n }

// row is one feature of a table under construction.
type row struct {
	key  uint64
	ents []uint32
}

func pack(tag int, w int16) uint32 { return uint32(tag)<<16 | uint32(uint16(w)) }

func entTag(e uint32) int      { return int(e >> 16) }
func entWeight(e uint32) int32 { return int32(int16(uint16(e))) }

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
	// touched keeps the bytes addScores reads only to start their memory loads early.
	touched byte
	sure    []bool // the first pass is confident: no second pass
	words   wordCache
}

// wordCacheSize bounds the entries a Tagger caches (about 200 bytes each with 49 tags; a
// word takes up to three: its own, as a left and as a right neighbour).
const wordCacheSize = 16384

// wordSlotBits is log2 of the slots of a wordCache: twice wordCacheSize.
const wordSlotBits = 15

// wordCache holds the scores of the features of one word alone (see Tagger.cached) by a
// non-zero 64-bit hash of the form and the role. It is an open-addressing table with
// linear probing, at most half full, so that a lookup reads one or two slots. When it
// holds wordCacheSize entries it is renewed: the entries used since they were added or
// last kept (the most used ones, up to half of the cache) are kept, the others dropped.
// A vocabulary smaller than the cache thus stays in it for good, and in a larger one the
// frequent words stay cached however many rare ones pass. A key's first slot is its
// Fibonacci hash (slot). The zero value is an empty cache that allocates its slots on the
// first add.
type wordCache struct {
	slots   *[1 << wordSlotBits]wordSlot // key 0 = empty
	n       int                          // entries
	scores  []int32                      // the T scores of each entry, in order of addition
	slotOf  []int32                      // the slot of each entry, while renewing
	kept    []uint64                     // the keys kept, while renewing
	renewed int                          // renewals, for tests
}

// wordSlot is one slot of a wordCache: a key, the offset of its scores and how many
// times they were found since they were added or last kept.
type wordSlot struct {
	key  uint64
	off  int32
	hits uint32
}

// slot returns the first slot to probe for key.
func slot(key uint64) uint64 { return key * 0x9E3779B97F4A7C15 >> (64 - wordSlotBits) }

// get returns the T scores cached under key (non-zero), or nil. The slice is valid until
// the next add.
func (c *wordCache) get(key uint64, T int) []int32 {
	if c.slots == nil {
		return nil
	}
	const mask = 1<<wordSlotBits - 1
	for i := slot(key); ; i = (i + 1) & mask {
		switch c.slots[i].key {
		case key:
			c.slots[i].hits++
			off := int(c.slots[i].off)
			return c.scores[off : off+T : off+T]
		case 0:
			return nil
		}
	}
}

// add caches the scores sc under key (non-zero, not cached yet) and returns the cached
// copy, valid until the next add. It renews the cache first when it is full.
func (c *wordCache) add(key uint64, sc []int32) []int32 {
	if c.slots == nil {
		c.slots = new([1 << wordSlotBits]wordSlot)
	}
	if c.n >= wordCacheSize {
		c.renew(len(sc))
	}
	off := len(c.scores)
	c.scores = append(c.scores, sc...)
	c.insert(wordSlot{key: key, off: int32(off)})
	return c.scores[off : off+len(sc) : off+len(sc)]
}

// insert puts e in the first free slot from its key's, and counts it.
func (c *wordCache) insert(e wordSlot) {
	const mask = 1<<wordSlotBits - 1
	i := slot(e.key)
	for c.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	c.slots[i] = e
	c.n++
}

// renew keeps the entries (of T scores each) found at least h times since they were
// added or last kept, h ≥ 1 the smallest power of two that keeps at most half of the
// cache, and drops the others. The kept scores move to the front of c.scores in their
// order, and their counts restart from 0.
func (c *wordCache) renew(T int) {
	c.renewed++
	// The slot of each entry, and the entries by the bit length of their hits: h = 2^(b−1)
	// keeps those of length b and more.
	var byLen [33]int
	c.slotOf = reuse.Resize(c.slotOf, c.n)
	for i, e := range c.slots {
		if e.key != 0 {
			byLen[bits.Len32(e.hits)]++
			c.slotOf[int(e.off)/T] = int32(i)
		}
	}
	minLen, n := len(byLen), 0
	for minLen > 1 && n+byLen[minLen-1] <= wordCacheSize/2 {
		minLen--
		n += byLen[minLen]
	}
	// The kept entries in their order: each one's scores move down, never onto scores
	// not moved yet.
	c.kept = c.kept[:0]
	for j, i := range c.slotOf {
		if e := c.slots[i]; bits.Len32(e.hits) >= minLen {
			k := len(c.kept)
			copy(c.scores[k*T:(k+1)*T], c.scores[j*T:(j+1)*T])
			c.kept = append(c.kept, e.key)
		}
	}
	clear(c.slots[:])
	c.n, c.scores = 0, c.scores[:len(c.kept)*T]
	for k, key := range c.kept {
		c.insert(wordSlot{key: key, off: int32(k * T)})
	}
}

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
	t.static = reuse.Resize(t.static, n*T)
	t.p1 = reuse.Resize(t.p1, n)
	t.p2 = reuse.Resize(t.p2, n)
	t.sure = reuse.Resize(t.sure, n)
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
	key := x.form // non-zero
	if side != 0 {
		salt := uint64(side) << 1
		if clusters {
			salt |= 1
		}
		key = nz(hashing.Fmix(key ^ salt*0x9E3779B97F4A7C15))
	}
	if sc := t.words.get(key, T); sc != nil {
		return sc
	}
	clear(t.scores[:T])
	if side == 0 {
		t.keys = appendWord(t.keys[:0], x)
	} else {
		t.keys = appendNeighbour(t.keys[:0], x, side, clusters)
	}
	t.addScores(&t.scores, t.keys)
	return t.words.add(key, t.scores[:T])
}

// addVec adds src to dst.
func addVec(dst, src []int32) {
	src = src[:len(dst)]
	for j, v := range src {
		dst[j] += v
	}
}

// addScores adds the weights of the features keys to sc. The rows of all keys are
// located first, and the first byte of each key's bucket read, so that their memory loads
// overlap (the scan that follows branches on the bytes it reads, which would otherwise
// wait for each load in turn), then the entries are added.
func (t *Tagger) addScores(sc *[maxTags]int32, keys []uint64) {
	f := &t.m.feats
	if f.n == 0 {
		return
	}
	// The buckets of all keys, then their rows: each step's memory loads are independent.
	runs := t.runs[:0]
	var touched byte
	last := len(f.data) - 1 // f.data holds a row at least
	for _, k := range keys {
		lo, hi := f.bucket(k)
		touched |= f.data[min(lo, last)] // lo is len(f.data) in the empty last buckets
		runs = append(runs, [2]uint32{uint32(lo), uint32(hi)})
	}
	t.touched = touched
	n := 0
	for i, k := range keys {
		if lo, hi := f.scan(k, int(runs[i][0]), int(runs[i][1])); lo < hi {
			runs[n] = [2]uint32{uint32(lo), uint32(hi)}
			n++
		}
	}
	runs = runs[:n]
	t.runs = runs
	data := f.data
	for _, r := range runs {
		// An entry with the byte after it reads as one uint32: tag, weight, next byte.
		e := data[r[0]:min(int(r[1])+1, len(data))]
		for ; len(e) >= 4; e = e[3:] {
			v := binary.LittleEndian.Uint32(e)
			sc[uint8(v)] += int32(int16(v >> 8))
		}
		if len(e) == 3 { // the last entry of data
			sc[e[0]] += int32(int16(uint16(e[1]) | uint16(e[2])<<8))
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
