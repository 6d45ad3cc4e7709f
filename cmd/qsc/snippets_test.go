package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
)

// TestReadLimited: an input of at most max bytes is read whole; a larger one is a bad
// request that says it is more than max bytes, never a length it did not read.
func TestReadLimited(t *testing.T) {
	b, err := readLimited(strings.NewReader("12345"), 5, "the text")
	if err != nil || string(b) != "12345" {
		t.Errorf("5 bytes, max 5: %q, %v", b, err)
	}
	_, err = readLimited(strings.NewReader(strings.Repeat("x", 100)), 5, "the text")
	if !errors.Is(err, qsc.ErrBadRequest) || err.Error() != "bad request: the text is more than 5 bytes, the maximum" {
		t.Errorf("100 bytes, max 5: %v", err)
	}
}

// TestSnippetsLargeDocument: qsc snippets reads a file over qsc.MaxDocumentBytes in parts,
// as grep reads any file: the best snippets of the whole, each sentence once.
func TestSnippetsLargeDocument(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	text := strings.Repeat("The staff left. ", qsc.MaxDocumentBytes/8) + "\n\nThe staff and the guests stayed."
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runQSC(t, "snippets", "-q", "staff,guests", "-b", "40", path)
	if code != 0 || out != "The staff and the guests stayed.\nThe staff left.\n" {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
}

// TestSnippetsJSONL: a .jsonl file's records, as qsc serve --docs reads them, are each a
// document, labeled file:id; a bad line is an error of its own and the others go on.
func TestSnippetsJSONL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tips.jsonl")
	lines := `{"id": "note-1", "title": "Tip", "text": "A source said the council paid Castlegate in cash."}
{"id": "note-2", "text": "The council met on Tuesday."}
{"id": 3}
`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runQSC(t, "snippets", "-q", "council", "-b", "60", path)
	want := path + ":note-1: A source said the council paid Castlegate in cash.\n" + path + ":note-2: The council met on Tuesday.\n"
	if code != 1 || out != want || !strings.Contains(errs, "tips.jsonl:3") || !strings.Contains(errs, "1 of 3 documents failed") {
		t.Errorf("exit %d\n%s\nwant\n%s\nstderr %s", code, out, want, errs)
	}
	code, out, _ = runQSC(t, "snippets", "-q", "Castlegate", "-b", "60", "--json", path)
	if code != 1 || !strings.Contains(out, `{"file":"`+path+`","id":"note-1","snippets":[{`) || !strings.Contains(out, `"id":"note-2","snippets":[]`) {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}

// TestSnippetsBadRequestOnce: an unknown method or language with several documents is
// one usage error (exit 2), not one error per document.
func TestSnippetsBadRequestOnce(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("Police arrested two men on Tuesday."), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, flag := range [][]string{{"--method", "foo"}, {"--lang", "xx"}} {
		code, stdout, errs := runQSC(t, append([]string{"snippets", "-q", "police", "-b", "60", dir}, flag...)...)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "a.txt") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want one usage error", flag, code, stdout, errs)
		}
	}
}

// TestSnippetsNoMatch: a document without the query's words prints nothing on stdout and
// exits 0, with a note on stderr that says why and how to get a lead sentence.
func TestSnippetsNoMatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.txt")
	if err := os.WriteFile(path, []byte("Police arrested two men on Tuesday."), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runQSC(t, "snippets", "-q", "zebra", "-b", "60", path)
	if code != 0 || stdout != "" || !strings.Contains(errs, "no sentence contains a query term") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	code, stdout, _ = runQSC(t, "snippets", "-q", "zebra", "-b", "60", "--no-match", path)
	if code != 0 || !strings.Contains(stdout, "Police arrested") {
		t.Errorf("--no-match: exit %d, stdout %q", code, stdout)
	}
}

// TestSnippetsNotText: a PDF or a file with binary data is an error that says so (exit 1),
// not a document of garbled words; and a query term with spaces, a phrase, that matches
// nothing gets a hint to separate terms with commas.
func TestSnippetsNotText(t *testing.T) {
	dir := t.TempDir()
	pdf, bin, txt := filepath.Join(dir, "report.pdf"), filepath.Join(dir, "data.txt"), filepath.Join(dir, "doc.txt")
	os.WriteFile(pdf, []byte("%PDF-1.4\n1 0 obj << /Title (Police report) >> endobj"), 0o644)
	os.WriteFile(bin, []byte("Police\x00\x01 arrested"), 0o644)
	os.WriteFile(txt, []byte("Police arrested two men on Tuesday."), 0o644)
	for path, want := range map[string]string{pdf: "the file is a PDF", bin: "binary data (a NUL byte at offset 6)"} {
		code, out, errs := runQSC(t, "snippets", "-q", "police", "-b", "60", path)
		if code != 1 || out != "" || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", filepath.Base(path), code, out, errs, want)
		}
	}
	code, _, errs := runQSC(t, "snippets", "-q", "police men Tuesday", "-b", "60", txt)
	if code != 0 || !strings.Contains(errs, `separate terms with commas (-q "police,men,Tuesday")`) {
		t.Errorf("a phrase that matches nothing: exit %d, stderr %q", code, errs)
	}
}

// TestSnippetsPlainBudget: with --plain the budget counts the printed words (tokens) unless
// --budget-counts says otherwise, where the display budget would leave room for "…" marks
// that are not printed.
func TestSnippetsPlainBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.txt")
	text := "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries that had troubled the north side of the city for months."
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, counts := range []string{qsc.BudgetTokens, qsc.BudgetDisplay} {
		code, out, errs := runQSC(t, "snippets", "-q", "arrested,city", "-b", "44", "-n", "1", "--plain", "--budget-counts", counts, path)
		if code != 0 {
			t.Fatalf("--budget-counts %s: exit %d, %s", counts, code, errs)
		}
		want[counts] = out
	}
	if want[qsc.BudgetTokens] == want[qsc.BudgetDisplay] {
		t.Fatalf("the two budgets give the same snippet %q: the test compares nothing", want[qsc.BudgetTokens])
	}
	code, out, errs := runQSC(t, "snippets", "-q", "arrested,city", "-b", "44", "-n", "1", "--plain", path)
	if code != 0 || out != want[qsc.BudgetTokens] {
		t.Errorf("--plain: exit %d, %q (%s), want the token budget's %q", code, out, errs, want[qsc.BudgetTokens])
	}
}

// TestSnippetsMarkdown checks that a Markdown file is read as its rendering reads, its
// markup left out and its bold lead sentence ended, and as it is with --raw.
func TestSnippetsMarkdown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.md")
	src := "# Notes\n\n**The council cut the road budget.** Residents asked for [repairs](https://example.org) in the `north`.\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runQSC(t, "snippets", "-q", "repairs", "-b", "100", path)
	if want := "Residents asked for repairs in the north.\n"; code != 0 || out != want {
		t.Errorf("rendered: exit %d, %q (want %q) %s", code, out, want, errs)
	}
	code, out, errs = runQSC(t, "snippets", "-q", "repairs", "-b", "200", "--raw", path)
	if code != 0 || !strings.Contains(out, "[repairs](https://example.org)") {
		t.Errorf("--raw: exit %d, %q %s", code, out, errs)
	}
}

// TestSnippetsHTML checks that an HTML file is read as a browser shows its content, its
// menu, script and footer left out and its list items paragraphs of their own (alone or
// in a folder); as it is with --raw; and that HTML in a file not named .html is an error
// that says to rename it.
func TestSnippetsHTML(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "roads.html")
	src := `<!DOCTYPE html><html><head><title>Council notes</title><script>var repairs = 1;</script></head><body>
<nav><a href="/repairs">Report repairs</a></nav>
<main><h1>Council notes</h1><p>The council cut the road budget.
Residents asked for <a href="https://example.org">repairs</a> in the&nbsp;<em>north</em> &amp; the south.</p>
<ul><li>Repairs start in May</li><li>Schools close in June</li></ul></main>
<footer>Repairs hotline: 555-0100</footer></body></html>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runQSC(t, "snippets", "-q", "repairs", "-b", "100", "-n", "3", path)
	if want := "Residents asked for repairs in the north & the south.\nRepairs start in May\n"; code != 0 || out != want {
		t.Errorf("rendered: exit %d, %q (want %q) %s", code, out, want, errs)
	}
	code, out, errs = runQSC(t, "snippets", "-q", "repairs", "-b", "100", "-n", "3", dir)
	if want := path + ": Residents asked for repairs in the north & the south.\n" + path + ": Repairs start in May\n"; code != 0 || out != want {
		t.Errorf("a folder: exit %d, %q (want %q) %s", code, out, want, errs)
	}
	code, out, errs = runQSC(t, "snippets", "-q", "repairs", "-b", "300", "--raw", path)
	if code != 0 || !strings.Contains(out, `<a href="https://example.org">repairs</a>`) {
		t.Errorf("--raw: exit %d, %q %s", code, out, errs)
	}
	txt := filepath.Join(dir, "saved.txt")
	if err := os.WriteFile(txt, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runQSC(t, "snippets", "-q", "repairs", "-b", "100", txt)
	if code != 1 || out != "" || !strings.Contains(errs, "is HTML, but its name does not end in .html") {
		t.Errorf("HTML named .txt: exit %d, %q %s", code, out, errs)
	}
}

// TestSnippetsSeveral checks qsc snippets over several documents and a folder: each
// snippet after its file's path, a folder read for its document files (hidden folders
// skipped, lexical order), a file that fails reported on stderr and in --json's lines
// while the others go on, exit status 1 then, and "-" only alone.
func TestSnippetsSeveral(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := write("a.txt", "Police arrested two men in Syracuse on Tuesday.\n\nThe men were released later.\n")
	write("sub/b.md", "# Notes\n\nNothing to see here.\n")
	write(".hidden/c.txt", "Police kept this secret.\n")
	d := write("d.txt", "Police said nothing.")
	write("e.csv", "police,1\n")
	code, out, errs := runQSC(t, "snippets", "-q", "police", "-b", "40", dir)
	want := a + ": Police arrested two men in Syracuse …\n" + d + ": Police said nothing.\n"
	if code != 0 || out != want || !strings.Contains(errs, "1 files skipped") || !strings.Contains(errs, "e.csv") {
		t.Errorf("folder: exit %d\n%s\nwant\n%s\nstderr %s (want e.csv named as skipped)", code, out, want, errs)
	}
	bad := write("f.txt", "\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0") // Cyrillic in Windows-1251: refused, where Western text is decoded
	missing := filepath.Join(dir, "nope.txt")
	code, out, errs = runQSC(t, "snippets", "-q", "police", "-b", "40", "--json", a, bad, missing)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 || !strings.HasPrefix(lines[0], `{"file":"`+a+`","snippets":[{`) ||
		!strings.Contains(lines[1], `"error":"bad request: the text is not valid UTF-8 (byte offset 0)`) || !strings.Contains(lines[2], `{"file":"`+missing+`","error":"open `) ||
		!strings.Contains(errs, bad+": the text is not valid UTF-8") || !strings.Contains(errs, "iconv") || strings.Contains(errs, "bad request") || !strings.Contains(errs, "2 of 3 documents failed") {
		t.Errorf("--json with failures: exit %d\n%s\nstderr %s", code, out, errs)
	}
	code, out, errs = runQSC(t, "snippets", "-q", "zebra", "-b", "40", a, d)
	if code != 0 || out != "" || !strings.Contains(errs, "no sentence of the 2 documents contains a query term") {
		t.Errorf("no match in two documents: exit %d %q %q", code, out, errs)
	}
	if code, _, errs = runQSC(t, "snippets", "-q", "police", "-b", "40", t.TempDir()); code != 1 || !strings.Contains(errs, "no documents") {
		t.Errorf("empty folder: exit %d %q", code, errs)
	}
	if code, _, errs = runQSC(t, "snippets", "-q", "police", "-b", "40", a, "-"); code != 2 || !strings.Contains(errs, "(stdin) is a document alone") {
		t.Errorf("- among files: exit %d %q", code, errs)
	}
	// One file alone prints as before: no path before its snippets.
	if code, out, _ = runQSC(t, "snippets", "-q", "police", "-b", "40", a); code != 0 || out != "Police arrested two men in Syracuse …\n" {
		t.Errorf("one file: exit %d %q", code, out)
	}
}

// TestLangMismatch checks the warning of a --lang written in another script than the
// text's, and its silence where they agree.
func TestLangMismatch(t *testing.T) {
	ru := "Архив семьи Ёлкиных хранит письма Ивана Ёлкина жене Марии."
	for _, c := range []struct {
		lang, text string
		warn       bool
	}{
		{"en", ru, true},
		{"ru", ru, false},
		{"", ru, false},
		{"ar", "Selanik'ten gelen mozaik müzede sergileniyor.", true},
		{"tr", "Selanik'ten gelen mozaik müzede sergileniyor.", false},
		{"zh-TW", "故宮博物院收藏了許多文物。", false},
		{"ja", "東京国立博物館の所蔵品。", false},
	} {
		if got := langMismatch(c.lang, c.text) != ""; got != c.warn {
			t.Errorf("--lang %q on %q: warning %v, want %v", c.lang, c.text, got, c.warn)
		}
	}
}

// TestSnippetsFolderSkips checks that qsc snippets names the files of a folder it does not
// read, as qsc serve --docs does, and reads the others.
func TestSnippetsFolderSkips(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.txt": "Police arrested two men in Syracuse.", "tickets.jsonl": `{"id":"x","text":"Police notes."}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runQSC(t, "snippets", "-q", "police", "-b", "40", dir)
	if code != 0 || !strings.Contains(out, "Police arrested") || !strings.Contains(errs, "1 files skipped") || !strings.Contains(errs, "tickets.jsonl") {
		t.Errorf("exit %d, out %q, stderr %q; want the .txt read and the .jsonl named as skipped", code, out, errs)
	}
}
