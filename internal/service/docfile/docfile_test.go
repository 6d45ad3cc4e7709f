package docfile

import (
	"errors"
	"strings"
	"testing"
)

// scan returns the records of a JSONL input.
func scan(t *testing.T, in string) []Record {
	t.Helper()
	var out []Record
	if err := ScanJSONL(strings.NewReader(in), "in", func(r Record) error { out = append(out, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestScanJSONL(t *testing.T) {
	long := `{"id":"long","text":"` + strings.Repeat("a", maxLineBytes) + `"}`
	recs := scan(t, "\n"+`{"id":"a","text":"x"}`+"\r\n\n"+long+"\n"+`{"id":"b","text":"y"} {}`+"\n"+`{"id":"c","text":"z"}`)
	if len(recs) != 4 {
		t.Fatalf("%d records: %+v", len(recs), recs)
	}
	for i, want := range []struct{ where, err, id string }{
		{"in:2", "", "a"},
		{"in:4", "the line is longer than", ""},
		{"in:5", "more than one JSON value", "b"},
		{"in:6", "", "c"}, // the last line needs no newline
	} {
		r := recs[i]
		if r.Where != want.where || r.Doc.ID != want.id || (want.err == "") != (r.Err == nil) || (r.Err != nil && !strings.Contains(r.Err.Error(), want.err)) {
			t.Errorf("record %d: %+v, want %+v", i, r, want)
		}
	}
	stop := errors.New("stop")
	if err := ScanJSONL(strings.NewReader("{}\n{}\n"), "in", func(Record) error { return stop }); err != stop {
		t.Errorf("fn's error: %v", err)
	}
}

func TestCheck(t *testing.T) {
	d := Doc{ID: "x", Text: "\n# A heading\nBody."}
	if err := Check(&d); err != nil || d.Title != "A heading" {
		t.Errorf("title from the text: %+v %v", d, err)
	}
	for _, c := range []struct {
		d    Doc
		want string
	}{
		{Doc{Text: "x"}, `no "id"`},
		{Doc{ID: "a\nb", Text: "x"}, "control characters"},
		{Doc{ID: " ", Text: "x"}, "the id is blank"},
		{Doc{ID: "\u200b", Text: "x"}, "the id is blank"},
		{Doc{ID: "a", Text: " \n"}, `no "text"`},
		{Doc{ID: "a", Text: "x", URL: "ftp://example.org/"}, "not an absolute http or https URL"},
		{Doc{ID: "a", Text: "x", URL: "/relative"}, "not an absolute http or https URL"},
		{Doc{ID: "a", Text: "x", Title: strings.Repeat("t", MaxTitleBytes+1)}, "the title is 1001 bytes"},
	} {
		if err := Check(&c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.d, err, c.want)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short  title\n", 20, "short title"},
		{"one two three four", 10, "one two…"},
		{"Zürich, Genève, Bern", 8, "Zürich…"},
		{"abcdefghij", 5, "abcde…"},
	} {
		if got := Shorten(c.in, c.n); got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestMarkdownText checks the text of a Markdown file as its rendering reads: markup left
// out, each block a paragraph, wrapped lines joined, hard breaks and code lines kept.
func TestMarkdownText(t *testing.T) {
	src := "# Snippets that read well\n\n" +
		"**Why F1 and nesting fall short.** The Google compressions are choppy where the display\n" +
		"is not: 1.73 inner gaps in\n18.5% of them.\n\n" +
		"- A list item without a period\n" +
		"- Another with `code`, a [link](https://example.org) and ![an image](x.png)\n  that wraps\n\n" +
		"> A quote\n> on two lines.\n\n" +
		"| method | F1 |\n|---|--:|\n| ilp | 0.855 |\n\n" +
		"```sh\ngo run ./cmd/qsc serve\nqsc help\n```\n\n" +
		"<div>raw html</div>\n\n---\n\n" +
		"Visit <https://example.org/x> now, a \\*star\\* and AT&amp;T &copy;.  \nA hard break above.\n"
	want := "Snippets that read well\n\n" +
		"Why F1 and nesting fall short. The Google compressions are choppy where the display is not: 1.73 inner gaps in 18.5% of them.\n\n" +
		"A list item without a period\n\n" +
		"Another with code, a link and an image that wraps\n\n" +
		"A quote on two lines.\n\n" +
		"method · F1\n\nilp · 0.855\n\n" +
		"go run ./cmd/qsc serve\nqsc help\n\n" +
		"Visit https://example.org/x now, a *star* and AT&T ©.\nA hard break above."
	if got := MarkdownText([]byte(src)); got != want {
		t.Errorf("MarkdownText:\n got %q\nwant %q", got, want)
	}
	if got := MarkdownText([]byte("<p>only html</p>\n\n***\n")); got != "" {
		t.Errorf("MarkdownText of markup alone = %q, want nothing", got)
	}
}

// TestMarkdownDoc checks that a first heading followed by more is the title and not the
// text, and that a file without one, or with nothing after it, keeps all its text.
func TestMarkdownDoc(t *testing.T) {
	for _, c := range []struct{ src, title, body string }{
		{"# Trip to *Zürich*\n\nWe took the train.\n", "Trip to Zürich", "We took the train."},
		{"Trip notes\n==========\n\nWe took the train.\n", "Trip notes", "We took the train."},
		{"# Only a heading\n", "", "Only a heading"},
		{"We took the train.\n\n# Later\n\nMore.\n", "", "We took the train.\n\nLater\n\nMore."},
		{"#\n\nWe took the train.\n", "", "We took the train."},
	} {
		title, body := MarkdownDoc([]byte(c.src))
		if title != c.title || body != c.body {
			t.Errorf("MarkdownDoc(%q) = %q, %q; want %q, %q", c.src, title, body, c.title, c.body)
		}
	}
}
