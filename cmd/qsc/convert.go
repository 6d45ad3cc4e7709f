package main

import (
	"encoding"
	"fmt"
	"io"
	"os"

	"github.com/qsc-nlp/qsc/internal/core/atomicfile"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/method/ilp"
	"github.com/qsc-nlp/qsc/parser"
	"github.com/qsc-nlp/qsc/tagger"
)

func init() {
	prog.Register(&cli.Command{Name: "convert", Summary: "rewrite a tagger, parser or ILP model file in the newest format of its kind, without retraining", Run: runConvert})
}

// runConvert loads a model file with the loader of its kind, which reads every format
// version, and writes it as the newest version. The weights are not retrained; a format
// that stores them at a lower precision rounds them (MODELS.md gives the scores before
// and after).
func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("convert", "IN OUT", stderr)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return cli.Usagef("want an input and an output model file, got %d arguments", fs.NArg())
	}
	in, out := fs.Arg(0), fs.Arg(1)
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	kind, version, err := modelfile.Header(data)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	var m encoding.BinaryMarshaler
	switch kind {
	case tagger.Kind:
		m, err = tagger.Load(data)
	case parser.Kind:
		m, err = parser.Load(data)
	case ilp.Kind:
		m, err = ilp.Load(data)
	default:
		return fmt.Errorf("%s: a %q model file has no newer format (convert reads tagger, parser and ilp files)", in, kind)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(out, b); err != nil {
		return err
	}
	_, newVersion, _ := modelfile.Header(b)
	fmt.Fprintf(stdout, "%s: %s model, format version %d, %d bytes\n%s: format version %d, %d bytes\n", in, kind, version, len(data), out, newVersion, len(b))
	return nil
}
