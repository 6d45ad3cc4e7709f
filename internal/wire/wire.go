// Package wire is the JSON form of compression requests and results, shared by the batch
// interface (qsc compress --jsonl) and the HTTP service (POST /v1/compress), so that both
// accept and answer exactly the same records.
//
// A request is one JSON object decoding to a qsc.Request: unknown fields, wrong types and
// trailing data are errors, and the "id" is required. A result is a Result: the id, the
// kept token ids and the compression, or the id and an error.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/qsc-nlp/qsc"
)

// Result is the answer to one request.
type Result struct {
	// ID is the request's id ("" when it could not be read).
	ID string `json:"id"`
	// Kept are the 1-based ids of the kept tokens, ascending.
	Kept []int `json:"kept,omitempty"`
	// Compression is the kept tokens joined by single spaces.
	Compression string `json:"compression,omitempty"`
	// Tokens describe every token of the sentence, when asked for (the service's
	// ?tokens=true); the batch interface never sets them.
	Tokens []Token `json:"tokens,omitempty"`
	// Error says why the request failed; Kept and Compression are then empty.
	Error string `json:"error,omitempty"`
}

// Token is one token of the analysed sentence, in Result.Tokens.
type Token struct {
	// Form is the token's text.
	Form string `json:"form"`
	// Start and End are the token's byte offsets in the request's text; both are absent
	// when the request gave tokens.
	Start *int `json:"start,omitempty"`
	End   *int `json:"end,omitempty"`
	// Kept tells whether the token is in the compression.
	Kept bool `json:"kept"`
	// Query tells whether the token is a query token.
	Query bool `json:"query"`
}

// Unit names one request in error messages: a line of a batch or the body of an HTTP
// request.
type Unit struct {
	// Prefix starts every decoding error, e.g. "line 3: ".
	Prefix string
	// Noun is what a request is called: "record", "request".
	Noun string
	// Where says where a second JSON value was found: "on the line", "in the body".
	Where string
}

// Line is the unit of the batch interface: line n of the input.
func Line(n int) Unit {
	return Unit{Prefix: fmt.Sprintf("line %d: ", n), Noun: "record", Where: "on the line"}
}

// Body is the unit of the HTTP service: the request body.
var Body = Unit{Noun: "request", Where: "in the body"}

// decodeError is a malformed request; it matches qsc.ErrBadRequest without saying so in
// its message.
type decodeError struct{ msg string }

func (e *decodeError) Error() string        { return e.msg }
func (e *decodeError) Is(target error) bool { return target == qsc.ErrBadRequest }

// Decode decodes one request. It returns the request's id whenever the data holds a
// string "id", even when the rest is invalid, so that an error can be matched to its
// request. Its errors match qsc.ErrBadRequest.
func Decode(data []byte, u Unit) (req qsc.Request, id string, err error) {
	// Recover the id even when other fields are wrong.
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.NewDecoder(bytes.NewReader(data)).Decode(&probe) == nil {
		var s string
		if json.Unmarshal(probe.ID, &s) == nil {
			id = s
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, id, &decodeError{fmt.Sprintf("%sinvalid %s: %v", u.Prefix, u.Noun, JSONError(err))}
	}
	if dec.More() {
		return req, id, &decodeError{fmt.Sprintf("%sinvalid %s: more than one JSON value %s", u.Prefix, u.Noun, u.Where)}
	}
	if probe.ID == nil {
		return req, id, &decodeError{fmt.Sprintf("%s%s has no \"id\"", u.Prefix, u.Noun)}
	}
	return req, id, nil
}

// Options change how Compress answers.
type Options struct {
	// DefaultMethod replaces an empty Method of the request.
	DefaultMethod string
	// Tokens fills Result.Tokens.
	Tokens bool
}

// Compress decodes one request and compresses it. The error, also written to
// Result.Error, wraps qsc.ErrBadRequest, qsc.ErrInfeasible or qsc.ErrUnknownMethod for a
// fault of the request.
func Compress(ctx context.Context, eng *qsc.Engine, data []byte, u Unit, opts Options) (Result, error) {
	req, id, err := Decode(data, u)
	res := Result{ID: id}
	if err != nil {
		res.Error = err.Error()
		return res, err
	}
	if req.Method == "" {
		req.Method = opts.DefaultMethod
	}
	r, err := eng.Do(ctx, &req, false)
	if err != nil {
		res.Error = err.Error()
		return res, err
	}
	res.Kept, res.Compression = r.Kept, r.Compression
	if opts.Tokens {
		res.Tokens = tokensOf(r)
	}
	return res, nil
}

func tokensOf(r *qsc.Result) []Token {
	out := make([]Token, len(r.Sentence.Tokens))
	for i, t := range r.Sentence.Tokens {
		out[i].Form = t.Form
		if t.Start >= 0 {
			start, end := t.Start, t.End
			out[i].Start, out[i].End = &start, &end
		}
	}
	for _, id := range r.Kept {
		out[id-1].Kept = true
	}
	for _, id := range r.Query {
		out[id-1].Query = true
	}
	return out
}

// NewEncoder returns the encoder of results: one JSON value per line, with <, > and &
// written as they are.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// JSONError describes a decoding error of encoding/json, naming the field and the
// expected type for a wrong type: `field "budget" must be an integer, not string`.
func JSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q must be %s, not %s", te.Field, jsonType(te.Type.String()), te.Value)
	}
	return err.Error()
}

func jsonType(goType string) string {
	switch goType {
	case "string":
		return "a string"
	case "int":
		return "an integer"
	case "[]string":
		return "a list of strings"
	case "[]int":
		return "a list of integers"
	}
	return goType
}
