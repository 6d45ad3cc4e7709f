// Package tokenize splits raw English text into Penn Treebank-style tokens and sentences,
// in the style of the Google sentence-compression corpus: clitics are split (do n't,
// I 'm, Google 's, Presidents '), punctuation, currency signs and percent signs are split
// off, while abbreviations (U.S., Mr., Inc., a.m.), numbers (1,000.50, 7:30, 1/2), URLs,
// e-mail addresses and hyphenated words (state-of-the-art, U.S.-based) stay whole.
//
// Every token carries the byte offsets of its form in the input, and its Form is always
// exactly text[Start:End]: nothing is rewritten (straight quotes stay straight; see PTBForm
// for the Penn Treebank spelling). Offsets are strictly increasing and tokens never
// overlap. Whitespace, control characters and invisible format characters separate tokens
// and belong to none. Invalid UTF-8 bytes are kept inside the word they occur in.
//
// The tokenizer is rule-based, runs in time linear in the input and never panics.
// Decisions are local except in a few documented places where the next word matters
// (an ambiguous abbreviation such as "Mass." keeps its period only when the sentence
// continues; "San Francisco-based" is split as the Google corpus does).
package tokenize

import (
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/syntax"
)

// Version identifies the rules of Tokens and AppendSentences: it is raised by each change
// that moves a token's or a sentence's boundary in some text. A stored annotation holds
// its sentences as these rules split them, and records them with its models
// (qsc.Engine.AnnotationModels), so that one split by other rules is not read as if this
// build had made it.
const Version = 5

// Tokens returns the tokens of text. Each token has Form == text[Start:End], Head set to
// syntax.NoHead and no tags. It returns nil when text holds no token.
func Tokens(text string) []syntax.Token {
	return AppendTokens(nil, text)
}

// AppendTokens appends the tokens of text to dst and returns the extended slice, so that
// a caller can reuse one buffer across calls. The tokens already in dst are not read.
func AppendTokens(dst []syntax.Token, text string) []syntax.Token {
	s := scanner{text: text, dst: dst, base: len(dst)}
	for i := 0; i < len(text); {
		r, n := s.at(i)
		if IsSeparator(r) {
			i += n
			continue
		}
		e := i + n
		for e < len(text) {
			r, n := s.at(e)
			if IsSeparator(r) {
				break
			}
			e += n
		}
		s.chunk(i, e)
		i = e
	}
	return s.dst
}

// scanner holds the state of one AppendTokens call.
type scanner struct {
	text       string
	dst        []syntax.Token
	base       int // tokens before base belong to the caller
	chunkStart int // start of the current whitespace-delimited chunk
}

func (s *scanner) emit(start, end int) {
	s.dst = append(s.dst, syntax.Token{Form: s.text[start:end], Head: syntax.NoHead, Start: start, End: end})
}

// at decodes the rune at byte i; an invalid byte decodes as (utf8.RuneError, 1).
func (s *scanner) at(i int) (rune, int) {
	if c := s.text[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s.text[i:])
}

// before decodes the rune ending at byte i.
func (s *scanner) before(i int) rune {
	if c := s.text[i-1]; c < utf8.RuneSelf {
		return rune(c)
	}
	r, _ := utf8.DecodeLastRuneInString(s.text[:i])
	return r
}

// wordAt reports whether a word rune starts at byte i < e.
func (s *scanner) wordAt(i, e int) bool {
	if i >= e {
		return false
	}
	r, n := s.at(i)
	return isWord(r, n)
}

// chunk tokenizes the whitespace-free span [a, e).
func (s *scanner) chunk(a, e int) {
	s.chunkStart = a
	if u, v, ok := findURL(s.text, a, e); ok {
		s.scan(a, u)
		s.emit(u, v)
		s.scan(v, e)
		return
	}
	s.scan(a, e)
}

// scan tokenizes [a, e), a part of one chunk.
func (s *scanner) scan(a, e int) {
	for i := a; i < e; {
		r, n := s.at(i)
		switch {
		case isWord(r, n):
			i = s.word(i, i, e)
		case (r == '-' || r == '+' || r == '.') && i+1 < e && isDigitByte(s.text[i+1]) && s.signPosition(i):
			i = s.word(i, i+1, e) // signed number: -0.46, +70, .40
		default:
			i = s.punct(i, e)
		}
	}
}

// signPosition reports whether a sign at i starts a number: it begins the chunk or follows
// an opening bracket.
func (s *scanner) signPosition(i int) bool {
	if i == s.chunkStart {
		return true
	}
	switch s.text[i-1] {
	case '(', '[', '{':
		return true
	}
	return false
}

// word scans a word whose token starts at start and whose word runes start at from, emits
// it (split where clitics, number ranges and a few fixed forms require) and returns its end.
func (s *scanner) word(start, from, e int) int {
	t := s.text
	segStart := from // start of the current hyphen-separated segment
	numeric := true  // the segment so far is a number: 1,000.50 7:30 1/2
	j := from
	for {
		for j < e {
			r, n := s.at(j)
			if isWord(r, n) {
				if (r == 'n' || r == 'N') && j > from && s.isNT(j, e) {
					break // "do|n't"
				}
				numeric = numeric && isASCIIDigit(r)
				j += n
				continue
			}
			k := j + n // after the joiner candidate
			if !s.wordAt(k, e) {
				break
			}
			p := s.before(j)
			join := false
			switch r {
			case '.': // U.S, 1.5, bbc.com, but J. Aron
				join = !(j-from == 1 && isUpperByte(t[from]) && isUpperByte(t[k]) && k+3 < e && isLowerWord(t[k+1:k+3]))
			case '_':
				join = true
			case ',':
				join = numeric && isDigitByte(t[k]) // 1,000 but RM55 , 000
			case ':':
				join = isASCIIDigit(p) && isDigitByte(t[k])
			case '/':
				join = isASCIIDigit(p)
			case '&', '@':
				nr, _ := s.at(k)
				join = isAlnum(p) && isAlnum(nr)
			case '\'', '’':
				nr, _ := s.at(k)
				join = unicode.IsLetter(p) && unicode.IsLetter(nr) && !s.isClitic(k, e)
			case '`': // Today`s, don`t: the Google corpus keeps these whole
				nr, _ := s.at(k)
				join = unicode.IsLetter(p) && unicode.IsLetter(nr)
			case '-', '‐':
				join = !s.splitHyphen(from, segStart, j, k, e, numeric)
				if join {
					segStart, numeric = k, true
				}
			}
			if !join {
				break
			}
			if r != '-' && r != '‐' && (r >= utf8.RuneSelf || !isNumSep(byte(r))) {
				numeric = false // "_&@'`" end a number; "., :/" continue it
			}
			j = k
		}
		// A period that belongs to an abbreviation (but not the first of an ellipsis).
		if j < e && t[j] == '.' && dots(t[j:e]) < 3 && s.keepsPeriod(t[segStart:j], j+1) {
			j++
			if j+1 < e && t[j] == '-' && s.wordAt(j+1, e) { // U.S.-based
				j++
				segStart, numeric = j, true
				continue
			}
		}
		break
	}
	switch {
	case j+1 == e && t[j] == '-' && e < len(t) && isLetterWord(t[from:j]):
		j++ // pro- and anti-war
	case j < e && t[j] == '!' && keepsBang(t[from:j]):
		j++
	}
	if start == from {
		if k := splitWord(t[from:j]); k > 0 {
			s.emit(from, from+k)
			s.emit(from+k, j)
			return j
		}
	}
	s.emit(start, j)
	return j
}

// isNT reports whether "n't" (with ' or ’) starts at j and ends a word.
func (s *scanner) isNT(j, e int) bool {
	t := s.text
	k := j + 1
	switch {
	case k < e && t[k] == '\'':
		k++
	case k+2 < e && t[k:k+3] == "’":
		k += 3
	default:
		return false
	}
	if k >= e || (t[k] != 't' && t[k] != 'T') {
		return false
	}
	return !s.wordAt(k+1, e)
}

// isClitic reports whether the text at k (just after an apostrophe) is a clitic that ends
// the word: s, re, ve, ll, d or m in any case.
func (s *scanner) isClitic(k, e int) bool {
	t := s.text
	n := 0
	for n < 3 && k+n < e && isASCIILetter(t[k+n]) {
		n++
	}
	if n == 0 || n == 3 || s.wordAt(k+n, e) {
		return false
	}
	switch lower2(t[k : k+n]) {
	case "s", "d", "m", "re", "ve", "ll":
		return true
	}
	return false
}

// splitHyphen decides whether the hyphen at j (followed by a word rune at k) splits the word
// begun at from, whose current segment starts at segStart. Hyphens stay inside words, as in
// the Google corpus, except between numbers (scores, ranges: 7 - 5), after a multiword
// proper name (San Francisco - based, Emmy Award - winning) and in "20 year - old".
func (s *scanner) splitHyphen(from, segStart, j, k, e int, numeric bool) bool {
	t := s.text
	if j < from+10 && isoDate(t[from:e]) {
		return false // 2024-03-10, a date and not a range
	}
	if left := t[segStart:j]; numeric || left == "am" || left == "pm" { // 7 - 5, 10 am - 2 pm
		m := k
		for m < e && (isDigitByte(t[m]) || (m > k && m+1 < e && isNumSep(t[m]) && isDigitByte(t[m+1]))) {
			m++
		}
		if m > k && (m == e || !s.wordAt(m, e) || t[m] == '-') {
			return !isPhone(left, t[k:m], t[m:e])
		}
	}
	if segStart != from {
		return false
	}
	prev, ok := s.prevWord(from)
	if !ok {
		return false
	}
	m := k
	for m < e && isASCIILetter(t[m]) {
		m++
	}
	if s.wordAt(m, e) {
		return false
	}
	left, right := t[from:j], t[k:m]
	if isCapitalized(left) && isCapitalized(prev) && !determiners[prev] && isLowerWord(right) &&
		(hasSuffix(right, "ed") || hasSuffix(right, "ing") || right == "made") && len(right) >= 3 {
		return true
	}
	if right == "old" && isDigits(prev) {
		switch left {
		case "year", "years", "month", "months", "week", "weeks", "day", "days":
			return true
		}
	}
	return false
}

// prevWord returns the previous token of this call when only spaces separate it from i.
func (s *scanner) prevWord(i int) (string, bool) {
	if len(s.dst) == s.base {
		return "", false
	}
	p := s.dst[len(s.dst)-1]
	if p.End >= i {
		return "", false
	}
	for _, c := range []byte(s.text[p.End:i]) {
		if c != ' ' {
			return "", false
		}
	}
	return p.Form, true
}

// keepsPeriod reports whether the period after word w (at after-1) belongs to it. A
// letter right after a degree sign is a unit ("37 °C."), not an initial.
func (s *scanner) keepsPeriod(w string, after int) bool {
	if start := after - 1 - len(w); start >= len("°") && s.text[start-len("°"):start] == "°" {
		return false
	}
	switch abbrevClass(w) {
	case abbrTitle, abbrOther:
		return true
	case abbrAmbiguous:
		// Keep it only when the sentence visibly continues: lowercase, digit or , ; :
		t := s.text
		i := after
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
		if i == len(t) {
			return false
		}
		r, _ := s.at(i)
		if unicode.IsLower(r) || unicode.IsDigit(r) || r == ',' || r == ';' || r == ':' {
			return true
		}
		for k := i; k < len(t) && k < i+16 && t[k] > ' '; k++ { // No. RE37,802
			if isDigitByte(t[k]) {
				return true
			}
		}
		return false
	}
	return false
}

// splitWord returns where a word that PTB writes as two tokens splits (cannot → can not,
// gonna → gon na), or 0.
func splitWord(w string) int {
	if len(w) != 5 && len(w) != 6 {
		return 0
	}
	switch lower6(w) {
	case "cannot":
		return 3
	case "gonna", "wanna", "gotta", "gimme", "lemme":
		return 3
	}
	return 0
}

// punct emits the punctuation or symbol token at i and returns its end.
func (s *scanner) punct(i, e int) int {
	t := s.text
	if j := emoticon(t[i:e]); j > 0 && (i == s.chunkStart || !isAlnum(s.before(i))) {
		s.emit(i, i+j)
		return i + j
	}
	switch c := t[i]; c {
	case '.', '-', '!', '?', '*', '_', '=', '~', '^', '+':
		j := i + 1 // a run of one character: "..." "--" "!!!"
		for j < e && t[j] == c {
			j++
		}
		s.emit(i, j)
		return j
	case '`':
		if i+1 < e && t[i+1] == '`' {
			s.emit(i, i+2)
			return i + 2
		}
	case '\'':
		if i+1 < e && t[i+1] == '\'' {
			s.emit(i, i+2)
			return i + 2
		}
		if j := s.cliticEnd(i+1, e); j > 0 {
			s.emit(i, j)
			return j
		}
	}
	r, n := s.at(i)
	if r == '’' {
		if j := s.cliticEnd(i+n, e); j > 0 {
			s.emit(i, j)
			return j
		}
	}
	j := i + n
	if r == '—' || r == '–' || r == '…' {
		for j+n <= e && t[j:j+n] == t[i:i+n] {
			j += n
		}
		s.emit(i, j)
		return j
	}
	j = s.extend(r, j, e)
	s.emit(i, j)
	return j
}

// cliticEnd returns the end of a clitic starting at k (after an apostrophe), or 0.
func (s *scanner) cliticEnd(k, e int) int {
	if s.isClitic(k, e) {
		for k < e && isASCIILetter(s.text[k]) {
			k++
		}
		return k
	}
	return 0
}

// extend returns the end of a symbol token begun by r that ends at j before extension:
// combining marks, variation selectors, skin-tone modifiers, zero-width-joiner sequences
// and the second half of a flag stay with it.
func (s *scanner) extend(r rune, j, e int) int {
	regional := isRegional(r)
	for j < e {
		q, n := s.at(j)
		switch {
		case unicode.IsMark(q) || (q >= 0x1F3FB && q <= 0x1F3FF) || (q >= 0xE0020 && q <= 0xE007F):
			j += n
		case q == 0x200D && j+n < e:
			_, m := s.at(j + n)
			j += n + m
		case regional && isRegional(q):
			j += n
			regional = false
		default:
			return j
		}
	}
	return j
}

func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// isWord reports whether a rune (of encoded size n) is part of a word: a letter, number or
// mark, a superscript or subscript sign, a soft hyphen or zero-width (non-)joiner, or an
// invalid byte.
func isWord(r rune, n int) bool {
	if r < utf8.RuneSelf {
		return isASCIILetter(byte(r)) || isDigitByte(byte(r))
	}
	if r == utf8.RuneError && n == 1 {
		return true
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || r == 0xAD || r == 0x200C || r == 0x200D ||
		(r >= 0x207A && r <= 0x207E) || (r >= 0x208A && r <= 0x208E) // superscript and subscript signs: m⁻¹, x⁽²⁾
}

// IsSeparator reports whether r separates tokens without being a part of one: white
// space, control characters and invisible format characters (zero-width space, byte-order
// mark, directional marks); not U+FFFD, which an invalid byte reads as. The soft hyphen
// (U+00AD) and the zero-width non-joiner and joiner (U+200C, U+200D) are invisible too,
// but they belong to the word they are in (a hyphenation point, a Persian word, an emoji
// sequence), so they are not separators. It is the one definition of a separator, for
// the tokenizer and for the text a snippet shows (internal/core/display). It does not
// allocate.
func IsSeparator(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' || r == 0x7F
	}
	return separatorAbove(r)
}

// separatorAbove is IsSeparator of a rune above ASCII (kept apart so that IsSeparator
// inlines).
func separatorAbove(r rune) bool {
	if r == 0xAD || r == 0x200C || r == 0x200D {
		return false
	}
	return unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf)
}

func isASCIIDigit(r rune) bool  { return '0' <= r && r <= '9' }
func isUpperByte(c byte) bool   { return 'A' <= c && c <= 'Z' }
func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigitByte(c byte) bool   { return '0' <= c && c <= '9' }
func isNumSep(c byte) bool      { return c == '.' || c == ',' || c == ':' || c == '/' }

// isoDate reports whether w begins with an ISO 8601 date, yyyy-mm-dd, that no digit
// follows (2024-03-10, 2024-03-10T14:05).
func isoDate(w string) bool {
	if len(w) < 10 || w[4] != '-' || w[7] != '-' || !isDigits(w[:4]) || !isDigits(w[5:7]) || !isDigits(w[8:10]) ||
		len(w) > 10 && isDigitByte(w[10]) {
		return false
	}
	month, day := (w[5]-'0')*10+w[6]-'0', (w[8]-'0')*10+w[9]-'0'
	return month >= 1 && month <= 12 && day >= 1 && day <= 31
}

// isPhone reports whether a hyphen between left and right (followed by rest) is inside a
// telephone number or ZIP+4 code (853-7906, 732-657-3416, 77388-5746).
func isPhone(left, right, rest string) bool {
	if !isDigits(left) || !isDigits(right) {
		return false
	}
	if len(right) == 4 && (len(left) == 3 || len(left) == 5) {
		return rest == "" || rest[0] != '-'
	}
	return len(left) == 3 && len(right) == 3 && len(rest) >= 5 && rest[0] == '-' && isDigits(rest[1:5]) &&
		(len(rest) == 5 || !isDigitByte(rest[5]))
}

// emoticons are kept whole when they do not follow a letter or digit.
var emoticons = []string{":-)", ":-(", ":-D", ":-P", ";-)", ":)", ":(", ":D", ":P", ":p", ";)", ";D", "=)", "(:", ":/", "<3", "^^", "^_^", "xD", "XD"}

// emoticon returns the length of the emoticon s begins with, or 0. The emoticon must not
// be followed by a letter or digit (":Depends").
func emoticon(s string) int {
	for _, em := range emoticons {
		if len(s) >= len(em) && s[:len(em)] == em && (len(s) == len(em) || !isASCIIAlnum(s[len(em)])) {
			return len(em)
		}
	}
	return 0
}

// dots returns the number of leading periods of s.
func dots(s string) int {
	n := 0
	for n < len(s) && s[n] == '.' {
		n++
	}
	return n
}

func isLetterWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isDigitByte(w[i]) {
			return false
		}
	}
	return w != ""
}

// isCapitalized reports whether w is an ASCII-capitalized word of letters (Francisco, NY).
func isCapitalized(w string) bool {
	if w == "" || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if !isASCIILetter(w[i]) {
			return false
		}
	}
	return true
}

func isLowerWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

func hasSuffix(w, suf string) bool { return len(w) >= len(suf) && w[len(w)-len(suf):] == suf }

// lower2 lowercases a short ASCII string (up to 2 bytes) without allocating for the
// common cases used in switches.
func lower2(w string) string {
	var b [2]byte
	if len(w) > len(b) {
		return w
	}
	for i := 0; i < len(w); i++ {
		b[i] = w[i] | 0x20
	}
	return string(b[:len(w)])
}

// lower6 lowercases an ASCII string of up to 6 bytes; longer strings are returned as is.
func lower6(w string) string {
	var b [6]byte
	if len(w) > len(b) {
		return w
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c |= 0x20
		}
		b[i] = c
	}
	return string(b[:len(w)])
}
