package highlight

import (
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2"
	bhl "github.com/blevesearch/bleve/v2/search/highlight"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/qsc-nlp/qsc"
)

// wholePageRow is a row of BenchmarkResultPage that makes whole result pages.
type wholePageRow struct {
	name string
	// page searches for q, at most 10 hits, and goes on as far as the row does: loading the
	// hits' stored documents, highlighting them (3 fragments each). It returns how many hits
	// the page has and their fragments, nil for a row that does not highlight.
	page func(tb testing.TB, q string) (hits int, frags [][]string)
	// highlight, set for the rows that highlight, makes the same fragments from a page
	// already loaded from the annotated index, as the highlighter-only rows do.
	highlight func(p page) [][]string
}

// wholePageRows returns the whole-page rows: the search alone, the search and the loading
// of the documents from an index without annotations (plain) and from one with them
// (annotated), bleve's highlighter bh on plain, h from the stored annotations of annotated
// and h parsing the text of plain.
func wholePageRows(h *Highlighter, bh bhl.Highlighter, annotated, plain bleve.Index) []wholePageRow {
	const k, num = 10, 3
	loaded := func(idx bleve.Index, highlight func(page) [][]string) func(testing.TB, string) (int, [][]string) {
		return func(tb testing.TB, q string) (int, [][]string) {
			p := searchPage(tb, idx, q, k)
			if highlight == nil {
				return len(p.hits), nil
			}
			return len(p.hits), highlight(p)
		}
	}
	bleveHL := func(p page) [][]string { return p.bleveFragments(bh, num) }
	fromAnnotations := func(p page) [][]string { return p.fragments(h, true, num) }
	parsing := func(p page) [][]string { return p.fragments(h, false, num) }
	return []wholePageRow{
		{name: "search", page: func(tb testing.TB, q string) (int, [][]string) { return len(searchHits(tb, plain, q, k)), nil }},
		{name: "load", page: loaded(plain, nil)},
		{name: "load-annotated", page: loaded(annotated, nil)},
		{name: "bleve-html", page: loaded(plain, bleveHL), highlight: bleveHL},
		{name: qsc.DefaultMethod + "/annotations", page: loaded(annotated, fromAnnotations), highlight: fromAnnotations},
		{name: qsc.DefaultMethod + "/parse", page: loaded(plain, parsing), highlight: parsing},
	}
}

// demoIndexes returns the default Engine and the demo collection indexed in memory twice,
// with its annotations and without; tb's cleanup closes both.
func demoIndexes(tb testing.TB) (eng *qsc.Engine, annotated, plain bleve.Index) {
	tb.Helper()
	eng, err := qsc.New()
	if err != nil {
		tb.Fatal(err)
	}
	docs := demoDocs(tb)
	annotated = annotatedIndex(tb, eng, docs, true)
	tb.Cleanup(func() { annotated.Close() })
	plain = annotatedIndex(tb, eng, docs, false)
	tb.Cleanup(func() { plain.Close() })
	return eng, annotated, plain
}

// TestWholePage checks the whole-page rows of BenchmarkResultPage: every row finds the hits
// of each page as searched in the annotated index, and the rows that highlight get the
// fragments of their highlighter-only rows, which highlight the pages loaded from the
// annotated index, with at least one fragment a hit on average; the qsc rows read
// annotations, or parse, as named. It logs the bytes of the stored text and annotations, of
// the collection and of the pages' hits.
func TestWholePage(t *testing.T) {
	eng, annotated, plain := demoIndexes(t)
	h, err := New(eng, Options{Budget: 80, Fragments: 3, Method: qsc.DefaultMethod})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range wholePageRows(h, bleveHTML(t, 80), annotated, plain) {
		hits, n, st0 := 0, 0, h.Stats()
		for _, q := range pageQueries {
			p := searchPage(t, annotated, q, 10)
			nh, got := row.page(t, q)
			if nh != len(p.hits) || nh == 0 {
				t.Errorf("%s, %q: %d hits, want %d", row.name, q, nh, len(p.hits))
			}
			hits += len(p.hits)
			if row.highlight == nil {
				continue
			}
			if want := row.highlight(p); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %q: whole page\n%q\nhighlighter only\n%q", row.name, q, got, want)
			}
			n += countFragments(got)
		}
		if row.highlight != nil && n < hits {
			t.Errorf("%s: %d fragments for %d hits", row.name, n, hits)
		}
		st := h.Stats()
		st = Stats{Annotated: st.Annotated - st0.Annotated, Parsed: st.Parsed - st0.Parsed, Stale: st.Stale - st0.Stale}
		var wantAnnotated bool
		switch row.name {
		case qsc.DefaultMethod + "/annotations":
			wantAnnotated = true
		case qsc.DefaultMethod + "/parse":
		default:
			if st != (Stats{}) {
				t.Errorf("%s: qsc stats %+v", row.name, st)
			}
			continue
		}
		if st.Stale != 0 || (st.Annotated > 0) != wantAnnotated || (st.Parsed > 0) == wantAnnotated {
			t.Errorf("%s: stats %+v", row.name, st)
		}
	}
	var ids, hits []string
	for id := range demoDocs(t) {
		ids = append(ids, id)
	}
	for _, q := range pageQueries {
		for _, hit := range searchHits(t, annotated, q, 10) {
			hits = append(hits, hit.ID)
		}
	}
	for _, set := range []struct {
		name string
		ids  []string
	}{{"demo collection", ids}, {"hits of the pages", hits}} {
		text, ann := storedBytes(t, annotated, set.ids)
		if text == 0 || ann == 0 {
			t.Errorf("%s: %d bytes of text, %d of annotations", set.name, text, ann)
		}
		t.Logf("%s: %d documents, %d bytes of text, %d bytes of annotations (%.2f× the text)", set.name, len(set.ids), text, ann, float64(ann)/float64(text))
	}
}

// storedBytes returns the bytes of the stored values of the field "body" and of its
// annotation field over the documents of idx with the given ids.
func storedBytes(tb testing.TB, idx bleve.Index, ids []string) (text, ann int) {
	tb.Helper()
	for _, id := range ids {
		d, err := idx.Document(id)
		if err != nil || d == nil {
			tb.Fatalf("document %s: %v", id, err)
		}
		d.VisitFields(func(f index.Field) {
			switch f.Name() {
			case "body":
				text += len(f.Value())
			case AnnotationField("body"):
				ann += len(f.Value())
			}
		})
	}
	return text, ann
}
