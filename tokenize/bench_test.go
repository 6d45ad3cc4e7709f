package tokenize

import (
	"os"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/syntax"
)

// benchTokens tokenizes texts b.N times into a reused buffer and reports tokens/s and MB/s.
func benchTokens(b *testing.B, texts []string) {
	var bytes, toks int
	var buf []syntax.Token
	for _, t := range texts {
		bytes += len(t)
		toks += len(Tokens(t))
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			buf = AppendTokens(buf[:0], t)
		}
	}
	b.ReportMetric(float64(toks)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkTokensGoogle tokenizes the 10,000 Google test sentences (skips without data).
func BenchmarkTokensGoogle(b *testing.B) {
	path := shared.Require(b, shared.GoogleTest)
	sents, err := conllu.ReadAll(path)
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, len(sents))
	for i, s := range sents {
		texts[i], _ = s.Meta("text")
	}
	benchTokens(b, texts)
}

// BenchmarkTokensParagraph tokenizes the news fixture in testdata/paragraph.txt.
func BenchmarkTokensParagraph(b *testing.B) {
	data, err := os.ReadFile("testdata/paragraph.txt")
	if err != nil {
		b.Fatal(err)
	}
	benchTokens(b, []string{string(data)})
}

// BenchmarkSentencesParagraph splits the fixture into sentences (tokenizing it too).
func BenchmarkSentencesParagraph(b *testing.B) {
	data, err := os.ReadFile("testdata/paragraph.txt")
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	n := len(Tokens(text))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Sentences(text)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// TestParagraphFixture pins the sentence split of the benchmark fixture.
func TestParagraphFixture(t *testing.T) {
	data, err := os.ReadFile("testdata/paragraph.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range Sentences(string(data)) {
		got = append(got, strings.Join(s.Forms(), " "))
	}
	for _, g := range got {
		t.Log(g)
	}
	if len(got) != 11 {
		t.Errorf("got %d sentences, want 11", len(got))
	}
}
