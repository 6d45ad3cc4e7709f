package qsc_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/wellformed"
)

const karachi = "Karachi police in their continued drive against criminals, arrested 135 accused from various parts of the city during last 24 hours."

// TestSentenceThatFits checks the first rule of the snippet decoding on every surface of
// the library: a sentence that fits the budget is the compression, unchanged.
func TestSentenceThatFits(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, b := range []int{134, 150, 200, 400} {
		res, err := e.Compress(ctx, karachi, []string{"police"}, b)
		if err != nil {
			t.Fatal(err)
		}
		if res.Compression != karachi {
			t.Errorf("Compress at b = %d: %q", b, res.Compression)
		}
	}
	// Snippets count the display: the sentence shows in 132 characters.
	for _, b := range []int{utf8.RuneCountInString(karachi), 200} {
		sn, err := e.Snippets(ctx, karachi, []string{"police"}, b, 1)
		if err != nil || len(sn) != 1 {
			t.Fatal(sn, err)
		}
		if sn[0].Text != karachi {
			t.Errorf("Snippets at b = %d: %q", b, sn[0].Text)
		}
	}
	// The paper's decoder, on request, still drops what its model rejects.
	res, err := e.Do(ctx, &qsc.Request{Text: karachi, Query: []string{"police"}, Budget: 400, Method: "lr", Decoding: qsc.DecodingPaper}, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Compression == karachi {
		t.Errorf("paper decoding kept the whole sentence: %q", res.Compression)
	}
	if _, err := e.Do(ctx, &qsc.Request{Text: karachi, Query: []string{"police"}, Budget: 40, Decoding: "best"}, false); err == nil {
		t.Error("an unknown decoding was accepted")
	}
}

// TestBudgetUse checks that every method but RANDOM uses most of the budget on a long
// sentence (a snippet may stop short where filling would need a cut that does not read:
// under this token budget, a cut that is not clean), that a larger budget never gives a
// shorter compression, and that the compressions are well-formed.
func TestBudgetUse(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, m := range []string{"lr", "ablated", "nn", "ilp"} {
		prev := 0
		for _, b := range []int{30, 50, 70, 90, 110, 130} {
			res, err := e.Do(ctx, &qsc.Request{Text: karachi, Query: []string{"police"}, Budget: b, Method: m}, false)
			if err != nil {
				t.Fatalf("%s at %d: %v", m, b, err)
			}
			var words []string
			for _, v := range res.Kept {
				words = append(words, res.Sentence.Tokens[v-1].Form)
			}
			l := utf8.RuneCountInString(strings.Join(words, " "))
			if l > b || l < prev {
				t.Errorf("%s at b = %d: ℓ(C) = %d (at the smaller budget: %d): %q", m, b, l, prev, res.Compression)
			}
			if 3*l < 2*b {
				t.Errorf("%s at b = %d: ℓ(C) = %d leaves the budget unused: %q", m, b, l, res.Compression)
			}
			prev = l
			var ck wellformed.Checker
			if c := ck.Check(res.Sentence, res.Kept, res.Query); c.Any() {
				t.Errorf("%s at b = %d: %q breaks %v", m, b, res.Compression, c.Total)
			}
		}
	}
}

// TestNestedDecoding checks the promise of DecodingNested on the library's surface, for
// every method but RANDOM: a larger budget keeps every word a smaller one kept, counted
// as tokens (Do) and as displayed (DoSnippets), and the sentence that fits is kept whole.
func TestNestedDecoding(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cases := []struct{ text, query string }{
		{karachi, "police"},
		{"The Pakistani Taliban are open to peace talks according to the group's leader, Hakimullah Mehsud, who spoke with the BBC on Tuesday.", "talks"},
	}
	for _, m := range []string{"lr", "ablated", "nn", "ilp"} {
		for _, c := range cases {
			text := c.text
			var prev []int
			for b := 20; b <= 140; b++ {
				res, err := e.Do(ctx, &qsc.Request{Text: text, Query: []string{c.query}, Budget: b, Method: m, Decoding: qsc.DecodingNested}, false)
				if err != nil {
					t.Fatalf("%s at %d: %v", m, b, err)
				}
				for _, v := range prev {
					if !slices.Contains(res.Kept, v) {
						t.Fatalf("%s, %q: token %d kept at b = %d, not at %d: %q", m, text[:20], v, b-1, b, res.Compression)
					}
				}
				prev = slices.Clone(res.Kept)
				var forms []string
				for _, tok := range res.Sentence.Tokens {
					forms = append(forms, tok.Form)
				}
				if utf8.RuneCountInString(strings.Join(forms, " ")) <= b && len(res.Kept) != len(forms) {
					t.Errorf("%s at b = %d: the sentence fits but got %q", m, b, res.Compression)
				}
			}
			var prevSpans []qsc.Span
			for b := 30; b <= 160; b++ {
				sn, err := e.DoSnippets(ctx, &qsc.SnippetRequest{Document: text, Query: []string{"police", "talks"}, Budget: b, N: 1, Method: m, Decoding: qsc.DecodingNested})
				if err != nil || len(sn) != 1 {
					t.Fatalf("%s at %d: %v %v", m, b, sn, err)
				}
				if utf8.RuneCountInString(sn[0].Text) > b {
					t.Errorf("%s at b = %d: %q is longer", m, b, sn[0].Text)
				}
				for _, s := range prevSpans {
					if !covered(s, sn[0].Kept) {
						t.Fatalf("%s, %q: %v shown at b = %d, not at %d: %q", m, text[:20], s, b-1, b, sn[0].Text)
					}
				}
				prevSpans = slices.Clone(sn[0].Kept)
			}
		}
	}
}

// covered reports whether the span s lies within one of spans.
func covered(s qsc.Span, spans []qsc.Span) bool {
	for _, k := range spans {
		if k.Start <= s.Start && s.End <= k.End {
			return true
		}
	}
	return false
}
