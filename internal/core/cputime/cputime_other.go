//go:build !unix

package cputime

import "time"

// Used returns 0: CPU time is not measured on this platform.
func Used() time.Duration { return 0 }
