package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestProductDeps checks that the qsc binary links none of the lab's figure code: no
// gonum module and no internal/lab/report, nor the out-of-domain set (internal/lab/ood); those are
// qsc-lab's. Nor does it link package testing, the test framework.
func TestProductDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "gonum.org/") || strings.HasSuffix(dep, "/internal/lab/report") || strings.HasSuffix(dep, "/internal/lab/ood") || dep == "testing" {
			t.Errorf("qsc links %s", dep)
		}
	}
}
