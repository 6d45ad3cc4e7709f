// Package wire is the JSON form of compression requests and results, shared by the batch
// interface (qsc compress --jsonl) and the HTTP service (POST /v1/compress), so that both
// accept and answer exactly the same records.
//
// A request is one JSON object decoding to a qsc.Request: unknown fields, wrong types and
// trailing data are errors, and the "id" is required in a batch (optional over HTTP). A
// result is a Result: the id, the kept token ids, the compression and its ellipsis
// rendering, or the id and an error.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
)

// Result is the answer to one request. It encodes (MarshalJSON) as {"id", "kept",
// "compression", "compression_ellipsis", "lang", "method"} (and "tokens" when set) for a
// success, and as {"id", "error"} for a failure; without "id" when the request had none
// over HTTP.
type Result struct {
	// ID is the request's id ("" when it could not be read).
	ID string `json:"id"`
	// Kept are the 1-based ids of the kept tokens, ascending.
	Kept []int `json:"kept,omitempty"`
	// Compression is the compression as text (qsc.Result.Compression): the kept runs of
	// the sentence in their own spelling.
	Compression string `json:"compression,omitempty"`
	// Ellipsis is the compression with "…" where words were cut (qsc.Result.Ellipsis).
	Ellipsis string `json:"compression_ellipsis,omitempty"`
	// Tokens describe every token of the sentence, when asked for (the service's
	// ?tokens=true); the batch interface never sets them.
	Tokens []Token `json:"tokens,omitempty"`
	// Error says why the request failed; Kept and Compression are then empty.
	Error string `json:"error,omitempty"`
	// Lang is the language of the sentence (qsc.Result.Lang).
	Lang string `json:"lang,omitempty"`
	// Method is the method that compressed the request (qsc.Result.Method); after a
	// failure, the one the request named (Options.DefaultMethod when it named none).
	Method string `json:"method,omitempty"`

	noID bool // the request had no "id" (Unit.OptionalID): the answer has none either
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
	// OptionalID lets a request leave out its "id"; its answer then has none.
	OptionalID bool
}

// Line is the unit of the batch interface: line n of the input.
func Line(n int) Unit {
	return Unit{Prefix: fmt.Sprintf("line %d: ", n), Noun: "record", Where: "on the line"}
}

// Body is the unit of the HTTP service: the request body, whose "id" is optional.
var Body = Unit{Noun: "request", Where: "in the body", OptionalID: true}

// decodeError is a malformed request; it matches qsc.ErrBadRequest without saying so in
// its message.
type decodeError struct{ msg string }

func (e *decodeError) Error() string        { return e.msg }
func (e *decodeError) Is(target error) bool { return target == qsc.ErrBadRequest }

// Decode decodes one request. It returns the request's id whenever the data holds a
// string "id", even when the rest is invalid, so that an error can be matched to its
// request. Its errors match qsc.ErrBadRequest.
func Decode(data []byte, u Unit) (req qsc.Request, id string, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	switch err := dec.Decode(&req); {
	case err != nil:
		return req, probeID(data), &decodeError{fmt.Sprintf("%sinvalid %s: %v", u.Prefix, u.Noun, jsonx.Describe(err))}
	case dec.More():
		return req, probeID(data), &decodeError{fmt.Sprintf("%sinvalid %s: more than one JSON value %s", u.Prefix, u.Noun, u.Where)}
	case req.ID == "" && !u.OptionalID && !hasID(data):
		return req, "", &decodeError{fmt.Sprintf("%s%s has no \"id\"", u.Prefix, u.Noun)}
	}
	return req, req.ID, nil
}

// probeID recovers the string "id" of an invalid request whose first JSON value is an
// object, even when its other fields are wrong; "" when there is none.
func probeID(data []byte) string {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	var id string
	if json.NewDecoder(bytes.NewReader(data)).Decode(&probe) == nil {
		json.Unmarshal(probe.ID, &id)
	}
	return id
}

// hasID reports whether the first JSON value of data, an object, has an "id" field (a
// valid request may give "id": "" or "id": null).
func hasID(data []byte) bool {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	return json.NewDecoder(bytes.NewReader(data)).Decode(&probe) == nil && probe.ID != nil
}

// Options change how Compress answers.
type Options struct {
	// DefaultMethod replaces an empty Method of the request; when it is "" too, the
	// library chooses by the sentence's language (qsc.Request.Method).
	DefaultMethod string
	// Tokens fills Result.Tokens.
	Tokens bool
}

// Compress decodes one request and compresses it. The error, also written to
// Result.Error, wraps qsc.ErrBadRequest, qsc.ErrInfeasible or qsc.ErrUnknownMethod for a
// fault of the request.
func Compress(ctx context.Context, eng *qsc.Engine, data []byte, u Unit, opts Options) (Result, error) {
	req, id, err := Decode(data, u)
	res := Result{ID: id, noID: u.OptionalID && id == "" && !hasID(data)}
	if err != nil {
		res.Error = err.Error()
		return res, err
	}
	if req.Method == "" {
		req.Method = opts.DefaultMethod
	}
	res.Method = req.Method
	r, err := eng.Do(ctx, &req, false)
	if err != nil {
		res.Error = err.Error()
		return res, err
	}
	res.Fill(r, opts.Tokens)
	return res, nil
}

// Fill sets the fields of a success from the compression r: the kept ids, the
// compression and its ellipsis rendering, the language and the method, and every token
// when tokens.
func (res *Result) Fill(r *qsc.Result, tokens bool) {
	res.Kept, res.Compression, res.Ellipsis, res.Lang, res.Method = r.Kept, r.Compression, r.Ellipsis(), r.Lang, r.Method
	if tokens {
		res.Tokens = tokensOf(r)
	}
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

// MarshalJSON encodes a result: {"id", "error"} when Error is set, else {"id", "kept",
// "compression", "compression_ellipsis", "lang", "method"}, all present even when the
// compression is empty, and "tokens" when set; "id" is left out when the request over HTTP had none. Strings are
// escaped as encoding/json escapes them, without HTML escaping.
func (r Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the encoding of MarshalJSON to b, without a newline.
func (r *Result) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if !r.noID {
		b = append(b, `"id":`...)
		b = appendString(b, r.ID)
		b = append(b, ',')
	}
	if r.Error != "" {
		b = append(b, `"error":`...)
		b = appendString(b, r.Error)
		return append(b, '}')
	}
	b = append(b, `"kept":[`...)
	for i, id := range r.Kept {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(id), 10)
	}
	b = append(b, `],"compression":`...)
	b = appendString(b, r.Compression)
	b = append(b, `,"compression_ellipsis":`...)
	b = appendString(b, r.Ellipsis)
	b = append(b, `,"lang":`...)
	b = appendString(b, r.Lang)
	b = append(b, `,"method":`...)
	b = appendString(b, r.Method)
	if len(r.Tokens) > 0 {
		b = append(b, `,"tokens":[`...)
		for i := range r.Tokens {
			t := &r.Tokens[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"form":`...)
			b = appendString(b, t.Form)
			if t.Start != nil {
				b = append(b, `,"start":`...)
				b = strconv.AppendInt(b, int64(*t.Start), 10)
			}
			if t.End != nil {
				b = append(b, `,"end":`...)
				b = strconv.AppendInt(b, int64(*t.End), 10)
			}
			b = append(b, `,"kept":`...)
			b = strconv.AppendBool(b, t.Kept)
			b = append(b, `,"query":`...)
			b = strconv.AppendBool(b, t.Query)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendString appends s as a JSON string, escaped as encoding/json does with HTML
// escaping off: \" \\ \b \f \n \r \t, \u00XX for the other control characters,
// \u2028 and \u2029, and \ufffd for each byte that is not valid UTF-8.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
