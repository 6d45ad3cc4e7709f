package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// served is a running `qsc serve` process.
type served struct {
	cmd  *exec.Cmd
	base string        // http://host:port
	log  chan string   // its stderr, line by line
	done chan struct{} // closed when stderr ends
	seen []string      // the log lines read so far
}

var listening = regexp.MustCompile(`msg=listening url=(https?://[^ ]+)/`)

// startServe starts the built qsc binary with `serve --addr 127.0.0.1:0` and args, and
// waits until it is ready.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	return startServeEnv(t, nil, args...)
}

// startServeEnv is startServe with the environment variables env added.
func startServeEnv(t *testing.T, env []string, args ...string) *served {
	t.Helper()
	cmd := exec.Command(qscBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(append(os.Environ(), "CI=true"), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, log: make(chan string, 1000), done: make(chan struct{})}
	t.Cleanup(func() { s.stop(t) })
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.log <- sc.Text()
		}
	}()
	s.waitLog(t, "msg=ready")
	for _, l := range s.seen {
		if m := listening.FindStringSubmatch(l); m != nil {
			s.base = m[1]
		}
	}
	if s.base == "" {
		t.Fatalf("no listening address in the log:\n%s", strings.Join(s.seen, "\n"))
	}
	return s
}

// waitLog returns the first line of the log that contains want, reading it until one does.
func (s *served) waitLog(t *testing.T, want string) string {
	t.Helper()
	for _, l := range s.seen {
		if strings.Contains(l, want) {
			return l
		}
	}
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l := <-s.log:
			s.seen = append(s.seen, l)
			if strings.Contains(l, want) {
				return l
			}
		case <-s.done:
			t.Fatalf("qsc serve ended before logging %q:\n%s", want, strings.Join(s.seen, "\n"))
		case <-timeout:
			t.Fatalf("no %q in the log after 60 s:\n%s", want, strings.Join(s.seen, "\n"))
		}
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (s *served) stop(t *testing.T) {
	t.Helper()
	if s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	<-s.done
	for len(s.log) > 0 {
		s.seen = append(s.seen, <-s.log)
	}
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("qsc serve: %v\n%s", err, strings.Join(s.seen, "\n"))
	}
}

// getJSON gets path and decodes its JSON answer into v, and returns the status.
func (s *served) getJSON(t *testing.T, path string, v any) int {
	t.Helper()
	resp, err := http.Get(s.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %d %s: %v", path, resp.StatusCode, b, err)
	}
	return resp.StatusCode
}

type searchAnswer struct {
	Total   int
	Terms   []string
	Results []struct {
		ID, Title, URL, Link string
		Snippets             []struct{ Text, HTML string }
	}
}

// TestBinaryServeIndex: `qsc serve --index DIR --docs FILE` builds an index on disk,
// reports the bad records and a summary, and serves the documents; stopped and started
// again over the same directory (without --docs) it finds them again; a second ingest of
// the same file adds nothing.
func TestBinaryServeIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	docs := filepath.Join(t.TempDir(), "docs.jsonl")
	lines := []string{
		`{"id":"courts","title":"Two judges nominated","text":"President Bush on Tuesday nominated two individuals to replace retiring jurists on federal courts in the Washington area. Bush nominated Jennifer M. Anderson for a 15-year term as associate judge of the Superior Court of the District of Columbia.","url":"https://example.org/courts"}`,
		`{"id":"broken", "text": `,
		`{"id":"pizza","text":"The pizza was cold and the crust was burnt. The police station next door had better coffee than this place."}`,
		`{"id":"notes/<b>","title":"<script>alert(1)</script>","text":"A judge & a <jury> met in court."}`,
	}
	if err := os.WriteFile(docs, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(s *served) {
		t.Helper()
		var res searchAnswer
		if code := s.getJSON(t, "/v1/search?q="+url.QueryEscape(`+judge +"associate judge"`)+"&budget=60", &res); code != 200 {
			t.Fatalf("search: %d %+v", code, res)
		}
		if res.Total != 1 || res.Results[0].ID != "courts" || res.Results[0].URL != "https://example.org/courts" ||
			len(res.Results[0].Snippets) == 0 || !strings.Contains(res.Results[0].Snippets[0].HTML, "<mark>associate judge</mark>") {
			t.Fatalf("search: %+v", res)
		}
		var doc struct{ ID, Title, Text, Link string }
		if code := s.getJSON(t, "/v1/documents/courts", &doc); code != 200 || doc.Title != "Two judges nominated" || doc.Link != "/doc/courts" {
			t.Errorf("document: %d %+v", code, doc)
		}
		// The page of a document whose id has a "/", and markup in its title and text.
		resp, err := http.Get(s.base + "/doc/notes/" + url.PathEscape("<b>") + "?q=judge")
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		h := resp.Header
		if resp.StatusCode != 200 || !strings.Contains(string(page), "&lt;script&gt;alert(1)&lt;/script&gt;") || strings.Contains(string(page), "<script>") ||
			!strings.Contains(string(page), "A <mark>judge</mark> &amp; a &lt;jury&gt; met in court.") || !strings.Contains(string(page), `href="/?q=judge"`) ||
			h.Get("Content-Security-Policy") == "" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("document page: %d %v\n%s", resp.StatusCode, h, page)
		}
		var health struct{ Documents int }
		if s.getJSON(t, "/healthz", &health); health.Documents != 3 {
			t.Errorf("healthz: %d documents, want 3", health.Documents)
		}
	}

	s := startServe(t, "--index", dir, "--docs", docs)
	bad := s.waitLog(t, "document rejected")
	sum := s.waitLog(t, "documents ingested")
	if !strings.Contains(bad, "at="+docs+":2") || !strings.Contains(sum, `summary="3 added, 0 updated, 0 unchanged, 1 rejected"`) {
		t.Errorf("log:\n%s\n%s", bad, sum)
	}
	// Ready first, then the documents are ingested in the background.
	if r, i := slices.IndexFunc(s.seen, func(l string) bool { return strings.Contains(l, "msg=ready") }),
		slices.IndexFunc(s.seen, func(l string) bool { return strings.Contains(l, "documents ingested") }); r < 0 || i < r {
		t.Errorf("ready at line %d, ingested at line %d:\n%s", r, i, strings.Join(s.seen, "\n"))
	}
	check(s)
	s.stop(t)

	// The same directory again, without --docs: the documents are still there.
	s = startServe(t, "--index", dir)
	check(s)
	s.stop(t)

	// The same file again: nothing to add, through the QSC_* variables.
	t.Setenv("QSC_INDEX", dir)
	t.Setenv("QSC_DOCS", docs)
	s = startServe(t)
	if sum := s.waitLog(t, "documents ingested"); !strings.Contains(sum, `summary="0 added, 0 updated, 3 unchanged, 1 rejected"`) {
		t.Errorf("second ingest: %s", sum)
	}
	check(s)
	s.stop(t)
}

// TestServeCollectionUsage: the collection flags refuse what cannot work.
func TestServeCollectionUsage(t *testing.T) {
	empty := t.TempDir()
	notIndex := t.TempDir()
	os.WriteFile(filepath.Join(notIndex, "notes.txt"), []byte("mine"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--no-demo", "--docs", "x.jsonl"}, "--no-demo turns search off"},
		{[]string{"serve", "--docs", filepath.Join(empty, "missing.jsonl")}, "--docs: stat"},
		{[]string{"serve", "--max-docs-body", "0"}, "--max-docs-body"},
	} {
		if code, _, errs := runQSC(t, c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, %s", c.args, code, errs)
		}
	}
	// A directory that holds something else is not taken for an index.
	if code, _, errs := runQSC(t, "serve", "--addr", "127.0.0.1:0", "--index", notIndex); code != 1 || !strings.Contains(errs, "holds no index") {
		t.Errorf("--index over another directory: exit %d, %s", code, errs)
	}
}

// TestServeJSONLogFailure checks the JSON log of a server that cannot open its index:
// durations as "15s", not nanoseconds, and the error that stops it as a JSON line too
// (an SRE's helper found only a plain line after the JSON ones).
func TestServeJSONLogFailure(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runQSC(t, "serve", "--addr", "127.0.0.1:0", "--index", file, "--log-format", "json")
	if code != 1 || !strings.Contains(errs, `"level":"ERROR","msg":"qsc serve stopped on an error","error":"document index: `) ||
		!strings.Contains(errs, `"grace":"15s"`) {
		t.Errorf("exit %d, log:\n%s", code, errs)
	}
}
