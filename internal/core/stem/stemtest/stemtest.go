// Package stemtest makes the random words on which the tests of package stem and of the
// matcher that builds on it check the stemmer's properties.
package stemtest

import (
	"iter"
	"math/rand/v2"
	"strings"
)

// endings are inflectional endings, Porter2's suffixes and their pieces.
var endings = []string{"s", "es", "ies", "ied", "ed", "eed", "eedly", "ing", "ingly", "edly", "ly",
	"'s", "'", "'s'", "sses", "ss", "us", "y", "e", "ee", "at", "bl", "iz", "l", "ll", "bb", "dd", "ff",
	"gg", "mm", "nn", "pp", "rr", "tt", "ie", "ye", "Y", "ying", "yed"}

// letters are the letters of the words, vowels twice as likely, with apostrophes and
// hyphens.
const letters = "abcdefghijklmnopqrstuvwxyzaeiouyaeiouy'-"

// Words yields n random words drawn from rng: 1 to 7 letters, apostrophes or hyphens,
// then up to 3 endings, the first byte upper-cased in one word of four.
func Words(rng *rand.Rand, n int) iter.Seq[string] {
	return func(yield func(string) bool) {
		var b strings.Builder
		for range n {
			b.Reset()
			for range 1 + rng.IntN(7) {
				b.WriteByte(letters[rng.IntN(len(letters))])
			}
			for range rng.IntN(4) {
				b.WriteString(endings[rng.IntN(len(endings))])
			}
			w := b.String()
			if rng.IntN(4) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			if !yield(w) {
				return
			}
		}
	}
}
