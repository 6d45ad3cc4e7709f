package internal

import (
	"os/exec"
	"strings"
	"testing"
)

// TestProductLinksNoLab lists the dependencies of every public package of the module (the
// root package qsc, method/..., annotation/..., every package not under internal, cmd or
// scripts) and fails for each lab package among them: the library that users import must
// not link the lab's training data and evaluation. The trainers take their validation
// scorer from their caller for this (ilp.TrainConfig.Score, lr.TrainConfig.Score).
func TestProductLinksNoLab(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", module+"/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	public, root := 0, false
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 || !isPublic(fields[0]) {
			continue
		}
		public++
		root = root || fields[0] == module
		for _, dep := range fields[1:] {
			if strings.HasPrefix(dep, module+"/internal/lab/") {
				t.Errorf("%s links %s", fields[0], dep)
			}
		}
	}
	if public == 0 || !root {
		t.Fatalf("go list gave %d public packages, the root package qsc among them: %t", public, root)
	}
}

// isPublic reports whether the package path pkg of the module is one that a user can
// import as a library: not under internal, cmd or scripts.
func isPublic(pkg string) bool {
	rel, ok := strings.CutPrefix(pkg, module)
	if !ok {
		return false
	}
	for _, dir := range []string{"/internal", "/cmd", "/scripts"} {
		if rel == dir || strings.HasPrefix(rel, dir+"/") {
			return false
		}
	}
	return true
}
