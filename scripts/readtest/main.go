// Command readtest is the harness of qsc's blind pairwise reading tests (docs/reading.md).
//
//	go run ./scripts/readtest items -n 80 -seed 1 -out items.jsonl -qsc in.jsonl -data ../shared/data
//	go run ./scripts/readtest pairs -items items.jsonl -a A.jsonl -b B.jsonl -seed 2 -name NAME -out DIR [-split K]
//	go run ./scripts/readtest tally -key DIR/NAME.key.json -j1 verdicts1.txt -j2 verdicts2.txt [-json FILE]
//	go run ./scripts/readtest examples -items items.jsonl -sys new=A.jsonl -sys window=B.jsonl [-n 20]
//	go run ./scripts/readtest chop -items items.jsonl -sys new=A.jsonl -sys window=B.jsonl
//	go run ./scripts/readtest terms -out terms.jsonl DIR/NAME.key.json …
//
// items samples sentences from outside the news (UD_English-EWT dev and test, qsc's
// out-of-domain set, UD_English-PUD's Wikipedia half; with -gum-dev or -gum-train one split of
// UD_English-GUM, never its test split; with -gentle UD_English-GENTLE; with -conllu the
// CoNLL-U files of any other treebank, such as UD_English-LinES and -ParTUT) with one- or
// two-term queries, and writes two items per sentence, one per budget protocol (b60: 60% of
// the sentence's characters; box100: 100 characters), plus the records for
// `qsc compress --jsonl`. pairs turns two systems' outputs into a blind packet for judges and
// a key; tally maps the judges' verdicts back through the key. Everything is deterministic
// for a given seed.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage: go run ./scripts/readtest COMMAND [flags]

commands:
  items   sample sentences and queries; write the items and the qsc compress --jsonl input
  pairs   build the blind packet for judges and its key from two systems' outputs
  tally   map the judges' verdicts back to the systems and count them
  examples  print fixed examples of several systems' snippets as a markdown table
  chop    count inner gaps, one-word islands and cuts after a function word in displayed snippets
  terms   weigh both snippets of every shown pair of keys under the snippet decoding's objective

Run a command with -h for its flags. The protocol is in docs/reading.md.
`

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "readtest:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "items":
		return cmdItems(args[1:], stdout, stderr)
	case "pairs":
		return cmdPairs(args[1:], stdout, stderr)
	case "tally":
		return cmdTally(args[1:], stdout, stderr)
	case "examples":
		return cmdExamples(args[1:], stdout, stderr)
	case "chop":
		return cmdChop(args[1:], stdout, stderr)
	case "terms":
		return cmdTerms(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./scripts/readtest %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// requireFlags fails naming the first of the named string flags left empty.
func requireFlags(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if fs.Lookup(n).Value.String() == "" {
			fs.Usage()
			return fmt.Errorf("%s: -%s is required", fs.Name(), n)
		}
	}
	return nil
}
