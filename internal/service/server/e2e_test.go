package server

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// shown is what the page shows, read from the DOM.
type shown struct {
	Focus    string `json:"focus"`
	Status   string `json:"status"`
	Budget   string `json:"budget"`
	Ellipsis bool   `json:"ellipsis"`
	Snippets []struct {
		HTML  string   `json:"html"`
		Text  string   `json:"text"`
		Shown string   `json:"shown"`
		Marks []string `json:"marks"`
		Chars string   `json:"chars"`
	} `json:"snippets"`
}

const readPage = `(() => ({
  focus: document.activeElement ? document.activeElement.id : "",
  status: document.getElementById("status").textContent,
  budget: document.getElementById("budget").value,
  ellipsis: document.getElementById("ellipsis").checked,
  snippets: Array.from(document.querySelectorAll("#results .snippet")).map(li => ({
    html: li.querySelector(".text").innerHTML,
    text: li.dataset.text,
    shown: li.querySelector(".text").textContent,
    marks: Array.from(li.querySelectorAll("mark")).map(m => m.textContent),
    chars: li.querySelector(".chars").textContent,
  })),
}))()`

// TestBrowserSearch loads the page over the embedded demo collection in headless
// Chromium, types a query with the keyboard and checks the snippets; then moves the
// budget slider and the ellipsis toggle with the keyboard and checks again.
func TestBrowserSearch(t *testing.T) {
	b := startBrowser(t)
	ts := demoServer(t)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := b.open(ctx, ts.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	// The page loads with the keyboard in the search box.
	if err := p.waitFor(ctx, `document.readyState === "complete" && document.activeElement && document.activeElement.id === "q"`); err != nil {
		t.Fatal(err)
	}
	if err := p.typeText(ctx, "police arrested"); err != nil {
		t.Fatal(err)
	}
	if err := p.press(ctx, "Enter"); err != nil {
		t.Fatal(err)
	}
	if err := p.waitFor(ctx, `document.querySelectorAll("#results .snippet").length > 0 && document.getElementById("status").textContent.includes("round trip")`); err != nil {
		t.Fatal(err)
	}
	var st shown
	if err := p.eval(ctx, readPage, &st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Status, "for police, arrested") || !strings.Contains(st.Status, " ms") {
		t.Errorf("status %q", st.Status)
	}
	checkSnippets(t, st, 100)

	// Tab to the slider (past the Search button), lower the budget by 10 steps of 5.
	for _, k := range []string{"Tab", "Tab"} {
		if err := p.press(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 {
		if err := p.press(ctx, "ArrowLeft"); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.waitFor(ctx, `Array.from(document.querySelectorAll("#results .snippet .chars")).every(c => c.textContent.includes("of 50 characters")) && document.querySelectorAll("#results .snippet").length > 0`); err != nil {
		t.Fatal(err)
	}
	if err := p.eval(ctx, readPage, &st); err != nil {
		t.Fatal(err)
	}
	if st.Focus != "budget" || st.Budget != "50" {
		t.Errorf("after Tab Tab and 10 × ArrowLeft: focus %q, budget %q", st.Focus, st.Budget)
	}
	checkSnippets(t, st, 50)
	cut := 0
	for _, sn := range st.Snippets {
		if strings.Contains(sn.Shown, "…") {
			cut++
		}
	}
	if cut == 0 {
		t.Errorf("ellipsis on, budget 50: no snippet shows a cut: %+v", st.Snippets)
	}

	// Tab to the ellipsis toggle and turn it off with the space bar.
	if err := p.press(ctx, "Tab"); err != nil {
		t.Fatal(err)
	}
	if err := p.press(ctx, " "); err != nil {
		t.Fatal(err)
	}
	if err := p.waitFor(ctx, `!document.getElementById("ellipsis").checked`); err != nil {
		t.Fatal(err)
	}
	// Without "…" the page asks again, with the budget counting the words.
	if err := p.waitFor(ctx, `performance.getEntriesByType("resource").some(e => e.name.includes("/v1/search?") && e.name.includes("budget_counts=tokens")) &&
		document.getElementById("results").getAttribute("aria-busy") !== "true"`); err != nil {
		t.Fatal(err)
	}
	if err := p.eval(ctx, readPage, &st); err != nil {
		t.Fatal(err)
	}
	checkSnippets(t, st, 50)
	for _, sn := range st.Snippets {
		if strings.Contains(sn.Shown, "…") {
			t.Errorf("ellipsis off: snippet %q shows a cut", sn.Shown)
		}
	}
}

// checkSnippets checks what the page shows against the query "police arrested" and the
// budget.
func checkSnippets(t *testing.T, st shown, budget int) {
	t.Helper()
	if len(st.Snippets) == 0 {
		t.Fatalf("no snippets shown; status %q", st.Status)
	}
	for _, sn := range st.Snippets {
		if n := utf8.RuneCountInString(sn.Text); n > budget || n == 0 {
			t.Errorf("snippet %q: %d characters, budget %d", sn.Text, n, budget)
		}
		if len(sn.Marks) == 0 {
			t.Errorf("snippet %q marks no query term", sn.HTML)
		}
		for _, m := range sn.Marks {
			for _, w := range strings.Fields(strings.ToLower(m)) {
				if !strings.HasPrefix(w, "polic") && !strings.HasPrefix(w, "arrest") {
					t.Errorf("snippet %q marks %q, not a query term", sn.HTML, m)
				}
			}
		}
		if !strings.Contains(sn.Chars, "of "+strconv.Itoa(budget)+" characters") {
			t.Errorf("snippet %q: count %q", sn.Text, sn.Chars)
		}
		// The budget counts what the page shows, "…" marks included, and so does the count.
		if n := utf8.RuneCountInString(sn.Shown); n > budget || !strings.HasPrefix(sn.Chars, " ("+strconv.Itoa(n)+" of ") {
			t.Errorf("snippet %q shows %d characters, budget %d, count %q", sn.Shown, n, budget, sn.Chars)
		}
	}
}
