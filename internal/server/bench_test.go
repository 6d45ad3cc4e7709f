package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/qsc-nlp/qsc/internal/demo"
	"github.com/qsc-nlp/qsc/internal/docindex"
	"github.com/qsc-nlp/qsc/internal/wire"
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
	s, err := New(Config{Engine: engine(b), Index: idx})
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
	enc := wire.NewEncoder(&buf)
	enc.Encode(s)
	return string(bytes.TrimSpace(buf.Bytes()))
}
