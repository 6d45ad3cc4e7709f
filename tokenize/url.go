package tokenize

import (
	"strings"
	"unicode/utf8"
)

// findURL finds a URL (scheme://…, www.…) or e-mail address in the chunk [a, e) and
// returns its span without leading or trailing punctuation. Only the first one counts.
func findURL(t string, a, e int) (u, v int, ok bool) {
	c := t[a:e]
	if p := strings.Index(c, "://"); p > 0 {
		u = a + p
		for u > a && isASCIILetter(t[u-1]) {
			u--
		}
		if u < a+p {
			v = trimURL(t, u, e)
			return u, v, v > a+p+3
		}
	}
	if p := indexFold(c, "www."); p >= 0 && (p == 0 || !isASCIILetter(c[p-1])) {
		u = a + p
		v = trimURL(t, u, e)
		return u, v, v > u+4
	}
	if p := strings.IndexByte(c, '@'); p > 0 {
		at := a + p
		u = at
		for u > a && isLocal(t[u-1]) {
			u--
		}
		v = at + 1
		dot := false
		for v < e && (isASCIIAlnum(t[v]) || t[v] == '-' || t[v] == '.') {
			dot = dot || (t[v] == '.' && v > at+1 && v+1 < e && isASCIILetter(t[v+1]))
			v++
		}
		for v > at+1 && (t[v-1] == '.' || t[v-1] == '-') {
			v--
		}
		if u >= a+7 && strings.EqualFold(t[u-7:u], "mailto:") {
			u -= 7
		}
		return u, v, u < at && dot
	}
	return 0, 0, false
}

// trimURL returns the end of a URL starting at u in a chunk ending at e: trailing
// punctuation is left out, and a closing bracket only when it has no opening partner.
func trimURL(t string, u, e int) int {
	var depth [3]int // ( [ {: openings minus closings in t[u:v]
	for i := u; i < e; i++ {
		if k := strings.IndexByte("([{", t[i]); k >= 0 {
			depth[k]++
		} else if k := strings.IndexByte(")]}", t[i]); k >= 0 {
			depth[k]--
		}
	}
	v := e
	for v > u {
		r, n := utf8.DecodeLastRuneInString(t[u:v])
		switch r {
		case '.', ',', ';', ':', '!', '?', '\'', '"', '*', '”', '’', '»', '>':
		case ')', ']', '}':
			k := strings.IndexRune(")]}", r)
			if depth[k] >= 0 {
				return v // balanced: part of the URL
			}
			depth[k]++
		default:
			return v
		}
		v -= n
	}
	return v
}

// indexFold is strings.Index for an ASCII lowercase needle, ignoring ASCII case.
func indexFold(s, lowerNeedle string) int {
	n := len(lowerNeedle)
	for i := 0; i+n <= len(s); i++ {
		if s[i]|0x20 == lowerNeedle[0] && strings.EqualFold(s[i:i+n], lowerNeedle) {
			return i
		}
	}
	return -1
}

func isASCIIAlnum(c byte) bool { return isASCIILetter(c) || isDigitByte(c) }

// isLocal reports whether c may appear in the local part of an e-mail address.
func isLocal(c byte) bool {
	return isASCIIAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}

// IsURL reports whether tok is, whole, a web or e-mail address as the tokenizer finds one
// (a scheme's "://", "www.", or local@domain), which it keeps as one token. A token
// without '.', ':' or '@' is ruled out at once.
func IsURL(tok string) bool {
	if len(tok) < 6 || !strings.ContainsAny(tok, ".:@") {
		return false
	}
	u, v, ok := findURL(tok, 0, len(tok))
	return ok && u == 0 && v == len(tok)
}
