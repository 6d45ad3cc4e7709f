package qsc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/annotation"
	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
)

// The hostile inputs of docs/reliability.md, at the library level. The same cases go
// through the JSON decoding in internal/service/wire (hostile_test.go) and the HTTP API in
// internal/service/server (hostile_test.go).

// hostileSentence is the sentence most cases compress.
const hostileSentence = "Police in Syracuse arrested two men on Tuesday."

// words returns a text of n tokens: words and commas, ending with a period.
func words(n int) string {
	w := []string{"the", "police", "arrested", "two", "men", "in", "Syracuse", "on", "Tuesday", ","}
	var b strings.Builder
	for i := range n - 1 {
		b.WriteString(w[i%len(w)])
		b.WriteByte(' ')
	}
	b.WriteString(".")
	return b.String()
}

// megabyteSentence is a sentence of 1,000,000 bytes of words (about 150,000 tokens), with
// no sentence end but its last period.
func megabyteSentence() string {
	s := words(200000)
	return s[len(s)-1_000_000:]
}

// TestHostileDo is the table of hostile requests to Engine.Do: each gets an error of a
// given class naming the problem, or a defined result (checked by ok).
func TestHostileDo(t *testing.T) {
	e := sharedEngine(t)
	ctx := context.Background()
	same := func(want *Request) func(*testing.T, *Request, *Result) {
		return func(t *testing.T, _ *Request, got *Result) {
			t.Helper()
			r, err := e.Do(ctx, want, false)
			if err != nil || !slices.Equal(got.Kept, r.Kept) {
				t.Errorf("kept %v, want %v as for %+v (%v)", got.Kept, r.Kept, want, err)
			}
		}
	}
	kept := func(want string) func(*testing.T, *Request, *Result) {
		return func(t *testing.T, _ *Request, got *Result) {
			t.Helper()
			if got.Compression != want {
				t.Errorf("compression %q, want %q", got.Compression, want)
			}
		}
	}
	tokens := func(want ...string) func(*testing.T, *Request, *Result) {
		return func(t *testing.T, _ *Request, got *Result) {
			t.Helper()
			if f := got.Sentence.Forms(); !slices.Equal(f, want) {
				t.Errorf("tokens %q, want %q", f, want)
			}
		}
	}
	whole := len([]rune(hostileSentence)) + 1 // ℓ(S): "Tuesday ." has a space
	// repeatable: the same request gives the same compression again (RANDOM draws anew).
	repeatable := func(t *testing.T, req *Request, got *Result) {
		t.Helper()
		if req.Method == baseline.NameRandom {
			return
		}
		again, err := e.Do(ctx, req, false)
		if err != nil || !slices.Equal(again.Kept, got.Kept) {
			t.Errorf("kept %v, then %v (%v)", got.Kept, again.Kept, err)
		}
	}
	long := strings.Repeat("a", 1_000_000)
	cases := []struct {
		name string
		req  Request
		err  error                               // the error class, or nil
		msg  string                              // in the error message
		ok   func(*testing.T, *Request, *Result) // checks a result beyond checkResult
	}{
		{name: "empty text", req: Request{Text: "", Query: []string{"x"}, Budget: 10}, err: ErrBadRequest, msg: "no sentence: the text is empty or blank, and no tokens are given"},
		{name: "whitespace only", req: Request{Text: " \t\r\n ", Query: []string{"x"}, Budget: 10}, err: ErrBadRequest, msg: "no sentence: the text is empty or blank, and no tokens are given"},
		{name: "control characters only", req: Request{Text: "\x00\x01\x1b\u200b", Query: []string{"x"}, Budget: 10}, err: ErrBadRequest, msg: "text has no words"},
		{name: "empty token list", req: Request{Tokens: []string{}, Query: []string{"x"}, Budget: 10}, err: ErrBadRequest, msg: "tokens is empty"},
		{name: "control characters separate tokens", req: Request{Text: "Police\x00in\x07Syracuse\x1b[31m arrested", Query: []string{"Syracuse"}, Budget: 40},
			ok: tokens("Police", "in", "Syracuse", "[", "31m", "arrested")},
		{name: "invalid UTF-8 text", req: Request{Text: "Police \xff\xfe in Syracuse", Query: []string{"Syracuse"}, Budget: 20}, err: ErrBadRequest, msg: "text is not valid UTF-8 (byte offset 7)"},
		{name: "invalid UTF-8 token", req: Request{Tokens: []string{"Police", "\xc3"}, QueryIDs: []int{1}, Budget: 20}, err: ErrBadRequest, msg: "token 2 is not valid UTF-8 (byte offset 0)"},
		{name: "invalid UTF-8 query term", req: Request{Text: hostileSentence, Query: []string{"Syr\xe9"}, Budget: 20}, err: ErrBadRequest, msg: "is not valid UTF-8 (byte offset 3)"},
		{name: "1 MB sentence of words", req: Request{Text: megabyteSentence(), Query: []string{"Syracuse"}, Budget: 100}, err: ErrBadRequest, msg: "text is 1000000 bytes, more than the maximum of 65536"},
		{name: "1 MB single word", req: Request{Text: long, Query: []string{"a"}, Budget: 1 << 20}, err: ErrBadRequest, msg: "text is 1000000 bytes, more than the maximum of 65536"},
		{name: "MaxSentenceBytes single word", req: Request{Text: long[:MaxSentenceBytes], Query: []string{long[:MaxSentenceBytes]}, Budget: MaxSentenceBytes},
			ok: kept(long[:MaxSentenceBytes])},
		{name: "1 MB of tokens", req: Request{Tokens: []string{long}, QueryIDs: []int{1}, Budget: 1 << 20}, err: ErrBadRequest, msg: "the tokens are more than 65536 bytes together"},
		{name: "1 MB query term", req: Request{Text: hostileSentence, Query: []string{long}, Budget: 30}, err: ErrBadRequest, msg: "a query term is 1000000 bytes, more than the maximum of 65536"},
		{name: "10,000-token text", req: Request{Text: words(10000), Query: []string{"Syracuse"}, Budget: 100}, err: ErrBadRequest, msg: "the sentence has 10000 tokens, more than the maximum of 2000"},
		{name: "10,000 tokens", req: Request{Tokens: strings.Fields(words(10000)), QueryIDs: []int{7}, Budget: 100}, err: ErrBadRequest, msg: "the sentence has 10000 tokens"},
		{name: "MaxSentenceTokens tokens", req: Request{Text: words(MaxSentenceTokens), Query: []string{"Syracuse"}, Budget: 100}, ok: func(t *testing.T, _ *Request, r *Result) {
			if len(r.Sentence.Tokens) != MaxSentenceTokens {
				t.Errorf("%d tokens", len(r.Sentence.Tokens))
			}
		}},
		{name: "over the limit of nn", req: Request{Text: words(300), Query: []string{"Syracuse"}, Budget: 100, Method: "nn"}, err: ErrBadRequest, msg: "method nn takes sentences of at most 256 tokens; this one has 300"},
		{name: "at the limit of nn", req: Request{Text: words(256), Query: []string{"Syracuse"}, Budget: 100, Method: "nn"}, ok: repeatable},
		{name: "query term absent", req: Request{Text: hostileSentence, Query: []string{"Boston"}, Budget: 30}, err: ErrInfeasible, msg: `query term "Boston" is not in the sentence`},
		{name: "query term inside a word", req: Request{Text: "The LRUs shall withstand the 40mm and 105mm guns.", Query: []string{"105"}, Budget: 30},
			err: ErrInfeasible, msg: `query term "105" is not in the sentence (it is part of the word "105mm"; a query term matches whole words)`},
		{name: "duplicate query terms", req: Request{Text: hostileSentence, Query: []string{"Syracuse", "SYRACUSE", "Syracuse"}, Budget: 30},
			ok: same(&Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: 30})},
		{name: "duplicate query ids", req: Request{Text: hostileSentence, QueryIDs: []int{3, 3, 3}, Budget: 30},
			ok: same(&Request{Text: hostileSentence, QueryIDs: []int{3}, Budget: 30})},
		{name: "query id out of range", req: Request{Text: hostileSentence, QueryIDs: []int{0}, Budget: 30}, err: ErrBadRequest, msg: "query id 0 is not a token id (1..9)"},
		{name: "both query forms", req: Request{Text: hostileSentence, QueryIDs: []int{1}, Query: []string{"men"}, Budget: 30}, err: ErrBadRequest, msg: "not both"},
		{name: "no query form", req: Request{Text: hostileSentence, Budget: 30}, err: ErrBadRequest, msg: "give the query"},
		{name: "empty query list", req: Request{Text: hostileSentence, Query: []string{}, Budget: 30}, ok: func(t *testing.T, _ *Request, r *Result) {
			if len(r.Query) != 0 || len([]rune(r.Compression)) > 30 {
				t.Errorf("query %v, compression %q", r.Query, r.Compression)
			}
		}},
		{name: "empty query list, budget below any word", req: Request{Text: hostileSentence, Query: []string{}, Budget: 2}, ok: func(t *testing.T, _ *Request, r *Result) {
			if r.Compression != "" || len(r.Kept) != 0 {
				t.Errorf("kept %v, compression %q: want nothing, not punctuation alone", r.Kept, r.Compression)
			}
		}},
		{name: "empty query term", req: Request{Text: hostileSentence, Query: []string{" "}, Budget: 30}, err: ErrBadRequest, msg: "empty query term"},
		{name: "too many query terms", req: Request{Text: hostileSentence, Query: slices.Repeat([]string{"men"}, MaxQueryTerms+1), Budget: 30}, err: ErrBadRequest, msg: "65 query terms, more than the maximum of 64"},
		{name: "query term of too many words", req: Request{Text: hostileSentence, Query: []string{strings.Repeat("men ", MaxTermWords+1)}, Budget: 30}, err: ErrBadRequest, msg: "17 words, more than the maximum of 16"},
		{name: "budget 0", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: 0}, err: ErrBadRequest, msg: "budget is required (budget must be a positive number of characters)"},
		{name: "budget negative", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: math.MinInt}, err: ErrBadRequest, msg: "budget must be a positive"},
		{name: "budget below the query", req: Request{Text: hostileSentence, Query: []string{"Syracuse", "Tuesday"}, Budget: 10}, err: ErrInfeasible, msg: "the query is longer than the budget: 16 characters, the budget 10"},
		{name: "budget exactly the query", req: Request{Text: hostileSentence, Query: []string{"Syracuse", "Tuesday"}, Budget: 16}, ok: kept("Syracuse Tuesday")},
		{name: "budget the sentence", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: whole}, ok: repeatable},
		{name: "budget above the sentence", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: 1000}, ok: repeatable},
		{name: "budget MaxInt", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: math.MaxInt}, ok: repeatable},
		{name: "unknown method", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: 30, Method: "bert"}, err: ErrUnknownMethod, msg: `unknown method "bert" (want one of ` + strings.Join(Methods(), ", ") + ")"},
		{name: "method names are case-sensitive", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: 30, Method: "LR"}, err: ErrUnknownMethod, msg: `"LR"`},
		{name: "evaluation-only method", req: Request{Text: hostileSentence, Query: []string{"Syracuse"}, Budget: 30, Method: baseline.NameOracle}, err: ErrUnknownMethod, msg: "unknown method"},
	}
	// The budget cases hold for every method (the ILP's budget once overflowed).
	base := slices.Clone(cases)
	for _, m := range Methods()[1:] {
		for _, c := range base {
			if strings.HasPrefix(c.name, "budget") {
				c.name += " " + m
				c.req.Method = m
				cases = append(cases, c)
			}
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Do(ctx, &c.req, false)
			switch {
			case c.err == nil && err != nil:
				t.Fatalf("error %v, want a result", err)
			case c.err == nil:
				checkResult(t, &c.req, res)
				c.ok(t, &c.req, res)
			case !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg):
				t.Fatalf("error %v, want %v containing %q", err, c.err, c.msg)
			}
		})
	}
}

// TestHostileSnippets is the table of hostile requests to Engine.DoSnippets.
func TestHostileSnippets(t *testing.T) {
	e := sharedEngine(t)
	ctx := context.Background()
	cases := []struct {
		name string
		req  SnippetRequest
		err  error
		msg  string
		n    int // the number of snippets of a success
	}{
		{name: "empty document", req: SnippetRequest{Document: "", Query: []string{"x"}, Budget: 10}},
		{name: "whitespace only", req: SnippetRequest{Document: " \n\t ", Query: []string{"x"}, Budget: 10}},
		{name: "invalid UTF-8", req: SnippetRequest{Document: "Police \xff in Syracuse.", Query: []string{"Syracuse"}, Budget: 20}, err: ErrBadRequest, msg: "document is not valid UTF-8 (byte offset 7)"},
		{name: "control characters", req: SnippetRequest{Document: "Police\x00in\x07Syracuse\x1b arrested.", Query: []string{"Syracuse"}, Budget: 20}, n: 1},
		// Cut into pieces of at most maxPartBytes (no sentence end), shown by their windows.
		{name: "1 MB sentence", req: SnippetRequest{Document: megabyteSentence(), Query: []string{"Syracuse"}, Budget: 100}, n: 2}, // the pieces repeat: 2 distinct texts
		{name: "a piece of one-byte tokens", req: SnippetRequest{Document: "Syracuse," + strings.Repeat("a,", 9000), Query: []string{"Syracuse"}, Budget: 100}, err: ErrBadRequest, msg: "has more than 16000 tokens"},
		{name: "over the limit of nn and a short one", req: SnippetRequest{Document: words(300) + " Syracuse is cold.", Query: []string{"Syracuse"}, Budget: 20, Method: "nn"}, n: 2}, // the long one by its window
		{name: "1 MB sentence and a short one", req: SnippetRequest{Document: megabyteSentence() + "\n\nSyracuse is cold.", Query: []string{"Syracuse"}, Budget: 100}, n: 2},
		{name: "document over MaxDocumentBytes", req: SnippetRequest{Document: strings.Repeat("a ", MaxDocumentBytes/2+1), Query: []string{"a"}, Budget: 10}, err: ErrBadRequest, msg: "more than the maximum of 1048576"},
		{name: "query term absent", req: SnippetRequest{Document: hostileSentence, Query: []string{"Boston"}, Budget: 30}},
		{name: "duplicate query terms", req: SnippetRequest{Document: hostileSentence, Query: []string{"Syracuse", "syracuse"}, Budget: 30}, n: 1},
		{name: "budget 0", req: SnippetRequest{Document: hostileSentence, Query: []string{"Syracuse"}, Budget: 0}, err: ErrBadRequest, msg: "budget must be a positive"},
		{name: "budget below the query", req: SnippetRequest{Document: hostileSentence, Query: []string{"Syracuse"}, Budget: 3}, err: ErrInfeasible, msg: "the shortest needs 12 characters"}, // "… Syracuse …"
		{name: "budget below the query, tokens", req: SnippetRequest{Document: hostileSentence, Query: []string{"Syracuse"}, Budget: 3, BudgetCounts: BudgetTokens}, err: ErrInfeasible, msg: "the shortest needs 8 characters"},
		{name: "unknown budget_counts", req: SnippetRequest{Document: hostileSentence, Query: []string{"Syracuse"}, Budget: 30, BudgetCounts: "bytes"}, err: ErrBadRequest, msg: `budget_counts must be "tokens", "display" or "columns", not "bytes"`},
		{name: "budget MaxInt ilp", req: SnippetRequest{Document: hostileSentence, Query: []string{"Syracuse"}, Budget: math.MaxInt, Method: "ilp", N: math.MaxInt}, n: 1},
		{name: "unknown method", req: SnippetRequest{Document: hostileSentence, Query: []string{"Syracuse"}, Budget: 30, Method: "bert"}, err: ErrUnknownMethod, msg: `"bert"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sn, err := e.DoSnippets(ctx, &c.req)
			switch {
			case c.err == nil && (err != nil || len(sn) != c.n):
				t.Fatalf("%d snippets, error %v; want %d snippets", len(sn), err, c.n)
			case c.err != nil && (!errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg)):
				t.Fatalf("error %v, want %v containing %q", err, c.err, c.msg)
			}
		})
	}
}

// panicky is a method that panics, standing for a bug in a model.
type panicky struct{}

func (panicky) Name() string { return "panicky" }

func (panicky) Solve(method.Input, *any) ([]int, error) { panic("model bug") }

// TestSnippetsWorkerPanic checks that a panic in DoSnippets' worker goroutines comes back
// as an error, not a crash of the process, and that the Engine goes on working.
func TestSnippetsWorkerPanic(t *testing.T) {
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	e.methods["panicky"] = panicky{}
	// Sentences longer than the budget, so that the method is asked (a sentence that fits
	// is the snippet as it is).
	doc := "Dogs bark at night. Dogs bite the mailman. Dogs sleep all day. Dogs run in the park. Dogs eat their dinner."
	for _, procs := range []int{1, 4} { // the caller's goroutine, and worker goroutines
		t.Run(fmt.Sprint("GOMAXPROCS=", procs), func(t *testing.T) {
			defer runtimeGOMAXPROCS(procs)()
			_, err := e.DoSnippets(context.Background(), &SnippetRequest{Document: doc, Query: []string{"dogs"}, Budget: 14, N: 5, Method: "panicky"})
			if err == nil || !strings.Contains(err.Error(), "panic while compressing: model bug") ||
				errors.Is(err, ErrBadRequest) || errors.Is(err, ErrInfeasible) || errors.Is(err, ErrUnknownMethod) {
				t.Fatalf("err = %v, want an internal error naming the panic", err)
			}
			sn, err := e.DoSnippets(context.Background(), &SnippetRequest{Document: doc, Query: []string{"dogs"}, Budget: 14, N: 5})
			if err != nil || len(sn) == 0 {
				t.Fatalf("after the panic: %d snippets, %v", len(sn), err) // as many as distinct texts
			}
		})
	}
}

// runtimeGOMAXPROCS sets GOMAXPROCS and returns a function that restores it.
func runtimeGOMAXPROCS(n int) func() {
	old := runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(old) }
}

// BenchmarkLongSentence measures the cost of the longest sentence a request may give each
// method (MaxSentenceTokens tokens, 256 for nn; budget = the whole sentence: the worst
// case of the ILP and nn), of rejecting a 10,000-token and a 1 MB sentence, and of DoSnippets on a 1 MB
// document that is one sentence (docs/reliability.md):
//
//	go test -run '^$' -bench BenchmarkLongSentence -benchtime 10x .
func BenchmarkLongSentence(b *testing.B) {
	e := sharedEngine(b)
	ctx := context.Background()
	for _, m := range Methods() {
		n := maxTokens(m)
		text := words(n)
		req := &Request{Text: text, Query: []string{"Syracuse"}, Budget: len(text) + 1, Method: m}
		if _, err := e.Do(ctx, req, false); err != nil { // load the model outside the timing
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%d-tokens/%s", n, m), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Do(ctx, req, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("snippets-1MB-one-sentence/pieces", func(b *testing.B) {
		req := &SnippetRequest{Document: megabyteSentence(), Query: []string{"Syracuse"}, Budget: 100}
		b.ReportAllocs()
		for b.Loop() {
			if sn, err := e.DoSnippets(ctx, req); err != nil || len(sn) == 0 {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name, text string
	}{{"10000-tokens/rejected", words(10000)}, {"1MB/rejected", megabyteSentence()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Do(ctx, &Request{Text: c.text, Query: []string{"Syracuse"}, Budget: 100}, false); !errors.Is(err, ErrBadRequest) {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNilAndZero checks that a nil request and an Engine that New did not make give an
// error from every entry point, not a panic.
func TestNilAndZero(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t)
	if _, err := eng.Do(ctx, nil, false); !errors.Is(err, ErrBadRequest) {
		t.Errorf("Do(nil): %v", err)
	}
	if _, err := eng.DoSnippets(ctx, nil); !errors.Is(err, ErrBadRequest) {
		t.Errorf("DoSnippets(nil): %v", err)
	}
	if _, err := eng.DoSnippetsLong(ctx, nil); !errors.Is(err, ErrBadRequest) {
		t.Errorf("DoSnippetsLong(nil): %v", err)
	}
	if _, err := eng.SnippetsAnnotated(ctx, nil, nil, AnnotationOptions{}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("SnippetsAnnotated(nil): %v", err)
	}
	if _, err := eng.CompressAnnotated(ctx, nil, nil, AnnotationOptions{}, false); !errors.Is(err, ErrBadRequest) {
		t.Errorf("CompressAnnotated(nil): %v", err)
	}
	var zero Engine
	for name, err := range map[string]error{
		"Compress":         func() error { _, err := zero.Compress(ctx, "The cat sat.", []string{"cat"}, 20); return err }(),
		"Snippets":         func() error { _, err := zero.Snippets(ctx, "The cat sat.", []string{"cat"}, 20, 1); return err }(),
		"Annotate":         func() error { _, err := zero.Annotate(ctx, "The cat sat."); return err }(),
		"AnnotateSentence": func() error { _, err := zero.AnnotateSentence(ctx, "The cat sat."); return err }(),
		"Hits":             func() error { _, err := zero.Hits(ctx, "The cat sat.", []string{"cat"}, ""); return err }(),
	} {
		if err == nil || !strings.Contains(err.Error(), "qsc.New") || !errors.Is(err, ErrBadRequest) {
			t.Errorf("zero Engine %s: %v, want an error wrapping ErrBadRequest that says to use qsc.New", name, err)
		}
	}
	if m := zero.AnnotationModels(); m != (annotation.Models{}) {
		t.Errorf("zero Engine AnnotationModels: %+v", m)
	}
}

// TestLongSentenceWindow checks that an English sentence over the method's limit (a list
// with no sentence end) is shown by its window, not refused, up to maxWindowTokens.
func TestLongSentenceWindow(t *testing.T) {
	eng := newEngine(t)
	doc := strings.Repeat("alpha beta gamma delta, ", 600) + "the zebra escaped"
	sn, err := eng.DoSnippets(context.Background(), &SnippetRequest{Document: doc, Query: []string{"zebra"}, Budget: 60})
	if err != nil || len(sn) != 1 || sn[0].Method != MethodWindow || !strings.Contains(sn[0].Text, "zebra") {
		t.Fatalf("%+v, %v; want one window snippet with the term", sn, err)
	}
	if l := utf8.RuneCountInString(display.Render(doc, sn[0].Sentence, sn[0].Kept, sn[0].Hits, true, false)); l > 60 {
		t.Errorf("window snippet of %d characters, over the budget 60", l)
	}
}
