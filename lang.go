package qsc

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	xlanguage "golang.org/x/text/language"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/internal/core/window"
	"github.com/qsc-nlp/qsc/syntax"
)

// English is the language of the compression models: text in it goes through the English
// tokenizer, matcher, tagger, parser and the request's method.
const English = langid.English

// MethodWindow is the name of the window: the method of the snippets of text in a language
// without a compression model (see DoSnippets), and of the search-engine baseline on
// English text.
const MethodWindow = "window"

// MethodLead is the method of the snippet of a document where no query term matched,
// with SnippetRequest.NoMatch: its lead, the first sentence that reads as prose (or its
// first sentence), cut cleanly to the budget.
const MethodLead = "lead"

// maxTermTokens is the largest number of tokens of a query term in a language other than
// English: a term of a script without spaces has a token per character.
const maxTermTokens = 4 * MaxTermWords

// language returns the language of text, given (lang, checked and normalized) or
// identified (langid.Detect), and whether the caller gave it. Text without letters (und)
// and Latin-script text that the identifier does not place with confidence are English.
func language(lang, text string) (langid.Result, bool, error) {
	if lang != "" {
		code, err := checkLang(lang)
		if err != nil {
			return langid.Result{}, false, err
		}
		return langid.Result{Lang: code, Script: scriptOf(code, text), Sure: true}, true, nil
	}
	return langid.Detect(text), false, nil
}

// scriptOf returns the script of a text whose language the caller gave: the main script
// of its first langid.SampleBytes.
func scriptOf(lang, text string) langid.Script {
	if lang == English {
		return langid.Latin
	}
	c := langid.Count(text[:min(len(text), langid.SampleBytes)])
	return c.Main()
}

// checkLang checks and normalizes a language code given by a caller: an ISO 639-1 or 639-3
// code, any case, with or without a region or script subtag (pt-BR, zh_Hant): "pt", "zh";
// the 639-3 (or 639-2/B) code of a language that qsc knows by its 639-1 code is that code
// (langid.ISO6391: "eng" is "en", "deu" "de"), so that it is not read as an unknown
// language. Two letters that are not an ISO 639-1 code are refused ("xx"; "jp", a
// country, with the hint "ja"): read as a language without a model, a typo would give a
// window without a word of warning. Its error wraps ErrBadRequest.
func checkLang(lang string) (string, error) {
	code := strings.ToLower(lang)
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	if len(code) < 2 || len(code) > 3 || strings.IndexFunc(code, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 || code == langid.Und {
		return "", fmt.Errorf("%w: lang %q is not a language code (an ISO 639-1 code such as de, ja or zh, or leave it out to identify the language)", ErrBadRequest, lang)
	}
	if len(code) == 2 && !isISO6391(code) {
		hint := ""
		if m, ok := countryNotLanguage[code]; ok {
			hint = fmt.Sprintf(": %q is a country; did you mean %q?", code, m)
		}
		return "", fmt.Errorf("%w: lang %q is not an ISO 639-1 language code%s", ErrBadRequest, lang, hint)
	}
	return langid.ISO6391(code), nil
}

// isISO6391 reports whether code (two lower-case letters) is an ISO 639-1 code, current
// or withdrawn (in, iw, ji, which some clients still send), as golang.org/x/text/language
// knows them.
func isISO6391(code string) bool {
	_, err := xlanguage.ParseBase(code)
	return err == nil
}

// countryNotLanguage maps country codes that are often given for a language's to that
// language's code: "jp" is Japan, Japanese is "ja".
var countryNotLanguage = map[string]string{
	"jp": "ja", "cn": "zh", "gr": "el", "dk": "da", "cz": "cs", "ua": "uk", "vn": "vi",
	"rs": "sr", "us": "en", "gb": "en", "at": "de", "mx": "es", "ir": "fa", "il": "he",
	"pk": "ur", "kp": "ko", "hk": "zh",
}

// english reports whether text of language lang goes through the English pipeline:
// English, and text without letters.
func english(lang string) bool { return lang == English || lang == langid.Und }

// foreignQuery is a query compiled for one language other than English, with its scanner.
type foreignQuery struct {
	q    *segment.Query
	sc   *segment.Scanner
	pick []int
}

// foreignOf returns the query of q's terms compiled for lang, compiling it on first use.
func (q *termQuery) foreignOf(lang string) (*foreignQuery, error) {
	if f, ok := q.foreign[lang]; ok {
		return f, nil
	}
	sq, err := segment.Compile(q.terms, lang, maxTermTokens)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	f := &foreignQuery{q: sq, sc: sq.NewScanner(), pick: make([]int, sq.Len())}
	if q.foreign == nil {
		q.foreign = map[string]*foreignQuery{}
	}
	q.foreign[lang] = f
	return f, nil
}

// hasNonASCII reports whether s holds a byte that is not ASCII. It reads 8 bytes at a
// time: an English document of 4 KB costs a few hundred nanoseconds.
func hasNonASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64([]byte(s[i:i+8]))&0x8080808080808080 != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// hasNonASCIILetter reports whether s holds a letter or a mark outside ASCII; it decodes
// only the runes that are not ASCII.
func hasNonASCIILetter(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsMark(r) {
			return true
		}
		i += size
	}
	return false
}

// group returns the script s as sentences are compared with their document: Han and kana
// are one (a Japanese sentence may be all kanji).
func group(s langid.Script) langid.Script {
	if s == langid.Kana {
		return langid.Han
	}
	return s
}

// override returns the language of a sentence of the document, when it may differ from
// the document's, and whether it does:
//   - a sentence whose letters are mostly of another script (a Japanese quotation in an
//     English report, an English sentence in a Japanese one) takes the language
//     identified on the sentence alone;
//   - in a document of another Latin-script language, a sentence that reads surely as
//     English (langid.SureEnglish: English function words, ASCII letters) is English;
//   - in an English document, a sentence of at least 6 words with an accented letter
//     takes the language the trigrams rank first when their confidence is at least 0.5
//     (a French sentence quoted in an English report), and when it has no English
//     function word and two accented letters, or else more function words of that
//     language than of English by two (an English name in it: "Horizons for Refugees
//     fordert die …").
//
// Other sentences keep the document's language: telling a French sentence from the
// German around it takes more text than a sentence gives, and more time (docs/languages.md).
// A sentence of an English document without a letter outside ASCII (typographic quotes
// and dashes are not letters) is not looked at.
func (q *termQuery) override(text string) (string, bool) {
	if q.fixed {
		return "", false
	}
	if q.script == langid.Latin {
		if english(q.lang) {
			if !hasNonASCIILetter(text) {
				return "", false // ASCII, or typographic quotes and dashes
			}
		} else if langid.SureEnglish(text) {
			return English, true
		}
	}
	c := langid.Count(text)
	s := c.Main()
	switch {
	case s == langid.None:
		return "", false
	case group(s) != group(q.script):
		r := langid.Detect(text)
		return r.Lang, r.Lang != q.lang
	case s == langid.Latin && english(q.lang) && langid.NonASCIILetters(text) >= 1 && len(strings.Fields(text)) >= 6:
		lang, conf := langid.Guess(text)
		if lang == "" || english(lang) || conf < 0.5 {
			return "", false
		}
		en := langid.EnglishWords(text)
		if en == 0 && langid.NonASCIILetters(text) >= 2 {
			return lang, true
		}
		// An English name in it ("Horizons for Refugees fordert die …"): the
		// language's own function words outnumber English's by two.
		return lang, stopWords(text, lang) >= en+2
	}
	return "", false
}

// stopWords counts the words of text that are stop words of lang (segment.StopWords: 0
// when lang has no list, as in a program without package analyzers).
func stopWords(text, lang string) int {
	stop := segment.StopWords(lang)
	if stop == nil {
		return 0
	}
	n := 0
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if stop(w) {
			n++
		}
	}
	return n
}

// hitLength returns the displayed length of the hit h of the sentence toks of text
// alone, "…" marks included: the least a window with it takes.
func (q *termQuery) hitLength(text string, toks []syntax.Token, h match.Hit) int {
	sent := Span{Start: toks[0].Start, End: toks[len(toks)-1].End}
	run := []Span{{Start: toks[h.Start].Start, End: toks[h.End-1].End}}
	q.sc2.Columns = q.columns
	if !q.display {
		return measure(text[run[0].Start:run[0].End], q.columns)
	}
	return q.sc2.Length(text, sent, run, run)
}

// measure returns the length of s in characters, or in columns.
func measure(s string, columns bool) int {
	if columns {
		return display.Columns(s)
	}
	return utf8.RuneCountInString(s)
}

// windowOf chooses the windows of a sentence of doc in language lang: toks are its tokens, hits the
// occurrences of the query terms in them. It returns the windows' tokens, [lo, hi) each,
// ascending and apart, or an error wrapping ErrInfeasible when no window with a hit fits
// the budget. One window is shown when one holds every term that fits (window.Choose);
// otherwise one window around each group of terms that lie close together, the groups cut
// where the terms lie farthest apart, with "…" between them, as few windows as hold
// every term in the budget (windowRuns). A display budget (display) counts the windows
// as shown, "…" included, in columns when columns; otherwise their plain text.
func (l *lengther) windowOf(doc, lang string, toks []syntax.Token, hits []window.Hit, budget int, disp, columns bool) ([][2]int, error) {
	sent := Span{Start: toks[0].Start, End: toks[len(toks)-1].End}
	l.sc.Columns = columns
	defer func() { l.sc.Columns = false }()
	// length measures the windows ws as shown.
	length := func(ws [][2]int) int {
		l.runs, l.hits = l.runs[:0], l.hits[:0]
		for _, w := range ws {
			l.runs = append(l.runs, Span{Start: toks[w[0]].Start, End: toks[w[1]-1].End})
			for _, h := range hits {
				if h.Start >= w[0] && h.End <= w[1] {
					l.hits = append(l.hits, Span{Start: toks[h.Start].Start, End: toks[h.End-1].End})
				}
			}
		}
		if !disp {
			return measure(display.Render(doc, sent, l.runs, nil, false, false), columns)
		}
		return l.sc.Length(doc, sent, l.runs, l.hits)
	}
	stop := segment.StopWords(lang)
	choose := func(hits []window.Hit, b int) (int, int, bool) {
		fits := func(lo, hi int) bool { return length([][2]int{{lo, hi}}) <= b }
		return window.Choose(window.Options{Doc: doc, Toks: toks, Hits: hits, Budget: b, Columns: columns, Plain: !disp, Fits: fits, Stop: stop,
			Negation: segment.TrailingNegation(lang)})
	}
	lo, hi, ok := choose(hits, budget)
	if ok && termsIn(hits, [][2]int{{lo, hi}}) < termsIn(hits, [][2]int{{0, len(toks)}}) {
		if ws := windowRuns(hits, budget, choose, length); ws != nil {
			return ws, nil
		}
	}
	if !ok {
		short := -1
		for _, h := range hits {
			s := measure(doc[toks[h.Start].Start:toks[h.End-1].End], columns)
			if short < 0 || s < short {
				short = s
			}
		}
		return nil, fmt.Errorf("%w: the shortest query term takes %d characters, and with its \"…\" marks more than the budget %d", ErrInfeasible, short, budget)
	}
	return [][2]int{{lo, hi}}, nil
}

// windowRuns returns windows, ascending and apart, that together hold every term of hits
// within budget as measured by length, or nil when none is found. It cuts the terms,
// ordered by their first hit, into k groups where consecutive terms lie farthest apart,
// for k = 2, 3, … up to the number of terms, and gives each group a window of an equal
// share of the budget (choose), shrinking the shares by a sixth at a time while a group
// finds no window or the windows together do not fit; then the room left goes to each
// group in turn, and windows that touch or overlap are joined. Its cost is at
// most a few window.Choose calls per term.
func windowRuns(hits []window.Hit, budget int, choose func([]window.Hit, int) (int, int, bool), length func([][2]int) int) [][2]int {
	// The first hit of each term, by position.
	var first []window.Hit
	for _, h := range hits {
		if !slices.ContainsFunc(first, func(f window.Hit) bool { return f.Term == h.Term }) {
			first = append(first, h)
		}
	}
	slices.SortFunc(first, func(a, b window.Hit) int { return a.Start - b.Start })
	nt := len(first)
	for k := 2; k <= nt; k++ {
		// Cut before the k−1 terms that follow the widest gaps.
		gaps := make([]int, 0, nt-1)
		for i := 1; i < nt; i++ {
			gaps = append(gaps, i)
		}
		slices.SortStableFunc(gaps, func(a, b int) int {
			return (first[b].Start - first[b-1].End) - (first[a].Start - first[a-1].End)
		})
		cuts := slices.Clone(gaps[:k-1])
		slices.Sort(cuts)
		var groups [][]window.Hit
		from := 0
		for _, c := range append(cuts, nt) {
			var g []window.Hit
			for _, h := range hits {
				if slices.ContainsFunc(first[from:c], func(f window.Hit) bool { return f.Term == h.Term }) {
					g = append(g, h)
				}
			}
			groups = append(groups, g)
			from = c
		}
		for share := (budget - 2*(k-1)) / k; share > 0; share -= max(1, share/6) {
			var ws [][2]int
			ok := true
			for _, g := range groups {
				lo, hi, found := choose(g, share)
				if !found {
					ok = false
					break
				}
				ws = append(ws, [2]int{lo, hi})
			}
			if !ok {
				continue // window.Choose's estimate may pass over a share that a smaller one meets
			}
			if w := joined(slices.Clone(ws)); termsIn(hits, w) == nt && length(w) <= budget {
				// The room a group left goes to the others, each in turn.
				for i, g := range groups {
					slack := budget - length(joined(slices.Clone(ws)))
					if slack <= 0 {
						break
					}
					if lo, hi, found := choose(g, length([][2]int{ws[i]})+slack); found {
						old := ws[i]
						ws[i] = [2]int{lo, hi}
						if w := joined(slices.Clone(ws)); termsIn(hits, w) < nt || length(w) > budget {
							ws[i] = old
						}
					}
				}
				return joined(ws)
			}
		}
	}
	return nil
}

// joined sorts windows and joins those that touch or overlap.
func joined(ws [][2]int) [][2]int {
	slices.SortFunc(ws, func(a, b [2]int) int { return a[0] - b[0] })
	out := ws[:0]
	for _, w := range ws {
		if n := len(out); n > 0 && w[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], w[1])
			continue
		}
		out = append(out, w)
	}
	return out
}

// termsIn returns the number of distinct terms with a hit inside one of the windows ws.
func termsIn(hits []window.Hit, ws [][2]int) int {
	var seen []int
	for _, h := range hits {
		for _, w := range ws {
			if h.Start >= w[0] && h.End <= w[1] && !slices.Contains(seen, h.Term) {
				seen = append(seen, h.Term)
			}
		}
	}
	return len(seen)
}

// windowSnippet is the snippet of a candidate sentence of doc in a language without a
// compression model: its window (windowOf). c.other is set.
func (w *worker) windowSnippet(doc string, c *candidate, budget int, disp, columns bool) (Snippet, error) {
	toks := c.s.Tokens
	ws, err := w.windowOf(doc, c.other.lang, toks, c.other.spans, budget, disp, columns)
	if err != nil {
		return Snippet{}, err
	}
	sent := Span{Start: toks[0].Start, End: toks[len(toks)-1].End}
	var kept []Span
	for _, win := range ws {
		kept = append(kept, Span{Start: toks[win[0]].Start, End: toks[win[1]-1].End})
	}
	sn := Snippet{Sentence: sent, Kept: kept, Terms: c.terms, Lang: c.other.lang, Method: MethodWindow,
		Text: display.Render(doc, sent, kept, nil, false, false)}
	for _, i := range c.hits {
		if slices.ContainsFunc(ws, func(win [2]int) bool { return int(i) >= win[0] && int(i) < win[1] }) {
			sn.Hits = appendHit(sn.Hits, Span{Start: toks[i].Start, End: toks[i].End})
		}
	}
	return sn, nil
}

// appendHit appends the span of a hit token to hits, or extends the last hit when the
// token is written against it: the characters of 政府 are one hit.
func appendHit(hits []Span, sp Span) []Span {
	if n := len(hits); n > 0 && hits[n-1].End == sp.Start {
		hits[n-1].End = sp.End
		return hits
	}
	return append(hits, sp)
}

// windowHits converts the hits of a scanner to window hits.
func windowHits(hits []match.Hit) []window.Hit {
	out := make([]window.Hit, len(hits))
	for i, h := range hits {
		out[i] = window.Hit{Term: h.Term, Start: h.Start, End: h.End}
	}
	return out
}

// requestLang returns the language of a compression request: Request.Lang checked, or
// identified on its text (its tokens joined by spaces).
func requestLang(req *Request) (string, error) {
	text := req.Text
	if req.Tokens != nil {
		text = strings.Join(req.Tokens, " ")
	}
	if len(text) > MaxSentenceBytes {
		text = text[:MaxSentenceBytes] // sentenceOf refuses it; identify on what is allowed
	}
	r, _, err := language(req.Lang, text)
	return r.Lang, err
}

// compileForeign checks and compiles the query terms of a compression request for text
// of language lang. Its errors wrap ErrBadRequest.
func compileForeign(terms []string, lang string) (*segment.Query, error) {
	if len(terms) > MaxQueryTerms {
		return nil, fmt.Errorf("%w: %d query terms, more than the maximum of %d", ErrBadRequest, len(terms), MaxQueryTerms)
	}
	for i, term := range terms {
		if off := invalidUTF8(term); off >= 0 {
			return nil, fmt.Errorf("%w: query term %d is not valid UTF-8 (byte offset %d)", ErrBadRequest, i+1, off)
		}
	}
	sq, err := segment.Compile(terms, lang, maxTermTokens)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	return sq, nil
}

// foreignHits returns every occurrence of the terms of a request in the tokens of a
// sentence of language lang, and the occurrence of each term given that a query keeps
// (match.Terms.Pick); the error wraps ErrInfeasible when a term is not in the sentence.
func foreignHits(terms []string, lang string, toks []syntax.Token) (all []match.Hit, first []match.Hit, n int, err error) {
	sq, err := compileForeign(terms, lang)
	if err != nil {
		return nil, nil, 0, err
	}
	all = sq.NewScanner().Scan(toks)
	first, missing := keptHits(&sq.Terms, all, toks, len(terms))
	if missing >= 0 {
		return nil, nil, 0, errMissingTerm(terms[missing], lang, toks)
	}
	return all, first, sq.Len(), nil
}

// foreignQueryOf resolves the query terms of a request for a sentence s of language lang
// (split by package segment) to 1-based token ids: the occurrence of each term that a
// query keeps (match.Terms.Pick).
func foreignQueryOf(req *Request, lang string, s *syntax.Sentence) ([]int, error) {
	_, first, _, err := foreignHits(req.Query, lang, s.Tokens)
	if err != nil {
		return nil, err
	}
	return hitIDs(first), nil
}

// windowDo is Do for a sentence of language lang, not English, shown by its window: the
// whole sentence when it fits, else the window that holds every query term (package
// window). The budget counts what mode says; BudgetTokens counts the window's plain text.
func (w *worker) windowDo(req *Request, lang, mode string) (*Result, error) {
	var (
		text string
		toks []syntax.Token
	)
	if req.Tokens != nil || req.XPOS != nil {
		s, err := sentenceOf(req)
		if err != nil {
			return nil, err
		}
		if req.Tokens != nil {
			forms := make([]string, len(s.Tokens))
			for i, t := range s.Tokens {
				forms[i] = t.Form
			}
			var spans []Span
			text, spans = display.Detokenize(forms)
			toks = make([]syntax.Token, len(forms))
			for i, f := range forms {
				toks[i] = syntax.Token{Form: f, Head: syntax.NoHead, Start: spans[i].Start, End: spans[i].End}
			}
		}
	}
	if toks == nil {
		switch {
		case strings.TrimSpace(req.Text) == "":
			return nil, fmt.Errorf("%w: no sentence: the text is empty or blank, and no tokens are given", ErrBadRequest)
		case len(req.Text) > MaxSentenceBytes:
			return nil, fmt.Errorf("%w: text is %d bytes, more than the maximum of %d", ErrBadRequest, len(req.Text), MaxSentenceBytes)
		}
		if off := invalidUTF8(req.Text); off >= 0 {
			return nil, fmt.Errorf("%w: text is not valid UTF-8 (byte offset %d)", ErrBadRequest, off)
		}
		text, toks = req.Text, segment.Tokens(req.Text)
		if len(toks) == 0 {
			return nil, fmt.Errorf("%w: text has no words", ErrBadRequest)
		}
	}
	s := &syntax.Sentence{Tokens: toks}
	var hits []window.Hit
	nterms := 0
	switch {
	case req.QueryIDs != nil && req.Query != nil:
		return nil, fmt.Errorf("%w: give either query_ids or query, not both", ErrBadRequest)
	case req.QueryIDs != nil:
		ids, err := queryOf(req, s)
		if err != nil {
			return nil, err
		}
		for i, id := range ids {
			hits = append(hits, window.Hit{Term: i, Start: id - 1, End: id})
		}
		nterms = len(ids)
	case req.Query != nil:
		all, _, n, err := foreignHits(req.Query, lang, toks)
		if err != nil {
			return nil, err
		}
		hits, nterms = windowHits(all), n
	default:
		return nil, fmt.Errorf("%w: give the query as query_ids or query", ErrBadRequest)
	}
	ws, err := w.windowOf(text, lang, toks, hits, req.Budget, mode != BudgetTokens, mode == BudgetColumns)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	var q, kept []int
	for _, win := range ws {
		for _, h := range hits {
			if h.Start >= win[0] && h.End <= win[1] {
				seen[h.Term] = true
				for id := h.Start + 1; id <= h.End; id++ {
					q = append(q, id)
				}
			}
		}
		for id := win[0] + 1; id <= win[1]; id++ {
			kept = append(kept, id)
		}
	}
	if len(seen) < nterms {
		return nil, fmt.Errorf("%w: the query terms are too far apart for the budget %d, even in one window each", ErrInfeasible, req.Budget)
	}
	slices.Sort(q)
	q = slices.Compact(q)
	v := view{text: text, toks: toks}
	res := &Result{Kept: kept, Sentence: s, Query: q, Text: text, view: v, terms: len(req.Query) + len(req.QueryIDs),
		Lang: lang, Method: MethodWindow}
	res.Compression = v.render(kept, nil, false, false)
	return res, nil
}

// maxLeadProbe bounds the larger budgets leadSnippet tries to name the one a lead needs.
const maxLeadProbe = 200

// leadWords is the fewest words of a sentence that leadSentence takes for a document's
// lead: fewer make a title, a byline or a menu ("By Tomasz Wiśniewski, March 17, 2011").
const leadWords = 4

// leadSentence returns the tokens of the sentence that leads doc: the first one of its
// first chunk that reads as prose, with leadWords words or more and a final mark (. ? !
// or another script's: segment.Terminal) before its closing quotes or brackets, so that
// a page's menu, byline or dateline, or a title that repeats the result's own, is not
// its snippet; when none does, the first sentence with a word; nil when doc has none.
func leadSentence(doc string) []syntax.Token {
	var first []syntax.Token
	for start := 0; start < len(doc) && first == nil; {
		end := chunkEnd(doc, start, chunkBytes)
		for _, s := range segment.Sentences(doc[start:end], start) {
			words, last := 0, ""
			for _, t := range s.Tokens {
				if k := segment.KindOf(t.Form); k != segment.Punct {
					words++
				}
				if !segment.Closer(t.Form) {
					last = t.Form
				}
			}
			if words == 0 {
				continue
			}
			if words >= leadWords && segment.Terminal(last) {
				return s.Tokens
			}
			if first == nil {
				first = s.Tokens
			}
		}
		start = end
	}
	return first
}

// leadSnippet returns the snippet of a document of language lang where no query term
// matched: its first sentence with a word (package segment's sentences, in any language),
// whole when it fits the budget, else cut at the best clean end (window.Lead). The error
// wraps ErrInfeasible when no clean beginning of the sentence fits, and names the budget
// the shortest one needs (up to maxLeadProbe more).
func (e *Engine) leadSnippet(doc, lang string, budget int, disp, columns bool) ([]Snippet, error) {
	toks := leadSentence(doc)
	if toks == nil {
		return []Snippet{}, nil // a document without a word has no sentence to show
	}
	w := e.pool.Get().(*worker)
	defer e.pool.Put(w)
	sent := Span{Start: toks[0].Start, End: toks[len(toks)-1].End}
	w.sc.Columns = columns
	defer func() { w.sc.Columns = false }()
	limit := budget
	fits := func(lo, hi int) bool {
		w.runs = append(w.runs[:0], Span{Start: toks[lo].Start, End: toks[hi-1].End})
		if !disp {
			return measure(display.Render(doc, sent, w.runs, nil, false, false), columns) <= limit
		}
		return w.sc.Length(doc, sent, w.runs, nil) <= limit
	}
	opts := window.Options{Doc: doc, Toks: toks, Budget: budget, Columns: columns, Plain: !disp, Fits: fits, Stop: segment.StopWords(lang)}
	hi, ok := window.Lead(opts)
	if !ok {
		// Say what the lead would need: its shortest clean beginning (not one that ends on
		// "the"), as this budget counts it.
		need := ""
		for b := budget + 1; b <= budget+maxLeadProbe; b++ {
			opts.Budget, limit = b, b
			if _, ok := window.Lead(opts); ok {
				need = fmt.Sprintf(" (its shortest beginning that ends cleanly takes %d)", b)
				break
			}
		}
		return nil, fmt.Errorf("%w: no sentence contains a query term, and no beginning of the document's first sentence fits the budget %d%s",
			ErrInfeasible, budget, need)
	}
	kept := []Span{{Start: toks[0].Start, End: toks[hi-1].End}}
	return []Snippet{{Sentence: sent, Kept: kept, Hits: []Span{}, Text: display.Render(doc, sent, kept, nil, false, false), Lang: lang, Method: MethodLead}}, nil
}
