package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
	"github.com/qsc-nlp/qsc/internal/core/cputime"
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

// BenchmarkSnippetsHTTPPage measures the snippets of a results page that a search engine
// of its own asks for: one POST /v1/snippets for each of the 10 best documents of the demo
// collection for a query (3 snippets of 80 characters each), the pages of seven queries
// in turn. One op is one page; cpu-µs/page is the process's CPU time per page. The raw
// row sends the text alone, so the server tags and parses the sentences it compresses;
// the annotated row sends each document with its annotation from POST /v1/annotate,
// made before the loop, as an index would store it (TestSnippetsAnnotated: the same
// answers). The library row makes the annotated row's snippets in process
// (Engine.SnippetsAnnotated and their renderings), with the annotations read before the
// loop: the floor to which HTTP adds its handler and the JSON of the request and answer.
func BenchmarkSnippetsHTTPPage(b *testing.B) {
	idx := demoIndex(b)
	h := benchServer(b, nil)
	queries := []string{"police arrested", "court appeal", "president election", "fire killed", "company shares profit", "storm weather", "minister said"}
	var raw, annotated [][]string // each page's bodies
	for _, q := range queries {
		found, err := idx.Search(context.Background(), docindex.SearchRequest{Query: q, Size: 10})
		if err != nil || len(found.Hits) == 0 {
			b.Fatalf("%q: %d hits, %v", q, len(found.Hits), err)
		}
		var r, a []string
		for _, hit := range found.Hits {
			req := map[string]any{"document": hit.Doc.Text, "query": found.Terms, "budget": 80, "n": 3}
			body, _ := json.Marshal(req)
			r = append(r, string(body))
			rec := httptest.NewRecorder()
			ab, _ := json.Marshal(map[string]string{"text": hit.Doc.Text})
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/annotate", bytes.NewReader(ab)))
			var out struct{ Annotation string }
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
				b.Fatalf("annotate: %d %s", rec.Code, rec.Body)
			}
			req["annotation"] = out.Annotation
			body, _ = json.Marshal(req)
			a = append(a, string(body))
		}
		raw, annotated = append(raw, r), append(annotated, a)
	}
	b.Run("library", func(b *testing.B) {
		eng := servicetest.Engine(b)
		type job struct {
			req qsc.SnippetRequest
			ann *annotation.Annotation
		}
		var pages [][]job
		for _, p := range annotated {
			var js []job
			for _, body := range p {
				var r snippetsRequest
				if err := json.Unmarshal([]byte(body), &r); err != nil {
					b.Fatal(err)
				}
				a, err := annotationOf(&r, new(decodedAnnotation))
				if err != nil {
					b.Fatal(err)
				}
				js = append(js, job{r.SnippetRequest, a})
			}
			pages = append(pages, js)
		}
		runtime.GC()
		cpu0, i := cputime.Used(), 0
		for b.Loop() {
			for _, j := range pages[i%len(pages)] {
				sn, err := eng.SnippetsAnnotated(context.Background(), &j.req, j.ann, qsc.AnnotationOptions{})
				if err != nil {
					b.Fatal(err)
				}
				_ = rendered(j.req.Document, sn)
			}
			i++
		}
		b.ReportMetric(float64((cputime.Used()-cpu0).Microseconds())/float64(b.N), "cpu-µs/page")
	})
	for _, row := range []struct {
		name  string
		pages [][]string
	}{{"raw", raw}, {"annotated", annotated}} {
		b.Run(row.name, func(b *testing.B) {
			b.ReportAllocs()
			runtime.GC()
			cpu0, i, bytesIn := cputime.Used(), 0, 0
			for b.Loop() {
				for _, body := range row.pages[i%len(row.pages)] {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/snippets", strings.NewReader(body)))
					if rec.Code != http.StatusOK {
						b.Fatalf("%d %s", rec.Code, rec.Body)
					}
					bytesIn += len(body)
				}
				i++
			}
			b.ReportMetric(float64((cputime.Used()-cpu0).Microseconds())/float64(b.N), "cpu-µs/page")
			b.ReportMetric(float64(bytesIn)/float64(b.N), "request-bytes/page")
		})
	}
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
