package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/service/wire"
	"github.com/qsc-nlp/qsc/method/runs"
)

func init() {
	prog.Register(&cli.Command{Name: "compress", Summary: "compress a sentence under a query and a character budget (or a JSONL batch)", Run: runCompress})
}

// maxRecordBytes bounds one JSONL record.
const maxRecordBytes = 8 << 20

func runCompress(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("compress", "(-q TERMS -b N [\"sentence\" | < sentence.txt] | --jsonl < records.jsonl)", stderr)
	jsonl := fs.Bool("jsonl", false, `read one JSON record per line from stdin and write one result per line: {"id", "kept", "compression", "compression_ellipsis"} or {"id", "error"} (exit status 1 when a record fails)`)
	query := fs.String("q", "", "query terms, comma-separated (a comma inside double quotes, or between two digits, is the term's); each must occur in the sentence (ignoring case, accents and inflection)")
	budget := fs.Int("b", 0, "budget: maximum characters of the compression, counted as --budget-counts says (required)")
	counts := fs.String("budget-counts", qsc.BudgetTokens, "what the budget counts: tokens (the kept tokens joined by spaces, or the sentence as written when it fits; the default without --ellipsis), display (the text and its ellipsis rendering, \"…\" included; the default with --ellipsis) or columns (the display, an East Asian wide character as two columns)")
	ellipsis := fs.Bool("ellipsis", false, "print the compression with \"…\" where words were cut; the budget then counts what is printed, \"…\" included, unless --budget-counts says otherwise")
	asJSON := fs.Bool("json", false, `print the result as POST /v1/compress answers it: {"kept", "compression", "compression_ellipsis", "lang", "method"}`)
	lang := langFlag(fs)
	method := methodFlag(fs, "method")
	explain := fs.Bool("explain", false, "also print every decision (the candidate, p, and whether it was accepted) and the terms of the display's objective")
	seed := fs.Uint64("seed", 0, "seed of the random method")
	decoding := fs.String("decoding", qsc.DecodingSnippet, decodingUsage)
	accurate := fs.Bool("accurate", false, cli.AccurateUsage)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	eng, err := qsc.NewWithOptions(qsc.Options{Seed: *seed, Accurate: *accurate})
	if err != nil {
		return err
	}
	if *jsonl {
		if fs.NArg() > 0 || *query != "" || *budget != 0 || *explain || *ellipsis || *asJSON || *lang != "" || isSet(fs, "budget-counts") || isSet(fs, "decoding") {
			return cli.Usagef("--jsonl reads everything from stdin; -q, -b, --budget-counts, --decoding, --lang, --ellipsis, --json, --explain and arguments do not apply (a record gives its own budget_counts, decoding and lang)")
		}
		return compressJSONL(eng, os.Stdin, stdout, string(*method))
	}
	switch {
	case len(splitTerms(*query)) == 0:
		return queryUsage(*query)
	case *budget <= 0:
		return budgetUsage(*budget)
	case *asJSON && (*ellipsis || *explain):
		return cli.Usagef("--json prints every field; --ellipsis and --explain are for the text output")
	}
	if *ellipsis && !isSet(fs, "budget-counts") {
		// What is printed is what must fit: a token budget would let the marks overflow it.
		*counts = qsc.BudgetDisplay
	}
	text := strings.Join(fs.Args(), " ")
	if fs.NArg() == 0 || text == "-" {
		b, err := readLimited(os.Stdin, qsc.MaxSentenceBytes, "the sentence on stdin")
		if err != nil {
			return err
		}
		if text = strings.TrimSpace(string(b)); text == "" {
			return cli.Usagef("give the sentence as an argument or on stdin (or use --jsonl)")
		}
	}
	req := &qsc.Request{Text: text, Query: splitTerms(*query), Budget: *budget, BudgetCounts: *counts, Method: string(*method), Decoding: *decoding, Lang: *lang}
	var res *qsc.Result
	var terms []runs.Terms
	if *explain {
		res, terms, err = eng.Weigh(context.Background(), req, true, nil)
	} else {
		res, err = eng.Do(context.Background(), req, false)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		var out wire.Result
		out.Fill(res, false)
		return jsonx.NewEncoder(stdout).Encode(out)
	}
	if *ellipsis {
		fmt.Fprintln(stdout, res.Ellipsis())
	} else {
		fmt.Fprintln(stdout, res.Compression)
	}
	if *explain && len(res.Steps) == 0 {
		// A Solver (the ILP) chooses the whole compression at once: show what it kept.
		name := res.Method
		fmt.Fprintf(stdout, "\nquery: %s; budget %d; method %s chooses the whole compression at once (no per-candidate decisions; --method lr shows VERTEX ADDITION's)\n",
			formsOf(res, res.Query), *budget, name)
		kept := map[int]bool{}
		for _, v := range res.Kept {
			kept[v] = true
		}
		fmt.Fprintf(stdout, "%4s  %-20s  %s\n", "id", "token", "outcome")
		for i, tok := range res.Sentence.Tokens {
			out := "drop"
			if kept[i+1] {
				out = "keep"
			}
			fmt.Fprintf(stdout, "%4d  %-20s  %s\n", i+1, tok.Form, out)
		}
	}
	if *explain && len(res.Steps) > 0 {
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
	if *explain {
		explainDisplay(stdout, terms, req.Decoding)
	}
	return nil
}

// explainDisplay prints why the snippet decoding showed what it did: the terms of its
// objective for the display and their weights (runs.Default), or why no display was chosen.
func explainDisplay(w io.Writer, terms []runs.Terms, decoding string) {
	if len(terms) == 0 {
		switch {
		case decoding != "" && decoding != qsc.DecodingSnippet:
			fmt.Fprintf(w, "\ndisplay: the %s decoding has no display step\n", decoding)
		default:
			fmt.Fprintln(w, "\ndisplay: no display step (the sentence fits whole, or its method shows a window)")
		}
		return
	}
	t, pr := terms[0], runs.Default()
	runsWord := "runs"
	if t.Gaps == 0 {
		runsWord = "run"
	}
	why := "the most of any display the rules allow"
	switch {
	case !t.Allowed() && t.OneRun():
		why = "the most of any display the rules allow: none with clean cuts only fits the budget, so it is one run, which may start inside a phrase"
	case t.Breaks == runs.BreakCut:
		why = "the most of any display the rules allow: none with clean cuts only fits the budget, so a cut may drop a word a kept one needs"
	case !t.Allowed():
		why = "no display the rules allow fits the budget, so they yield to the query: this is the method's compression as it is"
	}
	fmt.Fprintf(w, "\ndisplay: %d %s; objective %.1f, %s (docs/snippets.md, \"The objective\")\n", t.Gaps+1, runsWord, t.Score(pr), why)
	for _, r := range t.Parts(pr) {
		v := r.Count * r.Weight
		if v == 0 {
			v = 0 // not −0
		}
		fmt.Fprintf(w, "  %-45s %7.1f × %5.1f = %7.1f\n", r.Name, r.Count, r.Weight, v)
	}
}

// isSet reports whether the flag called name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func formsOf(res *qsc.Result, ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = res.Sentence.Tokens[id-1].Form
	}
	return strings.Join(parts, ", ")
}

// compressJSONL runs the batch interface: every input line gets exactly one output line,
// in order; a bad or infeasible record gets an error record and the batch continues, and
// then the error of batchFailures.
// Records are decoded and results encoded by package wire, as in the HTTP service.
func compressJSONL(eng *qsc.Engine, in io.Reader, out io.Writer, defaultMethod string) error {
	br := bufio.NewReaderSize(in, 1<<16)
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	enc := jsonx.NewEncoder(bw)
	ctx := context.Background()
	opts := wire.Options{DefaultMethod: defaultMethod}
	records, failed := 0, 0
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readRecord(br)
		if err == io.EOF {
			if err := bw.Flush(); err != nil {
				return err
			}
			return batchFailures(failed, records)
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
		records++
		if res.Error != "" {
			failed++
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
