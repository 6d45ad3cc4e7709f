package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
)

// runQSC runs the command line in-process and returns the exit status, stdout and stderr.
func runQSC(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpAndUnknown(t *testing.T) {
	code, out, _ := runQSC(t, "help")
	if code != 0 || !strings.Contains(out, "parse") || !strings.Contains(out, "data stats") {
		t.Fatalf("help: %d %q", code, out)
	}
	if code, _, errs := runQSC(t, "frobnicate"); code != 2 || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Fatalf("unknown: %d %q", code, errs)
	}
	if code, _, errs := runQSC(t, "parse", "--nope"); code != 2 || !strings.Contains(errs, "flag provided but not defined") {
		t.Fatalf("bad flag: %d %q", code, errs)
	}
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
		{"eval", "parser", "--accurate", "--model", "x.qsm"},
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

// fixtureData makes a data directory with the dataset fixture as both Google files.
func fixtureData(t *testing.T) string {
	dir := t.TempDir()
	g := filepath.Join(dir, "google-compression")
	os.MkdirAll(g, 0o755)
	src, err := os.ReadFile("../../internal/lab/dataset/testdata/fixture.conllu")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"train.conllu.gz", "test.conllu.gz"} {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(src)
		zw.Close()
		os.WriteFile(filepath.Join(g, name), b.Bytes(), 0o644)
	}
	return dir
}

func TestDataParseAndStats(t *testing.T) {
	data := fixtureData(t)
	cache := t.TempDir()
	code, out, errs := runQSC(t, "data", "parse", "--data", data, "--cache", cache)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Count(out, "\n| google-compression/") != 3 || !strings.Contains(out, "Parsed") {
		t.Fatalf("data parse output:\n%s", out)
	}
	code, out, _ = runQSC(t, "data", "parse", "--data", data, "--cache", cache)
	if code != 0 || strings.Count(out, "cached") != 3 {
		t.Fatalf("second run should hit the cache:\n%s", out)
	}
	code, out, errs = runQSC(t, "data", "stats", "--data", data, "--validation", "2", "--format", "json")
	if code != 0 || !strings.Contains(out, "{") {
		t.Fatalf("data stats: %d %s %s", code, out, errs)
	}
	if code, _, errs := runQSC(t, "data", "stats", "--data", data, "--format", "xml"); code != 2 || !strings.Contains(errs, "--format") {
		t.Fatalf("bad format: %d %s", code, errs)
	}
}

func TestEvalOnFixture(t *testing.T) {
	data := fixtureData(t)
	out := t.TempDir()
	code, stdout, errs := runQSC(t, "eval", "--data", data, "--cache", t.TempDir(), "--samples", "50", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, m := range []string{"| lr |", "| ablated |", "| random |", "| oracle | given-xpos |", "| oracle | own-tagger |", "| ilp |", "| ilp-unconstrained |"} {
		if !strings.Contains(stdout, m) {
			t.Errorf("eval output lacks %q:\n%s", m, stdout)
		}
	}
	if !strings.Contains(stdout, "| oracle | given-xpos | 7 | 1.0000 |") {
		t.Errorf("the oracle must score F1 = 1 on every tuple:\n%s", stdout)
	}
	for _, f := range []string{"eval.md", "eval.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if code, _, errs := runQSC(t, "eval", "--data", data, "--methods", "magic"); code != 2 || !strings.Contains(errs, "unknown method") {
		t.Errorf("bad method: %d %s", code, errs)
	}
}

// TestTrainParser trains tiny parsers on the parser package's fixture: greedy, with the
// fixture again as silver trees, and with a beam; each writes a model that qsc can load.
func TestTrainParser(t *testing.T) {
	fixture := filepath.Join("..", "..", "parser", "testdata", "small.conllu")
	dir := t.TempDir()
	for i, flags := range [][]string{
		nil,
		{"--silver", fixture, "--silver-n", "3", "--gold-copies", "2"},
		{"--beam", "4"},
	} {
		out := filepath.Join(dir, fmt.Sprintf("p%d.qsm", i))
		args := append([]string{"train", "parser", "--train", fixture, "--dev", "", "--clusters", "", "--epochs", "2", "--runs", "1", "--out", out}, flags...)
		code, _, errs := runQSC(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", flags, code, errs)
		}
		if len(flags) > 0 && flags[0] == "--silver" && !strings.Contains(errs, "(3 sentences)") {
			t.Errorf("%q: stderr does not report 3 silver sentences: %s", flags, errs)
		}
		if code, _, errs := runQSC(t, "parse", "--parser", out, "Dogs bark."); code != 0 {
			t.Errorf("%q: the model does not parse: %d %s", flags, code, errs)
		}
	}
	wantUsageErrors(t, []string{"train", "parser", "--train", fixture, "--out", filepath.Join(dir, "x.qsm")},
		[]string{"--beam", "0"}, []string{"--gold-copies", "2"}, []string{"--silver", fixture, "--gold-copies", "0"})
}

// wantUsageErrors checks that qsc with args and each set of bad flags exits with 2, the
// code of a usage error.
func wantUsageErrors(t *testing.T, args []string, bad ...[]string) {
	t.Helper()
	for _, flags := range bad {
		if code, _, _ := runQSC(t, append(slices.Clone(args), flags...)...); code != 2 {
			t.Errorf("%q: exit %d, want 2", flags, code)
		}
	}
}

// TestTrainTagger trains tiny taggers on the tagger package's fixture, plain and with the
// fixture again as silver sentences; each writes a model that qsc can load. Bad flag
// combinations are usage errors.
func TestTrainTagger(t *testing.T) {
	fixture := filepath.Join("..", "..", "tagger", "testdata", "ewt-sample.conllu")
	dir := t.TempDir()
	for i, flags := range [][]string{
		nil,
		{"--silver", fixture, "--silver-n", "5", "--gold-copies", "2", "--prune", "64"},
	} {
		out := filepath.Join(dir, fmt.Sprintf("t%d.qsm", i))
		args := append([]string{"train", "tagger", "--train", fixture, "--dev", "", "--clusters", "", "--epochs", "2", "--mix", "1", "--out", out}, flags...)
		code, stdout, errs := runQSC(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", flags, code, errs)
		}
		if len(flags) > 0 && !strings.Contains(stdout, "silver: 5 sentences") {
			t.Errorf("%q: output does not report 5 silver sentences: %s", flags, stdout)
		}
		if code, _, errs := runQSC(t, "parse", "--tagger", out, "Dogs bark."); code != 0 {
			t.Errorf("%q: the model does not tag: %d %s", flags, code, errs)
		}
	}
	wantUsageErrors(t, []string{"train", "tagger", "--train", fixture, "--out", filepath.Join(dir, "x.qsm")},
		[]string{"--gold-copies", "2"}, []string{"--silver-n", "3"}, []string{"--silver", fixture, "--gold-copies", "0"}, []string{"--prune", "0"})
}
