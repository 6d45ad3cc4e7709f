// Command qsc-lab trains and evaluates the models behind qsc: the training commands
// (train lr, ilp, nn, lm, tagger, parser), the evaluations (eval with its snippet,
// out-of-domain and Table 2 modes, eval tagger, eval parser) and the data commands (data
// stats, data parse, data demo). It links the figure code (gonum/plot) that the product
// binary, cmd/qsc, leaves out. Run "qsc-lab help" for the list of subcommands.
package main

import (
	"os"

	"github.com/qsc-nlp/qsc/internal/core/cli"
)

// prog is the set of subcommands; each registers itself in an init function of its own
// file, so that each stays in one place.
var prog = cli.Program{Name: "qsc-lab", Title: "training, evaluation and data of qsc's models"}

func main() {
	os.Exit(prog.Run(os.Args[1:], os.Stdout, os.Stderr))
}
