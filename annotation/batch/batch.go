// Package batch is the record format of batch annotation, shared by `qsc annotate` and the
// Apache Beam pipeline (module github.com/qsc-nlp/qsc/beam), so that both read and write
// exactly the same JSON lines.
//
// An input record is one JSON object {"id": string, "text": string}: both required, no other
// field (a misspelled name is an error, not ignored). An output record is
//
//	{"id", "annotation": base64, "sentences": n, "tokens": n, "bytes": n}
//
// with the binary annotation (package annotation) in standard base64 (JSON's encoding of
// bytes), or {"id", "annotation_json": {...}} with its JSON form when Options.JSON is set;
// plus "snippets" when Options.Queries are given: for each query, {"query": [terms],
// "snippets": [...]} (qsc.Snippet, best first) or {"query", "error"}. A record that cannot
// be read or annotated becomes {"id", "error"} (the id when it could be read), so that every
// input record has exactly one output record.
package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
)

// Input is one input record: a document of qsc serve --docs's JSON lines, whose title
// and url are accepted and left out of the annotation, which is of the text alone.
type Input struct {
	ID   *string `json:"id"`
	Text *string `json:"text"`
	// Title and URL are the document's, when the record has them; not annotated.
	Title *string `json:"title"`
	URL   *string `json:"url"`
}

// Output is one output record.
type Output struct {
	ID string `json:"id"`
	// Annotation is the binary annotation (base64 in JSON).
	Annotation []byte `json:"annotation,omitempty"`
	// AnnotationJSON is the JSON form of the annotation, with Options.JSON.
	AnnotationJSON *annotation.JSON `json:"annotation_json,omitempty"`
	// Sentences, Tokens and Bytes are the annotation's sentences, tokens and size in bytes.
	Sentences int `json:"sentences,omitempty"`
	Tokens    int `json:"tokens,omitempty"`
	Bytes     int `json:"bytes,omitempty"`
	// Snippets are the snippets of each query of Options.Queries, in their order.
	Snippets []QuerySnippets `json:"snippets,omitempty"`
	// Error says why the record failed; nothing else but the id is then set.
	Error string `json:"error,omitempty"`
}

// QuerySnippets are the snippets of the document for one query, or the error of the query.
type QuerySnippets struct {
	Query    []string      `json:"query"`
	Snippets []qsc.Snippet `json:"snippets,omitempty"`
	Error    string        `json:"error,omitempty"`
}

// Failed reports whether the record is an error record.
func (o *Output) Failed() bool { return o.Error != "" }

// QueryErrors returns the number of queries of the record that failed.
func (o *Output) QueryErrors() int {
	n := 0
	for _, q := range o.Snippets {
		if q.Error != "" {
			n++
		}
	}
	return n
}

// Options configure a Processor.
type Options struct {
	// Tables includes the tag and label tables in every annotation (about 570 bytes more
	// each), so that it can be read without the models' tables.
	Tables bool
	// JSON writes the annotation's JSON form (AnnotationJSON, with names) instead of the
	// binary one: for debugging.
	JSON bool
	// Queries are compressed for in every document (qsc.Engine.SnippetsAnnotated), each a
	// list of terms; none means annotation only.
	Queries [][]string
	// Budget, N and Method are those of the snippet requests (qsc.SnippetRequest).
	Budget, N int
	Method    string
}

// Processor turns input records into output records. It is safe for concurrent use.
type Processor struct {
	eng    *qsc.Engine
	opts   Options
	tables *annotation.Tables
	pool   sync.Pool // *annotation.Annotation
}

// New returns a Processor that annotates with eng. Queries need a positive Budget and a
// known Method ("" is qsc.DefaultMethod).
func New(eng *qsc.Engine, opts Options) (*Processor, error) {
	if len(opts.Queries) > 0 {
		if opts.Budget <= 0 {
			return nil, fmt.Errorf("a budget of at least 1 character is needed with queries, got %d", opts.Budget)
		}
		if opts.N < 0 {
			return nil, fmt.Errorf("n must be a positive number of snippets, got %d", opts.N)
		}
		if opts.Method != "" && !slices.Contains(qsc.Methods(), opts.Method) {
			return nil, fmt.Errorf("unknown method %q (want one of %s)", opts.Method, strings.Join(qsc.Methods(), ", "))
		}
		for i, q := range opts.Queries {
			if len(q) == 0 {
				return nil, fmt.Errorf("query %d has no terms", i+1)
			}
		}
	}
	t, err := eng.AnnotationTables()
	if err != nil {
		return nil, err
	}
	p := &Processor{eng: eng, opts: opts, tables: t}
	p.pool.New = func() any { return new(annotation.Annotation) }
	return p, nil
}

// DecodeInput decodes one input record; where ("line 3", or "") prefixes its errors. The
// id is returned whenever the record has a string "id", even when the rest is invalid.
func DecodeInput(data []byte, where string) (id, text string, err error) {
	return decodeInput(data, where, true)
}

// DecodeRequest decodes one input record whose "id" is optional ("" when absent), as the
// body of a request for one document (qsc serve's POST /v1/annotate). Its errors are those
// of DecodeInput, with no prefix.
func DecodeRequest(data []byte) (id, text string, err error) {
	return decodeInput(data, "", false)
}

// decodeInput is DecodeInput, with the id required or not.
func decodeInput(data []byte, where string, needID bool) (id, text string, err error) {
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	var in Input
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err = dec.Decode(&in)
	if in.ID != nil {
		id = *in.ID
	}
	switch {
	case err != nil:
		return id, "", fmt.Errorf("%sinvalid record: %s", prefix, jsonx.Describe(err))
	case dec.More():
		return id, "", fmt.Errorf("%sinvalid record: more than one JSON value on the line", prefix)
	case in.ID == nil && needID:
		return "", "", fmt.Errorf(`%srecord has no "id"`, prefix)
	case in.Text == nil:
		return id, "", fmt.Errorf(`%srecord has no "text"`, prefix)
	}
	return id, *in.Text, nil
}

// Line decodes and processes one JSON input record; where prefixes its errors, those of
// the record's reading and of its annotation alike.
func (p *Processor) Line(ctx context.Context, data []byte, where string) Output {
	id, text, err := DecodeInput(data, where)
	if err != nil {
		return Output{ID: id, Error: err.Error()}
	}
	out := p.Document(ctx, id, text)
	if out.Error != "" && where != "" {
		out.Error = where + ": " + out.Error // "docs.jsonl:701: … more than the maximum of 1048576"
	}
	return out
}

// Document annotates one document, and compresses it for the queries.
func (p *Processor) Document(ctx context.Context, id, text string) Output {
	a := p.pool.Get().(*annotation.Annotation)
	defer p.pool.Put(a)
	if err := p.eng.AnnotateTo(ctx, text, a); err != nil {
		return Output{ID: id, Error: err.Error()}
	}
	out := Output{ID: id, Sentences: a.Len(), Tokens: a.Tokens()}
	if p.opts.Tables {
		a.Tables = p.tables
	}
	data, err := a.MarshalBinary()
	if err != nil {
		return Output{ID: id, Error: err.Error()}
	}
	out.Bytes = len(data)
	if p.opts.JSON {
		a.Tables = p.tables
		out.AnnotationJSON = a.ToJSON()
	} else {
		out.Annotation = data
	}
	for _, q := range p.opts.Queries {
		qs := QuerySnippets{Query: q}
		sn, err := p.eng.SnippetsAnnotated(ctx, &qsc.SnippetRequest{Document: text, Query: q, Budget: p.opts.Budget, N: p.opts.N, Method: p.opts.Method},
			a, qsc.AnnotationOptions{})
		if err != nil {
			qs.Error = err.Error()
		} else {
			qs.Snippets = sn
		}
		out.Snippets = append(out.Snippets, qs)
	}
	return out
}

// Encoder writes output records, one JSON line each, with <, > and & as they are.
type Encoder struct{ enc *json.Encoder }

// NewEncoder returns an Encoder to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{enc: jsonx.NewEncoder(w)} }

// Encode writes one record and its newline.
func (e *Encoder) Encode(o *Output) error { return e.enc.Encode(o) }

// Marshal returns the JSON line of one record, without its newline.
func Marshal(o *Output) ([]byte, error) {
	var b bytes.Buffer
	if err := NewEncoder(&b).Encode(o); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
