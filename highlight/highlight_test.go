package highlight

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/qsc-nlp/qsc"
)

func TestConstructorConfig(t *testing.T) {
	cases := []struct {
		config map[string]any
		want   Options
		err    string
	}{
		{config: nil, want: Options{Budget: DefaultBudget, Format: FormatHTML}},
		{config: map[string]any{"budget": 80.0, "fragments": 2, "format": "text", "method": "ablated"},
			want: Options{Budget: 80, Fragments: 2, Format: FormatText, Method: "ablated"}},
		{config: map[string]any{"budget": 80.5}, err: "budget must be a whole number"},
		{config: map[string]any{"budget": "80"}, err: `budget must be a whole number, got string "80"`},
		{config: map[string]any{"budget": -1}, err: "budget must be positive"},
		{config: map[string]any{"fragments": -1}, err: "fragments must be positive"},
		{config: map[string]any{"format": "pdf"}, err: `unknown format "pdf"`},
		{config: map[string]any{"format": 1}, err: "format must be a string"},
		{config: map[string]any{"method": "magic"}, err: `unknown method "magic"`},
		{config: map[string]any{"type": Name, "budegt": 80}, err: `unknown config key "budegt"`},
	}
	for _, c := range cases {
		h, err := Constructor(c.config, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: err = %v, want %q", c.config, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.config, err)
			continue
		}
		if got := h.(*Highlighter).opts; got != c.want {
			t.Errorf("%v: options %+v, want %+v", c.config, got, c.want)
		}
	}
	if _, err := New(nil, Options{}); err == nil || !strings.Contains(err.Error(), "qsc.New") {
		t.Errorf("New(nil): %v, want an error that asks for an engine", err)
	}
}

func TestFieldText(t *testing.T) {
	if got := fieldText([]byte("ok \xff\xfeé")); got != "ok   é" {
		t.Errorf("invalid UTF-8: %q", got)
	}
	big := []byte(strings.Repeat("é", qsc.MaxDocumentBytes)) // 2 bytes a rune: the cut falls mid-rune
	got := fieldText(big[:qsc.MaxDocumentBytes+1])
	if len(got) != qsc.MaxDocumentBytes || !utf8.ValidString(got) {
		t.Errorf("long field: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}

func TestTermsAt(t *testing.T) {
	text := "Police arrested police. Arrests."
	tlm := search.TermLocationMap{
		"polic":  {{Start: 0, End: 6}, {Start: 16, End: 22}, {Start: 0, End: 6, ArrayPositions: []uint64{1}}},
		"arrest": {{Start: 7, End: 15}, {Start: 24, End: 31}, {Start: 30, End: 99}, nil},
	}
	got := termsAt(text, tlm, nil)
	if strings.Join(got, ",") != "Police,arrested,police,Arrests" {
		t.Errorf("terms = %q", got)
	}
	if got := termsAt(text, tlm, []uint64{1}); strings.Join(got, ",") != "Police" {
		t.Errorf("array position 1: terms = %q", got)
	}
}

// TestBleve runs a search with the registered highlighter: fragments are set on the hit,
// fit the budget, mark the hits, and the values of an array field are all considered.
func TestBleve(t *testing.T) {
	m := bleve.NewIndexMapping()
	idx, err := bleve.NewMemOnly(m)
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{
		"title": "Arrests in Syracuse",
		"body": []string{
			"The weather was fine on Tuesday, and the city council met to discuss the budget for next year.",
			"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries near the university.",
		},
	}
	if err := idx.Index("d1", doc); err != nil {
		t.Fatal(err)
	}
	for _, style := range []struct {
		name   string
		config map[string]any
		check  func(string) bool
	}{
		{Name, nil, func(f string) bool { return strings.Contains(f, "<mark>Police</mark>") }},
		{"qsc-test-plain", map[string]any{"type": Name, "budget": 40, "format": "plain"}, func(f string) bool {
			return utf8.RuneCountInString(f) <= 40 && strings.HasPrefix(f, "Police") && !strings.Contains(f, "<")
		}},
	} {
		if style.config != nil {
			// Defined once per process (go test -count 2 runs this twice).
			if _, err := bleve.Config.Cache.DefineHighlighter(style.name, style.config); err != nil && !strings.Contains(err.Error(), "already defined") {
				t.Fatal(err)
			}
		}
		req := bleve.NewSearchRequest(bleve.NewMatchQuery("police"))
		req.Highlight = bleve.NewHighlightWithStyle(style.name)
		res, err := idx.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 || len(res.Hits[0].Fragments["body"]) != 1 || !style.check(res.Hits[0].Fragments["body"][0]) {
			t.Errorf("%s: hits %v", style.name, res.Hits)
			continue
		}
		t.Logf("%s: %s", style.name, res.Hits[0].Fragments["body"][0])
	}
}

// TestNoTerms checks a field without located terms, and a document without the field.
func TestNoTerms(t *testing.T) {
	h, err := Constructor(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dm := &search.DocumentMatch{}
	if f := h.BestFragmentsInField(dm, emptyDoc{}, "body", 3); f != nil || dm.Fragments != nil {
		t.Errorf("fragments %v, %v", f, dm.Fragments)
	}
	if f := h.BestFragmentInField(nil, nil, "body"); f != "" {
		t.Errorf("fragment %q", f)
	}
}

// emptyDoc is an index.Document without fields.
type emptyDoc struct{ index.Document }

func (emptyDoc) VisitFields(index.FieldVisitor) {}

// TestPlainFormatBudget checks that the plain format's budget counts the words it shows,
// with no "…": its fragment is the kept words of a snippet whose budget counts the tokens
// (qsc.BudgetTokens), which may hold more than the display of the same budget, and it
// fits the budget.
func TestPlainFormatBudget(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	text := "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries that had troubled the north side of the city for months."
	idx := annotatedIndex(t, eng, map[string]any{"d": text}, false)
	defer idx.Close()
	p := searchPage(t, idx, "arrested city", 1)
	const budget = 44 // where the token budget's snippet differs from the display's
	plain, err := New(eng, Options{Budget: budget, Format: FormatPlain})
	if err != nil {
		t.Fatal(err)
	}
	got := p.fragments(plain, false, 1)[0]
	want, err := eng.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: text, Query: []string{"arrested", "city"},
		Budget: budget, BudgetCounts: qsc.BudgetTokens, N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != want[0].Text || utf8.RuneCountInString(got[0]) > budget || strings.Contains(got[0], "…") {
		t.Errorf("plain fragment %q, want %q (the token budget's), at most %d characters", got, want[0].Text, budget)
	}
}

// TestSetEngine checks that the highlighters built from bleve's registry use the Engine
// that SetEngine gave, and that SetEngine is refused once one is built.
func TestSetEngine(t *testing.T) {
	engineMu.Lock()
	saved, savedErr, savedBuilt := shared, sharedErr, built
	shared, sharedErr, built = nil, nil, false
	engineMu.Unlock()
	defer func() {
		engineMu.Lock()
		shared, sharedErr, built = saved, savedErr, savedBuilt
		engineMu.Unlock()
	}()
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := SetEngine(nil); err == nil {
		t.Error("SetEngine(nil): no error")
	}
	if err := SetEngine(eng); err != nil {
		t.Fatal(err)
	}
	h, err := Constructor(map[string]any{"budget": 80}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.(*Highlighter).eng; got != eng {
		t.Error("the registry's highlighter does not use the Engine given")
	}
	if err := SetEngine(eng); err == nil || !strings.Contains(err.Error(), "before the first search") {
		t.Errorf("SetEngine after a highlighter was built: %v", err)
	}
}
