// Package cli is the command-line frame that the qsc and qsc-lab binaries share: a
// registry of subcommands with their dispatch and help, flag parsing that lets flags come
// anywhere, usage errors (exit status 2), and the flags that choose the tagger and parser.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Command is one subcommand. Subcommands register themselves in init functions of their
// own files, so that each stays in one place.
type Command struct {
	Name    string // e.g. "data stats"
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) error
}

// Program is a binary's set of subcommands. Its methods are not safe for concurrent
// Register calls; Register belongs in init functions.
type Program struct {
	Name  string // the binary, e.g. "qsc"
	Title string // one line on what it does, the first line of its usage
	// Message, when set, is the text Run writes for a command's error (its Error()
	// otherwise): for a reader at a terminal, where an HTTP status's words mislead.
	Message  func(error) string
	commands map[string]*Command
}

// Register adds c; it panics when p already has a command of that name (a programming
// error, found at start-up).
func (p *Program) Register(c *Command) {
	if p.commands == nil {
		p.commands = map[string]*Command{}
	}
	if _, dup := p.commands[c.Name]; dup {
		panic(p.Name + ": duplicate command " + c.Name)
	}
	p.commands[c.Name] = c
}

// ErrUsage marks an error in the command line; Run exits with status 2 for it.
var ErrUsage = errors.New("usage error")

// Usagef returns an error wrapping ErrUsage with the formatted message.
func Usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, args...))
}

// Run dispatches args to a subcommand and returns the exit status: 0, 1 for an error of
// the command, 2 for a usage error or an unknown command.
func (p *Program) Run(args []string, stdout, stderr io.Writer) int {
	if len(args) >= 2 && args[0] == "help" {
		return p.help(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		p.usage(stdout)
		return 0
	}
	cmd, rest := p.lookup(args)
	if cmd == nil {
		fmt.Fprintf(stderr, "%s: unknown command %q\n\n", p.Name, strings.Join(args[:min(2, len(args))], " "))
		p.usage(stderr)
		return 2
	}
	if err := cmd.Run(rest, stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		msg := err.Error()
		if p.Message != nil {
			msg = p.Message(err)
		}
		fmt.Fprintf(stderr, "%s %s: %s\n", p.Name, cmd.Name, msg)
		if errors.Is(err, ErrUsage) {
			return 2
		}
		return 1
	}
	return 0
}

// lookup finds the command that args name and returns it with the rest of args, or nil.
// Longest match: two-word commands ("train parser") before one-word ones.
func (p *Program) lookup(args []string) (*Command, []string) {
	if len(args) >= 2 {
		if c, ok := p.commands[args[0]+" "+args[1]]; ok {
			return c, args[2:]
		}
	}
	if c, ok := p.commands[args[0]]; ok {
		return c, args[1:]
	}
	return nil, nil
}

// help serves "PROGRAM help CMD": the usage and flags of the command, on stdout.
func (p *Program) help(args []string, stdout, stderr io.Writer) int {
	cmd, rest := p.lookup(args)
	if cmd == nil || len(rest) > 0 {
		fmt.Fprintf(stderr, "%s help: unknown command %q\n\n", p.Name, strings.Join(args, " "))
		p.usage(stderr)
		return 2
	}
	fmt.Fprintf(stdout, "%s %s: %s\n\n", p.Name, cmd.Name, cmd.Summary)
	if err := cmd.Run([]string{"-h"}, stdout, stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stderr, "%s help %s: %v\n", p.Name, cmd.Name, err)
		return 1
	}
	return 0
}

func (p *Program) usage(w io.Writer) {
	fmt.Fprintf(w, "%s: %s\n", p.Name, p.Title)
	fmt.Fprintf(w, "\nUsage: %s <command> [flags] [args]\n\nCommands:\n", p.Name)
	names := make([]string, 0, len(p.commands))
	for n := range p.commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, p.commands[n].Summary)
	}
	fmt.Fprintf(w, "\nRun \"%s help <command>\" (or \"%s <command> -h\") for the flags of a command.\n", p.Name, p.Name)
}

// Flags returns a FlagSet for the subcommand name of p that reports errors instead of
// exiting; args describes the arguments after the flags in the usage line.
func (p *Program) Flags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(p.Name+" "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		usage := p.Name + " " + name
		flags := false
		fs.VisitAll(func(*flag.Flag) { flags = true })
		if flags {
			usage += " [flags]"
		}
		if args != "" {
			usage += " " + args
		}
		fmt.Fprintf(stderr, "Usage: %s\n", usage)
		if flags { // a command without flags gets no empty list of them
			fmt.Fprintf(stderr, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// ParseNoArgs parses args as ParseFlags does, for a command that takes flags only: an
// argument left over is a usage error that names it.
func ParseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return Usagef("unexpected arguments %q", fs.Args())
	}
	return nil
}

// textLikeFlag returns the first argument before any "--" that begins with "-" and holds a
// space, which is text rather than a flag, or "".
func textLikeFlag(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && strings.ContainsAny(a, " \t\n") {
			return a
		}
	}
	return ""
}

// ParseFlags parses args, turning flag errors into usage errors. Flags may come before,
// between and after the arguments (qsc compress "text" --explain): each argument that
// begins with "-" is parsed as a flag, so an unknown one is a usage error, never taken
// for text; "--" ends the flags, and "-" alone is an argument (stdin). fs.Args() are then
// the arguments, in order.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			if text := textLikeFlag(args); text != "" {
				// "- The programme should …": a sentence of a list, taken for a flag.
				return fmt.Errorf("%w: %v (to pass text that starts with \"-\", put it after \"--\": %s -- %q)",
					ErrUsage, err, fs.Name(), text)
			}
			return fmt.Errorf("%w: %v", ErrUsage, err)
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
