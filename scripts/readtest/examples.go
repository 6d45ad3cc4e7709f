package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// systemsFlag collects repeated -sys LABEL=FILE flags, in order.
type systemsFlag []string

func (s *systemsFlag) String() string     { return strings.Join(*s, ",") }
func (s *systemsFlag) Set(v string) error { *s = append(*s, v); return nil }

// systemsArgs adds -items and -sys to fs, parses args, and reads the items and each
// system's outputs, in the order given.
func systemsArgs(fs *flag.FlagSet, args []string) (items []Item, labels []string, outs []map[string]result, err error) {
	itemsPath := fs.String("items", "", "the items file (readtest items -out)")
	var systems systemsFlag
	fs.Var(&systems, "sys", "a system's `LABEL=FILE` of qsc compress --jsonl output (repeat; the first is the one under test)")
	if err := parseFlags(fs, args); err != nil {
		return nil, nil, nil, err
	}
	if *itemsPath == "" || len(systems) == 0 {
		fs.Usage()
		return nil, nil, nil, fmt.Errorf("%s: -items and at least one -sys are required", fs.Name())
	}
	if items, err = readItems(*itemsPath); err != nil {
		return nil, nil, nil, err
	}
	for _, s := range systems {
		label, path, ok := strings.Cut(s, "=")
		if !ok || label == "" || path == "" {
			return nil, nil, nil, fmt.Errorf("%s: -sys %q: want LABEL=FILE", fs.Name(), s)
		}
		out, err := readResults(path)
		if err != nil {
			return nil, nil, nil, err
		}
		labels, outs = append(labels, label), append(outs, out)
	}
	return items, labels, outs, nil
}

// cmdExamples prints n items drawn with the seed, with each system's displayed snippet,
// as a markdown table: the fixed examples of docs/results.
func cmdExamples(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("examples", "-items FILE -sys LABEL=FILE [-sys LABEL=FILE …] [-n 20] [-seed 1]", stderr)
	n := fs.Int("n", 20, "examples to print")
	seed := fs.Uint64("seed", 1, "seed of the draw")
	items, labels, outs, err := systemsArgs(fs, args)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(*seed, 0xe8a))
	order := rng.Perm(len(items))
	fmt.Fprintf(stdout, "| # | budget | query | sentence | %s |\n|--:|--:|---|---|%s\n", strings.Join(labels, " | "), strings.Repeat("---|", len(labels)))
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for k, i := range order[:min(*n, len(order))] {
		it := items[i]
		fmt.Fprintf(stdout, "| %d | %d (%s) | %s | %s |", k+1, it.Budget, it.Protocol, cell(strings.Join(it.Query, ", ")), cell(it.Text))
		for j := range outs {
			r, ok := outs[j][it.ID]
			switch {
			case !ok:
				fmt.Fprint(stdout, " (missing) |")
			case r.Error != "":
				fmt.Fprintf(stdout, " error: %s |", cell(r.Error))
			case r.CompressionEllipsis != nil:
				fmt.Fprintf(stdout, " %s |", cell(*r.CompressionEllipsis))
			default:
				fmt.Fprintf(stdout, " %s |", cell(r.Compression))
			}
		}
		fmt.Fprintln(stdout)
	}
	return nil
}
