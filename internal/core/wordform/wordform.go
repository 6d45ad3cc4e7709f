// Package wordform is the normalization of word forms in the training split of the Google
// compression corpus: a token with a decimal digit becomes "##" and any other token is
// lowercased. (That split also writes rare words as "<unk>", a form the normalization
// keeps.) The parser, the tagger's clusters, the compression features, the LSTM and the
// language model all read words through it, so that one model serves raw text and that
// corpus alike.
package wordform

import (
	"unicode"
	"unicode/utf8"
)

// Digits is the normalized form of every token that contains a digit.
const Digits = "##"

// HasDigit reports whether form contains a decimal digit in any script
// (unicode.IsDigit). ASCII bytes are tested without decoding.
func HasDigit(form string) bool {
	for i := 0; i < len(form); {
		c := form[i]
		if c < utf8.RuneSelf {
			if '0' <= c && c <= '9' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(form[i:])
		if unicode.IsDigit(r) {
			return true
		}
		i += size
	}
	return false
}

// Append appends the normalized form of form to buf: Digits when HasDigit(form), else
// each rune lowercased (unicode.ToLower; invalid UTF-8 becomes U+FFFD). It allocates only
// when buf lacks room.
func Append(buf []byte, form string) []byte {
	if HasDigit(form) {
		return append(buf, Digits...)
	}
	for i := 0; i < len(form); {
		c := form[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(form[i:])
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
		i += size
	}
	return buf
}

// Normalize returns the normalized form of form (see Append).
func Normalize(form string) string { return string(Append(nil, form)) }
