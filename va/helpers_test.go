package va_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// randomHeads returns the heads of a random tree over n tokens: the tokens are attached in
// a random order, each to one of the w tokens attached just before it, where the window w
// varies from 1 (a path) to everything so far (a random recursive tree). A few tokens
// hang from the root besides the first, as NewTree allows.
func randomHeads(rng *rand.Rand, n int) []int {
	heads := make([]int, n)
	perm := rng.Perm(n)
	w := 1 + rng.IntN(n)
	for k, v := range perm {
		if k == 0 || rng.IntN(30) == 0 {
			heads[v] = 0
			continue
		}
		heads[v] = perm[k-1-rng.IntN(min(k, w))] + 1
	}
	return heads
}

// mix is the SplitMix64 finaliser, a stateless hash for deterministic random choices.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// coin is a stateless Decider: it accepts v with probability about Num/16, by a hash of
// its seed and v, so it is deterministic and safe for concurrent use.
type coin struct {
	Seed uint64
	Num  uint64 // 0..16
}

func (c coin) accept(v int) bool { return mix(c.Seed^uint64(v)*0x2545f4914f6cdd1d)&15 < c.Num }

func (c coin) Decide(_ *va.State, v int) va.Decision {
	if c.accept(v) {
		return va.Decision{Accept: true, P: 0.75}
	}
	return va.Decision{P: 0.25}
}

// refRun is a direct O(n²) transcription of the authors' runtime_path and
// pick_l2r_connected (authors-implementation.md §2), with ℓ(∅) = 0. It returns the steps
// (with P left 0) and C in sentence order.
func refRun(heads, lens, q []int, b int, accept func(v int) bool) ([]va.Step, []int) {
	n := len(heads)
	inC := make([]bool, n+1)
	inP := make([]bool, n+1)
	for v := 1; v <= n; v++ {
		inP[v] = true
	}
	size, length := 0, 0
	add := func(v int) {
		if size > 0 {
			length++
		}
		length += lens[v-1]
		size++
		inC[v], inP[v] = true, false
	}
	for _, v := range q {
		add(v)
	}
	left := n - len(q)
	var steps []va.Step
	for left > 0 && length < b {
		v := 0
		for u := 1; u <= n && v == 0; u++ { // smallest vertex of P adjacent to C
			if !inP[u] {
				continue
			}
			if h := heads[u-1]; h > 0 && inC[h] {
				v = u
			}
			for w := 1; w <= n && v == 0; w++ {
				if inC[w] && heads[w-1] == u {
					v = u
				}
			}
		}
		for u := 1; u <= n && v == 0; u++ { // else the smallest vertex of P
			if inP[u] {
				v = u
			}
		}
		inP[v] = false
		left--
		cost := lens[v-1]
		if size > 0 {
			cost++
		}
		out := va.Skipped
		switch {
		case length+cost > b:
		case accept(v):
			add(v)
			out = va.Accepted
		default:
			out = va.Rejected
		}
		steps = append(steps, va.Step{V: v, Outcome: out, Len: length})
	}
	var kept []int
	for v := 1; v <= n; v++ {
		if inC[v] {
			kept = append(kept, v)
		}
	}
	return steps, kept
}

// setLen returns ℓ of a vertex set.
func setLen(lens, vs []int) int {
	l := 0
	for _, v := range vs {
		l += lens[v-1] + 1
	}
	return max(0, l-1)
}

// checker is a Decider and Tracker that verifies the State at every call against a
// from-scratch computation, and then defers to inner.
type checker struct {
	t       testing.TB
	lens    []int
	b       int
	q       []int
	inner   coin
	started int
	added   []int // vertices reported to Added, in order
}

func (c *checker) check(s *va.State, where string) {
	c.t.Helper()
	n := s.N()
	var members []int
	for v := 1; v <= n; v++ {
		if s.InC(v) {
			members = append(members, v)
		}
	}
	if got, want := s.Len(), setLen(c.lens, members); got != want {
		c.t.Fatalf("%s: Len = %d, want %d", where, got, want)
	}
	if s.Size() != len(members) || s.Budget() != c.b {
		c.t.Fatalf("%s: Size = %d, Budget = %d, want %d, %d", where, s.Size(), s.Budget(), len(members), c.b)
	}
	wantMin, wantMax := 0, 0
	if len(members) > 0 {
		wantMin, wantMax = members[0], members[len(members)-1]
	}
	if s.MinC() != wantMin || s.MaxC() != wantMax {
		c.t.Fatalf("%s: MinC, MaxC = %d, %d, want %d, %d", where, s.MinC(), s.MaxC(), wantMin, wantMax)
	}
	if !slices.Equal(s.Query(), c.q) || !slices.Equal(s.Accepted(), c.added) {
		c.t.Fatalf("%s: Query, Accepted = %v, %v, want %v, %v", where, s.Query(), s.Accepted(), c.q, c.added)
	}
	order := slices.Concat(s.Query(), s.Accepted())
	slices.Sort(order)
	if !slices.Equal(order, members) {
		c.t.Fatalf("%s: Query+Accepted = %v, C = %v", where, order, members)
	}
	for v := 1; v <= n; v++ {
		if s.TokenLen(v) != c.lens[v-1] {
			c.t.Fatalf("%s: TokenLen(%d) = %d, want %d", where, v, s.TokenLen(v), c.lens[v-1])
		}
	}
}

func (c *checker) Start(s *va.State) {
	c.started++
	c.added = c.added[:0]
	c.check(s, "Start")
}

func (c *checker) Added(s *va.State, v int) {
	if !s.InC(v) {
		c.t.Fatalf("Added(%d): not in C", v)
	}
	c.added = append(c.added, v)
	c.check(s, "Added")
}

func (c *checker) Decide(s *va.State, v int) va.Decision {
	c.check(s, "Decide")
	if s.InC(v) || s.Remaining(v) || s.Rejected(v) || s.Skipped(v) {
		c.t.Fatalf("Decide(%d): the candidate has a status", v)
	}
	if s.Len()+s.TokenLen(v)+min(1, s.Size()) > s.Budget() {
		c.t.Fatalf("Decide(%d): asked about a candidate over the budget", v)
	}
	return c.inner.Decide(s, v)
}

// verify runs p with d (wrapped in a checker) on cmp and checks the invariants and the agreement with refRun.
func verify(t testing.TB, cmp *va.Compressor, heads []int, p va.Problem, d coin) []int {
	t.Helper()
	lens := p.Lens
	if lens == nil {
		for _, tok := range p.Sentence.Tokens {
			lens = append(lens, len([]rune(tok.Form)))
		}
	}
	ck := &checker{t: t, lens: lens, b: p.Budget, q: p.Query, inner: d}
	cmp.Trace = true
	got, err := cmp.Run(p, ck)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if ck.started != 1 {
		t.Fatalf("Start called %d times", ck.started)
	}
	for _, q := range p.Query {
		if _, ok := slices.BinarySearch(got, q); !ok {
			t.Fatalf("query vertex %d missing from %v", q, got)
		}
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Fatalf("output not strictly ascending: %v", got)
	}
	if l := setLen(lens, got); l > p.Budget {
		t.Fatalf("ℓ(C) = %d > b = %d", l, p.Budget)
	}
	steps := cmp.Steps()
	if n, l := len(heads), setLen(lens, got); len(p.Query)+len(steps) < n && l < p.Budget {
		t.Fatalf("stopped early: %d of %d vertices popped, ℓ(C) = %d < b = %d", len(p.Query)+len(steps), n, l, p.Budget)
	}
	wantSteps, want := refRun(heads, lens, p.Query, p.Budget, d.accept)
	for i := range steps {
		if steps[i].Outcome == va.Skipped && steps[i].P != 0 {
			t.Fatalf("step %d: skipped with P = %v", i, steps[i].P)
		}
		steps[i].P = 0
	}
	if !slices.Equal(steps, wantSteps) || !slices.Equal(got, want) {
		t.Fatalf("heads %v lens %v Q %v b %d:\n got %v %v\nwant %v %v", heads, lens, p.Query, p.Budget, steps, got, wantSteps, want)
	}
	var accepted []int
	for _, st := range steps {
		if st.Outcome == va.Accepted {
			accepted = append(accepted, st.V)
		}
	}
	if !slices.Equal(ck.added, accepted) {
		t.Fatalf("Added saw %v, accepted steps %v", ck.added, accepted)
	}
	return got
}

// mustTree builds a tree or fails the test.
func mustTree(t testing.TB, heads []int) *syntax.Tree {
	t.Helper()
	tr, err := syntax.NewTree(heads)
	if err != nil {
		t.Fatalf("NewTree(%v): %v", heads, err)
	}
	return tr
}
