// Package script tells the writing system of a rune: the one table of scripts that
// language identification (package langid), segmentation (package segment) and the edges
// of windows (package window) read, each grouping its entries as it needs.
//
// A rune belongs to a named script when it is in that script's Unicode table (package
// unicode: letters, marks, and the script's own digits, punctuation and symbols, such as
// Thai's ๑ and Khmer's ។), and to Katakana when it is the prolonged sound mark ー, which
// Unicode assigns to no script. Any other letter or mark (Mn, Mc) is Other; anything else,
// None.
//
// Of costs an ASCII test for ASCII runes and otherwise a few binary searches in the
// Unicode tables, the common scripts first; it never allocates.
package script

import "unicode"

// Script is a writing system.
type Script uint8

// The scripts Of tells apart.
const (
	// None is a rune that is no letter or mark of a script below: ASCII digits and
	// punctuation, space, symbols, Unicode's Common and Inherited scripts.
	None Script = iota
	Latin
	Cyrillic
	Greek
	Arabic
	Hebrew
	Devanagari
	Han
	Hiragana
	Katakana // with the prolonged sound mark ー
	Hangul
	Thai
	Lao
	Khmer
	Myanmar
	// Other is a letter or mark of any other script.
	Other
)

// String returns the script's name.
func (s Script) String() string {
	if s > Other {
		return "invalid"
	}
	return [...]string{"none", "Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari",
		"Han", "Hiragana", "Katakana", "Hangul", "Thai", "Lao", "Khmer", "Myanmar", "other"}[s]
}

// Spaceless reports whether s is written without spaces between words (Han, kana, Thai,
// Lao, Khmer, Myanmar): words there cannot be told apart without a dictionary, and a cut
// may fall between any two characters. Hangul is written with spaces and is not.
func (s Script) Spaceless() bool {
	switch s {
	case Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar:
		return true
	}
	return false
}

// Of returns the script of r (see the package documentation).
func Of(r rune) Script {
	if r < 0x80 {
		if 'a' <= r|0x20 && r|0x20 <= 'z' {
			return Latin
		}
		return None
	}
	for _, t := range &table {
		if unicode.Is(t.tab, r) {
			return t.s
		}
	}
	switch {
	case r == 'ー':
		return Katakana
	case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
		return Other
	}
	return None
}

// table is the Unicode table of each named script, the common ones first (the tables are
// disjoint: a rune has one script).
var table = [...]struct {
	s   Script
	tab *unicode.RangeTable
}{
	{Latin, unicode.Latin},
	{Han, unicode.Han},
	{Hiragana, unicode.Hiragana},
	{Katakana, unicode.Katakana},
	{Hangul, unicode.Hangul},
	{Cyrillic, unicode.Cyrillic},
	{Arabic, unicode.Arabic},
	{Devanagari, unicode.Devanagari},
	{Thai, unicode.Thai},
	{Greek, unicode.Greek},
	{Hebrew, unicode.Hebrew},
	{Lao, unicode.Lao},
	{Khmer, unicode.Khmer},
	{Myanmar, unicode.Myanmar},
}
