package surfaces

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/service/demo"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/server"
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
		idx, err := docindex.FromDocs(context.Background(), eng, docs)
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

// TestCompressReadable: POST /v1/compress answers with the compression cut from the text
// in its own spelling and its ellipsis rendering, without an "id" when the request has
// none, and with a display budget both fit.
func TestCompressReadable(t *testing.T) {
	text := `The city's deficit grew 3.7% to $89.5 billion, said Sen. John Cornyn (R-Texas), calling it "quoted" nonsense.`
	body, _ := json.Marshal(map[string]any{"text": text, "query": []string{"deficit"}, "budget": 500})
	code, got := post(t, "/v1/compress", string(body))
	if _, hasID := got["id"]; code != http.StatusOK || hasID || got["compression"] != text || got["compression_ellipsis"] != text {
		t.Errorf("whole sentence, no id: %d %v", code, got)
	}
	toks := strings.Fields(`The city 's deficit grew 3.7 % to $ 89.5 billion , said Sen. John Cornyn ( R-Texas ) , calling it " quoted " nonsense .`)
	body, _ = json.Marshal(map[string]any{"id": "t", "tokens": toks, "query": []string{"deficit"}, "budget": 500})
	if code, got = post(t, "/v1/compress", string(body)); code != http.StatusOK || got["id"] != "t" || got["compression"] != text {
		t.Errorf("tokens detokenized: %d %v", code, got)
	}
	for _, b := range []int{20, 30, 45, 60, 80} {
		body, _ = json.Marshal(map[string]any{"id": "d", "text": text, "query": []string{"deficit", "Cornyn"}, "budget": b, "budget_counts": "display"})
		code, got = post(t, "/v1/compress", string(body))
		if code == http.StatusUnprocessableEntity {
			continue
		}
		c, e := got["compression"].(string), got["compression_ellipsis"].(string)
		if code != http.StatusOK || utf8.RuneCountInString(c) > b || utf8.RuneCountInString(e) > b || !strings.Contains(e, "…") {
			t.Errorf("b=%d display: %d %q %q", b, code, c, e)
		}
		for _, bad := range []string{"$ 89", "city 's", "3.7 %", "( R", " ."} {
			if strings.Contains(c, bad) {
				t.Errorf("b=%d: %q has the joined tokens %q", b, c, bad)
			}
		}
	}
	if code, got = post(t, "/v1/compress", `{"text":"Dogs bark.","query":["dogs"],"budget":20,"budget_counts":"bytes"}`); code != http.StatusBadRequest ||
		!strings.Contains(got["error"].(string), "budget_counts") {
		t.Errorf("bad budget_counts: %d %v", code, got)
	}
}

// TestDisplayBudget: with the default display budget, every snippet of the search page's
// API and of POST /v1/snippets displays at most budget characters, as text and with its
// "…" marks. Before, 428 of 616 snippets at b = 30 displayed more.
func TestDisplayBudget(t *testing.T) {
	checked, over := 0, 0
	check := func(where string, b int, sn map[string]any) {
		checked++
		for _, f := range []string{"text", "plain", "ellipsis"} {
			if s := sn[f].(string); utf8.RuneCountInString(s) > b {
				over++
				t.Errorf("%s b=%d: %s %q is %d characters", where, b, f, s, utf8.RuneCountInString(s))
			}
		}
	}
	for _, q := range []string{"police", "government minister", "court", "fire", "world cup", "president", "company shares", "U.S.", "school children"} {
		for _, b := range []int{20, 30, 50, 80} {
			resp, err := http.Get(serverURL(t) + "/v1/search?k=50&n=3&q=" + url.QueryEscape(q) + "&budget=" + strconv.Itoa(b))
			if err != nil {
				t.Fatal(err)
			}
			got := decode(t, resp.Body)
			resp.Body.Close()
			for _, r := range got["results"].([]any) {
				for _, sn := range r.(map[string]any)["snippets"].([]any) {
					check("search "+q, b, sn.(map[string]any))
				}
			}
		}
	}
	doc, err := os.ReadFile("../../../testdata/news.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []int{15, 25, 40} {
		body, _ := json.Marshal(map[string]any{"document": string(doc), "query": []string{"police", "arrest", "court"}, "budget": b, "n": 10})
		if code, got := post(t, "/v1/snippets", string(body)); code == http.StatusOK {
			for _, sn := range got["snippets"].([]any) {
				check("snippets", b, sn.(map[string]any))
			}
		}
	}
	t.Logf("%d snippets checked, %d over the budget", checked, over)
	if checked < 500 {
		t.Errorf("only %d snippets checked", checked)
	}
}
