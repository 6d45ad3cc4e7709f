package runs

import (
	"math"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/handparse"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TestNestedGainIsTheObjectivesChange checks that the gain the nested display reckons for
// extending a run is the change of the objective (Objective, read from its definition),
// in the state "Alice met … ." of "Alice met Bob in Paris ." with the final punctuation
// shown after a cut: a run that reaches "Paris" ends the sentence with the punctuation
// and earns Edge.
func TestNestedGainIsTheObjectivesChange(t *testing.T) {
	forms := []string{"Alice", "met", "Bob", "in", "Paris", "."}
	xpos := []string{"NNP", "VBD", "NNP", "IN", "NNP", "."}
	heads := []int{2, 0, 2, 5, 2, 2}
	rels := []string{"nsubj", "root", "obj", "case", "obl", "punct"}
	in := &Input{Query: []int{1}, Budget: 100, Rules: new(wellformed.Rules)}
	in.Sentence, in.Tree, in.Lens = handparse.Parsed(t, in.Rules, forms, xpos, heads, rels, in.Query, in.Budget)
	pr := Default()
	var d Program
	if _, ok := d.Nested(in, pr, []int32{1, 2, 3, 4, 5, 6}, 3, nil); !ok || in.Rules.Yielded() {
		t.Fatal("no nested display: the test needs the tables of one")
	}
	n, ns := len(forms), &d.ns
	if ns.final != n {
		t.Fatalf("the final punctuation is %d, want %d", ns.final, n)
	}
	// The state: the run "Alice met" and the final punctuation after a cut.
	clear(ns.cov)
	ns.runs = append(ns.runs[:0], span{1, 2})
	ns.cov[1], ns.cov[2], ns.cov[n], ns.finalOn = true, true, true, true
	weighed := pr // the weights the nested display reckons with
	weighed.Keep *= NestedKeep
	before := make([]bool, n+1)
	copy(before, ns.cov)
	was, ok := d.Objective(in, weighed, before)
	if !ok {
		t.Fatal("the state is not an allowed display")
	}
	reached := false // the run that reaches the punctuation was weighed
	for e := 3; e < n; e++ {
		a, b, ok := d.closeRun(1, e, n)
		if !ok || !d.legal(a, b) {
			continue
		}
		mv := d.place(a, b, n)
		after := make([]bool, n+1)
		copy(after, before)
		for v := a; v <= b; v++ {
			after[v] = true
		}
		is, ok := d.Objective(in, weighed, after)
		if !ok {
			t.Fatalf("[%d, %d] is not an allowed display", a, b)
		}
		if math.Abs(mv.gain-(is-was)) > 1e-9 {
			t.Errorf("extending the run to [%d, %d]: gain %g, the objective changes by %g", a, b, mv.gain, is-was)
		}
		reached = reached || b == n-1
	}
	if !reached {
		t.Fatalf("the run that reaches %q was not weighed", forms[n-2])
	}
}
