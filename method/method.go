// Package method is the one answer to "what is a compression method and how do I get
// one". It defines what every method shares: the problem (Input), the Method interface (a
// va.Decider that VERTEX ADDITION asks about each candidate, or a Solver that chooses the
// whole compression at once), the decodings, and a Compressor that runs any Method. It
// also keeps the registry: each method's name, the embedded model file it reads and how to
// open it. The library (qsc.Engine), the CLI and the HTTP service all open methods here.
//
// A method lives in its own package below this one, which embeds its model file and
// registers itself from init, as image/png registers a format with package image:
//
//	import _ "github.com/qsc-nlp/qsc/method/nn" // VERTEX ADDITION_NN, 15.8 MB
//
// A program links only the methods it imports. The root package qsc imports the default
// method (method/ilp) and the baselines (method/baseline: window, random, oracle);
// package github.com/qsc-nlp/qsc/all imports every method. Opening a method that the
// program does not link fails with an error that wraps ErrUnknownMethod and names the
// import.
//
// Methods are read-only and can be shared by goroutines; a Compressor cannot.
package method

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
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
	Open func(data []byte, seed uint64) (Method, error)
	// MaxTokens is the longest sentence, in tokens, that a request to the library or the
	// service may give the method (0: only the library's general limit). It bounds the
	// time of a method whose cost grows faster than the sentence.
	MaxTokens int
	// Needs names the method this one opens to build itself ("" for none): RANDOM reads
	// its marginal from VA_LR. A method whose Needs is not linked counts as not linked.
	Needs string
}

// Import paths of the packages of this module that register methods, in the order help
// texts and reports list the methods; a registered method not listed here comes after
// them, by name.
var known = []struct{ name, pkg string }{
	{NameLR, "github.com/qsc-nlp/qsc/method/lr"},
	{NameAblated, "github.com/qsc-nlp/qsc/method/ablated"},
	{"random", "github.com/qsc-nlp/qsc/method/baseline"},
	{"nn", "github.com/qsc-nlp/qsc/method/nn"},
	{"ilp", "github.com/qsc-nlp/qsc/method/ilp"},
	{"ilp-unconstrained", "github.com/qsc-nlp/qsc/method/ilp"},
	{"ilp-root-query", "github.com/qsc-nlp/qsc/method/ilp"},
	{"window", "github.com/qsc-nlp/qsc/method/baseline"},
	{"oracle", "github.com/qsc-nlp/qsc/method/baseline"},
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

// All returns every registered method, in the order of help texts and reports.
func All() []Entry {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if linked(e) {
			out = append(out, e)
		}
	}
	return out
}

// find returns the registered method called name whose Needs is linked, without copying
// the registry.
func find(name string) (Entry, bool) {
	mu.RLock()
	defer mu.RUnlock()
	if e, ok := registered(name); ok && linked(e) {
		return e, true
	}
	return Entry{}, false
}

// registered returns the entry called name; the caller holds mu.
func registered(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// linked reports whether the method e needs is registered; the caller holds mu.
func linked(e Entry) bool {
	if e.Needs == "" {
		return true
	}
	n, ok := registered(e.Needs)
	return ok && n.Needs == ""
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
// not link, the error, which wraps ErrUnknownMethod, names the package to import.
func Lookup(name string) (Entry, error) {
	if e, ok := find(name); ok {
		return e, nil
	}
	if pkg := NotLinked(name); pkg != "" {
		return Entry{}, fmt.Errorf("%w %q (not linked: import _ %q)", ErrUnknownMethod, name, pkg)
	}
	return Entry{}, fmt.Errorf("%w %q (want one of %s)", ErrUnknownMethod, name, strings.Join(Names(false), ", "))
}

// NotLinked returns the import path of the package of this module that registers the
// method called name, or the method it needs, when the program does not link it, and ""
// when the method is linked or unknown.
func NotLinked(name string) string {
	if _, ok := find(name); ok {
		return ""
	}
	mu.RLock()
	e, ok := registered(name)
	mu.RUnlock()
	if ok { // registered, but what it needs is not
		return NotLinked(e.Needs)
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
func Open(name string, data []byte, seed uint64) (Method, error) {
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

// Score is the quality of a method's compressions of validation inputs, as a trainer
// reads it to choose among its models (an epoch, a regularisation constant, a threshold).
type Score struct {
	// F1 and CR are the mean token F1 against the gold compressions and the mean
	// compression ratio over the inputs (package metrics).
	F1, CR float64
	// PerCR are the per-input compression ratios, in input order; a trainer that needs
	// them says so, and may otherwise find them nil.
	PerCR []float64
}

// Scorer compresses every validation input with m under the decoding dec and returns the
// quality of the compressions; an error when an input cannot be compressed or scored. It
// must be deterministic (what a trainer chooses depends on its values) and may not modify
// m or valid. Its cost is that of compressing every input once. The trainers of the
// product's methods (ilp.TrainConfig.Score, lr.TrainConfig.Score) take it from their
// caller, so that the library does not link the lab's evaluation; qsc-lab passes that.
type Scorer func(m Method, dec Decoding, valid []Input) (Score, error)
