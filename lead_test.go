package qsc

import (
	"context"
	"strings"
	"testing"
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
