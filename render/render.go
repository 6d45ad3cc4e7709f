// Package render turns a qsc.Snippet (a compression's is qsc.Result.Snippet) into text for
// a search page: plain, with "…" where words were removed, or HTML with the query terms in
// <mark>.
//
// Every function is a pure function of the document and a snippet of it. The kept runs keep
// their original spelling (no space before a comma, typographic quotes as written); any run
// of white space or control characters inside a run is shown as one space; runs are joined
// by a space, or by none before closing punctuation, so that a final period after a cut
// sits against the last word. The functions are safe for any input: spans out of the
// document's range, reversed, overlapping or not ascending are clamped or skipped, invalid
// UTF-8 is shown as U+FFFD, and HTML output is always escaped.
//
// The renderings are those the library measures when a budget counts the display
// (qsc.BudgetDisplay, the default of snippets): Plain and Ellipsis then fit in the budget.
// BudgetCounts gives the budget mode that counts what a rendering shows: the one place
// that says so for the highlighter's formats and qsc snippets --plain.
package render

import (
	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/display"
)

// Plain returns the kept runs of s joined by single spaces (none before closing
// punctuation), in their original spelling, after its turn's label when it has one
// (qsc.Snippet.Shown, as every rendering shows it). It is s.Text for a snippet of qsc.
func Plain(doc string, s qsc.Snippet) string {
	return display.Render(doc, s.Sentence, s.Shown(), s.Hits, false, false)
}

// Ellipsis returns the kept runs of s joined by " … " where words were removed, with a
// leading "… " when words were removed before the first run and a trailing " …" when words
// were removed after the last one, as search pages show. Words are letters and digits: a
// gap that holds none (a dropped comma) is shown as a space, or as nothing at the ends (a
// dropped final period), and a kept run of punctuation alone between cuts is left out.
func Ellipsis(doc string, s qsc.Snippet) string {
	return display.Render(doc, s.Sentence, s.Shown(), s.Hits, true, false)
}

// HTML returns the snippet as HTML: the text of Plain (or of Ellipsis when ellipsis is
// true), escaped, with <mark>…</mark> around the query hits. Hits separated only by white
// space (the words of a phrase) share one <mark>.
func HTML(doc string, s qsc.Snippet, ellipsis bool) string {
	return display.Render(doc, s.Sentence, s.Shown(), s.Hits, ellipsis, true)
}

// BudgetCounts returns the budget mode (qsc.SnippetRequest.BudgetCounts) that counts what
// a rendering shows, so that a snippet asked for with it fits its budget as shown, with no
// room kept for "…" marks that are not shown: qsc.BudgetDisplay for the renderings with
// marks (Ellipsis, and HTML with ellipsis true), which counts the marks and their spaces,
// and qsc.BudgetTokens for those without (Plain, and HTML with ellipsis false), whose text
// the kept tokens joined by single spaces bound. It never returns qsc.BudgetColumns, which
// a caller showing the text in a fixed-width box asks for itself. It does not allocate.
func BudgetCounts(ellipsis bool) string {
	if ellipsis {
		return qsc.BudgetDisplay
	}
	return qsc.BudgetTokens
}

// Rendered is a snippet with its four renderings: the snippet of the JSON answers of
// POST /v1/snippets and GET /v1/search, and of qsc snippets --json.
type Rendered struct {
	qsc.Snippet
	// Plain is Plain: the kept words in their original spelling (Text).
	Plain string `json:"plain"`
	// Ellipsis is Ellipsis: "…" where words were cut.
	Ellipsis string `json:"ellipsis"`
	// HTML is HTML without ellipses: escaped, query terms in <mark>.
	HTML string `json:"html"`
	// HTMLEllipsis is HTML with ellipses.
	HTMLEllipsis string `json:"html_ellipsis"`
}

// All renders the snippets of doc in every form.
func All(doc string, sn []qsc.Snippet) []Rendered {
	out := make([]Rendered, len(sn))
	for i, s := range sn {
		out[i] = Rendered{Snippet: s, Plain: Plain(doc, s), Ellipsis: Ellipsis(doc, s), HTML: HTML(doc, s, false), HTMLEllipsis: HTML(doc, s, true)}
	}
	return out
}
