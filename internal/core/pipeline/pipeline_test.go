package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/syntax"
)

func defaultPipeline(t testing.TB) *Pipeline {
	t.Helper()
	p, err := Default()
	if err != nil {
		t.Fatalf("embedded models: %v", err)
	}
	return p
}

func checkTree(t *testing.T, s *syntax.Sentence) {
	t.Helper()
	if _, err := syntax.NewTree(s.Heads()); err != nil {
		t.Fatalf("invalid tree %v: %v", s.Heads(), err)
	}
	for _, tok := range s.Tokens {
		if tok.XPOS == "" || tok.Rel == "" {
			t.Fatalf("token %q untagged or unlabelled", tok.Form)
		}
	}
}

func TestText(t *testing.T) {
	t.Run("default", func(t *testing.T) { testText(t, defaultPipeline(t)) })
	t.Run("accurate", func(t *testing.T) {
		p, err := Accurate()
		if err != nil {
			t.Fatalf("embedded models: %v", err)
		}
		testText(t, p)
	})
}

// TestEmbedded checks the two embedded pipelines: decoded once, the accurate one with the
// beam-search parser.
func TestEmbedded(t *testing.T) {
	d, a := defaultPipeline(t), must(Accurate())
	if d2, a2 := must(Embedded(false)), must(Embedded(true)); d2 != d || a2 != a {
		t.Error("Embedded does not return the pipelines of Default and Accurate, decoded once")
	}
	if d.Parser.Beam() != 1 || a.Parser.Beam() != 8 {
		t.Errorf("beams %d and %d, IDs %s and %s", d.Parser.Beam(), a.Parser.Beam(), d.ID(), a.ID())
	}
	if d.ID() == a.ID() {
		t.Error("the two pipelines share a cache ID")
	}
}

func must(p *Pipeline, err error) *Pipeline {
	if err != nil {
		panic(err)
	}
	return p
}

func testText(t *testing.T, p *Pipeline) {
	text := "Police in Syracuse arrested two men on Tuesday. They don't know why!\n\nMr. Smith paid $5.50."
	sents, err := p.NewWorker().Text(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(sents) != 3 {
		t.Fatalf("got %d sentences, want 3", len(sents))
	}
	for i := range sents {
		checkTree(t, &sents[i])
		for _, tok := range sents[i].Tokens {
			if text[tok.Start:tok.End] != tok.Form {
				t.Errorf("offsets of %q point at %q", tok.Form, text[tok.Start:tok.End])
			}
		}
	}
	if got := sents[1].Forms(); strings.Join(got, " ") != "They do n't know why !" {
		t.Errorf("sentence 2 tokens = %q", got)
	}
	// The verb heads the first sentence, as any sane parse of it has.
	s0 := sents[0]
	for _, tok := range s0.Tokens {
		if tok.Head == 0 && tok.Form != "arrested" {
			t.Errorf("root of sentence 1 is %q, want arrested", tok.Form)
		}
	}
	if got, err := p.NewWorker().Text(" \n\t "); err != nil || len(got) != 0 {
		t.Errorf("blank text: %v, %v", got, err)
	}
}

func TestSentenceKeepXPOS(t *testing.T) {
	w := defaultPipeline(t).NewWorker()
	s := &syntax.Sentence{Tokens: []syntax.Token{{Form: "dogs", XPOS: "NNS"}, {Form: "bark", XPOS: "VBP"}}}
	if err := w.Sentence(s, Options{KeepXPOS: true}); err != nil {
		t.Fatal(err)
	}
	if s.Tokens[0].XPOS != "NNS" || s.Tokens[1].XPOS != "VBP" {
		t.Errorf("tags changed: %+v", s.Tokens)
	}
	s.Tokens[1].XPOS = ""
	if err := w.Sentence(s, Options{KeepXPOS: true}); !errors.Is(err, ErrMissingXPOS) {
		t.Errorf("missing XPOS: err = %v", err)
	}
	if err := w.Sentence(&syntax.Sentence{}, Options{}); err == nil {
		t.Error("empty sentence: no error")
	}
}

// TestParseCoNLLU checks that re-parsing keeps everything but XPOS, HEAD and DEPREL, and
// that parallel workers give the same output as one.
func TestParseCoNLLU(t *testing.T) {
	p := defaultPipeline(t)
	in, err := os.ReadFile("testdata/sample.conllu")
	if err != nil {
		t.Fatal(err)
	}
	// Repeat the sample so that several batches run in parallel.
	var big bytes.Buffer
	for range 300 {
		big.Write(in)
	}
	run := func(workers int, keep bool) []byte {
		r, err := conllu.NewReader(bytes.NewReader(big.Bytes()), "sample")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		w := conllu.NewWriter(&out)
		st, err := p.ParseCoNLLU(context.Background(), r, w, Options{KeepXPOS: keep}, workers, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if st.Sentences != 900 {
			t.Fatalf("parsed %d sentences, want 900", st.Sentences)
		}
		return out.Bytes()
	}
	one, two := run(1, true), run(2, true)
	if !bytes.Equal(one, two) {
		t.Fatal("2 workers differ from 1")
	}
	orig, _ := conllu.NewReader(bytes.NewReader(in), "in")
	got, _ := conllu.NewReader(bytes.NewReader(one), "out")
	for {
		a, errA := orig.Next()
		b, errB := got.Next()
		if errA != nil || errB != nil {
			break
		}
		if strings.Join(a.Comments, "\n") != strings.Join(b.Comments, "\n") || len(a.Ranges) != len(b.Ranges) || len(a.Empty) != len(b.Empty) {
			t.Fatalf("comments, ranges or empty nodes changed")
		}
		for i := range a.Words {
			wa, wb := a.Words[i], b.Words[i]
			if wa.Form != wb.Form || wa.Lemma != wb.Lemma || wa.Misc != wb.Misc || wa.Deps != wb.Deps || wa.XPOS != wb.XPOS {
				t.Fatalf("word %d changed: %+v -> %+v", i+1, wa, wb)
			}
			if wb.Head == conllu.NoHead || wb.DepRel == "_" {
				t.Fatalf("word %d not parsed", i+1)
			}
		}
	}
	// Tagging instead of keeping XPOS still yields a parse of every sentence.
	if tagged := run(2, false); bytes.Count(tagged, []byte("\n\n")) != 900 {
		t.Error("tagged run lost sentences")
	}
}

func TestParseCoNLLUErrors(t *testing.T) {
	p := defaultPipeline(t)
	in := "# sent_id = a\n1\tdogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n# sent_id = b\n1\tbark\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
	r, _ := conllu.NewReader(strings.NewReader(in), "x")
	var out bytes.Buffer
	w := conllu.NewWriter(&out)
	st, err := p.ParseCoNLLU(context.Background(), r, w, Options{KeepXPOS: true}, 1, nil)
	if err == nil || !strings.Contains(err.Error(), "sentence b") || !errors.Is(err, ErrMissingXPOS) {
		t.Fatalf("err = %v, want missing XPOS in sentence b", err)
	}
	_ = st
	// A malformed file reports the reader's error with its line, after writing what came before.
	r, _ = conllu.NewReader(strings.NewReader("1\tdogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n1\tbad\n"), "bad.conllu")
	out.Reset()
	w = conllu.NewWriter(&out)
	st, err = p.ParseCoNLLU(context.Background(), r, w, Options{KeepXPOS: true}, 1, nil)
	w.Flush()
	if err == nil || !strings.Contains(err.Error(), "bad.conllu:3") || st.Sentences != 1 {
		t.Fatalf("err = %v, sentences = %d", err, st.Sentences)
	}
}

func BenchmarkText(b *testing.B) {
	w := defaultPipeline(b).NewWorker()
	text := "Five people have been taken to hospital with minor injuries following a crash on the A17 near Sleaford this morning."
	for b.Loop() {
		if _, err := w.Text(text); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTypographicQuotes checks that a sentence written with typographic quotes and
// apostrophes is tagged and parsed as the same sentence with ASCII ones (the treebank's
// usual spelling: with “…”, "can" of "a tin can,”" was read as a modal), and that its
// forms stay as written.
func TestTypographicQuotes(t *testing.T) {
	w := defaultPipeline(t).NewWorker()
	typed := "“It sounds like a transistor radio in a tin can,” admitted José Martínez, who didn’t say ‘never’."
	plain := `"It sounds like a transistor radio in a tin can," admitted José Martínez, who didn't say 'never'.`
	a, err := w.Text(typed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.Text(plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 1 || len(b) != 1 || len(a[0].Tokens) != len(b[0].Tokens) {
		t.Fatalf("sentences %d and %d", len(a), len(b))
	}
	for i, tok := range a[0].Tokens {
		o := b[0].Tokens[i]
		if tok.XPOS != o.XPOS || tok.Head != o.Head || tok.Rel != o.Rel {
			t.Errorf("token %d %q: %s %d %s; with ASCII quotes %q: %s %d %s", i+1, tok.Form, tok.XPOS, tok.Head, tok.Rel, o.Form, o.XPOS, o.Head, o.Rel)
		}
		if got := typed[tok.Start:tok.End]; tok.Form != got {
			t.Errorf("token %d: form %q, the text %q", i+1, tok.Form, got)
		}
	}
	if a[0].Tokens[0].Form != "“" {
		t.Errorf("first form %q, want the typed quote", a[0].Tokens[0].Form)
	}
}
