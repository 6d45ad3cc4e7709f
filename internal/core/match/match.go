// Package match is qsc's one query matcher: it finds the terms of a query in the tokens of a
// sentence, for Engine.Do and Engine.Compress (the query of a compression), Engine.Snippets
// (the sentences and hits of a document), and through them the CLI, the HTTP service's
// compress, snippets and search, and the bleve highlighter.
//
// A term is tokenized as the sentences are (package tokenize) into words; punctuation-only
// words at its ends are dropped ("U.S." and "police." are one word), and so is a possessive
// 's that ends it ("Wednesday's" matches "Wednesday"). A word matches a token
// when their keys are equal (Key), or when the token is hyphenated and the word's key is that
// of one of its parts ("transformer" matches "transformer-based", "based" too). A term of
// several words matches a run of consecutive tokens, word by word, punctuation between
// two of its words in the text passed over ("not to be" matches "not, to be", as a
// search's phrase does). Matching never looks
// inside a word otherwise: "art" does not match "party".
//
// Key ignores, in this order: trailing punctuation ("U.S." and "U.S" are one key), accents
// ("Zürich" and "Zurich", "São" and "Sao") and the invisible soft hyphens and zero-width
// (non-)joiners inside a word, letter case, and inflection (the inflectional stemmer of
// internal/core/stem: "appeals" and "appeal", "went" and "go").
//
// Package segment, the matcher of other languages, compiles its queries with CompileTerms
// and folds its keys with FoldAccents: the two matchers differ in how they split and key
// words, not in how a query is compiled or accents are removed.
package match

import (
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/qsc-nlp/qsc/internal/core/script"
	"github.com/qsc-nlp/qsc/internal/core/stem"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

// Key returns the matching key of one word: two words match when their keys are equal.
// It drops the word's trailing punctuation (unless the word is only punctuation), removes
// accents (Fold), and returns stem.Key of the rest.
func Key(word string) string {
	return stem.Key(Fold(Dehyphen(trimPunct(word))))
}

// Dehyphen returns word without the hyphens ('-') that join two letters or digits:
// "e-mail" is "email", "COVID-19" "COVID19". Key applies it, so that the two spellings of a
// word match; a hyphen at either end, or beside punctuation, stays. It returns word itself
// when it has no such hyphen.
func Dehyphen(word string) string {
	if strings.IndexByte(word, '-') < 0 {
		return word
	}
	var b []byte
	last := 0
	for i := range joiningHyphens(word) {
		b = append(b, word[last:i]...)
		last = i + 1
	}
	if last == 0 {
		return word
	}
	return string(append(b, word[last:]...))
}

// joiningHyphens yields the index of each hyphen of word that joins two letters or
// digits: those Dehyphen drops and HyphenParts cuts at.
func joiningHyphens(word string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := strings.IndexByte(word, '-'); i >= 0; {
			before, _ := utf8.DecodeLastRuneInString(word[:i])
			after, _ := utf8.DecodeRuneInString(word[i+1:])
			if alnum(before) && alnum(after) && !yield(i) {
				return
			}
			j := strings.IndexByte(word[i+1:], '-')
			if j < 0 {
				return
			}
			i += 1 + j
		}
	}
}

// alnum reports whether r is a letter or a digit.
func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// trimPunct drops the trailing punctuation of word, unless nothing else is left.
func trimPunct(word string) string {
	end := len(word)
	for end > 0 {
		r, size := utf8.DecodeLastRuneInString(word[:end])
		if !unicode.IsPunct(r) {
			break
		}
		end -= size
	}
	if end == 0 {
		return word
	}
	return word[:end]
}

// spelled are the letters that have no decomposition into a base letter and marks, spelled
// as the ASCII letters a reader takes them for.
var spelled = map[rune]string{
	'ø': "o", 'Ø': "o", 'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ł': "l", 'Ł': "l",
	'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ı': "i", 'ħ': "h", 'Ħ': "h",
}

// Spelled returns how Fold spells r, a letter that has no decomposition into a base letter
// and marks (ø → "o", ß → "ss"), and whether it has such a spelling.
func Spelled(r rune) (string, bool) {
	s, ok := spelled[r]
	return s, ok
}

// Fold returns word without its accents, in its compatibility form: the marks of its
// compatibility decomposition (NFKD) removed ("CO₂" is "CO2", the micro sign Greek mu,
// "ﬁ" "fi"), and the letters of a small table spelled in ASCII (ø → o, ß → ss, æ → ae, ł → l,
// …), so that "Zürich" and "Zurich", "São Paulo" and "Sao Paulo", "Ørsted" and "Orsted"
// match. It also removes the invisible characters that the tokenizer keeps inside a word
// (the soft hyphen, U+00AD, and the zero-width non-joiner and joiner, U+200C and U+200D),
// so that "Bundes\u00adregierung" (with a hyphenation point) matches "Bundesregierung".
// An ASCII word, or one of marks alone, is returned as it is (an ASCII word without
// allocating).
func Fold(word string) string { return fold(word, false) }

// FoldAccents is Fold for text in any language: it removes the marks only from Latin,
// Greek and Cyrillic letters, and the vowel marks and tatweel of Arabic, and composes the
// rest again (NFC); the marks of other scripts (Devanagari's and Thai's vowel signs) are
// letters there and stay. It spells the letters of Fold's table, and removes the soft
// hyphen and the zero-width (non-)joiners, as Fold does. An ASCII word, or one of marks
// alone, is returned as it is (an ASCII word without allocating).
func FoldAccents(word string) string { return fold(word, true) }

// fold is Fold, or FoldAccents when accents.
func fold(word string, accents bool) string {
	i := 0
	for i < len(word) && word[i] < utf8.RuneSelf {
		i++
	}
	if i == len(word) {
		return word
	}
	var b strings.Builder
	b.Grow(len(word))
	b.WriteString(word[:i])
	base := rune(0)        // the last letter written
	decompose := norm.NFKD // compatibility forms too: CO₂ is CO2, µK (micro sign) is μK
	if accents {
		decompose = norm.NFD // segment.Key has made the word NFKC
	}
	for _, r := range decompose.String(word[i:]) {
		mark := unicode.Is(unicode.Mn, r)
		s, ok := spelled[r]
		switch {
		case r == 0xAD || r == 0x200C || r == 0x200D:
			// invisible inside a word: a hyphenation point, a zero-width (non-)joiner
		case mark && (!accents || base < 0x0530 || 0x1e00 <= base && base < 0x2000):
			// a mark (with accents, on a Latin, Greek or Cyrillic letter)
		case accents && (0x064b <= r && r <= 0x065f || r == 0x0670 || r == 0x0640):
			// Arabic vowel marks and tatweel
		case ok:
			b.WriteString(s)
			base = r
		default:
			b.WriteRune(r)
			if !mark {
				base = r
			}
		}
	}
	if b.Len() == 0 { // marks alone: a key is never empty
		return word
	}
	if accents {
		return norm.NFC.String(b.String())
	}
	return b.String()
}

// Query is a compiled query: the keys of the words of each distinct term. It is read-only
// and safe for concurrent use; a Scanner finds it in sentences.
type Query struct {
	Terms
	// ascii[c] tells whether a token whose first byte is the ASCII byte c (lower-cased)
	// may match a word: the first bytes of the anchors of the words' keys and of their
	// irregular forms (stem.Anchors, stem.IrregularForms), which a word of the key begins
	// with, less its leading apostrophes. A token whose first byte c is admitted is then
	// weighed by its second, when that is ASCII: it may match when anyNext[c] (an anchor
	// of one byte, or whose second is not ASCII, begins with c) or when its first two
	// bytes (lower-cased) are those of an anchor, c<<8 | second in pairs. Tokens, and the
	// parts of hyphenated ones, that begin with another byte or an apostrophe are always
	// keyed (mayMatch).
	ascii, anyNext [utf8.RuneSelf]bool
	pairs          []uint16
	// inner are the keys of the query's words written in a script without spaces
	// (Japanese, Chinese, Thai…): the English tokenizer keeps a run of such letters as
	// one token ("東京事務所"), so a word of them also matches inside a token.
	inner []string
	// joined maps the key of the words of a term of several words written as one (Key of
	// "boilwater" for "boil water") to the terms: such a term also matches one hyphenated
	// token, "boil-water".
	joined map[string][]int
	// split are the terms with a hyphenated word, each such word cut into its parts
	// ("boil water notice" for "boil-water notice"), which also match a run of tokens;
	// splitStarts maps the key of a split term's first word to its index in split.
	split       []splitTerm
	splitStarts map[string][]int
}

// splitTerm is a term with its hyphenated words cut into their parts: the keys of its
// words, and the distinct term it stands for.
type splitTerm struct {
	keys []string
	term int
}

// Compile parses query terms: each must hold between 1 and maxWords words. Identical terms
// (equal keys) are one term. Invalid UTF-8 is read as U+FFFD; callers that must refuse it
// check it first.
func Compile(terms []string, maxWords int) (*Query, error) {
	t, err := CompileTerms(terms, maxWords, "words", Words, Key)
	if err != nil {
		return nil, err
	}
	q := &Query{Terms: t}
	for d, keys := range t.terms {
		for _, k := range keys {
			q.admitKey(k)
			if spaceless(k) && !slices.Contains(q.inner, k) {
				q.inner = append(q.inner, k)
			}
		}
		q.addVariants(d)
	}
	return q, nil
}

// addVariants adds the other spellings of term d that hyphens allow: its words written
// as one ("boil water" as "boilwater", which a token "boil-water" has as its key), and,
// when a word of it is hyphenated, the term with that word cut into its parts ("boil-water
// notice" as "boil water notice").
func (q *Query) addVariants(d int) {
	words := q.words[d]
	if len(words) >= 2 {
		k := Key(strings.Join(words, ""))
		if q.joined == nil {
			q.joined = map[string][]int{}
		}
		q.joined[k] = append(q.joined[k], d)
		q.admitKey(k)
	}
	var keys []string
	cut := false
	for _, w := range words {
		parts := HyphenParts(w)
		cut = cut || len(parts) > 1
		for _, p := range parts {
			keys = append(keys, Key(p))
		}
	}
	if !cut {
		return
	}
	if q.splitStarts == nil {
		q.splitStarts = map[string][]int{}
	}
	q.splitStarts[keys[0]] = append(q.splitStarts[keys[0]], len(q.split))
	q.split = append(q.split, splitTerm{keys: keys, term: d})
	for _, k := range keys {
		q.admitKey(k)
	}
}

// HyphenParts returns the parts of word between the hyphens that Dehyphen drops
// ("boil-water" → "boil", "water"), or word alone.
func HyphenParts(word string) []string {
	w := trimPunct(word)
	var parts []string
	last := 0
	for i := range joiningHyphens(w) {
		parts = append(parts, w[last:i])
		last = i + 1
	}
	if last == 0 {
		return []string{word}
	}
	return append(parts, w[last:])
}

// isHostName reports whether f, which is not a web address, is a host or file name of
// dotted labels ("pg-main-01.db.internal", "config.yaml"): two or more non-empty labels
// of letters, digits, '-' and '_', one of them of two or more bytes with a letter, so
// that "pg-main-01" and "internal" match inside it as they do inside a web address; not
// a number ("1.5") nor an abbreviation ("e.g", "U.S").
func isHostName(f string) bool {
	labels, word := 0, false
	for label := range strings.SplitSeq(f, ".") {
		if label == "" {
			return false
		}
		labels++
		letter := false
		for i := 0; i < len(label); i++ {
			switch c := label[i]; {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
				letter = true
			case c >= '0' && c <= '9', c == '-', c == '_':
			default:
				return false
			}
		}
		word = word || letter && len(label) >= 2
	}
	return labels >= 2 && word
}

// isHostPort reports whether f is an IPv4 address or a host name (isHostName) followed by
// ":" and a port number ("10.0.3.17:5432", "pg-main-01.db.internal:5432"), as logs write
// them.
func isHostPort(f string) bool {
	host, port, ok := strings.Cut(f, ":")
	return ok && len(port) <= 5 && allDigits(port) && (isIPv4(host) || isHostName(host))
}

// isIPv4 reports whether f is four dotted numbers of at most three digits.
func isIPv4(f string) bool {
	n := 0
	for part := range strings.SplitSeq(f, ".") {
		if n++; len(part) > 3 || !allDigits(part) {
			return false
		}
	}
	return n == 4
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// AddressParts returns the words that match inside the token f when it is a web or
// e-mail address, a host or file name of dotted labels, or a host and port (addressParts:
// "proxy.example.com" and "3128" in "http://proxy.example.com:3128", "NullPointerException"
// in "java.lang.NullPointerException"), f itself left out; nil for any other token. It is
// what Scan finds inside such a token, and what the search index holds of it.
func AddressParts(f string) []string {
	if _, mayBeURL := marks(f); !mayBeURL || !(tokenize.IsURL(f) || isHostName(f) || isHostPort(f)) {
		return nil
	}
	parts := addressParts(f)
	out := parts[:0] // in place: Scan calls it for every such token
	for _, p := range parts {
		if p != f {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// addressParts returns the parts of a web or e-mail address, a host name or a host and
// port that match inside it: an address's urlParts; of an IPv4 address and port, the two
// ("10.0.3.17", "5432"), and not the address's numbers, which are no names.
func addressParts(f string) []string {
	if host, port, _ := strings.Cut(f, ":"); isIPv4(host) && isHostPort(f) {
		return []string{host, port}
	}
	return urlParts(f)
}

// urlParts returns the pieces of the web or e-mail address f between the separators
// / : . ? = & # @ (the scheme among them), and its host with each of its domains
// ("proxy.example.com", "example.com").
func urlParts(f string) []string {
	host := f
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	} else if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if i := strings.IndexAny(host, "/:?#"); i >= 0 {
		host = host[:i]
	}
	parts := strings.FieldsFunc(f, func(r rune) bool { return strings.ContainsRune("/:.?=&#@", r) })
	for strings.Contains(host, ".") {
		parts = append(parts, host)
		host = host[strings.IndexByte(host, '.')+1:]
	}
	return parts
}

// marks returns what Scan looks for in the bytes of the token f, in one plain loop:
// whether its first '-' comes after its first byte (a hyphenated word, whose parts match
// too), and whether it passes the first test of tokenize.IsURL, which it needs to be an
// address: six bytes or more, one of them '.', ':' or '@'. The loop ORs each byte's
// class (markOf) without a branch, and spares most tokens the calls of strings.IndexByte
// and of IsURL, whose strings.ContainsAny looks each byte up through strings.IndexRune.
func marks(f string) (hyphen, mayBeURL bool) {
	var m uint8
	for i := 0; i < len(f); i++ {
		m |= markOf[f[i]]
	}
	return m&markHyphen != 0 && f[0] != '-', m&markURL != 0 && len(f) >= 6
}

// The classes of the bytes that marks looks for.
const (
	markHyphen = 1 << iota // '-'
	markURL                // '.', ':', '@'
)

// markOf is the class of each byte (markHyphen, markURL, 0 for the others).
var markOf = [256]uint8{'-': markHyphen, '.': markURL, ':': markURL, '@': markURL}

// spaceless reports whether every letter of w belongs to a script written without
// spaces, and w has one.
func spaceless(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			if !script.Of(r).Spaceless() {
				return false
			}
			n++
		}
	}
	return n > 0
}

// Terms are the distinct terms of a query, each the keys of its words, indexed by the key
// of its first word: the compiled query of this package's matcher and of package
// segment's. They are read-only and safe for concurrent use.
type Terms struct {
	terms  [][]string       // the keys of the words of each distinct term
	words  [][]string       // the words of each distinct term, as first given (Pick)
	of     []int            // the distinct term of each term given to CompileTerms
	starts map[string][]int // the key of a first word → the terms that begin with it
}

// CompileTerms compiles query terms: words returns the words of a term (without the
// punctuation at its ends) and key the key of a word. Each term must hold from 1 to
// maxWords words; the error for a longer term counts them as unit ("words"). Terms with
// equal keys are one term. Its cost is that of words and key on each term.
func CompileTerms(terms []string, maxWords int, unit string, words func(term string) []string, key func(word string) string) (Terms, error) {
	t := Terms{of: make([]int, len(terms)), starts: map[string][]int{}}
	seen := map[string]int{}
	for i, term := range terms {
		ws := words(term)
		switch {
		case len(ws) == 0:
			return Terms{}, fmt.Errorf("empty query term %d (%q): it has no word", i+1, term)
		case !strings.ContainsFunc(term, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }):
			return Terms{}, fmt.Errorf("query term %d (%q) has no letter or digit: it matches no word", i+1, term)
		case len(ws) > maxWords:
			return Terms{}, fmt.Errorf("query term %d has %d %s, more than the maximum of %d", i+1, len(ws), unit, maxWords)
		}
		keys := make([]string, len(ws))
		for j, w := range ws {
			keys[j] = key(w)
		}
		id := strings.Join(keys, "\x00")
		if d, ok := seen[id]; ok {
			t.of[i] = d
			continue
		}
		seen[id] = len(t.terms)
		t.of[i] = len(t.terms)
		t.starts[keys[0]] = append(t.starts[keys[0]], len(t.terms))
		t.terms = append(t.terms, keys)
		t.words = append(t.words, ws)
	}
	return t, nil
}

// Pick sets pick[d], for each distinct term d (pick has Len() entries), to the index in
// hits (a Scanner's, by start) of the occurrence that a query keeps, -1 for a term without
// one. Of a term's occurrences, those that spell it as it was given, up to case and
// trailing punctuation, are taken when there are any, so that "willing" keeps "willing"
// and not the "will" before it that it matches as an inflection. Of those, a query of one
// term keeps the first; one of several terms keeps the occurrences that lie closest
// together, the shortest stretch of tokens that holds one of each term found (the
// earliest of the shortest), so that "HAProxy" in "… restarted HAProxy …, and only the
// rollback of the HAProxy configuration …" is the one beside "rollback". It returns the
// number of terms found, costs O(len(hits)) word comparisons and allocates nothing.
func (t *Terms) Pick(hits []Hit, toks []syntax.Token, pick []int) int {
	found := t.pickFirst(hits, toks, pick)
	if found < 2 || len(hits) == found || len(pick) > maxNearTerms {
		return found
	}
	// Sliding window over the eligible occurrences: those that spell their term when
	// the term's first pick does (pickFirst prefers them), else all.
	var spelled [maxNearTerms]bool
	for d, i := range pick {
		spelled[d] = i >= 0 && t.spells(hits[i], toks)
	}
	eligible := func(i int) bool { return !spelled[hits[i].Term] || t.spells(hits[i], toks) }
	var count [maxNearTerms]int32
	covered, lo := 0, 0
	bestLo, bestHi, best := -1, -1, 0
	for hi := range hits {
		if !eligible(hi) {
			continue
		}
		if count[hits[hi].Term]++; count[hits[hi].Term] == 1 {
			covered++
		}
		for covered == found {
			if lo <= hi && eligible(lo) {
				if l := hits[hi].End - hits[lo].Start; bestLo < 0 || l < best {
					bestLo, bestHi, best = lo, hi, l
				}
				if count[hits[lo].Term]--; count[hits[lo].Term] == 0 {
					covered--
				}
			}
			lo++
		}
	}
	if bestLo < 0 {
		return found
	}
	for d := range pick {
		if pick[d] >= 0 {
			pick[d] = -1
		}
	}
	for i := bestLo; i <= bestHi; i++ {
		if d := hits[i].Term; pick[d] < 0 && eligible(i) {
			pick[d] = i
		}
	}
	return found
}

// maxNearTerms is the most distinct terms for which Pick looks for the occurrences that
// lie closest together (a query has at most 64).
const maxNearTerms = 64

// pickFirst is Pick for a query of one term: the first occurrence of each term that
// spells it as given, else the first.
func (t *Terms) pickFirst(hits []Hit, toks []syntax.Token, pick []int) int {
	for d := range pick {
		pick[d] = -1
	}
	found := 0
	for i, h := range hits {
		d := h.Term
		switch {
		case pick[d] < 0:
			pick[d] = i
			found++
		case t.spells(hits[pick[d]], toks):
			continue // an occurrence as given is never replaced
		}
		if pick[d] != i && t.spells(h, toks) {
			pick[d] = i
		}
	}
	return found
}

// spells reports whether the tokens of h spell its term's words, up to case and trailing
// punctuation.
func (t *Terms) spells(h Hit, toks []syntax.Token) bool {
	ws := t.words[h.Term]
	if h.End-h.Start != len(ws) || h.End > len(toks) {
		return false
	}
	for j, w := range ws {
		if !strings.EqualFold(trimPunct(toks[h.Start+j].Form), trimPunct(w)) {
			return false
		}
	}
	return true
}

// Len returns the number of distinct terms.
func (t *Terms) Len() int { return len(t.terms) }

// Term returns the distinct term (an index below Len) of the i-th term given to Compile.
func (t *Terms) Term(i int) int { return t.of[i] }

// Given returns the number of terms given to CompileTerms, duplicates included.
func (t *Terms) Given() int { return len(t.of) }

// Keys returns the keys of the words of distinct term d; the caller must not change them.
func (t *Terms) Keys(d int) []string { return t.terms[d] }

// Starting returns the distinct terms whose first word has key k, ascending; the caller
// must not change them.
func (t *Terms) Starting(k string) []int { return t.starts[k] }

// Words returns the words of a term: its tokens, without the punctuation-only ones at its
// ends (unless the term is only punctuation), and without a possessive 's that ends it
// after another word ("Wednesday's" is the term "Wednesday", which matches "Wednesday's"
// too).
func Words(term string) []string {
	toks := tokenize.Tokens(term)
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.Form
	}
	lo, hi := 0, len(words)
	for lo < hi && punctOnly(words[lo]) {
		lo++
	}
	for hi > lo && punctOnly(words[hi-1]) {
		hi--
	}
	if lo == hi {
		return words
	}
	if hi-lo >= 2 && isPossessive(words[hi-1]) {
		hi--
	}
	return words[lo:hi]
}

// isPossessive reports whether a token is the possessive 's (or ’s, any case).
func isPossessive(w string) bool {
	switch w {
	case "'s", "'S", "’s", "’S":
		return true
	}
	return false
}

// punctOnly reports whether s holds no letter, digit or symbol.
func punctOnly(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPunct(r) }) < 0
}

// admitKey lets the token filter pass the tokens that may have the key k: those that
// begin with one of its anchors or irregular forms.
func (q *Query) admitKey(k string) {
	for _, a := range stem.Anchors(k) {
		q.admit(a)
	}
	for _, f := range stem.IrregularForms(k) {
		q.admit(f)
	}
}

// admit lets the token filter pass the tokens that begin with a, an anchor in lower case:
// with its first two bytes, or with its first when it has one or its second is not ASCII.
func (q *Query) admit(a string) {
	if a == "" || a[0] >= utf8.RuneSelf {
		return
	}
	q.ascii[a[0]] = true
	if len(a) < 2 || a[1] >= utf8.RuneSelf {
		q.anyNext[a[0]] = true
		return
	}
	if p := uint16(a[0])<<8 | uint16(a[1]); !slices.Contains(q.pairs, p) {
		q.pairs = append(q.pairs, p)
	}
}

// mayMatch reports whether the word w (not empty), a token or a hyphen part of one, may
// match a word of the query: it begins with a byte that is not ASCII, or an apostrophe,
// or the token filter admits it.
func (q *Query) mayMatch(w string) bool {
	return w[0] >= utf8.RuneSelf || w[0] == '\'' || q.admits(w)
}

// keyable reports whether Scan keys the token f, hyphenated when hyphen (marks): whether
// it, or the word that Key makes of it without its hyphens, may match.
func (q *Query) keyable(f string, hyphen bool) bool {
	return q.mayMatch(f) || hyphen && q.mayMatchJoined(f)
}

// mayMatchJoined is mayMatch of the hyphenated token f written without its hyphens (Key
// drops them), without building that word: its first two bytes that are not '-'.
func (q *Query) mayMatchJoined(f string) bool {
	if f[0] >= utf8.RuneSelf || f[0] == '\'' {
		return true
	}
	var b [2]byte
	n := 0
	for i := 0; i < len(f) && n < 2; i++ {
		if f[i] != '-' {
			b[n] = f[i]
			n++
		}
	}
	return q.admits(string(b[:n]))
}

// admits reports whether the token filter passes a word whose first bytes are f (at
// least one, the first ASCII and not an apostrophe).
func (q *Query) admits(f string) bool {
	c := lowerASCII(f[0])
	if !q.ascii[c] {
		return false
	}
	if q.anyNext[c] || len(f) < 2 || f[1] >= utf8.RuneSelf {
		return true
	}
	return slices.Contains(q.pairs, uint16(c)<<8|uint16(lowerASCII(f[1])))
}

// lowerASCII returns the lower case of an ASCII byte.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return c
}

// Hit is an occurrence of a term: the tokens [Start, End) of the sentence (0-based).
type Hit struct {
	Term       int // the distinct term (below Query.Len)
	Start, End int
}

// Scanner finds a query in sentences. It keeps scratch memory from one sentence to the
// next; it is not safe for concurrent use.
type Scanner struct {
	q     *Query
	keys  []string // the key of each token, "" when it cannot match a word
	parts []int32  // parts[i]:parts[i+1] are the keys in flat of the hyphen parts of token i, of the parts of a web address, and of the query words inside it (Query.inner)
	flat  []string
	hits  []Hit
}

// NewScanner returns a Scanner of q, with the memory of a released one when there is one.
func (q *Query) NewScanner() *Scanner {
	s := scanners.Get().(*Scanner)
	s.q = q
	return s
}

// scanners holds the memory of released Scanners for the next ones.
var scanners = sync.Pool{New: func() any { return new(Scanner) }}

// Release gives s's memory to the next Scanner (of any query): a caller that will scan no
// more, and that keeps nothing Scan returned, may call it to spare the next Scanner the
// growth of its scratch memory. s must not be used after.
func (s *Scanner) Release() {
	if cap(s.keys) > keptTokens || cap(s.flat) > keptTokens {
		return // not the memory of a sentence of thousands of tokens
	}
	clear(s.keys[:cap(s.keys)]) // keys and hyphen parts are words of a document
	clear(s.flat[:cap(s.flat)])
	*s = Scanner{keys: s.keys[:0], parts: s.parts[:0], flat: s.flat[:0], hits: s.hits[:0]}
	scanners.Put(s)
}

// keptTokens bounds the sentences whose scratch memory Release keeps.
const keptTokens = 1024

// Scan returns every occurrence of every term in toks, overlapping ones included, by
// start and then by term. The slice is reused by the next call.
func (s *Scanner) Scan(toks []syntax.Token) []Hit {
	q := s.q
	s.hits = s.hits[:0]
	s.keys = slices.Grow(s.keys[:0], len(toks))[:len(toks)]
	s.parts = slices.Grow(s.parts[:0], len(toks)+1)[:len(toks)+1]
	s.flat = s.flat[:0]
	found := false
	for i := range toks {
		f := toks[i].Form
		s.keys[i], s.parts[i] = "", int32(len(s.flat))
		if f == "" {
			continue
		}
		hyphen, mayBeURL := marks(f)
		if q.keyable(f, hyphen) {
			s.keys[i] = Key(f)
			found = true
		}
		if hyphen {
			for p := range strings.SplitSeq(f, "-") {
				if p != "" && p != f && q.mayMatch(p) {
					s.flat = append(s.flat, Key(p))
					found = true
				}
			}
		}
		// The parts of a web or e-mail address, which the tokenizer keeps whole: its host,
		// and the pieces between its separators ("proxy.example.com" and "3128" in
		// "http://proxy.example.com:3128").
		if mayBeURL {
			for _, p := range AddressParts(f) {
				if q.mayMatch(p) {
					s.flat = append(s.flat, Key(p))
					found = true
				}
			}
		}
		// A word of a script without spaces inside a longer token: "東京" in "東京事務所".
		if k := s.keys[i]; len(q.inner) > 0 && f[0] >= utf8.RuneSelf && k != "" {
			for _, w := range q.inner {
				if len(k) > len(w) && strings.Contains(k, w) {
					s.flat = append(s.flat, w)
					found = true
				}
			}
		}
	}
	s.parts[len(toks)] = int32(len(s.flat))
	if !found {
		return s.hits
	}
	for i := range toks {
		parts := s.flat[s.parts[i]:s.parts[i+1]]
		if s.keys[i] == "" && len(parts) == 0 {
			continue
		}
		mark := len(s.hits)
		if s.keys[i] != "" {
			s.startAt(toks, i, s.keys[i], mark)
			for _, t := range q.joined[s.keys[i]] {
				s.add(Hit{Term: t, Start: i, End: i + 1}, mark)
			}
		}
		for _, p := range parts {
			s.startAt(toks, i, p, mark)
		}
		if len(s.hits)-mark > 1 {
			slices.SortFunc(s.hits[mark:], func(a, b Hit) int { return a.Term - b.Term })
		}
	}
	return s.hits
}

// startAt adds the hits of the terms whose first word has key k and that match from token
// i on, and of the split terms (Query.split) likewise.
func (s *Scanner) startAt(toks []syntax.Token, i int, k string, mark int) {
	for _, t := range s.q.starts[k] {
		if end := s.runFrom(toks, i, s.q.terms[t]); end > 0 {
			s.add(Hit{Term: t, Start: i, End: end}, mark)
		}
	}
	for _, v := range s.q.splitStarts[k] {
		sp := s.q.split[v]
		if end := s.runFrom(toks, i, sp.keys); end > 0 {
			s.add(Hit{Term: sp.term, Start: i, End: end}, mark)
		}
	}
}

// runFrom returns the end of the run of tokens from i on that matches the words of keys
// after the first (which the caller matched at i), or 0 when none does. Punctuation
// between two words of the text is passed over where the term has none ("not to be"
// matches "not, to be"), as the search's phrases pass it over; the run ends on the last
// word's token.
func (s *Scanner) runFrom(toks []syntax.Token, i int, keys []string) int {
	if i+len(keys) > len(toks) {
		return 0
	}
	p := i + 1
	for j := 1; j < len(keys); j++ {
		for p < len(toks) && !s.matches(p, keys[j]) && punctOnly(toks[p].Form) && !punctOnly(keys[j]) {
			p++
		}
		if p == len(toks) || !s.matches(p, keys[j]) {
			return 0
		}
		p++
	}
	return p
}

// add appends h, the hits from mark on being those of its start: one hit a term at a
// start, the longest of the spellings that match there.
func (s *Scanner) add(h Hit, mark int) {
	for j := mark; j < len(s.hits); j++ {
		if s.hits[j].Term == h.Term {
			s.hits[j].End = max(s.hits[j].End, h.End)
			return
		}
	}
	s.hits = append(s.hits, h)
}

// matches reports whether token i matches a word of key k: its own key, or that of one of
// its hyphen parts or web-address parts, or a word of a script without spaces inside it.
func (s *Scanner) matches(i int, k string) bool {
	return s.keys[i] == k || slices.Contains(s.flat[s.parts[i]:s.parts[i+1]], k)
}
