package main

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/cli/clitest"
)

// runQSC runs the command line in-process and returns the exit status, stdout and stderr.
func runQSC(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return clitest.Run(&prog, args...)
}

func TestHelpAndUnknown(t *testing.T) {
	clitest.Basics(t, &prog, "parse", "parse", "bench")
}

func TestParseText(t *testing.T) {
	for _, flags := range [][]string{nil, {"--accurate"}} {
		t.Run(strings.Join(append([]string{"parse"}, flags...), " "), func(t *testing.T) { testParseText(t, flags) })
	}
}

func testParseText(t *testing.T, flags []string) {
	code, out, errs := runQSC(t, append(append([]string{"parse"}, flags...), "Police arrested two men.", "They", "left.")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	sents, err := conllu.NewReader(strings.NewReader(out), "out")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		s, err := sents.Next()
		if err != nil {
			break
		}
		n++
		if !s.Parsed() {
			t.Errorf("sentence %d unparsed", n)
		}
	}
	if n != 2 || !strings.Contains(out, "# text = They left.") || !strings.Contains(out, "SpaceAfter=No") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestParseErrors(t *testing.T) {
	cases := [][]string{
		{"parse", "--keep-xpos", "text"},
		{"parse", "--conllu", "x.conllu", "text"},
		{"parse", "--accurate", "--parser", "x.qsm", "text"},
		{"parse", "--workers", "-3", "--conllu", "x.conllu"},
	}
	for _, args := range cases {
		if code, _, _ := runQSC(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runQSC(t, "parse", "--conllu", "does-not-exist.conllu"); code != 1 || !strings.Contains(errs, "does-not-exist.conllu") {
		t.Errorf("missing file: %d %q", code, errs)
	}
	if code, _, errs := runQSC(t, "parse", "--tagger", "main.go", "x"); code != 1 || !strings.Contains(errs, "not a qsc model file") {
		t.Errorf("bad model file: %d %q", code, errs)
	}
	// A file named alone is refused with what to do, not parsed as its name.
	if code, _, errs := runQSC(t, "parse", "main.go"); code != 2 || !strings.Contains(errs, "main.go is a file: give its text on stdin") {
		t.Errorf("a file name: exit %d, %q", code, errs)
	}
	// Bytes that are not UTF-8 are read as U+FFFD: the output is valid CoNLL-U.
	if code, stdout, errs := runQSC(t, "parse", "a\xffb c"); code != 0 || !utf8.ValidString(stdout) || !strings.Contains(stdout, "\uFFFD") {
		t.Errorf("invalid UTF-8: exit %d, %q, %s", code, stdout, errs)
	}
}

func TestParseCoNLLUFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.conllu")
	code, _, errs := runQSC(t, "parse", "--conllu", "../../conllu/testdata/sample.conllu", "--keep-xpos", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got, err := conllu.ReadAll(out)
	if err != nil || len(got) != 3 || !got[2].Parsed() || got[2].Words[1].XPOS != "CD" {
		t.Fatalf("re-parse: %v", err)
	}
	if _, ok := got[0].Meta("newdoc id"); !ok || len(got[0].Ranges) != 1 || len(got[1].Empty) != 1 {
		t.Error("comments, ranges or empty nodes lost")
	}
}
