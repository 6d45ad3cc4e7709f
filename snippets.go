package qsc

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/core/prefilter"
	"github.com/qsc-nlp/qsc/internal/core/window"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

// Limits of a snippet request. Beyond them a request fails with ErrBadRequest.
const (
	// MaxDocumentBytes is the largest document Snippets takes: 1 MiB.
	MaxDocumentBytes = 1 << 20
	// MaxQueryTerms is the largest number of query terms.
	MaxQueryTerms = 64
	// MaxTermWords is the largest number of words (tokens) in one query term.
	MaxTermWords = 16
)

// DefaultSnippets is the number of snippets returned when a request gives none.
const DefaultSnippets = 3

// Span is a byte range [Start, End) of the document: {"start", "end"} in JSON. It is the
// span of package render too (an alias of the internal type both share).
type Span = display.Span

// SnippetRequest asks for the best compressed sentences of a document.
type SnippetRequest struct {
	// Document is raw text, any number of sentences: valid UTF-8, at most MaxDocumentBytes.
	Document string `json:"document"`
	// Query are the query terms: words or phrases of several words.
	Query []string `json:"query"`
	// Budget is the maximum length of each snippet in characters (runes), counted as
	// BudgetCounts says.
	Budget int `json:"budget"`
	// BudgetCounts is what the budget counts: BudgetDisplay (the default: the snippet's
	// Text and its ellipsis rendering, render.Ellipsis, "…" marks included, both fit),
	// BudgetColumns (the same, an East Asian wide character as two columns) or
	// BudgetTokens (its kept tokens joined by single spaces).
	BudgetCounts string `json:"budget_counts,omitempty"`
	// N is the maximum number of snippets (default DefaultSnippets).
	N int `json:"n,omitempty"`
	// Method is one of Methods() (default DefaultMethod).
	Method string `json:"method,omitempty"`
	// Decoding is DecodingSnippet (the default), DecodingNested or DecodingPaper; see
	// Request.
	Decoding string `json:"decoding,omitempty"`
	// Lang is the language of the document, an ISO 639-1 code ("de", "ja"; a region is
	// dropped: "pt-BR" is "pt"), or "" to identify it (see DoSnippets). A language given
	// holds for every sentence.
	Lang string `json:"lang,omitempty"`
	// NoMatch asks, when no sentence of the document contains a query term (a hit on the
	// title only, or on a synonym of the index's analyzer), for one snippet all the same:
	// the document's lead, its first sentence of four words or more with a final mark
	// (not a menu, byline or title line), else its first sentence, cut cleanly to the
	// budget (MethodLead; Terms 0, no hits), as Elasticsearch's no_match_size gives. Off by default: such a document
	// gets no snippet.
	NoMatch bool `json:"no_match,omitempty"`
}

// Snippet is one compressed sentence of the document. All spans are byte offsets into the
// document, ascending.
type Snippet struct {
	// Sentence is the whole source sentence, from its first token to its last.
	Sentence Span `json:"sentence"`
	// Kept are the maximal runs of kept tokens: from the start of the first to the end of
	// the last token of each run of consecutive kept tokens.
	Kept []Span `json:"kept"`
	// Hits are the kept tokens that match a query term.
	Hits []Span `json:"hits"`
	// Text is the snippet as text, render.Plain: the kept runs in their own spelling,
	// joined by a space, or by none before closing punctuation. Its length in runes is at
	// most the budget.
	Text string `json:"text"`
	// Terms is the number of distinct query terms matched in the sentence.
	Terms int `json:"terms"`
	// Score ranks the snippets, higher is better: Terms plus a position bonus in (0, 1)
	// that is larger for earlier sentences, (L-s)/(L+1) for a sentence that begins at
	// byte s of a document of L bytes.
	Score float64 `json:"score"`
	// Lang is the language of the sentence (an ISO 639-1 code, or "und" for text without
	// letters): the document's, or the sentence's own where its script differs.
	Lang string `json:"lang"`
	// Method is the method that made the snippet: the request's (DefaultMethod when it
	// names none) for English, MethodWindow for another language unless the request
	// names a method.
	Method string `json:"method"`
	// Label, when not nil, is the speaker's label of the transcript's or chat's turn that
	// the sentence belongs to, when the sentence is not the turn's first
	// (tokenize.TurnLabel: "[00:01:06] LEFÈVRE:", "Customer:"): who said it. The
	// renderings (package render, and Text) show it before the kept runs, with a "…"
	// where the turn's words before the sentence were cut, within the budget.
	Label *Span `json:"label,omitempty"`
}

// Shown returns the runs of doc that a rendering of s shows, in order: its Label, when it
// has one, then its Kept runs (package render renders them). It returns s.Kept itself when
// s has no label, else a new slice.
func (s *Snippet) Shown() []Span {
	if s.Label == nil {
		return s.Kept
	}
	return append([]Span{*s.Label}, s.Kept...)
}

// Snippets returns up to n (default DefaultSnippets when n is 0) compressed sentences of
// document that contain query terms, each compressed to at most budget characters with the
// default method, best first. See DoSnippets.
func (e *Engine) Snippets(ctx context.Context, document string, query []string, budget, n int) ([]Snippet, error) {
	return e.DoSnippets(ctx, &SnippetRequest{Document: document, Query: query, Budget: budget, N: n})
}

// DoSnippets returns the best compressed sentences of a document for a query, best first.
//
// Matching. The document is tokenized and split into sentences once. A query term matches
// a run of whole tokens (never part of a word: "art" does not match "party", but a word
// of a hyphenated token does: "transformer" matches "transformer-based", and so does a
// part of a web address or of a host or file name: "pg-main-01" and "internal" match
// "pg-main-01.db.internal", "config" matches "config.yaml"), ignoring case,
// accents, inflection and trailing punctuation, with internal/core/match, the matcher of Do
// too: "arrest" matches "Arrested" and "arrests", "children" matches "child", "went"
// matches "go", "Zurich" matches "Zürich", "U.S" matches "U.S.", and "email" matches
// "e-mail" (a word's joining hyphens are ignored). A phrase term matches a run of tokens
// in the same order, or one hyphenated token of its words ("boil water", "boil-water").
//
// Compression. The query of a sentence is one occurrence of each term it contains, among
// those spelled as the term was given (up to case and trailing punctuation) when there
// are any, so that "willing" keeps "willing" and not an earlier "will": the first for a
// query of one term, and for several the occurrences that lie closest together, so that
// "haproxy, rollback" keeps the "HAProxy" beside "rollback" (match.Terms.Pick; a term
// absent from a sentence is not required there); the sentence is tagged, parsed
// and compressed to the budget with the request's method. Hits are all the kept tokens
// that match a term, kept occurrences or not.
//
// Ranking. Sentences rank by the number of distinct terms they contain, then by position
// (earlier first: the lead of a document usually summarizes it). Score is Terms +
// (L-s)/(L+1) for a sentence that begins at byte s of a document of L bytes: bytes, not
// sentences, because the paragraphs the prefilter skips are never split into sentences.
// The N shown are chosen one at a time: the best-ranked sentence that holds a term none
// chosen holds, else the best-ranked one left, so that the snippets show every term the
// document has where N allows; they are returned in rank order.
// A sentence whose query alone is longer than the budget is skipped, and the next one
// takes its place. A snippet whose text an earlier one has is left out (distinct). One
// with more tokens than the method takes (MaxSentenceTokens, or fewer for nn: a list or
// a table with no sentence end) is shown by its window, up to 8 × MaxSentenceTokens; a
// longer one is skipped. English text of more than 16 KiB without a sure sentence end
// (minified JSON, a log line) is cut into pieces of at most 16 KiB, at a blank or a
// comma where it can, each read as a sentence, the same way as Annotate cuts it: only
// the pieces that may hold a term are tokenized, and a hit is shown by its piece's
// window.
//
// Languages. The document's language is req.Lang, or identified from its first 2 KiB
// (internal/core/langid: script, English function words, trigrams; text it is not sure of is
// English). English sentences go through all of the above. A sentence in another
// language is split by Unicode word boundaries (Chinese, Japanese and Thai into
// characters, so that a term is found inside a longer run), matched through the
// language's analyzer when package analyzers is linked ("Steuer" matches "Steuern"), and,
// unless req.Method names a compression method, shown by its window: the whole sentence
// when it fits, else the stretch around the hits whose edges fall between words, at
// clauses and before function words, never on a comma or inside a word
// (internal/core/window; Snippet.Method is MethodWindow). A sentence in another script than
// the document's takes its own language, unless req.Lang is given. docs/languages.md
// has the details and figures.
//
// Cost. The document is cut into paragraphs at blank lines, and a raw-text prefilter
// (internal/core/prefilter: a search of the text, lower-cased and without accents, for anchors
// that every word matching a query word holds) decides which may hold a term, at
// hundreds of MB/s; only those are tokenized and matched (one pass over the tokens, with
// a cheap first-letter filter before stemming), and reading stops once n sentences hold
// the most terms a sentence may have. Only the sentences that make the top n are
// tagged, parsed and compressed, in parallel on the Engine's workers. So the cost is a
// scan of the document, the tokenization of the paragraphs (in English, of the sentences
// the raw text tells apart: at the line breaks and marks that surely end one) that may
// match, and n compressions: a 1 MiB document whose only match is in its last paragraph
// takes about 0.3 ms, one whose every paragraph holds the terms in different sentences,
// one a line, wrapped or one paragraph a line, 1.5 to 4 ms; one whose every sentence may
// hold them up to a tokenization of it all (about 25 ms; docs/scale.md). Memory stays
// that of a few KiB of tokens plus the candidates.
//
// No sentence containing a term gives an empty result and no error, or with NoMatch the
// document's first sentence cut to the budget (leadSnippet). When every such
// sentence's query is longer than the budget, the error wraps ErrInfeasible; when every
// such sentence is over 8 × MaxSentenceTokens, ErrBadRequest. A budget ≤ 0,
// a negative N, an empty query or term, a document over MaxDocumentBytes or not valid UTF-8
// give errors wrapping ErrBadRequest; an unknown method ErrUnknownMethod.
func (e *Engine) DoSnippets(ctx context.Context, req *SnippetRequest) ([]Snippet, error) {
	return e.doSnippets(ctx, req, nil)
}

// doSnippets is DoSnippets, with the sentences of ann (tagged and parsed) when not nil
// (SnippetsAnnotated).
func (e *Engine) doSnippets(ctx context.Context, req *SnippetRequest, ann *annotatedDoc) ([]Snippet, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, errNilRequest
	}
	if e.pipe == nil {
		return nil, errNoModels
	}
	doc := req.Document
	q, n, m, dec, err := e.snippetQuery(req, ann)
	if err != nil {
		return nil, err
	}
	jobs, matched, shortest, err := q.collect(doc, n, req.Budget)
	q.sc.Release() // the candidates hold copies of what it found
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		switch {
		case matched == 0 && req.NoMatch:
			return e.leadSnippet(doc, q.lang, req.Budget, q.display, q.columns)
		case matched == 0:
			return []Snippet{}, nil
		case q.long == matched:
			return nil, fmt.Errorf("%w: every sentence that contains a query term has more than %d tokens", ErrBadRequest, maxWindowTokens)
		}
		return nil, fmt.Errorf("%w: the query terms of every matching sentence are longer than the budget %d (the shortest needs %d characters)",
			ErrInfeasible, req.Budget, shortest)
	}
	out := make([]Snippet, len(jobs))
	errs := make([]error, len(jobs))
	run := func(w *worker, i int) {
		defer func() { // a panic here must not take the caller's process down
			if v := recover(); v != nil {
				*w = *e.newWorker() // its scratch state may be broken
				errs[i] = fmt.Errorf("qsc: internal error: panic while compressing: %v\n%s", v, debug.Stack())
			}
		}()
		if err := ctx.Err(); err != nil {
			errs[i] = err
			return
		}
		c := &jobs[i]
		out[i], errs[i] = w.labelled(doc, c, req.Budget, q.columns, func(budget int) (Snippet, error) {
			if c.other != nil && c.other.window {
				return w.windowSnippet(doc, c, budget, q.display, q.columns)
			}
			w.mc.Decoding = dec
			sn, err := w.snippet(m, doc, c, budget, q.display, q.columns)
			sn.Lang, sn.Method = c.langOf(q.lang), m.Name()
			return sn, err
		})
		out[i].Score = score(c.terms, c.start(), len(doc))
	}
	// Sentences to parse are spread over the cores; sentences from an annotation, already
	// parsed, are compressed in turn on this goroutine: each takes tens of µs, less than
	// waking another thread costs in CPU, and a page's latency does not gain (docs/scale.md).
	workers := len(jobs)
	if ann != nil {
		workers = 1
	}
	e.parallel(len(jobs), workers, run)
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("sentence at byte %d: %w", jobs[i].start(), err)
		}
	}
	return distinct(out), nil
}

// distinct returns sn without the snippets whose words an earlier one shows, in a row:
// two sentences that differ only in words their compressions drop (a sentence repeated
// with another date, a templated report), or a pull quote or headline that repeats a
// sentence of the text ("It is the end of the paper, …" after "“It is the end of the
// paper, …,” said …"), would show the same words twice. Words are compared as letters
// and digits, case folded. It keeps the order.
func distinct(sn []Snippet) []Snippet {
	out := sn[:0]
	var shown []string // the words of each snippet kept, " w1 w2 … "
	for _, s := range sn {
		w := snippetWords(s.Text)
		if !slices.ContainsFunc(shown, func(o string) bool { return strings.Contains(o, w) }) {
			out = append(out, s)
			shown = append(shown, w)
		}
	}
	return out
}

// snippetWords returns the words of text (runs of letters, digits and marks), lower
// cased, each with a space before it and one after the last: " it is the end ".
func snippetWords(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 1)
	in := false
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			if !in {
				b.WriteByte(' ')
				in = true
			}
			b.WriteRune(unicode.ToLower(r))
		} else {
			in = false
		}
	}
	b.WriteByte(' ')
	return b.String()
}

// snippetQuery checks a snippet request and compiles its query for collect: the number of
// snippets, the method and the decoding.
func (e *Engine) snippetQuery(req *SnippetRequest, ann *annotatedDoc) (q *termQuery, n int, m method.Method, dec method.Decoding, err error) {
	n = req.N
	if n == 0 {
		n = DefaultSnippets
	}
	if err := checkBudget(req.Budget); err != nil {
		return nil, 0, nil, dec, err
	}
	if n < 0 {
		return nil, 0, nil, dec, fmt.Errorf("%w: n must be a positive number of snippets, got %d", ErrBadRequest, req.N)
	}
	if err := checkDocument(req.Document); err != nil {
		return nil, 0, nil, dec, err
	}
	if q, err = newTermQuery(req.Query); err != nil {
		return nil, 0, nil, dec, err
	}
	q.ann = ann
	if m, err = e.method(req.Method); err != nil {
		return nil, 0, nil, dec, err
	}
	q.maxTokens = maxTokens(m.Name())
	mode, err := budgetMode(req.BudgetCounts, BudgetDisplay)
	if err != nil {
		return nil, 0, nil, dec, err
	}
	q.display = mode != BudgetTokens
	q.columns = mode == BudgetColumns
	q.lengther.sc.Columns = q.columns
	if dec, err = decodingOf(req.Decoding); err != nil {
		return nil, 0, nil, dec, err
	}
	lang, fixed, err := language(req.Lang, req.Document)
	if err != nil {
		return nil, 0, nil, dec, err
	}
	q.lang, q.script, q.fixed, q.terms = lang.Lang, lang.Script, fixed, req.Query
	q.window = req.Method == "" || strings.EqualFold(req.Method, MethodWindow)
	if !english(q.lang) {
		q.ann = nil // an annotation holds the English pipeline's reading
	}
	return q, n, m, dec, nil
}

// parallel calls run(w, i) for i in [0, n) on up to min(workers, GOMAXPROCS)
// goroutines, each with a worker of the Engine's pool (one: the calling goroutine).
func (e *Engine) parallel(n, workers int, run func(w *worker, i int)) {
	g := min(n, workers, runtime.GOMAXPROCS(0))
	if g <= 1 {
		w := e.pool.Get().(*worker)
		defer e.pool.Put(w)
		for i := range n {
			run(w, i)
		}
		return
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
	)
	for range g {
		wg.Go(func() {
			w := e.pool.Get().(*worker)
			defer e.pool.Put(w)
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				run(w, i)
			}
		})
	}
	wg.Wait()
}

// snippet tags, parses and compresses the sentence of candidate c of doc to budget,
// counted on the display when display, in columns when columns.
func (w *worker) snippet(m method.Method, doc string, c *candidate, budget int, display, columns bool) (Snippet, error) {
	w.lengther.sc.Columns = columns
	defer func() { w.lengther.sc.Columns = false }()
	s := &c.s
	if !parsed(s) {
		if err := w.pw.Sentence(s, pipeline.Options{}); err != nil {
			return Snippet{}, fmt.Errorf("%w: %v", ErrBadRequest, err)
		}
	}
	w.heads = s.AppendHeads(w.heads[:0])
	if err := w.tree.Reset(w.heads); err != nil {
		return Snippet{}, fmt.Errorf("parse: %w", err)
	}
	tree := &w.tree
	v := view{text: doc, toks: s.Tokens}
	hits := make([]int, len(c.hits))
	for i, h := range c.hits {
		hits[i] = int(h) + 1
	}
	kept, err := w.compress(m, method.Input{Sentence: s, Tree: tree, Query: c.query, Budget: budget}, &v, display, hits)
	if err != nil {
		return Snippet{}, err
	}
	sn := Snippet{Sentence: v.sentence(), Kept: v.runs(kept), Terms: c.terms}
	sn.Text = v.plain(sn.Kept) // hits show only in markup
	h := 0
	for _, id := range kept {
		for h < len(hits) && hits[h] < id {
			h++
		}
		if h < len(hits) && hits[h] == id {
			sn.Hits = append(sn.Hits, v.span(id))
		}
	}
	return sn, nil
}

// labelRoom is the fewest characters that the sentence of a labelled snippet keeps: a
// label with its time leaves at least this much, else it is the speaker's name alone.
const labelRoom = 60

// labelled returns the snippet that snip gives for the sentence of candidate c of doc,
// with the label of its turn (Snippet.Label, tokenize.TurnLabel) when it has one: with
// its time ("[00:01:06] LEFÈVRE:") when the budget leaves labelRoom characters after it,
// else the name alone ("LEFÈVRE:"). The snippet is made under the budget less the label's
// width and a cut's (" … "), and kept when the display with the label fits budget
// (columns as for the budget); else the snippet snip gives under the whole budget,
// without a label.
func (w *worker) labelled(doc string, c *candidate, budget int, columns bool, snip func(budget int) (Snippet, error)) (Snippet, error) {
	start, name, end, ok := tokenize.TurnLabel(doc, c.start())
	if !ok {
		return snip(budget)
	}
	cut := measure(" "+display.Cut+" ", columns) // the cut between the label and the sentence
	if budget-measure(doc[start:end], columns)-cut < labelRoom {
		start = name
	}
	label := Span{Start: start, End: end}
	if b := budget - measure(doc[start:end], columns) - cut; b > 0 {
		if sn, err := snip(b); err == nil {
			sn.Label = &label
			shown := sn.Shown()
			w.lengther.sc.Columns = columns
			n := w.lengther.sc.Length(doc, sn.Sentence, shown, sn.Hits)
			w.lengther.sc.Columns = false
			if n <= budget {
				sn.Text = display.Render(doc, sn.Sentence, shown, nil, false, false)
				return sn, nil
			}
		}
	}
	return snip(budget)
}

// checkDocument checks the limits of a document: at most MaxDocumentBytes, valid UTF-8.
func checkDocument(doc string) error {
	if len(doc) > MaxDocumentBytes {
		return fmt.Errorf("%w: document is %d bytes, more than the maximum of %d", ErrBadRequest, len(doc), MaxDocumentBytes)
	}
	if i := invalidUTF8(doc); i >= 0 {
		return fmt.Errorf("%w: document is not valid UTF-8 (byte offset %d)", ErrBadRequest, i)
	}
	return nil
}

// invalidUTF8 returns the offset of the first byte of s that is not valid UTF-8, or -1.
func invalidUTF8(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return -1
}

// termQuery is a compiled snippet query and the state of one DoSnippets.
type termQuery struct {
	q         *match.Query
	sc        *match.Scanner
	long      int  // sentences with a term that collect skipped for their length
	maxTokens int  // the longest sentence collect keeps (maxTokens of the method)
	display   bool // the budget counts the display (BudgetDisplay)
	// ann is the source of the sentences instead of the tokenizer, or nil.
	ann      *annotatedDoc
	lengther // memory of queryLength

	columns bool          // the display budget counts columns (BudgetColumns)
	lang    string        // the document's language
	script  langid.Script // its script
	fixed   bool          // the caller gave the language: no sentence overrides it
	window  bool          // sentences not in English are shown by their window
	terms   []string      // the query terms, for the languages other than English
	foreign map[string]*foreignQuery
	spans   []window.Hit       // scratch: the hits of the sentence being ranked, for a window
	sc2     display.Scratch    // memory of hitLength
	skel    *prefilter.Scratch // from skeletons, while collect runs
	// toks and sents are the memory of the tokens and sentences of a chunk.
	toks  []syntax.Token
	sents []syntax.Sentence
	// readAll makes collect read every sentence, without the prefilter and the early
	// end: the reference the tests compare it with.
	readAll bool
}

// newTermQuery parses and validates query terms; identical terms (same keys) count once.
func newTermQuery(query []string) (*termQuery, error) {
	if len(query) == 0 {
		return nil, fmt.Errorf("%w: give at least one query term", ErrBadRequest)
	}
	mq, err := compileQuery(query)
	if err != nil {
		return nil, err
	}
	return &termQuery{q: mq, sc: mq.NewScanner(), maxTokens: MaxSentenceTokens, lang: English, script: langid.Latin, terms: query}, nil
}

// candidate is a sentence that contains query terms.
type candidate struct {
	s     syntax.Sentence // the sentence (offsets into the document); see lent
	terms int             // distinct terms matched
	mask  uint64          // the terms given that it holds: bit i for the i-th (the first 64)
	query []int           // 1-based ids of the occurrence of each term kept (match.Terms.Pick), ascending
	hits  []int32         // 0-based indexes of every matching token, ascending
	// bare: every word of the sentence is a hit ("Retries", a heading that names the
	// query): it tells the reader nothing the query did not, and is chosen only when no
	// sentence that says something of its terms is left (choose).
	bare bool
	// other is the language of a sentence that is not in the document's, or that is
	// shown by its window; nil for the rest (most sentences of English documents, whose
	// candidates it keeps small).
	other *otherLang
	// lent: s.Tokens are the memory of the chunk collect read last, not the candidate's
	// own (collector.own).
	lent bool
}

// otherLang is the language of a candidate sentence and how it is shown.
type otherLang struct {
	lang string
	// window: the sentence is shown by its window (a language other than English, and no
	// method named); spans are then the occurrences of the terms.
	window bool
	spans  []window.Hit
}

// start returns the byte offset of the candidate's sentence in its document.
func (c *candidate) start() int { return c.s.Tokens[0].Start }

// score is Snippet.Score of a sentence with terms distinct terms that begins at byte
// start of a document of size bytes: terms plus a position bonus in (0, 1) that falls
// with the offset.
func score(terms, start, size int) float64 {
	return float64(terms) + float64(size-start)/float64(size+1)
}

// langOf returns the language of candidate c of a document of language doc.
func (c *candidate) langOf(doc string) string {
	if c.other != nil {
		return c.other.lang
	}
	return doc
}

// top returns the most distinct terms a sentence of the document may match: the
// distinct terms given (terms the English matcher takes for one, such as "arrest" and
// "arrests", may count twice in another language's sentence), which is the English
// query's when that has as many.
func (q *termQuery) top() int {
	distinct := 0
	for i, t := range q.terms { // at most MaxQueryTerms
		if !slices.Contains(q.terms[:i], t) {
			distinct++
		}
	}
	return max(q.q.Len(), distinct)
}

// prefilter returns the raw-text filter of the query for collect, or nil when every
// paragraph is to be read: sentences from an annotation, or a query word without an
// anchor. An English document's filter holds the English anchors; another's those of
// its language, and the English ones too when its script is Latin and the language was
// not given (a sentence that reads surely as English is matched as English).
func (q *termQuery) prefilter() *prefilter.Filter {
	if q.ann != nil || q.readAll {
		return nil
	}
	f := &prefilter.Filter{}
	if english(q.lang) {
		f.AddEnglish(q.terms)
	} else {
		f.AddLanguage(q.terms, q.lang)
		if q.script == langid.Latin && !q.fixed {
			f.AddEnglish(q.terms)
		}
	}
	if f.Always() {
		return nil
	}
	return f
}

// bound returns a bound of the number of distinct terms that a sentence of the paragraph
// p may match: the prefilter's count (prefilter.Filter.Count), or a large number when a
// sentence of p may take another language than the document's (termQuery.override),
// whose anchors the prefilter does not have. That is decided on the paragraph's letters:
// in an English document, a letter of another script than Latin, or two Latin letters
// outside ASCII; in another, a letter of another script than the document's (Han and
// kana are one).
func (q *termQuery) bound(pf *prefilter.Filter, p string) int {
	sk := q.skel
	sk.Read(p)
	if !q.fixed {
		other := false
		switch {
		case english(q.lang) && q.script == langid.Latin:
			other = sk.OtherScripts(langid.Latin) || sk.Accented() >= 2
		case english(q.lang):
			other = sk.OtherScripts() // a document without letters: any letter
		case group(q.script) == langid.Han:
			other = sk.OtherScripts(langid.Han, langid.Kana)
		default:
			other = sk.OtherScripts(q.script)
		}
		if other {
			return math.MaxInt32
		}
	}
	return pf.Count(sk)
}

// repeated reports whether the sentence toks (offsets from start in doc) has the same
// text as a candidate of lv, which holds the sentences with as many terms: only those can
// share its text.
func repeated(lv []candidate, doc string, start int, toks []syntax.Token) bool {
	text := doc[start+toks[0].Start : start+toks[len(toks)-1].End]
	for i := range lv {
		c := lv[i].s.Tokens
		if doc[c[0].Start:c[len(c)-1].End] == text {
			return true
		}
	}
	return false
}

// ranked returns the number of candidates in levels: those that rank before any
// sentence with fewer terms, which is left out once there are n of them.
func ranked(levels [][]candidate) int {
	k := 0
	for _, lv := range levels {
		k += len(lv)
	}
	return k
}

// queryLength returns the length of the query alone of sent, a sentence of text: the
// fallback of worker.compress. With a display budget it is its displayed length, the query
// tokens marked (they are among the hits).
func (q *termQuery) queryLength(text string, sent *syntax.Sentence, query []int) int {
	if !q.display {
		if len(query) == 0 {
			return -1 // no query: the caller counts the sentence as too long
		}
		return sent.Length(query)
	}
	v := view{text: text, toks: sent.Tokens}
	return q.length(&v, query, query)
}

// lineEnd returns where the lines of the English paragraph doc[start:end] that begin at
// start end: after the first line break that surely ends a sentence (tokenize.LineBreak),
// where the next line begins, or at end. The text after it is tokenized and split alone
// as it is within its paragraph, and a sentence never spans it.
func lineEnd(doc string, start, end int) int {
	for j := start; j < end; {
		i := strings.IndexByte(doc[j:end], '\n')
		if i < 0 {
			break
		}
		p := j + i
		j = p + 1
		if k, ok := tokenize.LineBreak(doc, p); ok && k < end {
			return k
		}
	}
	return end
}

// markEnds finds, in English paragraphs, the full stops, question and exclamation marks
// that surely end a sentence (tokenize.SentenceEnd). The text after such an end, from
// where the next token begins, is tokenized and split alone as it is within its
// paragraph, and a sentence never spans it. A paragraph begins at the start of doc or
// after a line break, and a part of it after blanks, so that what SentenceEnd reads
// before a part is what it would read of the part alone.
type markEnds struct {
	text string // the document up to the end of the paragraph
	// at holds, for each byte of markBytes, its next position in text from the last start
	// asked on (len(text) when there is none), or a position before that start when it is
	// to be looked for again: each byte of the paragraph is searched at most once for each
	// mark.
	at [len(markBytes)]int
}

// markBytes are the marks that may end a sentence.
const markBytes = ".?!"

// reset prepares m for the paragraph doc[start:end].
func (m *markEnds) reset(doc string, start, end int) {
	m.text = doc[:end]
	for i := range m.at {
		m.at[i] = start - 1
	}
}

// next returns where the part of the paragraph that begins at start ends: after the first
// mark before limit that surely ends a sentence within doc[:limit], or at limit. The
// starts asked on must not decrease.
func (m *markEnds) next(start, limit int) int {
	for {
		p := limit
		for i := range m.at {
			if m.at[i] < start {
				m.at[i] = len(m.text)
				if j := strings.IndexByte(m.text[start:], markBytes[i]); j >= 0 {
					m.at[i] = start + j
				}
			}
			p = min(p, m.at[i])
		}
		if p == limit {
			return limit
		}
		if k, ok := tokenize.SentenceEnd(m.text[:limit], p); ok {
			return k
		}
		start = p + 1
	}
}

// chunkEnd returns where the chunk of doc that begins at start ends: at the end of the first
// blank line (a line break, spaces, tabs or carriage returns, and a line break) found from
// start+size on, or at the end of doc.
func chunkEnd(doc string, start, size int) int {
	for j := start + size; j < len(doc); j++ {
		i := strings.IndexByte(doc[j:], '\n')
		if i < 0 {
			break
		}
		j += i + 1
		for j < len(doc) && (doc[j] == ' ' || doc[j] == '\t' || doc[j] == '\r') {
			j++
		}
		if j < len(doc) && doc[j] == '\n' {
			return j + 1
		}
		j-- // the loop's j++ moves past the byte that ended the blanks
	}
	return len(doc)
}

// match finds the terms in the tokens of one sentence and fills c.terms, c.query and
// c.hits (reusing their memory); pick is scratch space of q.q.Len(). It reports whether a
// term matched.
func (q *termQuery) match(toks []syntax.Token, pick []int, c *candidate) bool {
	hits := q.sc.Scan(toks)
	if len(hits) == 0 {
		return false
	}
	return record(hits, toks, &q.q.Terms, pick, c)
}

// record fills c.terms, c.mask, c.query and c.hits from the hits of a sentence (at least one) of
// the terms t in toks, as match does: every occurrence is a hit, and the query keeps the
// one of each term that match.Terms.Pick chooses; pick is scratch space of t.Len(). It
// reports true.
func record(hits []match.Hit, toks []syntax.Token, t *match.Terms, pick []int, c *candidate) bool {
	c.query, c.hits = c.query[:0], c.hits[:0]
	c.terms = t.Pick(hits, toks, pick)
	c.mask = 0
	for i := range min(t.Given(), 64) {
		if pick[t.Term(i)] >= 0 {
			c.mask |= 1 << i
		}
	}
	last := -1
	for _, h := range hits {
		for j := max(h.Start, last+1); j < h.End; j++ {
			c.hits = append(c.hits, int32(j))
			last = j
		}
	}
	for _, i := range pick {
		if i >= 0 {
			for j := hits[i].Start; j < hits[i].End; j++ {
				c.query = append(c.query, j+1)
			}
		}
	}
	slices.Sort(c.query)
	c.query = slices.Compact(c.query)
	return true
}
