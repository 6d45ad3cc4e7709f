package main

import (
	"flag"
	"strings"
	"testing"
)

// TestBenchOnFixture times lr and the ILP on the fixture corpus: the ILP with each solver
// of the build (GLPK only with -tags glpk, which bench says), and the ratios of the
// geometric means.
func TestBenchOnFixture(t *testing.T) {
	data := fixtureData(t)
	code, stdout, errs := runQSC(t, "bench", "--data", data, "--cache", t.TempDir(), "--samples", "30")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"| lr | compression of a pre-parsed sentence | 30 |", "| ilp (DP) | compression of a pre-parsed sentence | 30 |",
		"| ILP (DP) / VA_LR |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("bench output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stdout, "| ilp (GLPK) | compression of a pre-parsed sentence | 30 |") && !strings.Contains(stdout, "| ilp (GLPK) | not in this build") {
		t.Errorf("bench says nothing of GLPK:\n%s", stdout)
	}
}

// TestNonDefault checks what decides whether a snippet evaluation replaces the standard
// results in docs/results: any flag but the listed ones.
func TestNonDefault(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--snippets", "--samples", "0"}, ""},
		{[]string{"--ood", "--data", "x"}, ""},
		{[]string{"--snippets", "--snippet-methods", "window,ilp"}, "snippet-methods"},
		{[]string{"--ood", "--rules-off", "hedge"}, "rules-off"},
	} {
		fs := flag.NewFlagSet("eval", flag.ContinueOnError)
		for _, name := range []string{"snippets", "ood"} {
			fs.Bool(name, false, "")
		}
		for _, name := range []string{"samples", "data", "snippet-methods", "rules-off"} {
			fs.String(name, "", "")
		}
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if got := nonDefault(fs, "snippets", "ood", "samples", "data", "cache"); got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}
