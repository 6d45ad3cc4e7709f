// Command qsc compresses sentences for search snippets: one sentence or a JSONL batch
// (compress), the best sentences of a document (snippets), stored annotations (annotate),
// the HTTP service (serve), its latency on the test tuples (bench), model files (convert),
// raw text to CoNLL-U (parse) and its version. Training, evaluation and data commands are
// in cmd/qsc-lab. Run "qsc help" for the list of subcommands.
package main

import (
	"errors"
	"os"
	"strings"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/cli"
)

// prog is the set of subcommands; each registers itself in an init function of its own
// file, so that each stays in one place.
var prog = cli.Program{Name: "qsc", Title: "query-focused sentence compression", Message: errText}

// errText is the text of an error at the terminal: without the "bad request: " that
// qsc.ErrBadRequest puts before what was wrong, which names an HTTP status. JSON output
// (--jsonl, --json) keeps the library's text, as the service answers it.
func errText(err error) string {
	if errors.Is(err, qsc.ErrBadRequest) {
		return strings.Replace(err.Error(), qsc.ErrBadRequest.Error()+": ", "", 1)
	}
	return err.Error()
}

func main() {
	os.Exit(prog.Run(os.Args[1:], os.Stdout, os.Stderr))
}
