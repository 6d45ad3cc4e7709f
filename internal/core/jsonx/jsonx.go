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
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("must be a JSON object, not %s", te.Value)
		}
		return fmt.Sprintf("field %q must be %s, not %s", jsonField(te.Field), jsonType(te.Type.String()), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
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
