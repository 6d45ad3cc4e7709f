package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
)

func init() {
	prog.Register(&cli.Command{Name: "version", Summary: "print the qsc version, its VCS revision and the embedded models' SHA-256", Run: runVersion})
}

// runVersion prints the module and its version, the VCS revision the binary was built
// from (runtime/debug.ReadBuildInfo: "unknown" outside a checkout, e.g. go run of a module
// copy, and "+modified" when the tree had changes), the Go version, and each embedded
// model file with the SHA-256 of its bytes (as sha256sum internal/core/pipeline/*.qsm parser/accurate/*.qsm method/*/*.qsm prints them).
func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("version", "", stderr)
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	module, version, goVersion := "github.com/qsc-nlp/qsc", "(devel)", "unknown"
	revision, when, modified := "unknown", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	fmt.Fprintf(stdout, "qsc %s\nmodule %s\n", version, module)
	if modified {
		revision += "+modified"
	}
	if when != "" {
		revision += " (" + when + ")"
	}
	fmt.Fprintf(stdout, "revision %s\ngo %s\nmodels:\n", revision, goVersion)
	for _, name := range modelfile.EmbeddedNames() {
		b, err := modelfile.Embedded(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  %-28s sha256:%x\n", name, sha256.Sum256(b))
	}
	return nil
}
