package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// fuzzRoutes are the routes a fuzz input picks from: the API endpoints with their methods.
var fuzzRoutes = []struct{ method, path string }{
	{"POST", "/v1/compress"},
	{"POST", "/v1/compress?tokens=true"},
	{"POST", "/v1/snippets"},
	{"GET", "/v1/search"},
	{"GET", "/healthz"},
	{"PUT", "/v1/compress"},
	{"POST", "/v1/annotate"},
	{"POST", "/v1/annotate?tables=true"},
}

// FuzzHandler sends arbitrary bodies and query strings through the whole handler
// (middleware included) with httptest: every answer must be 2xx or 4xx, never 5xx and
// never a panic, with a JSON body, that holds "error" for a 4xx. Seeds are in
// testdata/fuzz/FuzzHandler.
//
//	go test -run '^$' -fuzz '^FuzzHandler$' -fuzztime 10m -parallel 1 ./internal/service/server
func FuzzHandler(f *testing.F) {
	f.Add(uint8(0), "", []byte(`{"id":"1","text":"Police in Syracuse arrested two men.","query":["Syracuse"],"budget":25}`))
	f.Add(uint8(6), "", []byte(`{"id":"1","text":"Police in Syracuse arrested two men. They were released."}`))
	// A snippets request with the annotation of its document, as POST /v1/annotate answers it.
	f.Add(uint8(2), "", []byte(`{"document":"Police arrested two men. They were released on bail.","query":["bail"],"budget":25,"annotation":"UVNDQQEAXwTTKdEULppRsOXhLgVnizTXYhFeAgUUGgIFHScACQkKAhIJGgMIAAUFAQYNHQQaDScCGB0pAAkFEAIADRcDBgAFBQHTo4tG"}`))
	s, err := New(Config{Engine: servicetest.Engine(f), Index: index(f)})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, route uint8, query string, body []byte) {
		r := fuzzRoutes[int(route)%len(fuzzRoutes)]
		target := r.path
		if query != "" {
			sep := "?"
			if bytes.ContainsRune([]byte(target), '?') {
				sep = "&"
			}
			target += sep + url.PathEscape(query)
		}
		req := httptest.NewRequest(r.method, "http://qsc.test"+target, bytes.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code < 200 || rec.Code >= 500 || rec.Code >= 300 && rec.Code < 400 {
			t.Fatalf("%s %s %q: status %d %s", r.method, target, body, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s %s: Content-Type %q", r.method, target, ct)
		}
		var ans map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
			t.Fatalf("%s %s %q: %d answer %q is not a JSON object: %v", r.method, target, body, rec.Code, rec.Body, err)
		}
		if msg, ok := ans["error"].(string); (rec.Code >= 400) != (ok && msg != "") {
			t.Fatalf("%s %s %q: %d answer %s", r.method, target, body, rec.Code, rec.Body)
		}
		if rec.Code == http.StatusOK && r.path == "/v1/compress" {
			if _, ok := ans["compression"]; !ok {
				t.Fatalf("200 answer without compression: %s", rec.Body)
			}
		}
		if rec.Code == http.StatusOK && strings.HasPrefix(r.path, "/v1/annotate") {
			if _, ok := ans["annotation"].(string); !ok {
				t.Fatalf("200 answer without annotation: %s", rec.Body)
			}
		}
	})
}
