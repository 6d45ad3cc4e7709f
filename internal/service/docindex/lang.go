package docindex

import (
	"slices"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"

	_ "github.com/qsc-nlp/qsc/analyzers" // the languages' stemmers, as the snippets match them
	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/core/segment"
)

// Documents in other languages than English. A document's language is identified from
// its text (internal/core/langid, as the snippets identify it). An English document (or one
// without letters) is indexed in title and text only. Any other is indexed in those
// too, and in title_L and text_L, where L is its language when package analyzers has an
// analyzer for it, else "other": their analyzer splits the text as the snippets of the
// language do (internal/core/segment: Unicode words, and the characters of Chinese, Japanese,
// Korean and Thai) and keeps each word's segment.Key in the language, the key the
// snippets match by (bleve's stemmer of the language, accents off). So a German document
// is found by "Steuer" for "Steuern", in search as in the snippet, and a Japanese one by
// 税金 inside 税金を. Search looks for each word and phrase of a query in title and text,
// and in the fields of every language the index holds, as a phrase there (a word of
// Chinese is a run of characters). The language is stored in the field lang ("lang:de"
// finds the German documents), and the annotation, which holds the English pipeline's
// reading, is made only for English documents.

// Names in bleve's registry: the tokenizer and the key filter of the languages.
const (
	segmentTokenizer = "qsc_segment"
	segmentKeyFilter = "qsc_segment_key"
	fieldLang        = "lang"
	otherLang        = "other"
	// langsKey is the internal key of the field suffixes of the languages the index holds.
	langsKey = "qsc.docindex.langs"
)

func init() {
	if err := registry.RegisterTokenizer(segmentTokenizer, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return segmentTokens{}, nil
	}); err != nil {
		panic(err)
	}
	if err := registry.RegisterTokenFilter(segmentKeyFilter, func(config map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
		lang, _ := config["lang"].(string)
		return segmentKeys{lang: lang}, nil
	}); err != nil {
		panic(err)
	}
}

// segmentTokens is the tokenizer of the languages: segment.Tokens, less punctuation.
type segmentTokens struct{}

func (segmentTokens) Tokenize(input []byte) analysis.TokenStream {
	var ts analysis.TokenStream
	pos := 1
	for _, t := range segment.Tokens(string(input)) {
		k := segment.KindOf(t.Form)
		if k == segment.Punct {
			continue
		}
		typ := analysis.AlphaNumeric
		if k == segment.Char {
			typ = analysis.Ideographic
		}
		ts = append(ts, &analysis.Token{Term: input[t.Start:t.End], Start: t.Start, End: t.End, Position: pos, Type: typ})
		pos++
	}
	return ts
}

// segmentKeys replaces each term by its segment.Key in lang ("" for none).
type segmentKeys struct{ lang string }

func (f segmentKeys) Filter(ts analysis.TokenStream) analysis.TokenStream {
	for _, t := range ts {
		t.Term = []byte(segment.Key(string(t.Term), f.lang))
	}
	return ts
}

// langSuffix returns the suffix of the fields of a document of lang, or "" for English
// (and text without letters): lang when it has an analyzer, else otherLang.
func langSuffix(lang string) string {
	switch {
	case lang == langid.English || lang == langid.Und:
		return ""
	case segment.Analyzed(lang):
		return lang
	}
	return otherLang
}

// suffixes returns the suffixes of every language's fields: the languages with an
// analyzer, and otherLang.
func suffixes() []string {
	return append(segment.Languages(), otherLang)
}

// mapLanguages adds to the mapping the language field and the fields of each language,
// with their analyzers.
func mapLanguages(im *mapping.IndexMappingImpl, dm *mapping.DocumentMapping) error {
	for _, l := range suffixes() {
		lang := l
		if l == otherLang {
			lang = ""
		}
		filter, analyzer := "qsc_key_"+l, "qsc_"+l
		if err := im.AddCustomTokenFilter(filter, map[string]any{"type": segmentKeyFilter, "lang": lang}); err != nil {
			return err
		}
		if err := im.AddCustomAnalyzer(analyzer, map[string]any{
			"type":          custom.Name,
			"tokenizer":     segmentTokenizer,
			"token_filters": []any{filter},
		}); err != nil {
			return err
		}
		for _, f := range []string{fieldTitle, fieldText} {
			fm := mapping.NewTextFieldMapping()
			fm.Analyzer = analyzer
			fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, true, false
			dm.AddFieldMappingsAt(f+"_"+l, fm)
		}
	}
	lm := mapping.NewTextFieldMapping()
	lm.Analyzer = keyword.Name
	lm.Store, lm.IncludeInAll, lm.IncludeTermVectors, lm.DocValues = true, false, false, false
	dm.AddFieldMappingsAt(fieldLang, lm)
	return nil
}

// addLanguage adds to the fields of d its language and, for a language other than
// English, the fields of the language; it returns the fields' suffix ("" for English).
func addLanguage(fields map[string]any, title, text string) string {
	lang := langid.Detect(text).Lang
	fields[fieldLang] = lang
	sfx := langSuffix(lang)
	if sfx != "" {
		fields[fieldTitle+"_"+sfx] = title
		fields[fieldText+"_"+sfx] = text
	}
	return sfx
}

// langSet is the set of the suffixes of the languages an index holds, read without a lock.
type langSet struct{ p atomic.Pointer[[]string] }

func (s *langSet) get() []string {
	if p := s.p.Load(); p != nil {
		return *p
	}
	return nil
}

// parse sets the set from its stored form (suffixes joined by commas).
func (s *langSet) parse(v []byte) {
	var l []string
	for f := range strings.SplitSeq(string(v), ",") {
		if f != "" {
			l = append(l, f)
		}
	}
	s.p.Store(&l)
}

// with returns the set with the suffixes add, sorted, and whether it grew.
func (s *langSet) with(add []string) ([]string, bool) {
	l := slices.Clone(s.get())
	grew := false
	for _, a := range add {
		if a != "" && !slices.Contains(l, a) {
			l = append(l, a)
			grew = true
		}
	}
	slices.Sort(l)
	return l, grew
}

// expand returns q with each word and phrase that searches title, text or both (no
// field, or "_all") searched as well, as a phrase, in the same fields of each language in
// langs.
func expand(q query.Query, langs []string) query.Query {
	if len(langs) == 0 {
		return q
	}
	return mapLeaves(q, func(q query.Query) query.Query {
		switch q := q.(type) {
		case *query.MatchQuery:
			return alternatives(q, q.Match, q.FieldVal, q.Fuzziness, langs)
		case *query.MatchPhraseQuery:
			return alternatives(q, q.MatchPhrase, q.FieldVal, q.Fuzziness, langs)
		}
		return q
	})
}

// mapLeaves returns q with each query that holds no other (the clauses of boolean,
// conjunction and disjunction queries, recursively; visitLeaves reads the same ones)
// replaced by f of it; q itself is not changed. A nil clause stays nil.
func mapLeaves(q query.Query, f func(query.Query) query.Query) query.Query {
	all := func(qs []query.Query) []query.Query {
		out := make([]query.Query, len(qs))
		for i, c := range qs {
			out[i] = mapLeaves(c, f)
		}
		return out
	}
	switch q := q.(type) {
	case nil:
		return nil
	case *query.BooleanQuery:
		out := *q
		out.Must, out.Should, out.MustNot, out.Filter = mapLeaves(q.Must, f), mapLeaves(q.Should, f), mapLeaves(q.MustNot, f), mapLeaves(q.Filter, f)
		return &out
	case *query.ConjunctionQuery:
		out := *q
		out.Conjuncts = all(q.Conjuncts)
		return &out
	case *query.DisjunctionQuery:
		out := *q
		out.Disjuncts = all(q.Disjuncts)
		return &out
	}
	return f(q)
}

// alternatives returns q, a word or phrase text of field, or its phrase in the fields of
// each language.
func alternatives(q query.Query, text, field string, fuzziness int, langs []string) query.Query {
	var fields []string
	switch field {
	case "", "_all":
		fields = []string{fieldTitle, fieldText}
	case fieldTitle, fieldText:
		fields = []string{field}
	default:
		return q
	}
	if m, ok := q.(*query.MatchQuery); ok && spaceless(text) {
		// A run of characters of Chinese, Japanese or Thai, which the English analyzer
		// splits into characters: a phrase, not any of its characters.
		p := query.NewMatchPhraseQuery(text)
		p.SetField(m.FieldVal)
		p.SetFuzziness(m.Fuzziness)
		p.BoostVal = m.BoostVal
		q = p
	}
	alts := []query.Query{q}
	for _, l := range langs {
		for _, f := range fields {
			p := query.NewMatchPhraseQuery(text)
			p.SetField(f + "_" + l)
			p.SetFuzziness(fuzziness)
			alts = append(alts, p)
		}
	}
	return query.NewDisjunctionQuery(alts)
}

// stopsOutOf returns q with each word that is a stop word of some of the languages in
// langs (the suffixes of the index's language fields) kept from matching the documents
// of those languages: "die" of "die Kinder" is German's article in a German document and
// would find every one of them, but may be English's verb in an English one; "de" of "de
// la" is a stop word of French, Spanish and Portuguese. Such a word, one word of the
// text or title that a result must or may hold, becomes the word with must-not clauses
// on the field lang. English stop words need none: loose words lose them (asWords). The
// rest of q is unchanged; q itself is not changed.
func stopsOutOf(q query.Query, langs []string) query.Query {
	if len(langs) == 0 {
		return q
	}
	return mapLeaves(q, func(q query.Query) query.Query {
		m, ok := q.(*query.MatchQuery)
		if !ok || !textField(m.FieldVal) || strings.ContainsFunc(strings.TrimSpace(m.Match), unicode.IsSpace) {
			return q
		}
		var not []query.Query
		for _, l := range stopLanguages(m.Match, langs) {
			t := query.NewTermQuery(l)
			t.SetField(fieldLang)
			not = append(not, t)
		}
		if not == nil {
			return q
		}
		return query.NewBooleanQuery([]query.Query{q}, nil, not)
	})
}

// stopLanguages returns the languages of langs (codes; otherLang is none) of which the
// word w is a stop word.
func stopLanguages(w string, langs []string) []string {
	var out []string
	for _, l := range langs {
		if stop := segment.StopWords(l); stop != nil && stop(strings.TrimSpace(w)) {
			out = append(out, l)
		}
	}
	return out
}

// TermsIn returns the terms of a search (Results.Terms) that mark a document of language
// lang: without the words that are stop words of lang ("die" in a German document), which
// Search does not match there (stopsOutOf), unless every term is one. Phrases and the
// terms of other languages are kept. It returns terms itself when it drops none.
func TermsIn(terms []string, lang string) []string {
	stop := segment.StopWords(lang)
	if stop == nil || lang == langid.English {
		return terms
	}
	var out []string
	for _, t := range terms {
		if strings.ContainsFunc(strings.TrimSpace(t), unicode.IsSpace) || !stop(strings.TrimSpace(t)) {
			out = append(out, t)
		}
	}
	if len(out) == 0 || len(out) == len(terms) {
		return terms
	}
	return out
}
