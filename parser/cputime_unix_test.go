//go:build unix

package parser

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) used by the process so far, so that the
// benchmarks can report throughput per CPU-second on a machine shared with other jobs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
