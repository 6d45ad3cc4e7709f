package features

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
)

// Values the vocabulary gives words.
var (
	hashDigits = hashString(wordform.Digits)
	hashUnk    = hashString("<unk>")
)

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

// known returns the hash under which the features read a word of hash h (hashWord): h,
// or that of "<unk>" when v is not nil and does not hold h.
func (v *Vocab) known(h uint64) uint64 {
	if v != nil && !v.has(h) {
		return hashUnk
	}
	return h
}
