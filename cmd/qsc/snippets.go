package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/htmltext"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/markdown"
	"github.com/qsc-nlp/qsc/render"
)

func init() {
	prog.Register(&cli.Command{Name: "snippets", Summary: "the best compressed sentences of documents (files, folders of .txt, .md and .html files, the records of a .jsonl file, or stdin) for a query, as text or JSON", Run: runSnippets})
}

func runSnippets(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("snippets", "-q TERMS -b N [-n K] [FILE|DIR|-]...", stderr)
	query := fs.String("q", "", "query terms, comma-separated; a comma inside double quotes, or between two digits, is the term's: \"Jones, Brown\",1,94,IL-6 is three terms (required)")
	budget := fs.Int("b", 0, "budget: maximum characters of each snippet, counted as --budget-counts says (required)")
	n := fs.Int("n", qsc.DefaultSnippets, "maximum number of snippets of each document")
	counts := fs.String("budget-counts", qsc.BudgetDisplay, "what the budget counts: display (the snippet as shown, \"…\" included), columns (the same, an East Asian wide character as two columns) or tokens (the kept tokens joined by spaces)")
	lang := langFlag(fs)
	noMatch := fs.Bool("no-match", false, "when no sentence contains a query term, print the document's lead, its first sentence that reads as prose, cut cleanly to the budget (method lead)")
	plain := fs.Bool("plain", false, "print the kept words without \"…\" marks (text output); the budget counts them (tokens) unless --budget-counts says otherwise")
	asJSON := fs.Bool("json", false, `print {"snippets": [...]} as POST /v1/snippets answers: spans, text, and the renderings plain, ellipsis, html and html_ellipsis; for several documents, one line each with its "file" (and "error" instead when it fails)`)
	method := methodFlag(fs, "method")
	seed := fs.Uint64("seed", 0, "seed of the random method")
	decoding := fs.String("decoding", qsc.DecodingSnippet, decodingUsage)
	accurate := fs.Bool("accurate", false, cli.AccurateUsage)
	raw := fs.Bool("raw", false, "read a Markdown (.md, .markdown, .mdx) or HTML (.html, .htm) FILE as it is; without it, as its rendering reads (markup left out, each block a paragraph; HTML's menus, scripts and hidden elements too), as qsc serve --docs indexes it, and --json's spans are offsets into that text")
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
	case *plain && *asJSON:
		return cli.Usagef("--plain is for the text output; --json gives every rendering")
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	if slices.Contains(paths, "-") && len(paths) > 1 {
		return cli.Usagef("- (stdin) is a document alone, not one of %d", len(paths))
	}
	if !isSet(fs, "budget-counts") {
		*counts = render.BudgetCounts(!*plain) // the budget counts what is printed
	}
	eng, err := qsc.NewWithOptions(qsc.Options{Seed: *seed, Accurate: *accurate})
	if err != nil {
		return err
	}
	req := qsc.SnippetRequest{Query: splitTerms(*query), Budget: *budget, BudgetCounts: *counts, N: *n,
		Method: string(*method), Decoding: *decoding, Lang: *lang, NoMatch: *noMatch}
	// What is wrong with the request whatever the document (an unknown method or
	// language, a term without a word) is one usage error, not one error per file.
	if _, err := eng.DoSnippets(context.Background(), &req); errors.Is(err, qsc.ErrUnknownMethod) || errors.Is(err, qsc.ErrBadRequest) {
		return cli.Usagef("%s", errText(err))
	}
	snippets := func(path string) (string, []qsc.Snippet, error) {
		doc, note, err := readDocument(path, !*raw)
		if err != nil {
			return "", nil, err
		}
		if note != "" {
			fmt.Fprintf(stderr, "qsc snippets: %s: %s\n", cmp.Or(path, "-"), note)
		}
		r := req
		r.Document = doc
		sn, err := eng.DoSnippetsLong(context.Background(), &r)
		if err == nil {
			if w := langMismatch(r.Lang, doc); w != "" {
				fmt.Fprintf(stderr, "qsc snippets: %s: %s\n", path, w)
			}
		}
		return doc, sn, err
	}
	if len(paths) == 1 && !isDir(paths[0]) && !isJSONL(paths[0]) {
		doc, sn, err := snippets(paths[0])
		if err != nil && paths[0] != "-" {
			return fmt.Errorf("%s: %w", paths[0], err)
		}
		if err != nil {
			return err
		}
		if len(sn) == 0 {
			// Not an error (the JSON answer is an empty list), but a person at a terminal
			// should not have to guess why nothing was printed.
			fmt.Fprintf(stderr, "qsc snippets: no sentence contains a query term%s (--no-match prints the lead instead)\n", noMatchHint(req.Query))
		}
		if *asJSON {
			return jsonx.NewEncoder(stdout).Encode(struct {
				Snippets []render.Rendered `json:"snippets"`
			}{render.All(doc, sn)})
		}
		printSnippets(stdout, "", doc, sn, *plain)
		return nil
	}
	// Several documents, or a folder's, or the records of a JSON-lines file: each in turn,
	// as grep does with several files.
	enc := jsonx.NewEncoder(stdout)
	var docs, found, failed int
	// show prints the snippets of one document (its file, and its id for a record of a
	// JSON-lines file), or its error.
	show := func(path, id, doc string, sn []qsc.Snippet, err error) error {
		docs++
		label := path
		if id != "" {
			label = path + ":" + id
		}
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "qsc snippets: %s: %s\n", label, errText(err))
			if *asJSON {
				return enc.Encode(struct {
					File  string `json:"file"`
					ID    string `json:"id,omitempty"`
					Error string `json:"error"`
				}{path, id, err.Error()})
			}
			return nil
		}
		if len(sn) > 0 {
			found++
		}
		if *asJSON {
			return enc.Encode(struct {
				File     string            `json:"file"`
				ID       string            `json:"id,omitempty"`
				Snippets []render.Rendered `json:"snippets"`
			}{path, id, render.All(doc, sn)})
		}
		printSnippets(stdout, label, doc, sn, *plain)
		return nil
	}
	one := func(path string, err error) error {
		if err == nil && isJSONL(path) {
			// The records {"id", "title", "text", "url"} that qsc serve --docs reads: each
			// text a document; a bad line an error of its own, and the others go on.
			var ignored []string
			defer func() {
				if len(ignored) > 0 {
					fmt.Fprintf(stderr, "qsc snippets: %s: fields passed over: %s (a record's fields are id, title, text and url)\n", path, strings.Join(ignored, ", "))
				}
			}()
			return docfile.ScanFile(path, func(r docfile.Record) error {
				for _, f := range r.Ignored {
					if !slices.Contains(ignored, f) {
						ignored = append(ignored, f)
					}
				}
				if r.Err != nil {
					return show(r.Where, "", "", nil, r.Err)
				}
				req := req
				req.Document = r.Doc.Text
				sn, err := eng.DoSnippetsLong(context.Background(), &req)
				return show(path, r.Doc.ID, r.Doc.Text, sn, err)
			})
		}
		var doc string
		var sn []qsc.Snippet
		if err == nil {
			doc, sn, err = snippets(path)
		}
		return show(path, "", doc, sn, err)
	}
	for _, p := range paths {
		var err error
		if isDir(p) {
			if n, first := docfile.OtherFiles(p, 3); n > 0 {
				// As qsc serve --docs says: a folder's .jsonl or .pdf is not read.
				fmt.Fprintf(stderr, "qsc snippets: %s: %d files skipped: a folder's documents are its .txt, .md, .markdown, .mdx, .html and .htm files (give a .jsonl file by its name; first skipped: %s)\n", p, n, strings.Join(first, ", "))
			}
			err = docfile.WalkDocFiles(p, func(path string, _ iofs.DirEntry, err error) error { return one(path, err) })
		} else {
			err = one(p, nil)
		}
		if err != nil {
			return err // stdout failed, or a JSON-lines file could not be read
		}
	}
	switch {
	case failed > 0:
		return fmt.Errorf("%d of %d documents failed (above)", failed, docs)
	case docs == 0:
		return fmt.Errorf("no documents: a folder is read for its .txt, .md, .markdown, .mdx, .html and .htm files")
	case found == 0:
		fmt.Fprintf(stderr, "qsc snippets: no sentence of the %d documents contains a query term%s\n", docs, noMatchHint(req.Query))
	}
	return nil
}

// langMismatch returns a warning when the language given (--lang) is written in another
// script than most of the text's letters (Russian text read as English, Turkish as
// Arabic): its words then go unmatched, with no error. "" when none was given or they
// agree.
func langMismatch(lang, doc string) string {
	if lang == "" {
		return ""
	}
	base, _, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(lang, "_", "-")), "-") // zh-TW: zh
	want := langid.LangScript(base)
	got := langid.Detect(doc)
	switch {
	case want == langid.None || want == langid.Other, // a script Detect does not tell apart
		got.Script == langid.None || got.Script == langid.Other || got.Script == want,
		want == langid.Kana && got.Script == langid.Han: // Japanese of kanji alone
		return ""
	}
	return fmt.Sprintf("--lang %s, but the text is written in the %s script (it reads as %s): its words may go unmatched; leave --lang out to identify each sentence's language", lang, got.Script, got.Lang)
}

// isJSONL reports whether path names a JSON-lines file of documents: .jsonl, or
// .jsonl.gz.
func isJSONL(path string) bool {
	return strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".jsonl.gz")
}

// printSnippets prints the snippets of doc, one a line, with "…" marks unless plain, each
// after "path: " when path is not "".
func printSnippets(w io.Writer, path, doc string, sn []qsc.Snippet, plain bool) {
	for _, s := range sn {
		text := s.Text
		if !plain {
			text = render.Ellipsis(doc, s)
		}
		if path != "" {
			fmt.Fprintf(w, "%s: %s\n", path, text)
		} else {
			fmt.Fprintln(w, text)
		}
	}
}

// isDir reports whether path names a folder.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// budgetUsage is the usage error of a budget -b that is not positive: 0 is the flag
// left out.
func budgetUsage(b int) error {
	if b == 0 {
		return cli.Usagef("-b: the budget is required (a positive number of characters)")
	}
	return cli.Usagef("-b: the budget must be a positive number of characters, not %d", b)
}

// maxFileBytes is the largest document qsc snippets reads, as qsc serve --docs reads a
// folder's: one over qsc.MaxDocumentBytes is read in parts (qsc.Engine.DoSnippetsLong).
const maxFileBytes = docfile.MaxFileBytes

// readDocument reads the document of qsc snippets: the file at path, or stdin for "" and
// "-", at most maxFileBytes (readLimited); a Markdown file (markdown.IsFile) as its
// rendering reads (markdown.Text), and an HTML file (htmltext.IsFile) as a browser shows
// it (htmltext.Text), when rendered is set. note says how a file that was not valid
// UTF-8 was decoded (docfile.Text).
func readDocument(path string, rendered bool) (doc, note string, err error) {
	r := io.Reader(os.Stdin)
	if path != "" && path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", "", err
		}
		defer f.Close()
		r = f
	}
	b, err := readLimited(r, maxFileBytes, "the document")
	if err == nil {
		b, note, err = docfile.Text(cmp.Or(path, "-"), b)
	}
	switch {
	case err != nil || !rendered:
	case markdown.IsFile(path):
		return markdown.Text(b), note, nil
	case htmltext.IsFile(path):
		return htmltext.Text(b), note, nil
	}
	return string(b), note, err
}

// noMatchHint is what the message that no sentence holds a query term adds when a term
// holds a space: a term is a phrase, and terms are separated by commas. (A number's
// comma no longer cuts a term: splitTerms keeps it.)
func noMatchHint(terms []string) string {
	for _, t := range terms {
		if strings.ContainsFunc(t, unicode.IsSpace) {
			return fmt.Sprintf("; %q is one phrase: separate terms with commas (-q %q)", t, strings.Join(strings.Fields(t), ","))
		}
	}
	return ""
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
