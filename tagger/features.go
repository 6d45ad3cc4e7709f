package tagger

import (
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/syntax"
)

// pad is the number of boundary positions on each side of the attrs of a sentence.
const pad = 2

// Context-tag values for the dynamic features: a real tag t is t+1.
const (
	bosTag uint64 = 1<<16 + iota // before the sentence
	eosTag                       // after the sentence
	noTag                        // no right-context tags (first pass)
)

// attr holds the hashed word attributes of one token, computed once per sentence.
type attr struct {
	form, lower uint64
	pre, suf    [4]uint64 // hashes of the first/last k+1 lowercased runes, 0 when shorter
	shape       uint64
	cf, cc      uint64 // fine and coarse cluster + 1, 0 when there are no clusters
	lt, lc      uint64 // tag profile in the cluster corpus: top tag + 1 and class, 0 when none
	dict        int32  // tag from the tag dictionary, or -1
}

// extractor computes attrs; it keeps its memory between sentences.
type extractor struct {
	attrs []attr
	runes []rune
}

// numHash is the cluster key of any word containing a digit ("##" in the unlabeled
// corpus); unkHash that of "<unk>".
var (
	numHash = hashing.Runes([]rune(wordform.Digits))
	unkHash = hashing.Runes([]rune("<unk>"))
)

// key1, key2 and key3 make the non-zero feature key of template tid with 1 to 3 values.
func key1(tid, a uint64) uint64 { return nz(hashing.Fmix(tid*0x9E3779B97F4A7C15 ^ a)) }
func key2(tid, a, b uint64) uint64 {
	return nz(hashing.Fmix(hashing.Fmix(tid*0x9E3779B97F4A7C15^a) ^ b))
}
func key3(tid, a, b, c uint64) uint64 {
	return nz(hashing.Fmix(hashing.Fmix(hashing.Fmix(tid*0x9E3779B97F4A7C15^a)^b) ^ c))
}

func nz(k uint64) uint64 {
	if k == 0 {
		return 1
	}
	return k
}

// absent is the form and shape of a token whose letter case is unknown (a silver training
// token, see TrainOptions.Silver): the features that use them are left out. Real hashes
// are never 0 (see extractor.word).
const absent = 0

// boundary attrs: distinct constant hashes.
var (
	bosAttr = attr{form: 0xB05, lower: 0xB05, shape: 0xB05, cf: 0xB05, cc: 0xB05, dict: -1}
	eosAttr = attr{form: 0xE05, lower: 0xE05, shape: 0xE05, cf: 0xE05, cc: 0xE05, dict: -1}
)

// load computes the attrs of s for model m (which supplies the tag dictionary and the
// clusters); token i is at attrs[i+pad].
func (x *extractor) load(s *syntax.Sentence, m *Model) {
	n := len(s.Tokens)
	x.attrs = reuse.Resize(x.attrs, n+2*pad)
	for i := range pad {
		x.attrs[i] = bosAttr
		x.attrs[n+pad+i] = eosAttr
	}
	for i := range s.Tokens {
		x.word(&x.attrs[i+pad], s.Tokens[i].Form, m)
	}
}

func (x *extractor) word(a *attr, form string, m *Model) {
	rs := x.runes[:0]
	var shape uint64 = hashing.FNVOffset
	var prev rune = -1
	digit := false
	for i := 0; i < len(form); {
		r, size := utf8.DecodeRuneInString(form[i:])
		i += size
		c := r
		switch {
		case r < utf8.RuneSelf && 'a' <= r && r <= 'z':
			c = 'x'
		case r < utf8.RuneSelf && 'A' <= r && r <= 'Z':
			c = 'X'
			r += 'a' - 'A'
		case r < utf8.RuneSelf && '0' <= r && r <= '9':
			c = 'd'
			digit = true
		case r >= utf8.RuneSelf && unicode.IsUpper(r):
			c = 'X'
			r = unicode.ToLower(r)
		case r >= utf8.RuneSelf && unicode.IsLetter(r):
			c = 'x'
		case r >= utf8.RuneSelf && unicode.IsDigit(r):
			c = 'd'
			digit = true
		}
		if c != prev {
			shape = hashing.Add(shape, uint64(c))
			prev = c
		}
		rs = append(rs, r)
	}
	x.runes = rs
	a.form = nz(hashing.String(form))
	a.lower = hashing.Runes(rs)
	a.shape = nz(shape)
	for k := range 4 {
		if len(rs) > k+1 {
			a.pre[k] = hashing.Runes(rs[:k+1])
			a.suf[k] = hashing.Runes(rs[len(rs)-k-1:])
		} else {
			a.pre[k], a.suf[k] = 0, 0
		}
	}
	a.dict = -1
	if e := m.dict.find(a.form); len(e) > 0 {
		a.dict = int32(e[0]) // the tag of the first entry
	}

	a.cf, a.cc = 0, 0
	if c := m.clust; c != nil {
		k := a.lower
		if digit {
			k = numHash
		}
		s, ok := c.slot(k)
		if !ok {
			s, ok = c.slot(unkHash)
		}
		a.lt, a.lc = 0, 0
		if ok {
			fine := c.fine[s]
			a.cf, a.cc = uint64(fine)+1, uint64(c.coarse[fine])+1
			if c.lexTop != nil && c.lexTop[s] != 0 {
				a.lt, a.lc = uint64(c.lexTop[s]), c.lexCls[s]
			}
		}
	}
}

// ctxTag returns the context-tag value of position j in tags of a sentence of n tokens.
func ctxTag(tags []int32, j, n int) uint64 {
	switch {
	case j < 0:
		return bosTag
	case j >= n:
		return eosTag
	}
	return uint64(tags[j]) + 1
}

// appendStatic appends the keys of the features of token i that do not depend on tags:
// those of its word (appendWord), of its neighbours' words alone (appendNeighbour) and of
// its position and word pairs (appendContext).
func appendStatic(dst []uint64, a []attr, i int) []uint64 {
	c := i + pad
	w := &a[c]
	dst = appendWord(dst, w)
	dst = appendNeighbour(dst, &a[c-1], left, w.cf != 0)
	dst = appendNeighbour(dst, &a[c+1], right, w.cf != 0)
	return appendContext(dst, a, i)
}

// appendWord appends the keys of the static features that depend on the word w alone, so
// that their scores are the same at every occurrence of the word (Tagger caches them).
func appendWord(dst []uint64, w *attr) []uint64 {
	dst = append(dst, key1(1, 0), key1(3, w.lower))
	if w.shape != absent { // silver training tokens have neither form nor shape
		dst = append(dst, key1(2, w.form), key1(12, w.shape))
	}
	for k := range 4 {
		if w.suf[k] != 0 {
			dst = append(dst, key1(uint64(4+k), w.suf[k]))
		}
		if w.pre[k] != 0 {
			dst = append(dst, key1(uint64(8+k), w.pre[k]))
		}
	}
	if w.cf != 0 {
		dst = append(dst, key1(30, w.cf), key1(31, w.cc))
	}
	if w.lt != 0 {
		dst = append(dst, key1(60, w.lt), key1(61, w.lc))
		if w.shape != absent {
			dst = append(dst, key2(62, w.lt, w.shape))
		}
	}
	return dst
}

// Sides of a neighbour for appendNeighbour.
const (
	left  = 1 // the word just before the token
	right = 2 // the word just after it
)

// appendNeighbour appends the keys of the static features of a token that depend on
// the word x next to it alone, on the given side (clusters: the token's own word has a
// cluster, which turns on the cluster features). For a given x, side and clusters they
// are the same at every occurrence (Tagger caches their scores).
func appendNeighbour(dst []uint64, x *attr, side int, clusters bool) []uint64 {
	if side == left {
		dst = append(dst, key1(14, x.lower), key1(18, x.suf[2]))
		if x.shape != absent {
			dst = append(dst, key1(20, x.shape))
		}
		if clusters {
			dst = append(dst, key1(32, x.cf), key1(34, x.cc))
		}
		if x.lt != 0 {
			dst = append(dst, key1(63, x.lt))
		}
		return dst
	}
	dst = append(dst, key1(15, x.lower), key1(19, x.suf[2]), key1(24, x.suf[1]))
	if x.shape != absent {
		dst = append(dst, key1(21, x.shape))
	}
	if clusters {
		dst = append(dst, key1(33, x.cf), key1(35, x.cc))
	}
	if x.lt != 0 {
		dst = append(dst, key1(64, x.lt))
	}
	return dst
}

// appendContext appends the keys of the static features of token i that depend on its
// position, on the words two away, or on pairs of words.
func appendContext(dst []uint64, a []attr, i int) []uint64 {
	c := i + pad
	w := &a[c]
	l1, l2, r1, r2 := &a[c-1], &a[c-2], &a[c+1], &a[c+2]
	if w.shape != absent {
		dst = append(dst, key2(13, w.shape, boolHash(i == 0)))
	}
	dst = append(dst,
		key1(16, l2.lower),
		key1(17, r2.lower),
		key2(22, l1.lower, w.lower),
		key2(23, w.lower, r1.lower),
	)
	if w.cf != 0 {
		dst = append(dst,
			key1(36, r2.cc),
			key2(37, w.cf, r1.cc),
			key2(38, l1.cc, w.cf),
		)
	}
	if w.lt != 0 {
		dst = append(dst, key2(65, l1.lt, w.lt), key2(66, w.lt, r1.lt))
	}
	return dst
}

func boolHash(b bool) uint64 {
	if b {
		return 2
	}
	return 1
}

// appendDyn appends the keys of the features of token i that depend on the tags l1, l2
// on the left (unless l1 == noTag) and r1, r2 on the right (unless r1 == noTag).
func appendDyn(dst []uint64, a []attr, i int, l1, l2, r1, r2 uint64) []uint64 {
	c := i + pad
	w := &a[c]
	if l1 != noTag {
		dst = append(dst,
			key1(40, l1),
			key2(41, l1, l2),
			key2(42, l1, w.lower),
			key2(43, l1, w.suf[2]),
			key1(44, l2),
			key2(45, l1, a[c+1].lower),
		)
	}
	if r1 != noTag {
		dst = append(dst,
			key1(50, r1),
			key2(51, r1, r2),
			key2(53, r1, w.lower),
			key1(54, r2),
			key2(55, r1, w.suf[2]),
			key2(58, r1, a[c-1].lower),
		)
	}
	if l1 != noTag && r1 != noTag {
		dst = append(dst, key2(52, l1, r1))
		if w.shape != absent {
			dst = append(dst, key3(56, l1, r1, w.shape))
		}
	}
	return dst
}
