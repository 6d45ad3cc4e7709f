package highlight

import (
	"context"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/service/demo"
)

// annotatedIndex indexes docs (id → text) in memory, in the stored text field "body", with
// the body's annotation when annotate is set.
func annotatedIndex(tb testing.TB, eng *qsc.Engine, docs map[string]any, annotate bool) bleve.Index {
	tb.Helper()
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = "en"
	dm := bleve.NewDocumentStaticMapping()
	body := mapping.NewTextFieldMapping()
	body.Store = true
	dm.AddFieldMappingsAt("body", body)
	MapAnnotation(dm, "body")
	m.DefaultMapping = dm
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil) // path "": in memory
	if err != nil {
		tb.Fatal(err)
	}
	b := idx.NewBatch()
	for id, text := range docs {
		doc := map[string]any{"body": text}
		if annotate {
			if err := AddAnnotations(context.Background(), eng, doc, "body"); err != nil {
				tb.Fatal(err)
			}
		}
		if err := b.Index(id, doc); err != nil {
			tb.Fatal(err)
		}
	}
	if err := idx.Batch(b); err != nil {
		tb.Fatal(err)
	}
	return idx
}

// page is the first page of a search: its hits and their stored documents.
type page struct {
	hits []*search.DocumentMatch
	docs []index.Document
}

// searchHits returns the first k hits of a search of idx for query, with the locations of
// their terms, best first (ties by id).
func searchHits(tb testing.TB, idx bleve.Index, query string, k int) search.DocumentMatchCollection {
	tb.Helper()
	req := bleve.NewSearchRequestOptions(bleve.NewMatchQuery(query), k, 0, false)
	req.IncludeLocations = true
	req.SortBy([]string{"-_score", "_id"})
	res, err := idx.Search(req)
	if err != nil {
		tb.Fatal(err)
	}
	return res.Hits
}

// searchPage returns the first page of k hits of a search of idx for query, with their
// stored documents.
func searchPage(tb testing.TB, idx bleve.Index, query string, k int) page {
	tb.Helper()
	var p page
	for _, h := range searchHits(tb, idx, query, k) {
		d, err := idx.Document(h.ID)
		if err != nil {
			tb.Fatal(err)
		}
		p.hits, p.docs = append(p.hits, h), append(p.docs, d)
	}
	return p
}

// noAnnotations hides the stored annotations of a document: the highlighter parses.
type noAnnotations struct{ index.Document }

func (d noAnnotations) VisitFields(visit index.FieldVisitor) {
	d.Document.VisitFields(func(f index.Field) {
		if !strings.HasSuffix(f.Name(), AnnotationSuffix) {
			visit(f)
		}
	})
}

// fragments returns the fragments of every hit of p, from the stored annotations or not.
func (p page) fragments(h *Highlighter, annotated bool, num int) [][]string {
	out := make([][]string, len(p.hits))
	for i, hit := range p.hits {
		var d index.Document = p.docs[i]
		if !annotated {
			d = noAnnotations{d}
		}
		out[i] = h.BestFragmentsInField(hit, d, "body", num)
	}
	return out
}

func demoDocs(tb testing.TB) map[string]any {
	tb.Helper()
	ds, err := demo.Load()
	if err != nil {
		tb.Fatal(err)
	}
	docs := make(map[string]any, len(ds))
	for _, d := range ds {
		docs[d.ID] = d.Text
	}
	return docs
}

// pageQueries are searches of the demo collection.
var pageQueries = []string{"police arrested", "court appeal", "president election", "fire killed", "company shares profit", "storm weather", "minister said"}

// TestAnnotatedFragments checks that the fragments from stored annotations are those from
// parsing, over result pages of the demo collection.
func TestAnnotatedFragments(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	idx := annotatedIndex(t, eng, demoDocs(t), true)
	defer idx.Close()
	h, err := New(eng, Options{Budget: 80})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, q := range pageQueries {
		p := searchPage(t, idx, q, 10)
		parsed := p.fragments(h, false, 3)
		annotated := p.fragments(h, true, 3)
		if !reflect.DeepEqual(parsed, annotated) {
			t.Errorf("%q: fragments differ:\nparsed:    %q\nannotated: %q", q, parsed, annotated)
		}
		for _, f := range parsed {
			n += len(f)
		}
	}
	st := h.Stats()
	if st.Annotated == 0 || st.Annotated != st.Parsed || st.Stale != 0 || n < len(pageQueries)*10 {
		t.Errorf("stats %+v, %d fragments", st, n)
	}
}

// TestStaleAnnotations checks that an annotation of another text, a corrupt one, and one
// of other models are ignored: the field is parsed, with the same fragments.
func TestStaleAnnotations(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	text := "Police in Syracuse arrested two men on Tuesday after a long investigation. Both men were released on bail."
	good, err := Annotate(context.Background(), eng, text)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Annotate(context.Background(), eng, strings.Replace(text, "two", "six", 1))
	if err != nil {
		t.Fatal(err)
	}
	acc, err := qsc.NewWithOptions(qsc.Options{Accurate: true})
	if err != nil {
		t.Fatal(err)
	}
	accurate, err := Annotate(context.Background(), acc, text)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := []byte(good)
	corrupt[len(corrupt)/2] ^= 1
	h, err := New(eng, Options{Budget: 50})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i, ann := range []string{good, other, string(corrupt), accurate, "not an annotation"} {
		idx := annotatedIndex(t, eng, nil, false)
		doc := map[string]any{"body": text, AnnotationField("body"): ann}
		if err := idx.Index("d", doc); err != nil {
			t.Fatal(err)
		}
		p := searchPage(t, idx, "police arrested bail", 1)
		idx.Close()
		got := p.fragments(h, true, 2)[0]
		if i == 0 {
			want = got
			if len(want) == 0 {
				t.Fatal("no fragments")
			}
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("annotation %d: %q, want %q", i, got, want)
		}
	}
	if st := h.Stats(); st != (Stats{Annotated: 1, Stale: 4}) {
		t.Errorf("stats %+v, want 1 annotated and 4 stale", st)
	}
}

// TestAnnotatedArrays checks a field of several values: each value has its annotation.
func TestAnnotatedArrays(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	vals := []string{"The storm closed schools on Monday.", "Police arrested two men after the storm damaged a bank."}
	idx := annotatedIndex(t, eng, map[string]any{"d": vals}, true)
	defer idx.Close()
	h, err := New(eng, Options{Budget: 40})
	if err != nil {
		t.Fatal(err)
	}
	p := searchPage(t, idx, "storm", 1)
	if got, want := p.fragments(h, true, 2), p.fragments(h, false, 2); !reflect.DeepEqual(got, want) || len(got[0]) != 2 {
		t.Errorf("fragments %q, want %q (two)", got, want)
	}
	if st := h.Stats(); st.Annotated != 2 || st.Parsed != 2 || st.Failed != 0 {
		t.Errorf("stats %+v", st)
	}
	// A budget no snippet fits: no fragment, and a failure counted for each value.
	tiny, err := New(eng, Options{Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.fragments(tiny, true, 2); len(got[0]) != 0 {
		t.Errorf("fragments in 3 characters: %q", got)
	}
	if st := tiny.Stats(); st.Failed != 2 {
		t.Errorf("a budget no snippet fits: stats %+v, want 2 failed", st)
	}
	if err := AddAnnotations(context.Background(), eng, map[string]any{"n": 3}, "n"); err == nil {
		t.Error("AddAnnotations of a number: no error")
	}
}

// TestAddAnnotationsShapes checks the documents AddAnnotations takes as encoding/json
// decodes them: a list as []any, a field of a sub-document by its path, a field the
// document lacks skipped, and a list with a value that is no string refused.
func TestAddAnnotationsShapes(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want, err := Annotate(ctx, eng, "The storm hit the coast.")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{
		"tags":    []any{"The storm hit the coast.", "The storm hit the coast."},
		"article": map[string]any{"body": "The storm hit the coast."},
	}
	if err := AddAnnotations(ctx, eng, doc, "tags", "article.body", "summary", "article.lead"); err != nil {
		t.Fatal(err)
	}
	if got, ok := doc["tags"+AnnotationSuffix].([]string); !ok || !reflect.DeepEqual(got, []string{want, want}) {
		t.Errorf("list: %T", doc["tags"+AnnotationSuffix])
	}
	if got := doc["article"].(map[string]any)["body"+AnnotationSuffix]; got != want {
		t.Errorf("sub-document's field: %T, want its annotation beside it", got)
	}
	if _, ok := doc["summary"+AnnotationSuffix]; ok {
		t.Error("a field the document lacks got an annotation")
	}
	if err := AddAnnotations(ctx, eng, map[string]any{"tags": []any{"x", 3}}, "tags"); err == nil || !strings.Contains(err.Error(), "value 2") {
		t.Errorf("a list with a number: %v", err)
	}
}

// cpuTime returns the CPU time of the process so far (user and system).
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuPerPage runs the loop of a row of BenchmarkResultPage, where page(i) makes the i-th
// page and returns how many fragments it got, and reports the process's CPU time per page
// (cpu-µs/page), the fragments per page (fragments/page) and the allocations per page.
func cpuPerPage(b *testing.B, page func(i int) int) {
	b.ReportAllocs()
	runtime.GC()
	cpu0, i, n := cpuTime(b), 0, 0
	for b.Loop() {
		n += page(i)
		i++
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/page")
	b.ReportMetric(float64(n)/float64(b.N), "fragments/page")
}

// BenchmarkResultPage measures the snippets of search result pages of the demo collection
// (10 documents, 3 snippets each, 80 characters), from stored annotations and by parsing,
// side by side, with the default method and with lr; one op is one page. cpu-µs/page is the
// process's CPU time (every core) per page: DoSnippets compresses a document's sentences in
// parallel. The bleve-html row is bleve's default highlighter ("html") on the same hits, 3
// fragments of 80 characters (bleveHTML; TestBleveHTMLPage checks it). fragments/page is how
// many fragments a page got: at most 30, fewer when a document has fewer matching sentences
// (qsc) or non-overlapping windows around its hits (bleve).
//
// Those rows time the highlighter alone: the pages are searched and their documents loaded
// once, before the loop. The rows under page/ time whole pages instead, each op a search,
// the loading of the hits' stored documents and their highlighting (wholePageRows;
// TestWholePage checks that they get the same fragments): the search alone and the search
// with the loading, as the floor of every page; bleve-html and qsc's parse on an index
// without annotations (what a bleve user without qsc has); qsc from annotations on the
// index that stores them, whose documents are larger to load.
func BenchmarkResultPage(b *testing.B) {
	eng, idx, plain := demoIndexes(b)
	var pages []page
	for _, q := range pageQueries {
		pages = append(pages, searchPage(b, idx, q, 10))
	}
	methods := []string{qsc.DefaultMethod}
	if qsc.DefaultMethod != "lr" {
		methods = append(methods, "lr")
	}
	for _, method := range methods {
		for _, mode := range []struct {
			name      string
			annotated bool
		}{{"parse", false}, {"annotations", true}} {
			b.Run(method+"/"+mode.name, func(b *testing.B) {
				h, err := New(eng, Options{Budget: 80, Fragments: 3, Method: method})
				if err != nil {
					b.Fatal(err)
				}
				resetFragments(pages)
				cpuPerPage(b, func(i int) int {
					return countFragments(pages[i%len(pages)].fragments(h, mode.annotated, 3))
				})
			})
		}
	}
	b.Run("bleve-html", func(b *testing.B) {
		h := bleveHTML(b, 80)
		resetFragments(pages)
		cpuPerPage(b, func(i int) int { return countFragments(pages[i%len(pages)].bleveFragments(h, 3)) })
	})
	h, err := New(eng, Options{Budget: 80, Fragments: 3, Method: qsc.DefaultMethod})
	if err != nil {
		b.Fatal(err)
	}
	for _, row := range wholePageRows(h, bleveHTML(b, 80), idx, plain) {
		b.Run("page/"+row.name, func(b *testing.B) {
			cpuPerPage(b, func(i int) int {
				_, frags := row.page(b, pageQueries[i%len(pageQueries)])
				return countFragments(frags)
			})
		})
	}
}
