package qsc

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

// news is a 30-sentence news story (testdata/news.txt).
func news(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("testdata/news.txt")
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestSnippetCandidates(t *testing.T) {
	doc := "Police arrested two men. The arrests followed a party for art lovers. " +
		"Officers said the children were safe. A child was found in New York on Monday. Nothing here, newly york."
	q, err := newTermQuery([]string{"arrest", "POLICE", "art", "children", "new york", "Arrests"})
	if err != nil {
		t.Fatal(err)
	}
	if q.q.Len() != 5 {
		t.Errorf("%d terms, want 5 (arrest and Arrests are one)", q.q.Len())
	}
	type want struct {
		sent  int
		terms int
		hits  string
	}
	wants := []want{ // in rank order: terms, then position
		{0, 2, "Police arrested"},
		{1, 2, "arrests art"},    // not "party"
		{3, 2, "child New York"}, // "newly york" in sentence 5 is not the phrase
		{2, 1, "children"},
	}
	sentOf := map[int]int{} // the index of the sentence at each offset
	for i, s := range tokenize.Sentences(doc) {
		sentOf[s.Tokens[0].Start] = i
	}
	for n := range 6 {
		best, matched, shortest, _ := q.collect(doc, n, 1000)
		var got []want
		for _, c := range best {
			var hits []string
			for _, h := range c.hits {
				tok := c.s.Tokens[h]
				if doc[tok.Start:tok.End] != tok.Form {
					t.Errorf("token %q at %d:%d, document has %q", tok.Form, tok.Start, tok.End, doc[tok.Start:tok.End])
				}
				hits = append(hits, tok.Form)
			}
			got = append(got, want{sentOf[c.start()], c.terms, strings.Join(hits, " ")})
		}
		// No sentence has all the terms: every sentence is read.
		if !slices.Equal(got, wants[:min(n, 4)]) || matched != 4 || shortest != 0 {
			t.Errorf("n=%d: candidates = %v, %d matched, shortest %d; want %v, 4, 0", n, got, matched, shortest, wants[:min(n, 4)])
		}
	}
	// Over budget: skipped, and the shortest query is reported.
	if best, _, shortest, _ := q.collect(doc, 3, 10); len(best) != 1 || sentOf[best[0].start()] != 2 || shortest != 11 {
		t.Errorf("budget 10: %d candidates, shortest %d; want sentence 2 and 11 (\"arrests art\")", len(best), shortest)
	}
}

// TestCollectMostTerms checks collect with a query of MaxQueryTerms distinct terms, the
// most its scratch memory holds: the words of the news story in turn, each kept when it
// is a term of its own, so that the story's first sentence holds every term of its words.
func TestCollectMostTerms(t *testing.T) {
	doc := news(t)
	first, _, _ := strings.Cut(doc, "\n")
	var terms []string
	inFirst, firstWords := 0, len(tokenizeWords(first)) // inFirst: the terms of those words
	for i, w := range tokenizeWords(doc) {
		if i == firstWords {
			inFirst = len(terms)
		}
		q, err := newTermQuery(append(terms, w))
		if err != nil {
			t.Fatal(err)
		}
		if q.q.Len() > len(terms) {
			terms = append(terms, w)
		}
		if len(terms) == MaxQueryTerms {
			break
		}
	}
	q, err := newTermQuery(terms)
	if err != nil || q.q.Len() != MaxQueryTerms {
		t.Fatalf("%d terms (%v), want %d distinct", len(terms), err, MaxQueryTerms)
	}
	best, matched, _, err := q.collect(doc, 1, 1<<20)
	if err != nil || len(best) != 1 || best[0].terms < inFirst || matched == 0 {
		t.Fatalf("%d candidates (%v), %d matched; want one with at least %d terms", len(best), err, matched, inFirst)
	}
}

// TestChunks checks that cutting a document at blank lines gives the tokens and sentences
// of the whole document.
func TestChunks(t *testing.T) {
	doc := "Title line\n\n" + strings.ReplaceAll(news(t), "\n", "\n \t\r\n") +
		"\n\nI moved to Mass.\n\nThe end was near Boston, Mass.\n   \nand so on. San\n\nFrancisco-based firms, the U.S.\r\n\r\nThe \"end.\"\n\n:)\n\n\n"
	want := tokenize.Sentences(doc)
	for _, size := range []int{0, 1, 40, 500, len(doc)} {
		var got []syntax.Sentence
		for start := 0; start < len(doc); {
			end := chunkEnd(doc, start, size)
			if end <= start {
				t.Fatalf("size %d: chunk [%d, %d)", size, start, end)
			}
			for _, s := range tokenize.Sentences(doc[start:end]) {
				for i := range s.Tokens {
					s.Tokens[i].Start += start
					s.Tokens[i].End += start
				}
				got = append(got, s)
			}
			start = end
		}
		if !slices.EqualFunc(got, want, func(a, b syntax.Sentence) bool { return slices.Equal(a.Tokens, b.Tokens) }) {
			t.Errorf("size %d: %d sentences, want %d", size, len(got), len(want))
		}
	}
}

// TestSnippetsQueryIsNearestOccurrences checks that a sentence's query is the occurrence
// of each term it contains that lie closest together (match.Terms.Pick), the first for a
// query of one term, and that the other occurrences are hits only if kept.
func TestSnippetsQueryIsNearestOccurrences(t *testing.T) {
	doc := "The police said police cars blocked the road while police officers searched the police station."
	for _, c := range []struct {
		terms []string
		query []int
		hits  []int32
	}{
		{[]string{"police", "road"}, []int{8, 10}, []int32{1, 3, 7, 9, 13}}, // "road while police", not the first "police"
		{[]string{"police"}, []int{2}, []int32{1, 3, 9, 13}},
		{[]string{"police", "station"}, []int{14, 15}, []int32{1, 3, 9, 13, 14}},
	} {
		q, err := newTermQuery(c.terms)
		if err != nil {
			t.Fatal(err)
		}
		k, _, _, _ := q.collect(doc, 3, 100)
		if len(k) != 1 || !slices.Equal(k[0].query, c.query) || !slices.Equal(k[0].hits, c.hits) {
			t.Errorf("%q: candidates = %+v, want query %v and hits %v", c.terms, k, c.query, c.hits)
		}
	}
}

// TestSnippetsInvariants checks every snippet of the news story for many queries and
// budgets: exact offsets, the budget, the query terms kept and marked, and the ranking.
func TestSnippetsInvariants(t *testing.T) {
	e := newEngine(t)
	doc := news(t)
	queries := [][]string{
		{"police", "arrest"}, {"burglary", "university"}, {"children"}, {"Syracuse Police Department"},
		{"officer", "patrol", "hire"}, {"court"}, {"said"}, {"art"}, {"don't"},
	}
	for _, query := range queries {
		keys := map[string]bool{}
		for _, term := range query {
			for _, w := range match.Words(term) {
				keys[match.Key(w)] = true
			}
		}
		for _, budget := range []int{30, 60, 100, 400} {
			for _, n := range []int{0, 1, 5} {
				sn, err := e.Snippets(context.Background(), doc, query, budget, n)
				if errors.Is(err, ErrInfeasible) && budget == 30 {
					continue
				}
				if err != nil {
					t.Fatalf("%v b=%d n=%d: %v", query, budget, n, err)
				}
				if max(n, DefaultSnippets*boolInt(n == 0)) < len(sn) {
					t.Errorf("%v n=%d: %d snippets", query, n, len(sn))
				}
				for i, s := range sn {
					checkSnippet(t, doc, s, budget, keys)
					if i > 0 && (s.Score >= sn[i-1].Score || s.Terms > sn[i-1].Terms) {
						t.Errorf("%v: snippet %d (terms %d, score %v) ranks after (%d, %v)", query, i, s.Terms, s.Score, sn[i-1].Terms, sn[i-1].Score)
					}
				}
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkSnippet checks one snippet against the document.
func checkSnippet(t *testing.T, doc string, s Snippet, budget int, keys map[string]bool) {
	t.Helper()
	if s.Sentence.Start < 0 || s.Sentence.End > len(doc) || s.Sentence.Start >= s.Sentence.End {
		t.Fatalf("sentence span %v out of the document", s.Sentence)
	}
	if utf8.RuneCountInString(s.Text) > budget {
		t.Errorf("%q is over the budget %d", s.Text, budget)
	}
	// The runs, without white space, spell the text without white space.
	var runs strings.Builder
	end := s.Sentence.Start
	for _, k := range s.Kept {
		if k.Start < end || k.End <= k.Start || k.End > s.Sentence.End {
			t.Fatalf("kept %v: span %v out of order or outside the sentence %v", s.Kept, k, s.Sentence)
		}
		runs.WriteString(doc[k.Start:k.End])
		end = k.End
	}
	nospace := func(x string) string { return strings.Join(strings.Fields(x), "") }
	if nospace(runs.String()) != nospace(s.Text) {
		t.Errorf("kept runs spell %q, text is %q", runs.String(), s.Text)
	}
	// Hits are kept tokens that match a term, and every matched term has a hit.
	matched := map[string]bool{}
	end = 0
	for _, h := range s.Hits {
		if h.Start < end || !slices.ContainsFunc(s.Kept, func(k Span) bool { return k.Start <= h.Start && h.End <= k.End }) {
			t.Errorf("hit %v out of order or not kept (%v)", h, s.Kept)
		}
		k := match.Key(doc[h.Start:h.End])
		if !keys[k] {
			t.Errorf("hit %q matches no query term", doc[h.Start:h.End])
		}
		matched[k] = true
		end = h.End
	}
	if s.Terms < 1 || len(matched) == 0 {
		t.Errorf("%q: terms %d, hits %v", s.Text, s.Terms, s.Hits)
	}
}

func TestSnippetsRanking(t *testing.T) {
	e := newEngine(t)
	doc := news(t)
	sn, err := e.Snippets(context.Background(), doc, []string{"police", "arrest"}, 400, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Only the first sentence has both terms; then the earliest with one term.
	starts := []string{"Police in Syracuse arrested", "The men, aged 23", "\"This was a patient"}
	if len(sn) != 3 {
		t.Fatalf("%d snippets, want 3", len(sn))
	}
	for i, s := range sn {
		if !strings.HasPrefix(doc[s.Sentence.Start:], starts[i]) || s.Terms != 2-min(i, 1) {
			t.Errorf("snippet %d: terms %d, sentence %q, want %q…", i, s.Terms, doc[s.Sentence.Start:s.Sentence.End], starts[i])
		}
	}
}

// TestSnippetsRepeatedSentence checks that a sentence repeated in a document (a title
// repeated in the body) gives one snippet, not the same one twice.
func TestSnippetsRepeatedSentence(t *testing.T) {
	e := newEngine(t)
	doc := "Can police trace a cell phone?\n\nCan police trace a cell phone? The police said no."
	sn, err := e.Snippets(context.Background(), doc, []string{"police"}, 200, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sn {
		got = append(got, doc[s.Sentence.Start:s.Sentence.End])
	}
	if want := []string{"Can police trace a cell phone?", "The police said no."}; !slices.Equal(got, want) {
		t.Errorf("snippets of %q: %q, want %q", doc, got, want)
	}
}

func TestSnippetsBadRequests(t *testing.T) {
	e := newEngine(t)
	doc := news(t)
	many := make([]string, MaxQueryTerms+1)
	for i := range many {
		many[i] = "w"
	}
	cases := []struct {
		name string
		req  SnippetRequest
		want error
		msg  string
	}{
		{"no budget", SnippetRequest{Document: doc, Query: []string{"police"}}, ErrBadRequest, "budget must be a positive"},
		{"negative n", SnippetRequest{Document: doc, Query: []string{"police"}, Budget: 50, N: -1}, ErrBadRequest, "n must be"},
		{"huge document", SnippetRequest{Document: strings.Repeat("a ", MaxDocumentBytes/2+1), Query: []string{"a"}, Budget: 50}, ErrBadRequest, "more than the maximum"},
		{"invalid UTF-8", SnippetRequest{Document: "Police \xffarrived.", Query: []string{"police"}, Budget: 50}, ErrBadRequest, "byte offset 7"},
		{"no query", SnippetRequest{Document: doc, Budget: 50}, ErrBadRequest, "at least one query term"},
		{"blank term", SnippetRequest{Document: doc, Query: []string{"police", " "}, Budget: 50}, ErrBadRequest, "query term 2"},
		{"invalid term", SnippetRequest{Document: doc, Query: []string{"a\xff"}, Budget: 50}, ErrBadRequest, "query term 1 is not valid UTF-8"},
		{"many terms", SnippetRequest{Document: doc, Query: many, Budget: 50}, ErrBadRequest, "65 query terms"},
		{"long term", SnippetRequest{Document: doc, Query: []string{strings.Repeat("w ", MaxTermWords+1)}, Budget: 50}, ErrBadRequest, "17 words"},
		{"unknown method", SnippetRequest{Document: doc, Query: []string{"police"}, Budget: 50, Method: "magic"}, ErrUnknownMethod, `"magic"`},
		{"infeasible", SnippetRequest{Document: doc, Query: []string{"investigation"}, Budget: 10}, ErrInfeasible, "shortest needs 15"}, // "… investigation"
		{"infeasible, tokens", SnippetRequest{Document: doc, Query: []string{"investigation"}, Budget: 10, BudgetCounts: BudgetTokens}, ErrInfeasible, "shortest needs 13"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.DoSnippets(context.Background(), &c.req)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, c.want, c.msg)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Snippets(ctx, doc, []string{"police"}, 50, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestSnippetsEdgeCases(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	for _, doc := range []string{"", "   \n\n", "Nothing to see here.", "The party was for art lovers."} {
		sn, err := e.Snippets(ctx, doc, []string{"police", "arts and crafts"}, 50, 3)
		if err != nil || sn == nil || len(sn) != 0 {
			t.Errorf("%q: %v, %v; want an empty slice", doc, sn, err)
		}
	}
	// A sentence whose query does not fit is skipped for one that does.
	doc := "The investigators of the police department were praised. Police left."
	sn, err := e.Snippets(ctx, doc, []string{"investigators", "police"}, 12, 3)
	if err != nil || len(sn) != 1 || !strings.HasPrefix(doc[sn[0].Sentence.Start:], "Police left") {
		t.Errorf("got %+v, %v; want the second sentence only", sn, err)
	}
	// Offsets stay exact with multi-byte characters and odd spacing.
	doc = "Ünïcode  “quotes”\tand   the Police’s\n\nnew caf\u00e9 — arrested   nobody."
	sn, err = e.Snippets(ctx, doc, []string{"police", "café", "arrest"}, 200, 3)
	if err != nil || len(sn) != 2 {
		t.Fatalf("got %+v, %v; want 2 snippets", sn, err)
	}
	var hits []string
	for _, s := range sn {
		checkSnippet(t, doc, s, 200, map[string]bool{"polic": true, "cafe": true, "arrest": true})
		for _, h := range s.Hits {
			hits = append(hits, doc[h.Start:h.End])
		}
	}
	if !slices.Equal(hits, []string{"café", "arrested", "Police"}) {
		t.Errorf("hits %q", hits)
	}
	// The VERTEX ADDITION methods work.
	for _, m := range []string{method.NameLR, method.NameAblated, baseline.NameRandom} {
		if _, err := e.DoSnippets(ctx, &SnippetRequest{Document: news(t), Query: []string{"police"}, Budget: 60, Method: m}); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
}

// TestSnippetsDeterministic checks that parallel and serial compression agree.
func TestSnippetsDeterministic(t *testing.T) {
	e := newEngine(t)
	doc := news(t)
	query := []string{"police", "court", "university", "children"}
	want, err := e.Snippets(context.Background(), doc, query, 70, 8)
	if err != nil {
		t.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	got, err := e.Snippets(context.Background(), doc, query, 70, 8)
	runtime.GOMAXPROCS(prev)
	if err != nil || !equalSnippets(got, want) {
		t.Errorf("serial and parallel results differ: %v (%v)", got, err)
	}
	// A long document: the top snippets are those of its first copy.
	long := strings.Repeat(doc+"\n\n", MaxDocumentBytes/(len(doc)+2))
	got, err = e.Snippets(context.Background(), long, query, 70, 8)
	if err != nil || !equalSnippets(got[:3], want[:3]) {
		t.Errorf("long document: %v (%v)", got, err)
	}
}

func equalSnippets(a, b []Snippet) bool {
	return slices.EqualFunc(a, b, func(x, y Snippet) bool {
		return x.Sentence == y.Sentence && slices.Equal(x.Kept, y.Kept) && slices.Equal(x.Hits, y.Hits) &&
			x.Text == y.Text && x.Terms == y.Terms
	})
}

// BenchmarkSnippets measures Snippets on the 30-sentence news story (3 snippets of 80
// characters), beside tokenizing it alone and beside tagging and parsing every sentence,
// and on a 1 MiB document (the story repeated).
func BenchmarkSnippets(b *testing.B) {
	e, err := New()
	if err != nil {
		b.Fatal(err)
	}
	doc := news(b)
	ctx := context.Background()
	query := []string{"police", "arrest"}
	b.Run("news30", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Snippets(ctx, doc, query, 80, 3); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("news30-tokenize-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tokenize.Sentences(doc)
		}
	})
	b.Run("news30-parse-all", func(b *testing.B) {
		b.ReportAllocs()
		w := e.pool.Get().(*worker)
		defer e.pool.Put(w)
		for b.Loop() {
			if _, err := w.pw.Text(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	long := strings.Repeat(doc+"\n\n", MaxDocumentBytes/(len(doc)+2))
	b.Run("1MiB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(long)))
		for b.Loop() {
			if _, err := e.Snippets(ctx, long, query, 80, 3); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSnippetsIrregularForms is the regression test of the first-rune filter (issue 23):
// an irregular form whose key begins with another letter (went → go, ate → eat) is found
// by its infinitive, and the reverse.
func TestSnippetsIrregularForms(t *testing.T) {
	e := newEngine(t)
	doc := "The children ate the cake quickly. Then everyone went home after the party."
	for _, c := range []struct{ term, hit string }{
		{"eat", "ate"}, {"go", "went"}, {"Ate", "ate"}, {"goes", "went"}, {"eaten", "ate"},
	} {
		sn, err := e.Snippets(context.Background(), doc, []string{c.term}, 60, 1)
		if err != nil || len(sn) != 1 || len(sn[0].Hits) != 1 || doc[sn[0].Hits[0].Start:sn[0].Hits[0].End] != c.hit {
			t.Errorf("query %q: %+v, %v; want one snippet with the hit %q", c.term, sn, err, c.hit)
		}
	}
	doc = "They eat at noon. We go there."
	for _, c := range []struct{ term, hit string }{{"ate", "eat"}, {"went", "go"}} {
		sn, err := e.Snippets(context.Background(), doc, []string{c.term}, 60, 1)
		if err != nil || len(sn) != 1 || len(sn[0].Hits) != 1 || doc[sn[0].Hits[0].Start:sn[0].Hits[0].End] != c.hit {
			t.Errorf("query %q: %+v, %v; want one snippet with the hit %q", c.term, sn, err, c.hit)
		}
	}
}

// TestCompiledQueries checks the cache of compiled queries: the same terms give the same
// compiled query, terms that differ only in how they split do not, a refused query is
// refused every time, and a long query is compiled without being kept.
func TestCompiledQueries(t *testing.T) {
	a, err := compileQuery([]string{"police", "Syracuse"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compileQuery([]string{"police", "Syracuse"})
	if a != b {
		t.Error("the same terms compiled twice")
	}
	if c, _ := compileQuery([]string{"police Syracuse"}); c == a {
		t.Error("one term of two words shares the query of two terms")
	}
	for range 2 {
		if _, err := compileQuery([]string{"ok", "\xff"}); !errors.Is(err, ErrBadRequest) {
			t.Fatalf("invalid UTF-8: %v", err)
		}
	}
	long := []string{strings.Repeat("long", 100)}
	if _, err := compileQuery(long); err != nil {
		t.Fatal(err)
	}
	key := string(binary.AppendUvarint(nil, 400)) + long[0]
	compiledQueries.mu.RLock()
	_, kept := compiledQueries.m[key]
	compiledQueries.mu.RUnlock()
	if kept {
		t.Error("a query of 400 bytes was kept")
	}
}

// TestCheckLang: a language code is ISO 639-1 (or 639-3, mapped when qsc knows it), with a
// subtag or not; two letters that are no language are refused, and a country's code gets
// its language's as a hint. The hints are all countries, each pointing to a language.
func TestCheckLang(t *testing.T) {
	for in, want := range map[string]string{"en-US": "en", "zh_Hant": "zh", "SW": "sw", "eng": "en", "yue": "yue", "iw": "iw", "tw": "tw"} {
		if got, err := checkLang(in); err != nil || got != want {
			t.Errorf("checkLang(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, hint := range map[string]string{"jp": `did you mean "ja"`, "xx": "not an ISO 639-1 language code", "JP-jp": `did you mean "ja"`} {
		if _, err := checkLang(in); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), hint) {
			t.Errorf("checkLang(%q): %v, want an error with %q", in, err, hint)
		}
	}
	for _, code := range []string{"aa", "sw", "tw", "zu", "iw", "in", "ji"} {
		if !isISO6391(code) {
			t.Errorf("%s is an ISO 639-1 code", code)
		}
	}
	for country, lang := range countryNotLanguage {
		if isISO6391(country) || !isISO6391(lang) {
			t.Errorf("hint %s → %s: the country is a language code, or the language is not", country, lang)
		}
	}
}

// TestSnippetsDistinct: two sentences that compress to the same words give one snippet,
// the first; the others are kept in rank order.
func TestSnippetsDistinct(t *testing.T) {
	e := sharedEngine(t)
	doc := "Police arrested two men on Tuesday in Syracuse after a long investigation into burglaries.\n\n" +
		"Police arrested two men on Monday in Syracuse after a long investigation into burglaries.\n\n" +
		"Police said the burglaries had stopped."
	sn, err := e.Snippets(context.Background(), doc, []string{"police", "burglaries"}, 40, 3)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range sn {
		texts = append(texts, s.Text)
	}
	if want := []string{"Police arrested two men burglaries.", "Police said the burglaries had stopped."}; !slices.Equal(texts, want) {
		t.Errorf("snippets %q, want %q", texts, want)
	}
}

// TestSnippetsCoverTerms checks that a document's snippets show each query term it has
// where n allows, the rest in rank order: before, the first n sentences with one term
// were shown, and a term found only later in the document never was. The long document
// exercises the prefilter, which must not skip the paragraph with the other term.
func TestSnippetsCoverTerms(t *testing.T) {
	e := sharedEngine(t)
	short := "The plaintiff alleged negligence in the design of the bridge.\n\n" +
		"The court found that negligence was not established for the first span.\n\n" +
		"A second claim of negligence concerned the railings.\n\n" +
		"The jury awarded no damages for the lost harvest."
	var long strings.Builder
	for i := range 60 {
		fmt.Fprintf(&long, "Claim %d alleged negligence by the county engineers.\n\n", i+1)
		long.WriteString("The weather in the valley was mild that spring.\n\n")
	}
	long.WriteString("The jury awarded no damages for the lost harvest.\n")
	for _, doc := range []string{short, long.String()} {
		checkPrefilter(t, e, &SnippetRequest{Document: doc, Query: []string{"negligence", "damages"}, Budget: 80, N: 3})
		sn, err := e.Snippets(context.Background(), doc, []string{"negligence", "damages"}, 80, 3)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, s := range sn {
			texts = append(texts, s.Text)
		}
		if len(sn) != 3 || !strings.Contains(texts[0], "negligence") || !strings.Contains(texts[2], "damages") {
			t.Errorf("snippets %q: want two with negligence, in order, then the one with damages", texts)
		}
	}
	// A sentence with both terms ranks first, and covers them: the rest in rank order.
	both := "Negligence was alleged.\n\nNegligence again.\n\nNo damages and no negligence were found."
	sn, err := e.Snippets(context.Background(), both, []string{"negligence", "damages"}, 80, 2)
	if err != nil || len(sn) != 2 || sn[0].Terms != 2 || sn[1].Text != "Negligence was alleged." {
		t.Errorf("both terms first: %+v, %v", sn, err)
	}
}

// TestSnippetsBareLast checks that a sentence of the query's words alone (a heading,
// "Retries", a signature's name) is chosen after the sentences that say something of its
// terms ("Retries" is not, "Webhooks" is, as the third), and does not keep such a
// sentence from the candidates; alone, it is still shown.
func TestSnippetsBareLast(t *testing.T) {
	e := sharedEngine(t)
	doc := "Webhooks\n\nWebhooks tell your server when an invoice is paid.\n\nRetries\n\n" +
		"If your endpoint does not answer, Tidewater retries for up to 72 hours."
	checkPrefilter(t, e, &SnippetRequest{Document: doc, Query: []string{"webhook", "retries"}, Budget: 80, N: 3})
	sn, err := e.Snippets(context.Background(), doc, []string{"webhook", "retries"}, 80, 3)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range sn {
		texts = append(texts, s.Text)
	}
	want := []string{"Webhooks", "Webhooks tell your server when an invoice is paid.",
		"If your endpoint does not answer, Tidewater retries for up to 72 hours."} // in the document's order
	if !slices.Equal(texts, want) {
		t.Errorf("snippets %q, want %q", texts, want)
	}
	if sn, err := e.Snippets(context.Background(), "Retries\n\nThe weather was mild.", []string{"retries"}, 80, 3); err != nil || len(sn) != 1 || sn[0].Text != "Retries" {
		t.Errorf("a bare sentence alone: %+v %v", sn, err)
	}
}
