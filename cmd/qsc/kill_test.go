package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/docindex"
)

// The crash test of the document API (issue 37): `qsc serve --index DIR` is killed with
// SIGKILL at random moments while writers send documents through the API, started again,
// and checked: the index opens and is consistent (docindex.Index.Check, on the directory
// of the dead process), and every write answered 2xx is there once the server has
// resumed its tasks. QSC_KILLS sets the number of kills (default 5; 2 with -short):
//
//	QSC_KILLS=50 go test ./cmd/qsc -run TestKillDuringIngest -v -timeout 30m

// absent is the state of a document that is not in the index.
const absent = "\x00absent"

// docModel is what the writers were told about each document: the states a document may
// be in after a crash. An answer 2xx leaves one state (the one it acknowledged); a
// request without an answer (killed, timed out, 5xx) adds the state it asked for, which
// may or may not have been committed.
type docModel struct {
	mu    sync.Mutex
	valid map[string]map[string]bool // id → the texts it may have (or absent)
	acked map[string]bool            // ids with a state acknowledged 2xx
	// lost lists the contradictions seen: acknowledged writes not found.
	lost []string
	// acks counts the documents acknowledged, by kind of write.
	acks map[string]int
}

func newDocModel() *docModel {
	return &docModel{valid: map[string]map[string]bool{}, acked: map[string]bool{}, acks: map[string]int{}}
}

// ack records that the state of id is text (or absent), acknowledged by a write of kind.
func (m *docModel) ack(kind, id, text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.valid[id] = map[string]bool{text: true}
	m.acked[id] = true
	m.acks[kind]++
}

// maybe records that id may be in state text (a write without a 2xx answer).
func (m *docModel) maybe(id, text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.valid[id] == nil {
		m.valid[id] = map[string]bool{absent: true}
	}
	m.valid[id][text] = true
}

// check records a contradiction when the state found for id is not one it may have.
func (m *docModel) check(id, found string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	v := m.valid[id]
	if v == nil || v[found] || !m.acked[id] {
		return true
	}
	m.lost = append(m.lost, fmt.Sprintf("%s: found %.60q, acknowledged one of %d states", id, found, len(v)))
	return false
}

// killServer is a `qsc serve` process of the crash test.
type killServer struct {
	cmd  *exec.Cmd
	base string
	log  *bytes.Buffer
	mu   *sync.Mutex
}

// startKillServer starts `qsc serve --index dir` (without keys) and waits until it
// listens.
func startKillServer(t *testing.T, dir string) *killServer {
	t.Helper()
	// --max-ingests above what the writers can have at once (3 requests, 17 tasks), so
	// that no write gets 429: the test is about durability, not the limit.
	cmd := exec.Command(qscBinary(t), "serve", "--addr", "127.0.0.1:0", "--index", dir, "--max-ingests", "64")
	cmd.Env = append(os.Environ(), "CI=true")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &killServer{cmd: cmd, log: &bytes.Buffer{}, mu: &sync.Mutex{}}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.mu.Lock()
			s.log.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case s.base = <-addr:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("qsc serve does not listen after 60 s:\n%s", s.logText())
	}
	return s
}

func (s *killServer) logText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// kill sends SIGKILL and waits for the process to end.
func (s *killServer) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()
}

// waitIdle waits until the server is ready and runs no ingest (the tasks it resumed are
// done).
func (s *killServer) waitIdle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil {
			var rz struct {
				Status    string
				Ingesting bool
			}
			json.NewDecoder(resp.Body).Decode(&rz)
			resp.Body.Close()
			if resp.StatusCode == 200 && !rz.Ingesting {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server is not idle after 120 s:\n%s", s.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// verify reads every document the writers wrote through the API and checks it against
// the model; it returns the number of documents read.
func (s *killServer) verify(t *testing.T, m *docModel) int {
	t.Helper()
	m.mu.Lock()
	ids := make([]string, 0, len(m.valid))
	for id := range m.valid {
		ids = append(ids, id)
	}
	m.mu.Unlock()
	for _, id := range ids {
		resp, err := http.Get(s.base + "/v1/documents/" + url.PathEscape(id))
		if err != nil {
			t.Fatal(err)
		}
		var d struct{ Text string }
		json.NewDecoder(resp.Body).Decode(&d)
		resp.Body.Close()
		switch resp.StatusCode {
		case 200:
			m.check(id, d.Text)
		case 404:
			m.check(id, absent)
		default:
			t.Fatalf("GET %s: %d", id, resp.StatusCode)
		}
	}
	return len(ids)
}

// writer sends random writes of its own documents until ctx is done: PUTs and DELETEs of
// its ids, small batches of them (answered when committed), and large batches of new ids
// (answered 202, as tasks). Each id has one writer, and its writes follow one another, so
// that a 2xx answer fixes the id's state; the ids of large batches are new, because a
// task may commit after a later write of the same writer.
func writer(ctx context.Context, base string, w int, rng *rand.Rand, m *docModel, version *int) {
	client := &http.Client{Timeout: 30 * time.Second}
	send := func(method, path, ct, body string) (int, []byte) {
		req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), method, base+path, strings.NewReader(body))
		if err != nil {
			return 0, nil
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil // killed: no answer
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return 0, nil
		}
		return resp.StatusCode, b
	}
	text := func(id string) string {
		*version++
		return fmt.Sprintf("Police in Syracuse arrested %d men on Tuesday, said writer %d. Document %s, version %d, was written again.", rng.IntN(100), w, id, *version)
	}
	own := func() string { return fmt.Sprintf("w%d-doc%d", w, rng.IntN(40)) }
	for ctx.Err() == nil {
		switch op := rng.IntN(100); {
		case op < 45: // PUT
			id := own()
			txt := text(id)
			m.maybe(id, txt)
			body, _ := json.Marshal(map[string]string{"text": txt})
			if status, _ := send("PUT", "/v1/documents/"+id, "application/json", string(body)); status == 200 || status == 201 {
				m.ack("put", id, txt)
			}
		case op < 57: // DELETE
			id := own()
			switch status, _ := send("DELETE", "/v1/documents/"+id, "", ""); status {
			case 200:
				m.ack("delete", id, absent)
			case 404:
				m.check(id, absent) // absent: it must be allowed to be
				m.ack("delete", id, absent)
			default:
				m.maybe(id, absent)
			}
		case op < 92: // a small batch of own ids, answered when committed
			n := 1 + rng.IntN(20)
			seen := map[string]bool{}
			var lines []string
			texts := map[string]string{}
			for range n {
				id := own()
				if seen[id] {
					continue
				}
				seen[id] = true
				texts[id] = text(id)
				m.maybe(id, texts[id])
				b, _ := json.Marshal(map[string]string{"id": id, "text": texts[id]})
				lines = append(lines, string(b))
			}
			status, b := send("POST", "/v1/documents", "application/x-ndjson", strings.Join(lines, "\n"))
			if status == 200 {
				var rep struct{ Records []struct{ ID, Result string } }
				json.Unmarshal(b, &rep)
				for _, r := range rep.Records {
					if r.Result != "rejected" {
						m.ack("batch", r.ID, texts[r.ID])
					}
				}
			}
		default: // a large batch of new ids, run as a task
			*version++
			var lines []string
			texts := map[string]string{}
			for k := range 101 + rng.IntN(150) {
				id := fmt.Sprintf("w%d-task%d-%d", w, *version, k)
				texts[id] = text(id)
				m.maybe(id, texts[id])
				b, _ := json.Marshal(map[string]string{"id": id, "text": texts[id]})
				lines = append(lines, string(b))
			}
			if status, _ := send("POST", "/v1/documents", "application/x-ndjson", strings.Join(lines, "\n")); status == 202 {
				for id, txt := range texts {
					m.ack("task", id, txt)
				}
			}
		}
	}
}

// TestKillDuringIngest kills `qsc serve` with SIGKILL at random moments while writers use
// the document API, and checks after each kill that the index opens and is consistent,
// and that nothing acknowledged 2xx is lost.
func TestKillDuringIngest(t *testing.T) {
	kills := 5
	if testing.Short() {
		kills = 2
	}
	if v := os.Getenv("QSC_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("QSC_KILLS=%q: want a positive integer", v)
		}
		kills = n
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("QSC_KILL_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("QSC_KILLS=%d QSC_KILL_SEED=%d", kills, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := filepath.Join(t.TempDir(), "index")
	const writers = 3
	m := newDocModel()
	versions := make([]int, writers)
	corrupt, atStart := 0, 0
	var resumed int
	start := time.Now()
	for k := range kills {
		s := startKillServer(t, dir)
		if rng.IntN(5) == 0 {
			// Killed while it starts, or resumes the tasks of the last run.
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
			s.kill()
			atStart++
		} else {
			s.waitIdle(t)
			resumed += strings.Count(s.logText(), "resuming a batch of documents")
			s.verify(t, m)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for w := range writers {
				wg.Add(1)
				wrng := rand.New(rand.NewPCG(seed, uint64(100*k+w+2)))
				go func() { defer wg.Done(); writer(ctx, s.base, w, wrng, m, &versions[w]) }()
			}
			time.Sleep(time.Duration(50+rng.IntN(1500)) * time.Millisecond)
			s.kill()
			cancel()
			wg.Wait()
		}
		// The directory of the dead process: the index opens and is consistent.
		x, err := docindex.Open(dir)
		if err == nil {
			err = x.Check()
			x.Close()
		}
		if err != nil {
			corrupt++
			t.Errorf("kill %d: the index does not open cleanly: %v\n%s", k+1, err, s.logText())
		}
	}
	s := startKillServer(t, dir)
	s.waitIdle(t)
	resumed += strings.Count(s.logText(), "resuming a batch of documents")
	checked := s.verify(t, m)
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()
	x, err := docindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs := x.Len()
	x.Close()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, l := range m.lost {
		t.Errorf("lost after a 2xx: %s", l)
	}
	t.Logf("%d kills (%d while starting or resuming), %.0f s: documents acknowledged 2xx: %d by PUT, %d by DELETE, %d in batches answered 200, %d in batches answered 202 (%d tasks resumed after a kill); %d ids checked, %d documents in the index; %d lost after a 2xx, %d corrupt indexes",
		kills, atStart, time.Since(start).Seconds(), m.acks["put"], m.acks["delete"], m.acks["batch"], m.acks["task"], resumed, checked, docs, len(m.lost), corrupt)
}

// TestHangup checks that SIGHUP neither stops the server nor goes unlogged: a closed
// terminal, logrotate or "systemctl reload" sends it, and the default action ends the
// process at once (an SRE's helper lost a server so).
func TestHangup(t *testing.T) {
	if testing.Short() {
		t.Skip("starts qsc serve")
	}
	s := startKillServer(t, filepath.Join(t.TempDir(), "idx"))
	defer s.kill()
	if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.logText(), "SIGHUP ignored") {
		if time.Now().After(deadline) {
			t.Fatalf("no log line for SIGHUP:\n%s", s.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, err := http.Get(s.base + "/livez")
	if err != nil {
		t.Fatalf("after SIGHUP: %v\n%s", err, s.logText())
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("after SIGHUP: /livez %d", resp.StatusCode)
	}
}

// TestUnfinishedDocsWarning checks that a server opened over an index whose last --docs
// ingest did not finish (a server stopped or killed while it ran) says so, where before
// it served the part silently.
func TestUnfinishedDocsWarning(t *testing.T) {
	if testing.Short() {
		t.Skip("starts qsc serve")
	}
	dir := filepath.Join(t.TempDir(), "idx")
	x, err := docindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.BeginDocs("/srv/notes"); err != nil {
		t.Fatal(err)
	}
	x.Close()
	s := startKillServer(t, dir)
	defer s.kill()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.logText(), "did not finish") {
		if time.Now().After(deadline) {
			t.Fatalf("no warning of the unfinished ingest:\n%s", s.logText())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
