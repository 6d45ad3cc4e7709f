package parser

import (
	"cmp"
	"os"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/cputime"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tagger"
)

const (
	parserModelPath = "../internal/core/pipeline/en-ewt-parser-v3.qsm"
	taggerModelPath = "../internal/core/pipeline/en-ewt-tagger-v4.qsm"
)

func readTreebank(tb testing.TB, rel string) []*syntax.Sentence {
	tb.Helper()
	cs, err := conllu.ReadAll(shared.Require(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]*syntax.Sentence, len(cs))
	for i, c := range cs {
		out[i] = syntax.FromCoNLLU(c)
	}
	return out
}

// loadModels loads the committed parser model and, when present, the tagger model; it
// skips when the parser model is absent. $QSC_PARSER_MODEL and $QSC_TAGGER_MODEL name
// other files, to benchmark other models with the same code.
func loadModels(tb testing.TB) (*Model, *tagger.Model) {
	tb.Helper()
	data, err := os.ReadFile(cmp.Or(os.Getenv("QSC_PARSER_MODEL"), parserModelPath))
	if err != nil {
		tb.Skipf("parser model not available: %v", err)
	}
	m, err := Load(data)
	if err != nil {
		tb.Fatal(err)
	}
	var tm *tagger.Model
	if data, err := os.ReadFile(cmp.Or(os.Getenv("QSC_TAGGER_MODEL"), taggerModelPath)); err == nil {
		if tm, err = tagger.Load(data); err != nil {
			tb.Fatal(err)
		}
	}
	return m, tm
}

// parseAll parses copies of gold, first re-tagging them with t when not nil.
func parseAll(tb testing.TB, m *Model, t *tagger.Tagger, gold []*syntax.Sentence) Score {
	tb.Helper()
	p := m.NewParser()
	var sc Score
	s := &syntax.Sentence{}
	for _, g := range gold {
		s.Tokens = append(s.Tokens[:0], g.Tokens...)
		if t != nil {
			t.Tag(s)
		}
		if err := p.Parse(s); err != nil {
			tb.Fatal(err)
		}
		sc.add(g, s)
	}
	return sc
}

// TestEWTAccuracy checks the committed model on EWT test against floors slightly under
// the figures measured when it was trained.
func TestEWTAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	m, tm := loadModels(t)
	test := readTreebank(t, shared.EWTTest)
	gold := parseAll(t, m, nil, test)
	t.Logf("EWT test, gold tags: %v", gold)
	if gold.LAS() < 83.5 || gold.UAS() < 86 {
		t.Errorf("EWT test with gold tags: %v, want LAS ≥ 83.5 and UAS ≥ 86", gold)
	}
	// Forms normalized like the Google compression train split parse the same.
	norm := make([]*syntax.Sentence, len(test))
	for i, g := range test {
		norm[i] = &syntax.Sentence{Tokens: append([]syntax.Token(nil), g.Tokens...)}
		for j := range norm[i].Tokens {
			norm[i].Tokens[j].Form = NormalizeForm(norm[i].Tokens[j].Form)
		}
	}
	if sc := parseAll(t, m, nil, norm); sc != gold {
		t.Errorf("EWT test with normalized forms and gold tags: %v, want %v as without normalization", sc, gold)
	}
	if tm == nil {
		t.Log("tagger model absent: predicted-tag check skipped")
		return
	}
	pred := parseAll(t, m, tm.NewTagger(), test)
	t.Logf("EWT test, predicted tags: %v", pred)
	if pred.LAS() < 82.1 || pred.UAS() < 85.1 {
		t.Errorf("EWT test with predicted tags: %v, want LAS ≥ 82.1 and UAS ≥ 85.1", pred)
	}
}

func benchSentences(b *testing.B) []*syntax.Sentence {
	dev := readTreebank(b, shared.EWTDev)
	return dev
}

// report adds throughput metrics: per wall-clock second, and per CPU-second of the
// process (cpu-sentences/s), which is the per-core speed when the machine is shared.
func report(b *testing.B, tokens int, cpu0 time.Duration) {
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "sentences/s")
	b.ReportMetric(float64(tokens)/sec, "tokens/s")
	if cpu := (cputime.Used() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu, "cpu-sentences/s")
	}
}

// BenchmarkParse parses EWT dev sentences (gold tags) with the committed model; one
// operation is one sentence.
func BenchmarkParse(b *testing.B) {
	m, _ := loadModels(b)
	dev := benchSentences(b)
	p := m.NewParser()
	s := &syntax.Sentence{Tokens: make([]syntax.Token, 0, 256)}
	for _, g := range dev { // warm up
		s.Tokens = append(s.Tokens[:0], g.Tokens...)
		p.Parse(s)
	}
	tokens := 0
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Used()
	for i := range b.N {
		g := dev[i%len(dev)]
		s.Tokens = append(s.Tokens[:0], g.Tokens...)
		if err := p.Parse(s); err != nil {
			b.Fatal(err)
		}
		tokens += len(g.Tokens)
	}
	report(b, tokens, cpu0)
}

// BenchmarkTagParse tags and parses EWT dev sentences with the committed tagger and
// parser models; one operation is one sentence.
func BenchmarkTagParse(b *testing.B) {
	m, tm := loadModels(b)
	if tm == nil {
		b.Skip("tagger model not available")
	}
	dev := benchSentences(b)
	p, t := m.NewParser(), tm.NewTagger()
	s := &syntax.Sentence{Tokens: make([]syntax.Token, 0, 256)}
	for _, g := range dev {
		s.Tokens = append(s.Tokens[:0], g.Tokens...)
		t.Tag(s)
		p.Parse(s)
	}
	tokens := 0
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Used()
	for i := range b.N {
		g := dev[i%len(dev)]
		s.Tokens = append(s.Tokens[:0], g.Tokens...)
		t.Tag(s)
		if err := p.Parse(s); err != nil {
			b.Fatal(err)
		}
		tokens += len(g.Tokens)
	}
	report(b, tokens, cpu0)
}
