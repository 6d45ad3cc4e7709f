package docfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
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
		{Doc{ID: "a", Text: "GIF89a\x00\x01"}, "a NUL character (at byte 6)"},
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

// TestTextDoc checks that a plain text's first line is its title only when it stands
// alone as a paragraph, is short and does not end a sentence, and more text follows.
func TestTextDoc(t *testing.T) {
	for _, c := range []struct{ text, title, body string }{
		{"Garden notes\n\nThe roses bloomed.\n", "Garden notes", "The roses bloomed.\n"},
		{"\r\n  Garden notes \r\n\r\nThe roses bloomed.", "Garden notes", "The roses bloomed."},
		{"The roses bloomed.\n\nThey won.", "", "The roses bloomed.\n\nThey won."},
		{"He said \"go.\"\n\nThey went.", "", "He said \"go.\"\n\nThey went."},
		{"Garden notes\nThe roses bloomed.", "", "Garden notes\nThe roses bloomed."},
		{"Garden notes\n\n", "", "Garden notes\n\n"},
		{strings.Repeat("word ", 30) + "\n\nMore.", "", strings.Repeat("word ", 30) + "\n\nMore."},
		// An abbreviation's period ends no sentence: a case caption is a title.
		{"OKAFOR v. MERIDIAN HEALTH SYSTEMS, INC.\n\nThe court held.", "OKAFOR v. MERIDIAN HEALTH SYSTEMS, INC.", "The court held."},
		{"Letter to Smith Jr.\n\nDear sir.", "Letter to Smith Jr.", "Dear sir."},
		{"She went home.\n\nThen she slept.", "", "She went home.\n\nThen she slept."},
		// An e-mail: titled by its subject, each other header line a paragraph.
		{"From: Julian Serrat <j@example.com>\nTo: Leonora Blackwood\nDate: Thu, 22 Aug 2024\nSubject: Castlegate fees\n\nLeonora, the invoice is attached.\n",
			"Castlegate fees", "From: Julian Serrat <j@example.com>\n\nTo: Leonora Blackwood\n\nDate: Thu, 22 Aug 2024\n\nLeonora, the invoice is attached.\n"},
		{"From: Julian Serrat\r\nDate: Thu\r\n\r\nHello.", "", "From: Julian Serrat\n\nDate: Thu\n\nHello."},
		{"Note: this is not mail.\nTo: nobody\n\nText.", "", "Note: this is not mail.\nTo: nobody\n\nText."},
	} {
		title, body := TextDoc(c.text)
		if title != c.title || body != c.body {
			t.Errorf("TextDoc(%q) = %q, %q; want %q, %q", c.text, title, body, c.title, c.body)
		}
	}
}

// TestScanLargeFile: a document file whose text is over qsc.MaxDocumentBytes is read as
// the documents of its parts, cut at blank lines, each valid, with ids and titles that
// say which part; the text of the parts is the file's. Before, it was rejected.
func TestScanLargeFile(t *testing.T) {
	dir := t.TempDir()
	para := "The council met on Tuesday and discussed the water rates at length.\n\n"
	text := strings.Repeat(para, 3*qsc.MaxDocumentBytes/len(para))
	if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte("Annual report\n\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	var recs []Record
	if err := ScanDir(dir, func(r Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4 parts", len(recs))
	}
	var joined strings.Builder
	for k, r := range recs {
		if r.Err != nil || Check(&r.Doc) != nil {
			t.Fatalf("part %d: %v, %v", k+1, r.Err, Check(&r.Doc))
		}
		if want := fmt.Sprintf("report.txt#%d", k+1); r.Doc.ID != want || !strings.HasSuffix(r.Doc.Title, fmt.Sprintf("(part %d of 4)", k+1)) {
			t.Errorf("part %d: id %q, title %q", k+1, r.Doc.ID, r.Doc.Title)
		}
		if k+1 < len(recs) && !strings.HasSuffix(r.Doc.Text, "\n\n") {
			t.Errorf("part %d is not cut at a blank line: ends %q", k+1, r.Doc.Text[len(r.Doc.Text)-20:])
		}
		joined.WriteString(r.Doc.Text)
	}
	if _, body := TextDoc("Annual report\n\n" + text); joined.String() != body {
		t.Error("the parts are not the file's text")
	}
}

// TestScanBinaryFiles checks that a folder's PDF, binary or HTML file named .txt is a
// record with an error that says so (an HTML file named .html is read), that the
// folder's text files are read beside it, and that OtherFiles counts the files a
// folder's walk leaves out for their name.
func TestScanBinaryFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"scan.txt":     "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n",
		"blob.txt":     "GIF89a\x00\x01 valid UTF-8 but binary",
		"notes.txt":    "Minutes\n\nThe council met on Tuesday.\n",
		"page.txt":     "\ufeff\n<!DOCTYPE html>\n<html><body><p>Hello.</p></body></html>\n",
		"seminar.html": "\ufeff\n<!DOCTYPE html>\n<html><p>Read as HTML.</p></html>",
		"slides.pdf":   "%PDF-1.7",
		".hidden.pdf":  "%PDF-1.7",
		"utf16.txt":    "\xff\xfeM\x00i\x00n\x00",
		"utf16be.txt":  "\x00M\x00i\x00n",
		"cp1252.txt":   "Caf\xe9 minutes\n",
		"cp1251.txt":   "\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0\n",                                                            // "Привет мир" in Windows-1251
		"sjis.txt":     "\x93\xfa\x96\x7b\x82\xcc\x8e\x86\n",                                                                 // "日本の紙" in Shift_JIS
		"quotes.txt":   "\x93It sounds like a radio in a tin can,\x94 admitted Jos\xe9 \x96 \x93but it reaches Tokyo.\x94\n", // Windows-1252's curly quotes and dash
		"bom.txt":      "\ufeffPRESS RELEASE\n\nThe council met on Tuesday.\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, texts := map[string]string{}, map[string]Record{}
	if err := ScanDir(dir, func(r Record) error {
		got[filepath.Base(r.Where)] = fmt.Sprint(r.Err)
		texts[filepath.Base(r.Where)] = r
		if r.Doc.ID == "bom.txt" && r.Doc.Title != "PRESS RELEASE" {
			t.Errorf("the title of a file with a byte order mark: %q", r.Doc.Title)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"scan.txt": "is a PDF", "blob.txt": "NUL byte at offset 6", "notes.txt": "<nil>", "page.txt": "is HTML, but its name does not end in .html; qsc reads .html and .htm files as HTML", "seminar.html": "<nil>",
		"utf16.txt": "<nil>", "utf16be.txt": "<nil>", "cp1252.txt": "<nil>", "cp1251.txt": "iconv -f WINDOWS-1251", "sjis.txt": "iconv -f SHIFT_JIS", "quotes.txt": "<nil>", "bom.txt": "<nil>"} {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s: error %q, want it to say %q", name, got[name], want)
		}
	}
	// UTF-16 text, and Western text in Windows-1252, are read as they are, and say so.
	for name, want := range map[string]string{"utf16.txt": "Min", "utf16be.txt": "Min", "cp1252.txt": "Café minutes", "quotes.txt": "“It sounds like a radio in a tin can,” admitted José – “but it reaches Tokyo.”"} {
		if r := texts[name]; !strings.Contains(r.Doc.Title+"\n"+r.Doc.Text, want) || !strings.Contains(r.Note, "read as") {
			t.Errorf("%s: %q %q, note %q; want %q, decoded as Windows-1252", name, r.Doc.Title, r.Doc.Text, r.Note, want)
		}
	}
	if n, first := OtherFiles(dir, 3); n != 1 || len(first) != 1 || first[0] != "slides.pdf" {
		t.Errorf("OtherFiles: %d %q, want the .pdf file alone (hidden files aside)", n, first)
	}
	if err := CheckText("-", []byte("<!doctype html><p>x")); err == nil || !strings.Contains(err.Error(), "the input is HTML; qsc reads HTML from files named .html or .htm") {
		t.Errorf("CheckText of HTML on stdin: %v", err)
	}
}

// TestUnknownFields: a JSON-lines file's record passes over the fields a document does not
// have and names them, unless it then has no text; ScanLines (the API's batches) reads
// them alike, each record where the API says.
func TestUnknownFields(t *testing.T) {
	lines := `{"id":"a","text":"Some text.","kind":"ticket","Author":"me"}
{"id":"b","Text":"Field names match in any case."}
{"id":"c","document":"The text under another name."}
`
	var got []Record
	if err := ScanJSONL(strings.NewReader(lines), "f.jsonl", func(r Record) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Err != nil || got[0].Doc.Text != "Some text." || !slices.Equal(got[0].Ignored, []string{"Author", "kind"}) {
		t.Errorf("record 1: %+v", got[0])
	}
	if got[1].Err != nil || got[1].Ignored != nil || got[1].Doc.Text == "" {
		t.Errorf("record 2: %+v", got[1])
	}
	if got[2].Err == nil || !strings.Contains(got[2].Err.Error(), `unknown field "document"; this record takes the text as "text"`) {
		t.Errorf("record 3: %+v", got[2])
	}
	got = got[:0]
	if err := ScanLines(strings.NewReader(lines), func(n int) string { return "line " + strconv.Itoa(n) }, func(r Record) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Err != nil || !slices.Equal(got[0].Ignored, []string{"Author", "kind"}) || got[0].Where != "line 1" || got[2].Err == nil {
		t.Errorf("the API's lines: %+v", got)
	}
}

// TestSlugRef: a slug as a reference from the file's own address.
func TestSlugRef(t *testing.T) {
	for _, c := range []struct{ id, slug, want string }{
		{"billing/refunds.md", "/money-back", "../money-back"},
		{"a/b/c.md", "/x/y", "../../x/y"},
		{"refunds.md", "/money-back", "money-back"},
		{"billing/refunds.md", "money-back", "money-back"},
		{"billing/refunds.md", "/", "../"},
		{"refunds.md", "/", "."},
		{"refunds.md", "", ""},
		{"refunds.md", "https://evil.example/x", ""},
	} {
		if got := slugRef(c.id, c.slug); got != c.want {
			t.Errorf("slugRef(%q, %q) = %q, want %q", c.id, c.slug, got, c.want)
		}
	}
}

// TestIsDocFile: a folder's documents are its .txt, .md, .markdown, .mdx, .html and .htm
// files, in any letter case, hidden ones aside.
func TestIsDocFile(t *testing.T) {
	for name, want := range map[string]bool{"a.txt": true, "b.MD": true, "c.markdown": true, "d.mdx": true,
		"e.html": true, "e.HTM": true, "f.pdf": false, ".hidden.md": false, ".hidden.html": false, "g": false, "h.xhtml": true, "i.shtml": true, "j.mht": false} {
		if IsDocFile(name) != want {
			t.Errorf("IsDocFile(%q) = %v", name, !want)
		}
	}
}

// TestScanHTMLFolder: a folder's .html and .htm files are read as a browser shows their
// content, titled by their title element (or first h1), beside its Markdown and text.
func TestScanHTMLFolder(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"help/refunds.html": `<!DOCTYPE html><html><head><title>Refunds | Tidewater Help</title><style>p{}</style><link rel="canonical" href="https://help.example.com/billing/refunds"></head>
<body><nav><a href="/">Home</a> · <a href="/billing">Billing</a></nav>
<main><h1>Refunds</h1><p>We refund within 5&nbsp;days &amp; by the same card.</p><ul><li>Annual plans: pro rata.</li></ul></main>
<footer>© Tidewater</footer><script>track("refunds")</script></body></html>`,
		"help/old.HTM":   `<body><h1>Shipping</h1><p>We ship on Mondays.</p></body>`,
		"help/faq.md":    "---\npermalink: /faq/\n---\n# FAQ\n\nAsk us anything.\n",
		"notes.txt":      "Minutes\n\nThe council met on Tuesday.\n",
		"help/empty.htm": `<html><head><meta http-equiv="refresh" content="0; url=/new"></head></html>`,
		"help/cafe.html": "<meta charset=\"windows-1252\"><title>Caf\xe9</title><p>Cr\xe8me br\xfbl\xe9e, \x80 4.</p>",
		"help/bad.html":  "<meta charset=\"utf-8\"><p>Caf\xe9</p>",
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]Record{}
	if err := ScanDir(dir, func(r Record) error {
		if r.Err == nil {
			r.Err = Check(&r.Doc)
		}
		got[r.Doc.ID] = r
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]Doc{
		"help/refunds.html": {Title: "Refunds", Text: "We refund within 5 days & by the same card.\n\nAnnual plans: pro rata."},
		"help/old.HTM":      {Title: "Shipping", Text: "We ship on Mondays."},
		"help/cafe.html":    {Title: "Café", Text: "Crème brûlée, € 4."}, // windows-1252, as its meta says
		"help/faq.md":       {Title: "FAQ", Text: "Ask us anything."},
		"notes.txt":         {Title: "Minutes", Text: "The council met on Tuesday.\n"},
	} {
		r := got[id]
		if r.Err != nil || r.Doc.Title != want.Title || r.Doc.Text != want.Text {
			t.Errorf("%s: %q, %q, %v; want %q, %q", id, r.Doc.Title, r.Doc.Text, r.Err, want.Title, want.Text)
		}
	}
	// The address a file gives as its own: an HTML page's canonical link, a Markdown
	// file's permalink (docindex.Ingest makes it the URL).
	for id, want := range map[string]string{"help/refunds.html": "https://help.example.com/billing/refunds", "help/faq.md": "/faq/", "help/old.HTM": "", "notes.txt": ""} {
		if got[id].Link != want {
			t.Errorf("%s: link %q, want %q", id, got[id].Link, want)
		}
	}
	if r := got["help/bad.html"]; r.Err != nil || r.Doc.Text != "Café" || !strings.Contains(r.Note, "read as Windows-1252") {
		t.Errorf("a page that says UTF-8 and is not: %+v; want it read, its other bytes as Windows-1252", r)
	}
	if r := got["help/empty.htm"]; r.Err == nil || !strings.Contains(r.Err.Error(), `no "text"`) {
		t.Errorf("a page without text: %+v", r)
	}
	if n, _ := OtherFiles(dir, 3); n != 0 {
		t.Errorf("OtherFiles: %d, want none", n)
	}
	var one []Record
	if err := Scan(filepath.Join(dir, "help", "refunds.html"), func(r Record) error { one = append(one, r); return nil }); err != nil || len(one) != 1 || one[0].Doc.ID != "refunds.html" || !strings.HasPrefix(one[0].Doc.Text, "We refund") {
		t.Errorf("Scan of one .html file: %+v %v", one, err)
	}
}

// TestFrontMatterNote checks that a Markdown file whose front matter does not parse is
// read as before, with a warning that names the line (Record.Note).
func TestFrontMatterNote(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"broken.md":   "---\ntitle: \"Data residency\nslug: /data-residency\n---\n\n# Data residency\n\nData stays in Frankfurt.\n",
		"unclosed.md": "---\ntitle: Status page subscriptions\n\n# Status\n\nSubscribe to the status page.\n",
		"fine.md":     "---\ntitle: Fine\n---\n\nAll is well.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notes := map[string]string{}
	if err := ScanDir(dir, func(r Record) error {
		if r.Err != nil {
			t.Errorf("%s: %v", r.Where, r.Err)
		}
		notes[r.Doc.ID] = r.Note
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"broken.md": `line 2: the value of "title" opens a quote`, "unclosed.md": "line 1: the front matter", "fine.md": ""} {
		if got := notes[id]; !strings.Contains(got, want) || (want == "") != (got == "") {
			t.Errorf("%s: note %q, want %q", id, got, want)
		}
	}
}
