// Command readyprobe measures how soon `qsc serve --index DIR --docs FILE` serves: it
// starts the qsc binary over a new index directory, polls GET /readyz every 5 ms from the
// moment the process is started, and reports the time to the first 200 (time to ready);
// it then searches once every 100 ms while the documents are ingested (until the log's
// "documents ingested" line) and reports those searches (answers, statuses, latency, the
// documents they found growing, and the collection's size from GET /healthz), the time to
// the end of the ingest, and 30 searches after it for comparison. Each run starts
// from an empty index, so that every document is ingested.
//
//	go build -o /tmp/qsc ./cmd/qsc
//	go run ./scripts/readyprobe -bin /tmp/qsc -docs /tmp/ewt5400.jsonl -runs 3
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "qsc", "the qsc binary")
	docs := flag.String("docs", "", "the documents (--docs)")
	runs := flag.Int("runs", 1, "runs, each over a new index")
	query := flag.String("q", "police", "the query of the searches during the ingest")
	flag.Parse()
	if *docs == "" {
		fmt.Fprintln(os.Stderr, "readyprobe: -docs is required")
		os.Exit(2)
	}
	for i := range *runs {
		if err := run(*bin, *docs, *query); err != nil {
			fmt.Fprintf(os.Stderr, "readyprobe: run %d: %v\n", i+1, err)
			os.Exit(1)
		}
	}
}

var listening = regexp.MustCompile(`msg=listening url=(http://[^ ]+)/`)

func run(bin, docs, query string) error {
	dir, err := os.MkdirTemp("", "readyprobe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--index", filepath.Join(dir, "index"), "--docs", docs)
	cmd.Env = append(os.Environ(), "CI=true") // no progress bar
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	base := make(chan string, 1)
	ingested := make(chan time.Duration, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			l := sc.Text()
			if m := listening.FindStringSubmatch(l); m != nil {
				base <- m[1]
			}
			if strings.Contains(l, "documents ingested") {
				ingested <- time.Since(start)
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var url string
	select {
	case url = <-base:
	case <-time.After(30 * time.Second):
		return fmt.Errorf("no listening address after 30 s")
	}
	client := &http.Client{Timeout: 30 * time.Second}
	var ready time.Duration
	for {
		resp, err := client.Get(url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				ready = time.Since(start)
				break
			}
		}
		if time.Since(start) > 5*time.Minute {
			return fmt.Errorf("not ready after 5 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
	var lat []time.Duration
	statuses := map[int]int{}
	var totals []int
	var docCounts []int // the collection's size as the searches saw it grow
	var done time.Duration
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
search:
	for {
		select {
		case done = <-ingested:
			break search
		case <-tick.C:
		}
		t := time.Now()
		resp, err := client.Get(url + "/v1/search?q=" + query + "&k=10")
		if err != nil {
			return err
		}
		var ans struct{ Total int }
		json.NewDecoder(resp.Body).Decode(&ans)
		resp.Body.Close()
		lat = append(lat, time.Since(t))
		statuses[resp.StatusCode]++
		totals = append(totals, ans.Total)
		if resp, err := client.Get(url + "/healthz"); err == nil {
			var h struct{ Documents int }
			json.NewDecoder(resp.Body).Decode(&h)
			resp.Body.Close()
			if len(docCounts) == 0 || docCounts[len(docCounts)-1] != h.Documents {
				docCounts = append(docCounts, h.Documents)
			}
		}
	}
	// The same searches once the ingest is over, for comparison.
	var after []time.Duration
	for range 30 {
		t := time.Now()
		resp, err := client.Get(url + "/v1/search?q=" + query + "&k=10")
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		after = append(after, time.Since(t))
		time.Sleep(50 * time.Millisecond)
	}
	slices.Sort(after)
	fmt.Printf("ready %.3f s, ingested %.1f s", ready.Seconds(), done.Seconds())
	if len(lat) > 0 {
		slices.Sort(lat)
		q := func(p float64) float64 { return lat[int(p*float64(len(lat)-1))].Seconds() * 1000 }
		fmt.Printf("; %d searches during the ingest: statuses %v, p50 %.1f ms, p99 %.1f ms, max %.1f ms, found %d → %d documents; the collection held %d → %d documents (%d sizes seen)",
			len(lat), statuses, q(0.5), q(0.99), q(1), totals[0], totals[len(totals)-1], docCounts[0], docCounts[len(docCounts)-1], len(docCounts))
	}
	fmt.Printf("; after the ingest: p50 %.1f ms, max %.1f ms\n", after[len(after)/2].Seconds()*1000, after[len(after)-1].Seconds()*1000)
	return nil
}
