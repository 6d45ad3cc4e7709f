package qsc

import (
	"context"
	"math"

	"github.com/qsc-nlp/qsc/syntax"
)

// Hits returns the spans of document that match a term of query, in document order: each
// token that matches, tokens written against each other (the characters of a term in a
// script without spaces) as one span, as DoSnippets finds them (the Hits of its snippets), in every
// sentence of the document, repeated paragraphs included. A page that shows a whole
// document marks its query's words with them. lang is SnippetRequest.Lang: the
// document's language, or "" to identify it (a sentence in another script takes its
// own).
//
// It matches as DoSnippets does (see there) and compresses nothing. It costs a scan of
// the document and the tokenization of the paragraphs that may hold a term: O(len of the
// document), tens of milliseconds for a MiB whose every paragraph holds one (the -hits
// rows of BenchmarkBigDocument), and allocates the spans. An empty query or term, a
// document over MaxDocumentBytes or not valid UTF-8, or an unknown lang give an error
// wrapping ErrBadRequest.
func (e *Engine) Hits(ctx context.Context, document string, query []string, lang string) ([]Span, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.pipe == nil {
		return nil, errNoModels
	}
	q, _, _, _, err := e.snippetQuery(&SnippetRequest{Document: document, Query: query, Budget: math.MaxInt32, Lang: lang}, nil)
	if err != nil {
		return nil, err
	}
	defer q.sc.Release()
	return q.hits(document)
}

// hits returns the spans of the tokens of doc that match a term of q (Engine.Hits).
func (q *termQuery) hits(doc string) ([]Span, error) {
	out := []Span{}
	// n is 0 and nothing is ranked, so the collector needs no levels and no budget.
	c := collector{q: q, doc: doc, top: q.top(),
		hits: func(start int, toks []syntax.Token, hits []int32) {
			for _, h := range hits {
				// The characters of a term in a script without spaces (共和党) are one
				// hit, as the snippets show it.
				out = appendHit(out, Span{Start: start + toks[h].Start, End: start + toks[h].End})
			}
		}}
	if err := c.run(); err != nil {
		return nil, err
	}
	return out, nil
}
