package qsc

import (
	"context"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// spanTexts returns the text of each span of doc.
func spanTexts(doc string, spans []Span) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = doc[s.Start:s.End]
	}
	return out
}

// TestHits checks the spans of Engine.Hits on small documents: every occurrence, as the
// matcher finds them (inflection, case, a phrase's words, a part of a hyphenated word),
// in document order, a repeated paragraph marked both times, and another language.
func TestHits(t *testing.T) {
	e := sharedEngine(t)
	ctx := context.Background()
	for _, c := range []struct {
		doc   string
		query []string
		lang  string
		want  []string
	}{
		{"Police arrested two men. The arrests came late.\n\nNo one else was held.", []string{"arrest"}, "", []string{"arrested", "arrests"}},
		{"The car bomb went off. A car was parked by a bomb shelter.", []string{"car bomb"}, "", []string{"car", "bomb"}},
		{"A transformer-based model. Transformers again.", []string{"transformer"}, "", []string{"transformer-based", "Transformers"}},
		{"The party was late.\n\nThe party was late.\n\nNothing else.", []string{"party"}, "", []string{"party", "party"}},
		{"Nothing here matches.", []string{"police"}, "", []string{}},
		{"東京で会議が開かれた。東京は晴れ。", []string{"東京"}, "ja", []string{"東京", "東京"}}, // one span a term, as a snippet marks it
	} {
		got, err := e.Hits(ctx, c.doc, c.query, c.lang)
		if err != nil {
			t.Errorf("%q in %q: %v", c.query, c.doc, err)
			continue
		}
		if texts := spanTexts(c.doc, got); !slices.Equal(texts, c.want) {
			t.Errorf("%q in %q: hits %q, want %q", c.query, c.doc, texts, c.want)
		}
		if !slices.IsSortedFunc(got, func(a, b Span) int { return a.Start - b.Start }) {
			t.Errorf("%q in %q: hits not in document order: %v", c.query, c.doc, got)
		}
	}
	for _, c := range []struct {
		doc   string
		query []string
		lang  string
	}{
		{"Some text.", nil, ""},
		{"Some text.", []string{""}, ""},
		{"Some text.", []string{"text"}, "xx-nope"},
		{"bad \xff text", []string{"text"}, ""},
		{strings.Repeat("a", MaxDocumentBytes+1), []string{"a"}, ""},
	} {
		if _, err := e.Hits(ctx, c.doc, c.query, c.lang); !errors.Is(err, ErrBadRequest) {
			t.Errorf("%q, lang %q, document of %d bytes: error %v, want ErrBadRequest", c.query, c.lang, len(c.doc), err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Hits(cancelled, "Police arrived.", []string{"police"}, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
}

// TestHitsAreSnippetHits checks on the news fixture that Hits holds every hit of the
// snippets of DoSnippets when it shows every sentence with a term, and no other.
func TestHitsAreSnippetHits(t *testing.T) {
	e := sharedEngine(t)
	b, err := os.ReadFile("testdata/news.txt")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, query := range [][]string{{"police"}, {"said", "government"}, {"the"}} {
		hits, err := e.Hits(context.Background(), doc, query, "")
		if err != nil {
			t.Fatal(err)
		}
		sn, err := e.DoSnippets(context.Background(), &SnippetRequest{Document: doc, Query: query, Budget: math.MaxInt32, N: 10000})
		if err != nil {
			t.Fatal(err)
		}
		var want []Span
		for _, s := range sn {
			want = append(want, s.Hits...)
		}
		slices.SortFunc(want, func(a, b Span) int { return a.Start - b.Start })
		if len(hits) == 0 || !slices.Equal(hits, want) {
			t.Errorf("%q: %d hits, the snippets' %d:\n%v\n%v", query, len(hits), len(want), hits, want)
		}
	}
}
