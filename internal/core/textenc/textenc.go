// Package textenc repairs text that is not valid UTF-8 the way a reader expects of the
// commonest mistake: bytes of Windows-1252 (the curly quotes, dashes and accented letters
// of a Western page or transcript saved before UTF-8) in text that is otherwise ASCII or
// UTF-8, as a page that declares UTF-8 after a CMS migration holds.
package textenc

import (
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Windows1252 returns b with every byte that is not part of a valid UTF-8 sequence read
// as the Windows-1252 character it is (0x93 “, 0x96 –, 0xE9 é; the five bytes it leaves
// undefined as U+FFFD), and every valid sequence kept: a text in Windows-1252 comes out
// whole, and a UTF-8 text with stray bytes keeps its own characters. It also returns how
// many bytes it read as Windows-1252. It returns b itself when b is valid UTF-8; O(len(b)).
func Windows1252(b []byte) (out []byte, read int) {
	if utf8.Valid(b) {
		return b, 0
	}
	out = make([]byte, 0, len(b)+len(b)/8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			out = utf8.AppendRune(out, charmap.Windows1252.DecodeByte(b[i])) // U+FFFD for its undefined bytes
			read++
			i++
			continue
		}
		out = append(out, b[i:i+n]...)
		i += n
	}
	return out, read
}

// Western reports whether b, not valid UTF-8, reads as Western European text in
// Windows-1252 rather than as another legacy encoding: its bytes over 0x7F are at most a
// tenth of it, each alone or in pairs between ASCII (an accented letter, a curly quote),
// where Cyrillic, Greek or Japanese text in a single- or double-byte encoding has runs of
// them for every word. O(len(b)).
func Western(b []byte) bool {
	high, long, run := 0, 0, 0
	for _, c := range b {
		if c < 0x80 {
			run = 0
			continue
		}
		high++
		if run++; run == 3 {
			long++
		}
	}
	return high > 0 && 10*high <= len(b) && 20*long <= high
}
