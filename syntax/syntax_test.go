package syntax

import (
	"errors"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
)

func TestTree(t *testing.T) {
	// "Sue likes black coffee": likes is the root; Sue and coffee depend on it; black on coffee.
	tr, err := NewTree([]int{2, 0, 4, 2})
	if err != nil {
		t.Fatal(err)
	}
	if tr.N() != 4 || tr.Head(1) != 2 || tr.Head(2) != 0 || tr.Head(0) != -1 {
		t.Fatalf("heads wrong")
	}
	if got := tr.Children(2); !slices.Equal(got, []int32{1, 4}) {
		t.Errorf("Children(2) = %v", got)
	}
	if got := tr.Children(0); !slices.Equal(got, []int32{2}) {
		t.Errorf("Children(0) = %v", got)
	}
	if tr.NumChildren(3) != 0 || tr.NumChildren(4) != 1 {
		t.Errorf("NumChildren wrong")
	}
	for v, d := range []int{0, 2, 1, 3, 2} {
		if tr.Depth(v) != d {
			t.Errorf("Depth(%d) = %d, want %d", v, tr.Depth(v), d)
		}
	}
	// Reset reuses memory for a new tree.
	if err := tr.Reset([]int{0}); err != nil || tr.N() != 1 || tr.Depth(1) != 1 {
		t.Fatalf("Reset: %v", err)
	}
}

func TestTreeErrors(t *testing.T) {
	cases := []struct {
		heads []int
		want  error
	}{
		{[]int{0, 5}, ErrHeadRange},
		{[]int{-1}, ErrHeadRange},
		{[]int{1}, ErrHeadRange},
		{[]int{2, 1}, ErrNoRoot},
		{[]int{0, 3, 2}, ErrCycle},
	}
	for _, c := range cases {
		if _, err := NewTree(c.heads); !errors.Is(err, c.want) {
			t.Errorf("NewTree(%v) = %v, want %v", c.heads, err, c.want)
		}
	}
	if tr, err := NewTree(nil); err != nil || tr.N() != 0 {
		t.Errorf("empty tree: %v", err)
	}
}

func TestCoNLLUConversion(t *testing.T) {
	cs := &conllu.Sentence{Words: []conllu.Word{
		{ID: 1, Form: "Hi", Lemma: "hi", UPOS: "INTJ", XPOS: "UH", Feats: "_", Head: conllu.NoHead, DepRel: "_", Deps: "_", Misc: "SpaceAfter=No"},
		{ID: 2, Form: "!", Lemma: "_", UPOS: "_", XPOS: "_", Feats: "_", Head: conllu.NoHead, DepRel: "_", Deps: "_", Misc: "_"},
	}}
	s := FromCoNLLU(cs)
	if s.Tokens[0].XPOS != "UH" || s.Tokens[1].XPOS != "" || s.Tokens[1].Head != NoHead || s.Tokens[0].Start != -1 {
		t.Fatalf("FromCoNLLU: %+v", s.Tokens)
	}
	s.Tokens[0].Head, s.Tokens[0].Rel = 0, "root"
	s.Tokens[1].Head, s.Tokens[1].Rel, s.Tokens[1].XPOS = 1, "punct", "."
	out := NewCoNLLU(s)
	if out.Words[0].Form != "Hi" || out.Words[1].Lemma != "_" || out.Words[1].Head != 1 {
		t.Fatalf("NewCoNLLU: %+v", out.Words)
	}
	if !slices.Equal(s.Forms(), []string{"Hi", "!"}) || !slices.Equal(s.Heads(), []int{0, 1}) || s.Len() != 2 {
		t.Error("Forms/Heads/Len wrong")
	}
}
