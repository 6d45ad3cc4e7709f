package handparse

import "testing"

func TestSentence(t *testing.T) {
	s, tree, lens, err := Sentence([]string{"Police", "said", "."}, []string{"NNS", "VBD", "."}, []int{2, 0, 2}, []string{"nsubj", "root", "punct"})
	if err != nil || s.Len() != 3 || tree.Head(1) != 2 || lens[0] != 6 || s.Tokens[2].Rel != "punct" {
		t.Fatalf("Sentence = %v, %v, %v, %v", s, tree, lens, err)
	}
	if _, _, _, err := Sentence([]string{"a"}, nil, []int{0}, []string{"root"}); err == nil {
		t.Error("tags missing: no error")
	}
	if _, _, _, err := Sentence([]string{"a", "b"}, []string{"DT", "NN"}, []int{2, 1}, []string{"det", "dep"}); err == nil {
		t.Error("heads in a cycle: no error")
	}
}
