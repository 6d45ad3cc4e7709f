package highlight

import (
	"html"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/registry"
	bhl "github.com/blevesearch/bleve/v2/search/highlight"
	htmlformat "github.com/blevesearch/bleve/v2/search/highlight/format/html"
	simplefrag "github.com/blevesearch/bleve/v2/search/highlight/fragmenter/simple"
	htmlhl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/html"
	simplehl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/simple"

	"github.com/qsc-nlp/qsc"
)

// bleveHTML returns bleve's default highlighter, "html" (the simple highlighter with the
// simple fragmenter, the html formatter and the "…" separator), with fragments of size
// characters instead of its fixed 200. The "html" type reads no config, so this is how a
// bleve user gets it: a fragmenter and a highlighter defined in the registry. The size is
// a float64, as decoded from JSON: the simple fragmenter ignores an int.
func bleveHTML(tb testing.TB, size int) bhl.Highlighter {
	tb.Helper()
	cache := registry.NewCache()
	if _, err := cache.DefineFragmenter("simple-n", map[string]any{"type": simplefrag.Name, "size": float64(size)}); err != nil {
		tb.Fatal(err)
	}
	h, err := cache.DefineHighlighter("html-n", map[string]any{
		"type": simplehl.Name, "fragmenter": "simple-n", "formatter": htmlformat.Name, "separator": simplehl.DefaultSeparator})
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// bleveFragments returns the fragments of every hit of p by the bleve highlighter h, from the
// stored text as an index without annotations stores it (as the parse rows read it).
func (p page) bleveFragments(h bhl.Highlighter, num int) [][]string {
	out := make([][]string, len(p.hits))
	for i, hit := range p.hits {
		out[i] = h.BestFragmentsInField(hit, noAnnotations{p.docs[i]}, "body", num)
	}
	return out
}

// countFragments returns how many fragments frags holds.
func countFragments(frags [][]string) int {
	n := 0
	for _, f := range frags {
		n += len(f)
	}
	return n
}

// resetFragments empties the fragments the highlighters added to the hits of pages, so that
// each row of BenchmarkResultPage starts from bare hits.
func resetFragments(pages []page) {
	for _, p := range pages {
		for _, h := range p.hits {
			h.Fragments = nil
		}
	}
}

// TestBleveHTMLPage checks the bleve-html row of BenchmarkResultPage: at the default size its
// highlighter gives the fragments of bleve's own "html" highlighter, and at 80 characters it
// gives every hit of a demo page at least one fragment of at most 80 characters with a hit
// in <mark>, and some hit more than one (it is asked for 3, as the qsc rows are).
func TestBleveHTMLPage(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	idx := annotatedIndex(t, eng, demoDocs(t), false)
	defer idx.Close()
	builtin, err := bleve.Config.Cache.HighlighterNamed(htmlhl.Name)
	if err != nil {
		t.Fatal(err)
	}
	const q = "police arrested"
	p := searchPage(t, idx, q, 10)
	if len(p.hits) != 10 {
		t.Fatalf("%q: %d hits, want 10", q, len(p.hits))
	}
	if got, want := p.bleveFragments(bleveHTML(t, 200), 3), p.bleveFragments(builtin, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("size 200: %q, want bleve's html highlighter's %q", got, want)
	}
	frags := p.bleveFragments(bleveHTML(t, 80), 3)
	n := 0
	for i, fs := range frags {
		if len(fs) == 0 {
			t.Errorf("hit %s: no fragment", p.hits[i].ID)
		}
		for _, f := range fs {
			text := strings.Trim(strings.NewReplacer("<mark>", "", "</mark>", "").Replace(f), simplehl.DefaultSeparator)
			if r := utf8.RuneCountInString(html.UnescapeString(text)); r > 80 || !strings.Contains(f, "<mark>") {
				t.Errorf("hit %s: fragment of %d characters (or no <mark>): %q", p.hits[i].ID, r, f)
			}
		}
		n += len(fs)
	}
	if n <= len(p.hits) {
		t.Errorf("%d fragments for %d hits: %q", n, len(p.hits), frags)
	}
}
