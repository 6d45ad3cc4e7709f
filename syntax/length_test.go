package syntax

import (
	"slices"
	"testing"
)

func TestLength(t *testing.T) {
	s := &Sentence{Tokens: []Token{{Form: "Québec"}, {Form: "£"}, {Form: "5"}, {Form: ""}}}
	for _, c := range []struct {
		ids  []int
		want int
	}{
		{nil, 0},
		{[]int{}, 0},
		{[]int{2}, 1},
		{[]int{4}, 0},
		{[]int{1, 2, 3}, 10},
		{[]int{3, 1}, 8},
		{[]int{1, 4}, 7},
	} {
		if got := s.Length(c.ids); got != c.want {
			t.Errorf("Length(%v) = %d, want %d", c.ids, got, c.want)
		}
	}
	if got := Length(0); got != 0 {
		t.Errorf("Length(0) = %d, want 0 (ℓ(∅))", got)
	}
	if got := Length(11); got != 10 {
		t.Errorf("Length(11) = %d, want 10", got)
	}
	if got, want := s.AppendLens([]int{9}), []int{9, 6, 1, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("AppendLens = %v, want %v", got, want)
	}
	if got := TokenLen("日本語"); got != 3 {
		t.Errorf("TokenLen(日本語) = %d, want 3", got)
	}
}

func TestLengthAllocs(t *testing.T) {
	s := &Sentence{Tokens: []Token{{Form: "a"}, {Form: "bc"}}}
	ids := []int{1, 2}
	if n := testing.AllocsPerRun(100, func() { _ = s.Length(ids) }); n != 0 {
		t.Errorf("Length allocates %v times", n)
	}
}
