package wire

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// TestHostileRecords is the table of hostile JSON records of docs/reliability.md, as the
// batch interface (qsc compress --jsonl, line 3 here) reads them: each gets exactly one
// result line, an error of a given class naming the problem, or a defined result.
func TestHostileRecords(t *testing.T) {
	const s = `"text":"Police in Syracuse arrested two men.","query":["Syracuse"]`
	cases := []struct {
		name, rec string
		err       error  // the error class, or nil for a success
		want      string // the encoded result line, without its newline
	}{
		{"malformed JSON", `{"id":"a","text":`, qsc.ErrBadRequest, `{"id":"","error":"line 3: invalid record: unexpected EOF"}`},
		{"not an object", `[1,2]`, qsc.ErrBadRequest, `{"id":"","error":"line 3: invalid record: must be a JSON object, not array"}`},
		{"a string", `"x"`, qsc.ErrBadRequest, `{"id":"","error":"line 3: invalid record: must be a JSON object, not string"}`},
		{"null", `null`, qsc.ErrBadRequest, `{"id":"","error":"line 3: record has no \"id\""}`},
		{"no id", `{` + s + `,"budget":25}`, qsc.ErrBadRequest, `{"id":"","error":"line 3: record has no \"id\""}`},
		{"id a number", `{"id":5,` + s + `,"budget":25}`, qsc.ErrBadRequest, `{"id":"","error":"line 3: invalid record: field \"id\" must be a string, not number"}`},
		{"budget a string", `{"id":"a",` + s + `,"budget":"25"}`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: field \"budget\" must be an integer, not string"}`},
		{"budget a fraction", `{"id":"a",` + s + `,"budget":2.5}`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: field \"budget\" must be an integer, not number 2.5"}`},
		{"budget over int64", `{"id":"a",` + s + `,"budget":1e30}`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: field \"budget\" must be an integer, not number 1e30"}`},
		{"budget null", `{"id":"a",` + s + `,"budget":null}`, qsc.ErrBadRequest, `{"id":"a","error":"bad request: budget is required (budget must be a positive number of characters)"}`},
		{"query a string", `{"id":"a","text":"a b","query":"a","budget":5}`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: field \"query\" must be a list of strings, not string; give a list: \"query\": [\"water\", \"boil water\"]"}`},
		{"tokens numbers", `{"id":"a","tokens":[1,2],"query_ids":[1],"budget":5}`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: field \"tokens\" must be a string, not number"}`},
		{"query id over int64", `{"id":"a","text":"a b","query_ids":[99999999999999999999],"budget":5}`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: field \"query_ids\" must be an integer, not number 99999999999999999999"}`},
		{"nested arrays", `{"id":"d","text":[[[[[[[[1]]]]]]]]}`, qsc.ErrBadRequest, `{"id":"d","error":"line 3: invalid record: field \"text\" must be a string, not array"}`},
		{"unknown field", `{"id":"a",` + s + `,"budget":25,"bugdet":3}`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: unknown field \"bugdet\""}`},
		{"trailing data", `{"id":"a",` + s + `,"budget":25} x`, qsc.ErrBadRequest, `{"id":"a","error":"line 3: invalid record: more than one JSON value on the line"}`},
		{"raw control character in a string", "{\"id\":\"a\",\"text\":\"a\x01b\",\"query\":[\"a\"],\"budget\":5}", qsc.ErrBadRequest, `{"id":"","error":"line 3: invalid record: invalid character '\\x01' in string literal"}`},
		{"byte order mark", "\ufeff{\"id\":\"a\"}", qsc.ErrBadRequest, `{"id":"","error":"line 3: invalid record: invalid character 'ï' looking for beginning of value"}`},
		{"empty text", `{"id":"a","text":"","query":["a"],"budget":5}`, qsc.ErrBadRequest, `{"id":"a","error":"bad request: no sentence: the text is empty or blank, and no tokens are given"}`},
		{"whitespace text", `{"id":"a","text":" \t\n ","query":["a"],"budget":5}`, qsc.ErrBadRequest, `{"id":"a","error":"bad request: no sentence: the text is empty or blank, and no tokens are given"}`},
		{"escaped control characters separate tokens", `{"id":"c","text":"a\u0000b\u001b c","query":["a","b","c"],"budget":5}`, nil, `{"id":"c","kept":[1,2,3],"compression":"a b c","compression_ellipsis":"a b c","lang":"en","method":"ilp"}`},
		{"invalid UTF-8 becomes U+FFFD", "{\"id\":\"u\",\"text\":\"caf\xe9 bar\",\"query_ids\":[1,2],\"budget\":5}", nil, `{"id":"u","kept":[1,2],"compression":"caf�","compression_ellipsis":"caf� …","lang":"en","method":"ilp"}`},
		{"query term absent", `{"id":"a",` + strings.Replace(s, "Syracuse\"]", "Boston\"]", 1) + `,"budget":25}`, qsc.ErrInfeasible, `{"id":"a","error":"infeasible: query term \"Boston\" is not in the sentence"}`},
		{"duplicate query terms", `{"id":"a","text":"Dogs bark.","query":["dogs","DOGS","dogs"],"budget":4}`, nil, `{"id":"a","kept":[1],"compression":"Dogs","compression_ellipsis":"Dogs …","lang":"en","method":"ilp"}`},
		{"budget 0", `{"id":"a",` + s + `,"budget":0}`, qsc.ErrBadRequest, `{"id":"a","error":"bad request: budget is required (budget must be a positive number of characters)"}`},
		{"budget negative", `{"id":"a",` + s + `,"budget":-3}`, qsc.ErrBadRequest, `{"id":"a","error":"bad request: budget must be a positive number of characters, got -3"}`},
		{"budget below the query", `{"id":"a",` + s + `,"budget":5}`, qsc.ErrInfeasible, `{"id":"a","error":"infeasible: the query is longer than the budget: 8 characters, the budget 5"}`},
		{"budget int64 max, ILP", `{"id":"a","text":"Dogs","query":["dogs"],"budget":9223372036854775807,"method":"ilp"}`, nil, `{"id":"a","kept":[1],"compression":"Dogs","compression_ellipsis":"Dogs","lang":"en","method":"ilp"}`},
		{"empty compression", `{"id":"e","text":"Police arrested Syracuse burglars","query":[],"budget":3,"method":"ilp"}`, nil, `{"id":"e","kept":[],"compression":"","compression_ellipsis":"","lang":"en","method":"ilp"}`},
		{"unknown method", `{"id":"a",` + s + `,"budget":25,"method":"ilp "}`, qsc.ErrUnknownMethod, `{"id":"a","error":"unknown method \"ilp \" (want one of ` + strings.Join(qsc.Methods(), ", ") + `)"}`},
		{"duplicate keys: the last wins", `{"id":"a","id":"b","text":"Dogs bark.","query":["dogs"],"budget":4}`, nil, `{"id":"b","kept":[1],"compression":"Dogs","compression_ellipsis":"Dogs …","lang":"en","method":"ilp"}`},
		{"field names ignore case", `{"ID":"a","Text":"Dogs bark.","QUERY":["dogs"],"budget":4}`, nil, `{"id":"a","kept":[1],"compression":"Dogs","compression_ellipsis":"Dogs …","lang":"en","method":"ilp"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Compress(context.Background(), servicetest.Engine(t), []byte(c.rec), Line(3), Options{DefaultMethod: qsc.DefaultMethod})
			if c.err == nil && err != nil || c.err != nil && !errors.Is(err, c.err) {
				t.Errorf("error %v, want %v", err, c.err)
			}
			var buf bytes.Buffer
			if err := jsonx.NewEncoder(&buf).Encode(res); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSuffix(buf.String(), "\n"); got != c.want {
				t.Errorf("result\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
