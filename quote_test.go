package qsc

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestQuotationMarks checks that a display that shows words of a quotation shows its marks,
// whatever their style, so that the quoted words do not read as the text's own: the
// cases of a media historian's pages (runs.Program.withQuotes), each within its budget.
// The tokens' budget, the plain rendering's, is not asked for the marks, nor is the window
// of the languages without a parser, which keeps both marks of a pair or neither.
func TestQuotationMarks(t *testing.T) {
	e := newEngine(t)
	tokyo := "“It sounds like a transistor radio in a tin can,” admitted chief engineer José Martínez, “but it is a transistor radio that reaches Tokyo.”"
	for _, c := range []struct {
		text, query string
		budget      int
		open, close string // the marks the display must show, in this order
		word        string // a quoted word the display shows
	}{
		{tokyo, "Tokyo", 70, "“", "”", "Tokyo"},
		{tokyo, "tin can", 60, "“", "”", "tin"},
		{`"In the end it wasn't the web that hurt us, it was Craigslist."`, "Craigslist", 60, `"`, `"`, "Craigslist"},
		{`Since wisdom is "the quality of having experience, knowledge and good judgment," our study suggests that life experience is fostering sexual wisdom.`, "judgment sexual", 89, `"`, `"`, "judgment"},
	} {
		res, err := e.Do(context.Background(), &Request{Text: c.text, Query: strings.Fields(c.query), Budget: c.budget, BudgetCounts: BudgetDisplay}, false)
		if err != nil {
			t.Errorf("%q, %q: %v", c.text, c.query, err)
			continue
		}
		got := res.Ellipsis()
		i, j, k := strings.Index(got, c.open), strings.Index(got, c.word), strings.LastIndex(got, c.close)
		if j < 0 || i < 0 || k < 0 || !(i < j && j < k) {
			t.Errorf("%q, %q, b %d: %q, want %s … %q … %s", c.text, c.query, c.budget, got, c.open, c.word, c.close)
		}
		if n := utf8.RuneCountInString(got); n > c.budget {
			t.Errorf("%q, %q: %q is %d characters, over the budget %d", c.text, c.query, got, n, c.budget)
		}
	}
}
