package main

import (
	"context"
	"errors"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
)

// TestLinked checks what a program that imports only the root package links: the default
// method and the window baseline, and an error that names the import for any other
// method or for the accurate parser.
func TestLinked(t *testing.T) {
	if got, want := qsc.Methods(), []string{qsc.DefaultMethod, "window"}; !slices.Equal(got, want) {
		t.Errorf("Methods() = %v, want %v", got, want)
	}
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	text := "Police in Syracuse arrested two men on Tuesday after a long investigation."
	for _, m := range []string{"", qsc.DefaultMethod, "window"} {
		if _, err := eng.Do(context.Background(), &qsc.Request{Text: text, Query: []string{"Syracuse"}, Budget: 40, Method: m}, false); err != nil {
			t.Errorf("method %q: %v", m, err)
		}
	}
	for m, pkg := range map[string]string{"lr": "method/lr", "random": "method/lr", "ablated": "method/ablated", "nn": "method/nn"} {
		_, err := eng.Do(context.Background(), &qsc.Request{Text: text, Query: []string{"Syracuse"}, Budget: 40, Method: m}, false)
		want := `unknown method "` + m + `" (not linked: import _ "github.com/qsc-nlp/qsc/` + pkg + `")`
		if !errors.Is(err, qsc.ErrUnknownMethod) || !strings.Contains(err.Error(), want) {
			t.Errorf("method %q: %v, want ErrUnknownMethod saying %q", m, err, want)
		}
	}
	_, err = qsc.NewWithOptions(qsc.Options{Accurate: true})
	if want := `import _ "github.com/qsc-nlp/qsc/parser/accurate"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("accurate parser not linked: %v, want an error saying %q", err, want)
	}
}

// TestLanguageData checks that a program that imports only the root package does not
// link language data it does not use: bleve's analyzers and stop word lists (package
// analyzers, an import away), and no identifier library: langid holds the trigram
// profiles of its languages itself, copied from whatlanggo, so whatlanggo's package (all
// its profiles, built at start-up) would be a second copy (docs/languages.md); it links
// the word segmenter, which Compress uses for text that is not English.
func TestLanguageData(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information in this binary")
	}
	var mods []string
	for _, d := range bi.Deps {
		mods = append(mods, d.Path)
		if strings.HasPrefix(d.Path, "github.com/blevesearch/") || strings.HasPrefix(d.Path, "github.com/pemistahl/") ||
			d.Path == "github.com/abadojack/whatlanggo" {
			t.Errorf("the ten-line program links %s", d.Path)
		}
	}
	for _, want := range []string{"github.com/clipperhouse/uax29/v2"} {
		if !slices.Contains(mods, want) {
			t.Errorf("%s is not linked (modules: %v)", want, mods)
		}
	}
}
