package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/core/markdown"
	"github.com/qsc-nlp/qsc/render"
)

func init() {
	prog.Register(&cli.Command{Name: "snippets", Summary: "the best compressed sentences of a document (file or stdin) for a query, as text or JSON", Run: runSnippets})
}

func runSnippets(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("snippets", "-q TERMS -b N [-n K] [FILE|-]", stderr)
	query := fs.String("q", "", "query terms, comma-separated (required)")
	budget := fs.Int("b", 0, "budget: maximum characters of each snippet, counted as --budget-counts says (required)")
	n := fs.Int("n", qsc.DefaultSnippets, "maximum number of snippets")
	counts := fs.String("budget-counts", qsc.BudgetDisplay, "what the budget counts: display (the snippet as shown, \"…\" included), columns (the same, an East Asian wide character as two columns) or tokens (the kept tokens joined by spaces)")
	lang := langFlag(fs)
	noMatch := fs.Bool("no-match", false, "when no sentence contains a query term, print the document's first sentence, cut cleanly to the budget (method lead)")
	plain := fs.Bool("plain", false, "print the kept words without \"…\" marks (text output); the budget counts them (tokens) unless --budget-counts says otherwise")
	asJSON := fs.Bool("json", false, `print {"snippets": [...]} as POST /v1/snippets answers: spans, text, and the renderings plain, ellipsis, html and html_ellipsis`)
	method := methodFlag(fs, "method")
	seed := fs.Uint64("seed", 0, "seed of the random method")
	decoding := fs.String("decoding", qsc.DecodingSnippet, decodingUsage)
	accurate := fs.Bool("accurate", false, cli.AccurateUsage)
	raw := fs.Bool("raw", false, "read a .md or .markdown FILE as it is; without it, as its rendering reads (markup left out, each block a paragraph), as qsc serve --docs indexes it, and --json's spans are offsets into that text")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case len(splitTerms(*query)) == 0:
		return queryUsage(*query)
	case *budget <= 0:
		return budgetUsage(*budget)
	case *n <= 0:
		return cli.Usagef("-n must be a positive number of snippets, not %d", *n)
	case fs.NArg() > 1:
		return cli.Usagef("give one document (a file, or - for stdin), not %d", fs.NArg())
	case *plain && *asJSON:
		return cli.Usagef("--plain is for the text output; --json gives every rendering")
	}
	if !isSet(fs, "budget-counts") {
		*counts = render.BudgetCounts(!*plain) // the budget counts what is printed
	}
	doc, err := readDocument(fs.Arg(0), !*raw)
	if err != nil {
		return err
	}
	eng, err := qsc.NewWithOptions(qsc.Options{Seed: *seed, Accurate: *accurate})
	if err != nil {
		return err
	}
	sn, err := eng.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: doc, Query: splitTerms(*query), Budget: *budget,
		BudgetCounts: *counts, N: *n, Method: string(*method), Decoding: *decoding, Lang: *lang, NoMatch: *noMatch})
	if err != nil {
		return err
	}
	if len(sn) == 0 {
		// Not an error (the JSON answer is an empty list), but a person at a terminal
		// should not have to guess why nothing was printed.
		fmt.Fprintf(stderr, "qsc snippets: no sentence contains a query term (--no-match prints the first sentence instead)\n")
	}
	if *asJSON {
		return jsonx.NewEncoder(stdout).Encode(struct {
			Snippets []render.Rendered `json:"snippets"`
		}{render.All(doc, sn)})
	}
	for _, s := range sn {
		if *plain {
			fmt.Fprintln(stdout, s.Text)
		} else {
			fmt.Fprintln(stdout, render.Ellipsis(doc, s))
		}
	}
	return nil
}

// budgetUsage is the usage error of a budget -b that is not positive: 0 is the flag
// left out.
func budgetUsage(b int) error {
	if b == 0 {
		return cli.Usagef("-b: the budget is required (a positive number of characters)")
	}
	return cli.Usagef("-b: the budget must be a positive number of characters, not %d", b)
}

// readDocument reads the document of qsc snippets: the file at path, or stdin for "" and
// "-", at most qsc.MaxDocumentBytes (readLimited); a Markdown file (markdown.IsFile) as
// its rendering reads (markdown.Text) when rendered is set.
func readDocument(path string, rendered bool) (string, error) {
	r := io.Reader(os.Stdin)
	if path != "" && path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := readLimited(r, qsc.MaxDocumentBytes, "the document")
	if err == nil && rendered && markdown.IsFile(path) {
		return markdown.Text(b), nil
	}
	return string(b), err
}

// readLimited reads r whole when it holds at most max bytes. It reads no more than max+1
// bytes: a larger input is an error wrapping qsc.ErrBadRequest that says that what (the
// document, the sentence) is more than max bytes, without a length it did not read.
func readLimited(r io.Reader, max int, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", what, err)
	case len(b) > max:
		return nil, fmt.Errorf("%w: %s is more than %d bytes, the maximum", qsc.ErrBadRequest, what, max)
	}
	return b, nil
}
