package main

import (
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/dataset/datasettest"
)

// TestBenchOnFixture times lr and the ILP on the fixture corpus: the ILP with each solver
// of the build (GLPK only with -tags glpk, which bench says), and the ratios of the
// geometric means.
func TestBenchOnFixture(t *testing.T) {
	data := datasettest.Data(t)
	code, stdout, errs := runQSC(t, "bench", "--data", data, "--cache", t.TempDir(), "--samples", "30")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"| lr, paper | compression of a pre-parsed sentence | 30 |", "| ilp (DP), paper | compression of a pre-parsed sentence | 30 |",
		"| ILP (DP) / VA_LR |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("bench output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stdout, "| ilp (GLPK), paper | compression of a pre-parsed sentence | 30 |") && !strings.Contains(stdout, "| ilp (GLPK) | not in this build") {
		t.Errorf("bench says nothing of GLPK:\n%s", stdout)
	}
}

// TestBenchUnknownMethod: an unknown method is a usage error that names it, before bench
// reads the corpora (an empty directory here, which would be an error of its own).
func TestBenchUnknownMethod(t *testing.T) {
	code, _, errs := runQSC(t, "bench", "--data", t.TempDir(), "--cache", t.TempDir(), "--methods", "lr,foo")
	if code != 2 || !strings.Contains(errs, `unknown method "foo"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
}
