package tagger

import (
	"encoding/binary"
	"math"

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

// wordWays is the number of entries of a set of a wordCache, and wordSetBits log2 of the
// number of sets.
const (
	wordWays    = 16
	wordSetBits = 10 // wordCacheSize / wordWays sets
)

// wordCache holds the scores of the features of one word alone (see Tagger.cached) by a
// non-zero 64-bit hash of the form and the role. It is 16-way set-associative: a key can
// only be in the 16 slots of the set its Fibonacci hash picks (their keys fill two cache
// lines), and a new key replaces the least recently used of them, so that frequent words
// stay cached however many rare ones pass, and a vocabulary smaller than the cache
// mostly fits. The zero value is an empty cache; it allocates its slots on the first
// add, and the scores of a slot when the slot is first filled.
type wordCache struct {
	slots   *wordSlots
	scores  []int32 // the T scores of each slot, by its off
	clock   uint32  // ticks at every lookup, for the recency of slots
	evicted int     // entries replaced, for tests
}

// wordSlots are the slots of a wordCache: set s is [wordWays*s, wordWays*(s+1)). A slot
// holds a key (0: empty), the offset + 1 of its scores in wordCache.scores (0: none
// allocated yet) and when it was last used.
type wordSlots struct {
	keys [wordCacheSize]uint64
	off  [wordCacheSize]int32
	used [wordCacheSize]uint32
}

// set returns the first slot of key's set.
func set(key uint64) int {
	return int(key*0x9E3779B97F4A7C15>>(64-wordSetBits)) * wordWays
}

// get returns the T scores cached under key (non-zero), or nil. The slice is valid until
// the next add.
func (c *wordCache) get(key uint64, T int) []int32 {
	if c.slots == nil {
		return nil
	}
	c.clock++
	s := set(key)
	for i, k := range c.slots.keys[s : s+wordWays] {
		if k == key {
			c.slots.used[s+i] = c.clock
			off := int(c.slots.off[s+i] - 1)
			return c.scores[off : off+T : off+T]
		}
	}
	return nil
}

// add caches the scores sc under key (non-zero, not cached yet) in place of the least
// recently used entry of its set and returns the cached copy, valid until the next add.
func (c *wordCache) add(key uint64, sc []int32) []int32 {
	if c.slots == nil {
		c.slots = new(wordSlots)
	}
	s := set(key)
	v := s
	for i, u := range c.slots.used[s : s+wordWays] {
		if u < c.slots.used[v] { // an empty slot was never used: 0
			v = s + i
		}
	}
	if c.slots.keys[v] != 0 {
		c.evicted++
	}
	if c.slots.off[v] == 0 {
		c.scores = append(c.scores, sc...)
		c.slots.off[v] = int32(len(c.scores) - len(sc) + 1)
	}
	c.slots.keys[v], c.slots.used[v] = key, c.clock
	off := int(c.slots.off[v] - 1)
	out := c.scores[off : off+len(sc) : off+len(sc)]
	copy(out, sc)
	return out
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
