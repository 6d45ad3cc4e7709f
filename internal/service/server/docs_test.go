package server

import (
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// TestSearchPages: from, page and k select disjoint pages of one ranking; the answers
// and their errors follow openapi.yaml.
func TestSearchPages(t *testing.T) {
	var docs []docfile.Doc
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		docs = append(docs, docfile.Doc{ID: id, Text: "The river " + id + " flooded the town. " + strings.Repeat("The river rose again. ", len(id)+int(id[0]-'a'))})
	}
	idx, err := docindex.FromDocs(context.Background(), servicetest.Engine(t), docs)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ts, _ := newServer(t, Config{Index: idx})
	defer ts.Close()
	page := func(query string) searchResponse {
		t.Helper()
		ex := do(t, ts, "GET", "/v1/search?q=river&budget=40&"+query, "", true)
		var resp searchResponse
		if ex.status != 200 || json.Unmarshal(ex.body, &resp) != nil {
			t.Fatalf("%s: %d %s", query, ex.status, ex.body)
		}
		return resp
	}
	ids := func(r searchResponse) []string {
		var out []string
		for _, x := range r.Results {
			out = append(out, x.ID)
		}
		return out
	}
	all := ids(page("k=10"))
	var paged []string
	for p := 1; p <= 3; p++ {
		r := page("k=3&page=" + string(rune('0'+p)))
		if r.Total != 7 || r.K != 3 || r.From != 3*(p-1) {
			t.Errorf("page %d: total %d, k %d, from %d", p, r.Total, r.K, r.From)
		}
		paged = append(paged, ids(r)...)
	}
	if len(all) != 7 || !slices.Equal(all, paged) {
		t.Errorf("pages %v, whole %v", paged, all)
	}
	if got := ids(page("k=2&from=5")); !slices.Equal(got, all[5:]) {
		t.Errorf("from=5: %v, want %v", got, all[5:])
	}
	// The budget of snippets shown without "…" counts the words: the same documents, and
	// every snippet's plain rendering fits.
	if r := page("k=10&budget_counts=tokens"); !slices.Equal(ids(r), all) || r.BudgetCounts != "tokens" {
		t.Errorf("budget_counts=tokens: %v (%q), want %v", ids(r), r.BudgetCounts, all)
	} else {
		for _, x := range r.Results {
			for _, sn := range x.Snippets {
				if n := utf8.RuneCountInString(sn.Plain); n > 40 {
					t.Errorf("budget_counts=tokens: %q is %d characters, budget 40", sn.Plain, n)
				}
			}
		}
	}
	if r := page("k=10"); r.BudgetCounts != "display" {
		t.Errorf("the default budget_counts is %q, want display", r.BudgetCounts)
	}
	// The nested decoding, as the page's checkbox asks for it.
	if r := page("k=10&decoding=nested"); !slices.Equal(ids(r), all) {
		t.Errorf("decoding=nested: %v, want %v", ids(r), all)
	}
	// A fuzzy term within bleve's edit distance is searched.
	if ex := do(t, ts, "GET", "/v1/search?q=rivr~2", "", true); ex.status != 200 || !strings.Contains(string(ex.body), `"total":7`) {
		t.Errorf("rivr~2: %d %s", ex.status, ex.body)
	}
	// Patterns alone find documents, with no word to mark: no snippets.
	for _, q := range []string{"riv*", "%2Fri.er%2F"} {
		var r searchResponse
		ex := do(t, ts, "GET", "/v1/search?q="+q, "", true)
		if ex.status != 200 || json.Unmarshal(ex.body, &r) != nil || r.Total != 7 || len(r.Terms) != 0 || len(r.Results) != 7 || len(r.Results[0].Snippets) != 0 {
			t.Errorf("%s: %d %s", q, ex.status, ex.body)
		}
	}
	for _, c := range []struct{ path, want string }{
		{"/v1/search?q=%2F$%2F", "parameter q: invalid query: zero width assertions not allowed"},
		{"/v1/search?q=river&from=2&page=2", "not both"},
		{"/v1/search?q=river&page=0", "parameter page"},
		{"/v1/search?q=river&from=10001", "parameter from must be an integer from 0 to 10000"},
		{"/v1/search?q=%22river", "parameter q: invalid query"},
		// Parsed, but more than bleve's fuzzy search takes (found by FuzzHandler: a 500).
		{"/v1/search?q=A0~10", "the edit distance of a fuzzy term must be 0 to 2"},
		{"/v1/search?q=river+-rive~3", "must be 0 to 2"},
		{"/v1/search?q=0+%2F$%2F", "parameter q: invalid query: zero width assertions not allowed"},
		{"/v1/search?q=river&decoding=best", `parameter decoding: \"best\" is not one of snippet, nested, paper`},
		{"/v1/search?q=nothingmatches&budget_counts=words", `parameter budget_counts: \"words\" is not one of tokens, display, columns`},
	} {
		if ex := do(t, ts, "GET", c.path, "", false); ex.status != 400 || !strings.Contains(string(ex.body), c.want) {
			t.Errorf("%s: %d %s", c.path, ex.status, ex.body)
		}
	}
}

// TestMarked checks the doc page's paragraphs: split at blank lines (of white space too),
// escaped, hits in <mark>, a phrase's hits in one, none across a paragraph's end.
func TestMarked(t *testing.T) {
	text := "a <b> c\r\n d\n \t\n\ne f g\n"
	if got := paragraphs(text); !slices.Equal(got, []qsc.Span{{Start: 0, End: 11}, {Start: 16, End: 21}}) {
		t.Errorf("paragraphs: %v", got)
	}
	// Hits: "<b>", "c" and "d" (one mark, escaped: white space alone between them), and
	// "e", "f" and "g" (one).
	hits := []qsc.Span{{Start: 2, End: 5}, {Start: 6, End: 7}, {Start: 10, End: 11}, {Start: 16, End: 17}, {Start: 18, End: 19}, {Start: 20, End: 21}}
	paras, marks := marked(text, hits, qsc.Span{})
	want := []template.HTML{"a <mark>&lt;b&gt; c\r\n d</mark>", "<mark>e f g</mark>"}
	if !slices.Equal(paras, want) || marks != 2 {
		t.Errorf("marked: %q, %d marks; want %q, 2", paras, marks, want)
	}
	paras, marks = marked(text, []qsc.Span{{Start: 0, End: 1}, {Start: 18, End: 19}}, qsc.Span{})
	if want := []template.HTML{"<mark>a</mark> &lt;b&gt; c\r\n d", "e <mark>f</mark> g"}; !slices.Equal(paras, want) || marks != 2 {
		t.Errorf("marked: %q, %d marks; want %q", paras, marks, want)
	}
	// A context span is shown apart in the first paragraph it meets, cut at its end.
	paras, marks = marked(text, []qsc.Span{{Start: 6, End: 7}}, qsc.Span{Start: 6, End: 17})
	if want := []template.HTML{`a &lt;b&gt; <span class="context" id="context"><mark>c</mark>` + "\r\n d</span>", "e f g"}; !slices.Equal(paras, want) || marks != 1 {
		t.Errorf("marked with a context: %q, %d marks; want %q", paras, marks, want)
	}
	if paras, marks = marked("", nil, qsc.Span{}); len(paras) != 0 || marks != 0 {
		t.Errorf("marked of no text: %q %d", paras, marks)
	}
}

// TestDocuments: GET /v1/documents/{id} and the page GET /doc/{id}: the whole document,
// escaped, with the security headers; 404 for an unknown id.
func TestDocuments(t *testing.T) {
	ts, _ := newServer(t, Config{})
	defer ts.Close()
	ex := do(t, ts, "GET", "/v1/documents/d3", "", true)
	var d documentResponse
	if ex.status != 200 || json.Unmarshal(ex.body, &d) != nil || d.ID != "d3" || d.Link != "/doc/d3" || !strings.Contains(d.Text, "<Solihull>") {
		t.Errorf("document: %d %s", ex.status, ex.body)
	}
	// With ?q=, the search's terms and their spans in the text and the title.
	ex = do(t, ts, "GET", "/v1/documents/d3?q=%22Birmingham+poet%22+three", "", true)
	var m documentResponse
	if ex.status != 200 || json.Unmarshal(ex.body, &m) != nil || !slices.Equal(m.Terms, []string{"Birmingham poet", "three"}) ||
		!slices.Equal(m.Hits, []qsc.Span{{Start: 0, End: 10}, {Start: 11, End: 15}}) || !slices.Equal(m.TitleHits, []qsc.Span{{Start: 0, End: 5}}) {
		t.Errorf("document with q: %d %s", ex.status, ex.body)
	}
	if ex := do(t, ts, "GET", "/v1/documents/d3?q=-poet", "", true); ex.status != 200 || !strings.Contains(string(ex.body), `"terms":[]`) || strings.Contains(string(ex.body), "hits") {
		t.Errorf("document with a query of no word: %d %s", ex.status, ex.body)
	}
	for _, q := range []string{"%22open", "", "A0~10"} {
		if ex := do(t, ts, "GET", "/v1/documents/d3?q="+q, "", false); ex.status != 400 || !strings.Contains(string(ex.body), "parameter q") {
			t.Errorf("document with q=%s: %d %s", q, ex.status, ex.body)
		}
	}
	if ex := do(t, ts, "GET", "/v1/documents/nope", "", true); ex.status != 404 || !strings.Contains(string(ex.body), `no document with id \"nope\"`) {
		t.Errorf("unknown document: %d %s", ex.status, ex.body)
	}
	ex = do(t, ts, "GET", "/doc/d3?q=poet", "", true)
	page := string(ex.body)
	if ex.status != 200 || ex.header.Get("Content-Type") != "text/html; charset=utf-8" ||
		!strings.Contains(page, "Birmingham &amp; &lt;Solihull&gt;.") || strings.Contains(page, "<Solihull>") ||
		!strings.Contains(page, `<a id="back" href="/?q=poet">`) || !strings.Contains(page, `<h1 id="doc-title" dir="auto">Three</h1>`) {
		t.Errorf("document page: %d %v\n%s", ex.status, ex.header, page)
	}
	// The search's words are marked, escaped, and counted; a phrase's words share a mark.
	if !strings.Contains(page, "Birmingham <mark>poet</mark> Benjamin") || !strings.Contains(page, `Marked: “poet” (1 place)`) {
		t.Errorf("document page for q=poet: marks\n%s", page)
	}
	ex = do(t, ts, "GET", "/doc/d3?q=%22Birmingham+poet%22+Solihull+three", "", true)
	page = string(ex.body)
	for _, want := range []string{
		"<mark>Birmingham poet</mark> Benjamin", "in Birmingham &amp; &lt;<mark>Solihull</mark>&gt;.",
		`<h1 id="doc-title" dir="auto"><mark>Three</mark></h1>`,
		`Marked: “Birmingham poet”, “Solihull”, “three” (3 places)`, // the title's mark counted too
	} {
		if !strings.Contains(page, want) {
			t.Errorf("document page for a phrase: lacks %s\n%s", want, page)
		}
	}
	// ?s= shows a snippet's sentence apart, for its "in context" link; a span that is not
	// one of the text is ignored.
	page = string(do(t, ts, "GET", "/doc/d3?q=poet&s=0-24", "", true).body)
	if !strings.Contains(page, `<p dir="auto"><span class="context" id="context">Birmingham <mark>poet</mark> Benjamin</span> Zephaniah`) {
		t.Errorf("document page with s=0-24:\n%s", page)
	}
	for _, bad := range []string{"20-0", "5-5", "x-9", "-1-5", "0-100000", "0", "0-"} {
		if page := string(do(t, ts, "GET", "/doc/d3?q=poet&s="+bad, "", true).body); strings.Contains(page, "context") ||
			!strings.Contains(page, "Birmingham <mark>poet</mark> Benjamin") {
			t.Errorf("document page with s=%s:\n%s", bad, page)
		}
	}
	for q, want := range map[string]string{
		"nothing":       `Not in the text: “nothing”`, // found in no field: nothing marked
		"%22unbalanced": `<p class="meta"><span id="doc-id">d3</span></p>`,
		"-poet":         `<p class="meta"><span id="doc-id">d3</span></p>`,
	} {
		page := string(do(t, ts, "GET", "/doc/d3?q="+q, "", true).body)
		if !strings.Contains(page, want) || strings.Contains(page, "<mark>") {
			t.Errorf("document page for q=%s: want %s and no mark\n%s", q, want, page)
		}
	}
	for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
		if ex.header.Get(k) != v {
			t.Errorf("document page: %s %q", k, ex.header.Get(k))
		}
	}
	if !strings.Contains(ex.header.Get("Content-Security-Policy"), "default-src") {
		t.Errorf("document page: CSP %q", ex.header.Get("Content-Security-Policy"))
	}
	// A link to a document gone since is a page that says so, for a browser, not JSON.
	if ex := do(t, ts, "GET", "/doc/no%3Cpe", "", true); ex.status != 404 || !strings.HasPrefix(ex.header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(ex.body), `no document with the id “<span id="doc-id">no&lt;pe</span>”`) {
		t.Errorf("unknown document page: %d %s", ex.status, ex.body)
	}
	if ex := do(t, ts, "POST", "/doc/d3", "", false); ex.status != http.StatusMethodNotAllowed {
		t.Errorf("POST /doc/d3: %d %s", ex.status, ex.body)
	}
	// A document's own URL becomes a link only when it is http or https.
	idx, err := docindex.FromDocs(context.Background(), nil, []docfile.Doc{{ID: "u", Text: "Dogs bark.", URL: "https://example.org/?a=1&b=<2>"}})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ts2, _ := newServer(t, Config{Index: idx})
	defer ts2.Close()
	ex = do(t, ts2, "GET", "/doc/u", "", true)
	if !strings.Contains(string(ex.body), `href="https://example.org/?a=1&amp;b=%3c2%3e"`) {
		t.Errorf("document URL: %s", ex.body)
	}
	// No collection: 503.
	s, err := New(Config{Engine: servicetest.Engine(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/v1/documents/d1", "/doc/d1"} {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusServiceUnavailable {
			t.Errorf("%s without a collection: %d", path, rec.Code)
		}
	}
}
