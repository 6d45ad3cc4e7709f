package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/wire"
)

func init() {
	register(&command{name: "compress", summary: "compress a sentence under a query and a character budget (or a JSONL batch)", run: runCompress})
}

// maxRecordBytes bounds one JSONL record.
const maxRecordBytes = 8 << 20

func runCompress(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compress", "(-q TERMS -b N \"sentence\" | --jsonl < records.jsonl)", stderr)
	jsonl := fs.Bool("jsonl", false, `read one JSON record per line from stdin and write one result per line: {"id", "kept", "compression"} or {"id", "error"}`)
	query := fs.String("q", "", "query terms, comma-separated; each must occur in the sentence")
	budget := fs.Int("b", 0, "budget: maximum characters of the kept tokens joined by spaces")
	method := fs.String("method", qsc.DefaultMethod, "method: "+strings.Join(qsc.Methods(), ", "))
	explain := fs.Bool("explain", false, "also print every decision: the candidate, p, and whether it was accepted")
	seed := fs.Uint64("seed", 0, "seed of the random method")
	accurate := fs.Bool("accurate", false, accurateUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	eng, err := qsc.NewWithOptions(qsc.Options{Seed: *seed, Accurate: *accurate})
	if err != nil {
		return err
	}
	if *jsonl {
		if fs.NArg() > 0 || *query != "" || *budget != 0 || *explain {
			return usagef("--jsonl reads everything from stdin; -q, -b, --explain and arguments do not apply")
		}
		return compressJSONL(eng, os.Stdin, stdout, *method)
	}
	if fs.NArg() == 0 {
		return usagef("give the sentence as an argument (or use --jsonl)")
	}
	if *query == "" || *budget == 0 {
		return usagef("-q and -b are required")
	}
	var terms []string
	for _, t := range strings.Split(*query, ",") {
		if t = strings.TrimSpace(t); t != "" {
			terms = append(terms, t)
		}
	}
	req := &qsc.Request{Text: strings.Join(fs.Args(), " "), Query: terms, Budget: *budget, Method: *method}
	res, err := eng.Do(context.Background(), req, *explain)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, res.Compression)
	if *explain {
		fmt.Fprintf(stdout, "\nquery: %s; budget %d; %d decisions\n", formsOf(res, res.Query), *budget, len(res.Steps))
		fmt.Fprintf(stdout, "%4s  %-20s  %6s  %-8s  %s\n", "id", "candidate", "p", "outcome", "length")
		for _, st := range res.Steps {
			p := fmt.Sprintf("%.3f", st.P)
			if st.Outcome == "skip" {
				p = "-"
			}
			fmt.Fprintf(stdout, "%4d  %-20s  %6s  %-8s  %d\n", st.Token, st.Form, p, st.Outcome, st.Length)
		}
	}
	return nil
}

func formsOf(res *qsc.Result, ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = res.Sentence.Tokens[id-1].Form
	}
	return strings.Join(parts, ", ")
}

// compressJSONL runs the batch interface: every input line gets exactly one output line,
// in order; a bad or infeasible record gets an error record and the batch continues.
// Records are decoded and results encoded by package wire, as in the HTTP service.
func compressJSONL(eng *qsc.Engine, in io.Reader, out io.Writer, defaultMethod string) error {
	br := bufio.NewReaderSize(in, 1<<16)
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	enc := wire.NewEncoder(bw)
	ctx := context.Background()
	opts := wire.Options{DefaultMethod: defaultMethod}
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readRecord(br)
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			return fmt.Errorf("reading stdin at line %d: %w", lineNo, err)
		}
		if !tooLong && len(bytes.TrimSpace(line)) == 0 {
			continue // blank lines are not records
		}
		var res wire.Result
		if tooLong {
			res.Error = fmt.Sprintf("line %d: record longer than %d bytes", lineNo, maxRecordBytes)
		} else {
			res, _ = wire.Compress(ctx, eng, line, wire.Line(lineNo), opts)
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
}

// readRecord reads one line without its newline; a last line without a newline is
// returned with a nil error, and io.EOF comes only when no data is left. A line over
// maxRecordBytes is consumed and reported as tooLong.
func readRecord(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, e := br.ReadLine()
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxRecordBytes {
				tooLong, line = true, nil
			}
		}
		if e != nil {
			if e == io.EOF && (len(line) > 0 || tooLong) {
				return line, tooLong, nil
			}
			return line, tooLong, e
		}
		if !isPrefix {
			return line, tooLong, nil
		}
	}
}
