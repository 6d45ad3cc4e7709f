// Command footprint is the ten-line program of the footprint figures (scripts/footprint.sh):
// it calls qsc.New and Compress once, and prints the time of New and the peak RSS.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc"
)

func main() {
	t0 := time.Now()
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	newTime := time.Since(t0)
	res, err := eng.Compress(context.Background(),
		"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.",
		[]string{"police", "Syracuse"}, 40)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("compression\t%s\nnew_ms\t%.1f\nvmhwm_kb\t%s\n", res.Compression, float64(newTime.Microseconds())/1000, vmHWM())
}

// vmHWM returns the peak resident set size, in kB, from /proc/self/status ("?" elsewhere).
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))
		}
	}
	return "?"
}
