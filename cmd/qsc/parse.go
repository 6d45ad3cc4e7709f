package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/syntax"
)

func init() {
	prog.Register(&cli.Command{Name: "parse", Summary: "tokenize, tag and parse text (or re-parse a CoNLL-U file) to CoNLL-U", Run: runParse})
}

func runParse(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("parse", "[text] | --conllu FILE", stderr)
	conlluPath := fs.String("conllu", "", "re-parse the words of this CoNLL-U file (plain or .gz; - for stdin), ignoring its HEAD and DEPREL")
	keepXPOS := fs.Bool("keep-xpos", false, "with --conllu: keep the file's XPOS instead of tagging")
	out := fs.String("o", "-", "output file (.gz to compress; - for stdout)")
	workers := fs.Int("workers", 0, "parallel workers for --conllu (0 = all cores)")
	mf := cli.AddModelFlags(fs)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if *workers < 0 {
		return cli.Usagef("--workers must be 0 (all cores) or more, not %d", *workers)
	}
	if *keepXPOS && *conlluPath == "" {
		return cli.Usagef("--keep-xpos needs --conllu")
	}
	if *conlluPath != "" && fs.NArg() > 0 {
		return cli.Usagef("give either --conllu FILE or text, not both")
	}
	p, err := mf.Pipeline()
	if err != nil {
		return err
	}
	w, closeOut, err := openCoNLLUOut(*out, stdout)
	if err != nil {
		return err
	}
	if *conlluPath != "" {
		r, err := openCoNLLUIn(*conlluPath)
		if err != nil {
			return err
		}
		defer r.Close()
		bar := progress.New("parse", 0)
		st, err := p.ParseCoNLLU(context.Background(), r, w, pipeline.Options{KeepXPOS: *keepXPOS}, *workers, bar)
		bar.Done()
		if cerr := closeOut(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("after %d sentences: %w", st.Sentences, err)
		}
		return nil
	}
	var text string
	if fs.NArg() == 1 && !strings.ContainsFunc(fs.Arg(0), unicode.IsSpace) {
		if fi, err := os.Stat(fs.Arg(0)); err == nil && fi.Mode().IsRegular() {
			// "qsc parse notes.txt" meant the file, which qsc snippets would read
			return cli.Usagef("%s is a file: give its text on stdin (qsc parse < %s), or a CoNLL-U file as --conllu %s", fs.Arg(0), fs.Arg(0), fs.Arg(0))
		}
	}
	if fs.NArg() > 0 {
		text = strings.Join(fs.Args(), " ")
	} else {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		return cli.Usagef("no text to parse: give it as arguments or on stdin")
	}
	// CoNLL-U is UTF-8: bytes that are not are read as U+FFFD, as the HTTP API reads them.
	text = strings.ToValidUTF8(text, "\uFFFD")
	sents, err := p.NewWorker().Text(text)
	if err != nil {
		return err
	}
	for i := range sents {
		cs := textCoNLLU(text, &sents[i], i+1)
		if err := w.Write(cs); err != nil {
			return err
		}
	}
	return closeOut()
}

// textCoNLLU converts a sentence analysed from raw text, with sent_id and text comments and
// SpaceAfter=No where the next token follows without a gap.
func textCoNLLU(text string, s *syntax.Sentence, id int) *conllu.Sentence {
	cs := syntax.NewCoNLLU(s)
	first, last := s.Tokens[0], s.Tokens[len(s.Tokens)-1]
	cs.Comments = []string{
		fmt.Sprintf("# sent_id = %d", id),
		"# text = " + strings.Join(strings.Fields(text[first.Start:last.End]), " "),
	}
	for i := range cs.Words {
		if i+1 < len(s.Tokens) && s.Tokens[i].End == s.Tokens[i+1].Start {
			cs.Words[i].Misc = "SpaceAfter=No"
		}
	}
	return cs
}

func openCoNLLUIn(path string) (*conllu.Reader, error) {
	if path == "-" {
		return conllu.NewReader(os.Stdin, "<stdin>")
	}
	return conllu.Open(path)
}

// openCoNLLUOut returns a Writer to path ("-" = stdout) and a function that flushes and
// closes it.
func openCoNLLUOut(path string, stdout io.Writer) (*conllu.Writer, func() error, error) {
	if path == "-" || path == "" {
		w := conllu.NewWriter(stdout)
		return w, w.Flush, nil
	}
	w, err := conllu.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return w, w.Close, nil
}
