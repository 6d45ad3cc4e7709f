package main

import (
	"flag"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/syntax"
)

// silverFlags are the flags of `train tagger` and `train parser` that add silver training
// sentences (tagged or parsed by another model) and weigh the gold ones against them.
type silverFlags struct {
	path       *string
	n          *int
	goldCopies *int
}

// addSilverFlags defines --silver (described by what), --silver-n and --gold-copies.
func addSilverFlags(fs *flag.FlagSet, what string) *silverFlags {
	return &silverFlags{
		path:       fs.String("silver", "", what),
		n:          fs.Int("silver-n", 0, "use only the first `N` sentences of --silver (0: all)"),
		goldCopies: fs.Int("gold-copies", 1, "with --silver: how many times each --train sentence is seen per epoch, to weigh it against the silver ones"),
	}
}

// check reports a usage error for bad values or for --silver-n or --gold-copies without
// --silver.
func (f *silverFlags) check() error {
	if *f.goldCopies < 1 || *f.n < 0 {
		return cli.Usagef("--gold-copies must be at least 1 and --silver-n at least 0")
	}
	if *f.path == "" && (*f.goldCopies != 1 || *f.n != 0) {
		return cli.Usagef("--gold-copies and --silver-n only apply with --silver")
	}
	return nil
}

// read returns the first --silver-n sentences of --silver, or nil without --silver.
func (f *silverFlags) read() ([]*syntax.Sentence, error) {
	if *f.path == "" {
		return nil, nil
	}
	silver, err := readTreebank(*f.path)
	if err != nil {
		return nil, err
	}
	if *f.n > 0 && *f.n < len(silver) {
		silver = silver[:*f.n]
	}
	return silver, nil
}
