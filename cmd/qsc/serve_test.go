package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/server"
)

// TestServeSIGTERM starts `qsc serve`, asks it a question, sends the process SIGTERM and
// checks that the server shuts down cleanly.
func TestServeSIGTERM(t *testing.T) {
	answered := make(chan string, 1)
	serveReady = func(addr string) {
		go func() {
			defer syscall.Kill(os.Getpid(), syscall.SIGTERM)
			ready, err := http.Get("http://" + addr + "/readyz")
			if err != nil {
				answered <- err.Error()
				return
			}
			ready.Body.Close()
			if ready.StatusCode != http.StatusOK {
				answered <- fmt.Sprintf("readyz: %d", ready.StatusCode)
				return
			}
			resp, err := http.Post("http://"+addr+"/v1/compress", "application/json",
				strings.NewReader(`{"id":"1","text":"Police in Syracuse arrested two men.","query":["Syracuse"],"budget":20}`))
			if err != nil {
				answered <- err.Error()
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			answered <- string(b)
		}()
	}
	defer func() { serveReady = nil }()
	code, _, errs := runQSC(t, "serve", "--addr", "127.0.0.1:0", "--no-demo", "--log-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got := <-answered; !strings.Contains(got, `"compression":"`) {
		t.Errorf("answer %s", got)
	}
	for _, want := range []string{`"msg":"listening"`, `"path":"/v1/compress","status":200`, `"msg":"shutting down"`, `"msg":"stopped"`} {
		if !strings.Contains(errs, want) {
			t.Errorf("log lacks %s:\n%s", want, errs)
		}
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--log-format", "xml"},
		{"serve", "--log-level", "loud"},
		{"serve", "--timeout", "0s"},
		{"serve", "--max-in-flight", "-1"},
		{"serve", "extra"},
	} {
		if code, _, _ := runQSC(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// TestProcessors checks the compression slots and GOMAXPROCS that qsc serve sets.
func TestProcessors(t *testing.T) {
	p := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		o                  serveOptions
		inFlight, gomaxprc int
	}{
		{serveOptions{}, p, p},
		{serveOptions{spareProc: true}, p, p + 1},
		{serveOptions{inFlight: 1, spareProc: true}, 1, 2},
		{serveOptions{inFlight: 5}, 5, p},
	} {
		in, procs := processors(c.o)
		if in != c.inFlight || procs != c.gomaxprc {
			t.Errorf("%+v: %d slots, GOMAXPROCS %d; want %d, %d", c.o, in, procs, c.inFlight, c.gomaxprc)
		}
	}
}

// TestServeCollection checks the kind of collection qsc serve tells its page: the demo
// by default, the operator's documents with --index or --docs, none with --no-demo.
func TestServeCollection(t *testing.T) {
	for _, c := range []struct {
		o    serveOptions
		want server.Collection
	}{
		{serveOptions{}, server.CollectionDemo},
		{serveOptions{index: "idx"}, server.CollectionOwn},
		{serveOptions{docs: "notes"}, server.CollectionOwn},
		{serveOptions{index: "idx", docs: "notes"}, server.CollectionOwn},
		{serveOptions{noDemo: true}, server.CollectionNone},
	} {
		if got := c.o.collection(); got != c.want {
			t.Errorf("%+v: collection %d, want %d", c.o, got, c.want)
		}
	}
}

// TestServeEnv checks the QSC_* environment variables of qsc serve: each sets its flag,
// a flag on the command line wins, and a bad value is a usage error naming the variable.
func TestServeEnv(t *testing.T) {
	env := map[string]string{"QSC_MAX_IN_FLIGHT": "3", "QSC_TIMEOUT": "2s", "QSC_YIELD": "false", "QSC_MEMORY_LIMIT": "400000000"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var o serveOptions
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.IntVar(&o.inFlight, "max-in-flight", 0, "")
	fs.DurationVar(&o.timeout, "timeout", time.Second, "")
	fs.BoolVar(&o.yield, "yield", true, "")
	fs.Int64Var(&o.memoryLimit, "memory-limit", 0, "")
	fs.StringVar(&o.addr, "addr", "x", "")
	if err := envFlags(fs, lookup); err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse([]string{"--max-in-flight", "5"}); err != nil {
		t.Fatal(err)
	}
	if o.inFlight != 5 || o.timeout != 2*time.Second || o.yield || o.memoryLimit != 400000000 || o.addr != "x" {
		t.Errorf("options %+v", o)
	}
	if f := fs.Lookup("max-in-flight"); !strings.Contains(f.Usage, "$QSC_MAX_IN_FLIGHT") {
		t.Errorf("usage %q does not name the variable", f.Usage)
	}
	// Through the command: a bad value names the variable.
	t.Setenv("QSC_TIMEOUT", "soon")
	if code, _, errs := runQSC(t, "serve", "--no-demo"); code != 2 || !strings.Contains(errs, `environment variable QSC_TIMEOUT="soon"`) {
		t.Errorf("bad QSC_TIMEOUT: exit %d, %s", code, errs)
	}
	t.Setenv("QSC_TIMEOUT", "0s")
	if code, _, errs := runQSC(t, "serve", "--no-demo"); code != 2 || !strings.Contains(errs, "and --timeout must be positive") {
		t.Errorf("QSC_TIMEOUT=0s: exit %d, %s", code, errs)
	}
}
