// Command qsc compresses sentences for search snippets, and trains and evaluates the
// models behind it. Run "qsc help" for the list of subcommands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand. Subcommands register themselves in init functions of their
// own files, so that each stays in one place.
type command struct {
	name    string // e.g. "data stats"
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("qsc: duplicate command " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error in the command line; main exits with status 2 for it.
var errUsage = errors.New("usage error")

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	// Longest match: two-word commands ("train parser") before one-word ones.
	var cmd *command
	var rest []string
	if len(args) >= 2 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			cmd, rest = c, args[2:]
		}
	}
	if cmd == nil {
		if c, ok := commands[args[0]]; ok {
			cmd, rest = c, args[1:]
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "qsc: unknown command %q\n\n", strings.Join(args[:min(2, len(args))], " "))
		usage(stderr)
		return 2
	}
	if err := cmd.run(rest, stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "qsc %s: %v\n", cmd.name, err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "qsc: query-focused sentence compression")
	fmt.Fprintln(w, "\nUsage: qsc <command> [flags] [args]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"qsc <command> -h\" for the flags of a command.")
}

// newFlags returns a FlagSet for a subcommand that reports errors instead of exiting.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("qsc "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: qsc %s [flags] %s\n\nFlags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}
