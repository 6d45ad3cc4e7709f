package jsonx

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestDescribe checks each kind of message: a field of the wrong type, the whole value of
// the wrong type, a type without a JSON name, and any other error.
func TestDescribe(t *testing.T) {
	type Inner struct {
		N int `json:"n"`
	}
	type record struct {
		Inner          // its fields are named as the record's own
		ID    string   `json:"id"`
		Terms []string `json:"terms"`
		F     float64  `json:"f"`
		B     bool     `json:"b"`
	}
	for _, c := range []struct{ data, want string }{
		{`{"id":5}`, `field "id" must be a string, not number`},
		{`{"n":"5"}`, `field "n" must be an integer, not string`},
		{`{"terms":"a"}`, `field "terms" must be a list of strings, not string`},
		{`{"f":"a"}`, `field "f" must be float64, not string`},
		{`{"b":1}`, `field "b" must be a boolean, not number`},
		{`[1]`, `must be a JSON object, not array`},
		{`{"id":`, `unexpected end of JSON input`},
	} {
		var r record
		err := json.Unmarshal([]byte(c.data), &r)
		if err == nil {
			t.Fatalf("%s: no error", c.data)
		}
		if got := Describe(err); got != c.want {
			t.Errorf("Describe(%s) = %q, want %q", c.data, got, c.want)
		}
	}
}

// TestNewEncoder checks that records are written one a line, <, > and & as they are.
func TestNewEncoder(t *testing.T) {
	var b bytes.Buffer
	if err := NewEncoder(&b).Encode(map[string]string{"a": "<b>&"}); err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"<b>&"}` + "\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
