// Package prefilter decides, from raw text and cheaply, whether a text may hold a word that
// matches a query term: the scan that lets the snippets of a long document tokenize only
// the paragraphs that may match.
//
// A Filter never says no to a text where the matchers (internal/core/match for English,
// internal/core/segment for the other languages) would find a term: it is a superset. It
// looks, in the text's skeleton (see Skeleton), for anchors derived from each query word
// that every word matching it holds:
//   - a word of a language matched without an analyzer (Chinese, Japanese, Korean, Thai,
//     Greek, …): its key is a normalization of the word (NFKC, lower case, accents
//     off), whose skeleton is the word's own, so the anchor is the key's skeleton;
//   - an English word: its key is a stem (internal/core/stem), and the anchors are
//     stem.Anchors of the key: the key less a final e or i, and the irregular forms of
//     the key (went for go);
//   - a word of a language with a bleve analyzer (package analyzers): the analyzer's
//     stemmer changes the end of a word, and some normalize inside it (German writes ae
//     as a, French and Finnish undouble letters, Hindi writes a dead n as a nasal sign),
//     so the anchors are the pieces of the key that such a change cannot reach: the key
//     less its last letters, cut where the language's normalization joins or drops
//     letters (the rules table). Some rules are read from the analyzers' source, the
//     others measured (see rules); TestAnalyzerRules checks all of them on 100,000
//     random words per language (stems with the endings of the stemmers' own tables)
//     and on the fixtures' words. A language with an analyzer and no rule (Polish: its
//     stemmer rewrites words by learned patches) is not filtered.
//
// A term of several words may match when each of its words may; a query when one of its
// terms may. A query word whose anchors are empty (a one-letter stem) may match anywhere,
// and so then may its term.
//
// The cost is that of the skeleton (eight ASCII bytes at a time, a table look-up per rune
// for other text) and a substring search per anchor: hundreds of MB/s.
package prefilter

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/internal/core/stem"
)

// rule is how the anchors of a word of a language with an analyzer are cut from its key.
type rule struct {
	trailing int    // letters at the key's end that the stemmer may have changed
	after    string // cut after these letters: the normalization may have dropped the next
	cuts     string // cut at these, and drop them: the normalization may have written them
	// undouble: the stemmer writes a doubled letter once, anywhere in the word, so text
	// and anchors are undoubled; and ae and oe are cut apart, as a doubled æ or œ is
	// undoubled before it is spelled as two letters.
	undouble bool
}

// rules are the rules of the languages with a bleve analyzer (v2.6.1). Those read from
// the analyzers' source are exact: Arabic's and Hindi's stemmers and Italian's only take
// letters off (Arabic's off the start too), Spanish's writes one letter at the end
// (luces → luz), German's normalization drops the e of ae, oe and ue, Hindi's writes a
// dead n as a nasal sign, and Persian's has no stemmer. The others are measured
// (snowball's and the French, Portuguese and Croatian stemmers): trailing is one more
// than the most letters any of 300,000 to 1,000,000 random words needed
// (TestAnalyzerRules).
var rules = map[string]rule{
	"ar": {},
	"da": {trailing: 1},
	"de": {after: "aou"},
	"es": {trailing: 1},
	"fa": {cuts: " "}, // the zero-width non-joiner is a space
	"fi": {trailing: 1, undouble: true},
	"fr": {trailing: 3, undouble: true},
	"hi": {cuts: "\u0902"},
	"hr": {trailing: 3},
	"hu": {trailing: 2},
	"it": {},
	"nb": {trailing: 1},
	"nl": {trailing: 3},
	"no": {trailing: 1},
	"pt": {trailing: 3},
	"ro": {trailing: 2},
	"ru": {trailing: 1},
	"sv": {trailing: 1},
	"tr": {trailing: 4},
}

// Filterable reports whether the words of lang can be filtered: no analyzer is registered
// for it, or it has a rule.
func Filterable(lang string) bool {
	_, ok := rules[lang]
	return ok || !segment.Analyzed(lang)
}

// A Filter is the anchors of a query's terms, in one or more languages. It is read-only
// once built and safe for concurrent use; a Scratch holds the memory of one text.
type Filter struct {
	sets   []set
	always bool // some term may match anywhere
}

// set is the anchors of the terms in one language: a term may match when each of its
// words has an alternative whose pieces are all in the text.
type set struct {
	terms    [][]word
	undouble bool
}

// word is the alternatives of one query word; each is pieces that must all be there.
type word [][]string

// Always reports whether every text may match: some term has no anchor.
func (f *Filter) Always() bool { return f.always }

// AddEnglish adds the terms as the English matcher reads them (match.Words, match.Key).
func (f *Filter) AddEnglish(terms []string) {
	var s set
	for _, term := range terms {
		var t []word
		for _, w := range match.Words(term) {
			var alts word
			for _, a := range stem.Anchors(match.Key(w)) {
				alts = append(alts, pieces(Skeleton(a)))
			}
			// A hyphenated word also matches the words of its parts ("boil-water" in
			// "boil water"): all of their pieces, each of one of its anchors.
			if parts := match.HyphenParts(w); len(parts) > 1 {
				combos := [][]string{nil}
				for _, p := range parts {
					var next [][]string
					for _, c := range combos {
						for _, a := range stem.Anchors(match.Key(p)) {
							next = append(next, append(slices.Clip(c), pieces(Skeleton(a))...))
						}
					}
					combos = next
				}
				alts = append(alts, combos...)
			}
			t = append(t, alts)
		}
		s.terms = append(s.terms, t)
	}
	f.add(s)
}

// AddLanguage adds the terms as the matcher of lang reads them (segment.Compile): its
// tokens, less the punctuation at the ends. A language that is not Filterable makes
// every text match.
func (f *Filter) AddLanguage(terms []string, lang string) {
	r, ruled := rules[lang]
	analyzed := segment.Analyzed(lang)
	if analyzed && !ruled {
		f.always = true
		return
	}
	s := set{undouble: r.undouble}
	for _, term := range terms {
		toks := segment.Tokens(term)
		lo, hi := 0, len(toks)
		for lo < hi && segment.KindOf(toks[lo].Form) == segment.Punct {
			lo++
		}
		for hi > lo && segment.KindOf(toks[hi-1].Form) == segment.Punct {
			hi--
		}
		if lo < hi {
			toks = toks[lo:hi]
		}
		var t []word
		for _, tok := range toks {
			key := segment.Key(tok.Form, lang)
			if analyzed && segment.KindOf(tok.Form) == segment.Word {
				t = append(t, word{r.pieces(key)})
			} else {
				t = append(t, word{pieces(Skeleton(key))})
			}
		}
		s.terms = append(s.terms, t)
	}
	f.add(s)
}

// pieces returns the one piece s, or none when it is empty (a word that may be anywhere).
func pieces(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// pieces returns the anchors of a key of r's language: its skeleton less the last
// r.trailing letters, cut after r.after and at r.cuts (and around ae and oe when
// undoubled), each piece undoubled when r.undouble.
func (r rule) pieces(key string) []string {
	rs := []rune(key)
	rs = rs[:max(0, len(rs)-r.trailing)]
	var out []string
	lo := 0
	flush := func(hi int) {
		if s := Skeleton(string(rs[lo:hi])); s != "" {
			if r.undouble {
				s = undouble(s)
			}
			out = append(out, s)
		}
	}
	for i, c := range rs {
		switch {
		case strings.ContainsRune(r.cuts, c):
			flush(i)
			lo = i + 1
			continue
		case r.undouble && i >= 1 && (c == 'e' && (rs[i-1] == 'a' || rs[i-1] == 'o') ||
			rs[i-1] == 'e' && i >= 2 && (rs[i-2] == 'a' || rs[i-2] == 'o')):
			flush(i)
			lo = i
		}
		if strings.ContainsRune(r.after, c) {
			flush(i + 1)
			lo = i + 1
		}
	}
	flush(len(rs))
	return out
}

// add adds the set s, and notes a term that may match anywhere.
func (f *Filter) add(s set) {
	for _, t := range s.terms {
		if len(t) == 0 || !slices.ContainsFunc(t, func(w word) bool { return !w.anywhere() }) {
			f.always = true
		}
	}
	f.sets = append(f.sets, s)
}

// anywhere reports whether the word may be anywhere: an alternative has no piece.
func (w word) anywhere() bool {
	return slices.ContainsFunc(w, func(alt []string) bool { return len(alt) == 0 })
}

// Count returns a bound of the number of distinct terms that a sentence of the text that
// sk last read (Scratch.Read) may match: the terms whose words all have their anchors in
// it, in the language that has the most; a large number when some term may match
// anywhere. A text with a term that the matchers would find has a Count of at least 1,
// and at least the number of distinct terms they would find in any one of its sentences.
func (f *Filter) Count(sk *Scratch) int {
	if f.always {
		return math.MaxInt32
	}
	best := 0
	for _, s := range f.sets {
		best = max(best, s.count(s.textOf(sk)))
	}
	return best
}

// Mask returns the terms that a sentence of the text sk last read may match, as bits by
// their place in the terms given (bit i for the i-th, the first 64): those whose words
// all have their anchors in it, in any language; every bit when some term may match
// anywhere. A term the matchers would find in the text has its bit set.
func (f *Filter) Mask(sk *Scratch) uint64 {
	if f.always {
		return ^uint64(0)
	}
	var m uint64
	for _, s := range f.sets {
		text := s.textOf(sk)
		for i, t := range s.terms[:min(len(s.terms), 64)] {
			if allIn(t, text) {
				m |= 1 << i
			}
		}
	}
	return m
}

// textOf returns the text that the anchors of s are looked for in: the skeleton sk last
// read, undoubled for a language whose anchors are.
func (s *set) textOf(sk *Scratch) []byte {
	if s.undouble {
		return sk.undoubled()
	}
	return sk.buf
}

// allIn reports whether every word of the term t has an alternative in text.
func allIn(t []word, text []byte) bool {
	return !slices.ContainsFunc(t, func(w word) bool { return !w.in(text) })
}

// count returns the number of terms of s that have all of their words in text.
func (s *set) count(text []byte) int {
	n := 0
	for _, t := range s.terms {
		if allIn(t, text) {
			n++
		}
	}
	return n
}

// in reports whether an alternative of w is in text.
func (w word) in(text []byte) bool {
	for _, alt := range w {
		ok := true
		for _, p := range alt {
			if !contains(text, p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// contains reports whether text holds s, without copying text.
func contains(text []byte, s string) bool {
	return strings.Contains(unsafeString(text), s)
}

// undouble returns s with each run of one rune written once.
func undouble(s string) string {
	return string(appendUndoubled(nil, s))
}

// appendUndoubled appends s with each run of one rune written once to dst.
func appendUndoubled(dst []byte, s string) []byte {
	last := rune(-1)
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if r != last {
			dst = append(dst, s[i:i+size]...)
		}
		last = r
		i += size
	}
	return dst
}

// unsafeString returns b as a string without copying; b must not change while it is used.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
