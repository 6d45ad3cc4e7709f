// Package evalflags holds the flags that qsc bench and qsc-lab eval share to run methods
// on the test tuples: the data directory, the parse cache, the seed, the ILP solver, the
// tagger and parser, and a model file per method.
package evalflags

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/ilp"
)

// Env is what the flags choose. Seed and Solver are set by parsing the flags; DataDir,
// CacheDir and Pipe by Setup.
type Env struct {
	Seed   *uint64
	Solver *string // ILP solver backend
	Models *cli.ModelFlags

	DataDir, CacheDir string
	Pipe              *pipeline.Pipeline

	data, cache *string
	files       map[string]*string // method file → model file flag
}

// Add defines the flags on fs: --data, --cache, --seed, --ilp-solver, the model flags
// of cli.AddModelFlags, and one flag per method model file (named for its first method).
func Add(fs *flag.FlagSet) *Env {
	e := &Env{
		data:   fs.String("data", "", "data directory (default: ../shared/data beside the repository, or $QSC_DATA)"),
		cache:  fs.String("cache", "", "parse cache directory (default: $QSC_CACHE or the user cache directory)"),
		Seed:   fs.Uint64("seed", 1, "seed of the test queries, the random method and the latency samples"),
		files:  map[string]*string{},
		Solver: fs.String("ilp-solver", ilp.DP, "solver of the ILP methods: "+strings.Join(ilp.Backends(), " or ")+" (glpk only in a build with -tags glpk)"),
	}
	seen := map[string]bool{}
	for _, m := range method.All() {
		if m.File == "" || seen[m.File] {
			continue
		}
		seen[m.File] = true
		e.files[m.File] = fs.String(m.Name, "", m.Name+" model file (default: the embedded "+m.File+")")
	}
	e.Models = cli.AddModelFlags(fs)
	return e
}

// Setup finds the data directory (a usage error when there is none) and the parse
// cache, and loads the tagger and parser.
func (e *Env) Setup() error {
	if e.DataDir = *e.data; e.DataDir == "" {
		if e.DataDir = shared.DataDir(); e.DataDir == "" {
			return cli.Usagef("no data directory: pass --data DIR or set QSC_DATA")
		}
	}
	if e.CacheDir = *e.cache; e.CacheDir == "" {
		d, err := parsecache.Dir()
		if err != nil {
			return err
		}
		e.CacheDir = d
	}
	var err error
	e.Pipe, err = e.Models.Pipeline()
	return err
}

// CheckMethods checks a comma-separated list of method names before any work (Setup
// reads models and data): an unknown name is a usage error.
func CheckMethods(list string) error {
	for _, name := range strings.Split(list, ",") {
		if _, err := method.Lookup(strings.TrimSpace(name)); err != nil {
			return cli.Usagef("%v", err)
		}
	}
	return nil
}

// Method opens a method by name from the embedded files or the flags' files, an ILP
// with the chosen solver. An unknown name is a usage error.
func (e *Env) Method(name string) (method.Method, error) {
	ent, err := method.Lookup(name)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	var data []byte
	if p := e.files[ent.File]; p != nil && *p != "" {
		if data, err = os.ReadFile(*p); err != nil {
			return nil, fmt.Errorf("method %s: %w", name, err)
		}
	}
	m, err := method.Open(name, data, *e.Seed)
	if im, ok := m.(*ilp.Model); ok && err == nil && *e.Solver != "" {
		return im.WithBackend(*e.Solver)
	}
	return m, err
}

// Test loads the test tuples of variant v (evaluate.LoadTest), parsing them into the
// cache when it lacks them.
func (e *Env) Test(v parsecache.Variant) (*evaluate.Test, error) {
	return evaluate.LoadTest(context.Background(), e.DataDir, e.CacheDir, e.Pipe, v, *e.Seed)
}
