// Package clitest runs a cli.Program in process for the tests of the binaries built on it,
// as net/http/httptest does for handlers.
package clitest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/cli"
)

// Run runs args through p and returns the exit status, stdout and stderr.
func Run(p *cli.Program, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = p.Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// Basics checks what every binary must do: "help" exits 0 and lists each of listed, an
// unknown command exits 2 and says so, and an undefined flag of the command cmd exits 2
// and says so.
func Basics(t *testing.T, p *cli.Program, cmd string, listed ...string) {
	t.Helper()
	code, out, _ := Run(p, "help")
	if code != 0 {
		t.Fatalf("help: exit %d\n%s", code, out)
	}
	for _, c := range listed {
		if !strings.Contains(out, c) {
			t.Errorf("help does not list %q:\n%s", c, out)
		}
	}
	if code, _, errs := Run(p, "frobnicate"); code != 2 || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d %q", code, errs)
	}
	args := append(strings.Fields(cmd), "--nope")
	if code, _, errs := Run(p, args...); code != 2 || !strings.Contains(errs, "flag provided but not defined") {
		t.Errorf("%s --nope: exit %d %q", cmd, code, errs)
	}
}
