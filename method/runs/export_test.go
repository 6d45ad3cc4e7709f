package runs

import "github.com/qsc-nlp/qsc/wellformed"

// Solve exposes solve to the tests of package runs_test.
func (d *Program) Solve(in *Input, pr Params, opt []int) (kept []int, ok, big bool) {
	return d.solve(in, pr, opt)
}

// Objective is the snippet decoding's objective read directly from its definition (the
// package comment) for the set kept, and whether kept is allowed: every run allowed by
// the display rules, Q ⊆ kept, and the width within the budget. It reads the values and
// the display rules of the last Solve of d on in.
func (d *Program) Objective(p *Input, pr Params, kept []bool) (float64, bool) {
	u, s := &d.u, p.Sentence
	n := p.Tree.N()
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
		words, nq, word := 0, 0, 0
		for x := v; x <= e; x++ {
			if u.Lo(x) < v || u.Hi(x) > e {
				return 0, false
			}
			if u.Word(x) {
				words++
				word = x
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
		if words < 3 && nq == 0 || words == 1 && !u.Alone(word) {
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
	K := capacity(p.Lens, p.Budget)
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

// Carrier reports whether the last Solve of d marked token v as a carrier.
func (d *Program) Carrier(v int) bool { return d.carrier[v] }

// NestedFell reports whether the last Nested of d showed the snippet decoding's best
// display because no state of its sequence fitted.
func (d *Program) NestedFell() bool { return d.ns.fell }
