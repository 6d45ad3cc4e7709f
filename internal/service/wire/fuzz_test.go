package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// engine returns one Engine for the whole test binary.
// referenceJSON encodes res with encoding/json, as Result.MarshalJSON must: the error
// form, or the success form with "kept", "compression", "compression_ellipsis", "lang" and "method" always
// present; "id" unless the request had none over HTTP.
func referenceJSON(t *testing.T, res Result) []byte {
	t.Helper()
	var v any
	id := &res.ID
	if res.noID {
		id = nil
	}
	if res.Error != "" {
		v = struct {
			ID    *string `json:"id,omitempty"`
			Error string  `json:"error"`
		}{id, res.Error}
	} else {
		kept := res.Kept
		if kept == nil {
			kept = []int{}
		}
		v = struct {
			ID          *string `json:"id,omitempty"`
			Kept        []int   `json:"kept"`
			Compression string  `json:"compression"`
			Ellipsis    string  `json:"compression_ellipsis"`
			Lang        string  `json:"lang"`
			Method      string  `json:"method"`
			Tokens      []Token `json:"tokens,omitempty"`
		}{id, kept, res.Compression, res.Ellipsis, res.Lang, res.Method, res.Tokens}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzCompress feeds arbitrary bytes, as one line of the batch interface or one request
// body, to Compress: it must never panic; a failure must wrap qsc.ErrBadRequest,
// qsc.ErrInfeasible or qsc.ErrUnknownMethod and be written to Result.Error; a success
// must keep ascending token ids and a compression within the request's budget; and the
// result must encode as one line of valid JSON, byte for byte what encoding/json writes,
// that decodes to the same result.
// Seeds are in testdata/fuzz/FuzzCompress.
//
//	go test -run '^$' -fuzz '^FuzzCompress$' -fuzztime 10m -parallel 1 ./internal/service/wire
func FuzzCompress(f *testing.F) {
	f.Add([]byte(`{"id":"1","text":"Police in Syracuse arrested two men.","query":["Syracuse"],"budget":25}`), true)
	f.Fuzz(func(t *testing.T, data []byte, line bool) {
		u := Body
		if line {
			u = Line(7)
		}
		res, err := Compress(context.Background(), servicetest.Engine(t), data, u, Options{DefaultMethod: qsc.DefaultMethod, Tokens: !line})
		if err != nil {
			if !errors.Is(err, qsc.ErrBadRequest) && !errors.Is(err, qsc.ErrInfeasible) && !errors.Is(err, qsc.ErrUnknownMethod) {
				t.Fatalf("untyped error: %v", err)
			}
			if res.Error != err.Error() || res.Kept != nil || res.Compression != "" || res.Tokens != nil {
				t.Fatalf("failed result %+v for the error %v", res, err)
			}
		} else {
			req, _, derr := Decode(data, u)
			if derr != nil {
				t.Fatalf("Compress succeeded on a request Decode rejects: %v", derr)
			}
			if res.Error != "" || !slices.IsSorted(res.Kept) || len(res.Kept) > 0 && res.Kept[0] < 1 {
				t.Fatalf("result %+v", res)
			}
			if utf8.RuneCountInString(res.Compression) > req.Budget {
				t.Fatalf("compression %q is over the budget %d", res.Compression, req.Budget)
			}
			if req.BudgetCounts == qsc.BudgetDisplay && utf8.RuneCountInString(res.Ellipsis) > req.Budget {
				t.Fatalf("display budget: %q is over the budget %d", res.Ellipsis, req.Budget)
			}
			if !line && len(res.Tokens) < len(res.Kept) {
				t.Fatalf("%d tokens for %d kept", len(res.Tokens), len(res.Kept))
			}
		}
		var buf bytes.Buffer
		if err := jsonx.NewEncoder(&buf).Encode(res); err != nil {
			t.Fatal(err)
		}
		out := buf.Bytes()
		if want := referenceJSON(t, res); !bytes.Equal(out, want) {
			t.Fatalf("encoded\n%q\nencoding/json gives\n%q", out, want)
		}
		if bytes.IndexByte(out, '\n') != len(out)-1 {
			t.Fatalf("the result is not one line: %q", out)
		}
		var back Result
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("the result %q is not valid JSON: %v", out, err)
		}
		if utf8.ValidString(res.ID) && utf8.ValidString(res.Error) && (back.ID != res.ID || back.Error != res.Error || !slices.Equal(back.Kept, res.Kept)) {
			t.Fatalf("the result does not round-trip: %+v, %+v", res, back)
		}
	})
}

// TestEncodeStrings checks Result.MarshalJSON against encoding/json on strings that need
// escaping, and that a success with an empty compression still has "kept" and
// "compression" (openapi.yaml requires them).
func TestEncodeStrings(t *testing.T) {
	for _, s := range []string{
		"", "plain", `"quoted" \back\slash`, "\x00\x01\b\f\n\r\t\x1f\x7f", "<b>&amp;</b>", "caf\xe9 \xff\xfe \xc3",
		"\u2028\u2029 \ufeff \u200b 👍🏽", "\xed\xa0\x80 surrogate", strings.Repeat("é\n", 100),
	} {
		for _, res := range []Result{
			{ID: s, noID: true, Kept: []int{1}, Compression: s, Ellipsis: s},
			{noID: true, Error: s + "!"},
			{ID: s, Kept: []int{1, 20}, Compression: s, Ellipsis: s, Tokens: []Token{{Form: s, Kept: true}, {Form: "x", Start: new(3), End: new(4), Query: true}}},
			{ID: s, Error: s + "!"},
			{ID: s},
		} {
			var buf bytes.Buffer
			if err := jsonx.NewEncoder(&buf).Encode(res); err != nil {
				t.Fatal(err)
			}
			if want := referenceJSON(t, res); !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%q: encoded\n%s\nencoding/json gives\n%s", s, buf.Bytes(), want)
			}
		}
	}
}
