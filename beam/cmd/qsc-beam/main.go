// Command qsc-beam annotates documents with an Apache Beam pipeline (package qscbeam): it
// reads JSONL records {"id", "text"} (or whole text files with --format text), writes one
// JSONL record per input record, the records of `qsc annotate`, and prints the pipeline's
// counters. It runs on every runner of the Beam Go SDK (--runner prism, the default, flink,
// spark, dataflow…); README.md gives the commands.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/qsc-nlp/qsc"
	qscbeam "github.com/qsc-nlp/qsc/beam"
)

// queries collects the repeated --query flag.
type queries [][]string

func (q *queries) String() string { return fmt.Sprint(*q) }

func (q *queries) Set(s string) error {
	var terms []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		return fmt.Errorf("empty query")
	}
	*q = append(*q, terms)
	return nil
}

func main() {
	var o qscbeam.Options
	var qs queries
	flag.StringVar(&o.Input, "input", "", "input file pattern (local, gs://, s3://)")
	flag.StringVar(&o.Format, "format", qscbeam.FormatJSONL, `input format: "jsonl" (records {"id", "text"}, one a line) or "text" (each file one document, its path the id)`)
	flag.StringVar(&o.Output, "output", "", "output file: one JSONL record per input record")
	flag.BoolVar(&o.Accurate, "accurate", false, "parse with the embedded beam-search parser (better trees, about 6 times slower parsing)")
	flag.BoolVar(&o.Tables, "tables", false, "include the tag and label tables in every annotation")
	flag.BoolVar(&o.JSON, "json", false, "write the annotations' JSON form instead of base64 (debugging)")
	flag.Var(&qs, "query", "also compress every document for this query (comma-separated terms; repeat for several)")
	flag.IntVar(&o.Budget, "budget", 0, "budget of the snippets of --query, in characters")
	flag.IntVar(&o.N, "n", qsc.DefaultSnippets, "snippets per document and query")
	flag.StringVar(&o.Method, "method", "", "method of the snippets: "+strings.Join(qsc.Methods(), ", ")+` (default: `+qsc.DefaultMethod+` for English text, `+qsc.MethodWindow+` for other languages, as qsc annotate; a method named reads any text as English)`)
	flag.Parse()
	o.Queries = qs
	beam.Init()
	if err := o.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "qsc-beam:", err)
		os.Exit(2)
	}
	if err := localInput(o.Input); err != nil {
		fmt.Fprintln(os.Stderr, "qsc-beam:", err)
		os.Exit(2)
	}
	p, s := beam.NewPipelineWithRoot()
	if _, err := qscbeam.Build(s, o); err != nil {
		log.Fatal(err)
	}
	res, err := beamx.RunWithMetrics(context.Background(), p)
	if err != nil {
		log.Fatalf("pipeline failed: %v", err)
	}
	var total, failed int64
	if res != nil {
		for _, c := range res.Metrics().AllMetrics().Counters() {
			if c.Key.Namespace == qscbeam.Namespace {
				fmt.Fprintf(os.Stderr, "%s: %d\n", c.Key.Name, c.Result())
				switch c.Key.Name {
				case qscbeam.MetricRecords:
					total += c.Result()
				case qscbeam.MetricErrors:
					failed += c.Result()
				}
			}
		}
	}
	if failed > 0 {
		// As qsc annotate: the job went on, and its status says that records failed.
		fmt.Fprintf(os.Stderr, "qsc-beam: %d of %d records failed (each has its error record in the output)\n", failed, total)
		os.Exit(1)
	}
}

// localInput checks that a local --input pattern matches a file: a typo would otherwise
// run a pipeline that reads nothing, writes nothing and succeeds. Patterns of another
// file system (gs://, s3://) are left to the runner.
func localInput(pattern string) error {
	if strings.Contains(pattern, "://") {
		return nil
	}
	matches, err := filepath.Glob(pattern)
	if err != nil {
		return fmt.Errorf("--input %q: %v", pattern, err)
	}
	if len(matches) == 0 {
		return fmt.Errorf("--input %q matches no file", pattern)
	}
	return nil
}
