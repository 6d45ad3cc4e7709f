package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/service/demo"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// benchPost measures POST requests through the whole handler (middleware, decoding,
// engine, encoding), in process.
func benchPost(b *testing.B, h http.Handler, path, body string) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", path, bytes.NewReader([]byte(body))))
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}

func benchServer(b *testing.B, idx *docindex.Index) http.Handler {
	s, err := New(Config{Engine: servicetest.Engine(b), Index: idx})
	if err != nil {
		b.Fatal(err)
	}
	return s.Handler()
}

// BenchmarkCompressHTTP is one POST /v1/compress of a 17-word sentence (raw text: tagging
// and parsing included).
func BenchmarkCompressHTTP(b *testing.B) {
	benchPost(b, benchServer(b, nil), "/v1/compress",
		`{"id":"1","text":"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.","query":["police","Syracuse"],"budget":40}`)
}

// BenchmarkCompressHTTPKeys is BenchmarkCompressHTTP on a server with keys and a
// per-key rate far above the load: each request is authorized (SHA-256 of the key,
// compared with every stored hash) and takes a token (docs/reliability.md, "Keys on").
func BenchmarkCompressHTTPKeys(b *testing.B) {
	keys := testKeys(b)
	s, err := New(Config{Engine: servicetest.Engine(b), Keys: keys, KeyLimits: Limits{Rate: 1e9}})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	body := []byte(`{"id":"1","text":"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.","query":["police","Syracuse"],"budget":40}`)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/v1/compress", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+searchText)
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkGuard is the access control and rate of one request alone, with keys and
// without.
func BenchmarkGuard(b *testing.B) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	for _, withKeys := range []bool{false, true} {
		b.Run(map[bool]string{false: "open", true: "keys"}[withKeys], func(b *testing.B) {
			cfg := Config{Engine: servicetest.Engine(b), KeyLimits: Limits{Rate: 1e9}}
			if withKeys {
				cfg.Keys = testKeys(b)
			}
			s, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			h := s.guard(ScopeSearch, nil, next)
			req := httptest.NewRequest("POST", "/v1/compress", nil)
			req.Header.Set("Authorization", "Bearer "+searchText)
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, req)
			}
		})
	}
}

// BenchmarkSnippetsHTTP is one POST /v1/snippets of a five-sentence document of the demo
// collection, three snippets.
func BenchmarkSnippetsHTTP(b *testing.B) {
	docs, err := demo.Load()
	if err != nil {
		b.Fatal(err)
	}
	body := `{"document":` + quote(docs[0].Text) + `,"query":["hospital","Birmingham","London"],"budget":80,"n":3}`
	benchPost(b, benchServer(b, nil), "/v1/snippets", body)
}

// BenchmarkSearchHTTP is one GET /v1/search over the demo collection: 10 documents, 2
// snippets each.
func BenchmarkSearchHTTP(b *testing.B) {
	h := benchServer(b, demoIndex(b))
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/search?q=police+arrested&budget=100", nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}

func quote(s string) string {
	var buf bytes.Buffer
	enc := jsonx.NewEncoder(&buf)
	enc.Encode(s)
	return string(bytes.TrimSpace(buf.Bytes()))
}
