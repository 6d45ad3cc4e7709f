package cli_test

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/cli/clitest"
)

// toy returns a program with a one-word and a two-word command, and one without flags;
// "fail" fails with err.
func toy(err error) *cli.Program {
	p := &cli.Program{Name: "toy", Title: "a test program"}
	p.Register(&cli.Command{Name: "greet", Summary: "says hello", Run: func(args []string, stdout, stderr io.Writer) error {
		fs := p.Flags("greet", "", stderr)
		name := fs.String("name", "world", "who")
		if err := cli.ParseFlags(fs, args); err != nil {
			return err
		}
		_, werr := io.WriteString(stdout, "hello "+*name+"\n")
		return werr
	}})
	p.Register(&cli.Command{Name: "do fail", Summary: "fails", Run: func([]string, io.Writer, io.Writer) error { return err }})
	p.Register(&cli.Command{Name: "plain", Summary: "has no flags", Run: func(args []string, stdout, stderr io.Writer) error {
		return cli.ParseNoArgs(p.Flags("plain", "", stderr), args)
	}})
	return p
}

func TestProgram(t *testing.T) {
	p := toy(errors.New("broken"))
	clitest.Basics(t, p, "greet", "greet", "do fail")
	if code, out, _ := clitest.Run(p, "greet", "--name", "qsc"); code != 0 || out != "hello qsc\n" {
		t.Errorf("greet: exit %d %q", code, out)
	}
	if code, _, errs := clitest.Run(p, "do", "fail"); code != 1 || !strings.Contains(errs, "toy do fail: broken") {
		t.Errorf("do fail: exit %d %q", code, errs)
	}
	if code, _, errs := clitest.Run(toy(cli.Usagef("no such thing")), "do", "fail"); code != 2 || !strings.Contains(errs, "no such thing") {
		t.Errorf("usage error: exit %d %q", code, errs)
	}
	if code, out, _ := clitest.Run(p, "help", "greet"); code != 0 || !strings.Contains(out, "-name") {
		t.Errorf("help greet: exit %d %q", code, out)
	}
	// A command without flags says neither "[flags]" nor "Flags:" (and ends no line in a space).
	if code, out, _ := clitest.Run(p, "help", "plain"); code != 0 || out != "toy plain: has no flags\n\nUsage: toy plain\n" {
		t.Errorf("help plain: exit %d %q", code, out)
	}
	if code, _, _ := clitest.Run(p, "help", "nothing"); code != 2 {
		t.Errorf("help nothing: exit %d, want 2", code)
	}
}

func TestParseNoArgs(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 0, "a number")
	if err := cli.ParseNoArgs(fs, []string{"--n", "3"}); err != nil || *n != 3 {
		t.Fatalf("flags only: n = %d, err = %v", *n, err)
	}
	fs = flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int("n", 0, "a number")
	err := cli.ParseNoArgs(fs, []string{"extra", "--n", "3"})
	if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), `unexpected arguments ["extra"]`) {
		t.Fatalf("an argument left over: %v, want a usage error naming it", err)
	}
	fs = flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := cli.ParseNoArgs(fs, []string{"--nope"}); !errors.Is(err, cli.ErrUsage) {
		t.Fatalf("an unknown flag: %v, want a usage error", err)
	}
}

// TestParseFlagsTextWithDash: text that starts with "-" (an item of a list) is taken for
// a flag, and the usage error says how to pass it; after "--" it is text.
func TestParseFlagsTextWithDash(t *testing.T) {
	fs := flag.NewFlagSet("qsc parse", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	err := cli.ParseFlags(fs, []string{"- The programme should continue."})
	if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), `qsc parse -- "- The programme should continue."`) {
		t.Fatalf("text with a dash: %v, want a usage error that shows \"--\"", err)
	}
	fs = flag.NewFlagSet("qsc parse", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := cli.ParseFlags(fs, []string{"--nope"}); err == nil || strings.Contains(err.Error(), `"--"`) {
		t.Fatalf("an unknown flag: %v, want a usage error without the hint", err)
	}
	fs = flag.NewFlagSet("qsc parse", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := cli.ParseFlags(fs, []string{"--", "- The programme should continue."}); err != nil || fs.NArg() != 1 {
		t.Fatalf("after --: %v, %d arguments", err, fs.NArg())
	}
}
