// Command heavyprobe is the measuring half of scripts/heavy.sh: while the script's wrk
// posts large documents to a qsc server, it sends one small POST /v1/compress request at a
// time, at a steady pace, and reads the server's resident set size from /proc every
// second; then it goes on for a while after the load to see the memory come back. It
// prints one line per second (RSS, probes answered) and a summary: the peak RSS (sampled,
// and the kernel's high-water mark since the start of the run), the RSS at the end, and
// the latency percentiles and errors of the small requests during the load and after it.
//
//	go run ./scripts/heavyprobe -url http://127.0.0.1:18080 -pid PID -load 25s -after 60s
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// probeBody is the small request: a 17-word sentence, raw text (scripts/compress.lua's).
const probeBody = `{"id":"p","text":"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.","query":["police","Syracuse"],"budget":40}`

func main() {
	url := flag.String("url", "http://127.0.0.1:18080", "the server")
	pid := flag.Int("pid", 0, "the server's process id (for its RSS)")
	load := flag.Duration("load", 25*time.Second, "how long the load runs, from the start of this program")
	after := flag.Duration("after", 60*time.Second, "how long to go on after the load")
	every := flag.Duration("every", 20*time.Millisecond, "pause between two small requests")
	flag.Parse()
	if *pid <= 0 {
		fmt.Fprintln(os.Stderr, "heavyprobe: -pid is required")
		os.Exit(2)
	}
	// Reset the kernel's peak RSS of the server (VmHWM), so that it covers this run only.
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", *pid), []byte("5"), 0); err != nil {
		fmt.Fprintln(os.Stderr, "heavyprobe: cannot reset VmHWM:", err)
	}
	start := time.Now()
	end := start.Add(*load + *after)
	type probe struct {
		at  time.Duration // since start
		lat time.Duration
		err string
	}
	probes := make(chan probe, 1<<16)
	go func() {
		client := &http.Client{Timeout: 30 * time.Second}
		for time.Now().Before(end) {
			t := time.Now()
			p := probe{at: t.Sub(start)}
			resp, err := client.Post(*url+"/v1/compress", "application/json", strings.NewReader(probeBody))
			if err != nil {
				p.err = err.Error()
			} else {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					p.err = fmt.Sprintf("status %d: %s", resp.StatusCode, bytes.TrimSpace(b))
				}
			}
			p.lat = time.Since(t)
			probes <- p
			time.Sleep(*every)
		}
		close(probes)
	}()
	var peak int
	var last int
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for now := range tick.C {
		last = status(*pid, "VmRSS")
		peak = max(peak, last)
		fmt.Printf("t=%3.0fs rss=%d kB probes=%d\n", now.Sub(start).Seconds(), last, len(probes))
		if now.After(end) {
			break
		}
	}
	var during, afterLoad []time.Duration
	var errs []string
	for p := range probes {
		if p.err != "" {
			errs = append(errs, fmt.Sprintf("at %.1fs: %s", p.at.Seconds(), p.err))
		}
		if p.at < *load {
			during = append(during, p.lat)
		} else {
			afterLoad = append(afterLoad, p.lat)
		}
	}
	fmt.Printf("RESULT peak_rss_sampled=%d kB peak_rss_hwm=%d kB rss_at_end=%d kB (%s after the load)\n", peak, status(*pid, "VmHWM"), last, *after)
	fmt.Printf("RESULT small requests during the load: %s\n", summary(during))
	fmt.Printf("RESULT small requests after the load: %s\n", summary(afterLoad))
	fmt.Printf("RESULT small-request errors: %d\n", len(errs))
	for i, e := range errs {
		if i == 10 {
			fmt.Printf("  … %d more\n", len(errs)-10)
			break
		}
		fmt.Println("  " + e)
	}
}

// status returns a field of /proc/PID/status in kB, or -1.
func status(pid int, field string) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// summary gives the count and the latency percentiles of lat.
func summary(lat []time.Duration) string {
	if len(lat) == 0 {
		return "none"
	}
	slices.Sort(lat)
	q := func(p float64) string {
		i := min(len(lat)-1, int(p*float64(len(lat))))
		return fmt.Sprintf("%.1fms", float64(lat[i].Microseconds())/1000)
	}
	return fmt.Sprintf("n=%d p50=%s p90=%s p99=%s max=%s", len(lat), q(0.50), q(0.90), q(0.99), q(1))
}
