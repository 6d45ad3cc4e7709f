package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	annbatch "github.com/qsc-nlp/qsc/annotation/batch"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/progress"
)

func init() {
	prog.Register(&cli.Command{Name: "annotate", Summary: "parse documents once into stored annotations (JSONL in, JSONL with base64 annotations out)", Run: runAnnotate})
}

// annotateSource is one input of qsc annotate: JSONL records or one text document.
type annotateSource struct {
	path  string // "-" for stdin
	jsonl bool
}

func runAnnotate(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("annotate", "[FILE...]", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: qsc annotate [flags] [FILE...]

Tokenizes, tags and parses documents once and writes their annotations, one JSON line per
document, in input order: {"id", "annotation" (base64 of the binary form), "sentences",
"tokens", "bytes"}, or {"id", "error"} for a record that cannot be read or annotated (the
batch goes on, and the exit status is 1). Inputs: stdin when no FILE (or "-") is given,
read as JSONL records {"id", "text"} (a "title" and a "url", as qsc serve --docs reads
them, are accepted); a FILE ending in .jsonl is JSONL too; any other FILE is one
document, its whole text, with its path as id. "bytes" is the size of the binary
annotation; with -q, "snippets" holds each query's snippets, their spans byte offsets
[start, end) into the text (docs/surfaces.md has the record's fields).

Limits: a document of at most 1 MiB (qsc.MaxDocumentBytes; a longer one is an error
record: split it first), a JSONL line of at most 8 MiB. An error record names its
file:line.

Interrupted (SIGINT, SIGTERM), it stops after the last whole record written and says how
many: the same command with --skip N, its output appended, finishes the run as one
uninterrupted run would have written it.

Flags:
`)
		fs.PrintDefaults()
	}
	accurate := fs.Bool("accurate", false, cli.AccurateUsage)
	tables := fs.Bool("tables", false, "include the tag and label tables in every annotation (self-contained, about 570 bytes more)")
	asJSON := fs.Bool("json", false, `write each annotation's JSON form ("annotation_json", with tag and label names) instead of base64: for debugging`)
	var queries [][]string
	fs.Func("q", "also compress every document for this query (comma-separated terms; repeat -q for several queries)", func(s string) error {
		q := splitTerms(s)
		if len(q) == 0 {
			return fmt.Errorf("empty query")
		}
		queries = append(queries, q)
		return nil
	})
	budget := fs.Int("b", 0, "budget of the snippets of -q, in characters")
	n := fs.Int("n", qsc.DefaultSnippets, "snippets per document and query")
	method := methodFlag(fs, "snippets' method")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "documents annotated at once")
	skip := fs.Int("skip", 0, "skip the first N records (non-blank JSONL lines and files, as the output counts them), writing nothing for them: resumes a run interrupted after N records")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if *jobs < 1 {
		return cli.Usagef("--jobs must be at least 1, got %d", *jobs)
	}
	if *skip < 0 {
		return cli.Usagef("--skip must be 0 or more, got %d", *skip)
	}
	if len(queries) == 0 && *budget != 0 {
		return cli.Usagef("-b applies to the snippets of -q; give a query")
	}
	eng, err := qsc.NewWithOptions(qsc.Options{Accurate: *accurate})
	if err != nil {
		return err
	}
	p, err := annbatch.New(eng, annbatch.Options{Tables: *tables, JSON: *asJSON, Queries: queries, Budget: *budget, N: *n, Method: string(*method)})
	if err != nil {
		return cli.Usagef("%v", err)
	}
	var srcs []annotateSource
	for _, a := range fs.Args() {
		srcs = append(srcs, annotateSource{path: a, jsonl: a == "-" || strings.HasSuffix(a, ".jsonl")})
	}
	if len(srcs) == 0 {
		srcs = []annotateSource{{path: "-", jsonl: true}}
	}
	bar := progress.New("annotate", 0)
	// SIGINT or SIGTERM stops the run after the last whole record written, never in the
	// middle of a line, and says how to resume it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := annotateAll(ctx, p, srcs, os.Stdin, stdout, *jobs, *skip, bar)
	bar.Done()
	if errors.Is(err, errInterrupted) {
		done := *skip + st.records
		return fmt.Errorf("interrupted after %d records, each written whole (%d by this run): run the same command with --skip %d to resume, appending to the output", done, st.records, done)
	}
	progress.Logf("%d documents, %d error records, %d sentences, %d tokens, %d annotation bytes", st.records, st.errors, st.sentences, st.tokens, st.bytes)
	if err == nil {
		err = batchFailures(st.errors, st.records)
	}
	return err
}

// batchFailures returns the error of a batch of records of which failed failed, each with
// its error record in the output: nil when none did. The command then exits with status
// 1, as qsc snippets does when a document fails, so that a script notices.
func batchFailures(failed, records int) error {
	if failed == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d records failed (each has its error record in the output)", failed, records)
}

// splitTerms splits comma-separated query terms. A comma inside double quotes belongs to
// its term, and the quotes are left out: -q '"1,000 pg/mL",IL-6' is two terms; so does a
// comma between two digits, a number's (decimal in most languages, or of thousands):
// -q '6,5 milyon' and -q '1,94' are one term each.
func splitTerms(s string) []string {
	var terms []string
	var cur strings.Builder
	quoted := false
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			terms = append(terms, t)
		}
		cur.Reset()
	}
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted && !numberComma(s, i):
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return terms
}

// numberComma reports whether the comma at byte i of s stands between two digits.
func numberComma(s string, i int) bool {
	if i == 0 || i+1 >= len(s) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+1:])
	return unicode.IsDigit(before) && unicode.IsDigit(after)
}

// queryUsage is the usage error of a -q that holds no term: left out, or only commas
// and spaces.
func queryUsage(q string) error {
	if q == "" {
		return cli.Usagef("-q (the query terms) is required")
	}
	return cli.Usagef("-q %q holds no query term (terms are separated by commas)", q)
}

// annotateStats count what annotateAll wrote.
type annotateStats struct {
	records, errors, sentences, tokens, bytes int
}

// annotateItem is one input record on its way: the data to process, and where its output
// arrives.
type annotateItem struct {
	run func() annbatch.Output
	out chan annbatch.Output
}

// errInterrupted is annotateAll's error when its context is done: the records written
// are whole lines, and the others are not written.
var errInterrupted = errors.New("interrupted")

// annotateAll processes the records of srcs on jobs goroutines and writes their output
// records to out in input order, the first skip records left out (not processed). Only a
// write error, a failure to read stdin or ctx's end (errInterrupted, after the last whole
// record) stops it; a bad record or an unreadable file is an error record.
func annotateAll(ctx context.Context, p *annbatch.Processor, srcs []annotateSource, stdin io.Reader, out io.Writer, jobs, skip int, bar *progress.Bar) (annotateStats, error) {
	parent := ctx
	work := make(chan annotateItem, jobs)
	order := make(chan chan annbatch.Output, 4*jobs)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var readErr error
	go func() { // the reader: items in input order
		defer close(work)
		defer close(order)
		skipped := 0
		emit := func(run func() annbatch.Output) bool {
			if skipped < skip {
				skipped++
				return true
			}
			it := annotateItem{run: run, out: make(chan annbatch.Output, 1)}
			select {
			case order <- it.out:
			case <-ctx.Done():
				return false
			}
			select {
			case work <- it:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for _, src := range srcs {
			if !src.jsonl {
				path := src.path
				if !emit(func() annbatch.Output { return annotateFile(ctx, p, path) }) {
					return
				}
				continue
			}
			if err := readJSONL(ctx, p, src, stdin, emit); err != nil {
				readErr = err
				return
			}
		}
	}()
	for range jobs {
		go func() {
			for it := range work {
				it.out <- it.run()
			}
		}()
	}
	bw := bufio.NewWriter(out)
	enc := annbatch.NewEncoder(bw)
	var st annotateStats
	for ch := range order {
		var o annbatch.Output
		select {
		case o = <-ch:
		case <-parent.Done():
		}
		if parent.Err() != nil {
			// Stopped: what is written is whole records; the one just finished, if
			// any, is run again on resuming.
			if err := bw.Flush(); err != nil {
				return st, err
			}
			return st, errInterrupted
		}
		if err := enc.Encode(&o); err != nil {
			return st, err
		}
		st.records++
		if o.Failed() {
			st.errors++
		}
		st.sentences += o.Sentences
		st.tokens += o.Tokens
		st.bytes += o.Bytes
		bar.Add(1)
	}
	if err := bw.Flush(); err != nil {
		return st, err
	}
	if parent.Err() != nil {
		return st, errInterrupted // the reader stopped early
	}
	return st, readErr
}

// readJSONL emits the records of a JSONL source; a file that cannot be opened is one error
// record, a failure to read stdin stops the run.
func readJSONL(ctx context.Context, p *annbatch.Processor, src annotateSource, stdin io.Reader, emit func(func() annbatch.Output) bool) error {
	r, name := stdin, "stdin"
	if src.path != "-" {
		f, err := os.Open(src.path)
		if err != nil {
			emit(func() annbatch.Output { return annbatch.Output{ID: src.path, Error: err.Error()} })
			return nil
		}
		defer f.Close()
		r, name = f, src.path
	}
	br := bufio.NewReaderSize(r, 1<<16)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readRecord(br)
		if err == io.EOF {
			return nil
		}
		where := fmt.Sprintf("%s:%d", name, lineNo)
		if err != nil {
			if src.path == "-" {
				return fmt.Errorf("reading %s: %w", where, err)
			}
			emit(func() annbatch.Output {
				return annbatch.Output{ID: src.path, Error: fmt.Sprintf("reading %s: %v", where, err)}
			})
			return nil
		}
		if !tooLong && len(bytes.TrimSpace(line)) == 0 {
			continue // blank lines are not records
		}
		run := func() annbatch.Output { return p.Line(ctx, line, where) }
		if tooLong {
			run = func() annbatch.Output {
				return annbatch.Output{Error: fmt.Sprintf("%s: record longer than %d bytes", where, maxRecordBytes)}
			}
		}
		if !emit(run) {
			return nil
		}
	}
}

// annotateFile annotates a text file as one document, its path as id.
func annotateFile(ctx context.Context, p *annbatch.Processor, path string) annbatch.Output {
	f, err := os.Open(path)
	if err != nil {
		return annbatch.Output{ID: path, Error: err.Error()}
	}
	defer f.Close()
	data, err := readLimited(f, qsc.MaxDocumentBytes, "the file")
	if err != nil {
		return annbatch.Output{ID: path, Error: fmt.Sprintf("%s: %v", path, err)}
	}
	return p.Document(ctx, path, string(data))
}
