// Package cputime reads the CPU time of the process, so that benchmarks can report
// throughput per CPU-second on a machine shared with other jobs.
package cputime
