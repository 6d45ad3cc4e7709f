package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func init() {
	register(&command{name: "version", summary: "print the qsc version", run: func(args []string, stdout, stderr io.Writer) error {
		fs := newFlags("version", "", stderr)
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		v := "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
		fmt.Fprintf(stdout, "qsc %s\n", v)
		return nil
	}})
}
