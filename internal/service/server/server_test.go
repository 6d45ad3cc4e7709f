package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
	"github.com/qsc-nlp/qsc/internal/service/wire"
)

// testDocs is a small collection for the search tests.
var testDocs = []docfile.Doc{
	{ID: "d1", Title: "One", Text: "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries. The men were released on bail on Wednesday."},
	{ID: "d2", Title: "Two", Text: "A woman was injured by a falling tree in the Gresham neighborhood, according to the Chicago Fire Department."},
	{ID: "d3", Title: "Three", Text: "Birmingham poet Benjamin Zephaniah is today leading an interactive poetry day for ex-offenders in Birmingham & <Solihull>."},
}

var (
	indexOnce sync.Once
	testIndex *docindex.Index
	indexErr  error
)

func index(t testing.TB) *docindex.Index {
	t.Helper()
	indexOnce.Do(func() { testIndex, indexErr = docindex.FromDocs(context.Background(), servicetest.Engine(t), testDocs) })
	if indexErr != nil {
		t.Fatal(indexErr)
	}
	return testIndex
}

// newServer returns a test server over the test collection, and its log.
func newServer(t testing.TB, cfg Config) (*httptest.Server, *bytes.Buffer) {
	t.Helper()
	var log bytes.Buffer
	var mu sync.Mutex
	cfg.Engine = servicetest.Engine(t)
	if cfg.Index == nil {
		cfg.Index = index(t)
	}
	cfg.Logger = slog.New(slog.NewJSONHandler(lockedWriter{&mu, &log}, nil))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(func() { s.Close() }) // before ts.Close: cleanups run last first
	return ts, &log
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

var (
	specOnce   sync.Once
	specRouter routers.Router
	specErr    error
)

// router returns a router over the served OpenAPI description, validated.
func router(t testing.TB) routers.Router {
	t.Helper()
	specOnce.Do(func() {
		for _, ct := range []string{"text/html", "text/css", "text/javascript", "text/plain", "image/svg+xml", "application/x-ndjson"} {
			openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
		}
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(OpenAPI())
		if err != nil {
			specErr = err
			return
		}
		if err := doc.Validate(loader.Context); err != nil {
			specErr = err
			return
		}
		doc.Servers = nil // match any host: the test servers listen on random ports
		specRouter, specErr = legacy.NewRouter(doc)
	})
	if specErr != nil {
		t.Fatalf("openapi.yaml: %v", specErr)
	}
	return specRouter
}

// exchange is one request and its answer.
type exchange struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request and checks the request (when validReq) and the answer against the
// OpenAPI description.
func do(t *testing.T, ts *httptest.Server, method, path, body string, validReq bool) exchange {
	t.Helper()
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	return send(t, ts, method, path, ct, body, validReq)
}

// validate checks an exchange against the OpenAPI description: the answer always, the
// request when validReq. Paths outside the description (404s) are not checked.
func validate(t *testing.T, req *http.Request, body string, ex exchange, validReq bool) {
	t.Helper()
	if err := conforms(t, req, body, ex, validReq); err != nil {
		t.Errorf("%s %s: %v", req.Method, req.URL.Path, err)
	}
}

// conforms returns how an exchange departs from the OpenAPI description, or nil.
func conforms(t testing.TB, req *http.Request, body string, ex exchange, validReq bool) error {
	route, params, err := router(t).FindRoute(req)
	if err != nil {
		if ex.status != http.StatusNotFound && ex.status != http.StatusMethodNotAllowed {
			return fmt.Errorf("not in openapi.yaml: %v", err)
		}
		return nil
	}
	req = req.Clone(context.Background())
	req.Body = io.NopCloser(strings.NewReader(body))
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true,
			AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}} // auth_test.go checks the keys
	if validReq {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			return fmt.Errorf("the request does not follow openapi.yaml: %v", err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.status, Header: ex.header,
		Body: io.NopCloser(bytes.NewReader(ex.body)), Options: in.Options}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("answer %d %s does not follow openapi.yaml: %v", ex.status, ex.body, err)
	}
	return nil
}

// TestOpenAPIValid checks the description, and that checking answers against it catches
// an answer that departs from it.
func TestOpenAPIValid(t *testing.T) {
	router(t)
	req := httptest.NewRequest("POST", "http://127.0.0.1/v1/compress", nil)
	body := `{"id":"a","text":"Dogs bark.","query":["dogs"],"budget":20}`
	h := http.Header{"Content-Type": {"application/json"}}
	req.Header = h
	for _, c := range []struct {
		status int
		body   string
		ok     bool
	}{
		{200, `{"id":"a","kept":[1,3],"compression":"Dogs.","compression_ellipsis":"Dogs …","lang":"en","method":"ilp"}`, true},
		{200, `{"kept":[1,3],"compression":"Dogs.","compression_ellipsis":"Dogs …","lang":"en","method":"ilp"}`, true}, // no id: optional
		{200, `{"kept":[1,3],"compression":"Dogs.","compression_ellipsis":"Dogs …"}`, false},                           // no lang or method
		{200, `{"id":"a","kept":[1,3]}`, false}, // no compression
		{200, `{"id":"a","kept":[1,3],"compression":"Dogs.","compression_ellipsis":"Dogs …","extra":1}`, false}, // unknown field
		{422, `{"id":"a","error":"infeasible"}`, true},
		{422, `{"message":"infeasible"}`, false},
		{418, `{"error":"teapot"}`, false}, // a status the description does not give
	} {
		err := conforms(t, req, body, exchange{status: c.status, header: h, body: []byte(c.body)}, true)
		if (err == nil) != c.ok {
			t.Errorf("%d %s: conforms = %v, want ok %v", c.status, c.body, err, c.ok)
		}
	}
}

// TestCompressIsTheBatchRecord checks that POST /v1/compress answers exactly what the
// batch interface writes for the same record.
func TestCompressIsTheBatchRecord(t *testing.T) {
	ts, _ := newServer(t, Config{})
	for _, rec := range []string{
		`{"id":"t1","tokens":["Police","in","Syracuse","arrested","two","men","."],"query_ids":[3],"budget":30}`,
		`{"id":"t2","text":"Police in Syracuse arrested two men on Tuesday <b>&.","query":["police","Tuesday"],"budget":40,"method":"ablated"}`,
		`{"id":"t3","tokens":["Dogs","bark","."],"xpos":["NNS","VBP","."],"query_ids":[1],"budget":9,"method":"random"}`,
	} {
		res, err := wire.Compress(context.Background(), servicetest.Engine(t), []byte(rec), wire.Line(1), wire.Options{DefaultMethod: qsc.DefaultMethod})
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		jsonx.NewEncoder(&want).Encode(res)
		ex := do(t, ts, "POST", "/v1/compress", rec, true)
		if ex.status != http.StatusOK || !bytes.Equal(ex.body, want.Bytes()) {
			t.Errorf("%s: %d %s, want 200 %s", rec, ex.status, ex.body, want.Bytes())
		}
		if ct := ex.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
	}
}

func TestCompressTokens(t *testing.T) {
	ts, _ := newServer(t, Config{})
	text := "Police in Syracuse arrested two men."
	ex := do(t, ts, "POST", "/v1/compress?tokens=true", `{"id":"x","text":"`+text+`","query":["Syracuse"],"budget":25}`, true)
	var res wire.Result
	if err := json.Unmarshal(ex.body, &res); err != nil || ex.status != 200 {
		t.Fatalf("%d %s %v", ex.status, ex.body, err)
	}
	if len(res.Tokens) != 7 {
		t.Fatalf("tokens: %+v", res.Tokens)
	}
	kept := 0
	for i, tok := range res.Tokens {
		if tok.Start == nil || tok.End == nil || text[*tok.Start:*tok.End] != tok.Form {
			t.Errorf("token %d %+v: offsets do not give the form", i+1, tok)
		}
		if tok.Kept {
			kept++
		}
		if tok.Query != (tok.Form == "Syracuse") || (tok.Query && !tok.Kept) {
			t.Errorf("token %d %+v: query flag", i+1, tok)
		}
	}
	if kept != len(res.Kept) {
		t.Errorf("%d tokens marked kept, %d kept ids", kept, len(res.Kept))
	}
	ex = do(t, ts, "POST", "/v1/compress?tokens=1", `{"id":"y","tokens":["Dogs","bark"],"query_ids":[1],"budget":9}`, true)
	if ex.status != 200 || bytes.Contains(ex.body, []byte(`"start"`)) {
		t.Errorf("given tokens have no offsets: %s", ex.body)
	}
}

// TestClientErrors checks that every fault of the client gets its 4xx status and a JSON
// error naming the problem, as openapi.yaml describes.
func TestClientErrors(t *testing.T) {
	ts, log := newServer(t, Config{MaxBodyBytes: 4096})
	good := `{"id":"a","text":"Dogs bark at night.","query":["dogs"],"budget":20}`
	for _, c := range []struct {
		method, path, body string
		status             int
		msg                string
	}{
		{"POST", "/v1/compress", `{"id":"a","text":`, 400, "unexpected EOF"},
		{"POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["dogs"],"budget":"20"}`, 400, `field "budget" must be an integer, not string`},
		{"POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":"dogs","budget":20}`, 400, `field "query" must be a list of strings`},
		{"POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","querry":["dogs"],"budget":20}`, 400, `unknown field "querry"`},
		{"POST", "/v1/compress", `{"text":"Dogs bark.","query":["cats"],"budget":20}`, 422, `"cats" is not in the sentence`}, // the id is optional
		{"POST", "/v1/compress", good + ` {"id":"b"}`, 400, "more than one JSON value in the body"},
		{"POST", "/v1/compress", `[1,2]`, 400, "must be a JSON object"},
		{"POST", "/v1/compress", ``, 400, "the body is empty"},
		{"POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["dogs"],"budget":20,"method":"nope"}`, 400, `unknown method "nope"`},
		{"POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["dogs"],"budget":0}`, 400, "budget must be a positive"},
		{"POST", "/v1/compress", `{"id":"a","text":"Dogs bark loudly.","query":["dogs","loudly"],"budget":5}`, 422, "longer than the budget"},
		{"POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["cats"],"budget":20}`, 422, `"cats" is not in the sentence`},
		{"POST", "/v1/compress", `{"id":"a","text":"` + strings.Repeat("a ", 3000) + `","query":["a"],"budget":20}`, 413, "larger than 4096 bytes"},
		{"POST", "/v1/compress?tokens=maybe", good, 400, "parameter tokens must be true or false"},
		{"GET", "/v1/compress", "", 405, "use POST"},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20,"n":"2"}`, 400, `field "n" must be an integer`},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20,"extra":1}`, 400, `unknown field "extra"`},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20,"format":"pdf"}`, 400, `"format": "pdf" is not one of text, markdown, html`},
		{"POST", "/v1/snippets", `{"document":"<p>Dogs bark.</p>","query":["dogs"],"budget":20,"format":"html","annotation":"AAAA"}`, 400, `with format "html"`},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20,"format":"markdown","annotation":"AAAA"}`, 400, `with format "markdown"`},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":[],"budget":20}`, 400, "query term"},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":-1}`, 400, "budget"},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20,"method":"nope"}`, 400, `unknown method "nope"`},
		{"POST", "/v1/snippets", `{"document":"Big dogs bark.","query":["big dogs"],"budget":3}`, 422, "longer than the budget"},
		{"DELETE", "/v1/snippets", "", 405, "use POST"},
		{"GET", "/v1/search", "", 400, "parameter q"},
		{"GET", "/v1/search?q=dogs&budget=0", "", 400, "parameter budget must be an integer from 1 to 1000"},
		{"GET", "/v1/search?q=dogs&budget=x", "", 400, "parameter budget"},
		{"GET", "/v1/search?q=dogs&k=51", "", 400, "parameter k"},
		{"GET", "/v1/search?q=police&method=nope", "", 400, `unknown method "nope"`},
		{"GET", "/v1/search?q=zzzz&method=nope", "", 400, `unknown method "nope"`},
		{"GET", "/v1/search?q=" + strings.Repeat("a", 501), "", 400, "more than the maximum of 500"},
		{"GET", "/v1/search?q=" + strings.Repeat("ח", 500), "", 200, ""}, // characters, not bytes
		{"GET", "/v1/search?q=police&limit=3", "", 400, `unknown parameter "limit" (the parameters are q, budget,`},
		{"GET", "/v1/search?q=police&_=1764475200", "", 200, ""}, // a cache buster
		{"POST", "/v1/search?q=dogs", "", 405, "use GET"},
		{"POST", "/healthz", "", 405, "use GET"},
		{"GET", "/nope", "", 404, "no such path: /nope"},
		{"GET", "/static/nope.js", "", 404, "no such file"},
		{"GET", "/static/", "", 404, "no such file"},
	} {
		ex := do(t, ts, c.method, c.path, c.body, false)
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(ex.body, &e); err != nil {
			t.Errorf("%s %s %.60s: body %q is not a JSON error: %v", c.method, c.path, c.body, ex.body, err)
			continue
		}
		if ex.status != c.status || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s %s %.60s: %d %q, want %d and an error containing %q", c.method, c.path, c.body, ex.status, e.Error, c.status, c.msg)
		}
		if ct := ex.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", c.method, c.path, ct)
		}
		if c.status == 405 && ex.header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", c.method, c.path)
		}
	}
	// An error of POST /v1/compress names the request, as the batch interface does.
	ex := do(t, ts, "POST", "/v1/compress", `{"id":"z9","text":"Dogs bark.","query":["cats"],"budget":20}`, true)
	if !bytes.HasPrefix(ex.body, []byte(`{"id":"z9","error":`)) {
		t.Errorf("error without the id: %s", ex.body)
	}
	if strings.Contains(log.String(), `"status":500`) {
		t.Errorf("a client error was logged as 500:\n%s", log)
	}
}

// TestNonCanonicalPaths: a path with an empty, "." or ".." segment gets the JSON 404 of
// an unknown path, for every method, not the mux's redirect (an HTML body, and maybe
// another resource); canonical paths, the search page's among them, are served.
func TestNonCanonicalPaths(t *testing.T) {
	ts, _ := newServer(t, Config{})
	h := ts.Config.Handler
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/../healthz"}, {"GET", "//healthz"}, {"GET", "/./"}, {"GET", "//"},
		{"POST", "/v1//compress"}, {"POST", "/v1/./compress"}, {"GET", "/v1/search/..?q=dogs"},
		{"GET", "/doc/d1/../d2"}, {"DELETE", "/v1/documents/a/../d1"}, {"GET", "/static/../index.html"},
		{"HEAD", "/v1/documents//d1"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		var e struct {
			Error string `json:"error"`
		}
		err := json.Unmarshal(rec.Body.Bytes(), &e)
		if c.method == "HEAD" {
			err = nil // no body
		}
		if rec.Code != 404 || err != nil || (c.method != "HEAD" && !strings.Contains(e.Error, "no such path")) ||
			rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Location") != "" {
			t.Errorf("%s %s: %d, Content-Type %q, Location %q, body %q; want a JSON 404", c.method, c.path,
				rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Location"), rec.Body)
		}
	}
	for _, c := range []struct {
		path, ct string
		status   int
	}{
		{"/", "text/html", 200}, {"/healthz", "application/json", 200}, {"/v1/documents/d1", "application/json", 200},
		{"/doc/d1", "text/html", 200}, {"/v1/documents/%2E%2E", "application/json", 404},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != c.status || !strings.HasPrefix(rec.Header().Get("Content-Type"), c.ct) || strings.Contains(rec.Body.String(), "no such path") {
			t.Errorf("GET %s: %d %q %.80q; want %d %s", c.path, rec.Code, rec.Header().Get("Content-Type"), rec.Body, c.status, c.ct)
		}
	}
}

func TestSnippets(t *testing.T) {
	ts, _ := newServer(t, Config{})
	doc := testDocs[0].Text
	body, _ := json.Marshal(qsc.SnippetRequest{Document: doc, Query: []string{"men", "arrest"}, Budget: 40, N: 2})
	ex := do(t, ts, "POST", "/v1/snippets", string(body), true)
	if ex.status != 200 {
		t.Fatalf("%d %s", ex.status, ex.body)
	}
	var resp struct{ Snippets []Snippet }
	if err := json.Unmarshal(ex.body, &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Snippets) != 2 {
		t.Fatalf("%d snippets: %s", len(resp.Snippets), ex.body)
	}
	first := resp.Snippets[0]
	if !strings.Contains(first.HTML, "<mark>arrested</mark>") || !strings.Contains(first.HTML, "<mark>men</mark>") {
		t.Errorf("first snippet's HTML %q lacks the marked terms", first.HTML)
	}
	if len([]rune(first.Text)) > 40 || first.Plain == "" || !strings.Contains(first.Ellipsis, "…") {
		t.Errorf("first snippet: %+v", first)
	}
	// No sentence with a query term: an empty list.
	ex = do(t, ts, "POST", "/v1/snippets", `{"document":"Dogs bark.","query":["cats"],"budget":20}`, true)
	if ex.status != 200 || string(ex.body) != "{\"snippets\":[]}\n" {
		t.Errorf("no match: %d %s", ex.status, ex.body)
	}
}

func TestSearch(t *testing.T) {
	ts, _ := newServer(t, Config{})
	ex := do(t, ts, "GET", "/v1/search?q=the+Birmingham+poets&budget=60", "", true)
	if ex.status != 200 {
		t.Fatalf("%d %s", ex.status, ex.body)
	}
	var resp searchResponse
	if err := json.Unmarshal(ex.body, &resp); err != nil {
		t.Fatal(err)
	}
	if strings.Join(resp.Terms, ",") != "Birmingham,poets" || resp.Total != 1 || len(resp.Results) != 1 || resp.Results[0].ID != "d3" {
		t.Fatalf("search: %s", ex.body)
	}
	sn := resp.Results[0].Snippets
	if len(sn) != 1 || !strings.Contains(sn[0].HTML, "<mark>Birmingham poet</mark>") {
		t.Errorf("snippets: %+v", sn)
	}
	// The document's "&" and "<" are escaped; the only markup is <mark>.
	if html := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(sn[0].HTMLEllipsis); strings.ContainsAny(html, "<>") {
		t.Errorf("HTML not escaped: %q", sn[0].HTMLEllipsis)
	}
	if resp.TookMS < resp.SearchMS || resp.TookMS <= 0 {
		t.Errorf("times: %+v", resp)
	}
	// Only stop words: their phrase, which no document holds here; no error.
	ex = do(t, ts, "GET", "/v1/search?q=the+of", "", true)
	if ex.status != 200 || !bytes.Contains(ex.body, []byte(`"terms":["the of"],"budget":100,"budget_counts":"display","total":0,"from":0,"k":10,"results":[]`)) {
		t.Errorf("stop words: %d %s", ex.status, ex.body)
	}
	// Marks alone: no terms, no results, no error.
	ex = do(t, ts, "GET", "/v1/search?q=%2C+%3B", "", true)
	if ex.status != 200 || !bytes.Contains(ex.body, []byte(`"terms":[],"budget":100,"budget_counts":"display","total":0,"from":0,"k":10,"results":[]`)) {
		t.Errorf("marks alone: %d %s", ex.status, ex.body)
	}
	// A document found by its title alone shows its beginning, the lead.
	ex = do(t, ts, "GET", "/v1/search?q=three&budget=40", "", true)
	if err := json.Unmarshal(ex.body, &resp); err != nil || len(resp.Results) != 1 || len(resp.Results[0].Snippets) != 1 ||
		resp.Results[0].Snippets[0].Method != qsc.MethodLead || !strings.HasPrefix(resp.Results[0].Snippets[0].Text, "Birmingham poet") {
		t.Errorf("title alone: %d %s", ex.status, ex.body)
	}
	// A budget below a matching sentence's query: the document says why it has no snippet.
	ex = do(t, ts, "GET", "/v1/search?q=Gresham+neighborhood&budget=5", "", true)
	if ex.status != 200 || !bytes.Contains(ex.body, []byte(`"snippets":[],"error":"infeasible`)) {
		t.Errorf("infeasible: %d %s", ex.status, ex.body)
	}
	// No index: search is off.
	s, err := New(Config{Engine: servicetest.Engine(t)})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/v1/search?q=dogs", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("search without an index: %d %s", rec.Code, rec.Body)
	}
}

func TestHealthzAndSpec(t *testing.T) {
	ts, _ := newServer(t, Config{})
	ex := do(t, ts, "GET", "/healthz", "", true)
	if ex.status != 200 || !bytes.Contains(ex.body, []byte(`"status":"ok","documents":3`)) {
		t.Errorf("healthz: %d %s", ex.status, ex.body)
	}
	ex = do(t, ts, "GET", "/openapi.yaml", "", true)
	if ex.status != 200 || !bytes.Equal(ex.body, OpenAPI()) || ex.header.Get("Content-Type") != "application/yaml" {
		t.Errorf("openapi.yaml: %d %q", ex.status, ex.header.Get("Content-Type"))
	}
}

func TestPage(t *testing.T) {
	ts, _ := newServer(t, Config{})
	ex := do(t, ts, "GET", "/", "", true)
	page := string(ex.body)
	if ex.status != 200 || !strings.HasPrefix(ex.header.Get("Content-Type"), "text/html") {
		t.Fatalf("page: %d %q", ex.status, ex.header.Get("Content-Type"))
	}
	for _, want := range []string{`<label for="q">`, `<label for="budget">`, `<label for="ellipsis">`, `role="status"`, `src="/static/app.js"`, `href="/static/style.css"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// Nothing loaded from elsewhere: every src and stylesheet is local, and the policy
	// forbids other origins.
	for _, attr := range []string{`src="http`, `src="//`, `rel="stylesheet" href="http`} {
		if strings.Contains(page, attr) {
			t.Errorf("page loads an external resource: %s", attr)
		}
	}
	if csp := ex.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	for path, ctype := range map[string]string{"/static/app.js": "text/javascript", "/static/style.css": "text/css"} {
		ex := do(t, ts, "GET", path, "", true)
		if ex.status != 200 || !strings.HasPrefix(ex.header.Get("Content-Type"), ctype) || len(ex.body) == 0 {
			t.Errorf("%s: %d %q", path, ex.status, ex.header.Get("Content-Type"))
		}
	}
}

// TestPageCollection checks that the page's footer tells the collection the server
// searches, and credits the demo's source only for the demo, whose words only its search
// box's example names.
func TestPageCollection(t *testing.T) {
	for _, c := range []struct {
		kind     Collection
		want     string
		demoNote bool
	}{
		{CollectionDemo, "Demo collection: the web documents", true},
		{CollectionOwn, "This server searches its own documents.", false},
		{CollectionNone, "Search is off: this server has no collection.", false},
	} {
		ts, _ := newServer(t, Config{Collection: c.kind})
		ex := do(t, ts, "GET", "/", "", true)
		page := string(ex.body)
		if ex.status != 200 || !strings.Contains(page, c.want) {
			t.Errorf("collection %d: %d, footer lacks %q", c.kind, ex.status, c.want)
		}
		if got := strings.Contains(page, "UD_English-EWT"); got != c.demoNote {
			t.Errorf("collection %d: credits UD_English-EWT: %v", c.kind, got)
		}
		if strings.Contains(page, "<!--collection-->") || strings.Contains(page, "<!--placeholder-->") {
			t.Errorf("collection %d: a placeholder is left in the page", c.kind)
		}
		// The search box's example names the demo's words only over the demo.
		if got := strings.Contains(page, "Baghdad"); got != c.demoNote {
			t.Errorf("collection %d: the search box's example names the demo's words: %v", c.kind, got)
		}
	}
}

// TestRequestLog checks the one log line per request, and that a probe that succeeds is
// logged at debug, below the logger's level (info).
func TestRequestLog(t *testing.T) {
	ts, log := newServer(t, Config{})
	do(t, ts, "GET", "/healthz", "", true)
	do(t, ts, "GET", "/metrics", "", true)
	do(t, ts, "POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["cats"],"budget":20}`, true)
	do(t, ts, "POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["cats"],"budget":20}`, true)
	// A line is written once its handler returns, which may be after the client has the
	// answer: wait for the second.
	for deadline := time.Now().Add(5 * time.Second); strings.Count(log.String(), "\n") < 2 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d log lines for 2 requests and 2 probes (logged at debug):\n%s", len(lines), log)
	}
	for _, c := range []struct {
		path   string
		status int
		want   slog.Level
	}{
		{"/healthz", 200, slog.LevelDebug}, {"/readyz", 200, slog.LevelDebug}, {"/livez", 200, slog.LevelDebug},
		{"/metrics", 200, slog.LevelDebug}, {"/readyz", 503, slog.LevelInfo}, {"/metrics", 401, slog.LevelInfo},
		{"/v1/search", 200, slog.LevelInfo}, {"/", 200, slog.LevelInfo},
	} {
		if got := requestLevel(c.path, c.status); got != c.want {
			t.Errorf("requestLevel(%s, %d) = %v, want %v", c.path, c.status, got, c.want)
		}
	}
	var rec struct {
		Msg, Method, Path, Error string
		Status                   int
		Duration                 int64
		Bytes                    int64
	}
	if err := json.Unmarshal([]byte(lines[1]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Msg != "request" || rec.Method != "POST" || rec.Path != "/v1/compress" || rec.Status != 422 ||
		rec.Duration <= 0 || rec.Bytes == 0 || !strings.Contains(rec.Error, "cats") {
		t.Errorf("log line %s", lines[1])
	}
}

// TestPanicRecovered checks that a panicking handler gets a logged 500 JSON answer and
// the server goes on.
func TestPanicRecovered(t *testing.T) {
	var log bytes.Buffer
	s, err := New(Config{Engine: servicetest.Engine(t), Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h := s.logRequests(s.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != 500 || strings.TrimSpace(rec.Body.String()) != `{"error":"internal error"}` {
		t.Errorf("panic: %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(log.String(), `"msg":"panic"`) || !strings.Contains(log.String(), `"panic":"boom"`) || !strings.Contains(log.String(), `"status":500`) {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestDeadline checks that a request out of time gets 503.
func TestDeadline(t *testing.T) {
	ts, _ := newServer(t, Config{RequestTimeout: time.Nanosecond})
	ex := do(t, ts, "POST", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["dogs"],"budget":20}`, true)
	if ex.status != http.StatusServiceUnavailable || !bytes.Contains(ex.body, []byte("took longer than 1ns")) {
		t.Errorf("%d %s", ex.status, ex.body)
	}
	ex = do(t, ts, "POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20}`, true)
	if ex.status != http.StatusServiceUnavailable {
		t.Errorf("%d %s", ex.status, ex.body)
	}
}

// TestServeShutdown checks that Serve answers until its context is done, then returns
// nil.
func TestServeShutdown(t *testing.T) {
	s, err := New(Config{Engine: servicetest.Engine(t)})
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := serveReal(t, s)
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthz %d", resp.StatusCode)
	}
	if err := stop(); err != nil {
		t.Fatalf("Serve after shutdown: %v", err)
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

func TestNewWithoutEngine(t *testing.T) {
	if _, err := New(Config{}); err == nil {
		t.Error("New without an engine succeeded")
	}
}

// TestNoRedirects: the server never redirects. Around every route of the table (its path
// without a trailing "/", with one, and the bare prefix of a subtree such as /static/ or
// /doc/{id...}) and at a few other paths, every method gets an answer of its own, never
// net/http.ServeMux's 307 to the path with a "/"; a bare prefix is an unknown path: the
// JSON 404 of the catch-all, counted in the metrics as route "other".
func TestNoRedirects(t *testing.T) {
	s, err := New(Config{Engine: servicetest.Engine(t), Index: index(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fill := strings.NewReplacer("{id...}", "x", "{id}", "x", "{$}", "")
	paths := map[string]bool{"/v1": true, "/v1/": true, "/static": true, "/doc": true}
	bare := map[string]bool{"/v1": true, "/v1/": true, "/static": true, "/doc": true}
	served := map[string]bool{}
	for pattern := range s.routes {
		_, p, _ := strings.Cut(pattern, " ")
		served[p] = true
	}
	for pattern := range s.routes {
		_, p, _ := strings.Cut(pattern, " ")
		full := fill.Replace(p)
		paths[full] = true
		paths[strings.TrimSuffix(full, "/")+"/"] = true
		if trimmed := strings.TrimSuffix(full, "/"); trimmed != "" {
			paths[trimmed] = true
		}
		if i := strings.LastIndex(p, "/"); strings.HasSuffix(p, "...}") || i == len(p)-1 {
			if prefix := strings.TrimSuffix(p[:i+1], "/"); prefix != "" && !served[prefix] {
				bare[prefix] = true
			}
		}
	}
	for p := range paths {
		for _, m := range []string{"GET", "HEAD", "POST", "PUT", "DELETE"} {
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, httptest.NewRequest(m, p, nil))
			if rec.Code/100 == 3 || rec.Header().Get("Location") != "" && rec.Code != 201 && rec.Code != 202 {
				t.Errorf("%s %s: %d, Location %q; want no redirect", m, p, rec.Code, rec.Header().Get("Location"))
			}
			page := rec.Code == 404 && (m == "GET" || m == "HEAD") && strings.HasPrefix(p, "/doc/") // a reader's page: HTML
			if page && !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
				t.Errorf("%s %s: %d with Content-Type %q; want the HTML page of a missing document", m, p, rec.Code, rec.Header().Get("Content-Type"))
			}
			if rec.Code >= 400 && !page && rec.Header().Get("Content-Type") != "application/json" {
				t.Errorf("%s %s: %d with Content-Type %q; want a JSON error", m, p, rec.Code, rec.Header().Get("Content-Type"))
			}
			if !bare[p] {
				continue
			}
			if rec.Code != 404 || m != "HEAD" && !strings.Contains(rec.Body.String(), "no such path: "+p) {
				t.Errorf("%s %s: %d %q; want the 404 of an unknown path", m, p, rec.Code, rec.Body)
			}
			if got := routeOf(s.mux, httptest.NewRequest(m, p, nil)); got != "other" {
				t.Errorf("%s %s: route label %q, want other", m, p, got)
			}
		}
	}
	if !bare["/static"] || !bare["/doc"] {
		t.Errorf("bare prefixes %v lack /static or /doc", bare)
	}
	// The directory of the static files is no file, nor are the pages' HTML shells
	// (FileServer would redirect index.html to the directory); each 404 names its path.
	for _, p := range []string{"/static/", "/static/index.html", "/static/locked.html"} {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != 404 || !strings.Contains(rec.Body.String(), "no such file: "+p) {
			t.Errorf("GET %s: %d %q; want a 404 naming %s", p, rec.Code, rec.Body, p)
		}
	}
	for _, p := range []string{"/static/app.js", "/static/key.js", "/static/style.css"} {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != 200 {
			t.Errorf("GET %s: %d; want the file", p, rec.Code)
		}
	}
}

// formattedSnippets is what TestSnippetsMarkdown and TestSnippetsHTML read of an answer
// of POST /v1/snippets.
type formattedSnippets struct {
	Snippets []struct {
		Ellipsis string `json:"ellipsis"`
		Sentence struct{ Start, End int }
	} `json:"snippets"`
	Document string `json:"document"`
}

// postFormatted posts the request body to the server at base's /v1/snippets and returns
// its answer, which must be a 200 with snippets.
func postFormatted(t *testing.T, base string, body []byte) formattedSnippets {
	t.Helper()
	resp, err := http.Post(base+"/v1/snippets", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got formattedSnippets
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != http.StatusOK || len(got.Snippets) == 0 {
		t.Fatalf("%d %+v %v", resp.StatusCode, got, err)
	}
	return got
}

// TestSnippetsMarkdown: a document sent as Markdown is read as its rendering reads: no
// snippet shows its markup, and the answer gives the text that the offsets refer to.
func TestSnippetsMarkdown(t *testing.T) {
	ts, _ := newServer(t, Config{})
	body := `{"document":"---\ntitle: Webhooks\n---\n## Retries\n\nEvery request carries a ` + "`Tidewater-Signature`" +
		` header.\n\n| code | meaning |\n|---|---|\n| 410 | the header is gone |","query":["header"],"budget":60,"format":"markdown"}`
	got := postFormatted(t, ts.URL, []byte(body))
	for _, sn := range got.Snippets {
		if strings.ContainsAny(sn.Ellipsis, "#`|") || got.Document[sn.Sentence.Start:sn.Sentence.End] == "" {
			t.Errorf("snippet %q of %q", sn.Ellipsis, got.Document)
		}
	}
	if got.Snippets[0].Ellipsis != "Every request carries a Tidewater-Signature header." || strings.Contains(got.Document, "title:") {
		t.Errorf("snippets %+v of %q", got.Snippets, got.Document)
	}
}

// TestSnippetsHTML: a document sent as HTML is read as a browser shows it: no snippet
// shows a tag, an entity, a script or the page's menu, and the answer gives the text that
// the offsets refer to.
func TestSnippetsHTML(t *testing.T) {
	ts, _ := newServer(t, Config{})
	page := `<!DOCTYPE html><html><head><title>Webhooks</title><script>var header = "x";</script></head><body>` +
		`<nav><a href="/">Home</a> <a href="/header">Header settings</a></nav><main><h1>Retries</h1>` +
		`<p>Every request carries a <code>Tidewater-Signature</code>&nbsp;header.</p>` +
		`<table><tr><th>code</th><th>meaning</th></tr><tr><td>410</td><td>the header is gone</td></tr></table></main>` +
		`<footer>Header image &copy; Tidewater</footer></body></html>`
	body, _ := json.Marshal(map[string]any{"document": page, "query": []string{"header"}, "budget": 60, "format": "html"})
	got := postFormatted(t, ts.URL, body)
	if want := "Retries\n\nEvery request carries a Tidewater-Signature header.\n\ncode: 410 · meaning: the header is gone"; got.Document != want {
		t.Errorf("document %q, want %q", got.Document, want)
	}
	for _, sn := range got.Snippets {
		if strings.ContainsAny(sn.Ellipsis, "<>&") || strings.Contains(sn.Ellipsis, "settings") || strings.Contains(sn.Ellipsis, "image") ||
			got.Document[sn.Sentence.Start:sn.Sentence.End] == "" {
			t.Errorf("snippet %q of %q", sn.Ellipsis, got.Document)
		}
	}
	if got.Snippets[0].Ellipsis != "Every request carries a Tidewater-Signature header." {
		t.Errorf("snippets %+v of %q", got.Snippets, got.Document)
	}
}

// TestSearchTitleHTML: a result's title_html escapes the title and marks the query's
// words, so that the page may set it as HTML.
func TestSearchTitleHTML(t *testing.T) {
	_, ts, _ := keyServer(t, Config{Keys: []Key{}})
	req, _ := http.NewRequest(http.MethodPut, ts.URL+"/v1/documents/x", strings.NewReader(
		`{"title":"<img src=x onerror=alert(1)> Zebras & police","text":"The zebras ran past the police station."}`))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode/100 != 2 {
		t.Fatalf("PUT: %v %v", resp, err)
	}
	resp, err := http.Get(ts.URL + "/v1/search?q=zebras")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Results []struct {
			TitleHTML string `json:"title_html"`
		} `json:"results"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || len(got.Results) != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	if want := "&lt;img src=x onerror=alert(1)&gt; <mark>Zebras</mark> &amp; police"; got.Results[0].TitleHTML != want {
		t.Errorf("title_html %q, want %q", got.Results[0].TitleHTML, want)
	}
}
