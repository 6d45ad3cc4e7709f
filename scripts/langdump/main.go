// Command langdump prints what langid.Detect says of every text of the files it is given,
// one line each, so that two versions of langid can be compared with diff: each line of a
// file (the "# text =" lines of a CoNLL-U file, which may be gzipped), that line cut to its
// first 5 words, and the whole file (its lines joined by newlines). A CoNLL-U file without
// "# text =" lines gives its sentences' words joined by spaces.
//
//	go run ./scripts/langdump testdata/languages/*.txt > /tmp/after.tsv
package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/qsc-nlp/qsc/internal/core/langid"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, name := range os.Args[1:] {
		lines, err := read(name)
		if err != nil {
			log.Fatal(err)
		}
		for i, line := range lines {
			print(w, name, "line", i, line)
			if words := strings.Fields(line); len(words) > 5 {
				print(w, name, "5words", i, strings.Join(words[:5], " "))
			}
		}
		print(w, name, "whole", 0, strings.Join(lines, "\n"))
	}
}

func print(w io.Writer, name, kind string, i int, text string) {
	r := langid.Detect(text)
	fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%v\t%s\n", name, kind, i, r.Lang, r.Sure, r.Script)
}

// read returns the texts of a file: its non-blank lines; for a CoNLL-U file, its
// "# text =" lines, or its sentences' words joined by spaces when it has none.
func read(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			return nil, err
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var lines, texts, words []string
	conllu := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if t, ok := strings.CutPrefix(line, "# text = "); ok {
			texts = append(texts, t)
		}
		if strings.HasPrefix(line, "# sent_id") {
			conllu = true
		}
		if f := strings.Split(line, "\t"); len(f) == 10 {
			words = append(words, f[1])
		} else if strings.TrimSpace(line) == "" && words != nil {
			lines = append(lines, strings.Join(words, " "))
			words = nil
		}
		if !conllu && strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	switch {
	case texts != nil:
		return texts, nil
	case conllu && words != nil:
		lines = append(lines, strings.Join(words, " "))
	}
	return lines, nil
}
