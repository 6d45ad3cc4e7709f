package server

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
)

// Limits of GET /v1/search.
const (
	maxQueryChars  = 500
	defaultResults = 10
	maxResults     = 50
	defaultBudget  = 100
	maxBudget      = 1000
	defaultPerDoc  = 2
	maxPerDoc      = 10
)

// searchResult is one document found by GET /v1/search.
type searchResult struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// TitleHTML is the title escaped as HTML, the query's words in <mark> where the
	// snippets' matcher finds them (qsc.Engine.Hits), as the document's page marks them.
	TitleHTML string `json:"title_html"`
	// URL is the document's own address, when it has one.
	URL string `json:"url,omitempty"`
	// Link is the server's page of the whole document (docLink).
	Link     string    `json:"link"`
	Score    float64   `json:"score"`
	Snippets []Snippet `json:"snippets"`
	// Error says why the document has no snippet (its matching sentences' query terms
	// are longer than the budget).
	Error string `json:"error,omitempty"`
}

// searchResponse is the answer of GET /v1/search.
type searchResponse struct {
	Query  string   `json:"query"`
	Terms  []string `json:"terms"`
	Budget int      `json:"budget"`
	// BudgetCounts is what the budget counts: display (the default, "…" included) or
	// tokens (the kept words joined by spaces, for a rendering without marks, whose cuts
	// are then clean), or columns.
	BudgetCounts string `json:"budget_counts"`
	Total        uint64 `json:"total"`
	// From is the number of results before this page; K the page size asked for.
	From    int            `json:"from"`
	K       int            `json:"k"`
	Results []searchResult `json:"results"`
	// SearchMS, SnippetsMS and TookMS are the time of the search, of the snippets and of
	// the whole request, in milliseconds.
	SearchMS   float64 `json:"search_ms"`
	SnippetsMS float64 `json:"snippets_ms"`
	TookMS     float64 `json:"took_ms"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// docLink is the path of the page of document id: /doc/ and idPath(id).
func docLink(id string) string { return "/doc/" + idPath(id) }

// idPath writes a document id as the end of a canonical path (canonicalPaths), which
// the mux's {id...} wildcard reads back as id: each "/"-separated part escaped, a "." or
// ".." part as %2E or %2E%2E, and a "/" next to an empty part as %2F ("a//b" is
// a%2F%2Fb); a final "/" stays.
func idPath(id string) string {
	parts := strings.Split(id, "/")
	var b strings.Builder
	b.Grow(len(id))
	for i, p := range parts {
		if i > 0 {
			if parts[i-1] == "" || p == "" && i < len(parts)-1 {
				b.WriteString("%2F")
			} else {
				b.WriteByte('/')
			}
		}
		switch p {
		case ".":
			b.WriteString("%2E")
		case "..":
			b.WriteString("%2E%2E")
		default:
			b.WriteString(url.PathEscape(p))
		}
	}
	return b.String()
}

// queryParam reads the required query parameter q: at most maxQueryChars characters of
// UTF-8, which the search box's maxlength matches in any script.
func queryParam(r *http.Request) (string, error) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	switch {
	case q == "":
		return "", badRequest("parameter q (the query) is required")
	case !utf8.ValidString(q):
		return "", badRequest("parameter q is not valid UTF-8")
	case len(q) > maxQueryChars && utf8.RuneCountInString(q) > maxQueryChars:
		return "", badRequest("parameter q is %d characters, more than the maximum of %d", utf8.RuneCountInString(q), maxQueryChars)
	}
	return q, nil
}

// searchParams are the parameters of GET /v1/search.
var searchParams = []string{"q", "budget", "budget_counts", "n", "k", "from", "page", "method", "decoding"}

// knownParams returns a bad request naming the first parameter of r that is not one of
// known, as an unknown field of a JSON body is ("limit" for "k" would otherwise give 10
// results silently). A parameter that begins with "_" (a cache buster) is let through.
func knownParams(r *http.Request, known []string) error {
	for _, name := range slices.Sorted(maps.Keys(r.URL.Query())) {
		if !slices.Contains(known, name) && !strings.HasPrefix(name, "_") {
			return badRequest("unknown parameter %q (the parameters are %s)", name, strings.Join(known, ", "))
		}
	}
	return nil
}

// pageParams reads k (the page size) and either from (results to skip) or page (1-based).
func pageParams(r *http.Request) (from, k int, err error) {
	if k, err = intParam(r, "k", defaultResults, 1, maxResults); err != nil {
		return 0, 0, err
	}
	if r.URL.Query().Has("from") && r.URL.Query().Has("page") {
		return 0, 0, badRequest("give parameter from or parameter page, not both")
	}
	if from, err = intParam(r, "from", 0, 0, docindex.MaxFrom); err != nil {
		return 0, 0, err
	}
	maxPage := docindex.MaxFrom/k + 1
	page, err := intParam(r, "page", 1, 1, maxPage)
	if err != nil {
		return 0, 0, err
	}
	if page > 1 {
		from = (page - 1) * k
	}
	return from, k, nil
}

// search serves GET /v1/search?q=...&budget=...&budget_counts=...&n=...&k=...&from=...|page=...&method=...:
// one page of the best documents of the collection for q (bleve's query-string syntax:
// words, "phrases", +must, -not, wild*cards, /regexps/), each with its n best snippets of
// at most budget characters, made from the documents' stored annotations (none when the
// query has patterns alone: they name no word to mark).
func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if s.cfg.Index == nil {
		writeError(w, http.StatusServiceUnavailable, "search is off: the server has no collection")
		return
	}
	if err := knownParams(r, searchParams); err != nil {
		s.fail(w, r, err)
		return
	}
	q, err := queryParam(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	budget, err := intParam(r, "budget", defaultBudget, 1, maxBudget)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	n, err := intParam(r, "n", defaultPerDoc, 1, maxPerDoc)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	from, k, err := pageParams(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	method := r.URL.Query().Get("method")
	if method != "" && !slices.Contains(qsc.Methods(), method) {
		// Checked here too, so that a query that finds nothing still gets the error.
		s.fail(w, r, fmt.Errorf("%w %q (want one of %s)", qsc.ErrUnknownMethod, method, strings.Join(qsc.Methods(), ", ")))
		return
	}
	decoding := r.URL.Query().Get("decoding")
	if decoding != "" && !slices.Contains(qsc.Decodings(), decoding) {
		s.fail(w, r, badRequest("parameter decoding: %q is not one of %s", decoding, strings.Join(qsc.Decodings(), ", ")))
		return
	}
	counts := r.URL.Query().Get("budget_counts")
	if counts == "" {
		counts = qsc.BudgetDisplay
	}
	if !slices.Contains(qsc.BudgetModes(), counts) {
		s.fail(w, r, badRequest("parameter budget_counts: %q is not one of %s", counts, strings.Join(qsc.BudgetModes(), ", ")))
		return
	}
	if err := s.acquire(r.Context(), small); err != nil {
		s.fail(w, r, err)
		return
	}
	defer s.release(small)
	found, err := s.cfg.Index.Search(r.Context(), docindex.SearchRequest{Query: q, From: from, Size: k})
	if errors.Is(err, docindex.ErrQuery) {
		err = badRequest("parameter q: %v", err)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	searched := time.Now()
	resp := searchResponse{Query: q, Terms: found.Terms, Budget: budget, BudgetCounts: counts, Total: found.Total, From: from, K: k, Results: []searchResult{}}
	if resp.Terms == nil {
		resp.Terms = []string{}
	}
	snippets := 0
	for i := range found.Hits {
		h := &found.Hits[i]
		res := searchResult{ID: h.Doc.ID, Title: h.Doc.Title, URL: h.Doc.URL, Link: docLink(h.Doc.ID), Score: h.Score, Snippets: []Snippet{}}
		var titleHits []qsc.Span
		if len(found.Terms) > 0 && h.Doc.Title != "" {
			if titleHits, err = s.cfg.Engine.Hits(r.Context(), h.Doc.Title, found.Terms, ""); err != nil {
				s.fail(w, r, err)
				return
			}
		}
		res.TitleHTML, _, _ = display.Mark(h.Doc.Title, qsc.Span{Start: 0, End: len(h.Doc.Title)}, titleHits)
		if len(found.Terms) == 0 { // found by patterns alone (hot*): no word to mark
			resp.Results = append(resp.Results, res)
			continue
		}
		// A document found by its title alone shows its beginning (NoMatch: method lead).
		sn, err := s.cfg.Index.Snippets(r.Context(), s.cfg.Engine, h, qsc.SnippetRequest{Query: found.Terms, Budget: budget, BudgetCounts: counts, N: n, Method: method, Decoding: decoding, NoMatch: true})
		switch {
		case errors.Is(err, qsc.ErrInfeasible):
			res.Error = err.Error()
		case err != nil:
			s.fail(w, r, err)
			return
		default:
			res.Snippets = rendered(h.Doc.Text, sn)
		}
		snippets += len(res.Snippets)
		resp.Results = append(resp.Results, res)
	}
	s.metrics.compressed(method, snippets)
	end := time.Now()
	resp.SearchMS, resp.SnippetsMS, resp.TookMS = ms(searched.Sub(start)), ms(end.Sub(searched)), ms(end.Sub(start))
	writeJSON(w, http.StatusOK, resp)
}

// documentResponse is the answer of GET /v1/documents/{id}.
type documentResponse struct {
	docfile.Doc
	Link string `json:"link"`
	// Terms, Hits and TitleHits are the search ?q='s terms and their spans in the text
	// and the title (Server.marks), when q is given.
	Terms     []string   `json:"terms,omitzero"`
	Hits      []qsc.Span `json:"hits,omitempty"`
	TitleHits []qsc.Span `json:"title_hits,omitempty"`
}

// marks returns the terms of the search query q (docindex.Index.Terms) less the stop
// words of d's language (docindex.TermsIn), and their spans in d's text and title, as the
// snippets' matcher finds them (qsc.Engine.Hits), in a turn of the server's admission:
// what the page of a document marks, and what GET /v1/documents/{id}?q= answers. A query that cannot be read is a bad request.
func (s *Server) marks(ctx context.Context, d docfile.Doc, q string) (terms []string, hits, titleHits []qsc.Span, err error) {
	terms, err = s.cfg.Index.Terms(q)
	if errors.Is(err, docindex.ErrQuery) {
		return nil, nil, nil, badRequest("parameter q: %v", err)
	}
	if err != nil || len(terms) == 0 {
		return terms, nil, nil, err
	}
	terms = docindex.TermsIn(terms, langid.Detect(d.Text).Lang) // as its snippets mark it
	if err := s.acquire(ctx, small); err != nil {
		return nil, nil, nil, err
	}
	defer s.release(small)
	if hits, err = s.cfg.Engine.Hits(ctx, d.Text, terms, ""); err != nil {
		return nil, nil, nil, err
	}
	if d.Title != "" {
		if titleHits, err = s.cfg.Engine.Hits(ctx, d.Title, terms, ""); err != nil {
			return nil, nil, nil, err
		}
	}
	return terms, hits, titleHits, nil
}

// lookup returns the document named by the request's path, or answers 404 (or 503 when
// the server has no collection) and returns false.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) (docfile.Doc, bool) {
	d, found, ok := s.pathDoc(w, r)
	if ok && !found {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no document with id %q", d.ID))
	}
	return d, ok && found
}

// pathDoc returns the document named by the request's path and whether the collection
// has it (when not, a Doc with that id alone); ok is false when it has answered: 503 when
// the server has no collection, or the failure to read the collection.
func (s *Server) pathDoc(w http.ResponseWriter, r *http.Request) (d docfile.Doc, found, ok bool) {
	if s.cfg.Index == nil {
		writeError(w, http.StatusServiceUnavailable, "documents are off: the server has no collection")
		return docfile.Doc{}, false, false
	}
	id := r.PathValue("id")
	d, found, err := s.cfg.Index.Document(id)
	if err != nil {
		s.fail(w, r, err)
		return d, false, false
	}
	if !found {
		d = docfile.Doc{ID: id}
	}
	return d, found, true
}

// document serves GET /v1/documents/{id}: the whole document as indexed, and with ?q=
// the search's terms and their spans (Server.marks).
func (s *Server) document(w http.ResponseWriter, r *http.Request) {
	d, ok := s.lookup(w, r)
	if !ok {
		return
	}
	resp := documentResponse{Doc: d, Link: docLink(d.ID)}
	if r.URL.Query().Has("q") {
		q, err := queryParam(r)
		if err == nil {
			resp.Terms, resp.Hits, resp.TitleHits, err = s.marks(r.Context(), d, q)
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if resp.Terms == nil {
			resp.Terms = []string{} // asked for: a query of no word to mark has none
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

//go:embed templates/doc.html
var docHTML string

// docTemplate renders the page of one document; html/template escapes every value.
var docTemplate = template.Must(template.New("doc").Parse(docHTML))

// docView is what docTemplate shows.
type docView struct {
	Doc docfile.Doc
	// Paragraphs are the text's blocks between blank lines, escaped, with the words of
	// the search that led here in <mark>.
	Paragraphs []template.HTML
	// Title is the document's title as HTML, escaped, its words of the search marked.
	Title template.HTML
	// Terms are that search's terms (docindex.Index.Terms), and Marks the number of
	// their occurrences marked in the text.
	Terms []string
	Marks int
	// Back is the search page, with the query that led here (?q=...).
	Back string
	// Missing tells that the collection has no document Doc.ID: the page says so (404).
	Missing bool
}

// paragraphs returns the spans of text's blocks between blank lines (lines of white
// space alone), each without the line break that ends it.
func paragraphs(text string) []qsc.Span {
	var out []qsc.Span
	cur := qsc.Span{Start: -1}
	pos := 0
	for line := range strings.Lines(text) {
		if strings.TrimSpace(line) == "" {
			if cur.Start >= 0 {
				out = append(out, cur)
				cur.Start = -1
			}
		} else {
			if cur.Start < 0 {
				cur.Start = pos
			}
			cur.End = pos + len(strings.TrimRight(line, "\r\n"))
		}
		pos += len(line)
	}
	if cur.Start >= 0 {
		out = append(out, cur)
	}
	return out
}

// marked returns the paragraphs of text as HTML, escaped, with the hits (spans of text,
// in order, as qsc.Engine.Hits gives them) in <mark> as snippets mark them
// (display.Mark), and the number of <mark> elements. The part of the span shown (a
// snippet's sentence; none when empty) in the first paragraph it meets is in
// <span class="context" id="context">, which a result's "in context" link scrolls to.
func marked(text string, hits []qsc.Span, shown qsc.Span) ([]template.HTML, int) {
	var out []template.HTML
	var b strings.Builder
	marks := 0
	write := func(r qsc.Span) {
		h, n, rest := display.Mark(text, r, hits)
		b.WriteString(h)
		marks, hits = marks+n, rest
	}
	for _, p := range paragraphs(text) {
		b.Reset()
		if c := (qsc.Span{Start: max(shown.Start, p.Start), End: min(shown.End, p.End)}); c.Start < c.End {
			write(qsc.Span{Start: p.Start, End: c.Start})
			b.WriteString(`<span class="context" id="context">`)
			write(c)
			b.WriteString(`</span>`)
			write(qsc.Span{Start: c.End, End: p.End})
			shown = qsc.Span{} // once
		} else {
			write(p)
		}
		out = append(out, template.HTML(b.String()))
	}
	return out, marks
}

// contextSpan returns the span of text that the parameter s ("START-END", byte offsets,
// as a snippet's sentence gives them) names, or the empty span when s is empty or names
// no stretch of text that begins and ends between characters.
func contextSpan(s, text string) qsc.Span {
	a, z, ok := strings.Cut(s, "-")
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(z)
	if !ok || err1 != nil || err2 != nil || start < 0 || end > len(text) || start >= end ||
		!utf8.RuneStart(text[start]) || (end < len(text) && !utf8.RuneStart(text[end])) {
		return qsc.Span{}
	}
	return qsc.Span{Start: start, End: end}
}

// docPage serves GET /doc/{id}: the page of the whole document, rendered here
// (HTML-escaped), with a link back to the search for ?q=, the words of that search
// marked, and the stretch ?s=START-END (a snippet's sentence) shown apart at #context;
// for an id the collection does not have, a page that says so, with status 404.
func (s *Server) docPage(w http.ResponseWriter, r *http.Request) {
	// A reader follows a link: a document gone since gets a page that says so (404).
	d, found, ok := s.pathDoc(w, r)
	if !ok {
		return
	}
	missing := !found
	back := "/"
	var terms []string
	var hits, titleHits []qsc.Span
	if q := r.URL.Query().Get("q"); q != "" && utf8.ValidString(q) && utf8.RuneCountInString(q) <= maxQueryChars && !missing {
		// The words of the search are marked where the snippets' matcher finds them. A
		// query that cannot be read, or a document it cannot mark, shows the page
		// unmarked: the page is the document, and the marks are a help.
		var err error
		if terms, hits, titleHits, err = s.marks(r.Context(), d, q); err != nil {
			terms, hits, titleHits = nil, nil, nil
			if !errors.Is(err, qsc.ErrBadRequest) && r.Context().Err() == nil {
				s.log.Warn("document page: marking the query failed", "id", d.ID, "error", err)
			}
		}
		v := url.Values{"q": {q}}
		if p := r.URL.Query().Get("page"); p != "" {
			if n, err := strconv.Atoi(p); err == nil && n > 1 {
				v.Set("page", strconv.Itoa(n))
			}
		}
		back = "/?" + v.Encode()
	}
	var buf bytes.Buffer
	paras, marks := marked(d.Text, hits, contextSpan(r.URL.Query().Get("s"), d.Text))
	title, titleMarks, _ := display.Mark(d.Title, qsc.Span{Start: 0, End: len(d.Title)}, titleHits)
	// The count is of every mark the page shows, the title's too.
	view := docView{Doc: d, Title: template.HTML(title), Paragraphs: paras, Terms: terms, Marks: marks + titleMarks, Back: back, Missing: missing}
	if err := docTemplate.Execute(&buf, view); err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	if missing {
		w.WriteHeader(http.StatusNotFound)
	}
	w.Write(buf.Bytes())
}
