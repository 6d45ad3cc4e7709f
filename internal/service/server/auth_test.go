package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// The test keys: one of each scope.
const (
	adminText   = "admin-key-0123456789abcdef"
	searchText  = "search-key-0123456789abcdef"
	metricsText = "metrics-key-0123456789abcdef"
)

func testKeys(t testing.TB) []Key {
	t.Helper()
	var keys []Key
	for _, k := range []struct {
		name  string
		scope Scope
		text  string
	}{{"ops", ScopeAdmin, adminText}, {"newsroom", ScopeSearch, searchText}, {"prometheus", ScopeMetrics, metricsText}} {
		key, err := NewKey(k.name, k.scope, k.text)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key)
	}
	return keys
}

// keyOf returns the text of the test key of scope.
func keyOf(scope Scope) string {
	switch scope {
	case ScopeAdmin:
		return adminText
	case ScopeSearch:
		return searchText
	case ScopeMetrics:
		return metricsText
	}
	return ""
}

// wrongKey returns a test key whose scope does not reach a route of scope.
func wrongKey(scope Scope) string {
	if scope == ScopeSearch {
		return metricsText
	}
	return searchText
}

// keyServer returns a server with the test keys (unless cfg.Keys is not nil) over a
// fresh copy of the test collection in an index on disk (so that the document API writes
// to it: a collection in memory answers its writes 409), its handler served by a test
// server, and its log.
func keyServer(t *testing.T, cfg Config) (*Server, *httptest.Server, *bytes.Buffer) {
	t.Helper()
	idx, err := docindex.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	if _, err := idx.Add(context.Background(), "test", testDocs, docindex.IngestOptions{Engine: servicetest.Engine(t)}); err != nil || idx.Len() != len(testDocs) {
		t.Fatalf("the test collection on disk: %d documents, %v", idx.Len(), err)
	}
	var log bytes.Buffer
	var mu sync.Mutex
	cfg.Engine, cfg.Index = servicetest.Engine(t), idx
	cfg.Logger = slog.New(slog.NewJSONHandler(lockedWriter{&mu, &log}, nil))
	if cfg.Keys == nil {
		cfg.Keys = testKeys(t)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // before the index closes
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts, &log
}

// operation is one operation of openapi.yaml, with a request that it should serve.
type operation struct {
	method, path string // as openapi.yaml has them
	scope        Scope  // its x-qsc-scope
	target       string // a concrete path and query
	body         string
	documented   map[int]bool // the statuses openapi.yaml gives the operation
}

// operations returns every operation of openapi.yaml, each with a request made from the
// examples of the description: a path parameter takes its example, else the first of
// its enum, else "d1" (a document of the test collection); a required query parameter
// its example; the body the example of its JSON content. GET and HEAD come first and
// DELETE last, so that an operation that removes a document runs after those that read
// it.
func operations(t *testing.T) []operation {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	var ops []operation
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			o := operation{method: method, path: path, documented: map[int]bool{}}
			for code := range op.Responses.Map() {
				if n, err := strconv.Atoi(code); err == nil {
					o.documented[n] = true
				}
			}
			name, _ := op.Extensions["x-qsc-scope"].(string)
			switch name {
			case "open":
				o.scope = ScopeOpen
			case "":
				t.Errorf("%s %s: no x-qsc-scope in openapi.yaml (open, search, metrics or admin)", method, path)
				continue
			default:
				if o.scope, err = ParseScope(name); err != nil {
					t.Errorf("%s %s: x-qsc-scope: %v", method, path, err)
					continue
				}
			}
			target := path
			query := []string{}
			for _, pr := range op.Parameters {
				p := pr.Value
				var v any = p.Example
				if v == nil && p.Schema != nil && len(p.Schema.Value.Enum) > 0 {
					v = p.Schema.Value.Enum[0]
				}
				switch {
				case p.In == "path":
					if v == nil {
						v = "d1"
					}
					target = strings.ReplaceAll(target, "{"+p.Name+"}", fmt.Sprint(v))
				case p.In == "query" && p.Required:
					if v == nil {
						t.Errorf("%s %s: give the required parameter %s an example in openapi.yaml, for the auth test", method, path, p.Name)
						continue
					}
					query = append(query, p.Name+"="+strings.ReplaceAll(fmt.Sprint(v), " ", "+"))
				}
			}
			if len(query) > 0 {
				target += "?" + strings.Join(query, "&")
			}
			o.target = target
			if rb := op.RequestBody; rb != nil {
				mt := rb.Value.Content.Get("application/json")
				if mt == nil || mt.Example == nil {
					t.Errorf("%s %s: give the JSON request body an example in openapi.yaml, for the auth test", method, path)
					continue
				}
				b, err := json.Marshal(mt.Example)
				if err != nil {
					t.Fatal(err)
				}
				o.body = string(b)
			}
			ops = append(ops, o)
		}
	}
	order := map[string]int{"GET": 0, "HEAD": 1, "POST": 2, "PUT": 3, "PATCH": 4, "DELETE": 5}
	slices.SortStableFunc(ops, func(a, b operation) int { return order[a.method] - order[b.method] })
	return ops
}

// liveOperations returns operations(t) for the test server ts (keyServer): GET
// /v1/tasks/{id} asks for a task that it first runs there, a batch of one document
// ("tasked") posted with ?async=true and the key text, as no example in openapi.yaml can
// name a task.
func liveOperations(t *testing.T, ts *httptest.Server, key string) []operation {
	t.Helper()
	post := operation{method: "POST", target: "/v1/documents?async=true",
		body: `[{"id":"tasked","text":"Police in Syracuse ran the batch as a task."}]`}
	ex := call(t, ts, post, key)
	if ex.status != http.StatusAccepted {
		t.Fatalf("POST %s: %d %s", post.target, ex.status, ex.body)
	}
	id := decode[taskInfo](t, ex).ID
	if got := waitTaskKey(t, ts, id, key); got.State != taskSucceeded {
		t.Fatalf("task: %+v", got)
	}
	ops := operations(t)
	for i := range ops {
		if ops[i].path == "/v1/tasks/{id}" {
			ops[i].target = "/v1/tasks/" + id
		}
	}
	return ops
}

// call sends one request of o with the key text ("" for none) and checks the answer
// against openapi.yaml.
func call(t *testing.T, ts *httptest.Server, o operation, key string) exchange {
	t.Helper()
	ct := ""
	if o.body != "" {
		ct = "application/json"
	}
	return sendKey(t, ts, o.method, o.target, ct, o.body, key, true)
}

// TestAuthEveryRoute walks every operation of openapi.yaml (the page, its documents and
// static files included) on a server with keys, with /metrics open and behind a key:
// the server's route has the scope that openapi.yaml gives it (x-qsc-scope), and every
// route of the server is in openapi.yaml. A route that is not open answers 401 without a
// key and with an unknown one, 403 with a key of the wrong scope, and 2xx with a key of
// its scope and with the admin key; an open route answers without a key. The document
// API writes to an index on disk, so its writes answer 2xx too, and change the
// collection as they say. Every answer follows openapi.yaml. A route added to
// openapi.yaml is covered without a change here when its examples make a request it
// serves: it needs an x-qsc-scope, and examples for its path parameters (else "d1", a
// document of the test collection), its JSON body and its required query parameters.
func TestAuthEveryRoute(t *testing.T) {
	ops := operations(t)
	if len(ops) < 13 {
		t.Fatalf("%d operations in openapi.yaml", len(ops))
	}
	for _, metricsAuth := range []bool{false, true} {
		t.Run(fmt.Sprintf("metrics-auth=%v", metricsAuth), func(t *testing.T) {
			s, ts, _ := keyServer(t, Config{MetricsAuth: metricsAuth})
			ops := liveOperations(t, ts, adminText)
			covered := map[string]bool{}
			for _, o := range ops {
				req := httptest.NewRequest(o.method, o.target, nil)
				_, pattern := s.mux.Handler(req)
				scope, ok := s.routes[pattern]
				if !ok {
					t.Errorf("%s %s: %s reaches %q, not a route of the server", o.method, o.path, o.target, pattern)
					continue
				}
				covered[pattern] = true
				if scope != o.scope {
					t.Errorf("%s %s: the server's route %q has scope %s, openapi.yaml says %s", o.method, o.path, pattern, scope, o.scope)
				}
			}
			for pattern := range s.routes {
				if !covered[pattern] {
					t.Errorf("route %q of the server is not in openapi.yaml (with its x-qsc-scope)", pattern)
				}
			}
			for _, o := range ops {
				scope := o.scope
				if scope == ScopeMetrics && !metricsAuth {
					scope = ScopeOpen
				}
				name := o.method + " " + o.target
				if scope == ScopeOpen {
					if ex := call(t, ts, o, ""); ex.status >= 300 {
						t.Errorf("%s (open) without a key: %d %s", name, ex.status, ex.body)
					}
					continue
				}
				for _, key := range []string{"", "not-a-key-0123456789abcdef"} {
					ex := call(t, ts, o, key)
					if ex.status != http.StatusUnauthorized || !strings.HasPrefix(ex.header.Get("WWW-Authenticate"), "Bearer") {
						t.Errorf("%s (%s) with key %q: %d %q %s, want 401 with WWW-Authenticate", name, scope, key, ex.status, ex.header.Get("WWW-Authenticate"), ex.body)
					}
					if bytes.Contains(ex.body, []byte("Syracuse")) {
						t.Errorf("%s without a valid key shows the document: %s", name, ex.body)
					}
				}
				if ex := call(t, ts, o, wrongKey(scope)); ex.status != http.StatusForbidden || !strings.Contains(ex.header.Get("WWW-Authenticate"), "insufficient_scope") {
					t.Errorf("%s (%s) with a key of the wrong scope: %d %s, want 403", name, scope, ex.status, ex.body)
				}
			}
			// The keys that reach each route, last, in the order of operations (DELETE
			// after the reads).
			for _, o := range ops {
				scope := o.scope
				if scope == ScopeOpen || (scope == ScopeMetrics && !metricsAuth) {
					continue
				}
				for _, key := range slices.Compact([]string{keyOf(scope), adminText}) { // an admin route once: a second DELETE would find nothing
					if ex := call(t, ts, o, key); !served(ex) {
						t.Errorf("%s %s (%s) with a key of scope %s: %d %s, want 2xx", o.method, o.target, scope, s.keys.find(key).key.Scope, ex.status, ex.body)
					}
				}
			}
			checkWritten(t, s.cfg.Index)
		})
	}
}

// served reports whether an answer is 2xx.
func served(ex exchange) bool { return ex.status >= 200 && ex.status <= 299 }

// checkWritten checks the test collection after the walk of liveOperations: the batch
// run as a task and the example of POST /v1/documents added their documents, and the
// DELETE of d1 (after its PUT) removed it.
func checkWritten(t *testing.T, x *docindex.Index) {
	t.Helper()
	for id, want := range map[string]bool{"tasked": true, "courts": true, "pizza": true, "d1": false, "d2": true} {
		if _, found, err := x.Document(id); err != nil || found != want {
			t.Errorf("document %s after the walk: found %v, want %v (%v)", id, found, want, err)
		}
	}
}

// TestLockedPages: a browser that navigates to a page of a server with keys sends none;
// it gets a 401 page that holds no data and asks for the key (key.js), and the other
// paths of the same routes get their usual answers with the key.
func TestLockedPages(t *testing.T) {
	_, ts, _ := keyServer(t, Config{})
	for _, path := range []string{"/", "/doc/d1?q=police"} {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("Accept", "text/html")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
			!bytes.Contains(b, []byte(`src="/static/key.js"`)) || bytes.Contains(b, []byte("Syracuse")) {
			t.Errorf("GET %s without a key: %d %s %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
		checkSecure(t, path, resp.Header)
	}
	o := operation{method: "GET", target: "/doc/d1", path: "/doc/{id}"}
	if ex := call(t, ts, o, searchText); ex.status != 200 || !bytes.Contains(ex.body, []byte("Syracuse")) {
		t.Errorf("GET /doc/d1 with the search key: %d %s", ex.status, ex.body)
	}
	o = operation{method: "GET", target: "/doc/nope", path: "/doc/{id}"}
	if ex := call(t, ts, o, searchText); ex.status != 404 {
		t.Errorf("GET /doc/nope with the search key: %d %s", ex.status, ex.body)
	}
}

// TestKeyNotInURL: a key-like query parameter is refused on every route, also with a
// valid header, also on an open route.
func TestKeyNotInURL(t *testing.T) {
	_, ts, log := keyServer(t, Config{})
	for _, target := range []string{"/v1/search?q=police&api_key=" + searchText, "/livez?token=x", "/?access_token=" + searchText, "/doc/d1?key=" + adminText} {
		req, _ := http.NewRequest("GET", ts.URL+target, nil)
		req.Header.Set("Authorization", "Bearer "+searchText)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !bytes.Contains(b, []byte("never in the URL")) {
			t.Errorf("GET %s: %d %s, want 400", target, resp.StatusCode, b)
		}
	}
	for _, k := range []string{adminText, searchText} {
		if strings.Contains(log.String(), k) {
			t.Errorf("the log holds a key: %s", log)
		}
	}
}

// TestAuthorizationHeader: the scheme in any case; other schemes, an empty key and
// extra text are 401 with a message that says what to send.
func TestAuthorizationHeader(t *testing.T) {
	_, ts, _ := keyServer(t, Config{})
	for _, c := range []struct {
		header string
		want   int
		msg    string
	}{
		{"Bearer " + searchText, 200, ""},
		{"bearer " + searchText, 200, ""},
		{"BEARER  " + searchText + " ", 200, ""},
		{"", 401, "send Authorization: Bearer KEY"},
		{"Basic " + searchText, 401, "must be Bearer KEY"},
		{"Bearer", 401, "must be Bearer KEY"},
		{"Bearer ", 401, "must be Bearer KEY"},
		{searchText, 401, "must be Bearer KEY"},
		{"Bearer " + searchText[:len(searchText)-1], 401, "unknown key"},
		{"Bearer " + searchText + "x", 401, "unknown key"},
		{"Bearer sha256:" + hexSum(searchText), 401, "unknown key"}, // the hash is no key
	} {
		req, _ := http.NewRequest("GET", ts.URL+"/v1/search?q=police", nil)
		if c.header != "" {
			req.Header.Set("Authorization", c.header)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want || !bytes.Contains(b, []byte(c.msg)) {
			t.Errorf("Authorization %q: %d %s, want %d %q", c.header, resp.StatusCode, b, c.want, c.msg)
		}
	}
}

func hexSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// TestKeysNeverLogged: the request log names the key of each request that had a valid
// one, and holds no key text, valid or not.
func TestKeysNeverLogged(t *testing.T) {
	_, ts, log := keyServer(t, Config{MetricsAuth: true})
	wrong := "wrong-key-0123456789abcdef"
	for _, c := range []struct{ path, key string }{
		{"/v1/search?q=police", searchText}, {"/v1/search?q=police", wrong}, {"/v1/search?q=police", adminText},
		{"/metrics", metricsText}, {"/v1/documents/d1", metricsText}, {"/nope", searchText},
	} {
		req, _ := http.NewRequest("GET", ts.URL+c.path, nil)
		req.Header.Set("Authorization", "Bearer "+c.key)
		req.Header.Set("X-Request-Id", "r-"+c.key[:5])
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	for _, k := range []string{adminText, searchText, metricsText, wrong, hexSum(searchText)} {
		if strings.Contains(log.String(), k) {
			t.Errorf("the log holds key %s:\n%s", k, log)
		}
	}
	for _, want := range []string{`"request_id":"r-searc","key":"newsroom"`, `"request_id":"r-admin","key":"ops"`,
		`"request_id":"r-metri","key":"prometheus"`, `"status":403,"duration"`, `"error":"unknown key"`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, log)
		}
	}
}

// TestKeyring: a key is found by its text only, whatever shares a prefix with it; a
// key file may hold its hash instead.
func TestKeyring(t *testing.T) {
	hashed, err := NewKey("hashed", ScopeSearch, "sha256:"+hexSum("another-key-0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	kr := &keyring{}
	for _, k := range append(testKeys(t), hashed) {
		kr.keys = append(kr.keys, newPrincipal(k, Limits{}))
	}
	for text, want := range map[string]string{
		adminText: "ops", searchText: "newsroom", metricsText: "prometheus", "another-key-0123456789": "hashed",
		"": "", adminText[:16]: "", adminText + " ": "", strings.ToUpper(adminText): "", "sha256:" + hexSum("another-key-0123456789"): "",
	} {
		got := ""
		if p := kr.find(text); p != nil {
			got = p.key.Name
		}
		if got != want {
			t.Errorf("find(%q) = %q, want %q", text, got, want)
		}
	}
	for _, c := range []struct {
		secret, err string
	}{
		{"short", "at least 16"},
		{"has a space in it 0123456789", "not printable ASCII or is a space"},
		{"ключ-0123456789abcdef", "not printable ASCII"},
		{"sha256:abc", "64 hex digits"},
	} {
		if _, err := NewKey("k", ScopeSearch, c.secret); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("NewKey(%q): %v, want %q", c.secret, err, c.err)
		}
	}
	if _, err := NewKey("k", ScopeOpen, searchText); err == nil {
		t.Error("a key of scope open was accepted")
	}
}

// TestParseKeys: the keys file, and its errors, each with its line.
func TestParseKeys(t *testing.T) {
	file := `# the team's keys
admin   ` + adminText + `   name=ops

search  ` + searchText + ` name=newsroom rate=20 burst=40 ingests=1
metrics sha256:` + hexSum(metricsText) + `
search  another-key-0123456789 rate=none
`
	keys, err := ParseKeys(strings.NewReader(file), "keys.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name   string
		scope  Scope
		limits Limits
	}{
		{"ops", ScopeAdmin, Limits{}},
		{"newsroom", ScopeSearch, Limits{Rate: 20, Burst: 40, Ingests: 1}},
		{"keys.txt:5", ScopeMetrics, Limits{}},
		{"keys.txt:6", ScopeSearch, Limits{Rate: -1}},
	}
	if len(keys) != len(want) {
		t.Fatalf("%d keys: %+v", len(keys), keys)
	}
	for i, w := range want {
		if k := keys[i]; k.Name != w.name || k.Scope != w.scope || k.Limits != w.limits {
			t.Errorf("key %d: %s %s %+v, want %+v", i, k.Name, k.Scope, k.Limits, w)
		}
	}
	if keys[2].hash != sha256.Sum256([]byte(metricsText)) {
		t.Error("the sha256: key does not match its text")
	}
	for _, c := range []struct{ file, err string }{
		{"", "keys.txt: no key"},
		{"# only a comment\n\n", "keys.txt: no key"},
		{"admin " + adminText + "\nsearch\n", "keys.txt:2: want SCOPE KEY"},
		{"\n\namin " + adminText + "\n", `keys.txt:3: unknown scope "amin": want search, admin or metrics`},
		{"search shortkey\n", "keys.txt:1: the key is 8 characters; a key needs at least 16"},
		{"admin " + adminText + "\nsearch " + adminText + "\n", "keys.txt:2: the same key as line 1"},
		{"admin " + adminText + "\nsearch sha256:" + hexSum(adminText) + "\n", "keys.txt:2: the same key as line 1"},
		{"admin " + adminText + " name=ops\n\nsearch " + searchText + " name=ops\n", `keys.txt:3: name "ops" is the name of line 1 already`},
		{"search " + searchText + " rat=5\n", `keys.txt:1: unknown field "rat": want name, rate, burst or ingests`},
		{"search " + searchText + " rate=fast\n", "keys.txt:1: rate=fast: want requests per second"},
		{"search " + searchText + " burst=0\n", "keys.txt:1: burst=0: want a whole number of at least 1"},
		{"search " + searchText + " name\n", "keys.txt:1: field 3 is not name=NAME"},
	} {
		if _, err := ParseKeys(strings.NewReader(c.file), "keys.txt"); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseKeys(%q): %v, want %q", c.file, err, c.err)
		}
	}
	// An error never shows a key, wherever it stands on its line.
	for _, line := range []string{"search name=x " + searchText, "search " + adminText + " " + searchText, "srch " + searchText, searchText, searchText + " search"} {
		_, err := ParseKeys(strings.NewReader(line+"\n"), "keys.txt")
		if err == nil || strings.Contains(err.Error(), searchText) || strings.Contains(err.Error(), adminText) {
			t.Errorf("ParseKeys(%q): %v", line, err)
		}
	}
}

// TestRateLimit: a key over its rate gets 429 with Retry-After and a JSON error, unread;
// another key is not held back; the bucket refills.
func TestRateLimit(t *testing.T) {
	keys := testKeys(t)
	keys[1].Limits = Limits{Rate: 2, Burst: 3} // newsroom
	_, ts, _ := keyServer(t, Config{Keys: keys, KeyLimits: Limits{Rate: 1000}})
	o := operation{method: "POST", path: "/v1/compress", target: "/v1/compress",
		body: `{"text":"Police in Syracuse arrested two men.","query":["police"],"budget":20}`}
	for i := range 3 {
		if ex := call(t, ts, o, searchText); ex.status != 200 {
			t.Fatalf("request %d within the burst: %d %s", i, ex.status, ex.body)
		}
	}
	ex := call(t, ts, o, searchText)
	if ex.status != http.StatusTooManyRequests || ex.header.Get("Retry-After") != "1" ||
		!bytes.Contains(ex.body, []byte("key newsroom is over its rate of 2 requests/s (burst 3); retry after 1 s")) {
		t.Errorf("over the rate: %d Retry-After %q %s", ex.status, ex.header.Get("Retry-After"), ex.body)
	}
	if ex := call(t, ts, o, adminText); ex.status != 200 {
		t.Errorf("another key: %d %s", ex.status, ex.body)
	}
	time.Sleep(600 * time.Millisecond) // 2 tokens a second: one is back
	if ex := call(t, ts, o, searchText); ex.status != 200 {
		t.Errorf("after the bucket refilled: %d %s", ex.status, ex.body)
	}
}

// TestIngestSlot: a key runs at most its ingests at once; beyond, 429 with Retry-After;
// a released slot serves the next; without keys the open principal has the limit.
func TestIngestSlot(t *testing.T) {
	for _, withKeys := range []bool{true, false} {
		var keys []Key
		text := ""
		if withKeys {
			keys = testKeys(t)
			keys[0].Limits.Ingests = 1 // ops
			text = adminText
		}
		s, err := New(Config{Engine: servicetest.Engine(t), Keys: keys, KeyLimits: Limits{Ingests: 1}})
		if err != nil {
			t.Fatal(err)
		}
		hold := make(chan struct{})
		held := make(chan struct{})
		h := s.guard(ScopeAdmin, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			release, ok := s.ingestSlot(w, r)
			if !ok {
				return
			}
			defer release()
			if r.Header.Get("Hold") != "" {
				held <- struct{}{}
				<-hold
			}
			w.WriteHeader(http.StatusAccepted)
		}))
		post := func(key string, hold bool) *httptest.ResponseRecorder {
			r := httptest.NewRequest("POST", "/v1/documents", nil)
			if key != "" {
				r.Header.Set("Authorization", "Bearer "+key)
			}
			if hold {
				r.Header.Set("Hold", "1")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			return rec
		}
		done := make(chan int)
		go func() { done <- post(text, true).Code }()
		<-held
		rec := post(text, false)
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "5" || !strings.Contains(rec.Body.String(), "runs 1 ingests already") {
			t.Errorf("keys %v: a second ingest at once: %d %q %s", withKeys, rec.Code, rec.Header().Get("Retry-After"), rec.Body)
		}
		close(hold)
		if code := <-done; code != http.StatusAccepted {
			t.Errorf("the first ingest: %d", code)
		}
		if rec := post(text, false); rec.Code != http.StatusAccepted {
			t.Errorf("keys %v: after the first ended: %d %s", withKeys, rec.Code, rec.Body)
		}
	}
}

// TestNoKeysAllOpen: a server without keys answers every route without one, as before.
func TestNoKeysAllOpen(t *testing.T) {
	s, ts, _ := keyServer(t, Config{Keys: []Key{}})
	for _, o := range liveOperations(t, ts, "") {
		if ex := call(t, ts, o, ""); !served(ex) {
			t.Errorf("%s %s without keys: %d %s", o.method, o.target, ex.status, ex.body)
		}
	}
	checkWritten(t, s.cfg.Index)
}
