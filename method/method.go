// Package method is the registry of compression methods: each method's name, the embedded
// model file it reads and how to open it. The library (qsc.Engine), the CLI's compress,
// eval and bench commands, and the HTTP service all open methods here.
//
// A method lives in its own package below this one, which embeds its model file and
// registers itself from init, as image/png registers a format with package image:
//
//	import _ "github.com/qsc-nlp/qsc/method/nn" // VERTEX ADDITION_NN, 15.8 MB
//
// A program links only the methods it imports. The root package qsc imports the default
// method (method/ilp); package github.com/qsc-nlp/qsc/all imports every method. This
// package itself registers the methods that read no file: the window baseline and the
// static oracle (evaluation only). Opening a method that the program does not link fails
// with an error that names the import.
package method

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/model"
)

// Entry describes one method.
type Entry struct {
	// Name is the method's name in requests ("lr", "ilp", …).
	Name string
	// File is the embedded model file the method reads ("" for none); the package that
	// registers the method also registers the file (modelfile.Register).
	File string
	// Summary is a one-line description, for help texts.
	Summary string
	// Public is false for methods a user request may not name: the evaluation-only
	// entries (the oracle needs gold; the ILP variants of the paper's Table 2).
	Public bool
	// Open builds the method from the model file's bytes (nil when File is "").
	Open func(data []byte, seed uint64) (model.Method, error)
	// MaxTokens is the longest sentence, in tokens, that a request to the library or the
	// service may give the method (0: only the library's general limit). It bounds the
	// time of a method whose cost grows faster than the sentence.
	MaxTokens int
}

// Import paths of the packages of this module that register methods, in the order help
// texts and reports list the methods; a registered method not listed here comes after
// them, by name.
var known = []struct{ name, pkg string }{
	{model.NameLR, "github.com/qsc-nlp/qsc/method/lr"},
	{model.NameAblated, "github.com/qsc-nlp/qsc/method/ablated"},
	{model.NameRandom, "github.com/qsc-nlp/qsc/method/lr"},
	{"nn", "github.com/qsc-nlp/qsc/method/nn"},
	{"ilp", "github.com/qsc-nlp/qsc/method/ilp"},
	{"ilp-unconstrained", "github.com/qsc-nlp/qsc/method/ilp"},
	{"ilp-root-query", "github.com/qsc-nlp/qsc/method/ilp"},
	{model.NameWindow, "github.com/qsc-nlp/qsc/method"},
	{model.NameOracle, "github.com/qsc-nlp/qsc/method"},
}

var (
	mu      sync.RWMutex
	entries []Entry // in the order of known, then by name
)

// Register adds a method. It is meant to be called from the init function of the
// method's package, and panics, as database/sql.Register does, when the name is empty or
// already registered or Open is nil: two packages claiming one name is a programming
// error.
func Register(e Entry) {
	if e.Name == "" || e.Open == nil {
		panic(fmt.Sprintf("method: Register of %q without a name or an Open function", e.Name))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, o := range entries {
		if o.Name == e.Name {
			panic(fmt.Sprintf("method: Register called twice for method %q", e.Name))
		}
	}
	entries = append(entries, e)
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(rank(a.Name), rank(b.Name)), strings.Compare(a.Name, b.Name))
	})
}

// rank is the position of name in known, or len(known) for another method.
func rank(name string) int {
	for i, k := range known {
		if k.name == name {
			return i
		}
	}
	return len(known)
}

func init() {
	Register(Entry{Name: model.NameWindow, Public: true,
		Summary: "window: Q, then the tokens nearest to Q while they fit (a search engine's highlighter; the baseline)",
		Open:    func([]byte, uint64) (model.Method, error) { return model.Window{}, nil }})
	Register(Entry{Name: model.NameOracle, Summary: "the static oracle: keeps exactly the gold tokens (evaluation only)",
		Open: func([]byte, uint64) (model.Method, error) { return model.Oracle{}, nil }})
}

// All returns every registered method, in the order of help texts and reports.
func All() []Entry {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(entries)
}

// find returns the registered method called name, without copying the registry.
func find(name string) (Entry, bool) {
	mu.RLock()
	defer mu.RUnlock()
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Names returns the names of the registered methods; public only leaves out the
// evaluation-only methods.
func Names(public bool) []string {
	var out []string
	for _, e := range All() {
		if e.Public || !public {
			out = append(out, e.Name)
		}
	}
	return out
}

// Lookup returns the entry called name. For a method of this module that the program does
// not link, the error, which wraps model.ErrUnknownMethod, names the package to import.
func Lookup(name string) (Entry, error) {
	if e, ok := find(name); ok {
		return e, nil
	}
	if pkg := NotLinked(name); pkg != "" {
		return Entry{}, fmt.Errorf("%w %q (not linked: import _ %q)", model.ErrUnknownMethod, name, pkg)
	}
	return Entry{}, fmt.Errorf("%w %q (want one of %s)", model.ErrUnknownMethod, name, strings.Join(Names(false), ", "))
}

// NotLinked returns the import path of the package of this module that registers the
// method called name when the program does not link it, and "" when the method is
// registered or unknown.
func NotLinked(name string) string {
	if _, ok := find(name); ok {
		return ""
	}
	for _, k := range known {
		if k.name == name {
			return k.pkg
		}
	}
	return ""
}

// Open opens the method called name from data, or from its embedded model file when data
// is nil.
func Open(name string, data []byte, seed uint64) (model.Method, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if data == nil && e.File != "" {
		if data, err = modelfile.Embedded(e.File); err != nil {
			return nil, fmt.Errorf("method %s: %w", name, err)
		}
		defer modelfile.Release(e.File) // decoded: its pages can go
	}
	m, err := e.Open(data, seed)
	if err != nil {
		return nil, fmt.Errorf("method %s: %w", name, err)
	}
	return m, nil
}
