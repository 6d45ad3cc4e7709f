package internal

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/qsc-nlp/qsc"

// allowed reports whether a package of group from may import the module path imp.
func allowed(from, imp string) bool {
	rel, ok := strings.CutPrefix(imp, module)
	if !ok {
		return true // the standard library or another module
	}
	rel = strings.TrimPrefix(rel, "/")
	group := ""
	if r, ok := strings.CutPrefix(rel, "internal/"); ok {
		group, _, _ = strings.Cut(r, "/")
	}
	switch from {
	case "core":
		return rel != "" && group != "service" && group != "lab"
	case "service":
		return group != "lab"
	case "lab":
		return group != "service"
	}
	return false
}

// TestLayout parses the imports of every Go file below core, service and lab and fails
// for each import that crosses the directions stated in the package doc. A test file may
// also import what a lab package may (the data directory, for tests that need the data).
func TestLayout(t *testing.T) {
	groups := 0
	for _, g := range []string{"core", "service", "lab"} {
		err := filepath.WalkDir(g, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, is := range f.Imports {
				imp, _ := strconv.Unquote(is.Path.Value)
				if !allowed(g, imp) && !(strings.HasSuffix(path, "_test.go") && allowed("lab", imp)) {
					t.Errorf("%s imports %s: a %s package may not", path, imp, g)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		groups++
	}
	if groups != 3 {
		t.Fatalf("checked %d groups, want 3", groups)
	}
}

// TestAllowed checks the rule itself on one import of each kind.
func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		from, imp string
		want      bool
	}{
		{"core", "strings", true},
		{"core", module + "/syntax", true},
		{"core", module, false},
		{"core", module + "/internal/service/wire", false},
		{"core", module + "/internal/lab/ood", false},
		{"service", module, true},
		{"service", module + "/internal/lab/ood", false},
		{"lab", module + "/internal/core/pipeline", true},
		{"lab", module + "/internal/service/docfile", false},
	} {
		if got := allowed(c.from, c.imp); got != c.want {
			t.Errorf("allowed(%q, %q) = %v, want %v", c.from, c.imp, got, c.want)
		}
	}
}

// TestTestingOnlyInTests parses every Go file of the module and fails for a file that is
// not a test and imports "testing", unless its package is a test helper named for it
// (clitest, servicetest: package name ending in "test"). A non-test package that
// imports testing links the test framework into every binary that links it.
func TestTestingOnlyInTests(t *testing.T) {
	files := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != ".." && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, is := range f.Imports {
			if imp, _ := strconv.Unquote(is.Path.Value); imp == "testing" && !strings.HasSuffix(f.Name.Name, "test") {
				t.Errorf("%s (package %s) imports testing: only tests and packages named ...test may", path, f.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no Go file found")
	}
}
