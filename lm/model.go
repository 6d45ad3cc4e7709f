package lm

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"unicode"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
)

// MaxOrder is the largest n-gram order a Model holds.
const MaxOrder = 3

// The special words. Every model has them; Unk, BOS and EOS are their ids in a model
// trained by this package (a model read from an ARPA file numbers its words in file
// order: use Model.Unk and friends).
const (
	UnkWord = "<unk>"
	BOSWord = "<s>"
	EOSWord = "</s>"
)

// wordBits is the width of one word id in a packed n-gram key, so a model holds at most
// MaxVocab words.
const wordBits = 21

// MaxVocab is the largest vocabulary (special words included) a model can hold.
const MaxVocab = 1 << wordBits

const wordMask = MaxVocab - 1

// ErrEmpty is returned (wrapped) by SLOR for a sequence without words.
var ErrEmpty = errors.New("lm: no words")

// Entry is what the model stores for one n-gram: log10 of its probability given its
// context, and log10 of its backoff weight as a context (0 when it is none).
type Entry struct {
	LogProb float32
	Backoff float32
}

// table holds the n-grams of one order: packed keys, ascending, their entries, and an
// open-addressing index over them.
type table struct {
	keys  []uint64
	vals  []Entry
	index []uint32 // position+1 of a key in keys, 0 for an empty slot
	mask  uint64
}

func newTable(keys []uint64, vals []Entry) table {
	t := table{keys: keys, vals: vals}
	size := uint64(1)
	if n := uint64(len(keys)); n > 0 {
		// Load factor at most 1/2.
		size = 1 << bits.Len64(2*n-1)
	}
	t.index = make([]uint32, size)
	t.mask = size - 1
	for i, k := range keys {
		j := hashing.Fmix(k) & t.mask
		for t.index[j] != 0 {
			j = (j + 1) & t.mask
		}
		t.index[j] = uint32(i + 1)
	}
	return t
}

// find returns the position of key, or -1.
func (t *table) find(key uint64) int {
	j := hashing.Fmix(key) & t.mask
	for {
		p := t.index[j]
		if p == 0 {
			return -1
		}
		if t.keys[p-1] == key {
			return int(p - 1)
		}
		j = (j + 1) & t.mask
	}
}

// Model is an n-gram language model. Build one with Train or a Trainer, or read one with
// ReadARPA. It is read-only and safe for concurrent use.
type Model struct {
	order         int
	words         []string
	ids           map[string]uint32
	uni           []Entry
	grams         [MaxOrder + 1]table // grams[n] for 2 ≤ n ≤ order
	unk, bos, eos uint32
	// Discounts are the discounts D1, D2, D3+ of each order (index 0 = unigrams), when
	// the model was trained here; nil for a model read from ARPA.
	discounts [][3]float64
}

// Order returns the model's order (1 to MaxOrder).
func (m *Model) Order() int { return m.order }

// Counts returns the number of n-grams of each order: Counts()[0] unigrams (the
// vocabulary, special words included), and so on.
func (m *Model) Counts() []int {
	c := []int{len(m.uni)}
	for n := 2; n <= m.order; n++ {
		c = append(c, len(m.grams[n].keys))
	}
	return c
}

// Discounts returns the Kneser–Ney discounts D1, D2, D3+ of each order (index 0 =
// unigrams) of a model trained by this package, and nil for a model read from ARPA.
func (m *Model) Discounts() [][3]float64 { return m.discounts }

// Unk returns the id of <unk>.
func (m *Model) Unk() uint32 { return m.unk }

// BOS returns the id of <s>.
func (m *Model) BOS() uint32 { return m.bos }

// EOS returns the id of </s>.
func (m *Model) EOS() uint32 { return m.eos }

// Vocab returns the number of words, special words included.
func (m *Model) Vocab() int { return len(m.words) }

// Word returns the word with id, or "" for an id out of range.
func (m *Model) Word(id uint32) string {
	if int(id) >= len(m.words) {
		return ""
	}
	return m.words[id]
}

// ID returns the id of word, looked up exactly as given, or that of <unk> when the
// model does not know it. The sentence markers <s> and </s> are not words of a sentence
// and read as <unk> too.
func (m *Model) ID(word string) uint32 {
	id, ok := m.ids[word]
	if !ok || id == m.bos || id == m.eos {
		return m.unk
	}
	return id
}

// Unigram returns log10 of the unigram probability of the word with id, as the ARPA
// 1-gram section gives it.
func (m *Model) Unigram(id uint32) float32 {
	if int(id) >= len(m.uni) {
		id = m.unk
	}
	return m.uni[id].LogProb
}

func pack2(a, b uint32) uint64    { return uint64(a)<<wordBits | uint64(b) }
func pack3(a, b, c uint32) uint64 { return uint64(a)<<(2*wordBits) | uint64(b)<<wordBits | uint64(c) }

// Cond returns log10 p(w | ctx), where ctx holds the preceding word ids, the most recent
// last (only the last Order()−1 are used). It follows the ARPA backoff rule: the longest
// n-gram (ctx suffix, w) in the model gives the probability, and every longer context
// suffix that is in the model but not followed by w adds its backoff weight. Ids out of
// range read as <unk>. Cond allocates nothing.
func (m *Model) Cond(ctx []uint32, w uint32) float32 {
	if int(w) >= len(m.uni) {
		w = m.unk
	}
	n := min(len(ctx), m.order-1)
	var bo float32
	if n >= 2 {
		a, b := m.clamp(ctx[len(ctx)-2]), m.clamp(ctx[len(ctx)-1])
		t := &m.grams[3]
		if p := t.find(pack3(a, b, w)); p >= 0 {
			return t.vals[p].LogProb
		}
		if p := m.grams[2].find(pack2(a, b)); p >= 0 {
			bo += m.grams[2].vals[p].Backoff
		}
	}
	if n >= 1 {
		b := m.clamp(ctx[len(ctx)-1])
		t := &m.grams[2]
		if p := t.find(pack2(b, w)); p >= 0 {
			return bo + t.vals[p].LogProb
		}
		bo += m.uni[b].Backoff
	}
	return bo + m.uni[w].LogProb
}

func (m *Model) clamp(id uint32) uint32 {
	if int(id) >= len(m.uni) {
		return m.unk
	}
	return id
}

// ScoreIDs returns log10 P(<s> ids </s>): the sum of log10 p of each word and of </s>
// given the words before it, the first one given <s>, as KenLM's score with bos and
// eos. It allocates nothing.
func (m *Model) ScoreIDs(ids []uint32) float64 {
	var s float64
	p1, p2 := m.bos, m.bos // the two previous words; p2 is the most recent
	have := 1              // how many of them are real context (<s> counts once)
	ctx := [2]uint32{}
	for i := 0; i <= len(ids); i++ {
		w := m.eos
		if i < len(ids) {
			w = ids[i]
		}
		ctx[0], ctx[1] = p1, p2
		s += float64(m.Cond(ctx[2-have:], w))
		p1, p2 = p2, m.clamp(w)
		have = min(have+1, 2)
	}
	return s
}

// Score returns log10 P(<s> words </s>), each word looked up exactly as given (see ID).
func (m *Model) Score(words []string) float64 {
	var buf [64]uint32
	ids := buf[:0]
	for _, w := range words {
		ids = append(ids, m.ID(w))
	}
	return m.ScoreIDs(ids)
}

// Normalize returns the form under which a word is looked up by SLOR, and under which
// qsc-lab train lm writes the training text: lowercased, and "##" for any token that
// contains a digit. This is the normalization of the training split of the Google
// compression corpus (wordform.Normalize), whose third rule, rare words written as
// "<unk>", the model applies by itself: a word it does not know reads as <unk>.
func Normalize(word string) string { return wordform.Normalize(word) }

// SLOR returns the syntactic log-odds ratio of a sequence of words:
//
//	(log10 P(<s> ξ </s>) − Σ_{w∈ξ} log10 P_uni(w)) / |ξ|
//
// where ξ is forms normalized by Normalize (a form holding white space counts as the
// words it separates), P is the model (see ScoreIDs), P_uni its unigram distribution
// (<unk>'s for words it does not know) and |ξ| the number of words. This is the
// readability score of Handler & O'Connor (2019), computed as the authors did with
// KenLM. An empty sequence is an error wrapping ErrEmpty.
func (m *Model) SLOR(forms []string) (float64, error) {
	var buf [64]uint32
	ids := buf[:0]
	for _, f := range forms {
		w := Normalize(f)
		if strings.IndexFunc(w, unicode.IsSpace) < 0 {
			if w != "" {
				ids = append(ids, m.ID(w))
			}
			continue
		}
		for _, part := range strings.Fields(w) {
			ids = append(ids, m.ID(part))
		}
	}
	return m.SLORIDs(ids)
}

// SLORIDs is SLOR over word ids.
func (m *Model) SLORIDs(ids []uint32) (float64, error) {
	if len(ids) == 0 {
		return 0, fmt.Errorf("SLOR: %w", ErrEmpty)
	}
	var uni float64
	for _, id := range ids {
		uni += float64(m.Unigram(id))
	}
	return (m.ScoreIDs(ids) - uni) / float64(len(ids)), nil
}

// SLORTokens returns the SLOR of the tokens ids (1-based, in any order) of a sentence
// whose token forms are forms, taken in sentence order: the score of a compression.
func (m *Model) SLORTokens(forms []string, ids []int) (float64, error) {
	var buf [64]int
	sorted := append(buf[:0], ids...)
	slices.Sort(sorted)
	var wbuf [64]string
	words := wbuf[:0]
	for i, id := range sorted {
		if id < 1 || id > len(forms) {
			return 0, fmt.Errorf("SLOR: token id %d outside 1..%d", id, len(forms))
		}
		if i > 0 && sorted[i-1] == id {
			return 0, fmt.Errorf("SLOR: token id %d repeated", id)
		}
		words = append(words, forms[id-1])
	}
	return m.SLOR(words)
}
