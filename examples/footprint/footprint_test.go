//go:build footprint

package main

import (
	"os"
	"os/exec"
	"testing"
)

// TestFootprint runs scripts/footprint.sh on this checkout and prints its table: the size,
// peak RSS and qsc.New time of this program, the size of the qsc binary, and the RSS of
// qsc serve idle and after a request to each method. It is behind the build tag footprint
// because it builds two binaries and starts a server:
//
//	go test -tags footprint -v ./examples/footprint
func TestFootprint(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("footprint needs Linux's /proc")
	}
	cmd := exec.Command("bash", "../../scripts/footprint.sh", "../..")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/footprint.sh: %v\n%s", err, out)
	}
	t.Logf("\n%s", out)
}
