package runs

// Solve exposes solve to the tests of package runs_test.
func (d *Program) Solve(in *Input, pr Params, opt []int) (kept []int, ok, big bool) {
	return d.solve(in, pr, opt)
}

// Objective is the snippet decoding's objective read directly from its definition (the
// package comment; Terms) for the set kept, and whether kept is allowed: every run allowed
// by the display rules, Q ⊆ kept, and the width within the budget. It reads the values and
// the display rules of the last Solve or Nested of d on p (whose Keep is pr's times
// NestedKeep).
func (d *Program) Objective(p *Input, pr Params, kept []bool) (float64, bool) {
	t := d.terms(p, pr, kept)
	return t.Score(pr), t.Allowed()
}

// ObjectiveTerms is Objective's terms.
func (d *Program) ObjectiveTerms(p *Input, pr Params, kept []bool) Terms {
	return d.terms(p, pr, kept)
}

// Carrier reports whether the last Solve of d marked token v as a carrier.
func (d *Program) Carrier(v int) bool { return d.carrier[v] }

// NestedFell reports whether the last Nested of d showed the snippet decoding's best
// display because no state of its sequence fitted.
func (d *Program) NestedFell() bool { return d.ns.fell }
