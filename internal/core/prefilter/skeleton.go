package prefilter

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/core/match"
)

// The skeleton of a text is what is left of it when every rune is replaced by its
// skeleton, sigma: its compatibility decomposition (NFKD), lower-cased, without marks
// (Mn, Mc, Me, and any rune of a non-zero combining class), format characters (Cf) and
// the Arabic tatweel; the letters of match.Fold's table spelled as it spells them
// (ø → o, ß → ss); typographic apostrophes (’ ‘ ‛) as '; and the Arabic letters that the
// analyzers of Arabic and Persian normalize written as one (ى ی → ي, ک → ك, ة → ه), as
// are the Greek sigmas (ς → σ). The hyphen-minus has none, since match.Key drops the
// hyphens inside a word ("e-mail" matches "email").
//
// Because the skeleton is computed rune by rune, the skeleton of a substring is a
// substring of the skeleton. Because it decomposes, lower-cases and drops marks, the
// skeleton of a text is that of its NFKC form, of its lower-case form and of its folded
// forms (match.Fold, segment.Key without an analyzer, stem.Key of a word it does not
// stem): TestSkeletonInvariant checks this for every rune. So a token whose matching key
// is k contains, in skeleton, the skeleton of k wherever the key is a normalization of
// the token, which is what a Filter relies on.

// entry is the skeleton of one rune: bits 0–20 a rune, or with multi an index into its
// block's strings; drop when it has none; bits 24–27 its script (langid.ScriptOf).
type entry uint32

const (
	entryRune  = 1<<21 - 1
	entryMulti = 1 << 21
	entryDrop  = 1 << 22
	scriptBit  = 24
)

func (e entry) script() langid.Script { return langid.Script(e >> scriptBit & 0xf) }

// block is the skeleton of 256 runes, built on first use.
type block struct {
	e     [256]entry
	multi []string
}

// blocks are the blocks of every rune, each built when a text first holds one of its
// runes: a program that reads only Latin text builds a few of them (1 KiB each).
var blocks [(unicode.MaxRune + 1) >> 8]atomic.Pointer[block]

// blockOf returns the block of r (not ASCII), building it on first use.
func blockOf(r rune) *block {
	p := &blocks[r>>8]
	if b := p.Load(); b != nil {
		return b
	}
	b := buildBlock(r &^ 0xff)
	p.CompareAndSwap(nil, b) // a block built twice is the same block
	return p.Load()
}

// buildBlock builds the block of the runes from base on.
func buildBlock(base rune) *block {
	b := &block{}
	for i := range b.e {
		r := base + rune(i)
		s := sigma(r)
		e := entry(langid.ScriptOf(r)) << scriptBit
		switch n := utf8.RuneCountInString(s); {
		case n == 0:
			e |= entryDrop
		case n == 1:
			c, _ := utf8.DecodeRuneInString(s)
			e |= entry(c)
		default:
			e |= entryMulti | entry(len(b.multi))
			b.multi = append(b.multi, s)
		}
		b.e[i] = e
	}
	return b
}

// merged are letters written as another in a skeleton: the Arabic letters that the
// Arabic and Persian analyzers normalize (bleve's normalize_ar and normalize_fa), and the
// final sigma (the lunate sigma ϲ decomposes to it, its capital Ϲ to Σ).
var merged = map[rune]rune{
	'\u03C2': '\u03C3', // final sigma → sigma
	'\u0649': '\u064A', // alef maksura → yeh
	'\u06CC': '\u064A', // Farsi yeh → yeh
	'\u06A9': '\u0643', // keheh → kaf
	'\u0629': '\u0647', // teh marbuta → heh
	'\u06C1': '\u0647', // heh goal → heh
	'\u06D5': '\u0647', // ae (of heh with yeh above, ۀ) → heh
	'\u06D2': '\u064A', // yeh barree → yeh
}

func init() {
	// Devanagari's independent vowels are one: the Indic and Hindi normalizations of
	// bleve's Hindi analyzer compose a vowel with a vowel sign into another (अ + ा → आ)
	// and write long vowels short (आ → अ).
	for _, r := range "\u0904\u0905\u0906\u0907\u0908\u0909\u090A\u090B\u090C\u090D\u090E\u090F\u0910\u0911\u0912\u0913\u0914\u0960\u0961\u0972\u0973\u0974\u0975\u0976\u0977" {
		merged[r] = '\u0905'
	}
}

// sigma returns the skeleton of r (see above).
func sigma(r rune) string {
	if r == utf8.RuneError {
		return string(r)
	}
	var b strings.Builder
	for _, c := range norm.NFKD.String(string(r)) {
		c = unicode.ToLower(c)
		switch c {
		case '\u2019', '\u2018', '\u201B':
			c = '\''
		case '-':
			continue // match.Key drops a word's hyphens
		}
		if s, ok := match.Spelled(c); ok {
			b.WriteString(s)
			continue
		}
		if a, ok := merged[c]; ok {
			c = a
		}
		if dropped(c) {
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// dropped reports whether a rune of a decomposition has no skeleton: a mark, a rune of a
// non-zero combining class, a format character or the Arabic tatweel.
func dropped(c rune) bool {
	return unicode.In(c, unicode.Mn, unicode.Mc, unicode.Me, unicode.Cf) || c == '\u0640' ||
		norm.NFKD.PropertiesString(string(c)).CCC() != 0
}

// Bytes of a 64-bit word: one 0x01 and one 0x80 in each.
const (
	ones = 0x0101010101010101
	hi   = 0x8080808080808080
)

// lowerASCII maps an ASCII byte to its skeleton.
var lowerASCII = func() (t [utf8.RuneSelf]byte) {
	for i := range t {
		c := byte(i)
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		t[i] = c
	}
	return t
}()

// Skeleton returns the skeleton of s.
func Skeleton(s string) string {
	var sk Scratch
	sk.Read(s)
	return string(sk.buf)
}

// Scratch is the skeleton of the last text read, and facts about it; its zero value is
// ready. It is not safe for concurrent use.
type Scratch struct {
	buf   []byte
	undbl []byte // buf undoubled, when asked for
	done  bool   // undbl is buf's
	// scripts are the scripts of the text's letters and marks, a bit per langid.Script;
	// accented counts its Latin letters outside ASCII.
	scripts  uint32
	accented int
}

// asciiScript is the script bit of each ASCII byte: Latin for letters.
var asciiScript = func() (t [utf8.RuneSelf]uint32) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = 1<<langid.Latin, 1<<langid.Latin
	}
	return t
}()

// Read makes s the text of sk: its skeleton, scripts and accented letters. Its cost is a
// byte copy for ASCII, and a table look-up per rune otherwise.
func (sk *Scratch) Read(s string) {
	buf := slices.Grow(sk.buf[:0], len(s)) // the skeleton of ASCII is as long
	var scripts uint32
	accented := 0
	for i := 0; i < len(s); {
		// Eight ASCII bytes at a time: capitals lowered, letters noted.
		for ; i+8 <= len(s); i += 8 {
			x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
			if x&hi != 0 {
				break
			}
			upper := (x + 0x3f*ones) &^ (x + 0x25*ones) & hi // 'A' <= c <= 'Z'
			x |= upper >> 2
			if (x+0x1f*ones)&^(x+0x05*ones)&hi != 0 { // 'a' <= c <= 'z'
				scripts |= 1 << langid.Latin
			}
			buf = binary.LittleEndian.AppendUint64(buf, x)
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			buf = append(buf, lowerASCII[c])
			scripts |= asciiScript[c]
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		b := blockOf(r)
		e := b.e[r&0xff]
		sc := e.script()
		scripts |= 1 << sc
		if sc == langid.Latin {
			accented++
		}
		switch {
		case e&entryDrop != 0:
		case e&entryMulti != 0:
			buf = append(buf, b.multi[e&entryRune]...)
		default:
			buf = utf8.AppendRune(buf, rune(e&entryRune))
		}
	}
	if strings.IndexByte(s, '-') >= 0 {
		buf = dropHyphens(buf)
	}
	sk.buf, sk.scripts, sk.accented, sk.done = buf, scripts, accented, false
}

// dropHyphens removes the hyphens of b in place and returns what is left. (Read copies
// them with the ASCII eight bytes at a time, which a test for them in that loop would slow
// by a quarter, and removes them after; no rune of a decomposition is one, see sigma.)
func dropHyphens(b []byte) []byte {
	i := bytes.IndexByte(b, '-')
	if i < 0 {
		return b
	}
	out := b[:i]
	for rest := b[i+1:]; len(rest) > 0; {
		j := bytes.IndexByte(rest, '-')
		if j < 0 {
			out = append(out, rest...)
			break
		}
		out = append(out, rest[:j]...)
		rest = rest[j+1:]
	}
	return out
}

// Cap returns the bytes of memory sk holds.
func (sk *Scratch) Cap() int { return cap(sk.buf) + cap(sk.undbl) }

// Scripts reports whether the text holds a letter or mark of script s (langid.ScriptOf).
func (sk *Scratch) Scripts(s langid.Script) bool { return sk.scripts&(1<<s) != 0 }

// OtherScripts reports whether the text holds a letter or mark of a script other than
// those given.
func (sk *Scratch) OtherScripts(scripts ...langid.Script) bool {
	m := uint32(1 << langid.None)
	for _, s := range scripts {
		m |= 1 << s
	}
	return sk.scripts&^m != 0
}

// Accented returns the number of the text's Latin letters outside ASCII
// (langid.NonASCIILetters).
func (sk *Scratch) Accented() int { return sk.accented }

// undoubled returns the skeleton undoubled, computing it once per text.
func (sk *Scratch) undoubled() []byte {
	if !sk.done {
		sk.undbl = appendUndoubled(sk.undbl[:0], unsafeString(sk.buf))
		sk.done = true
	}
	return sk.undbl
}
