package jsonx

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestDescribe checks each kind of message: a field of the wrong type, the whole value of
// the wrong type, a type without a JSON name, and any other error.
func TestDescribe(t *testing.T) {
	type record struct {
		ID    string   `json:"id"`
		N     int      `json:"n"`
		Terms []string `json:"terms"`
		F     float64  `json:"f"`
	}
	for _, c := range []struct{ data, want string }{
		{`{"id":5}`, `field "id" must be a string, not number`},
		{`{"n":"5"}`, `field "n" must be an integer, not string`},
		{`{"terms":"a"}`, `field "terms" must be a list of strings, not string`},
		{`{"f":"a"}`, `field "f" must be float64, not string`},
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
