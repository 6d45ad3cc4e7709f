//go:build !linux

package server

// osYield does nothing outside Linux: Config.YieldCPU has no effect there.
func osYield() {}
