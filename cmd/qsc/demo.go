package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/atomicfile"
	"github.com/qsc-nlp/qsc/internal/demo"
	"github.com/qsc-nlp/qsc/internal/shared"
)

func init() {
	register(&command{name: "data demo", summary: "build the demo collection of `qsc serve` from the Google corpus's test sentences", run: runDataDemo})
}

func runDataDemo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("data demo", "", stderr)
	dir := fs.String("data", "", "data directory holding google-compression/ (default: $QSC_DATA or ../shared/data beside the repository)")
	out := fs.String("out", filepath.Join("internal", "demo", demo.FileName), "output file (gzip-compressed JSON lines); the default is the embedded copy, from the repository root")
	size := fs.Int("size", demo.Size, "consecutive sentences per document")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", fs.Args())
	}
	if *size < 1 {
		return usagef("--size must be at least 1, got %d", *size)
	}
	if *dir == "" {
		if *dir = shared.DataDir(); *dir == "" {
			return usagef("no data directory: pass --data DIR or set QSC_DATA")
		}
	}
	r, err := conllu.Open(filepath.Join(*dir, shared.GoogleTest))
	if err != nil {
		return err
	}
	defer r.Close()
	docs, err := demo.Build(r, *size)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := demo.Write(&buf, docs); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(*out, buf.Bytes()); err != nil {
		return err
	}
	sents, chars := 0, 0
	for _, d := range docs {
		sents += len(d.Sources)
		chars += len(d.Text)
	}
	fmt.Fprintf(stdout, "%s: %d documents, %d sentences, %d bytes of text, %d bytes gzip-compressed\n", *out, len(docs), sents, chars, buf.Len())
	return nil
}
