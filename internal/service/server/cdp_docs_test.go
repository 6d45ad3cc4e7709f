package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/demo"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// demoIndex returns an index in memory of the embedded demo collection, with the
// annotations of the test engine, closed at the end of the test.
func demoIndex(tb testing.TB) *docindex.Index {
	tb.Helper()
	docs, err := demo.Load()
	if err != nil {
		tb.Fatal(err)
	}
	idx, err := docindex.FromDocs(context.Background(), servicetest.Engine(tb), docs)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { idx.Close() })
	return idx
}

// demoServer returns a test server over the demo collection, closed at the end of the test.
func demoServer(t *testing.T) *httptest.Server {
	t.Helper()
	s, err := New(Config{Engine: servicetest.Engine(t), Index: demoIndex(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

// screenshot saves a PNG of the tab to $QSC_SCREENSHOTS/name, when that variable names a
// directory (to look at the page); else it only checks that Chromium can make one.
func (p *tab) screenshot(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	var shot struct {
		Data string `json:"data"`
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || len(png) < 1000 {
		t.Fatalf("screenshot %s: %d bytes, %v", name, len(png), err)
	}
	if dir := os.Getenv("QSC_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// settle polls a boolean expression until it is true, across page loads (an evaluation
// that fails while the next document loads is tried again).
func (p *tab) settle(ctx context.Context, expr string) error {
	for {
		var ok bool
		err := p.eval(ctx, expr, &ok)
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// resultsPage is what the search page shows of its results.
const resultsPage = `(() => ({
  status: document.getElementById("status").textContent,
  pager: !document.getElementById("pager").hidden,
  prev: document.getElementById("prev").disabled,
  next: document.getElementById("next").disabled,
  info: document.getElementById("page-info").textContent,
  search: location.search,
  titles: Array.from(document.querySelectorAll("#results a.title")).map(a => a.textContent),
  links: Array.from(document.querySelectorAll("#results a.title")).map(a => a.getAttribute("href")),
  snippet: (document.querySelector("#results .snippet") || {dataset: {}}).dataset.text || "",
}))()`

type resultsShown struct {
	Status, Info, Search, Snippet string
	Pager, Prev, Next             bool
	Titles, Links                 []string
}

// TestBrowserDocuments: over the demo collection, a search with more than one page of
// results shows Next and Previous; Next shows the second page (and the URL says so); a
// result's title opens the server's page of the whole document, whose link leads back to
// the same page of results.
func TestBrowserDocuments(t *testing.T) {
	b := startBrowser(t)
	ts := demoServer(t)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p, err := b.open(ctx, ts.URL+"/?q=food+-pizza&budget=120")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `document.querySelectorAll("#results a.title").length > 0 && document.getElementById("status").textContent.includes("round trip")`); err != nil {
		t.Fatal(err)
	}
	var first resultsShown
	if err := p.eval(ctx, resultsPage, &first); err != nil {
		t.Fatal(err)
	}
	if !first.Pager || !first.Prev || first.Next || !strings.HasPrefix(first.Info, "Page 1 of ") || len(first.Titles) != 10 ||
		!strings.Contains(first.Status, "Showing 1–10 of ") || !strings.Contains(first.Status, "for food.") {
		t.Fatalf("first page: %+v", first)
	}
	p.screenshot(ctx, t, "results-page1.png")
	var titleMarks int
	if err := p.eval(ctx, `document.querySelectorAll("#results a.title mark").length`, &titleMarks); err != nil || titleMarks == 0 {
		t.Errorf("no title marks the query's words: %d %v", titleMarks, err)
	}

	if err := p.eval(ctx, `document.getElementById("next").click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `document.getElementById("status").textContent.includes("Showing 11–")`); err != nil {
		t.Fatal(err)
	}
	var second resultsShown
	if err := p.eval(ctx, resultsPage, &second); err != nil {
		t.Fatal(err)
	}
	if second.Prev || !strings.HasPrefix(second.Info, "Page 2 of ") || !strings.Contains(second.Search, "page=2") || len(second.Titles) == 0 {
		t.Fatalf("second page: %+v", second)
	}
	for _, l := range second.Links {
		if slices.Contains(first.Links, l) {
			t.Errorf("%s is on both pages", l)
		}
	}
	p.screenshot(ctx, t, "results-page2.png")

	// The title opens the whole document, rendered by the server.
	if err := p.eval(ctx, `document.querySelector("#results a.title").click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `location.pathname.startsWith("/doc/") && document.readyState === "complete" && !!document.getElementById("doc-title")`); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Title, Text, Back, Path string
		Paragraphs              int
	}
	if err := p.eval(ctx, `(() => ({title: document.getElementById("doc-title").textContent, text: document.getElementById("doc-text").textContent,
		back: document.getElementById("back").getAttribute("href"), path: location.pathname + location.search,
		paragraphs: document.querySelectorAll("#doc-text p").length}))()`, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Title != second.Titles[0] || doc.Path != second.Links[0] || doc.Paragraphs == 0 || doc.Back != "/?page=2&q=food+-pizza" {
		t.Errorf("document page: %+v; result %q %q", doc, second.Titles[0], second.Links[0])
	}
	if strings.Contains(strings.ToLower(doc.Text), "pizza") || !strings.Contains(strings.ToLower(doc.Text), "food") {
		t.Errorf("the document of a search for food -pizza: %q", doc.Text)
	}
	p.screenshot(ctx, t, "document.png")

	// Back to the same page of results.
	if err := p.eval(ctx, `document.getElementById("back").click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `location.pathname === "/" && document.getElementById("status").textContent.includes("Showing 11–")`); err != nil {
		t.Fatal(err)
	}

	// A snippet's "in context" opens the document at its sentence, shown apart and
	// scrolled to, with the search's words marked.
	var snippet struct{ Text, Href string }
	if err := p.eval(ctx, `(() => { const a = document.querySelector("#results .snippet a.context");
		return {text: a.closest(".snippet").dataset.text, href: a.getAttribute("href")}; })()`, &snippet); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snippet.Href, "&s=") || !strings.HasSuffix(snippet.Href, "#context") {
		t.Fatalf("in context link %q", snippet.Href)
	}
	if err := p.eval(ctx, `document.querySelector("#results .snippet a.context").click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `location.pathname.startsWith("/doc/") && document.readyState === "complete" && !!document.getElementById("context")`); err != nil {
		t.Fatal(err)
	}
	var shown struct {
		Context      string
		Top, Height  float64
		Marks        int
		ContextMarks int
	}
	if err := p.eval(ctx, `(() => { const c = document.getElementById("context"); const r = c.getBoundingClientRect();
		return {context: c.textContent, top: r.top, height: window.innerHeight, marks: document.querySelectorAll("#doc-text mark").length,
			contextMarks: c.querySelectorAll("mark").length}; })()`, &shown); err != nil {
		t.Fatal(err)
	}
	for _, w := range strings.Fields(strings.NewReplacer("…", " ").Replace(snippet.Text)) {
		if !strings.Contains(shown.Context, w) {
			t.Errorf("the sentence in context %q lacks the snippet's %q", shown.Context, w)
		}
	}
	if shown.Top < 0 || shown.Top > shown.Height || shown.Marks == 0 || shown.ContextMarks == 0 {
		t.Errorf("in context: %+v", shown)
	}
	p.screenshot(ctx, t, "document-context.png")
}

// TestBrowserHistory: a search asked for and a page turned are history entries, so that
// Back returns to the results before; a page past the last one says so; "/" focuses the
// search box; a "…" is joined to the word before it by a no-break space.
func TestBrowserHistory(t *testing.T) {
	b := startBrowser(t)
	ts := demoServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p, err := b.open(ctx, ts.URL+"/?q=police&budget=60")
	if err != nil {
		t.Fatal(err)
	}
	shows := func(status string) {
		t.Helper()
		if err := p.settle(ctx, `document.getElementById("status").textContent.includes(`+strconvQuote(status)+`)`); err != nil {
			var got resultsShown
			p.eval(ctx, resultsPage, &got)
			t.Fatalf("waiting for %q: %v; shown %+v", status, err, got)
		}
	}
	shows("for police.")
	if err := p.eval(ctx, `(() => { const q = document.getElementById("q"); q.value = "food"; q.form.requestSubmit(); })()`, nil); err != nil {
		t.Fatal(err)
	}
	shows("Showing 1–10 of")
	shows("for food.")
	if err := p.eval(ctx, `document.getElementById("next").click()`, nil); err != nil {
		t.Fatal(err)
	}
	shows("Showing 11–")
	var focused string
	if err := p.eval(ctx, `document.activeElement.className`, &focused); err != nil || focused != "title" {
		t.Errorf("focus after Next: %q %v", focused, err)
	}
	var nbsp bool
	if err := p.eval(ctx, `Array.from(document.querySelectorAll("#results .text")).some(e => e.textContent.includes("\u00a0…")) &&
		!Array.from(document.querySelectorAll("#results .text")).some(e => e.textContent.includes(" …"))`, &nbsp); err != nil || !nbsp {
		t.Errorf("no-break spaces before the ellipses: %v %v", nbsp, err)
	}
	if err := p.eval(ctx, `history.back()`, nil); err != nil {
		t.Fatal(err)
	}
	shows("Showing 1–10 of")
	if err := p.eval(ctx, `history.back()`, nil); err != nil {
		t.Fatal(err)
	}
	shows("for police.")
	var q string
	if err := p.eval(ctx, `document.getElementById("q").value`, &q); err != nil || q != "police" {
		t.Errorf("the box after Back: %q %v", q, err)
	}
	// "/" from the page's body focuses the box.
	if err := p.eval(ctx, `document.getElementById("q").blur(); document.body.focus()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.press(ctx, "/"); err != nil {
		t.Fatal(err)
	}
	if err := p.eval(ctx, `document.activeElement.id`, &focused); err != nil || focused != "q" {
		t.Errorf(`focus after "/": %q %v`, focused, err)
	}
	p2, err := b.open(ctx, ts.URL+"/?q=food&page=999")
	if err != nil {
		t.Fatal(err)
	}
	p = p2
	shows("Page 999 is past the last page, ")
	var shown resultsShown
	if err := p.eval(ctx, resultsPage, &shown); err != nil || strings.Contains(shown.Info, "999") {
		t.Errorf("a page past the end: %+v %v", shown, err)
	}
}

// strconvQuote quotes s as a JavaScript string literal (JSON's quoting).
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserOwnURL: a result whose document has an address of its own links its title
// there, and the server's page of it beside; one without links its title to the server's
// page.
func TestBrowserOwnURL(t *testing.T) {
	b := startBrowser(t)
	idx, err := docindex.FromDocs(context.Background(), servicetest.Engine(t), []docfile.Doc{
		{ID: "billing/refunds.md", Title: "Refunds", Text: "We refund an invoice within five days.", URL: "https://help.example.com/docs/billing/refunds"},
		{ID: "billing/invoices.md", Title: "Invoices", Text: "Every invoice is sent by e-mail."},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	s, err := New(Config{Engine: servicetest.Engine(t), Index: idx, Collection: CollectionOwn})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := b.open(ctx, ts.URL+"/?q=invoice")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `document.querySelectorAll("#results a.title").length === 2`); err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := p.eval(ctx, `Object.fromEntries(Array.from(document.querySelectorAll("#results li.result")).map(li =>
		[li.querySelector("a.title").textContent, li.querySelector("a.title").getAttribute("href") + " | " +
			((li.querySelector("a.server-page") || {getAttribute: () => ""}).getAttribute("href"))]))`, &got); err != nil {
		t.Fatal(err)
	}
	if r := got["Refunds"]; !strings.HasPrefix(r, "https://help.example.com/docs/billing/refunds | /doc/billing%2Frefunds.md?") &&
		!strings.HasPrefix(r, "https://help.example.com/docs/billing/refunds | /doc/billing/refunds.md?") {
		t.Errorf("a document with a URL: %q", r)
	}
	if r := got["Invoices"]; !strings.HasPrefix(r, "/doc/") || !strings.HasSuffix(r, " | ") {
		t.Errorf("a document without one: %q", r)
	}
}
