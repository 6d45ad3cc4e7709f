package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// serveReal serves s on a real loopback listener until stop is called or the test ends,
// and returns its address; stop shuts the server down and returns Serve's error.
func serveReal(t *testing.T, s *Server) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	stop = sync.OnceValue(func() error {
		cancel()
		return <-done
	})
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String(), stop
}

// readAnswer reads one HTTP answer from conn and checks that it is a JSON error with the
// security headers and status want; it returns the error message.
func readAnswer(t *testing.T, conn net.Conn, want int) string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	var e errorBody
	if resp.StatusCode != want || json.Unmarshal(body, &e) != nil || e.Error == "" {
		t.Fatalf("answer %d %q, want %d and a JSON error", resp.StatusCode, body, want)
	}
	for h, v := range map[string]string{"Content-Type": "application/json", "X-Content-Type-Options": "nosniff",
		"Content-Security-Policy": contentSecurityPolicy, "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"} {
		if got := resp.Header.Get(h); got != v {
			t.Errorf("%d answer: %s %q, want %q", want, h, got, v)
		}
	}
	return e.Error
}

// TestSlowBody sends the header of a request at once and then its body one byte every
// 100 ms, through a real listener: the body takes longer than the request's deadline, so
// the client must get a JSON 408 at the deadline, not a closed connection.
func TestSlowBody(t *testing.T) {
	const timeout = 400 * time.Millisecond
	s, err := New(Config{Engine: servicetest.Engine(t), Index: index(t), RequestTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := serveReal(t, s)
	for _, path := range []string{"/v1/compress", "/v1/snippets"} {
		// The server's clock starts when it has the connection or the headers, so the
		// test's starts before it dials: the 408 can never seem to come early.
		start := time.Now()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		body := `{"id":"s","text":"Dogs bark loudly at night.","query":["dogs"],"budget":10}`
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, len(body))
		stop := make(chan struct{})
		go func() { // dribble the body
			for i := range len(body) {
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
				}
				if _, err := conn.Write([]byte{body[i]}); err != nil {
					return
				}
			}
		}()
		msg := readAnswer(t, conn, http.StatusRequestTimeout)
		close(stop)
		conn.Close()
		t.Logf("%s: 408 after %s", path, time.Since(start))
		if took := time.Since(start); took < timeout || took > timeout+3*time.Second {
			t.Errorf("%s: the 408 came after %s, want about %s", path, took, timeout)
		}
		if !strings.Contains(msg, "did not arrive within 400ms") {
			t.Errorf("%s: 408 %q", path, msg)
		}
	}
}

// TestGoErrorsAreJSON checks, through a real listener, that the answers net/http gives
// itself before any handler runs (header fields too large, a malformed request) are JSON
// errors with the security headers, and that the server goes on.
func TestGoErrorsAreJSON(t *testing.T) {
	s, err := New(Config{Engine: servicetest.Engine(t), Index: index(t)})
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := serveReal(t, s)
	for _, c := range []struct {
		name, request string
		status        int
		msg           string
	}{
		{"header fields over 64 KiB", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 80<<10) + "\r\n\r\n",
			http.StatusRequestHeaderFieldsTooLarge, "header fields are larger than 65536 bytes"},
		{"malformed header", "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n", http.StatusBadRequest, "a header field is malformed"},
		{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", http.StatusBadRequest, "missing required Host header"},
		{"unsupported transfer encoding", "POST /v1/compress HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", http.StatusNotImplemented, "Unsupported transfer encoding"},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		go io.WriteString(conn, c.request) // the server may answer before it has read it all
		if msg := readAnswer(t, conn, c.status); !strings.Contains(msg, c.msg) {
			t.Errorf("%s: %q, want it to contain %q", c.name, msg, c.msg)
		}
		conn.Close()
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("healthz after the errors: %d", resp.StatusCode)
	}
}

// TestCannedError checks the recognition of net/http's own answers: only the exact form
// net/http writes, never an answer with other header fields.
func TestCannedError(t *testing.T) {
	for _, c := range []struct {
		in     string
		status int
		ok     bool
	}{
		{"HTTP/1.1 431 Request Header Fields Too Large" + cannedHeaders + "431 Request Header Fields Too Large", 431, true},
		{"HTTP/1.1 400 Bad Request: missing required Host header" + cannedHeaders + "400 Bad Request: missing required Host header", 400, true},
		{"HTTP/1.1 400 Bad Request\r\nDate: Mon, 01 Jan 2026 00:00:00 GMT" + cannedHeaders + "x", 0, false},
		{"HTTP/1.1 200 OK" + cannedHeaders + "fine", 0, false},
		{"HTTP/1.1 4x1 Bad" + cannedHeaders, 0, false},
		{`{"error":"x"}`, 0, false},
	} {
		status, _, ok := cannedError([]byte(c.in))
		if ok != c.ok || status != c.status {
			t.Errorf("%.50q: %d %t, want %d %t", c.in, status, ok, c.status, c.ok)
		}
	}
}
