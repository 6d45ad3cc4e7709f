// Command qsc compresses sentences for search snippets: one sentence or a JSONL batch
// (compress), the best sentences of a document (snippets), stored annotations (annotate),
// the HTTP service (serve), its latency on the test tuples (bench), model files (convert),
// raw text to CoNLL-U (parse) and its version. Training, evaluation and data commands are
// in cmd/qsc-lab. Run "qsc help" for the list of subcommands.
package main

import (
	"os"

	"github.com/qsc-nlp/qsc/internal/core/cli"
)

// prog is the set of subcommands; each registers itself in an init function of its own
// file, so that each stays in one place.
var prog = cli.Program{Name: "qsc", Title: "query-focused sentence compression"}

func main() {
	os.Exit(prog.Run(os.Args[1:], os.Stdout, os.Stderr))
}
