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
	for pkg, deps := range publicDeps(t) {
		for _, dep := range deps {
			if strings.HasPrefix(dep, module+"/internal/lab/") {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}

// TestPublicLinksNoService fails for each service package among the dependencies of a
// public package: the library must not depend on the internals of the qsc binary's HTTP
// service, whose wire format and handlers change with it. What both need lives in core
// (internal/core/jsonx for annotation/batch's JSON lines). With TestLayout, which keeps
// core and lab off service, only the commands (cmd/...) and scripts link service.
func TestPublicLinksNoService(t *testing.T) {
	for pkg, deps := range publicDeps(t) {
		for _, dep := range deps {
			if dep == module+"/internal/service" || strings.HasPrefix(dep, module+"/internal/service/") {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}

// publicDeps returns the dependencies (go list's Deps: every package linked, not those of
// tests) of each public package of the module. It skips the test when go list cannot run
// and fails it when the listing has no public package or lacks the root package qsc.
func publicDeps(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", module+"/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 || !isPublic(fields[0]) {
			continue
		}
		deps[fields[0]] = fields[1:]
	}
	if _, root := deps[module]; len(deps) == 0 || !root {
		t.Fatalf("go list gave %d public packages, the root package qsc among them: %t", len(deps), root)
	}
	return deps
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
