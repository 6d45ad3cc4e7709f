package handparse

import (
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
)

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

// recorder is Rules that records what Parsed resets it with, and fails with err.
type recorder struct {
	s             *syntax.Sentence
	query         []int
	lens          []int
	budget, calls int
	err           error
}

func (r *recorder) Reset(s *syntax.Sentence, _ *syntax.Tree, lens []int, query []int, budget int) error {
	r.s, r.lens, r.query, r.budget = s, lens, query, budget
	r.calls++
	return r.err
}

// fatalTB is a TB whose Fatal records the failure and ends the goroutine, as
// testing.T's does.
type fatalTB struct {
	failed bool
}

func (f *fatalTB) Helper()      {}
func (f *fatalTB) Fatal(...any) { f.failed = true; runtime.Goexit() }

// parsedFails reports whether Parsed fails its TB for r and the slices of one token.
func parsedFails(r Rules, xpos []string) bool {
	tb := &fatalTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Parsed(tb, r, []string{"Hi"}, xpos, []int{0}, []string{"root"}, []int{1}, 5)
	}()
	<-done
	return tb.failed
}

func TestParsed(t *testing.T) {
	r := &recorder{}
	s, tree, lens := Parsed(t, r, []string{"Police", "said", "."}, []string{"NNS", "VBD", "."}, []int{2, 0, 2}, []string{"nsubj", "root", "punct"}, []int{2}, 40)
	if r.calls != 1 || r.s != s || s.Len() != 3 || tree.Head(1) != 2 || !slices.Equal(r.lens, lens) || !slices.Equal(r.query, []int{2}) || r.budget != 40 {
		t.Fatalf("Parsed = %v, %v, %v; the rules were reset %d times with %v, %v, %v, %d", s, tree, lens, r.calls, r.s, r.lens, r.query, r.budget)
	}
	if !parsedFails(&recorder{err: errors.New("no")}, []string{"UH"}) {
		t.Error("the rules fail: Parsed does not fail the test")
	}
	if r := (&recorder{}); !parsedFails(r, nil) || r.calls != 0 {
		t.Errorf("tags missing: Parsed does not fail the test before it resets the rules (%d resets)", r.calls)
	}
	if parsedFails(&recorder{}, []string{"UH"}) {
		t.Error("a sentence and rules that hold: Parsed fails the test")
	}
}
