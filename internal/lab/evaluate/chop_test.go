package evaluate

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// sakSentence is "The duped client sued Saks Fifth Avenue .", parsed by hand.
func sakSentence(t *testing.T) (*syntax.Sentence, *syntax.Tree) {
	t.Helper()
	s := &syntax.Sentence{Tokens: []syntax.Token{
		{Form: "The", UPOS: "DET", XPOS: "DT", Head: 3, Rel: "det"},
		{Form: "duped", UPOS: "ADJ", XPOS: "JJ", Head: 3, Rel: "amod"},
		{Form: "client", UPOS: "NOUN", XPOS: "NN", Head: 4, Rel: "nsubj"},
		{Form: "sued", UPOS: "VERB", XPOS: "VBD", Head: 0, Rel: "root"},
		{Form: "Saks", UPOS: "PROPN", XPOS: "NNP", Head: 7, Rel: "compound"},
		{Form: "Fifth", UPOS: "PROPN", XPOS: "NNP", Head: 7, Rel: "compound"},
		{Form: "Avenue", UPOS: "PROPN", XPOS: "NNP", Head: 4, Rel: "obj"},
		{Form: ".", UPOS: "PUNCT", XPOS: ".", Head: 4, Rel: "punct"},
	}}
	tr, err := method.TreeOf(s)
	if err != nil {
		t.Fatal(err)
	}
	return s, tr
}

// TestChop checks wellformed.Chopper on a sentence parsed by hand.
func TestChop(t *testing.T) {
	s, tr := sakSentence(t)
	var k wellformed.Chopper
	for _, c := range []struct {
		name        string
		kept, query []int
		want        wellformed.Choppiness
	}{
		// "The … client sued Saks … Avenue": two inner gaps, a cut after "The", the name
		// "Saks Fifth Avenue" kept in part. "The" and "Avenue" are each a shown run of one
		// word that is not a query term, so the snippet has a one-word island.
		{"The … client sued Saks … Avenue", []int{1, 3, 4, 5, 7}, []int{3},
			wellformed.Choppiness{Snippets: 1, Gaps: 2, Islands: 1, AfterFunction: 1, NamesCut: 1}},
		// "… sued …": one run of one word, no query: an island, no inner gap.
		{"… sued …", []int{4}, nil, wellformed.Choppiness{Snippets: 1, Islands: 1}},
		// "… client …" with the query {client}: a one-word run of a query term is fine.
		{"… client …", []int{3}, []int{3}, wellformed.Choppiness{Snippets: 1}},
		// "The duped client sued …": one run, ends on a content word, the name dropped whole.
		{"The duped client sued …", []int{1, 2, 3, 4}, []int{3}, wellformed.Choppiness{Snippets: 1}},
		// "The duped client sued …": the full stop kept after the cut is not shown
		// (render.Ellipsis), so it makes no inner gap.
		{"The duped client sued … .", []int{1, 2, 3, 4, 8}, []int{3}, wellformed.Choppiness{Snippets: 1}},
		// "… client …" with the full stop kept: still one run of a query term.
		{"… client … .", []int{3, 8}, []int{3}, wellformed.Choppiness{Snippets: 1}},
		// "… sued … .": the full stop does not save the island.
		{"… sued … .", []int{4, 8}, nil, wellformed.Choppiness{Snippets: 1, Islands: 1}},
		// "… client sued Saks Fifth Avenue": the full stop alone is not a cut.
		{"… client sued Saks Fifth Avenue", []int{3, 4, 5, 6, 7}, []int{3}, wellformed.Choppiness{Snippets: 1}},
		// "The duped client … Saks Fifth Avenue .": one inner gap, after a content word.
		{"The duped client … Saks Fifth Avenue .", []int{1, 2, 3, 5, 6, 7, 8}, []int{3}, wellformed.Choppiness{Snippets: 1, Gaps: 1}},
		// "The … sued": the run "The" ends on a function word before a cut.
		{"The … sued Saks Fifth Avenue .", []int{1, 4, 5, 6, 7, 8}, nil,
			wellformed.Choppiness{Snippets: 1, Gaps: 1, Islands: 1, AfterFunction: 1}},
		// The whole sentence and the empty compression are not choppy.
		{"whole", []int{1, 2, 3, 4, 5, 6, 7, 8}, []int{3}, wellformed.Choppiness{Snippets: 1}},
		{"empty", nil, []int{3}, wellformed.Choppiness{Snippets: 1}},
	} {
		if got := k.Chop(s, tr, c.kept, c.query); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	var sum wellformed.Choppiness
	sum.Add(wellformed.Choppiness{Snippets: 1, Gaps: 2, Islands: 1, AfterFunction: 1, NamesCut: 1})
	sum.Add(wellformed.Choppiness{Snippets: 1, Islands: 1})
	if want := (wellformed.Choppiness{Snippets: 2, Gaps: 2, Islands: 2, AfterFunction: 1, NamesCut: 1}); sum != want {
		t.Errorf("Add: %+v, want %+v", sum, want)
	}
	// Once grown, the Chopper allocates the sentence's text only.
	kept, query := []int{1, 3, 4, 5, 7}, []int{3}
	if a := testing.AllocsPerRun(100, func() { k.Chop(s, tr, kept, query) }); a > 1 {
		t.Errorf("Chop allocates %v times per call, want 1", a)
	}
}

// TestSnippetScoreChop checks that SnippetScore measures the choppiness of every
// compression: the gold's and a method's.
func TestSnippetScoreChop(t *testing.T) {
	inputs := synth.Inputs(5, 100)
	for _, m := range []method.Method{nil, baseline.Window{}} {
		row, err := SnippetScore(m, method.Snippet, 0, inputs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var k wellformed.Chopper
		var want wellformed.Choppiness
		for i, in := range inputs {
			want.Add(k.Chop(in.Sentence, in.Tree, row.Kept[i], in.Query))
		}
		if row.Chop != want || row.Chop.Snippets != len(inputs) {
			t.Errorf("%s: Chop %+v, want %+v over %d inputs", row.Method, row.Chop, want, len(inputs))
		}
	}
}

// TestChopCountsRendering checks that Chop counts the inner "…" that the ellipsis
// rendering writes, on random compressions of random sentences with quotes, commas and
// periods, so that the measure and the page cannot drift apart.
func TestChopCountsRendering(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var k wellformed.Chopper
	checked := 0
	for _, in := range synth.Inputs(11, 400) {
		s := in.Sentence
		for i := range s.Tokens {
			if s.Tokens[i].Form == "." {
				s.Tokens[i].Form = []string{".", ",", "\"", "."}[rng.IntN(4)]
			}
		}
		// The sentence has no offsets: it is shown detokenized, as the product shows a
		// sentence given as tokens.
		doc, at := display.Detokenize(s.Forms())
		for range 5 {
			var kept []int
			var spans, hits []display.Span
			for v := 1; v <= s.Len(); v++ {
				if slices.Contains(in.Query, v) || rng.IntN(2) == 0 {
					if n := len(kept); n > 0 && kept[n-1] == v-1 {
						spans[len(spans)-1].End = at[v-1].End
					} else {
						spans = append(spans, at[v-1])
					}
					kept = append(kept, v)
					if slices.Contains(in.Query, v) {
						hits = append(hits, at[v-1])
					}
				}
			}
			shown := display.Render(doc, display.Span{End: len(doc)}, spans, hits, true, false)
			inner := strings.Count(shown, display.Cut)
			if strings.HasPrefix(shown, display.Cut) {
				inner--
			}
			if strings.HasSuffix(shown, display.Cut) {
				inner--
			}
			if got := k.Chop(s, in.Tree, kept, in.Query).Gaps; got != inner {
				t.Fatalf("%q kept %v: Chop counts %d inner gaps, the rendering %q shows %d", doc, kept, got, shown, inner)
			}
			checked++
		}
	}
	t.Logf("%d compressions", checked)
}
