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

// TestSnippetsDocumentTooLarge: qsc snippets on a file over qsc.MaxDocumentBytes says so,
// without claiming a size it did not read.
func TestSnippetsDocumentTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("The staff left. ", qsc.MaxDocumentBytes/8)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runQSC(t, "snippets", "-q", "staff", "-b", "40", path)
	if code == 0 || out != "" || !strings.Contains(errs, "the document is more than 1048576 bytes") || strings.Contains(errs, "1048577") {
		t.Errorf("exit %d, %q, %q", code, out, errs)
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
