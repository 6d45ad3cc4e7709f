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
	if len(args) >= 2 && args[0] == "help" {
		return help(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	cmd, rest := lookup(args)
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

// lookup finds the command that args name and returns it with the rest of args, or nil.
// Longest match: two-word commands ("train parser") before one-word ones.
func lookup(args []string) (*command, []string) {
	if len(args) >= 2 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			return c, args[2:]
		}
	}
	if c, ok := commands[args[0]]; ok {
		return c, args[1:]
	}
	return nil, nil
}

// help serves "qsc help CMD": the usage and flags of the command, on stdout.
func help(args []string, stdout, stderr io.Writer) int {
	cmd, rest := lookup(args)
	if cmd == nil || len(rest) > 0 {
		fmt.Fprintf(stderr, "qsc help: unknown command %q\n\n", strings.Join(args, " "))
		usage(stderr)
		return 2
	}
	fmt.Fprintf(stdout, "qsc %s: %s\n\n", cmd.name, cmd.summary)
	if err := cmd.run([]string{"-h"}, stdout, stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stderr, "qsc help %s: %v\n", cmd.name, err)
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
	fmt.Fprintln(w, "\nRun \"qsc help <command>\" (or \"qsc <command> -h\") for the flags of a command.")
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

// parseFlags parses args, turning flag errors into usage errors. Flags may come before,
// between and after the arguments (qsc compress "text" --explain): each argument that
// begins with "-" is parsed as a flag, so an unknown one is a usage error, never taken
// for text; "--" ends the flags, and "-" alone is an argument (stdin). fs.Args() are then
// the arguments, in order.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" { // flag.Parse stopped at "--"
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}
