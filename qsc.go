// Package qsc compresses sentences for search snippets: given a sentence S, query terms Q
// and a character budget b, it returns the shortening of S that keeps every query term and
// fits in b characters (Handler & O'Connor, "Query-focused Sentence Compression in Linear
// Time", EMNLP 2019).
//
// New loads the models embedded in the binary: the tokenizer, tagger and parser of the
// built-in English pipeline. A method's model loads when it is first used (the default
// method's in about 0.2 s), or at once with Engine.Load, as a server does before it takes
// requests. The default method is the ILP, decoded as a snippet
// (DecodingSnippet: the sentence itself when it fits; otherwise well-formed under the
// rules of package wellformed and shown as the best display of the method's compression:
// few runs of words between "…" marks, none cut inside a phrase or a name; package
// method/runs). The other methods are linked by
// importing their packages (import _ "github.com/qsc-nlp/qsc/method/nn"), or all of them
// with import _ "github.com/qsc-nlp/qsc/all"; a request for a method that is not linked
// fails with an error that names the import. An Engine is safe for concurrent use. The
// CLI (cmd/qsc) and the HTTP service go through the same Engine.
//
// The models read English. Text in any other language gets its snippets and compressions
// from a window around the query's hits instead (MethodWindow: Request.Lang and
// SnippetRequest.Lang, DoSnippets, docs/languages.md); import _
// "github.com/qsc-nlp/qsc/analyzers" to match inflected words through bleve's language
// analyzers.
package qsc

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
	"github.com/qsc-nlp/qsc/va"
)

// DefaultMethod is the method used when a request names none: the ILP (exact tree DP)
// under the snippet decoding, the best of the methods on F1, readability (SLOR) and the
// well-formedness checker together (docs/results/snippets.md).
const DefaultMethod = "ilp"

// Limits of the sentence of a Request; a longer sentence fails with ErrBadRequest. They
// bound the time and memory of one compression (the ILP's is quadratic in the length of
// the sentence, and the text is checked before it is tokenized).
const (
	// MaxSentenceTokens is the largest number of tokens (the longest sentence of the
	// Google compression corpus has 1,019); a method may take fewer (nn: 256). DoSnippets
	// skips longer sentences.
	MaxSentenceTokens = 2000
	// MaxSentenceBytes is the largest size of the text, or of the tokens together: 64 KiB.
	MaxSentenceBytes = 64 << 10
)

// Errors in requests. Every error a request gets wraps ErrBadRequest, ErrInfeasible or
// ErrUnknownMethod, so that callers (the HTTP service) can tell the client's fault.
var (
	ErrBadRequest = errors.New("bad request")
	ErrInfeasible = errors.New("infeasible")
	// ErrUnknownMethod is method.ErrUnknownMethod: one sentinel for a name that is not a
	// method, not linked, or evaluation-only.
	ErrUnknownMethod = method.ErrUnknownMethod
)

// Engine compresses sentences. It holds the read-only models and a pool of per-goroutine
// scratch memory; it is safe for concurrent use. An Engine comes from New or
// NewWithOptions: the zero Engine has no models, and its methods fail.
type Engine struct {
	pipe *pipeline.Pipeline
	seed uint64

	mu      sync.Mutex
	methods map[string]method.Method

	pool sync.Pool // *worker
}

type worker struct {
	pw  *pipeline.Worker
	mc  method.Compressor
	all []int // every token id of the sentence
	// the tree of the sentence being compressed, and its heads
	tree  syntax.Tree
	heads []int
	// the display budget being met, for fits: the view, its hits and the budget
	fv    *view
	fhits []int
	fb    int
	fkept []int // the kept tokens last measured by fits, and their length
	flen  int
	fit   func(kept []int) bool // fits, made once
	lengther
}

// Options configure New.
type Options struct {
	// Seed seeds the RANDOM method (default 0).
	Seed uint64
	// Accurate parses every request with the embedded beam-search parser instead of the
	// greedy one: better trees, at about 6 times the parsing time; the compressions are
	// about as good as with the default parser (the figures are in MODELS.md).
	Accurate bool
}

// errNilRequest and errNoModels are the errors of a nil request and of an Engine that New
// did not make.
var (
	errNilRequest = fmt.Errorf("%w: the request is nil", ErrBadRequest)
	errNoModels   = fmt.Errorf("%w: the Engine has no models: make it with qsc.New", ErrBadRequest)
)

// New returns an Engine with the embedded default models.
func New() (*Engine, error) { return NewWithOptions(Options{}) }

// NewWithOptions is New with options.
func NewWithOptions(opts Options) (*Engine, error) {
	p, err := pipeline.Embedded(opts.Accurate)
	if err != nil {
		return nil, err
	}
	e := &Engine{pipe: p, seed: opts.Seed, methods: map[string]method.Method{}}
	e.pool.New = func() any { return e.newWorker() }
	return e, nil
}

// newWorker returns a worker with fresh scratch memory (the caller sets its decoding).
func (e *Engine) newWorker() *worker { return &worker{pw: e.pipe.NewWorker()} }

// Methods lists the method names a Request may give.
func Methods() []string { return method.Names(true) }

// Load loads the models of the named methods now (DefaultMethod when none is named), so
// that the first request that uses each does not wait for its model to load: a service
// calls it before it takes requests. A method's model loads once per Engine; Load of a
// loaded method costs a map lookup. MethodWindow and "" (the default) are accepted.
func (e *Engine) Load(methods ...string) error {
	if e.pipe == nil {
		return errNoModels
	}
	if len(methods) == 0 {
		methods = []string{DefaultMethod}
	}
	for _, name := range methods {
		if strings.EqualFold(name, MethodWindow) {
			continue
		}
		if _, err := e.method(name); err != nil {
			return err
		}
	}
	return nil
}

// method returns the named method, loading its embedded model file on first use.
func (e *Engine) method(name string) (method.Method, error) {
	if name == "" {
		name = DefaultMethod
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if m, ok := e.methods[name]; ok {
		return m, nil
	}
	if ent, err := method.Lookup(name); err != nil || !ent.Public {
		if pkg := method.NotLinked(name); pkg != "" {
			return nil, fmt.Errorf("%w %q (not linked: import _ %q)", ErrUnknownMethod, name, pkg)
		}
		return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknownMethod, name, strings.Join(Methods(), ", "))
	}
	m, err := method.Open(name, nil, e.seed)
	if err != nil {
		return nil, err
	}
	e.methods[name] = m
	return m, nil
}

// maxTokens returns the longest sentence a request may give the method called name: its
// own limit (package method), within MaxSentenceTokens.
func maxTokens(name string) int {
	if ent, err := method.Lookup(name); err == nil && ent.MaxTokens > 0 {
		return min(ent.MaxTokens, MaxSentenceTokens)
	}
	return MaxSentenceTokens
}

// Request is one compression problem, as the batch interface and the HTTP service take
// it. Give the sentence as Tokens or as Text, and the query as QueryIDs or as Query.
type Request struct {
	// ID is echoed in the response (required by the batch interface, optional over HTTP).
	ID string `json:"id"`
	// Tokens is the sentence, tokenized.
	Tokens []string `json:"tokens,omitempty"`
	// Text is the sentence as raw text; it is tokenized as one sentence.
	Text string `json:"text,omitempty"`
	// XPOS optionally gives a Penn Treebank tag per token, replacing the built-in tagger.
	XPOS []string `json:"xpos,omitempty"`
	// QueryIDs are 1-based token ids that must be kept. One of QueryIDs and Query must be
	// given (not nil); an empty one (JSON []) asks for a compression with no query, which
	// keeps the gist of the sentence, its main clause's subject among it.
	QueryIDs []int `json:"query_ids,omitempty"`
	// Query are terms that must be kept; each is matched in the sentence (a term of
	// several words to a run of tokens), ignoring case, accents, inflection and trailing
	// punctuation, and finding a word inside a hyphenated one, as the snippets do (see
	// DoSnippets), and kept at one occurrence: among those spelled as given (up to case
	// and trailing punctuation), else among all, the first for one term, and for several
	// the occurrences that lie closest together (match.Terms.Pick). Empty but not nil
	// (JSON []): no query, as for QueryIDs.
	Query []string `json:"query,omitempty"`
	// Budget is the maximum length in characters (runes) of the compression, counted as
	// BudgetCounts says.
	Budget int `json:"budget"`
	// BudgetCounts is what the budget counts: BudgetTokens (the default: the kept tokens
	// joined by single spaces), BudgetDisplay (the compression as displayed, "…" marks
	// included) or BudgetColumns (the display, an East Asian wide character as two
	// columns). Under a budgeted decoding, a sentence whose text as written fits the
	// budget is returned whole in either mode.
	BudgetCounts string `json:"budget_counts,omitempty"`
	// Method is one of Methods() (default DefaultMethod).
	Method string `json:"method,omitempty"`
	// Decoding is DecodingSnippet (the default: budget-true and well-formed),
	// DecodingNested (the same, and a larger budget never drops a word) or DecodingPaper
	// (the decoder of Handler & O'Connor 2019, as their Table 2 measures it).
	Decoding string `json:"decoding,omitempty"`
	// Lang is the language of the sentence, an ISO 639-1 code ("de", "ja"), or "" to
	// identify it. A sentence that is not English is shown by its window (MethodWindow)
	// unless Method names a compression method, which then reads it as English.
	Lang string `json:"lang,omitempty"`
}

// Decodings: how a method's decisions become a compression (package method).
const (
	// DecodingSnippet is budget-true, well-formed decoding, the default: the sentence
	// itself when it fits; otherwise no function word without its head, names, numbers,
	// negations and hedges kept whole, balanced quotes and brackets (package
	// wellformed), and for the ILP, the default, its optimum shown as the best display:
	// few runs, no gap inside a phrase or a name, no one-word island (docs/snippets.md).
	DecodingSnippet = "snippet"
	// DecodingNested is DecodingSnippet with one more promise, for a snippet that grows
	// (a "more" button, a wider column): for one sentence and query, a larger budget
	// keeps every word a smaller one kept. Each method orders the tokens once, and the
	// display grows from that order by one sequence of displays under the same display
	// rules as DecodingSnippet (no gap inside a phrase or a name, no one-word island);
	// the snippet is the last of them that fits, which uses less of the budget and is
	// less faithful at any one budget than DecodingSnippet (docs/snippets.md).
	DecodingNested = "nested"
	// DecodingPaper is the paper's decoder: VERTEX ADDITION accepts a candidate iff
	// p > 0.5 and stops when nothing fits; the ILP maximises its arc scores.
	DecodingPaper = "paper"
)

// Decodings returns the names of the decodings a request takes: DecodingSnippet (the
// default), DecodingNested and DecodingPaper.
func Decodings() []string { return []string{DecodingSnippet, DecodingNested, DecodingPaper} }

// decodingOf returns the model decoding called name ("" is DecodingSnippet).
func decodingOf(name string) (method.Decoding, error) {
	if name == "" {
		return method.Snippet, nil
	}
	d, err := method.ParseDecoding(strings.ToLower(name))
	if err != nil {
		return 0, fmt.Errorf("%w: decoding %q (want one of %s)", ErrBadRequest, name, strings.Join(Decodings(), ", "))
	}
	return d, nil
}

// Step is one decision of a compression, for explanations.
type Step struct {
	Token    int     // 1-based id of the candidate
	Form     string  // its form
	P        float64 // the model's probability of keeping it (0 when skipped)
	Outcome  string  // "accept", "reject", "skip" (over budget: the model was not asked), "fill", "trim" or "cut" (under DecodingNested: past the budget's prefix)
	Length   int     // length of the compression after the step
	Accepted bool    // the candidate was added
}

// Result is a compression.
type Result struct {
	// Kept are the 1-based ids of the kept tokens, ascending.
	Kept []int
	// Compression is the compression as text: the kept runs of tokens cut from Text in
	// their own spelling ("$89.5 billion", "city's"), joined by a space, or by none before
	// closing punctuation ("men."). Its length in runes is at most the budget.
	Compression string
	// Text is the text the compression is cut from: the request's text, or its tokens
	// joined as a detokenizer would (no space before , . 's n't % ), none after ( $).
	Text string
	// Sentence is the analysed sentence: tokens (with byte offsets into Text when the
	// request gave text), tags and tree.
	Sentence *syntax.Sentence
	// Query are the 1-based ids of the query tokens.
	Query []int
	// Steps are the decisions, when asked for.
	Steps []Step
	// Lang is the language of the sentence: Request.Lang, or the one identified (an ISO
	// 639-1 code, or "und" for text without letters).
	Lang string
	// Method is the method that made the compression: the request's (DefaultMethod when
	// it names none) for English, MethodWindow for another language unless the request
	// names a method.
	Method string

	view  view // Text and the span of each token in it
	terms int  // the number of query terms (or query ids)
}

// Ellipsis returns the compression with "…" where words were cut, as search pages show it
// (the rendering of package render). With BudgetDisplay, its length in runes is at most the
// budget.
func (r *Result) Ellipsis() string {
	if len(r.Kept) == 0 {
		return ""
	}
	return r.view.render(r.Kept, r.Query, true, false)
}

// Snippet returns the compression as a Snippet of Text, for package render: the span of the
// sentence, the runs of kept tokens, the query tokens as hits, and Compression as its text,
// with the result's Lang and Method. Terms is the number of query terms and Score is 0.
func (r *Result) Snippet() Snippet {
	if len(r.Kept) == 0 {
		return Snippet{Text: r.Compression, Lang: r.Lang, Method: r.Method}
	}
	return Snippet{Sentence: r.view.sentence(), Kept: r.view.runs(r.Kept), Hits: r.view.spansOf(r.Query),
		Text: r.Compression, Terms: r.terms, Lang: r.Lang, Method: r.Method}
}

// Do compresses one request. explain records every decision of VERTEX ADDITION (the
// methods lr, ablated, nn and random) in Result.Steps; a method that chooses the whole
// compression at once (the ILP, the default, and the window) records none, and
// Engine.Weigh gives the terms of its display instead.
//
// A request over the limits (a sentence over MaxSentenceBytes or MaxSentenceTokens, over
// MaxQueryTerms query terms, a term over MaxTermWords words) or whose strings are not
// valid UTF-8 fails with ErrBadRequest.
func (e *Engine) Do(ctx context.Context, req *Request, explain bool) (*Result, error) {
	return e.do(ctx, req, nil, explain, nil)
}

// Weigh compresses req as Do does (explain as for Do), and weighs the result and each of
// alts under the objective of the snippet decoding (package method/runs; docs/snippets.md,
// "The objective"): terms[0] are the terms of Result.Kept, terms[i] those of alts[i-1],
// each a set of 1-based token ids of the same sentence (Result.Sentence), for instance a
// window's or another decoding's display of it aligned to its tokens. The terms are
// counted with the compression's C* and rules, under the width model of
// req.BudgetCounts, and runs.Terms.Score with runs.Default() gives the objective; the
// result's score is the highest of every set that runs.Terms.Allowed admits. terms is nil
// when no display was chosen: the sentence fits whole, the method does not honour the
// rules (MethodWindow, a language other than English) or the decoding is not
// DecodingSnippet. Ids outside the sentence are ignored. It costs what Do costs, plus
// O(n) a set.
func (e *Engine) Weigh(ctx context.Context, req *Request, explain bool, alts [][]int) (res *Result, terms []runs.Terms, err error) {
	res, err = e.do(ctx, req, nil, explain, func(mc *method.Compressor, kept []int) {
		t, ok := mc.Measure(kept)
		if !ok {
			return
		}
		terms = append(terms, t)
		for _, a := range alts {
			t, _ := mc.Measure(a)
			terms = append(terms, t)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return res, terms, nil
}

// do is Do; pre, when not nil, is the sentence of req, tagged and parsed (from an annotation:
// CompressAnnotated). weigh, when not nil, is called with the compressor and the
// compression before the worker is released (Weigh).
func (e *Engine) do(ctx context.Context, req *Request, pre *syntax.Sentence, explain bool, weigh func(*method.Compressor, []int)) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req == nil {
		return nil, errNilRequest
	}
	if e.pipe == nil {
		return nil, errNoModels
	}
	if err := checkBudget(req.Budget); err != nil {
		return nil, err
	}
	mode, err := budgetMode(req.BudgetCounts, BudgetTokens)
	if err != nil {
		return nil, err
	}
	dec, err := decodingOf(req.Decoding)
	if err != nil {
		return nil, err
	}
	lang, err := requestLang(req)
	if err != nil {
		return nil, err
	}
	foreign := !english(lang)
	if foreign && (req.Method == "" || strings.EqualFold(req.Method, MethodWindow)) {
		w := e.pool.Get().(*worker)
		defer e.pool.Put(w)
		return w.windowDo(req, lang, mode)
	}
	s := pre
	if s == nil {
		if s, err = sentenceOf(req); err != nil {
			return nil, err
		}
		if foreign && req.Tokens == nil {
			s.Tokens = segment.Tokens(req.Text) // a named method reads the language's words
		}
	}
	m, err := e.method(req.Method)
	if err != nil {
		return nil, err
	}
	if lim := maxTokens(m.Name()); len(s.Tokens) > lim {
		return nil, fmt.Errorf("%w: method %s takes sentences of at most %d tokens; this one has %d", ErrBadRequest, m.Name(), lim, len(s.Tokens))
	}
	w := e.pool.Get().(*worker)
	defer e.pool.Put(w)
	if pre == nil {
		if err := w.pw.Sentence(s, pipeline.Options{KeepXPOS: req.XPOS != nil}); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
		}
	}
	var q []int
	if foreign && pre == nil && req.Tokens == nil && req.Query != nil {
		q, err = foreignQueryOf(req, lang, s)
	} else {
		q, err = queryOf(req, s)
	}
	if err != nil {
		return nil, err
	}
	tree, err := syntax.NewTree(s.Heads())
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	v := viewOf(req.Text, s)
	w.lengther.sc.Columns = mode == BudgetColumns
	defer func() { w.lengther.sc.Columns = false }()
	w.mc.VA.Trace, w.mc.Decoding = explain, dec
	kept, err := w.compress(m, method.Input{Sentence: s, Tree: tree, Query: q, Budget: req.Budget}, &v, mode != BudgetTokens, q)
	if err != nil {
		return nil, err
	}
	if weigh != nil {
		weigh(&w.mc, kept)
	}
	res := &Result{Kept: append([]int(nil), kept...), Sentence: s, Query: q, Text: v.text, view: v, terms: len(req.Query) + len(req.QueryIDs),
		Lang: lang, Method: m.Name()}
	res.Compression = v.render(kept, nil, false, false) // hits show only in markup
	if explain {
		for _, st := range w.mc.Steps() { // none for a Solver (the ILP)
			res.Steps = append(res.Steps, Step{Token: st.V, Form: s.Tokens[st.V-1].Form, P: st.P,
				Outcome: st.Outcome.String(), Length: st.Len, Accepted: st.Outcome == va.Accepted})
		}
	}
	return res, nil
}

// Compress compresses one sentence of raw text so that it keeps every query term and fits
// in budget characters, with the default method.
func (e *Engine) Compress(ctx context.Context, text string, query []string, budget int) (*Result, error) {
	return e.Do(ctx, &Request{Text: text, Query: query, Budget: budget}, false)
}

// classify wraps engine errors as infeasible or bad requests.
func classify(err error) error {
	switch {
	case errors.Is(err, va.ErrBudgetTooSmall):
		var be *va.BudgetError
		if errors.As(err, &be) {
			// The engine's words, not the va package's: "infeasible: the query is longer
			// than the budget: 16 characters, the budget 10".
			return fmt.Errorf("%w: the query is longer than the budget: %d characters, the budget %d", ErrInfeasible, be.QueryLen, be.Budget)
		}
		return fmt.Errorf("%w: %v", ErrInfeasible, err)
	case errors.Is(err, va.ErrInvalidInput), errors.Is(err, va.ErrNotInSentence), errors.Is(err, va.ErrDuplicate), errors.Is(err, va.ErrBadBudget):
		return fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	return err
}

// sentenceOf builds the unparsed sentence of a request.
func sentenceOf(req *Request) (*syntax.Sentence, error) {
	var s syntax.Sentence
	switch {
	case req.Tokens != nil && req.Text != "":
		return nil, fmt.Errorf("%w: give either tokens or text, not both", ErrBadRequest)
	case req.Tokens != nil:
		if len(req.Tokens) == 0 {
			return nil, fmt.Errorf("%w: tokens is empty", ErrBadRequest)
		}
		if len(req.Tokens) > MaxSentenceTokens {
			return nil, fmt.Errorf("%w: the sentence has %d tokens, more than the maximum of %d", ErrBadRequest, len(req.Tokens), MaxSentenceTokens)
		}
		s.Tokens = make([]syntax.Token, len(req.Tokens))
		size := 0
		for i, f := range req.Tokens {
			if size += len(f); size > MaxSentenceBytes {
				return nil, fmt.Errorf("%w: the tokens are more than %d bytes together", ErrBadRequest, MaxSentenceBytes)
			}
			if f == "" || strings.ContainsAny(f, " \t\n\r") {
				return nil, fmt.Errorf("%w: token %d (%q) is empty or contains whitespace", ErrBadRequest, i+1, f)
			}
			if off := invalidUTF8(f); off >= 0 {
				return nil, fmt.Errorf("%w: token %d is not valid UTF-8 (byte offset %d)", ErrBadRequest, i+1, off)
			}
			s.Tokens[i] = syntax.Token{Form: f, Head: syntax.NoHead, Start: -1, End: -1}
		}
	case strings.TrimSpace(req.Text) != "":
		if len(req.Text) > MaxSentenceBytes {
			return nil, fmt.Errorf("%w: text is %d bytes, more than the maximum of %d", ErrBadRequest, len(req.Text), MaxSentenceBytes)
		}
		if off := invalidUTF8(req.Text); off >= 0 {
			return nil, fmt.Errorf("%w: text is not valid UTF-8 (byte offset %d)", ErrBadRequest, off)
		}
		s.Tokens = tokenize.Tokens(req.Text)
		if len(s.Tokens) == 0 {
			return nil, fmt.Errorf("%w: text has no words", ErrBadRequest)
		}
		if len(s.Tokens) > MaxSentenceTokens {
			return nil, fmt.Errorf("%w: the sentence has %d tokens, more than the maximum of %d", ErrBadRequest, len(s.Tokens), MaxSentenceTokens)
		}
	default:
		return nil, fmt.Errorf("%w: no sentence: the text is empty or blank, and no tokens are given", ErrBadRequest)
	}
	if req.XPOS != nil {
		if len(req.XPOS) != len(s.Tokens) {
			return nil, fmt.Errorf("%w: %d xpos tags for %d tokens", ErrBadRequest, len(req.XPOS), len(s.Tokens))
		}
		for i, t := range req.XPOS {
			if t == "" {
				return nil, fmt.Errorf("%w: xpos tag %d is empty", ErrBadRequest, i+1)
			}
			s.Tokens[i].XPOS = t
		}
	}
	return &s, nil
}

// queryOf resolves the query of a request to 1-based token ids, ascending and distinct.
func queryOf(req *Request, s *syntax.Sentence) ([]int, error) {
	n := len(s.Tokens)
	switch {
	case req.QueryIDs != nil && req.Query != nil:
		return nil, fmt.Errorf("%w: give either query_ids or query, not both", ErrBadRequest)
	case req.QueryIDs != nil:
		seen := make(map[int]bool, len(req.QueryIDs))
		var q []int
		for _, id := range req.QueryIDs {
			if id < 1 || id > n {
				return nil, fmt.Errorf("%w: query id %d is not a token id (1..%d)", ErrBadRequest, id, n)
			}
			if !seen[id] {
				seen[id] = true
				q = append(q, id)
			}
		}
		slices.Sort(q)
		return q, nil
	case req.Query != nil:
		mq, err := compileQuery(req.Query)
		if err != nil {
			return nil, err
		}
		kept, missing := keptHits(&mq.Terms, mq.NewScanner().Scan(s.Tokens), s.Tokens, len(req.Query))
		if missing >= 0 {
			return nil, errMissingTerm(req.Query[missing], "", s.Tokens)
		}
		return hitIDs(kept), nil
	}
	return nil, fmt.Errorf("%w: give the query as query_ids or query", ErrBadRequest)
}

// errMissingTerm is the error of a query term that matched no word of toks, a sentence
// of language lang ("" for the default pipeline's): it wraps ErrInfeasible and names the
// first word that holds the term ("105" in "105mm"), as a query matches whole words.
func errMissingTerm(term, lang string, toks []syntax.Token) error {
	msg := fmt.Sprintf("query term %q is not in the sentence", term)
	if lang != "" {
		msg += fmt.Sprintf(" (language %s)", lang)
	}
	if t := strings.ToLower(strings.TrimSpace(term)); t != "" {
		for i := range toks {
			if f := toks[i].Form; len(f) > len(t) && strings.Contains(strings.ToLower(f), t) {
				msg += fmt.Sprintf(" (it is part of the word %q; a query term matches whole words)", f)
				break
			}
		}
	}
	return fmt.Errorf("%w: %s", ErrInfeasible, msg)
}

// keptHits returns the occurrence that a query keeps (match.Terms.Pick) of each of the
// given terms of t (in the order given to the compiler, by t.Term) among hits, a
// Scanner's of toks; or, as missing, the index of the first term given that toks lack
// (−1 when none does).
func keptHits(t *match.Terms, hits []match.Hit, toks []syntax.Token, given int) (kept []match.Hit, missing int) {
	pick := make([]int, t.Len())
	t.Pick(hits, toks, pick)
	kept = make([]match.Hit, given)
	for i := range kept {
		j := pick[t.Term(i)]
		if j < 0 {
			return nil, i
		}
		kept[i] = hits[j]
	}
	return kept, -1
}

// hitIDs returns the 1-based ids of the tokens of hits, ascending, each once.
func hitIDs(hits []match.Hit) []int {
	var q []int
	for _, h := range hits {
		for id := h.Start + 1; id <= h.End; id++ {
			q = append(q, id)
		}
	}
	slices.Sort(q)
	return slices.Compact(q)
}

// compileQuery checks and compiles the query terms of a request (internal/core/match: the one
// matcher of Do, Compress and the snippets): at most MaxQueryTerms terms, each valid UTF-8,
// at most MaxSentenceBytes and with 1 to MaxTermWords words. Its errors wrap ErrBadRequest.
// Compiled queries are kept (compiledQueries): a result page asks for the snippets of
// many documents with one query.
func compileQuery(terms []string) (*match.Query, error) {
	var kb [256]byte
	key := kb[:0]
	for _, t := range terms {
		key = binary.AppendUvarint(key, uint64(len(t)))
		key = append(key, t...)
	}
	if len(key) > maxCompiledQueryKey { // bounds the memory of the cache
		return checkAndCompile(terms)
	}
	compiledQueries.mu.RLock()
	q, ok := compiledQueries.m[string(key)]
	compiledQueries.mu.RUnlock()
	if ok {
		return q, nil
	}
	q, err := checkAndCompile(terms)
	if err != nil {
		return nil, err
	}
	compiledQueries.mu.Lock()
	if len(compiledQueries.m) >= maxCompiledQueries {
		clear(compiledQueries.m)
	}
	compiledQueries.m[string(key)] = q
	compiledQueries.mu.Unlock()
	return q, nil
}

// compiledQueries holds compiled queries (read-only, safe for concurrent use) by their
// terms, each as its length and bytes, when those take at most maxCompiledQueryKey bytes;
// emptied when it holds maxCompiledQueries.
var compiledQueries = struct {
	mu sync.RWMutex
	m  map[string]*match.Query
}{m: map[string]*match.Query{}}

const (
	maxCompiledQueries  = 1024
	maxCompiledQueryKey = 256
)

// checkAndCompile is compileQuery without the cache.
func checkAndCompile(terms []string) (*match.Query, error) {
	if len(terms) > MaxQueryTerms {
		return nil, fmt.Errorf("%w: %d query terms, more than the maximum of %d", ErrBadRequest, len(terms), MaxQueryTerms)
	}
	for i, term := range terms {
		if len(term) > MaxSentenceBytes {
			return nil, fmt.Errorf("%w: a query term is %d bytes, more than the maximum of %d", ErrBadRequest, len(term), MaxSentenceBytes)
		}
		if off := invalidUTF8(term); off >= 0 {
			return nil, fmt.Errorf("%w: query term %d is not valid UTF-8 (byte offset %d)", ErrBadRequest, i+1, off)
		}
	}
	q, err := match.Compile(terms, MaxTermWords)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	return q, nil
}
