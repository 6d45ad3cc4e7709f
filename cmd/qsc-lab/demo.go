package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/atomicfile"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/internal/service/demo"
)

func init() {
	prog.Register(&cli.Command{Name: "data demo", Summary: "build the demo collection of `qsc serve` from the documents of UD_English-EWT's dev and test files", Run: runDataDemo})
}

func runDataDemo(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("data demo", "", stderr)
	dir := fs.String("data", "", "data directory holding ud-english/UD_English-EWT/ (default: $QSC_DATA or ../shared/data beside the repository)")
	out := fs.String("out", filepath.Join("internal", "service", "demo", demo.FileName), "output file (gzip-compressed JSON lines); the default is the embedded copy, from the repository root")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		if *dir = shared.DataDir(); *dir == "" {
			return cli.Usagef("no data directory: pass --data DIR or set QSC_DATA")
		}
	}
	var rs []*conllu.Reader
	defer func() {
		for _, r := range rs {
			r.Close()
		}
	}()
	for _, rel := range []string{shared.EWTDev, shared.EWTTest} {
		r, err := conllu.Open(filepath.Join(*dir, rel))
		if err != nil {
			return err
		}
		rs = append(rs, r)
	}
	docs, st, err := demo.Build(rs...)
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
	chars := 0
	for _, d := range docs {
		chars += len(d.Text)
	}
	fmt.Fprintf(stdout, "%s: %d documents, %d sentences (%d documents of fewer than %d sentences left out), %d bytes of text, %d bytes gzip-compressed\n",
		*out, st.Documents, st.Sentences, st.Skipped, demo.MinSentences, chars, buf.Len())
	return nil
}
