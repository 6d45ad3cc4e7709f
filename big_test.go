package qsc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// bigDocument returns a document of about size bytes: the paragraph filler repeated,
// separated by blank lines, then the paragraph tail (when not empty) at its end.
func bigDocument(filler, tail string, size int) string {
	var b strings.Builder
	for b.Len()+len(filler)+len(tail)+4 <= size {
		b.WriteString(filler)
		b.WriteString("\n\n")
	}
	b.WriteString(tail)
	return b.String()
}

// shuffledDocument returns a document of about size bytes whose paragraphs are the lines
// of story in a random order each (a fixed seed): distinct paragraphs, each with every
// sentence of the story.
func shuffledDocument(story string, size int) string {
	lines := strings.Split(strings.TrimSpace(story), "\n")
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for b.Len()+len(story)+2 <= size {
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		b.WriteString(strings.Join(lines, "\n"))
		b.WriteString("\n\n")
	}
	return b.String()
}

// numberedDocument is shuffledDocument with its lines numbered ("12.3 The men, …"), so
// that no line repeats another, except the story's first, the only one with both terms of
// BenchmarkBigDocument's query, which stays one candidate.
func numberedDocument(story string, size int) string {
	first, _, _ := strings.Cut(story, "\n")
	var b strings.Builder
	for i, p := range strings.Split(shuffledDocument(story, size*19/20), "\n\n") {
		if p == "" {
			continue
		}
		for j, l := range strings.Split(p, "\n") {
			if l == first {
				b.WriteString(l + "\n")
				continue
			}
			fmt.Fprintf(&b, "%d.%d %s\n", i+1, j+1, l)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// rewrapped returns doc with the lines of each paragraph joined by spaces and wrapped again
// at width columns (bytes), greedily between words: sentence ends fall inside lines and
// line breaks inside sentences, as in hard-wrapped prose. With lower, a line breaks only
// before a word that begins with a lowercase letter (a longer line waits for one), so
// that no line break ends a sentence (tokenize.Sentences). A width of 0 puts each
// paragraph on one line.
func rewrapped(doc string, width int, lower bool) string {
	var b strings.Builder
	for p := range strings.SplitSeq(doc, "\n\n") {
		if p == "" {
			continue
		}
		col := 0
		for i, w := range strings.Fields(p) {
			switch {
			case i == 0:
			case width > 0 && col+1+len(w) > width && (!lower || 'a' <= w[0] && w[0] <= 'z'):
				b.WriteByte('\n')
				col = 0
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += len(w)
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// languageFixture reads testdata/languages/lang.txt, trimmed.
func languageFixture(tb testing.TB, lang string) string {
	tb.Helper()
	b, err := os.ReadFile("testdata/languages/" + lang + ".txt")
	if err != nil {
		tb.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// Paragraphs that end the big documents of BenchmarkBigDocument: their only sentences
// with the query's terms.
const (
	tailEnglish  = "The volcano's eruption on Sunday forced the evacuation of three villages, officials said. Ash from the eruption closed the airport for two days."
	tailGerman   = "Die Regierung will die Steuern für kleine Unternehmen im nächsten Jahr deutlich senken, sagte der Finanzminister am Mittwoch in Berlin."
	tailJapanese = "政府は水曜日、中小企業の税金を引き下げると決めた。"
)

// BenchmarkBigDocument measures the snippets of documents of 1 MiB (MaxDocumentBytes)
// from raw text, and their Hits (the "-hits" rows) (issue 35, point 7; docs/scale.md): the news story repeated, where every
// paragraph matches ("repeated"); its sentences shuffled in each paragraph, so that no
// two paragraphs are the same ("shuffled": one sentence of the story has both terms,
// so every paragraph is read), and its lines numbered as well, so that no line repeats
// but the one with both terms ("numbered"); both of these with their paragraphs wrapped at
// 72 columns, so that sentences end inside lines ("wrapped"), and with each paragraph on
// one line ("one-line"); and documents whose only matching sentences are in their last
// paragraph ("end"), in English, German and Japanese. A wrapped story's first sentence,
// the one with both terms, is cut by line breaks before a capital (where the tokenizer
// ends a sentence) at other places in each paragraph, so that it soon gives three
// distinct candidates; "apart" asks for two terms that every paragraph holds and no
// sentence, so that reading never ends early, and "wrapped-lower" breaks lines only
// before lowercase words, so that no line break ends a sentence. The language fixtures
// numbered as the story is ("de-numbered" … "th-numbered": German, Russian, Arabic,
// Japanese and Thai, every paragraph a match and none repeated) are the same worst case
// for the languages without an English model.
func BenchmarkBigDocument(b *testing.B) {
	e := sharedEngine(b)
	ctx := context.Background()
	story := news(b)
	de, ja := languageFixture(b, "de"), languageFixture(b, "ja")
	ru, ar, th := languageFixture(b, "ru"), languageFixture(b, "ar"), languageFixture(b, "th")
	for _, c := range []struct {
		name string
		doc  string
		q    []string
	}{
		{"en-repeated", bigDocument(story, "", MaxDocumentBytes), []string{"police", "arrest"}},
		{"en-shuffled", shuffledDocument(story, MaxDocumentBytes), []string{"police", "arrest"}},
		{"en-shuffled-one-term", shuffledDocument(story, MaxDocumentBytes), []string{"police"}},
		{"en-numbered", numberedDocument(story, MaxDocumentBytes), []string{"police", "arrest"}},
		{"en-wrapped", rewrapped(shuffledDocument(story, MaxDocumentBytes), 72, false), []string{"police", "arrest"}},
		{"en-wrapped-numbered", rewrapped(numberedDocument(story, MaxDocumentBytes), 72, false), []string{"police", "arrest"}},
		{"en-wrapped-apart", rewrapped(shuffledDocument(story, MaxDocumentBytes), 72, false), []string{"Buckner", "Lopez"}},
		{"en-wrapped-lower-apart", rewrapped(shuffledDocument(story, MaxDocumentBytes), 72, true), []string{"Buckner", "Lopez"}},
		{"en-one-line", rewrapped(shuffledDocument(story, MaxDocumentBytes), 0, false), []string{"police", "arrest"}},
		{"en-one-line-numbered", rewrapped(numberedDocument(story, MaxDocumentBytes), 0, false), []string{"police", "arrest"}},
		{"en-one-line-apart", rewrapped(shuffledDocument(story, MaxDocumentBytes), 0, false), []string{"Buckner", "Lopez"}},
		{"en-shuffled-apart", shuffledDocument(story, MaxDocumentBytes), []string{"Buckner", "Lopez"}},
		{"en-end", bigDocument(story, tailEnglish, MaxDocumentBytes), []string{"volcano", "eruption"}},
		{"de-repeated", bigDocument(de, "", MaxDocumentBytes), []string{"Übergang"}},
		{"de-end", bigDocument(de, tailGerman, MaxDocumentBytes), []string{"Steuer"}},
		{"ja-repeated", bigDocument(ja, "", MaxDocumentBytes), []string{"移民"}},
		{"ja-end", bigDocument(ja, tailJapanese, MaxDocumentBytes), []string{"税金"}},
		{"de-numbered", numberedDocument(de, MaxDocumentBytes), []string{"Übergang"}},
		{"ru-numbered", numberedDocument(ru, MaxDocumentBytes), []string{"президента"}},
		{"ar-numbered", numberedDocument(ar, MaxDocumentBytes), []string{"الانتقال"}},
		{"ja-numbered", numberedDocument(ja, MaxDocumentBytes), []string{"移民"}},
		{"th-numbered", numberedDocument(th, MaxDocumentBytes), []string{"ระบบ"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			sn, err := e.Snippets(ctx, c.doc, c.q, 80, 3)
			if err != nil || len(sn) == 0 {
				b.Fatalf("%v, %v: want snippets", sn, err)
			}
			if strings.HasSuffix(c.name, "-apart") && sn[0].Terms != 1 {
				b.Fatalf("%v: want no sentence with both terms", sn)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(c.doc)))
			for b.Loop() {
				if _, err := e.Snippets(ctx, c.doc, c.q, 80, 3); err != nil {
					b.Fatal(err)
				}
			}
		})
		// Every occurrence of the terms (Engine.Hits), as a page that shows the whole
		// document marks them: no early end, repeats read.
		b.Run(c.name+"-hits", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.doc)))
			for b.Loop() {
				if hits, err := e.Hits(ctx, c.doc, c.q, ""); err != nil || len(hits) == 0 {
					b.Fatalf("%d hits, %v", len(hits), err)
				}
			}
		})
	}
}

// BenchmarkNoMatch measures a document of 10 KB where no term matches (issue 35, point
// 7): the news story, English, with queries of several first letters (the matcher once
// keyed every token whose first letter a query word shares), and the German, French,
// Spanish and Japanese fixtures, German and French also with their language given (no
// identification). "impôt" is a near miss: every paragraph of the French fixture has
// "imposant", so its sentences are candidates that the French analyzer then rules out.
func BenchmarkNoMatch(b *testing.B) {
	e := sharedEngine(b)
	ctx := context.Background()
	const size = 10 << 10
	en := bigDocument(news(b), "", size)
	de := bigDocument(languageFixture(b, "de"), "", size)
	fr := bigDocument(languageFixture(b, "fr"), "", size)
	es := bigDocument(languageFixture(b, "es"), "", size)
	ja := bigDocument(languageFixture(b, "ja"), "", size)
	for _, c := range []struct {
		name, doc, q string
	}{
		{"en/xylophone", en, "xylophone"},
		{"en/zebra", en, "zebra"},
		{"en/senator", en, "senator"},
		{"en/tariff", en, "tariff"},
		{"en/quantum", en, "quantum"},
		{"de/Steuer", de, "Steuer"},
		{"de/Steuer/lang-given", de, "Steuer"},
		{"fr/volcan", fr, "volcan"},
		{"fr/impôt", fr, "impôt"},
		{"fr/impôt/lang-given", fr, "impôt"},
		{"es/impuesto", es, "impuesto"},
		{"ja/税金", ja, "税金"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := &SnippetRequest{Document: c.doc, Query: []string{c.q}, Budget: 80}
			if strings.HasSuffix(c.name, "lang-given") {
				req.Lang, _, _ = strings.Cut(c.name, "/")
			}
			if sn, err := e.DoSnippets(ctx, req); err != nil || len(sn) != 0 {
				b.Fatalf("%v, %v: want no snippet", sn, err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(c.doc)))
			for b.Loop() {
				if _, err := e.DoSnippets(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
