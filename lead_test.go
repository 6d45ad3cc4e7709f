package qsc

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/display"
)

// TestLeadProse checks that the lead a document shows when no sentence holds a query term
// is its first sentence that reads as prose, not the menu, byline or title a saved page
// opens with; and that a document of such lines alone shows its first.
func TestLeadProse(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ doc, want string }{
		{"Home | Program Schedule | Win Concert Tickets\n\nBy Tomasz Wiśniewski, March 17, 2011\n\nKZRM Streams on the Internet\n\nOn November 3, 1995, listeners in Tokyo heard the station live.\n",
			"On November 3, 1995, listeners"},
		{"Resetting your password\n\nOpen the settings page and choose “Reset”.\n", "Open the settings page"},
		{"Home | About | Contact\n\nPortlandWire.com — Your Northwest news source\n", "Home | About"},
	} {
		sn, err := e.DoSnippets(context.Background(), &SnippetRequest{Document: c.doc, Query: []string{"submarine"}, Budget: 100, NoMatch: true})
		if err != nil || len(sn) != 1 || sn[0].Method != MethodLead || !strings.HasPrefix(sn[0].Text, c.want) {
			t.Errorf("%q: %+v, %v; want the lead %q…", c.doc, sn, err, c.want)
		}
	}
}

// TestDistinctWords checks that a snippet whose words an earlier one shows in a row, as a
// pull quote repeats a quotation, is left out, and that one with other words is kept.
func TestDistinctWords(t *testing.T) {
	sn := distinct([]Snippet{
		{Text: `"It is the end of the paper, but I hope not the end of the journalism," said Ann Lee.`},
		{Text: `"It is the end of the paper, but I hope not the end of the journalism."`},
		{Text: "In the beginning was the wire"},
		{Text: "In the beginning was the wire."},
		{Text: "The end of the paper came in 2008."},
	})
	var got []string
	for _, s := range sn {
		got = append(got, s.Text)
	}
	want := []string{`"It is the end of the paper, but I hope not the end of the journalism," said Ann Lee.`, "In the beginning was the wire", "The end of the paper came in 2008."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("distinct: %q, want %q", got, want)
	}
}

// TestTurnLabels checks that a snippet of a transcript's turn after its first sentence
// says who speaks (Snippet.Label): with the time when the budget leaves room, the name
// alone when it is tight, each rendering within the budget; and that the turn's first
// sentence, which holds its label, and prose get none.
func TestTurnLabels(t *testing.T) {
	e := newEngine(t)
	doc := "Oral history interview with Zoë Lefèvre\n\n" +
		"[00:03:31] LEFÈVRE: [laughs] No. Not in my time. Every new medium starts\n" +
		"as somebody's hobby, and ours was Hans's hobby for about five years.\n\n" +
		"[00:04:10] INTERVIEWER: Tell me about the radio station.\n\n" +
		"The station went on the air in 1952. Its first hobby show ran weekly."
	for _, c := range []struct {
		query  string
		budget int
		label  string // "" for none
	}{
		{"medium", 100, "[00:03:31] LEFÈVRE:"},
		{"medium", 60, "LEFÈVRE:"},
		{"radio", 100, ""}, // the turn's first sentence holds its label
		{"show", 100, ""},  // prose
	} {
		sn, err := e.DoSnippets(context.Background(), &SnippetRequest{Document: doc, Query: []string{c.query}, Budget: c.budget, N: 1})
		if err != nil || len(sn) != 1 {
			t.Fatalf("%s, %d: %+v, %v", c.query, c.budget, sn, err)
		}
		s := sn[0]
		got := ""
		if s.Label != nil {
			got = doc[s.Label.Start:s.Label.End]
		}
		if got != c.label || !strings.HasPrefix(s.Text, c.label) {
			t.Errorf("%s, %d: label %q, text %q; want %q", c.query, c.budget, got, s.Text, c.label)
		}
		ell := display.Render(doc, s.Sentence, s.Shown(), nil, true, false)
		if n := utf8.RuneCountInString(ell); n > c.budget || utf8.RuneCountInString(s.Text) > c.budget {
			t.Errorf("%s, %d: %q (%d) and %q over the budget", c.query, c.budget, ell, n, s.Text)
		}
	}
}
