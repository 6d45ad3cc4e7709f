package batch

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
)

func TestDecodeInput(t *testing.T) {
	cases := []struct{ in, id, text, err string }{
		{`{"id":"a","text":"Dogs bark."}`, "a", "Dogs bark.", ""},
		{`{"id":"a","text":""}`, "a", "", ""},
		{`{"id":"a"}`, "a", "", `line 7: record has no "text"`},
		{`{"text":"x"}`, "", "", `line 7: record has no "id"`},
		{`{"id":"a","text":"x","lang":"en"}`, "a", "", `unknown field "lang"`},
		{`{"id":"a","title":"T","text":"x","url":"https://example.org/a"}`, "a", "x", ""},
		{`{"id":"a","text":5}`, "a", "", `field "text" must be a string, not number`},
		{`{"id":"a","text":"x"} {}`, "a", "", "more than one JSON value"},
		{`[1]`, "", "", "line 7: invalid record"},
	}
	for _, c := range cases {
		id, text, err := DecodeInput([]byte(c.in), "line 7")
		if id != c.id || text != c.text || (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: id %q text %q err %v; want %q %q %q", c.in, id, text, err, c.id, c.text, c.err)
		}
	}
}

// TestDecodeRequest checks that a request's record may leave out the id, and is read as
// DecodeInput reads a line otherwise.
func TestDecodeRequest(t *testing.T) {
	for _, c := range []struct{ in, id, text, err string }{
		{`{"text":"x"}`, "", "x", ""},
		{`{"id":"a","text":"x"}`, "a", "x", ""},
		{`{"id":"a"}`, "a", "", `record has no "text"`},
		{`{"text":"x","lang":"en"}`, "", "", `unknown field "lang"`},
		{`[1]`, "", "", "invalid record"},
	} {
		id, text, err := DecodeRequest([]byte(c.in))
		if id != c.id || text != c.text || (c.err == "") != (err == nil) || (err != nil && (!strings.Contains(err.Error(), c.err) || strings.HasPrefix(err.Error(), ":"))) {
			t.Errorf("%s: id %q text %q err %v; want %q %q %q", c.in, id, text, err, c.id, c.text, c.err)
		}
	}
}

func TestProcessor(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Queries: [][]string{{"a"}}}, {Queries: [][]string{{}}, Budget: 9}, {Queries: [][]string{{"a"}}, Budget: 9, Method: "nope"}} {
		if _, err := New(eng, o); err == nil {
			t.Errorf("New(%+v): no error", o)
		}
	}
	p, err := New(eng, Options{Queries: [][]string{{"bail"}, {"arrested two men in Syracuse"}}, Budget: 25, N: 1})
	if err != nil {
		t.Fatal(err)
	}
	o := p.Line(context.Background(), []byte(`{"id":"a","text":"Police arrested two men in Syracuse. They were released on bail."}`), "")
	if o.Failed() || o.Sentences != 2 || len(o.Annotation) != o.Bytes || len(o.Snippets) != 2 || o.QueryErrors() != 1 {
		t.Fatalf("output %+v", o)
	}
	if len(o.Snippets[0].Snippets) != 1 || !strings.Contains(o.Snippets[0].Snippets[0].Text, "bail") {
		t.Errorf("snippets of bail: %+v", o.Snippets[0])
	}
	line, err := Marshal(&o)
	if err != nil || strings.Contains(string(line), "\n") {
		t.Fatalf("Marshal: %q %v", line, err)
	}
	var back Output
	if err := json.Unmarshal(line, &back); err != nil || string(back.Annotation) != string(o.Annotation) {
		t.Errorf("the record does not read back: %v", err)
	}
	if o := p.Line(context.Background(), []byte(`{"id":"b","text":"bad \ud800 \u0000"}`), "line 2"); o.Failed() {
		t.Errorf("a text with a lone surrogate (read as U+FFFD) and NUL: %+v", o)
	}
	// An error of the annotation names its line too.
	big := `{"id":"c","text":"` + strings.Repeat("a ", qsc.MaxDocumentBytes/2+1) + `"}`
	if o := p.Line(context.Background(), []byte(big), "docs.jsonl:3"); !o.Failed() || !strings.HasPrefix(o.Error, "docs.jsonl:3: ") || !strings.Contains(o.Error, "more than the maximum") {
		t.Errorf("a document over the limit: %q", o.Error)
	}
}
