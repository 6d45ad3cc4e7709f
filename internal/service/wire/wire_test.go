package wire

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
)

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		in, id, err string
		u           Unit
	}{
		{`{"id":"a","text":"Dogs bark.","query":["dogs"],"budget":5}`, "a", "", Line(1)},
		{`{"id":"b","budget":"5"}`, "b", `line 2: invalid record: field "budget" must be an integer, not string`, Line(2)},
		{`{"id":"c","budget":5,"nope":1}`, "c", `invalid request: unknown field "nope"`, Body},
		{`{"id":"d"} {"id":"e"}`, "d", "invalid request: more than one JSON value in the body", Body},
		{`{"id":"d"} {"id":"e"}`, "d", "line 3: invalid record: more than one JSON value on the line", Line(3)},
		{`{"budget":5}`, "", `record has no "id"`, Line(4)},
		{`{"budget":5}`, "", "", Body}, // optional over HTTP
		{`{"id":7}`, "", `field "id" must be a string, not number`, Body},
		{`{"id":"f",`, "", "invalid request: unexpected EOF", Body},
	} {
		_, id, err := Decode([]byte(c.in), c.u)
		if id != c.id {
			t.Errorf("%s: id %q, want %q", c.in, id, c.id)
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, qsc.ErrBadRequest)):
			t.Errorf("%s: error %v, want one containing %q that is a qsc.ErrBadRequest", c.in, err, c.err)
		}
	}
}

func TestCompress(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	text := `Police in Syracuse arrested two men.`
	res, err := Compress(ctx, eng, []byte(`{"id":"x","text":"`+text+`","query":["Syracuse"],"budget":25}`), Body, Options{Tokens: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != "x" || res.Error != "" || len(res.Tokens) != 7 || !res.Tokens[2].Query || !res.Tokens[2].Kept {
		t.Fatalf("%+v", res)
	}
	for _, tok := range res.Tokens {
		if text[*tok.Start:*tok.End] != tok.Form {
			t.Errorf("token %+v: offsets", tok)
		}
	}
	var buf bytes.Buffer
	res.Tokens = nil
	jsonx.NewEncoder(&buf).Encode(res)
	if got := buf.String(); !strings.HasPrefix(got, `{"id":"x","kept":[`) || !strings.Contains(got, `],"compression":"`) || !strings.HasSuffix(got, "\"}\n") {
		t.Errorf("encoded %s, want {\"id\", \"kept\", \"compression\"} on one line", got)
	}
	// Over HTTP the id is optional: the answer then has none; the budget may count the
	// display.
	res, err = Compress(ctx, eng, []byte(`{"text":"`+text+`","query":["Syracuse"],"budget":20,"budget_counts":"display"}`), Body, Options{})
	buf.Reset()
	jsonx.NewEncoder(&buf).Encode(res)
	if err != nil || strings.Contains(buf.String(), `"id"`) || !strings.Contains(buf.String(), `"compression_ellipsis":"`) ||
		utf8.RuneCountInString(res.Ellipsis) > 20 || !strings.Contains(res.Ellipsis, "…") {
		t.Errorf("no id, display budget: %s (%v)", buf.String(), err)
	}
	// The default method applies only when the request names none.
	res, err = Compress(ctx, eng, []byte(`{"id":"y","text":"Dogs bark.","query":["dogs"],"budget":20}`), Body, Options{DefaultMethod: "nope"})
	if !errors.Is(err, qsc.ErrUnknownMethod) || res.ID != "y" || !strings.Contains(res.Error, `unknown method "nope"`) {
		t.Errorf("default method: %+v %v", res, err)
	}
	res, err = Compress(ctx, eng, []byte(`{"id":"z","text":"Dogs bark.","query":["cats"],"budget":20}`), Body, Options{})
	if !errors.Is(err, qsc.ErrInfeasible) || res.Error != err.Error() || res.Kept != nil {
		t.Errorf("infeasible: %+v %v", res, err)
	}
	var out bytes.Buffer
	jsonx.NewEncoder(&out).Encode(Result{ID: "h", Compression: "<b>&"})
	if out.String() != `{"id":"h","kept":[],"compression":"<b>&","compression_ellipsis":"","lang":"","method":""}`+"\n" {
		t.Errorf("HTML escaped: %s", out.String())
	}
}
