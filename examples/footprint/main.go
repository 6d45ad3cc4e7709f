// Command footprint is the ten-line program of the footprint figures (scripts/footprint.sh,
// MODELS.md): it calls qsc.New and Compress once, and prints the compression, the time of
// New and the peak resident set size (getrusage's maxrss: kB on Linux).
package main

import (
	"context"
	"fmt"
	"log"
	"syscall"
	"time"

	"github.com/qsc-nlp/qsc"
)

func main() {
	start := time.Now()
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	newTime := time.Since(start)
	res, err := eng.Compress(context.Background(), "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.", []string{"police", "Syracuse"}, 40)
	if err != nil {
		log.Fatal(err)
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("compression\t%s\nnew_ms\t%.1f\nvmhwm_kb\t%d\n", res.Compression, float64(newTime.Microseconds())/1000, ru.Maxrss)
}
