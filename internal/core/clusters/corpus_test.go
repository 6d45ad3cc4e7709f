package clusters

import (
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
)

// conll is two sentences of CoNLL-U with XPOS tags.
const conll = "1\tDogs\tdog\tNOUN\tNNS\t_\t2\tnsubj\t_\t_\n2\tbark\tbark\tVERB\tVBP\t_\t0\troot\t_\t_\n\n" +
	"1\tCats\tcat\tNOUN\tNNS\t_\t0\troot\t_\t_\n\n"

func reader(t *testing.T, text string) *conllu.Reader {
	t.Helper()
	r, err := conllu.NewReader(strings.NewReader(text), "test.conllu")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestForms(t *testing.T) {
	var tags []string
	sents, readErr := Forms(reader(t, conll), func(w *conllu.Word) { tags = append(tags, w.XPOS) })
	var got [][]string
	for s := range sents {
		got = append(got, slices.Clone(s))
	}
	if err := readErr(); err != nil {
		t.Fatalf("read error at the end of the input: %v", err)
	}
	if want := [][]string{{"Dogs", "bark"}, {"Cats"}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("forms %q, want %q", got, want)
	}
	if want := []string{"NNS", "VBP", "NNS"}; !slices.Equal(tags, want) {
		t.Errorf("visited tags %q, want %q", tags, want)
	}

	// A stop after the first sentence reads no further and is no error.
	n := 0
	sents, readErr = Forms(reader(t, conll), nil)
	for range sents {
		n++
		break
	}
	if n != 1 || readErr() != nil {
		t.Errorf("stopped early: %d sentences, error %v", n, readErr())
	}

	// A malformed sentence ends the sequence; readErr reports it.
	sents, readErr = Forms(reader(t, conll+"1\tbroken\n\n"), nil)
	n = 0
	for range sents {
		n++
	}
	if n != 2 || readErr() == nil || !strings.Contains(readErr().Error(), "test.conllu") {
		t.Errorf("malformed input: %d sentences, error %v; want 2 and an error naming the file", n, readErr())
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		coarse     []uint8
		fine, crse int
	}{
		{nil, 0, 0},
		{[]uint8{0, 0}, 2, 1},
		{[]uint8{2, 0, 1, 2}, 4, 3},
		{[]uint8{5}, 1, 6},
	} {
		if f, k := Count(c.coarse); f != c.fine || k != c.crse {
			t.Errorf("Count(%v) = %d, %d; want %d, %d", c.coarse, f, k, c.fine, c.crse)
		}
	}
}
