// Package jsonx holds the JSON conventions that the public batch interface
// (annotation/batch) and the qsc binary's service (internal/service) share: how records
// are written and how a decoding error is told to the user. It lives in core so that a
// public package need not import the service to follow them.
package jsonx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// NewEncoder returns the encoder of records: one JSON value per line, with <, > and &
// written as they are (no HTML escaping).
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// Describe describes a decoding error of encoding/json, naming the field and the
// expected type for a wrong type (`field "budget" must be an integer, not string`), or
// saying that the value must be an object when the whole value has the wrong type;
// any other error is its message without the package's "json: " prefix.
func Describe(err error) string {
	var te *json.UnmarshalTypeError
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("must be a JSON object, not %s", te.Value)
		}
		msg = fmt.Sprintf("field %q must be %s, not %s", jsonField(te.Field), jsonType(te.Type.String()), te.Value)
	}
	for _, h := range hints {
		if strings.Contains(msg, h.error) {
			return msg + "; " + h.hint
		}
	}
	return msg
}

// hints say how to mend the mistakes a new user of the records makes most, which the
// decoder's message names but does not explain: a snippets request's text is "document"
// where the other records say "text", and a query is a list.
var hints = []struct{ error, hint string }{
	{`unknown field "text"`, `a snippets request takes the text as "document"`},
	{`unknown field "document"`, `this record takes the text as "text"`},
	{`field "query" must be a list of strings`, `give a list: "query": ["water", "boil water"]`},
}

// jsonField returns the path of a field as the record names it: without the Go names of
// the embedded structs that encoding/json puts before it ("SnippetRequest.n" is "n"). The
// JSON names of qsc's records are lower case, so a leading part in upper case is one.
func jsonField(path string) string {
	for {
		head, rest, ok := strings.Cut(path, ".")
		if !ok || head == "" || head[0] < 'A' || head[0] > 'Z' {
			return path
		}
		path = rest
	}
}

// jsonType names a Go type of the request records as a JSON type, with its article; other
// types are named as Go names them.
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
	case "bool":
		return "a boolean"
	}
	return goType
}
