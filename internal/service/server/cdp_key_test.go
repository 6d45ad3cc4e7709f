package server

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// TestBrowserKey: on a server with keys, the page asks for the key before the first
// search (an unknown key is asked again), keeps it for the tab (sessionStorage, nothing
// in the URL) and sends it; a result opens the document's page, which the server locks
// to a browser that navigates there (no key in a navigation): the page asks nothing
// again, fetches the document with the key and shows it; the way back searches again
// with the key.
func TestBrowserKey(t *testing.T) {
	b := startBrowser(t)
	s, err := New(Config{Engine: servicetest.Engine(t), Index: demoIndex(t), Keys: testKeys(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p, err := b.open(ctx, ts.URL+"/?q=police+arrested")
	if err != nil {
		t.Fatal(err)
	}
	dialogOpen := `!!document.getElementById("key-dialog") && document.getElementById("key-dialog").open && document.activeElement && document.activeElement.id === "key"`
	if err := p.settle(ctx, dialogOpen); err != nil {
		t.Fatal(err)
	}
	var msg string
	if err := p.eval(ctx, `document.getElementById("key-message").textContent`, &msg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "Enter the key you were given") {
		t.Errorf("the dialog says %q", msg)
	}
	p.screenshot(ctx, t, "key-asked.png")

	// A wrong key is asked again.
	if err := p.typeText(ctx, "not-the-key-0123456789"); err != nil {
		t.Fatal(err)
	}
	if err := p.press(ctx, "Enter"); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, dialogOpen+` && document.getElementById("key-message").textContent.includes("not accepted")`); err != nil {
		t.Fatal(err)
	}
	p.screenshot(ctx, t, "key-wrong.png")

	if err := p.typeText(ctx, searchText); err != nil {
		t.Fatal(err)
	}
	if err := p.press(ctx, "Enter"); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `!document.getElementById("key-dialog").open && document.querySelectorAll("#results a.title").length > 0 && document.getElementById("status").textContent.includes("round trip")`); err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Key, Local, URL string
	}
	if err := p.eval(ctx, `({key: sessionStorage.getItem("qsc-key"), local: String(localStorage.length), url: location.href})`, &stored); err != nil {
		t.Fatal(err)
	}
	if stored.Key != searchText || stored.Local != "0" || strings.Contains(stored.URL, searchText) {
		t.Errorf("kept: %+v", stored)
	}
	p.screenshot(ctx, t, "key-results.png")

	// A result's page: locked for the navigation, shown with the key.
	var title string
	if err := p.eval(ctx, `document.querySelector("#results a.title").textContent`, &title); err != nil {
		t.Fatal(err)
	}
	if err := p.eval(ctx, `document.querySelector("#results a.title").click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `location.pathname.startsWith("/doc/") && !!document.getElementById("doc-title")`); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Title, Heading, Text, Path string }
	if err := p.eval(ctx, `({title: document.title, heading: document.getElementById("doc-title").textContent, text: document.getElementById("doc-text").textContent, path: location.pathname})`, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Heading != title || doc.Title != title+" · qsc" || !strings.Contains(strings.ToLower(doc.Text), "police") {
		t.Errorf("document page: %+v, want %q", doc, title)
	}
	p.screenshot(ctx, t, "key-document.png")

	// Back to the results, searched again with the key, no dialog.
	if err := p.eval(ctx, `document.getElementById("back").click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `location.pathname === "/" && document.getElementById("status").textContent.includes("round trip")`); err != nil {
		t.Fatal(err)
	}
	var asked bool
	if err := p.eval(ctx, `!!document.getElementById("key-dialog")`, &asked); err != nil {
		t.Fatal(err)
	}
	if asked {
		t.Error("the page asked for the key again in the same tab")
	}

	// A new tab starts without the key: the document's page asks for it, and shows
	// nothing of the document before.
	p2, err := b.open(ctx, ts.URL+doc.Path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p2.settle(ctx, dialogOpen); err != nil {
		t.Fatal(err)
	}
	var shell string
	if err := p2.eval(ctx, `document.body.textContent`, &shell); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(shell, doc.Heading) {
		t.Errorf("the locked page shows the document: %q", shell)
	}
	p2.screenshot(ctx, t, "key-locked-document.png")
	if err := p2.typeText(ctx, adminText); err != nil {
		t.Fatal(err)
	}
	if err := p2.press(ctx, "Enter"); err != nil {
		t.Fatal(err)
	}
	if err := p2.settle(ctx, `!!document.getElementById("doc-title") && document.getElementById("doc-title").textContent === `+quote(doc.Heading)); err != nil {
		t.Fatal(err)
	}
}
