package segment

import (
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/syntax"
)

// An Analyzer returns the term that a search index keeps for a word of its language (a
// stem: "steuern" → "steuer"), or "" when it keeps none (a stop word). The word it is given
// is normalized (NFKC) and lower-cased.
type Analyzer func(word string) string

// analyzers are the registered analyzers by language; written only by Register, at init.
var analyzers = map[string]Analyzer{}

// Register makes a the analyzer of the words of lang (an ISO 639-1 code) for Key. It is
// meant to be called from init functions (package analyzers registers bleve's); a later
// call for the same language replaces the earlier one.
func Register(lang string, a Analyzer) { analyzers[lang] = a }

// stopWords are the registered stop word lists by language; written only by
// RegisterStopWords, at init.
var stopWords = map[string]func(string) bool{}

// RegisterStopWords makes stop report the stop words (function words: articles,
// prepositions, conjunctions, …) of lang, given a word normalized and lower-cased as an
// Analyzer is. It is meant to be called from init functions.
func RegisterStopWords(lang string, stop func(word string) bool) { stopWords[lang] = stop }

// StopWords returns the stop word test of lang, which takes a token's form in any case,
// or nil when lang has no registered list.
func StopWords(lang string) func(form string) bool {
	stop := stopWords[lang]
	if stop == nil {
		return nil
	}
	return func(form string) bool { return stop(lower(form)) }
}

// trailingNegations are, by language, the words that negate a clause's verb from after
// it, so that the verb before them reads as affirmed when they are cut ("dürfen die
// Menschenrechte …" for "… nicht aushöhlen"), lower-cased.
var trailingNegations = map[string][]string{
	"de": {"nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "nichts"},
	"nl": {"niet", "geen", "nooit", "niets"},
	"fr": {"pas", "jamais", "rien", "aucun", "aucune", "personne", "guère"},
	"sv": {"inte", "ej", "aldrig", "ingen", "inget", "inga"},
	"da": {"ikke", "aldrig", "ingen", "intet"},
	"no": {"ikke", "aldri", "ingen", "intet"},
	"nb": {"ikke", "aldri", "ingen", "intet"},
}

// TrailingNegation returns the test of lang's words that negate a clause's verb from
// after it (German "nicht", French "pas"), which takes a token's form in any case, or nil
// for a language that puts its negation before the verb or has no list.
func TrailingNegation(lang string) func(form string) bool {
	words := trailingNegations[lang]
	if words == nil {
		return nil
	}
	return func(form string) bool { return slices.Contains(words, lower(form)) }
}

// Analyzed reports whether an analyzer is registered for lang.
func Analyzed(lang string) bool { return analyzers[lang] != nil }

// Languages returns the languages with a registered analyzer, sorted.
func Languages() []string {
	out := make([]string, 0, len(analyzers))
	for l := range analyzers {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// Key returns the matching key of one token of a text in language lang: two tokens match
// when their keys are equal. It normalizes the form (NFKC: full-width letters are ASCII,
// half-width kana full-width), lower-cases it, takes the term of lang's analyzer when one
// is registered and keeps a term, and removes the accents of Latin, Greek and Cyrillic
// letters and the vowel marks of Arabic (match.FoldAccents, whose table spells ø, ß, æ, …
// in ASCII). The marks of other scripts (Devanagari's and Thai's vowel signs) are letters
// there and stay.
func Key(form, lang string) string {
	w := lower(form)
	if a := analyzers[lang]; a != nil && KindOf(w) == Word {
		if k := a(w); k != "" {
			w = k
		}
	}
	return match.FoldAccents(w)
}

// lower returns form normalized (NFKC) and lower-cased; an ASCII form only lower-cased.
func lower(form string) string {
	for i := 0; i < len(form); i++ {
		if form[i] >= utf8.RuneSelf {
			return strings.ToLower(norm.NFKC.String(form))
		}
	}
	return strings.ToLower(form)
}

// Query is a compiled query for text in one language: the keys of the tokens of each
// distinct term. It is read-only and safe for concurrent use.
type Query struct {
	match.Terms
	lang string
}

// Compile compiles query terms for text in lang: each term is split into tokens as the
// text is (Tokens), less the punctuation at its ends, and must have from 1 to maxTokens of
// them. Terms with equal keys are one term.
func Compile(terms []string, lang string, maxTokens int) (*Query, error) {
	t, err := match.CompileTerms(terms, maxTokens, "words and characters", termForms,
		func(form string) string { return Key(form, lang) })
	if err != nil {
		return nil, err
	}
	return &Query{Terms: t, lang: lang}, nil
}

// termForms returns the forms of the tokens of a term, less the punctuation at its ends
// (unless the term is only punctuation).
func termForms(term string) []string {
	toks := Tokens(term)
	lo, hi := 0, len(toks)
	for lo < hi && KindOf(toks[lo].Form) == Punct {
		lo++
	}
	for hi > lo && KindOf(toks[hi-1].Form) == Punct {
		hi--
	}
	if lo < hi {
		toks = toks[lo:hi]
	}
	forms := make([]string, len(toks))
	for i, t := range toks {
		forms[i] = t.Form
	}
	return forms
}

// Lang returns the language the query was compiled for.
func (q *Query) Lang() string { return q.lang }

// maxCache bounds the keys a Scanner remembers.
const maxCache = 1 << 14

// Scanner finds a query in the tokens of sentences. It remembers the keys of the forms it
// has seen; it is not safe for concurrent use.
type Scanner struct {
	q     *Query
	keys  []string // the key of each token
	alt   []string // the key of the part after an inner apostrophe (l'État), or ""
	hits  []match.Hit
	cache map[string][2]string
}

// NewScanner returns a Scanner of q.
func (q *Query) NewScanner() *Scanner { return &Scanner{q: q, cache: map[string][2]string{}} }

// keyOf returns the keys of a token's form: its own, and that of the part after an inner
// apostrophe (an elided article: l'État, dell'anno) or "".
func (s *Scanner) keyOf(form string) (string, string) {
	if k, ok := s.cache[form]; ok {
		return k[0], k[1]
	}
	k := [2]string{Key(form, s.q.lang), ""}
	if i := strings.LastIndexAny(form, "'’"); i > 0 {
		_, size := utf8.DecodeRuneInString(form[i:])
		if rest := form[i+size:]; rest != "" {
			k[1] = Key(rest, s.q.lang)
		}
	}
	if len(s.cache) >= maxCache {
		clear(s.cache)
	}
	s.cache[form] = k
	return k[0], k[1]
}

// Scan returns every occurrence of every term in toks, by start and then by term: Hit.Start
// and Hit.End are token indexes. The slice is reused by the next call.
func (s *Scanner) Scan(toks []syntax.Token) []match.Hit {
	s.hits = s.hits[:0]
	s.keys = slices.Grow(s.keys[:0], len(toks))[:len(toks)]
	s.alt = slices.Grow(s.alt[:0], len(toks))[:len(toks)]
	for i := range toks {
		s.keys[i], s.alt[i] = s.keyOf(toks[i].Form)
	}
	for i := range toks {
		mark := len(s.hits)
		s.startAt(i, s.keys[i], mark)
		if s.alt[i] != "" {
			s.startAt(i, s.alt[i], mark)
		}
		if len(s.hits)-mark > 1 {
			slices.SortFunc(s.hits[mark:], func(a, b match.Hit) int { return a.Term - b.Term })
		}
	}
	return s.hits
}

// startAt appends the hits of the terms whose first token has key k and that match from
// token i on, unless a hit of the same term at i is among hits[mark:].
func (s *Scanner) startAt(i int, k string, mark int) {
	for _, t := range s.q.Starting(k) {
		keys := s.q.Keys(t)
		if i+len(keys) > len(s.keys) {
			continue
		}
		ok := true
		for j := 1; j < len(keys) && ok; j++ {
			ok = s.keys[i+j] == keys[j] || s.alt[i+j] == keys[j]
		}
		if ok && !slices.ContainsFunc(s.hits[mark:], func(h match.Hit) bool { return h.Term == t }) {
			s.hits = append(s.hits, match.Hit{Term: t, Start: i, End: i + len(keys)})
		}
	}
}
