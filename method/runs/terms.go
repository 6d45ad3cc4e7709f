package runs

// Terms are the terms of the snippet decoding's objective (the package comment) for one set
// of tokens C of one problem, before they are weighed: what the objective counts, so that a
// display that the program did not choose (a window, another decoding's, a reader's
// favourite) can be compared with its choice term by term.
type Terms struct {
	// Keep is Σ_{v∈C} w_v·[v ∈ C*]: the characters (with their spaces) of the method's
	// compression that C keeps (Params.Keep's unit).
	Keep float64
	// Fill is Σ_{v∈C} w_v·near(v) (Params.Fill's unit).
	Fill float64
	// Carriers is the number of kept tokens that carry a kept clause's point.
	Carriers int
	// Gaps is the number of inner cuts, k − 1 for k runs.
	Gaps int
	// Dangles is the number of runs that end dangling (wellformed.Runs.RunDangles) before
	// words that C drops.
	Dangles int
	// Shorts is the number of short runs.
	Shorts int
	// Edges is 1 for C starting where the sentence starts, and 1 more for C ending where
	// it ends with a last run that holds a query word, or with a query of none (0, 1 or
	// 2).
	Edges int
	// Width is C's width as the budget counts it (Params.Display), plus 1, as the
	// program's capacity counts it.
	Width int
	// Breaks are the ways the program could not choose C (the Break flags), 0 when it
	// could (Allowed).
	Breaks Break
}

// Allowed reports whether the program could choose C: Q ⊆ C, C holds a run, every run is
// allowed by the display rules, and Width is within the capacity (Breaks is 0).
func (t Terms) Allowed() bool { return t.Breaks == 0 }

// OneRun reports whether C is the one run that the program shows under Params.Clean when
// no display with clean cuts only fits: a run allowed by the display rules but for the
// words before it that its first words need (BreakBefore), holding Q and within the
// capacity.
func (t Terms) OneRun() bool { return t.Gaps == 0 && t.Breaks&^BreakBefore == 0 }

// Break is a set of the ways a set of tokens breaks what the run program may show.
type Break uint16

// The ways of Break.
const (
	BreakQuery  Break = 1 << iota // a query token is not kept
	BreakBound                    // a run holds a token without the token it is bound to (a phrase, a name, a list…)
	BreakStart                    // a run starts where no run may start (attached punctuation: "'s", a comma)
	BreakEnd                      // a run ends where no run may end (a function word, "to", a comma…)
	BreakIsland                   // a run holds no word, or one word that is not a query term
	BreakWidth                    // C is wider than the budget
	BreakEmpty                    // C holds no run
	BreakCut                      // under Params.Clean, an inner cut is not clean (wellformed.Cuts)
	BreakBefore                   // under Params.Clean, a run holds a token bound to words before it, all of them wellformed.Runs.Lead
)

// Part is one term of the objective: what it counts, how much of it, and its signed
// weight (a cost is negative).
type Part struct {
	Name          string
	Count, Weight float64
}

// Parts returns the terms of t with their signed weights under pr, in the order of the
// objective in the package comment; Score is the sum of their products.
func (t Terms) Parts(pr Params) [7]Part {
	return [7]Part{
		{"characters of C* (the method's compression)", t.Keep, pr.Keep},
		{"fill (characters weighed by nearness)", t.Fill, pr.Fill},
		{"carriers", float64(t.Carriers), pr.Carrier},
		{"inner cuts", float64(t.Gaps), -pr.Gap},
		{"dangling runs", float64(t.Dangles), -pr.Dangle},
		{"short runs", float64(t.Shorts), -pr.Short},
		{"edges (no cut at the sentence's start, end)", float64(t.Edges), pr.Edge},
	}
}

// Score returns the objective of t under the weights pr: the sum of its Parts.
func (t Terms) Score(pr Params) float64 {
	x := 0.0
	for _, p := range t.Parts(pr) {
		x += p.Count * p.Weight
	}
	return x
}

// Measure returns the terms of the objective of package runs for the tokens kept (ids in
// 1..N, in any order; others are ignored) of the problem in with the method's
// compression opt (C*), under the width model of pr (pr.Display): the objective read from
// its definition, which the program's optimum attains (Show returns a C of the highest
// Score among those Allowed). It costs O(n) and allocates nothing once d has grown.
func (d *Program) Measure(in *Input, pr Params, opt, kept []int) Terms {
	if in.Tree == nil || in.Sentence == nil || in.Rules == nil {
		return Terms{}
	}
	d.setOpt(in.Tree.N(), opt)
	return d.measure(in, pr, kept)
}

// MeasureShown is Measure with the method's compression of the last Show of d on in:
// the terms of kept against the C* that the program last showed. It costs O(n) and
// allocates nothing once d has grown.
func (d *Program) MeasureShown(in *Input, pr Params, kept []int) Terms {
	if in.Tree == nil || in.Sentence == nil || in.Rules == nil || len(d.opt) != in.Tree.N()+1 {
		return Terms{}
	}
	return d.measure(in, pr, kept)
}

// measure is Measure once d.opt is C*.
func (d *Program) measure(in *Input, pr Params, kept []int) Terms {
	n := in.Tree.N()
	if _, _, ok := d.prepare(in, pr, nil); !ok {
		return Terms{}
	}
	d.set = zeroed(d.set, n+1)
	for _, v := range kept {
		if v >= 1 && v <= n {
			d.set[v] = true
		}
	}
	return d.terms(in, pr, d.set)
}

// terms returns the terms of the set in (in[v] for v in 1..N) of p under pr, from the
// tables of the last prepare of d on p: the one reading of the objective's definition,
// with which Measure and the tests weigh a set the program did not choose.
func (d *Program) terms(p *Input, pr Params, in []bool) Terms {
	u, s := &d.u, p.Sentence
	n := p.Tree.N()
	var t Terms
	add := func(v int) {
		w := float64(d.w[v])
		t.Fill += w * d.near[v]
		switch {
		case d.keepv != nil:
			t.Keep += w * d.keepv[v]
		case d.opt[v]:
			t.Keep += w
		}
		if d.carrier[v] {
			t.Carriers++
		}
	}
	for _, q := range p.Query {
		if q >= 1 && q <= n && !in[q] {
			t.Breaks |= BreakQuery
		}
	}
	K, cut := d.limits(p, pr)
	// Free sentence-final punctuation after a cut is not a run.
	last := n
	finalCut := false
	if n >= 2 && in[n] && !in[n-1] && d.finalPunct(p.Rules, n) == n {
		add(n)
		t.Width += p.Lens[n-1] + spaceBefore(s, n, pr.Display)
		last = n - 1
		finalCut = true
	}
	lastRun := 0 // the end of the last run
	for v := last; v >= 1; v-- {
		if in[v] {
			lastRun = v
			break
		}
	}
	if pr.Clean && finalCut && lastRun > 0 && !u.Clean(p.Tree, lastRun+1, n-1) {
		t.Breaks |= BreakCut
	}
	runs, prevEnd := 0, 0
	for v := 1; v <= last; {
		if !in[v] {
			v++
			continue
		}
		e := v
		for e+1 <= last && in[e+1] {
			e++
		}
		words, nq := 0, 0
		for x := v; x <= e; x++ {
			switch lo := u.Lo(x); {
			case lo < v && pr.Clean && d.leads(lo, v):
				t.Breaks |= BreakBefore
			case lo < v:
				t.Breaks |= BreakBound
			}
			if u.Hi(x) > e {
				t.Breaks |= BreakBound
			}
			if u.Word(x) {
				words++
				if u.Query(x) {
					nq++
				}
			}
			add(x)
		}
		t.Width += d.width(v, e) // with the separator before the run
		if !u.CanStart(v) {
			t.Breaks |= BreakStart
		}
		if !u.CanEnd(e) {
			t.Breaks |= BreakEnd
		}
		if words == 0 || (words == 1 && nq == 0) {
			t.Breaks |= BreakIsland
		}
		if u.RunDangles(v, e) && d.wordPre[n] > d.wordPre[e] {
			t.Dangles++
		}
		if words > 0 && d.short(words, nq, d.lastWord(v, e)) {
			t.Shorts++
		}
		if v == 1 {
			t.Edges++
		}
		if e == n && d.endsEdge(nq) {
			t.Edges++
		}
		if runs > 0 {
			t.Gaps++
			t.Width += cut
			if pr.Clean && !u.Clean(p.Tree, prevEnd+1, v-1) {
				t.Breaks |= BreakCut
			}
		} else if d.wordPre[v-1] > 0 {
			t.Width += cut
		}
		if e == lastRun && d.wordPre[n] > d.wordPre[e] {
			t.Width += cut // the trailing cut
		}
		runs++
		prevEnd = e
		v = e + 1
	}
	if runs == 0 {
		t.Breaks |= BreakEmpty
	}
	if t.Width > K {
		t.Breaks |= BreakWidth
	}
	return t
}
