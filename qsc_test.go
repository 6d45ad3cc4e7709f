package qsc

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	qscmethod "github.com/qsc-nlp/qsc/method"
)

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestBadRequests(t *testing.T) {
	e := newEngine(t)
	toks := []string{"Police", "arrested", "two", "men", "."}
	cases := []struct {
		name string
		req  Request
		want error
		msg  string
	}{
		{"no budget", Request{Tokens: toks, QueryIDs: []int{1}}, ErrBadRequest, "budget must be a positive"},
		{"negative budget", Request{Tokens: toks, QueryIDs: []int{1}, Budget: -3}, ErrBadRequest, "got -3"},
		{"no sentence", Request{QueryIDs: []int{1}, Budget: 10}, ErrBadRequest, "no tokens are given"},
		{"blank text", Request{Text: " \n ", QueryIDs: []int{1}, Budget: 10}, ErrBadRequest, "no tokens are given"},
		{"both", Request{Tokens: toks, Text: "x", QueryIDs: []int{1}, Budget: 10}, ErrBadRequest, "not both"},
		{"empty tokens", Request{Tokens: []string{}, QueryIDs: []int{1}, Budget: 10}, ErrBadRequest, "tokens is empty"},
		{"empty token", Request{Tokens: []string{"a", ""}, QueryIDs: []int{1}, Budget: 10}, ErrBadRequest, "token 2"},
		{"space in token", Request{Tokens: []string{"a b"}, QueryIDs: []int{1}, Budget: 10}, ErrBadRequest, "whitespace"},
		{"xpos count", Request{Tokens: toks, XPOS: []string{"NN"}, QueryIDs: []int{1}, Budget: 10}, ErrBadRequest, "1 xpos tags for 5 tokens"},
		{"unknown method", Request{Tokens: toks, QueryIDs: []int{1}, Budget: 10, Method: "magic"}, ErrUnknownMethod, `"magic"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.Do(context.Background(), &c.req, false)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, c.want, c.msg)
			}
		})
	}
}

func TestQueryResolution(t *testing.T) {
	e := newEngine(t)
	w := e.pool.Get().(*worker)
	defer e.pool.Put(w)
	req := &Request{Text: "Police in New York arrested two men in new york.", Budget: 10}
	s, err := sentenceOf(req)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ids   []int
		terms []string
		want  []int
		err   error
	}{
		{ids: []int{5, 1, 5}, want: []int{1, 5}},
		{terms: []string{"men", "POLICE"}, want: []int{1, 7}},
		{terms: []string{"new york"}, want: []int{3, 4}}, // first occurrence, case-insensitive
		{terms: []string{"dogs"}, err: ErrInfeasible},
		{terms: []string{"  "}, err: ErrBadRequest},
		{ids: []int{0}, err: ErrBadRequest},
		{ids: []int{12}, err: ErrBadRequest},
		{err: ErrBadRequest},
		{ids: []int{1}, terms: []string{"men"}, err: ErrBadRequest},
	}
	for _, c := range cases {
		got, err := queryOf(&Request{QueryIDs: c.ids, Query: c.terms}, s)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%v %v: err = %v, want %v", c.ids, c.terms, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%v %v: got %v, %v; want %v", c.ids, c.terms, got, err, c.want)
		}
	}
}

// TestQueryKeepsTermAsGiven checks that a query term is kept where the sentence spells it
// as given, not at an earlier word it matches as an inflection: "willing" keeps "willing",
// not the "will" of "You will find", in a compression and in a snippet (a budget that
// cannot hold both ends of the sentence).
func TestQueryKeepsTermAsGiven(t *testing.T) {
	e := newEngine(t)
	const text = "You will find the people of Tulsa love their city and they have that southern charm, so they are willing to help you find your way around."
	at := strings.Index(text, "willing")
	res, err := e.Do(context.Background(), &Request{Text: text, Query: []string{"willing"}, Budget: 100}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Kept, 21) || res.Sentence.Tokens[20].Form != "willing" || !slices.Equal(res.Query, []int{21}) {
		t.Errorf("compression keeps %v, query %v (%q); want token 21, \"willing\"", res.Kept, res.Query, res.Compression)
	}
	sn, err := e.DoSnippets(context.Background(), &SnippetRequest{Document: text, Query: []string{"willing"}, Budget: 100})
	if err != nil || len(sn) != 1 {
		t.Fatalf("snippets: %v, %v", sn, err)
	}
	kept := false
	for _, k := range sn[0].Kept {
		kept = kept || (k.Start <= at && at < k.End)
	}
	if !kept {
		t.Errorf("snippet %q keeps %v; want the span of \"willing\" (byte %d)", sn[0].Text, sn[0].Kept, at)
	}
}

// TestCompressConstraints checks the product's promise on real requests: every query term
// is kept, the compression fits the budget, the ids ascend, and the text is the kept forms.
func TestCompressConstraints(t *testing.T) {
	t.Run("default", func(t *testing.T) { testCompressConstraints(t, newEngine(t)) })
	t.Run("accurate", func(t *testing.T) {
		e, err := NewWithOptions(Options{Accurate: true})
		if err != nil {
			t.Fatal(err)
		}
		if b := e.pipe.Parser.Beam(); b != 8 {
			t.Fatalf("Accurate engine parses with beam %d, want 8", b)
		}
		testCompressConstraints(t, e)
	})
}

func testCompressConstraints(t *testing.T, e *Engine) {
	ctx := context.Background()
	text := "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries."
	for _, method := range Methods() {
		for _, budget := range []int{20, 40, 60, 200} {
			res, err := e.Do(ctx, &Request{Text: text, Query: []string{"police", "Syracuse"}, Budget: budget, Method: method}, true)
			if err != nil {
				t.Fatalf("%s b=%d: %v", method, budget, err)
			}
			if len(res.Compression) > budget {
				t.Errorf("%s b=%d: %q is %d characters", method, budget, res.Compression, len(res.Compression))
			}
			if !slices.IsSorted(res.Kept) || !slices.Contains(res.Kept, 1) || !slices.Contains(res.Kept, 3) {
				t.Errorf("%s b=%d: kept %v lacks the query (1, 3) or is unsorted", method, budget, res.Kept)
			}
			var forms []string
			for _, id := range res.Kept {
				forms = append(forms, res.Sentence.Tokens[id-1].Form)
			}
			if unseparated(strings.Join(forms, "")) != unseparated(res.Compression) {
				t.Errorf("%s: compression %q does not match kept %v", method, res.Compression, res.Kept)
			}
			m, err := e.method(method)
			if err != nil {
				t.Fatal(err)
			}
			_, solver := m.(qscmethod.Solver) // a Solver (the ILP) decides at once: no steps
			if solver != (len(res.Steps) == 0) && len(res.Kept) < len(res.Sentence.Tokens) {
				t.Errorf("%s: explain gave %d steps", method, len(res.Steps))
			}
			for _, st := range res.Steps {
				if st.Outcome == "skip" && st.P != 0 {
					t.Errorf("%s: skipped step asked the model", method)
				}
			}
		}
	}
	// A budget below the query's length is infeasible, not silently violated.
	if _, err := e.Compress(ctx, text, []string{"investigation", "burglaries"}, 10); !errors.Is(err, ErrInfeasible) {
		t.Errorf("budget below the query: err = %v, want ErrInfeasible", err)
	}
	// Tokens with given tags take the same path as text.
	toks := strings.Fields("Police in Syracuse arrested two men on Tuesday .")
	a, err := e.Do(ctx, &Request{Tokens: toks, QueryIDs: []int{3}, Budget: 30}, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Do(ctx, &Request{Tokens: toks, Query: []string{"syracuse"}, Budget: 30}, false)
	if err != nil || !slices.Equal(a.Kept, b.Kept) {
		t.Errorf("query ids and terms differ: %v vs %v (%v)", a.Kept, b.Kept, err)
	}
}

// TestConcurrent checks that concurrent requests give the same results as serial ones.
func TestConcurrent(t *testing.T) {
	t.Run("default", func(t *testing.T) { testConcurrent(t, newEngine(t)) })
	t.Run("accurate", func(t *testing.T) {
		e, err := NewWithOptions(Options{Accurate: true})
		if err != nil {
			t.Fatal(err)
		}
		testConcurrent(t, e)
	})
}

func testConcurrent(t *testing.T, e *Engine) {
	ctx := context.Background()
	texts := []string{
		"Five people have been taken to hospital with minor injuries following a crash on the A17 near Sleaford this morning.",
		"Several school districts in Hampton Roads are holding classes this Presidents' Day to make up for days missed because of the snow.",
		"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.",
	}
	queries := [][]string{{"hospital"}, {"districts", "snow"}, {"police"}}
	want := make([]string, len(texts))
	for i := range texts {
		r, err := e.Compress(ctx, texts[i], queries[i], 50)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = r.Compression
	}
	errs := make(chan error, 64)
	for g := range 8 {
		go func() {
			for k := range 8 {
				i := (g + k) % len(texts)
				r, err := e.Compress(ctx, texts[i], queries[i], 50)
				if err == nil && r.Compression != want[i] {
					err = errors.New("concurrent result differs: " + r.Compression)
				}
				errs <- err
			}
		}()
	}
	for range 64 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestTokenBudgetWholeSentence checks that under a token budget a sentence whose text as
// written fits is returned whole, though its tokens joined by spaces are longer.
func TestTokenBudgetWholeSentence(t *testing.T) {
	eng := newEngine(t)
	text := `He said, "I don't know," and left.` // 34 characters; its tokens joined by spaces, 39
	for _, c := range []struct {
		budget int
		whole  bool
	}{{34, true}, {38, true}, {33, false}} {
		res, err := eng.Do(context.Background(), &Request{Text: text, Query: []string{"left"}, Budget: c.budget, BudgetCounts: BudgetTokens}, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Compression == text; got != c.whole {
			t.Errorf("budget %d: %q, whole %v, want %v", c.budget, res.Compression, got, c.whole)
		}
	}
}

// TestLoad: Load loads the default method's model, or the named ones; an unknown method
// and a zero Engine are errors.
func TestLoad(t *testing.T) {
	eng := newEngine(t)
	if err := eng.Load(); err != nil {
		t.Fatal(err)
	}
	eng.mu.Lock()
	_, ok := eng.methods[DefaultMethod]
	eng.mu.Unlock()
	if !ok {
		t.Errorf("Load() did not load %s", DefaultMethod)
	}
	if err := eng.Load(MethodWindow, "lr"); err != nil {
		t.Errorf("Load(window, lr): %v", err)
	}
	if err := eng.Load("bert"); !errors.Is(err, ErrUnknownMethod) {
		t.Errorf("Load(bert): %v", err)
	}
	if err := new(Engine).Load(); !errors.Is(err, ErrBadRequest) {
		t.Errorf("a zero Engine: %v", err)
	}
}
