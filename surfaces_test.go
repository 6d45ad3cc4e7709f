package qsc_test

// Tests of the library's behaviour through the real surfaces that wrap it: the HTTP
// service (internal/server on httptest). The CLI binary's tests are in cmd/qsc.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/demo"
	"github.com/qsc-nlp/qsc/internal/server"
)

var (
	surfaceOnce sync.Once
	surfaceURL  string
	surfaceErr  error
)

// serverURL starts, once for the package's tests, the HTTP service over the embedded
// engine and demo collection, and returns its address.
func serverURL(t *testing.T) string {
	t.Helper()
	surfaceOnce.Do(func() {
		eng, err := qsc.New()
		if err != nil {
			surfaceErr = err
			return
		}
		docs, err := demo.Load()
		if err != nil {
			surfaceErr = err
			return
		}
		idx, err := demo.NewIndex(docs)
		if err != nil {
			surfaceErr = err
			return
		}
		s, err := server.New(server.Config{Engine: eng, Index: idx})
		if err != nil {
			surfaceErr = err
			return
		}
		surfaceURL = httptest.NewServer(s.Handler()).URL // lives as long as the test binary
	})
	if surfaceErr != nil {
		t.Fatal(surfaceErr)
	}
	return surfaceURL
}

// post sends body to path and decodes the JSON answer into a map.
func post(t *testing.T, path, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(serverURL(t)+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, decode(t, resp.Body)
}

func decode(t *testing.T, r io.Reader) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// matchCases are queries that the one matcher must resolve on every surface: inflection,
// accents, hyphenated words and trailing punctuation; and a truly absent term.
var matchCases = []struct {
	text, term, hit string // hit "" means the term is absent
}{
	{"The court rejected the appeals of both men.", "appeal", "appeals"},
	{"The court rejected the appeals of both men.", "court", "court"},
	{"Banks in Zürich raised their fees.", "Zurich", "Zürich"},
	{"Rain fell on São Paulo for a week.", "Sao Paulo", "São Paulo"},
	{"A transformer-based model won the prize.", "transformer", "transformer-based"},
	{"Troops of the U.S. left the base.", "U.S", "U.S."},
	{"Everyone went home after the party.", "go", "went"},
	{"The children ate the cake.", "eat", "ate"},
	{"The court rejected the appeals.", "judge", ""},
}

func TestMatcherLibraryAndHTTP(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range matchCases {
		// Library: Compress, and Snippets.
		res, err := eng.Compress(context.Background(), c.text, []string{c.term}, 200)
		sn, serr := eng.Snippets(context.Background(), c.text, []string{c.term}, 200, 1)
		// HTTP: /v1/compress and /v1/snippets.
		body, _ := json.Marshal(map[string]any{"id": "m", "text": c.text, "query": []string{c.term}, "budget": 200})
		code, got := post(t, "/v1/compress?tokens=true", string(body))
		body, _ = json.Marshal(map[string]any{"document": c.text, "query": []string{c.term}, "budget": 200})
		scode, sgot := post(t, "/v1/snippets", string(body))
		if c.hit == "" {
			if err == nil || !strings.Contains(err.Error(), "is not in the sentence") || code != http.StatusUnprocessableEntity ||
				serr != nil || len(sn) != 0 || scode != http.StatusOK || len(sgot["snippets"].([]any)) != 0 {
				t.Errorf("absent %q: library %v, %v; HTTP %d %v, snippets %d %v", c.term, err, sn, code, got, scode, sgot)
			}
			continue
		}
		if err != nil || serr != nil || code != http.StatusOK || scode != http.StatusOK {
			t.Errorf("%q in %q: library %v, %v; HTTP %d %v, snippets %d %v", c.term, c.text, err, serr, code, got, scode, sgot)
			continue
		}
		var query []string
		for _, id := range res.Query {
			tok := res.Sentence.Tokens[id-1]
			query = append(query, c.text[tok.Start:tok.End])
		}
		var httpQuery []string
		for _, tok := range got["tokens"].([]any) {
			if m := tok.(map[string]any); m["query"] == true {
				httpQuery = append(httpQuery, c.text[int(m["start"].(float64)):int(m["end"].(float64))])
			}
		}
		var hits, httpHits []string
		for _, h := range sn[0].Hits {
			hits = append(hits, c.text[h.Start:h.End])
		}
		for _, h := range sgot["snippets"].([]any)[0].(map[string]any)["hits"].([]any) {
			m := h.(map[string]any)
			httpHits = append(httpHits, c.text[int(m["start"].(float64)):int(m["end"].(float64))])
		}
		for what, words := range map[string][]string{"Compress": query, "/v1/compress": httpQuery, "Snippets": hits, "/v1/snippets": httpHits} {
			if strings.Join(words, " ") != c.hit {
				t.Errorf("%s: %q in %q matched %q, want %q", what, c.term, c.text, words, c.hit)
			}
		}
	}
}

// TestSearchUSHasSnippets: the index's term for "U.S." is "U.S"; the snippets must still
// find the token "U.S." in every document found.
func TestSearchUSHasSnippets(t *testing.T) {
	resp, err := http.Get(serverURL(t) + "/v1/search?q=" + url.QueryEscape("U.S.") + "&budget=120&k=5")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got := decode(t, resp.Body)
	results, _ := got["results"].([]any)
	if resp.StatusCode != http.StatusOK || len(results) == 0 {
		t.Fatalf("%d: %v", resp.StatusCode, got)
	}
	if terms := got["terms"].([]any); len(terms) != 1 || terms[0] != "U.S" {
		t.Errorf("terms %v: the test expects the index's term U.S, which the token U.S. no longer spells", terms)
	}
	for _, r := range results {
		m := r.(map[string]any)
		if sn, _ := m["snippets"].([]any); len(sn) == 0 {
			t.Errorf("document %v found for U.S. has no snippet (terms %v, error %v)", m["id"], got["terms"], m["error"])
		}
	}
}
