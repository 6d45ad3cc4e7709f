package wellformed_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/handparse"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TestCuts checks the clean cuts of "Police in Karachi arrested 135 men yesterday .",
// parsed by hand: a cut drops whole subtrees, and none of a kept word's needed dependents.
func TestCuts(t *testing.T) {
	forms := []string{"Police", "in", "Karachi", "arrested", "135", "men", "yesterday", "."}
	xpos := []string{"NNS", "IN", "NNP", "VBD", "CD", "NNS", "NN", "."}
	heads := []int{4, 3, 1, 0, 6, 4, 4, 4}
	rels := []string{"nsubj", "case", "nmod", "root", "nummod", "obj", "obl:tmod", "punct"}
	tree, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		query []int
		want  map[int][]int // the end of a cut: its clean starts, nearest first
		why   string
	}{
		{[]int{4}, map[int][]int{3: {2}, 5: {5}, 7: {7}, 8: {8, 7}},
			`"in Karachi" whole, never "Karachi" (its "in" would dangle) nor "in"; "135"; not "men", the object; "yesterday" and the period`},
		{[]int{3}, map[int][]int{5: {5}, 7: {7}, 8: {8, 7}}, `no cut holds a query term`},
	} {
		r := new(wellformed.Rules)
		st, _, _ := handparse.Parsed(t, r, forms, xpos, heads, rels, c.query, 1000)
		u := new(wellformed.Runs)
		u.Reset(st, tree, r, c.query)
		u.ResetCuts(st, tree)
		for end := 2; end <= len(forms); end++ {
			var got []int
			var cs wellformed.Cuts
			cs.Begin(u, tree, end)
			for s := cs.Next(); s != 0; s = cs.Next() {
				got = append(got, s)
			}
			if !slices.Equal(got, c.want[end]) {
				t.Errorf("query %v, cuts ending at %d %q: starts %v, want %v (%s)", c.query, end, forms[end-1], got, c.want[end], c.why)
			}
			for s := 2; s <= end; s++ {
				if want := slices.Contains(c.want[end], s); u.Clean(tree, s, end) != want {
					t.Errorf("query %v: Clean(%d, %d) = %v, want %v", c.query, s, end, !want, want)
				}
			}
		}
	}
}

// TestCutsDefinition checks Cuts against its definition, read token by token, on 2,000
// random trees and queries.
func TestCutsDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	checked := 0
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(12)
		heads := synth.Heads(rng, n)
		s := synth.RuledSentence(rng, heads)
		tree, err := syntax.NewTree(heads)
		if err != nil {
			t.Fatal(err)
		}
		var query []int
		for v := 1; v <= n; v++ {
			if rng.IntN(5) == 0 {
				query = append(query, v)
			}
		}
		u := new(wellformed.Runs)
		u.Reset(s, tree, nil, query)
		u.ResetCuts(s, tree)
		inside := func(x, a, b int) bool { return a <= x && x <= b }
		clean := func(a, b int) bool {
			for x := a; x <= b; x++ {
				if slices.Contains(query, x) {
					return false
				}
				for y := 1; y <= n; y++ { // a descendant of x outside the stretch
					for z := y; z != 0; z = tree.Head(z) {
						if z == x && !inside(y, a, b) {
							return false
						}
					}
				}
				if h := tree.Head(x); !inside(h, a, b) && u.Needed(x) {
					return false
				}
			}
			return true
		}
		for end := 2; end <= n; end++ {
			var cs wellformed.Cuts
			cs.Begin(u, tree, end)
			var got, want []int
			for x := cs.Next(); x != 0; x = cs.Next() {
				got = append(got, x)
			}
			for a := end; a >= 2; a-- {
				if clean(a, end) {
					want = append(want, a)
				}
			}
			// The scan stops at a query token: no cut reaches past it.
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d (heads %v, query %v): cuts ending at %d start at %v, want %v", trial, heads, query, end, got, want)
			}
			checked += len(want)
		}
	}
	if checked == 0 {
		t.Error("no clean cut in 2,000 random trees")
	}
}

// TestResetCutsMismatch checks that a tree of another length than the sentence makes no
// cut clean, and does not panic.
func TestResetCutsMismatch(t *testing.T) {
	forms := []string{"Police", "arrested", "two", "men", "on", "Tuesday", "."}
	s := &syntax.Sentence{}
	for _, f := range forms {
		s.Tokens = append(s.Tokens, syntax.Token{Form: f, Start: -1, End: -1})
	}
	long, err := syntax.NewTree([]int{2, 0, 4, 2, 6, 2, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	u := new(wellformed.Runs)
	u.Reset(s, long, nil, []int{1})
	u.ResetCuts(s, long)
	for end := 2; end <= len(forms); end++ {
		for st := 2; st <= end; st++ {
			if u.Clean(long, st, end) {
				t.Errorf("Clean(%d, %d) with a tree of %d tokens for %d", st, end, long.N(), len(forms))
			}
		}
	}
}
