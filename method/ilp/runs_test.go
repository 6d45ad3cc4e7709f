package ilp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// runObjective is the snippet decoding's objective read directly from its definition
// (runs.go) for the set kept, and whether kept is allowed: every run allowed by u, Q ⊆
// kept, and the width within the budget.
func runObjective(p *Problem, s *syntax.Sentence, u *wellformed.Runs, pr RunParams, d *runDP, kept []bool) (float64, bool) {
	n := p.N()
	for _, q := range p.Query {
		if !kept[q] {
			return 0, false
		}
	}
	cut := 0
	if pr.Display {
		cut = 2
	}
	width, score, runs := 0, 0.0, 0
	// Free sentence-final punctuation after a cut is not a run.
	last := n
	if n >= 2 && kept[n] && !kept[n-1] && !u.Query(n) && !u.Word(n) && p.Rules.Binding(n) == wellformed.Free && u.Lo(n) == n && u.Hi(n) == n {
		score += d.val[n]
		width += p.Lens[n-1] + spaceBefore(s, n, pr.Display)
		last = n - 1
	}
	for v := 1; v <= last; {
		if !kept[v] {
			v++
			continue
		}
		e := v
		for e+1 <= last && kept[e+1] {
			e++
		}
		// the run [v, e]
		words, nq := 0, 0
		for x := v; x <= e; x++ {
			if u.Lo(x) < v || u.Hi(x) > e {
				return 0, false
			}
			if u.Word(x) {
				words++
				if u.Query(x) {
					nq++
				}
			}
			width += p.Lens[x-1]
			if x > v {
				width += spaceBefore(s, x, pr.Display)
			}
			score += d.val[x]
		}
		width++ // the separator before the run
		if !u.CanStart(v) || !u.CanEnd(e) || words == 0 || (words == 1 && nq == 0) {
			return 0, false
		}
		if u.Dangles(e) && d.wordPre[n] > d.wordPre[e] {
			score -= pr.Dangle
		}
		if words < 3 && nq == 0 {
			score -= pr.Short
		}
		if v == 1 {
			score += pr.Edge
		}
		if e == n {
			score += pr.Edge
		}
		if runs > 0 {
			score -= pr.Gap
			width += cut
		} else if d.wordPre[v-1] > 0 {
			width += cut
		}
		if d.wordPre[n] > d.wordPre[e] {
			// trailing: counted once, at the last run
			isLast := true
			for x := e + 1; x <= last; x++ {
				if kept[x] {
					isLast = false
				}
			}
			if isLast {
				width += cut
			}
		}
		runs++
		v = e + 1
	}
	K := p.capacity()
	if pr.Display {
		all := 1
		for x := 1; x <= n; x++ {
			all += p.Lens[x-1]
			if x > 1 {
				all += spaceBefore(s, x, true)
			}
		}
		K = min(p.Budget, all+cut*(n+1)) + 1
	}
	return score, runs > 0 && width <= K
}

func TestRunDPBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var d runDP
	found, none := 0, 0
	for trial := 0; trial < 3000; trial++ {
		p := randomProblem(t, rng, 11)
		p.QueryViaRoot = false
		s, r := randomRuled(t, rng, p)
		p.Rules = r
		pr := RunParams{Keep: 1, Gap: float64(rng.IntN(12)), Fill: rng.Float64(), Carrier: float64(rng.IntN(3)), Dangle: float64(rng.IntN(9)), Short: float64(rng.IntN(7)), Edge: float64(rng.IntN(5)), Display: rng.IntN(2) == 0}
		var opt []int
		for v := 1; v <= p.N(); v++ {
			if rng.IntN(2) == 0 {
				opt = append(opt, v)
			}
		}
		kept, ok, _ := d.solve(p, s, pr, opt)
		n := p.N()
		best, bestOK := math.Inf(-1), false
		in := make([]bool, n+1)
		for mask := 0; mask < 1<<n; mask++ {
			for v := 1; v <= n; v++ {
				in[v] = mask&(1<<(v-1)) != 0
			}
			if sc, ok := runObjective(p, s, &d.u, pr, &d, in); ok {
				bestOK = true
				best = max(best, sc)
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
		sc, feasible := runObjective(p, s, &d.u, pr, &d, in)
		if !feasible {
			t.Fatalf("trial %d: solve returned %v, not allowed", trial, kept)
		}
		if math.Abs(sc-best) > 1e-9 {
			t.Fatalf("trial %d: solve %v scores %g, the best is %g", trial, kept, sc, best)
		}
	}
	t.Logf("%d solved, %d without a solution", found, none)
}

// TestRunDPCap checks that a table beyond MaxRunCells is not built: solve reports it, and
// the decoding returns the optimum C* instead.
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
	s := synth.RuledSentence(rng, heads)
	p := &Problem{Tree: tree, Lens: make([]int, n), Edge: make([]float64, n), Root: make([]float64, n), Query: []int{1}, Budget: 2000}
	for i := range p.Lens {
		p.Lens[i] = 4
	}
	r := new(wellformed.Rules)
	if err := r.Reset(s, tree, p.Lens, p.Query, p.Budget); err != nil {
		t.Fatal(err)
	}
	p.Rules = r
	var d runDP
	if _, ok, big := d.solve(p, s, DefaultRuns(), []int{1}); ok || !big {
		t.Errorf("a table of %d cells: ok %v, big %v; want false, true", (n+1)*(p.Budget+2), ok, big)
	}
	p.Budget = 200
	if _, _, big := d.solve(p, s, DefaultRuns(), []int{1}); big {
		t.Errorf("a table of %d cells reported too big", (n+1)*(p.Budget+2))
	}
}
