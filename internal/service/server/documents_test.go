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
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// docServer is a test server over an index on disk of its own.
type docServer struct {
	ts     *httptest.Server
	s      *Server
	x      *docindex.Index
	dir    string
	log    *bytes.Buffer
	closed sync.Once
}

// newDocServer returns a server over a new index in dir (a new temporary directory when
// dir is "").
func newDocServer(t *testing.T, cfg Config, dir string) *docServer {
	t.Helper()
	if dir == "" {
		dir = filepath.Join(t.TempDir(), "index")
	}
	x, err := docindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cfg.Engine, cfg.Index = servicetest.Engine(t), x
	cfg.Logger = slog.New(slog.NewTextHandler(lockedWriter{&sync.Mutex{}, &log}, nil))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := &docServer{ts: httptest.NewServer(s.Handler()), s: s, x: x, dir: dir, log: &log}
	t.Cleanup(d.close)
	return d
}

// close stops the server and closes its index (as qsc serve does at a shutdown).
func (d *docServer) close() {
	d.closed.Do(func() {
		d.ts.Close()
		d.s.Close()
		d.x.Close()
	})
}

// roundTrip sends req and returns the status, the headers and the body of the answer.
func roundTrip(t *testing.T, req *http.Request) (int, http.Header, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// send sends a request with the Content-Type ct ("": none) and checks the answer (and the
// request, when validReq) against openapi.yaml.
func send(t *testing.T, ts *httptest.Server, method, path, ct, body string, validReq bool) exchange {
	t.Helper()
	return sendKey(t, ts, method, path, ct, body, "", validReq)
}

// sendKey is send with the bearer key ("": none): the one helper under do, call and the
// document API's tests.
func sendKey(t *testing.T, ts *httptest.Server, method, path, ct, body, key string, validReq bool) exchange {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	status, header, b := roundTrip(t, req)
	ex := exchange{status: status, header: header, body: []byte(b)}
	validate(t, req, body, ex, validReq)
	return ex
}

func decode[T any](t *testing.T, ex exchange) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(ex.body, &v); err != nil {
		t.Fatalf("%d %s: %v", ex.status, ex.body, err)
	}
	return v
}

// waitTask polls GET /v1/tasks/{id} until the task is finished, and returns it.
func waitTask(t *testing.T, ts *httptest.Server, id string) taskInfo {
	t.Helper()
	return waitTaskKey(t, ts, id, "")
}

// waitTaskKey is waitTask on a server with keys: it asks with the key text ("": none).
func waitTaskKey(t *testing.T, ts *httptest.Server, id, key string) taskInfo {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ex := call(t, ts, operation{method: "GET", target: "/v1/tasks/" + id}, key)
		if ex.status != 200 {
			t.Fatalf("task %s: %d %s", id, ex.status, ex.body)
		}
		info := decode[taskInfo](t, ex)
		if finished(info.State) {
			return info
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s not finished after 60 s: %s", id, ex.body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func results(rs []recordResult) []string {
	var out []string
	for _, r := range rs {
		s := r.At + " " + r.ID + " " + r.Result
		if r.Error != "" {
			s += ": " + r.Error
		}
		if len(r.Ignored) > 0 {
			s += " (ignored " + strings.Join(r.Ignored, ", ") + ")"
		}
		out = append(out, s)
	}
	return out
}

// TestPostDocuments: a small batch, as a JSON array or JSON lines (by Content-Type or
// sniffed), is committed and answered with every record's outcome, in order; a bad record
// is rejected with its line or item number and the others go on; a field a document does
// not have is passed over and named, as --docs passes it over; the documents are then
// found by GET and by search; the same batch again is unchanged.
func TestPostDocuments(t *testing.T) {
	d := newDocServer(t, Config{}, "")
	array := `[
 {"id":"courts","title":"Two judges nominated","text":"President Bush on Tuesday nominated two individuals to replace retiring jurists on federal courts.","url":"https://example.org/courts"},
 {"title":"No id","text":"A record without an id."},
 {"id":"pizza","text":"The pizza was cold and the crust was burnt."},
 {"id":"courts","text":"The same id twice."},
 {"id":"typed","text":42},
 {"id":"extra","text":"x","author":"me"}
]`
	ex := send(t, d.ts, "POST", "/v1/documents", "application/json", array, false) // bad records are not the schema's
	if ex.status != 200 {
		t.Fatalf("array: %d %s", ex.status, ex.body)
	}
	rep := decode[ingestResponse](t, ex)
	want := []string{
		"item 1 courts added",
		`item 2  rejected: no "id"`,
		"item 3 pizza added",
		`item 4 courts rejected: duplicate id "courts" with other content (first at item 1, which is kept)`,
		`item 5 typed rejected: invalid record: field "text" must be a string, not number`,
		`item 6 extra added (ignored author)`,
	}
	if got := results(rep.Records); !slices.Equal(got, want) {
		t.Errorf("array records:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Summary != "3 added, 0 updated, 0 unchanged, 3 rejected" || rep.Added != 3 || rep.Rejected != 3 {
		t.Errorf("array summary: %+v", rep)
	}
	doc := decode[documentResponse](t, do(t, d.ts, "GET", "/v1/documents/courts", "", true))
	if doc.Title != "Two judges nominated" || doc.URL != "https://example.org/courts" {
		t.Errorf("GET courts: %+v", doc)
	}
	res := decode[searchResponse](t, do(t, d.ts, "GET", "/v1/search?q=crust", "", true))
	if res.Total != 1 || res.Results[0].ID != "pizza" || len(res.Results[0].Snippets) == 0 {
		t.Errorf("search after the batch: %+v", res)
	}

	// JSON lines: a malformed line is rejected with its line number; blank lines count.
	jsonl := `{"id":"pizza","text":"The pizza was cold and the crust was burnt."}` + "\n\n" +
		`{"id":"broken", "text": ` + "\n" +
		`{"id":"pizza2","text":"Another pizza, hot this time."}` + "\n" +
		`{"id":"courts","text":"President Bush nominated nobody."}`
	for _, ct := range []string{"application/x-ndjson", "application/jsonl; charset=utf-8", "", "text/plain", "application/x-www-form-urlencoded", "application/json"} {
		t.Run("jsonl as "+ct, func(t *testing.T) {
			d := newDocServer(t, Config{}, "")
			d.x.Add(context.Background(), "seed", []docfile.Doc{{ID: "pizza", Text: "The pizza was cold and the crust was burnt."}, {ID: "courts", Text: "Old text."}}, docindex.IngestOptions{Engine: servicetest.Engine(t)})
			ex := send(t, d.ts, "POST", "/v1/documents", ct, jsonl, ct == "application/x-ndjson")
			rep := decode[ingestResponse](t, ex)
			want := []string{
				"line 1 pizza unchanged",
				`line 3  rejected: invalid record: unexpected EOF`,
				"line 4 pizza2 added",
				"line 5 courts updated",
			}
			if got := results(rep.Records); ex.status != 200 || !slices.Equal(got, want) {
				t.Errorf("%d records:\n%s\nwant\n%s", ex.status, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	// One object, as application/json or sniffed as JSON lines; an array without a type.
	for _, c := range []struct{ ct, body, want string }{
		{"application/json", `[1]`, "item 1  rejected: invalid record: must be a JSON object, not number"},
		{"application/json", "{\n \"id\": \"one\",\n \"text\": \"One document, pretty-printed.\"\n}", "item 1 one added"},
		{"", `{"id":"two","text":"Two."}`, "line 1 two added"},
		{"", ` [{"id":"three","text":"Three."}]`, "item 1 three added"},
	} {
		ex := send(t, d.ts, "POST", "/v1/documents", c.ct, c.body, false)
		if got := results(decode[ingestResponse](t, ex).Records); ex.status != 200 || !slices.Equal(got, []string{c.want}) {
			t.Errorf("%q %q: %d %v", c.ct, c.body, ex.status, got)
		}
	}
	if ex := send(t, d.ts, "POST", "/v1/documents", "application/json", array, false); !strings.Contains(string(ex.body), `"summary":"0 added, 0 updated, 3 unchanged, 3 rejected"`) {
		t.Errorf("the same batch again: %s", ex.body)
	}
}

// TestDocumentErrors: the faults of a request to the document API get 4xx and a JSON
// error that names the problem.
func TestDocumentErrors(t *testing.T) {
	d := newDocServer(t, Config{MaxDocumentsBodyBytes: 1024, MaxBodyBytes: 512}, "")
	big := `[{"id":"big","text":"` + strings.Repeat("a ", 600) + `"}]`
	for _, c := range []struct {
		method, path, ct, body string
		status                 int
		msg                    string
	}{
		{"POST", "/v1/documents", "application/json", "", 400, "the body is empty"},
		{"POST", "/v1/documents", "", "  \n", 400, "the body is empty"},
		{"POST", "/v1/documents", "application/json", "[]", 400, "no documents in the body"},
		{"POST", "/v1/documents", "application/json", `"text"`, 400, "must be a JSON array of documents or one document object"},
		{"POST", "/v1/documents", "", "id,text\na,b", 400, "must be a JSON array of documents (Content-Type: application/json) or JSON lines"},
		{"POST", "/v1/documents", "application/json", "[\n {\"id\":\"a\",\"text\":\"x\"},\n {\"id\":\"b\" \"text\":\"y\"}\n]", 400, "invalid JSON at line 3, column 12: invalid character '\"' after object key:value pair"},
		{"POST", "/v1/documents", "application/json", `[{"id":"a","text":"x"}`, 400, "the body ends inside the array"},
		{"POST", "/v1/documents", "application/json", `[{"id":"a","text":"x"}] [1]`, 400, "invalid JSON at line 1, column 25: invalid character '[' after top-level value"},
		{"POST", "/v1/documents", "application/json", big, 413, "larger than the limit of 1024 bytes of POST /v1/documents: send the documents in several batches, or raise --max-docs-body"},
		{"POST", "/v1/documents?async=maybe", "application/json", `[{"id":"a","text":"x"}]`, 400, "parameter async must be true or false"},
		{"GET", "/v1/documents", "", "", 405, "use POST"},
		{"DELETE", "/v1/documents", "", "", 405, "use POST"},
		{"PUT", "/v1/documents/a", "application/json", `{"title":"No text"}`, 400, `no "text"`},
		{"PUT", "/v1/documents/a", "application/json", `{"id":"b","text":"x"}`, 400, `the body's id "b" is not the path's "a"`},
		{"PUT", "/v1/documents/a", "application/json", `{"text":"x","url":"ftp://example.org/"}`, 400, "not an absolute http or https URL"},
		{"PUT", "/v1/documents/a", "application/json", `[{"text":"x"}]`, 400, "must be a JSON object"},
		{"PUT", "/v1/documents/a", "application/json", `{"text":"` + strings.Repeat("a", 600) + `"}`, 413, "larger than 512 bytes"},
		{"PUT", "/v1/documents/", "application/json", `{"text":"x"}`, 400, "no document id in the path"},
		{"DELETE", "/v1/documents/nope", "", "", 404, `no document with id "nope"`},
		{"PATCH", "/v1/documents/a", "application/json", `{"text":"x"}`, 405, "use GET or PUT or DELETE"},
		{"GET", "/v1/tasks/nope", "", "", 404, `no task with id "nope"`},
		{"POST", "/v1/tasks/nope", "", "", 405, "use GET"},
	} {
		ex := send(t, d.ts, c.method, c.path, c.ct, c.body, false)
		if e := decode[errorBody](t, ex); ex.status != c.status || !strings.Contains(e.Error, c.msg) || ex.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s %.50q: %d %s, want %d and %q", c.method, c.path, c.body, ex.status, ex.body, c.status, c.msg)
		}
		if c.status == 405 && ex.header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", c.method, c.path)
		}
	}
	if ex := send(t, d.ts, "PATCH", "/v1/documents/a", "", "", false); ex.header.Get("Allow") != "GET, PUT, DELETE, HEAD" {
		t.Errorf("Allow of /v1/documents/{id}: %q", ex.header.Get("Allow"))
	}
	// A body of unknown length over the limit: 413 once the limit is read.
	req, _ := http.NewRequest("POST", d.ts.URL+"/v1/documents", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	resp, err := d.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(b), "raise --max-docs-body") {
		t.Errorf("chunked body over the limit: %d %s", resp.StatusCode, b)
	}
	if d.x.Len() != 0 {
		t.Errorf("%d documents written by bad requests", d.x.Len())
	}
}

// TestPutDeleteDocument: PUT adds (201, Location), leaves unchanged or replaces (200) a
// document, DELETE removes it (404 the second time), each committed when answered.
func TestPutDeleteDocument(t *testing.T) {
	d := newDocServer(t, Config{}, "")
	const id = "a b"
	path := "/v1/documents/" + url.PathEscape(id)
	ex := send(t, d.ts, "PUT", path, "application/json", `{"title":"Court","text":"The judge ruled on Tuesday."}`, true)
	if ex.status != 201 || ex.header.Get("Location") != "/v1/documents/a%20b" || !reflect.DeepEqual(decode[writeResponse](t, ex), writeResponse{ID: id, Result: "added", Link: "/doc/a%20b"}) {
		t.Errorf("PUT new: %d %v %s", ex.status, ex.header.Get("Location"), ex.body)
	}
	if ex := send(t, d.ts, "PUT", path, "application/json", `{"id":"a b","title":"Court","text":"The judge ruled on Tuesday."}`, true); ex.status != 200 || decode[writeResponse](t, ex).Result != "unchanged" {
		t.Errorf("PUT the same: %d %s", ex.status, ex.body)
	}
	// A ticket's fields that a document does not have are passed over, and named.
	if ex := send(t, d.ts, "PUT", path, "application/json", `{"title":"Court","text":"The judge ruled on Tuesday.","status":"open","customer":"Lee"}`, true); ex.status != 200 ||
		!reflect.DeepEqual(decode[writeResponse](t, ex), writeResponse{ID: id, Result: "unchanged", Link: "/doc/a%20b", Ignored: []string{"customer", "status"}}) {
		t.Errorf("PUT with a ticket's fields: %d %s", ex.status, ex.body)
	}
	if ex := send(t, d.ts, "PUT", path, "application/json", `{"text":"The judge ruled again on Friday."}`, true); ex.status != 200 || decode[writeResponse](t, ex).Result != "updated" {
		t.Errorf("PUT changed: %d %s", ex.status, ex.body)
	}
	doc := decode[documentResponse](t, do(t, d.ts, "GET", path, "", true))
	if doc.Text != "The judge ruled again on Friday." || doc.Title != "The judge ruled again on Friday." {
		t.Errorf("GET after the update: %+v", doc)
	}
	if res := decode[searchResponse](t, do(t, d.ts, "GET", "/v1/search?q=friday", "", true)); res.Total != 1 {
		t.Errorf("search after the update: %+v", res)
	}
	if ex := do(t, d.ts, "DELETE", path, "", true); ex.status != 200 || !reflect.DeepEqual(decode[writeResponse](t, ex), writeResponse{ID: id, Result: "deleted"}) {
		t.Errorf("DELETE: %d %s", ex.status, ex.body)
	}
	if ex := do(t, d.ts, "DELETE", path, "", true); ex.status != 404 {
		t.Errorf("DELETE again: %d %s", ex.status, ex.body)
	}
	if ex := do(t, d.ts, "GET", path, "", true); ex.status != 404 {
		t.Errorf("GET after DELETE: %d %s", ex.status, ex.body)
	}
	if res := decode[searchResponse](t, do(t, d.ts, "GET", "/v1/search?q=judge", "", true)); res.Total != 0 {
		t.Errorf("search after DELETE: %+v", res)
	}
	// An id with "/" (which openapi.yaml's router does not match, hence no check here).
	req, _ := http.NewRequest("PUT", d.ts.URL+"/v1/documents/notes/"+url.PathEscape("<b>"), strings.NewReader(`{"text":"Markup & more."}`))
	resp, err := d.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 || resp.Header.Get("Location") != "/v1/documents/notes/%3Cb%3E" {
		t.Errorf("PUT notes/<b>: %d %v", resp.StatusCode, resp.Header)
	}
	if doc, ok, _ := d.x.Document("notes/<b>"); !ok || doc.Text != "Markup & more." {
		t.Errorf("notes/<b>: %+v %v", doc, ok)
	}
	// Committed: the index closed and opened again has what the answers said.
	send(t, d.ts, "PUT", "/v1/documents/kept", "application/json", `{"text":"Kept across a restart."}`, true)
	d.close()
	d2 := newDocServer(t, Config{}, d.dir)
	if got := decode[documentResponse](t, do(t, d2.ts, "GET", "/v1/documents/kept", "", true)); got.Text != "Kept across a restart." || d2.x.Len() != 2 {
		t.Errorf("after a restart: %+v, %d documents", got, d2.x.Len())
	}
	if err := d2.x.Check(); err != nil {
		t.Error(err)
	}
}

// TestDocumentsNeedAnIndexOnDisk: a collection in memory refuses writes (409), a server
// without a collection answers 503.
func TestDocumentsNeedAnIndexOnDisk(t *testing.T) {
	ts, _ := newServer(t, Config{})
	for _, c := range [][3]string{{"POST", "/v1/documents", `[{"id":"a","text":"x"}]`}, {"PUT", "/v1/documents/a", `{"text":"x"}`}, {"DELETE", "/v1/documents/d1", ""}} {
		if ex := do(t, ts, c[0], c[1], c[2], true); ex.status != http.StatusConflict || !strings.Contains(string(ex.body), "--index DIR") {
			t.Errorf("%s %s in memory: %d %s", c[0], c[1], ex.status, ex.body)
		}
	}
	s, err := New(Config{Engine: servicetest.Engine(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("PUT", "/v1/documents/a", strings.NewReader(`{"text":"x"}`)))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("PUT without a collection: %d %s", rec.Code, rec.Body)
	}
}

// holdLargeTurns takes every turn of the large lane, so that no annotation of an ingest
// starts, and returns the function that gives them back.
func holdLargeTurns(t *testing.T, s *Server) func() {
	t.Helper()
	n := s.turns.maxLarge
	for range n {
		if err := s.turns.acquire(context.Background(), large); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			for range n {
				s.turns.release(large)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// batch returns n JSON lines of documents id0…, the first bad ones without a text.
func batch(n, bad int, prefix string) string {
	var b strings.Builder
	for i := range n {
		if i < bad {
			fmt.Fprintf(&b, `{"id":"%s%d"}`+"\n", prefix, i)
		} else {
			fmt.Fprintf(&b, `{"id":"%s%d","text":"Document %d of the batch says the police arrested %d men."}`+"\n", prefix, i, i, i)
		}
	}
	return b.String()
}

// TestTasks: a large batch (or ?async=true) is answered 202 with a Location, runs in the
// background, and its task counts the outcomes and keeps the first 100 errors; /readyz
// says an ingest is running, and its progress.
func TestTasks(t *testing.T) {
	d := newDocServer(t, Config{}, "")
	ex := send(t, d.ts, "POST", "/v1/documents?async=true", "application/x-ndjson", batch(3, 1, "a"), true)
	if ex.status != 202 || !strings.HasPrefix(ex.header.Get("Location"), "/v1/tasks/") {
		t.Fatalf("async: %d %v %s", ex.status, ex.header, ex.body)
	}
	info := decode[taskInfo](t, ex)
	if info.Source != sourceAPI || info.Records != 3 || info.Format != formatJSONL || ex.header.Get("Location") != "/v1/tasks/"+info.ID {
		t.Errorf("202: %s", ex.body)
	}
	got := waitTask(t, d.ts, info.ID)
	if got.State != taskSucceeded || got.ingestCounts != (ingestCounts{Added: 2, Rejected: 1}) || got.Processed != 3 ||
		len(got.Errors) != 1 || !reflect.DeepEqual(got.Errors[0], recordResult{At: "line 1", ID: "a0", Result: "rejected", Error: `no "text" (or only white space)`}) {
		t.Errorf("task: %+v", got)
	}

	// A batch over 100 records runs as a task by itself; 150 bad records: 100 errors kept.
	release := holdLargeTurns(t, d.s)
	ex = send(t, d.ts, "POST", "/v1/documents", "application/x-ndjson", batch(300, 150, "b"), true)
	if ex.status != 202 {
		t.Fatalf("large batch: %d %s", ex.status, ex.body)
	}
	id := decode[taskInfo](t, ex).ID
	// While it waits for a turn to annotate, /readyz says it runs, with its progress.
	deadline := time.Now().Add(10 * time.Second)
	for {
		rz := decode[readiness](t, do(t, d.ts, "GET", "/readyz", "", true))
		if rz.Status == "ready" && rz.Ingesting && len(rz.Ingests) == 1 && rz.Ingests[0].ID == id && rz.Ingests[0].State == taskRunning &&
			rz.Ingests[0].Records == 300 && rz.Ingests[0].Rejected == 150 && rz.Ingests[0].Processed == 150 {
			break // the bad records are rejected as they are read; the good ones wait for a turn
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz while the task waits: %+v", rz)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if m := do(t, d.ts, "GET", "/metrics", "", true); !bytes.Contains(m.body, []byte(`qsc_ingest_tasks{state="running"} 1`)) {
		t.Errorf("metrics while a task runs lack qsc_ingest_tasks running 1")
	}
	release()
	got = waitTask(t, d.ts, id)
	if got.State != taskSucceeded || got.ingestCounts != (ingestCounts{Added: 150, Rejected: 150}) || len(got.Errors) != maxTaskErrors ||
		got.ErrorsOmitted != 50 || got.Errors[99].At != "line 100" || got.Started == nil || got.Finished == nil {
		t.Errorf("large task: %+v (%d errors)", got.taskProgress, len(got.Errors))
	}
	if rz := decode[readiness](t, do(t, d.ts, "GET", "/readyz", "", true)); rz.Ingesting || len(rz.Ingests) != 0 {
		t.Errorf("readyz after the task: %+v", rz)
	}
	if res := decode[searchResponse](t, do(t, d.ts, "GET", "/v1/search?q=arrested&k=1", "", true)); res.Total != 152 {
		t.Errorf("search after the tasks: %d found", res.Total)
	}
	m := string(do(t, d.ts, "GET", "/metrics", "", true).body)
	for _, want := range []string{`qsc_documents_written_total{result="added"} 152`, `qsc_documents_written_total{result="rejected"} 151`, `qsc_ingest_tasks{state="running"} 0`} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestTaskQueueFull: with maxQueuedTasks batches waiting, the next gets 503 and
// Retry-After.
func TestTaskQueueFull(t *testing.T) {
	// No limit on the ingests at once (each task keeps its slot until it ends), so that
	// the queue fills.
	d := newDocServer(t, Config{KeyLimits: Limits{Ingests: -1}}, "")
	holdLargeTurns(t, d.s)
	for i := range maxQueuedTasks + 2 { // one runs, maxQueuedTasks wait
		ex := send(t, d.ts, "POST", "/v1/documents?async=true", "application/x-ndjson", batch(1, 0, fmt.Sprint("q", i, "-")), false)
		want := 202
		if i == maxQueuedTasks+1 {
			want = 503
		}
		if ex.status != want || (want == 503 && (ex.header.Get("Retry-After") == "" || !strings.Contains(string(ex.body), "too many batches"))) {
			t.Fatalf("batch %d: %d %s", i, ex.status, ex.body)
		}
		if i == 0 { // wait until it runs, so that the others wait
			for waiting, running := d.s.tasks.counts(); running == 0 || waiting != 0; waiting, running = d.s.tasks.counts() {
				time.Sleep(time.Millisecond)
			}
		}
	}
}

// TestTaskResumed: a batch answered 202 and not finished when the server stops (as in a
// crash) is on disk, and the next server over the index resumes it; a finished task is
// still found after a restart, and its body is gone.
func TestTaskResumed(t *testing.T) {
	d := newDocServer(t, Config{}, "")
	holdLargeTurns(t, d.s)
	ex := send(t, d.ts, "POST", "/v1/documents", "application/json", `[`+strings.TrimSuffix(strings.ReplaceAll(batch(120, 0, "r"), "\n", ","), ",")+`]`, true)
	if ex.status != 202 {
		t.Fatalf("%d %s", ex.status, ex.body)
	}
	id := decode[taskInfo](t, ex).ID
	if _, err := os.Stat(filepath.Join(d.dir, "tasks", id+".body")); err != nil {
		t.Fatalf("the batch is not on disk: %v", err)
	}
	d.close() // stops the task waiting for a turn: nothing committed
	d2 := newDocServer(t, Config{}, d.dir)
	got := waitTask(t, d2.ts, id)
	if got.State != taskSucceeded || got.Added != 120 || got.Resumed != 1 || got.Format != formatJSON || d2.x.Len() != 120 {
		t.Errorf("resumed task: %+v, %d documents", got.taskProgress, d2.x.Len())
	}
	if !strings.Contains(d2.log.String(), "resuming a batch of documents") {
		t.Errorf("log:\n%s", d2.log)
	}
	d2.close()
	d3 := newDocServer(t, Config{}, d.dir)
	if got := waitTask(t, d3.ts, id); got.State != taskSucceeded || got.Added != 120 || got.Resumed != 1 {
		t.Errorf("finished task after a restart: %+v", got)
	}
	if _, err := os.Stat(filepath.Join(d.dir, "tasks", id+".body")); !os.IsNotExist(err) {
		t.Errorf("the body of a finished task is left: %v", err)
	}
	if err := d3.x.Check(); err != nil {
		t.Error(err)
	}
	d3.close()
	// A task that failed keeps its body, and the next start runs it again; a body without
	// its record (never answered 202) and a temporary file are removed.
	info := filepath.Join(d.dir, "tasks", id+".json")
	b, _ := os.ReadFile(info)
	os.WriteFile(info, bytes.Replace(b, []byte(`"state":"succeeded"`), []byte(`"state":"failed","error":"disk full"`), 1), 0o644)
	os.WriteFile(filepath.Join(d.dir, "tasks", id+".body"), []byte(`[`+strings.TrimSuffix(strings.ReplaceAll(batch(3, 0, "r"), "\n", ","), ",")+`]`), 0o644)
	os.WriteFile(filepath.Join(d.dir, "tasks", "orphan.body"), []byte(batch(3, 0, "o")), 0o644)
	os.WriteFile(filepath.Join(d.dir, "tasks", ".x.json.123.partial"), []byte("{"), 0o644)
	d4 := newDocServer(t, Config{}, d.dir)
	if got := waitTask(t, d4.ts, id); got.State != taskSucceeded || got.Unchanged != 3 || got.Resumed != 2 || got.Error != "" {
		t.Errorf("failed task run again: %+v %q", got.taskProgress, got.Error)
	}
	entries, _ := os.ReadDir(filepath.Join(d.dir, "tasks"))
	if len(entries) != 1 || entries[0].Name() != id+".json" {
		t.Errorf("task folder: %v", entries)
	}
}

// TestIngestPath: the --docs ingest runs in the background once the server is ready: the
// server answers while it runs, /readyz shows it, rejected records are logged with their
// file:line, and searches find the documents once it ends.
func TestIngestPath(t *testing.T) {
	file := filepath.Join(t.TempDir(), "docs.jsonl")
	os.WriteFile(file, []byte(batch(200, 1, "p")), 0o644)
	d := newDocServer(t, Config{}, "")
	release := holdLargeTurns(t, d.s)
	id, err := d.s.IngestPath(file)
	if err != nil {
		t.Fatal(err)
	}
	rz := decode[readiness](t, do(t, d.ts, "GET", "/readyz", "", true))
	if !rz.Ingesting || len(rz.Ingests) != 1 || rz.Ingests[0].ID != id || rz.Ingests[0].Source != sourceDocs {
		t.Errorf("readyz: %+v", rz)
	}
	if ex := do(t, d.ts, "POST", "/v1/compress", `{"text":"Dogs bark.","query":["dogs"],"budget":20}`, true); ex.status != 200 {
		t.Errorf("compress during the ingest: %d %s", ex.status, ex.body)
	}
	release()
	got := waitTask(t, d.ts, id)
	if got.State != taskSucceeded || got.Records != 200 || got.Added != 199 || got.Rejected != 1 || got.Errors[0].At != file+":1" {
		t.Errorf("--docs task: %+v", got)
	}
	if res := decode[searchResponse](t, do(t, d.ts, "GET", "/v1/search?q=arrested&k=1", "", true)); res.Total != 199 {
		t.Errorf("search after the ingest: %d", res.Total)
	}
	log := d.log.String()
	if !strings.Contains(log, `msg="document rejected" task=`+id) || !strings.Contains(log, "at="+file+":1") ||
		!strings.Contains(log, `summary="199 added, 0 updated, 0 unchanged, 1 rejected"`) {
		t.Errorf("log:\n%s", log)
	}
	id, err = d.s.IngestPath(filepath.Join(t.TempDir(), "missing.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if got := waitTask(t, d.ts, id); got.State != taskFailed || !strings.Contains(got.Error, "no such file") {
		t.Errorf("a --docs file that is gone: %+v %q", got.taskProgress, got.Error)
	}
}

// TestIngestLimit: each write of the document API takes one of its key's ingest slots
// (ingestSlot, --max-ingests) before it reads its body; a synchronous write gives it back
// with its answer, a batch run as a task when the task ends. With every slot of the key
// taken, a write gets 429 with Retry-After and changes nothing, while reads and the
// writes of another key go on. Without keys, every write shares the server's slots.
func TestIngestLimit(t *testing.T) {
	const etlText = "etl-key-0123456789abcdef"
	etl, err := NewKey("etl", ScopeAdmin, etlText)
	if err != nil {
		t.Fatal(err)
	}
	for _, withKeys := range []bool{true, false} {
		t.Run(fmt.Sprintf("keys=%v", withKeys), func(t *testing.T) {
			cfg, key, who := Config{KeyLimits: Limits{Ingests: 1}}, "", "the server"
			if withKeys {
				cfg.Keys, key, who = append(testKeys(t), etl), adminText, "key ops"
			}
			d := newDocServer(t, cfg, "")
			req := func(method, target, body, key string) exchange {
				t.Helper()
				return call(t, d.ts, operation{method: method, target: target, body: body}, key)
			}
			for _, w := range [][3]string{{"PUT", "/v1/documents/a", `{"text":"A."}`},
				{"POST", "/v1/documents", `[{"id":"b","text":"B."}]`}, {"DELETE", "/v1/documents/a", ""}} {
				if ex := req(w[0], w[1], w[2], key); ex.status != 200 && ex.status != 201 {
					t.Fatalf("%s %s, one write at a time: %d %s", w[0], w[1], ex.status, ex.body)
				}
			}
			release := holdLargeTurns(t, d.s) // the task waits to annotate, and keeps its slot
			ex := req("POST", "/v1/documents?async=true", `[{"id":"c","text":"C."}]`, key)
			if ex.status != 202 {
				t.Fatalf("async: %d %s", ex.status, ex.body)
			}
			task := decode[taskInfo](t, ex).ID
			// A batch is refused at once; a write of one document after waiting ingestWait
			// for the slot, with a shorter Retry-After.
			for _, w := range [][4]string{{"PUT", "/v1/documents/d", `{"text":"D."}`, "1"},
				{"POST", "/v1/documents", `[{"id":"e","text":"E."}]`, "5"}, {"DELETE", "/v1/documents/b", "", "1"}} {
				start := time.Now()
				ex := req(w[0], w[1], w[2], key)
				if waited := time.Since(start); w[3] == "1" && waited < ingestWait {
					t.Errorf("%s %s answered 429 after %v, before waiting %v for the slot", w[0], w[1], waited, ingestWait)
				}
				if ex.status != http.StatusTooManyRequests || ex.header.Get("Retry-After") != w[3] ||
					!strings.Contains(string(ex.body), who+" runs 1 ingests already, its limit") {
					t.Errorf("%s %s while the task runs: %d Retry-After %q %s", w[0], w[1], ex.status, ex.header.Get("Retry-After"), ex.body)
				}
			}
			if d.x.Len() != 1 {
				t.Errorf("the refused writes changed the index: %d documents, want 1", d.x.Len())
			}
			if ex := req("GET", "/v1/documents/b", "", key); ex.status != 200 {
				t.Errorf("a read while the task runs: %d %s", ex.status, ex.body)
			}
			if withKeys { // another key has slots of its own (a DELETE needs no turn)
				if ex := req("DELETE", "/v1/documents/b", "", etlText); ex.status != 200 {
					t.Errorf("DELETE with another key while the task runs: %d %s", ex.status, ex.body)
				}
			}
			release()
			if got := waitTaskKey(t, d.ts, task, key); got.State != taskSucceeded {
				t.Fatalf("task: %+v", got)
			}
			if ex := req("PUT", "/v1/documents/d", `{"text":"D."}`, key); ex.status != 201 {
				t.Errorf("PUT after the task ended: %d %s", ex.status, ex.body)
			}
		})
	}
}

// TestConcurrentWritesOfOneID: PUTs and batches that write the same ids at once all
// succeed, the document is one of the versions written, and the index stays consistent
// (each document's hash is its content's: writing it again is unchanged).
func TestConcurrentWritesOfOneID(t *testing.T) {
	d := newDocServer(t, Config{KeyLimits: Limits{Ingests: -1}}, "") // 4 writers at once, no 429
	var wg sync.WaitGroup
	texts := map[string]bool{}
	var mu sync.Mutex
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 8 {
				text := fmt.Sprintf("Writer %d wrote version %d of the shared document.", w, i)
				mu.Lock()
				texts[text] = true
				mu.Unlock()
				var status int
				if i%2 == 0 {
					ex := send(t, d.ts, "PUT", "/v1/documents/shared", "application/json", `{"text":"`+text+`"}`, true)
					status = ex.status
				} else {
					ex := send(t, d.ts, "POST", "/v1/documents", "application/x-ndjson",
						`{"id":"shared","text":"`+text+`"}`+"\n"+fmt.Sprintf(`{"id":"own-%d-%d","text":"Own document."}`, w, i), true)
					status = ex.status
				}
				if status != 200 && status != 201 {
					t.Errorf("writer %d, version %d: %d", w, i, status)
				}
			}
		}()
	}
	wg.Wait()
	doc := decode[documentResponse](t, do(t, d.ts, "GET", "/v1/documents/shared", "", true))
	if !texts[doc.Text] || d.x.Len() != 1+4*4 {
		t.Errorf("shared: %q, %d documents", doc.Text, d.x.Len())
	}
	if ex := send(t, d.ts, "PUT", "/v1/documents/shared", "application/json", `{"text":"`+doc.Text+`"}`, true); decode[writeResponse](t, ex).Result != "unchanged" {
		t.Errorf("the stored hash is not the stored document's: %s", ex.body)
	}
	if err := d.x.Check(); err != nil {
		t.Error(err)
	}
}

// TestDocumentIDPaths: an id whose parts are empty, "." or ".." is written in Location
// and link as a canonical path (idPath), which the server serves as that id; the same id
// written raw is an unknown path (404), never a redirect to another document.
func TestDocumentIDPaths(t *testing.T) {
	d := newDocServer(t, Config{}, "")
	for _, id := range []string{"a//b", "../d", "/lead", "a/./b", "x/", "..", ".", "/", "a b/ü", "c/.."} {
		p := idPath(id)
		if !canonicalPath("/v1/documents/" + p) {
			t.Errorf("id %q: path %q is not canonical", id, p)
			continue
		}
		put := d.ts.URL + "/v1/documents/" + p
		req, _ := http.NewRequest("PUT", put, strings.NewReader(`{"text":"The judge ruled on Tuesday."}`))
		resp, err := d.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode != 201 || loc != "/v1/documents/"+p {
			t.Errorf("PUT %q: %d, Location %q", id, resp.StatusCode, loc)
			continue
		}
		resp, err = d.ts.Client().Get(d.ts.URL + loc)
		if err != nil {
			t.Fatal(err)
		}
		var got documentResponse
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || got.ID != id || got.Link != "/doc/"+p {
			t.Errorf("GET %s: %d %+v %v; want id %q", loc, resp.StatusCode, got, err, id)
		}
	}
	// "c/.." written raw is not canonical: 404, and document "." ("c/.." cleaned) stays.
	req, _ := http.NewRequest("DELETE", d.ts.URL+"/v1/documents/c/..", nil)
	resp, err := d.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, ok, _ := d.x.Document("."); resp.StatusCode != 404 || !ok {
		t.Errorf("DELETE /v1/documents/c/..: %d; document \".\" kept %v", resp.StatusCode, ok)
	}
}
