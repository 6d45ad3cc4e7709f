package main

import (
	"flag"
	"testing"
)

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
