package docindex

import (
	"context"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	"github.com/blevesearch/vellum/regexp"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/highlight"
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/tokenize"
)

// ErrQuery is wrapped by the error of a query that cannot be parsed.
var ErrQuery = errors.New("invalid query")

// MaxFrom bounds SearchRequest.From: deeper pages cost more than they are worth.
const MaxFrom = 10000

// SearchRequest asks for one page of results.
type SearchRequest struct {
	// Query is in bleve's query-string syntax: words (any of them), "a phrase", +word
	// (required), -word (excluded), title:word or text:word (in one field), read as
	// Index.Search says: a "?" ending a word is a question's, and name:word for a name
	// that is no field of the index is two words.
	Query string
	// From is the number of results to skip (0 to MaxFrom); Size the number to return.
	From, Size int
}

// Hit is one document found by a search.
type Hit struct {
	Doc   docfile.Doc
	Score float64
	// annotation is the stored annotation of Doc.Text, or nil.
	annotation []byte
	// lang is the language identified in Doc.Text when it was indexed (field lang).
	lang string
}

// Results are one page of the best documents of a search.
type Results struct {
	// Terms are the words and phrases that a result must or may hold (not those it must
	// not), as spelled in the query, in query order: the query terms of the snippets.
	Terms []string
	// Total is the number of documents that match.
	Total uint64
	// Hits are the documents of the page, best first (ties broken by id).
	Hits []Hit
}

// Search returns the page of the documents that match req.Query, ranked by bleve's
// tf-idf score, higher for a title that holds loose words, for all of them and for them
// in a row (ranked), the query read as a search box's user means it (asWords); a query
// whose words are all stop words is their phrase (commonPhrase). A query with no word
// and no pattern to look for (only punctuation, -not terms or words of the index's
// other fields, url and lang, or stop words in an index made before they were indexed)
// finds nothing; a query of patterns alone (hot*, /colou?r/) finds documents with no Terms to
// mark. A query that cannot be parsed, or whose pattern bleve refuses, is an error
// wrapping ErrQuery.
func (x *Index) Search(ctx context.Context, req SearchRequest) (Results, error) {
	parsed, err := x.parse(req.Query)
	if err != nil {
		return Results{}, err
	}
	res := Results{Terms: x.positiveTerms(parsed)}
	if len(res.Terms) == 0 && !hasPattern(parsed) || req.Size <= 0 {
		return res, nil
	}
	if req.From < 0 || req.From > MaxFrom {
		return res, fmt.Errorf("%w: from must be 0 to %d, not %d", ErrQuery, MaxFrom, req.From)
	}
	langs := x.langs.get()
	sr := bleve.NewSearchRequestOptions(x.ranked(parsed, expand(stopsOutOf(parsed, langs), langs)), req.Size, req.From, false)
	sr.SortBy([]string{"-_score", "_id"})
	sr.Fields = []string{fieldTitle, fieldText, fieldURL, fieldLang, highlight.AnnotationField(fieldText)}
	found, err := x.idx.SearchInContext(ctx, sr)
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if badPattern(err) {
			return res, fmt.Errorf("%w: %v", ErrQuery, err)
		}
		return res, fmt.Errorf("search: %w", err)
	}
	res.Total = found.Total
	for _, h := range found.Hits {
		str := func(f string) string { s, _ := h.Fields[f].(string); return s }
		hit := Hit{Doc: docfile.Doc{ID: h.ID, Title: str(fieldTitle), Text: str(fieldText), URL: str(fieldURL)}, Score: h.Score, lang: str(fieldLang)}
		if a := str(highlight.AnnotationField(fieldText)); a != "" {
			hit.annotation = []byte(a)
		}
		res.Hits = append(res.Hits, hit)
	}
	return res, nil
}

// The boosts of ranked's clauses.
const (
	titleBoost  = 2.0
	allBoost    = 2.0
	phraseBoost = 2.0
)

// ranked returns q, the search of the parsed query, with what ranks a document higher
// and finds no other, when the query is loose words of the text and title (no field,
// pattern, phrase or fuzzy word): a title that holds its words (titleBoost), so that a
// page on the query ranks above the index pages that link to it, and, for two words or
// more, all of its words (allBoost: "quarantined events" above pages with one of them),
// and the words in a row as typed, stop words and all (phraseBoost): "in the beginning"
// above pages with "beginning" alone, "not supported" above "supported". The documents
// found, and the terms their snippets mark, are q's.
func (x *Index) ranked(parsed, q query.Query) query.Query {
	words, ok := looseWords(parsed, func(m *query.MatchQuery) bool { return m.FieldVal == "" || m.FieldVal == "_all" })
	if !ok {
		return q
	}
	text := strings.Join(words, " ")
	title := query.NewMatchQuery(text)
	title.SetField(fieldTitle)
	title.SetBoost(titleBoost)
	should := []query.Query{title}
	if len(words) >= 2 {
		all := query.NewMatchQuery(text)
		all.SetOperator(query.MatchQueryOperatorAnd)
		all.SetBoost(allBoost)
		p := query.NewMatchPhraseQuery(text)
		p.SetBoost(phraseBoost)
		should = append(should, all, p)
		if x.stopsIndexed {
			all.Analyzer, p.Analyzer = analyzerName, phraseAnalyzer
		}
	}
	if x.stopsIndexed {
		title.Analyzer = analyzerName
	}
	return query.NewBooleanQuery([]query.Query{q}, should, nil)
}

// Terms returns the terms of a search query that Search would give as Results.Terms
// (the words and phrases its results' snippets mark), without searching: for a page
// that shows a document found by the query. A query Search cannot parse gives its
// error, wrapping ErrQuery.
func (x *Index) Terms(query string) ([]string, error) {
	parsed, err := x.parse(query)
	if err != nil {
		return nil, err
	}
	return x.positiveTerms(parsed), nil
}

// parse parses a search query as Search reads it: bleve's query-string syntax, after
// typographic quotes are made straight and dashes, or the query's words when it is not
// that syntax (escapeSyntax: "p < 0.05"), its fuzziness checked, then read as words where a search box's user meant words
// (asWords). An unclosed quote is an error that says so.
func (x *Index) parse(q string) (query.Query, error) {
	q = typographicQuotes.Replace(q)
	parsed, err := bleve.NewQueryStringQuery(dashes(q)).Parse()
	if err != nil && strings.Count(q, `"`)%2 == 1 {
		return nil, fmt.Errorf(`%w: a quote (") is not closed: a phrase is written "like this"`, ErrQuery)
	}
	if err != nil {
		// "p < 0.05", "title:", "+": not bleve's syntax, so the words typed.
		parsed, err = bleve.NewQueryStringQuery(escapeSyntax(q)).Parse()
	}
	if err != nil {
		// A number in other digits than ASCII ("١٩٧٣", "１９４５", "२०२४"), which the
		// syntax's lexer takes for a number and cannot read: the words typed, analyzed
		// as the text is.
		parsed, err = query.NewMatchQuery(q), nil
	}
	if err := checkFuzziness(parsed); err != nil {
		return nil, err
	}
	return x.queryAnalyzers(x.asWords(x.commonPhrase(parsed))), nil
}

// queryAnalyzers returns q with the analyzer of each word and phrase of the title or text
// named, in an index that holds stop words and the parts of addresses (stopsIndexed):
// a loose word is analyzed without stop words (analyzerName), since a loose "the" would
// find nearly every document, and a phrase with them (phraseAnalyzer); neither adds the
// parts of an address, which would find every document with a "com" for "example.com".
// In another index the field's own analyzer does both. q itself is not changed.
func (x *Index) queryAnalyzers(q query.Query) query.Query {
	if !x.stopsIndexed {
		return q
	}
	return mapLeaves(q, func(q query.Query) query.Query {
		switch q := q.(type) {
		case *query.MatchQuery:
			if textField(q.FieldVal) {
				m := *q
				m.Analyzer = analyzerName
				return &m
			}
		case *query.MatchPhraseQuery:
			if textField(q.FieldVal) {
				m := *q
				m.Analyzer = phraseAnalyzer
				return &m
			}
		}
		return q
	})
}

// typographicQuotes makes the double quotes that a word processor or a phone's keyboard
// types (“…”, „…“, «…») the straight quotes of a phrase, as a search box's user means
// them; single quotes and apostrophes (’) stay.
var typographicQuotes = strings.NewReplacer("“", `"`, "”", `"`, "„", `"`, "‟", `"`, "«", `"`, "»", `"`)

// dashes returns the query q with what a search box's user meant as a dash or a number
// written as such, where bleve's syntax reads "-" as "not": a dash between spaces
// ("EU - Africa") is a space, and a minus before a digit ("-4 °C") is escaped, part of
// the number. A "-" before a word ("-Berlin") still excludes it.
func dashes(q string) string {
	if !strings.ContainsAny(q, "-–—") {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); {
		r, size := utf8.DecodeRuneInString(q[i:])
		atStart := i == 0 || q[i-1] == ' ' || q[i-1] == '(' || q[i-1] == '"'
		after, _ := utf8.DecodeRuneInString(q[i+size:])
		switch {
		case (r == '-' || r == '–' || r == '—') && atStart && (i+size == len(q) || after == ' '):
			b.WriteByte(' ') // a dash of its own
		case r == '-' && atStart && unicode.IsDigit(after):
			b.WriteString(`\-`) // a negative number
		default:
			b.WriteString(q[i : i+size])
		}
		i += size
	}
	return b.String()
}

// escapeSyntax returns q with every character of bleve's query-string syntax escaped, so
// that it parses as words: what Search falls back to for a query that does not parse.
func escapeSyntax(q string) string {
	var b strings.Builder
	for _, r := range q {
		if strings.ContainsRune(`+-=&|><!(){}[]^"~*?:\/`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// asWords returns q with what a search box's user meant as words read as words, where
// bleve's syntax would read it otherwise: a word ending in "?" ("is the room clean?")
// is the word (bleve's syntax makes "clean?" a pattern of one more character, which
// misses "clean"), and "name:value" for a name that is no field of the index ("price:
// $5", "http://example.org") is the name and the value as words in the title and text,
// and `name:"a phrase"` the phrase there (bleve's syntax searches a field "price",
// which finds nothing), a pasted URL ("https://example.org/a?b=1") the phrase of its
// words, a hyphenated word ("IL-6") the word spaced or hyphenated, or joined ("IL6"),
// where its parts one by one would find any document with a "6", a pattern of marks
// alone ("???") nothing, and a pattern of the
// text in capitals or with accents ("BRCA*", "Mül*") the pattern in lower case without
// accents, as the index keeps its words. A "?" inside a word ("colo?r") and the fields the index has
// (title, text, url, lang and the fields of its languages) keep their meaning. It costs
// one walk of q.
func (x *Index) asWords(q query.Query) query.Query {
	var leaf func(query.Query) query.Query
	leaf = func(q query.Query) query.Query {
		if u, boost, ok := x.pastedURL(q); ok {
			m := query.NewMatchPhraseQuery(u)
			m.BoostVal = boost
			return m
		}
		switch q := q.(type) {
		case *query.WildcardQuery:
			if !strings.ContainsFunc(q.Wildcard, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
				// "police ???": question marks, not a pattern of any three-letter word,
				// which would find most documents.
				return query.NewMatchNoneQuery()
			}
			if w := strings.TrimRight(q.Wildcard, "?"); w != "" && w != q.Wildcard && !strings.ContainsAny(w, "*?") {
				m := query.NewMatchQuery(w)
				m.FieldVal, m.BoostVal = q.FieldVal, q.BoostVal
				return leaf(m) // a word now, of a field the index may lack
			}
			if l := strings.ToLower(match.Fold(q.Wildcard)); l != q.Wildcard && textField(q.FieldVal) {
				w := *q // "BRCA*", "Mül*": the index keeps its words in lower case, accents removed (match.Key)
				w.Wildcard = l
				return &w
			}
		case *query.MatchQuery:
			if !x.knownField(q.FieldVal) {
				m := query.NewMatchQuery(q.FieldVal + " " + q.Match)
				m.BoostVal, m.Fuzziness = q.BoostVal, q.Fuzziness
				return m
			}
			if q.Fuzziness == 0 && x.glued(q.Match) {
				m := query.NewMatchPhraseQuery(q.Match) // "12(b)(6)", "AT&T": one citation, not its pieces
				m.FieldVal, m.BoostVal = q.FieldVal, q.BoostVal
				return m
			}
			if j := match.Dehyphen(q.Match); q.Fuzziness == 0 && j != q.Match && !strings.ContainsFunc(q.Match, unicode.IsSpace) {
				// "IL-6", "e-mail": the word, spaced or hyphenated ("IL 6", "IL-6"), or
				// joined ("IL6"), not any document with a "6".
				p, w := query.NewMatchPhraseQuery(q.Match), query.NewMatchQuery(j)
				p.FieldVal, w.FieldVal = q.FieldVal, q.FieldVal
				d := query.NewDisjunctionQuery([]query.Query{p, w})
				d.BoostVal = q.BoostVal
				return d
			}
		case *query.MatchPhraseQuery:
			if !x.knownField(q.FieldVal) {
				m := query.NewMatchPhraseQuery(q.MatchPhrase) // the phrase as typed, in the title and text
				m.BoostVal, m.Fuzziness = q.BoostVal, q.Fuzziness
				return m
			}
		}
		return q
	}
	return mapLeaves(q, leaf)
}

// glued reports whether w, one word as typed (no white space), is pieces that the index's
// analyzer cuts apart at punctuation other than hyphens: a citation such as "12(b)(6)" or
// a name such as "AT&T", which asWords searches as the phrase of its pieces, where their
// words one by one would find any document with a "12" or a "b". A word cut only at its
// hyphens ("e-mail") stays a word: the index also holds it joined (hyphenTokenizer).
func (x *Index) glued(w string) bool {
	if w == "" || strings.ContainsFunc(w, unicode.IsSpace) {
		return false
	}
	if !strings.ContainsFunc(w, func(r rune) bool {
		return r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	}) {
		return false
	}
	n := 0
	for _, t := range x.analyzer.Analyze([]byte(w)) {
		if t.Position > n {
			n = t.Position
		}
	}
	return n >= 2
}

// pastedURL reports whether q is a URL that bleve's syntax read as a field and a value
// ("https://example.org/a?b=1" as field "https" and a pattern), and returns the URL and
// q's boost. asWords searches it as a phrase: the documents that hold that address.
func (x *Index) pastedURL(q query.Query) (string, *query.Boost, bool) {
	var field, value string
	var boost *query.Boost
	switch q := q.(type) {
	case *query.MatchQuery:
		field, value, boost = q.FieldVal, q.Match, q.BoostVal
	case *query.WildcardQuery:
		field, value, boost = q.FieldVal, q.Wildcard, q.BoostVal
	default:
		return "", nil, false
	}
	if field == "" || x.knownField(field) || !tokenize.IsURL(field+":"+value) {
		return "", nil, false
	}
	return field + ":" + value, boost, true
}

// knownField reports whether a query may name field f: no field, "_all", a field of
// the index's documents, or the title or text field of one of its languages.
func (x *Index) knownField(f string) bool {
	switch f {
	case "", "_all", fieldTitle, fieldText, fieldURL, fieldLang:
		return true
	}
	for _, l := range x.langs.get() {
		if f == fieldTitle+"_"+l || f == fieldText+"_"+l {
			return true
		}
	}
	return false
}

// checkFuzziness refuses, with an error wrapping ErrQuery, a query that parses but that
// bleve cannot search: a fuzzy term (word~N) whose edit distance N is above bleve's
// maximum, searcher.MaxFuzziness.
func checkFuzziness(q query.Query) error {
	return visitLeaves(q, true, func(q query.Query) error {
		switch q := q.(type) {
		case *query.MatchQuery:
			return fuzziness(q.Match, q.Fuzziness)
		case *query.MatchPhraseQuery:
			return fuzziness(q.MatchPhrase, q.Fuzziness)
		case *query.FuzzyQuery:
			return fuzziness(q.Term, q.Fuzziness)
		}
		return nil
	})
}

// visitLeaves calls visit on each query of q that holds no other (the clauses of boolean,
// conjunction and disjunction queries, recursively), in query order, and returns its first
// error. The clauses under must-not are visited only when negated is true.
func visitLeaves(q query.Query, negated bool, visit func(query.Query) error) error {
	var clauses []query.Query
	switch q := q.(type) {
	case *query.BooleanQuery:
		clauses = []query.Query{q.Must, q.Should}
		if negated {
			clauses = append(clauses, q.MustNot)
		}
		clauses = append(clauses, q.Filter)
	case *query.ConjunctionQuery:
		clauses = q.Conjuncts
	case *query.DisjunctionQuery:
		clauses = q.Disjuncts
	default:
		return visit(q)
	}
	for _, c := range clauses {
		if err := visitLeaves(c, negated, visit); err != nil {
			return err
		}
	}
	return nil
}

// hasPattern reports whether q has a wildcard or /regexp/ pattern of the text or the
// title that a result must or may match (not one under -not): a query that selects
// documents though it names no word to mark.
func hasPattern(q query.Query) bool {
	found := false
	_ = visitLeaves(q, false, func(q query.Query) error { // never fails
		switch q := q.(type) {
		case *query.WildcardQuery:
			found = found || textField(q.Field())
		case *query.RegexpQuery:
			found = found || textField(q.Field())
		}
		return nil
	})
	return found
}

// badPattern reports whether err, from a search, is the refusal of a /regexp/ or
// wild*card pattern of the query: a syntax error, or what bleve's automaton does not take
// (zero-width assertions such as $, word boundaries, byte literals, lazy quantifiers, a
// pattern too large to compile). bleve checks patterns only when it searches.
func badPattern(err error) bool {
	var se *syntax.Error
	return errors.As(err, &se) || errors.Is(err, regexp.ErrNoEmpty) || errors.Is(err, regexp.ErrNoWordBoundary) ||
		errors.Is(err, regexp.ErrNoBytes) || errors.Is(err, regexp.ErrNoLazy) || errors.Is(err, regexp.ErrCompiledTooBig)
}

// fuzziness checks the edit distance n of the fuzzy term t.
func fuzziness(t string, n int) error {
	if n < 0 || n > searcher.MaxFuzziness {
		return fmt.Errorf("%w: %q~%d: the edit distance of a fuzzy term must be 0 to %d", ErrQuery, t, n, searcher.MaxFuzziness)
	}
	return nil
}

// positiveTerms returns the words and phrases of q that a result must or may hold, as
// spelled in the query, without stop words, each key once (the first spelling), in
// query order, at most qsc.MaxQueryTerms. A phrase is one term (the matcher finds it as a
// run of tokens). Terms under -not, and the patterns of wildcard, regexp and range
// queries, are left out: they select documents but name no word to mark.
func (x *Index) positiveTerms(q query.Query) []string {
	var terms []string
	seen := map[string]bool{}
	add := func(term string) {
		// a hyphenated word and its joined spelling are one term (asWords searches both)
		key := strings.Join(x.keys(match.Dehyphen(term)), " ")
		if key == "" && spaceless(term) {
			// Thai, Lao, Khmer or Myanmar, which the English analyzer drops: the
			// fields of the languages find it (lang.go), and the snippets' matcher.
			key = term
		}
		if key != "" && !seen[key] && len(terms) < qsc.MaxQueryTerms {
			seen[key] = true
			terms = append(terms, term)
		}
	}
	_ = visitLeaves(q, false, func(q query.Query) error { // never fails
		if f, ok := q.(query.FieldableQuery); ok && !textField(f.Field()) {
			return nil // a word of another field (lang:de, url) names no word of the text
		}
		switch q := q.(type) {
		case *query.MatchQuery:
			if spaceless(q.Match) {
				add(q.Match) // a run of characters of Chinese, Japanese or Thai: one term
				break
			}
			for _, w := range x.words(q.Match) {
				add(w)
			}
		case *query.MatchPhraseQuery:
			if ws := wordsOf(x.analyzer, q.MatchPhrase); x.glued(q.MatchPhrase) {
				add(q.MatchPhrase) // "12(b)(6)", "AT&T": the word as typed
			} else if spaceless(q.MatchPhrase) && len(ws) == 0 {
				add(strings.Join(strings.Fields(q.MatchPhrase), " ")) // Thai and the like, as above
			} else if len(ws) == 1 {
				add(ws[0])
			} else if len(ws) > 1 {
				add(strings.Join(strings.Fields(q.MatchPhrase), " "))
			}
		case *query.TermQuery:
			add(q.Term)
		}
		return nil
	})
	return terms
}

// words returns the searchable words of s as loose words of a query (not stop words),
// as spelled in s (wordsOf).
func (x *Index) words(s string) []string { return wordsOf(x.wordAnalyzer, s) }

// wordsOf returns the words of s that analyzer a gives terms for, as spelled in s. A
// hyphenated word is one word as typed ("e-mail"), not also its parts, which the
// index's tokenizer adds beside it (hyphenTokenizer): the snippets' matcher finds its
// parts and joined spelling itself, and a part alone ("e") would mark letters elsewhere.
func wordsOf(a analysis.Analyzer, s string) []string {
	ts := a.Analyze([]byte(s))
	var out []string
	for _, t := range ts {
		if !insideAnother(t, ts) {
			out = append(out, s[t.Start:t.End])
		}
	}
	return out
}

// insideAnother reports whether token t's span lies within a longer one of ts.
func insideAnother(t *analysis.Token, ts analysis.TokenStream) bool {
	for _, u := range ts {
		if u.Start <= t.Start && t.End <= u.End && u.End-u.Start > t.End-t.Start {
			return true
		}
	}
	return false
}

// keys returns the index terms of s.
func (x *Index) keys(s string) []string { return keysOf(x.analyzer, s) }

// keysOf returns the terms that analyzer a gives s.
func keysOf(a analysis.Analyzer, s string) []string {
	var out []string
	for _, t := range a.Analyze([]byte(s)) {
		out = append(out, string(t.Term))
	}
	return out
}

// commonPhrase returns q, or, when every word that a result of q must or may hold is a
// stop word, loose words of the text or title and no pattern ("to be or not to be", "The
// Who", "let it be"), the phrase of those words in query order, with q's -not clauses:
// such a query names a phrase, and each of its words alone would find nearly every
// document. Only an index that holds stop words (stopsIndexed) can find it; in another q
// is returned, and finds nothing.
func (x *Index) commonPhrase(q query.Query) query.Query {
	if !x.stopsIndexed {
		return q
	}
	words, ok := looseWords(q, func(m *query.MatchQuery) bool {
		return textField(m.FieldVal) && len(x.words(m.Match)) == 0 && len(x.keys(m.Match)) > 0
	})
	if !ok {
		return q
	}
	p := query.NewMatchPhraseQuery(strings.Join(words, " "))
	if b, isBool := q.(*query.BooleanQuery); isBool && b.MustNot != nil {
		return query.NewBooleanQuery([]query.Query{p}, nil, []query.Query{b.MustNot})
	}
	return p
}

// looseWords returns the words of q's leaves that a result must or may hold, in query
// order, when there is one at least and every one is a word without fuzziness (a
// MatchQuery) that keep accepts; else ok is false.
func looseWords(q query.Query, keep func(*query.MatchQuery) bool) (words []string, ok bool) {
	ok = true
	_ = visitLeaves(q, false, func(l query.Query) error { // never fails
		if l == nil {
			return nil // a clause the query has not
		}
		m, isMatch := l.(*query.MatchQuery)
		if !isMatch || m.Fuzziness != 0 || !keep(m) {
			ok = false
			return nil
		}
		words = append(words, m.Match)
		return nil
	})
	return words, ok && len(words) > 0
}

// spaceless reports whether the word w holds a letter of a script written without spaces
// (Han, kana, Thai, …), which the snippets find inside longer runs.
func spaceless(w string) bool {
	return strings.IndexFunc(w, segment.Spaceless) >= 0
}

// textField reports whether a query of field f searches the text or the title: no field
// (the composite field _all), title or text.
func textField(f string) bool {
	return f == "" || f == "_all" || f == fieldTitle || f == fieldText
}
