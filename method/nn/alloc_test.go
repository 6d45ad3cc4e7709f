package nn

import (
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
)

// allocForms are word forms under every branch of the normalization: lowercase and
// capitalised ASCII, digits, non-ASCII letters, invalid UTF-8, and a word longer than
// any small fixed buffer.
var allocForms = []string{"the", "Police", "arrested", "1990", "3rd", "Ärger", "über", "ÉCOLE", "\xff\xfe",
	"a", ",", strings.Repeat("Pneumonoultramicroscopic", 5)}

// embedded loads the embedded model.
func embedded(t *testing.T) *Model {
	t.Helper()
	m, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCompressAllocs checks that a compression with the embedded model allocates nothing
// once the Compressor's memory and the model's projection cache have grown, under the
// Paper, Snippet and Nested decodings (the last two also with Input.Fits set), on the
// synthetic problems with their forms replaced by allocForms, at budgets of a third and
// two thirds of the sentence's length in bytes and at that length less one. The first pass of each batch, which AllocsPerRun
// does not count, grows the memory; a problem that fails under a decoding is left out of
// its batches.
func TestCompressAllocs(t *testing.T) {
	m := embedded(t)
	var ins []method.Input
	for i, in := range synth.Inputs(21, 40) {
		for j := range in.Sentence.Tokens {
			in.Sentence.Tokens[j].Form = allocForms[(i+j)%len(allocForms)]
		}
		total := len(in.Sentence.Tokens) - 1 // the spaces between the tokens
		for _, tok := range in.Sentence.Tokens {
			total += len(tok.Form)
		}
		for _, b := range []int{total / 3, 2 * total / 3, total - 1} {
			in.Budget = max(1, b)
			ins = append(ins, in)
		}
	}
	displayed := func([]int) bool { return true }
	for _, dec := range []method.Decoding{method.Paper, method.Snippet, method.Nested} {
		c := method.Compressor{Decoding: dec}
		batches := map[string][]method.Input{}
		for _, in := range ins {
			if _, err := c.Compress(m, in); err != nil {
				continue
			}
			batches["tokens"] = append(batches["tokens"], in)
			if dec.Budgeted() {
				in.Fits = displayed
				batches["display"] = append(batches["display"], in)
			}
		}
		if len(batches["tokens"]) < len(ins)/2 {
			t.Fatalf("%v: only %d of %d problems compress", dec, len(batches["tokens"]), len(ins))
		}
		for what, batch := range batches {
			a := testing.AllocsPerRun(3, func() {
				for _, in := range batch {
					if _, err := c.Compress(m, in); err != nil {
						t.Fatal(err)
					}
				}
			})
			if a != 0 {
				t.Errorf("%v, budget of the %s: %.0f allocations per pass of %d compressions, want 0", dec, what, a, len(batch))
			}
		}
	}
}

// TestWord checks that Model.Word reads the vocabulary under wordform.Normalize, for the
// forms of allocForms and for ones of the vocabulary, and allocates nothing for a form
// whose normalization fits its stack buffer.
func TestWord(t *testing.T) {
	m := embedded(t)
	forms := append([]string{Unknown, "Police", "POLICE", "2019"}, allocForms...)
	forms = append(forms, m.words[1:20]...)
	known := 0
	for _, f := range forms {
		want := int(m.lex.words[wordform.Normalize(f)])
		if got := m.Word(f); got != want {
			t.Errorf("Word(%q) = %d, want %d", f, got, want)
		}
		if want != 0 {
			known++
		}
	}
	if known < 20 {
		t.Fatalf("only %d of the forms are in the vocabulary", known)
	}
	if a := testing.AllocsPerRun(100, func() { _ = m.Word("Ärger") + m.Word("Police") }); a != 0 {
		t.Errorf("Word allocates %.0f times per call", a)
	}
}
