package qsc_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
	"github.com/qsc-nlp/qsc/internal/service/demo"
	"github.com/qsc-nlp/qsc/tokenize"
)

// newAnnotatingEngine returns an Engine with the default models.
func newAnnotatingEngine(t testing.TB) *qsc.Engine {
	t.Helper()
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// newsStory is the 30-sentence news story of testdata/news.txt.
func newsStory(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/news.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// chunkBytes is the size of the chunks DoSnippets tokenizes a document in (collect).
const chunkBytes = 64 << 10

// roundTrip encodes and decodes a, as a stored annotation is.
func roundTrip(t testing.TB, a *annotation.Annotation) *annotation.Annotation {
	t.Helper()
	data, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var b annotation.Annotation
	if err := annotation.Decode(data, &b); err != nil {
		t.Fatal(err)
	}
	return &b
}

// demoQuery picks 1 to 3 words of text, with rng.
func demoQuery(rng *rand.Rand, text string) []string {
	var words []string
	for _, tk := range tokenize.Tokens(text) {
		if r := []rune(tk.Form); len(r) > 2 && unicode.IsLetter(r[0]) {
			words = append(words, tk.Form)
		}
	}
	if len(words) == 0 {
		return []string{"the"}
	}
	q := make([]string, 1+rng.IntN(3))
	for i := range q {
		q[i] = words[rng.IntN(len(words))]
	}
	return q
}

// sameSnippets runs DoSnippets and SnippetsAnnotated on req and fails unless they give the
// same snippets, or the same error.
func sameSnippets(t *testing.T, e *qsc.Engine, req *qsc.SnippetRequest, ann *annotation.Annotation) (compared bool) {
	t.Helper()
	ctx := context.Background()
	want, werr := e.DoSnippets(ctx, req)
	got, gerr := e.SnippetsAnnotated(ctx, req, ann, qsc.AnnotationOptions{})
	if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("query %q budget %d method %s:\nraw text:   %+v (%v)\nannotation: %+v (%v)", req.Query, req.Budget, req.Method, want, werr, got, gerr)
	}
	return werr == nil && len(want) > 0
}

// TestAnnotatedIdentical checks that snippets and compressions from annotations are those
// from raw text, over the demo collection, with every deterministic method.
func TestAnnotatedIdentical(t *testing.T) {
	e := newAnnotatingEngine(t)
	docs, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	methods := []string{"lr", "ablated", "ilp", "nn"}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(22, 1))
	snippets, compressions := 0, 0
	for i, d := range docs {
		ann, err := e.Annotate(ctx, d.Text)
		if err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		ann = roundTrip(t, ann)
		req := &qsc.SnippetRequest{Document: d.Text, Query: demoQuery(rng, d.Text), Budget: 30 + rng.IntN(100), N: 1 + rng.IntN(3), Method: methods[i%len(methods)]}
		if sameSnippets(t, e, req, ann) {
			snippets++
		}
		if i%4 != 0 {
			continue
		}
		// One sentence of the document, compressed.
		sents := tokenize.Sentences(d.Text)
		s := sents[rng.IntN(len(sents))].Tokens
		text := d.Text[s[0].Start:s[len(s)-1].End]
		sa, err := e.AnnotateSentence(ctx, text)
		if err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		sa = roundTrip(t, sa)
		creq := &qsc.Request{Text: text, Query: demoQuery(rng, text), Budget: 40 + rng.IntN(80), Method: req.Method}
		want, werr := e.Do(ctx, creq, true)
		got, gerr := e.CompressAnnotated(ctx, creq, sa, qsc.AnnotationOptions{}, true)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %q with %q:\nraw text:   %+v (%v)\nannotation: %+v (%v)", d.ID, text, creq.Query, want, werr, got, gerr)
		}
		if werr == nil {
			compressions++
		}
	}
	t.Logf("%d documents: %d snippet requests and %d compressions with results, identical", len(docs), snippets, compressions)
	if snippets < len(docs)/2 || compressions < len(docs)/8 {
		t.Errorf("too few requests had results (%d snippets, %d compressions): the comparison is weak", snippets, compressions)
	}
}

// TestAnnotatedChunks checks identity on a document longer than one chunk of collect, cut by
// blank lines, with sentences too long for the method.
func TestAnnotatedChunks(t *testing.T) {
	e := newAnnotatingEngine(t)
	doc := strings.Repeat(newsStory(t)+"\n\n", 3*chunkBytes/len(newsStory(t))) + strings.Repeat("police word ", qsc.MaxSentenceTokens)
	ann, err := e.Annotate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	ann = roundTrip(t, ann)
	for _, q := range [][]string{{"police", "arrest"}, {"Syracuse"}, {"word"}, {"investigation", "burglaries"}} {
		for _, n := range []int{1, 3, 10} {
			sameSnippets(t, e, &qsc.SnippetRequest{Document: doc, Query: q, Budget: 60, N: n}, ann)
		}
	}
}

func TestAnnotatedErrors(t *testing.T) {
	e := newAnnotatingEngine(t)
	ctx := context.Background()
	doc := "Police arrested two men in Syracuse. They were released on bail."
	ann, err := e.Annotate(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	req := &qsc.SnippetRequest{Document: doc, Query: []string{"bail"}, Budget: 30}

	// Another text.
	other := *req
	other.Document = strings.Replace(doc, "two", "six", 1)
	if _, err := e.SnippetsAnnotated(ctx, &other, ann, qsc.AnnotationOptions{}); !errors.Is(err, qsc.ErrBadRequest) || !errors.Is(err, annotation.ErrText) {
		t.Errorf("annotation of another text: %v, want ErrBadRequest and ErrText", err)
	}
	if _, err := e.SnippetsAnnotated(ctx, req, nil, qsc.AnnotationOptions{}); !errors.Is(err, qsc.ErrBadRequest) {
		t.Errorf("no annotation: %v, want ErrBadRequest", err)
	}

	// Other models: refused, or re-parsed.
	stale := *ann
	stale.Models.Parser[0] ^= 1
	_, err = e.SnippetsAnnotated(ctx, req, &stale, qsc.AnnotationOptions{})
	if !errors.Is(err, qsc.ErrModels) || !errors.Is(err, qsc.ErrBadRequest) || !strings.Contains(err.Error(), "parser "+stale.Models.Parser.String()) {
		t.Errorf("annotation of other models: %v, want ErrModels naming the parser", err)
	}
	want, err := e.DoSnippets(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.SnippetsAnnotated(ctx, req, &stale, qsc.AnnotationOptions{Reparse: true})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("re-parsed: %v (%v), want %v", got, err, want)
	}

	// The accurate engine's annotations are another parser's.
	acc, err := qsc.NewWithOptions(qsc.Options{Accurate: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acc.SnippetsAnnotated(ctx, req, ann, qsc.AnnotationOptions{}); !errors.Is(err, qsc.ErrModels) {
		t.Errorf("default annotation on the accurate engine: %v, want ErrModels", err)
	}
	if acc.AnnotationModels().Tagger != e.AnnotationModels().Tagger || acc.AnnotationModels().Parser == e.AnnotationModels().Parser {
		t.Errorf("model ids: accurate %v, default %v", acc.AnnotationModels(), e.AnnotationModels())
	}

	// Compressions take one sentence, as text.
	creq := &qsc.Request{Text: doc, Query: []string{"bail"}, Budget: 30}
	if _, err := e.CompressAnnotated(ctx, creq, ann, qsc.AnnotationOptions{}, false); !errors.Is(err, qsc.ErrBadRequest) || !strings.Contains(err.Error(), "2 sentences") {
		t.Errorf("compression with a 2-sentence annotation: %v", err)
	}
	if _, err := e.CompressAnnotated(ctx, &qsc.Request{Tokens: []string{"a"}, Query: []string{"a"}, Budget: 3}, ann, qsc.AnnotationOptions{}, false); !errors.Is(err, qsc.ErrBadRequest) {
		t.Errorf("compression of tokens with an annotation: %v", err)
	}
	// Annotate has the limits of DoSnippets.
	if _, err := e.Annotate(ctx, "bad \xff byte"); !errors.Is(err, qsc.ErrBadRequest) {
		t.Errorf("Annotate of invalid UTF-8: %v", err)
	}
	if a, err := e.Annotate(ctx, "  \n "); err != nil || a.Len() != 0 {
		t.Errorf("Annotate of blank text: %v sentences, %v", a, err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Annotate(canceled, doc); !errors.Is(err, context.Canceled) {
		t.Errorf("Annotate with a canceled context: %v", err)
	}
}

// BenchmarkSnippetsAnnotated compares the snippets of the news story from its annotation
// with those from raw text, and measures annotating it.
func BenchmarkSnippetsAnnotated(b *testing.B) {
	e := newAnnotatingEngine(b)
	doc := newsStory(b)
	ctx := context.Background()
	ann, err := e.Annotate(ctx, doc)
	if err != nil {
		b.Fatal(err)
	}
	req := &qsc.SnippetRequest{Document: doc, Query: []string{"police", "arrest"}, Budget: 80, N: 3}
	b.Run("raw-text", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.DoSnippets(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("annotation", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.SnippetsAnnotated(ctx, req, ann, qsc.AnnotationOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("annotate", func(b *testing.B) {
		var a annotation.Annotation
		for b.Loop() {
			if err := e.AnnotateTo(ctx, doc, &a); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(a.Len())*float64(b.N)/b.Elapsed().Seconds(), "sentences/s")
	})
}

// TestAnnotateLongSentenceMemory checks that annotating a hostile 1 MB document without a
// period (600,000 tokens) cuts it into pieces of at most maxPartBytes, every token kept,
// and leaves no worker holding its memory: once collected, the heap is back within 64 MB
// of where it was. Kept in the Engine's pool, a worker that had annotated it as one
// sentence held 376 MB (2026-11-29).
func TestAnnotateLongSentenceMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("annotates 1 MB")
	}
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("x, ", 300000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	a, err := eng.Annotate(context.Background(), text)
	if err != nil || a.Len() != 55 || a.Tokens() != 600000 { // 900,000 bytes in pieces of at most 16 KiB
		t.Fatalf("%v: %d sentences, %d tokens", err, a.Len(), a.Tokens())
	}
	a = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 64<<20 {
		t.Errorf("the heap holds %d MB more after the annotation", grew>>20)
	}
	runtime.KeepAlive(eng)
}
