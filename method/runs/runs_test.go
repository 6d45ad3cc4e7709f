package runs_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/handparse"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// randomInput returns a random problem of 1 to maxN tokens: a random tree (with several
// root dependents an eighth of the time), forms and relations that the rules bind
// (synth.RuledSentence), token lengths of 0 to 12, up to 3 query tokens and a budget from
// ℓ(Q) to beyond ℓ(S), with its rules.
func randomInput(t testing.TB, rng *rand.Rand, maxN int) *runs.Input {
	t.Helper()
	n := 1 + rng.IntN(maxN)
	heads := synth.Heads(rng, n)
	for v := range heads {
		if heads[v] != 0 && rng.IntN(8) == 0 {
			heads[v] = 0
		}
	}
	tree, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatal(err)
	}
	in := &runs.Input{Sentence: synth.RuledSentence(rng, heads), Tree: tree, Lens: make([]int, n)}
	for i := range n {
		in.Lens[i] = rng.IntN(13)
	}
	total := sentenceWidth(in.Lens)
	lq := -1
	for _, q := range rng.Perm(n)[:rng.IntN(min(n, 3)+1)] {
		in.Query = append(in.Query, q+1)
		lq += in.Lens[q] + 1
	}
	in.Budget = max(lq, 1) + rng.IntN(total+10)
	in.Rules = new(wellformed.Rules)
	if err := in.Rules.Reset(in.Sentence, tree, in.Lens, in.Query, in.Budget); err != nil {
		t.Fatal(err)
	}
	return in
}

// sentenceWidth returns the width of a sentence of tokens of lengths lens joined by spaces.
func sentenceWidth(lens []int) int {
	w := -1
	for _, l := range lens {
		w += l + 1
	}
	return w
}

// randomParams returns random weights of the objective: Keep 1, Fill in [0, 1), Dangle
// below 9, Short below 7, Gap, Carrier and Edge below gap, carrier and edge (each > 0),
// Display true or false, and Clean true or false.
func randomParams(rng *rand.Rand, gap, carrier, edge int) runs.Params {
	return runs.Params{Keep: 1, Gap: float64(rng.IntN(gap)), Fill: rng.Float64(), Carrier: float64(rng.IntN(carrier)), Dangle: float64(rng.IntN(9)), Short: float64(rng.IntN(7)), Edge: float64(rng.IntN(edge)), Display: rng.IntN(2) == 0, Clean: rng.IntN(2) == 0}
}

// TestRunDPBruteForce checks the run program against the enumeration of every token set
// of 3,000 random problems under random weights: it finds a display exactly when one
// exists, and its display scores the best, as Measure weighs it too. Under Params.Clean
// the best is among the displays whose cuts are all clean when there is one, else among
// the single runs that may start inside a phrase (Terms.OneRun) when there is one, and
// among all displays otherwise.
func TestRunDPBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var d runs.Program
	found, none, clean, one, fell := 0, 0, 0, 0, 0
	for trial := 0; trial < 3000; trial++ {
		p := randomInput(t, rng, 11)
		pr := randomParams(rng, 12, 3, 5)
		var opt []int
		n := p.Tree.N()
		for v := 1; v <= n; v++ {
			if rng.IntN(2) == 0 {
				opt = append(opt, v)
			}
		}
		kept, ok, _ := d.Solve(p, pr, opt)
		anyCut := pr
		anyCut.Clean = false
		best, bestOK, bestAny, anyOK := math.Inf(-1), false, math.Inf(-1), false
		bestOne, oneOK := math.Inf(-1), false
		in := make([]bool, n+1)
		for mask := 0; mask < 1<<n; mask++ {
			for v := 1; v <= n; v++ {
				in[v] = mask&(1<<(v-1)) != 0
			}
			if tm := d.ObjectiveTerms(p, pr, in); tm.Allowed() {
				bestOK = true
				best = max(best, tm.Score(pr))
			} else if tm.OneRun() {
				oneOK = true
				bestOne = max(bestOne, tm.Score(pr))
			}
			if sc, ok := d.Objective(p, anyCut, in); ok {
				anyOK = true
				bestAny = max(bestAny, sc)
			}
		}
		oneRun := false
		if pr.Clean {
			clean++
			switch {
			case !bestOK && oneOK:
				// No display with clean cuts: one run, which may start inside a phrase.
				one++
				oneRun, best, bestOK = true, bestOne, true
			case !bestOK && anyOK:
				// Nor one run: the program allows any cut.
				fell++
				pr, best, bestOK = anyCut, bestAny, true
			}
		}
		if ok != bestOK {
			t.Fatalf("trial %d: solve ok %v, brute force %v (kept %v)", trial, ok, bestOK, kept)
		}
		if !ok {
			none++
			continue
		}
		found++
		clear(in)
		for _, v := range kept {
			in[v] = true
		}
		tm := d.ObjectiveTerms(p, pr, in)
		sc := tm.Score(pr)
		if !tm.Allowed() && !(oneRun && tm.OneRun()) {
			t.Fatalf("trial %d: solve returned %v, not allowed (%+v)", trial, kept, tm)
		}
		if math.Abs(sc-best) > 1e-9 {
			t.Fatalf("trial %d: solve %v scores %g, the best is %g", trial, kept, sc, best)
		}
		// Measure, from nothing but C*, weighs the display as the definition does.
		kept = slices.Clone(kept)
		if m := d.Measure(p, pr, opt, kept); !(m.Allowed() || oneRun && m.OneRun()) || math.Abs(m.Score(pr)-best) > 1e-9 {
			t.Fatalf("trial %d: Measure of %v: %+v, score %g, want allowed and %g", trial, kept, m, m.Score(pr), best)
		}
	}
	if found == 0 || none == 0 || one == 0 || fell == 0 || one+fell == clean {
		t.Errorf("%d solved, %d without a solution; of %d clean ones, %d shown as one run and %d with any cut: want some of each", found, none, clean, one, fell)
	}
	t.Logf("%d solved, %d without a solution; of %d clean ones, %d shown as one run and %d with any cut", found, none, clean, one, fell)
}

// TestRunDPCap checks that a table beyond MaxCells is not built: solve reports it, and
// Show returns the compression as it is, without marking the rules as yielded.
func TestRunDPCap(t *testing.T) {
	const n = 1200
	heads := make([]int, n)
	for v := range heads {
		heads[v] = v // a chain: token v+1 hangs off token v, the first off the root
	}
	tree, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	p := &runs.Input{Sentence: synth.RuledSentence(rng, heads), Tree: tree, Lens: make([]int, n), Query: []int{1}, Budget: 2000}
	for i := range p.Lens {
		p.Lens[i] = 4
	}
	p.Rules = new(wellformed.Rules)
	if err := p.Rules.Reset(p.Sentence, tree, p.Lens, p.Query, p.Budget); err != nil {
		t.Fatal(err)
	}
	var d runs.Program
	if _, ok, big := d.Solve(p, runs.Default(), []int{1}); ok || !big {
		t.Errorf("a table of %d cells: ok %v, big %v; want false, true", (n+1)*(p.Budget+2), ok, big)
	}
	if kept := d.Show(p, runs.Default(), []int{1}); len(kept) != 1 || kept[0] != 1 || p.Rules.Yielded() {
		t.Errorf("a table of %d cells: Show %v, yielded %v; want [1], false", (n+1)*(p.Budget+2), kept, p.Rules.Yielded())
	}
	p.Budget = 200
	if _, _, big := d.Solve(p, runs.Default(), []int{1}); big {
		t.Errorf("a table of %d cells reported too big", (n+1)*(p.Budget+2))
	}
}

// handInput returns the input of a sentence parsed by hand (forms, tags, heads and
// relations), with its rules for the query and budget.
func handInput(t *testing.T, forms, xpos []string, heads []int, rels []string, query []int, budget int) *runs.Input {
	t.Helper()
	r := new(wellformed.Rules)
	s, tree, lens := handparse.Parsed(t, r, forms, xpos, heads, rels, query, budget)
	return &runs.Input{Sentence: s, Tree: tree, Lens: lens, Query: query, Budget: budget, Rules: r}
}

// TestCarriers checks the carriers of "Police arrested two men , officials said .": with
// no query, the subject of the main clause and not that of a clause below it; with the
// query "arrested", which heads its clause, its own subject too, with the frame above it
// ("officials said"), and not its object.
func TestCarriers(t *testing.T) {
	forms := []string{"Police", "arrested", "two", "men", ",", "officials", "said", "."}
	xpos := []string{"NNS", "VBD", "CD", "NNS", ",", "NNS", "VBD", "."}
	heads := []int{2, 7, 4, 2, 7, 7, 0, 7}
	rels := []string{"nsubj", "ccomp", "nummod", "obj", "punct", "nsubj", "root", "punct"}
	for _, tc := range []struct {
		query []int
		want  map[int]bool
	}{
		{nil, map[int]bool{6: true, 1: false}},
		{[]int{2}, map[int]bool{1: true, 6: true, 7: true, 4: false}},
	} {
		in := handInput(t, forms, xpos, heads, rels, tc.query, 30)
		var d runs.Program
		d.Solve(in, runs.Default(), tc.query)
		for v, want := range tc.want {
			if d.Carrier(v) != want {
				t.Errorf("query %v: carrier %q = %v, want %v", tc.query, forms[v-1], d.Carrier(v), want)
			}
		}
	}
}

// TestShowLoose checks that when the full display rules leave no display, Show tries again
// without the list binding before it returns C*: "They acquired Urchin , Picasa and
// Keyhole ." with the query "Keyhole" and room for little more than it.
func TestShowLoose(t *testing.T) {
	forms := []string{"They", "acquired", "Urchin", ",", "Picasa", "and", "Keyhole", "."}
	xpos := []string{"PRP", "VBD", "NNP", ",", "NNP", "CC", "NNP", "."}
	heads := []int{2, 0, 2, 5, 3, 7, 3, 2}
	rels := []string{"nsubj", "root", "obj", "punct", "conj", "cc", "conj", "punct"}
	in := handInput(t, forms, xpos, heads, rels, []int{7}, 16)
	var d runs.Program
	if _, ok, _ := d.Solve(in, runs.Default(), []int{7}); ok {
		t.Fatal("a display under the full rules: the test needs none")
	}
	cstar := []int{5, 7} // a C* that the display must not be
	kept := d.Show(in, runs.Default(), cstar)
	if len(kept) == 0 || slices.Equal(kept, cstar) || !slices.Contains(kept, 7) || slices.Contains(kept, 3) {
		t.Errorf("Show = %v; want a display of Keyhole without the list's start, not C* %v", kept, cstar)
	}
	if !in.Rules.Yielded() {
		t.Error("the rules yielded in part, but Yielded is false")
	}
}

// TestLoneQueryTermIsShort checks that a run of one query term pays Short when the term
// does not read alone ("… lazy …") and not when it names something ("… Bob …"): "Alice
// finished the scans and Bob was lazy ." with the query "finished", "Bob" and "lazy".
func TestLoneQueryTermIsShort(t *testing.T) {
	forms := strings.Fields(aliceAndBobText)
	in := aliceAndBob(t, 2, 6, 8)
	var d runs.Program
	pr := runs.Default()
	d.Solve(in, pr, nil)
	free := pr
	free.Short = 0
	for _, c := range []struct {
		kept []int
		want float64
		why  string
	}{
		{[]int{1, 2, 6, 8}, pr.Short, `"Alice finished … Bob … lazy": "lazy" alone pays, "Bob" alone does not`},
		{[]int{1, 2, 6, 7, 8}, 0, `"Alice finished … Bob was lazy"`},
	} {
		set := make([]bool, len(forms)+1)
		for _, v := range c.kept {
			set[v] = true
		}
		a, okA := d.Objective(in, pr, set)
		b, okB := d.Objective(in, free, set)
		if !okA || !okB || b-a != c.want {
			t.Errorf("%s: objective %g with Short, %g without (allowed: %v, %v); want them %g apart", c.why, a, b, okA, okB, c.want)
		}
	}
}

// TestMeasureCountsTerms checks the terms Measure counts for displays the program would
// not choose, on "Alice finished the scans and Bob was lazy ." with the query "Bob" and
// C* "Alice finished … Bob was lazy": a window that holds "and" without its head is
// weighed but not allowed; a display of two runs pays one gap and earns both edges.
func TestMeasureCountsTerms(t *testing.T) {
	in := aliceAndBob(t, 6)
	var d runs.Program
	pr := runs.Default()
	opt := []int{1, 2, 6, 7, 8}
	window := d.Measure(in, pr, opt, []int{3, 4, 5, 6})
	if window.Allowed() || window.Breaks != runs.BreakBound || window.Gaps != 0 || window.Edges != 0 || window.Keep != 4 {
		t.Errorf("window \"the scans and Bob\": %+v; want not allowed (\"and\" without \"lazy\"), no gap, no edge, Keep 4 (\"Bob\")", window)
	}
	two := d.Measure(in, pr, opt, []int{1, 2, 6, 7, 8, 9})
	if !two.Allowed() || two.Gaps != 1 || two.Edges != 2 || two.Keep != 6+9+4+4+5 {
		t.Errorf("\"Alice finished … Bob was lazy.\": %+v; want allowed, one gap, two edges, Keep 28", two)
	}
	if got, want := two.Score(pr), pr.Keep*two.Keep+pr.Fill*two.Fill+pr.Carrier*float64(two.Carriers)-pr.Gap+2*pr.Edge-pr.Dangle*float64(two.Dangles)-pr.Short*float64(two.Shorts); got != want {
		t.Errorf("Score %g, want %g", got, want)
	}
}

// TestEdgeAtEnd checks that reaching the sentence's end earns Edge for a last run that
// holds a query word, and not for one reached across a cut only to meet the end: on
// "Alice finished the scans and Bob was lazy ." with the query "Alice", "Alice finished …
// Bob was lazy." earns the start's Edge alone, the whole sentence both.
func TestEdgeAtEnd(t *testing.T) {
	in := aliceAndBob(t, 1)
	var d runs.Program
	pr := runs.Default()
	opt := []int{1, 2, 6, 7, 8}
	if jump := d.Measure(in, pr, opt, []int{1, 2, 6, 7, 8, 9}); !jump.Allowed() || jump.Gaps != 1 || jump.Edges != 1 {
		t.Errorf("\"Alice finished … Bob was lazy.\" for \"Alice\": %+v; want allowed, one gap, one edge (the start's)", jump)
	}
	if whole := d.Measure(in, pr, opt, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}); !whole.Allowed() || whole.Gaps != 0 || whole.Edges != 2 {
		t.Errorf("the whole sentence for \"Alice\": %+v; want allowed, no gap, two edges", whole)
	}
}

// aliceAndBobText is the sentence of aliceAndBob, its tokens spaced.
const aliceAndBobText = "Alice finished the scans and Bob was lazy ."

// aliceAndBob returns aliceAndBobText, parsed by hand, with the query tokens query and a
// budget of 60.
func aliceAndBob(t *testing.T, query ...int) *runs.Input {
	t.Helper()
	forms := strings.Fields(aliceAndBobText)
	xpos := []string{"NNP", "VBD", "DT", "NNS", "CC", "NNP", "VBD", "JJ", "."}
	heads := []int{2, 0, 4, 2, 8, 8, 8, 2, 2}
	rels := []string{"nsubj", "root", "det", "obj", "cc", "nsubj", "cop", "conj", "punct"}
	return handInput(t, forms, xpos, heads, rels, query, 60)
}

// TestShowNegativeBudget checks that a negative budget, which no caller of the library can
// pass but a direct caller of Show can, is an inconsistent input: Show returns the
// method's compression and marks the rules as yielded, under every weighting, and
// neither panics nor allocates tables of a negative size.
func TestShowNegativeBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var d runs.Program
	for trial := 0; trial < 200; trial++ {
		p := randomInput(t, rng, 9)
		p.Budget = -1 - rng.IntN(50)
		pr := randomParams(rng, 12, 3, 5)
		opt := slices.Clone(p.Query)
		slices.Sort(opt)
		got := d.Show(p, pr, opt)
		if !slices.Equal(got, opt) || !p.Rules.Yielded() {
			t.Fatalf("budget %d: Show = %v (yielded %v), want %v and yielded", p.Budget, got, p.Rules.Yielded(), opt)
		}
	}
}
