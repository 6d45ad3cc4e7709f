package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// checkSecure fails unless an answer carries the security headers.
func checkSecure(t *testing.T, what string, h http.Header) {
	t.Helper()
	for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Content-Security-Policy": contentSecurityPolicy, "Referrer-Policy": "no-referrer"} {
		if h.Get(k) != v {
			t.Errorf("%s: %s %q, want %q", what, k, h.Get(k), v)
		}
	}
}

// TestOps checks the operator's routes on a running server, against openapi.yaml: /livez,
// /readyz, /metrics, /favicon.ico (and the page's link to it), each with the security
// headers and a request id.
func TestOps(t *testing.T) {
	ts, _ := newServer(t, Config{})
	for path, want := range map[string]string{"/livez": `{"status":"ok"}`, "/readyz": `{"status":"ready","ingesting":false}`} {
		ex := do(t, ts, "GET", path, "", true)
		if ex.status != 200 || strings.TrimSpace(string(ex.body)) != want {
			t.Errorf("%s: %d %s", path, ex.status, ex.body)
		}
	}
	ex := do(t, ts, "GET", "/favicon.ico", "", true)
	if ex.status != 200 || ex.header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(ex.body, []byte("<svg")) {
		t.Errorf("favicon: %d %q %.40s", ex.status, ex.header.Get("Content-Type"), ex.body)
	}
	if page := do(t, ts, "GET", "/", "", true); !bytes.Contains(page.body, []byte(`rel="icon" type="image/svg+xml" href="/favicon.ico"`)) {
		t.Error("the page does not link the favicon")
	}
	for _, path := range []string{"/livez", "/readyz", "/metrics", "/favicon.ico", "/healthz", "/", "/openapi.yaml", "/static/app.js", "/nope"} {
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		checkSecure(t, path, resp.Header)
		if resp.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s: no X-Request-Id", path)
		}
	}
	for _, path := range []string{"/livez", "/readyz", "/metrics", "/favicon.ico"} {
		if ex := do(t, ts, "POST", path, "", false); ex.status != http.StatusMethodNotAllowed {
			t.Errorf("POST %s: %d", path, ex.status)
		}
	}
}

// TestMetrics checks /metrics after a few requests: counts and latency histograms by route
// and status, compressions by method, requests and body bytes in flight, readiness, and
// the runtime's and the process's metrics.
func TestMetrics(t *testing.T) {
	ts, _ := newServer(t, Config{})
	do(t, ts, "POST", "/v1/compress", `{"id":"m","text":"Police in Syracuse arrested two men.","query":["Syracuse"],"budget":25,"method":"lr"}`, true)
	do(t, ts, "POST", "/v1/compress", `{"id":"m","text":"Dogs bark.","query":["cats"],"budget":25,"method":"lr"}`, true) // 422
	sn := do(t, ts, "POST", "/v1/snippets", `{"document":"`+testDocs[0].Text+`","query":["men"],"budget":40,"n":2,"method":"ablated"}`, true)
	var got struct{ Snippets []json.RawMessage }
	if err := json.Unmarshal(sn.body, &got); err != nil || len(got.Snippets) == 0 {
		t.Fatalf("snippets: %s", sn.body)
	}
	do(t, ts, "GET", "/nope/1", "", false)
	do(t, ts, "GET", "/nope/2", "", false)
	ex := do(t, ts, "GET", "/metrics", "", true)
	if ex.status != 200 || !strings.HasPrefix(ex.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("metrics: %d %q", ex.status, ex.header.Get("Content-Type"))
	}
	body := string(ex.body)
	for _, want := range []string{
		`qsc_http_requests_total{code="200",route="POST /v1/compress"} 1`,
		`qsc_http_requests_total{code="422",route="POST /v1/compress"} 1`,
		`qsc_http_requests_total{code="200",route="POST /v1/snippets"} 1`,
		`qsc_http_requests_total{code="404",route="other"} 2`,
		`qsc_http_request_duration_seconds_count{code="200",route="POST /v1/compress"} 1`,
		`qsc_http_request_duration_seconds_bucket{code="200",route="POST /v1/compress",le="+Inf"} 1`,
		`qsc_compressions_total{method="lr"} 1`,
		fmt.Sprintf(`qsc_compressions_total{method="ablated"} %d`, len(got.Snippets)),
		`qsc_compressions_total{method="nn"} 0`,
		`qsc_http_requests_in_flight 1`, // this one
		`qsc_http_body_bytes_in_flight{lane="small"} 0`,
		`qsc_http_body_bytes_in_flight{lane="large"} 0`,
		`qsc_memory_returns_total 0`,
		`qsc_ready 1`,
		`go_goroutines `,
		`process_resident_memory_bytes `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestRequestID checks X-Request-Id: a valid one is echoed and logged, an invalid one
// (too long, not printable ASCII) or none is replaced by a new one, different each time.
func TestRequestID(t *testing.T) {
	ts, log := newServer(t, Config{})
	get := func(id string) string {
		req, _ := http.NewRequest("GET", ts.URL+"/openapi.yaml", nil) // not a probe: logged at info
		if id != "" {
			req.Header.Set("X-Request-Id", id)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header.Get("X-Request-Id")
	}
	const good = "abc-123 trace=7/x"
	if got := get(good); got != good {
		t.Errorf("echoed %q, want %q", got, good)
	}
	// The line is written once the handler returns, which may be after the client has
	// the answer.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(log.String(), `"request_id":"`+good+`"`); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log lacks the request id:\n%s", log)
		}
	}
	made := regexp.MustCompile(`^[0-9a-z]+-[0-9]+$`)
	seen := map[string]bool{}
	for _, id := range []string{"", strings.Repeat("a", 129), "café"} {
		got := get(id)
		if !made.MatchString(got) || seen[got] {
			t.Errorf("X-Request-Id %q: answered %q, want a new id", id, got)
		}
		seen[got] = true
	}
	if got := get(strings.Repeat("b", 128)); got != strings.Repeat("b", 128) {
		t.Errorf("a 128-character id was replaced by %q", got)
	}
}

// TestLoading checks a server made by NewLoading: alive but not ready, the API and the
// page 503 with Retry-After, until Ready.
func TestLoading(t *testing.T) {
	s, err := NewLoading(Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	compress := `{"id":"l","text":"Dogs bark.","query":["dogs"],"budget":20}`
	for _, c := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/livez", "", 200},
		{"GET", "/readyz", "", 503},
		{"GET", "/healthz", "", 200},
		{"GET", "/favicon.ico", "", 200},
		{"POST", "/v1/compress", compress, 503},
		{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20}`, 503},
		{"GET", "/v1/search?q=dogs", "", 503},
		{"GET", "/", "", 503},
	} {
		ex := do(t, ts, c.method, c.path, c.body, true)
		if ex.status != c.status {
			t.Errorf("loading, %s %s: %d %s, want %d", c.method, c.path, ex.status, ex.body, c.status)
		}
		if c.status == 503 && ex.header.Get("Retry-After") == "" {
			t.Errorf("loading, %s %s: 503 without Retry-After", c.method, c.path)
		}
	}
	if ex := do(t, ts, "GET", "/metrics", "", true); !bytes.Contains(ex.body, []byte("\nqsc_ready 0\n")) {
		t.Error("metrics: qsc_ready is not 0 while loading")
	}
	if err := s.Ready(nil, nil); err == nil {
		t.Error("Ready without an engine succeeded")
	}
	if err := s.Ready(servicetest.Engine(t), index(t)); err != nil {
		t.Fatal(err)
	}
	if err := s.Ready(servicetest.Engine(t), index(t)); err == nil {
		t.Error("Ready twice succeeded")
	}
	if ex := do(t, ts, "GET", "/readyz", "", true); ex.status != 200 {
		t.Errorf("readyz once ready: %d", ex.status)
	}
	if ex := do(t, ts, "POST", "/v1/compress", compress, true); ex.status != 200 {
		t.Errorf("compress once ready: %d %s", ex.status, ex.body)
	}
	if ex := do(t, ts, "GET", "/healthz", "", true); !bytes.Contains(ex.body, []byte(`"documents":3`)) {
		t.Errorf("healthz once ready: %s", ex.body)
	}
}

// TestReadyDegraded checks that /readyz and /healthz answer 503 "degraded", with why,
// once a commit of the collection has failed (an SRE's helper saw searches fail with
// 500 after a full disk while both still said all was well).
func TestReadyDegraded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	idx, err := docindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ts, _ := newServer(t, Config{Index: idx})
	if ex := do(t, ts, "GET", "/readyz", "", false); ex.status != 200 {
		t.Fatalf("/readyz before: %d %s", ex.status, ex.body)
	}
	if ex := do(t, ts, "GET", "/metrics", "", false); !strings.Contains(string(ex.body), "\nqsc_documents 0\n") {
		t.Errorf("/metrics: no qsc_documents gauge")
	}
	os.RemoveAll(dir)
	doc := []docfile.Doc{{ID: "b", Title: "B", Text: "The council met again on Friday."}}
	if _, err := idx.Add(context.Background(), "test", doc, docindex.IngestOptions{}); err == nil {
		t.Skip("this file system let bleve commit into a removed directory")
	}
	for _, path := range []string{"/readyz", "/healthz"} {
		if ex := do(t, ts, "GET", path, "", false); ex.status != 503 || !strings.Contains(string(ex.body), `"status":"degraded"`) ||
			!strings.Contains(string(ex.body), "failed to commit a write") {
			t.Errorf("%s after a failed commit: %d %s", path, ex.status, ex.body)
		}
	}
	if ex := do(t, ts, "GET", "/metrics", "", false); !strings.Contains(string(ex.body), "qsc_index_degraded 1") || !strings.Contains(string(ex.body), "qsc_ready 0") {
		t.Errorf("/metrics after a failed commit: %d, want qsc_index_degraded 1 and qsc_ready 0", ex.status)
	}
}

// TestDrain checks Config.DrainDelay: once Serve's context is done, the server still
// answers for the delay, /readyz with 503 "draining", and then stops (an SRE's helper saw
// requests that had just connected get no answer when the listener closed at once).
func TestDrain(t *testing.T) {
	s, err := New(Config{Engine: servicetest.Engine(t), DrainDelay: 700 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := serveReal(t, s)
	base := "http://" + addr
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/readyz"); code != 200 {
		t.Fatalf("/readyz before: %d %s", code, body)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }() // returns after the drain
	time.Sleep(100 * time.Millisecond)
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, `"status":"draining"`) {
		t.Errorf("/readyz while draining: %d %s", code, body)
	}
	if code, body := get("/livez"); code != 200 {
		t.Errorf("/livez while draining: %d %s", code, body)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return after the drain")
	}
}
