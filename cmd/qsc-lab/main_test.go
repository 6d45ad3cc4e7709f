package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/cli/clitest"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/lab/dataset/datasettest"
	"github.com/qsc-nlp/qsc/syntax"
)

// runQSC runs the command line in-process and returns the exit status, stdout and stderr.
func runQSC(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return clitest.Run(&prog, args...)
}

func TestHelpAndUnknown(t *testing.T) {
	clitest.Basics(t, &prog, "eval", "train parser", "data stats")
	if code, _, _ := runQSC(t, "eval", "parser", "--accurate", "--model", "x.qsm"); code != 2 {
		t.Errorf("eval parser --accurate --model: exit %d, want 2", code)
	}
}

// TestTrainILPDisplayFlags checks that the options of training for the display are
// refused without --display-target, and a negative --target-fill, before any data is read.
func TestTrainILPDisplayFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--show-prediction"}, "--show-prediction"},
		{[]string{"--target-at-gold"}, "--target-at-gold"},
		{[]string{"--target-union"}, "--target-union"},
		{[]string{"--display-target", "--target-fill", "-1"}, "--target-fill"},
	} {
		code, _, errs := runQSC(t, append([]string{"train", "ilp", "--train", "/nonexistent"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, "usage error") || !strings.Contains(errs, c.want) {
			t.Errorf("train ilp %v: exit %d, stderr %q; want a usage error naming %s", c.args, code, errs, c.want)
		}
	}
}

func TestDataParseAndStats(t *testing.T) {
	data := datasettest.Data(t)
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
	data := datasettest.Data(t)
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
		if err := parseWith("", out, "Dogs bark."); err != nil {
			t.Errorf("%q: the model does not parse: %v", flags, err)
		}
	}
	wantUsageErrors(t, []string{"train", "parser", "--train", fixture, "--out", filepath.Join(dir, "x.qsm")},
		[]string{"--beam", "0"}, []string{"--gold-copies", "2"}, []string{"--silver", fixture, "--gold-copies", "0"})
}

// parseWith tags and parses text with the tagger and parser files (empty: the embedded
// default), as qsc parse --tagger/--parser does.
func parseWith(taggerFile, parserFile, text string) error {
	td, err := cli.ModelBytes(taggerFile, pipeline.TaggerName)
	if err != nil {
		return err
	}
	pd, err := cli.ModelBytes(parserFile, pipeline.ParserName)
	if err != nil {
		return err
	}
	p, err := pipeline.Load(td, pd)
	if err != nil {
		return err
	}
	sents, err := p.NewWorker().Text(text)
	if err == nil && (len(sents) == 0 || slices.Contains(sents[0].Heads(), syntax.NoHead)) {
		err = fmt.Errorf("%q: no parsed sentence", text)
	}
	return err
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
		if err := parseWith(out, "", "Dogs bark."); err != nil {
			t.Errorf("%q: the model does not tag: %v", flags, err)
		}
	}
	wantUsageErrors(t, []string{"train", "tagger", "--train", fixture, "--out", filepath.Join(dir, "x.qsm")},
		[]string{"--gold-copies", "2"}, []string{"--silver-n", "3"}, []string{"--silver", fixture, "--gold-copies", "0"}, []string{"--prune", "0"})
}
