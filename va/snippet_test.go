package va_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
	"github.com/qsc-nlp/qsc/wellformed"
)

func TestSnippetInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var c va.Compressor
	var r wellformed.Rules
	var ck wellformed.Checker
	for i := range 4000 {
		s, tree, lens, total, q, lq := ruledInstance(t, rng, 40)
		n := s.Len()
		b := max(lq, 1) + rng.IntN(total+5)
		if err := r.Reset(s, tree, lens, q, b); err != nil {
			t.Fatal(err)
		}
		d := coin{Seed: uint64(i), Num: uint64(rng.IntN(17))}
		got, err := c.Snippet(va.Problem{Sentence: s, Tree: tree, Query: q, Budget: b}, &r, d)
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		if total <= b {
			if len(got) != n {
				t.Fatalf("instance %d: the sentence fits (%d ≤ %d) but got %v", i, total, b, got)
			}
			continue
		}
		for _, v := range q {
			if !slices.Contains(got, v) {
				t.Fatalf("instance %d: query %d missing from %v", i, v, got)
			}
		}
		if l := setLen(lens, got); l > b {
			t.Fatalf("instance %d: ℓ(C) = %d > b = %d", i, l, b)
		}
		in := make([]bool, n+1)
		for _, v := range got {
			in[v] = true
		}
		for v := 1; v <= n; v++ {
			h := r.Head(v)
			if !r.Yielded() && ((in[v] && r.NeedsHead(v) && !in[h]) || (r.WithHead(v) && in[h] && !in[v])) {
				t.Fatalf("instance %d: %v breaks the rule of token %d", i, got, v)
			}
		}
		if c := ck.Check(s, got, q); !r.Yielded() && c.Any() && c.Total[wellformed.FunctionEnd] == 0 {
			// Trim drops a trailing function word unless the query or a kept token needs it.
			t.Fatalf("instance %d: checker found %v in %v", i, c.Total, got)
		}
	}
}

// randomSnippet returns a random ruled sentence of 2 to 31 tokens (synth.RuledSentence),
// its tree, token lengths, a query of one token and a budget from ℓ(q) to ℓ(S).
func randomSnippet(t *testing.T, rng *rand.Rand) (*syntax.Sentence, *syntax.Tree, []int, []int, int) {
	t.Helper()
	n := 2 + rng.IntN(30)
	heads := randomHeads(rng, n)
	s := synth.RuledSentence(rng, heads)
	tree := mustTree(t, heads)
	lens, total := lengths(s)
	q := []int{1 + rng.IntN(n)}
	return s, tree, lens, q, lens[q[0]-1] + rng.IntN(total)
}

// TestSnippetFills checks that the fill stops only when no rejected candidate fits.
func TestSnippetFills(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var c va.Compressor
	var r wellformed.Rules
	r.Off = 1 << wellformed.FunctionEnd // no Trim, so that the fill's result is seen whole
	for i := range 2000 {
		s, tree, lens, q, b := randomSnippet(t, rng)
		n := s.Len()
		if err := r.Reset(s, tree, lens, q, b); err != nil || r.Yielded() {
			continue
		}
		c.Trace = true
		got, err := c.Snippet(va.Problem{Sentence: s, Tree: tree, Query: q, Budget: b}, &r, coin{Seed: uint64(i), Num: 4})
		if err != nil {
			t.Fatal(err)
		}
		in := make([]bool, n+1)
		for _, v := range got {
			in[v] = true
		}
		left := b - setLen(lens, got)
		for _, st := range c.Steps() {
			if st.Outcome != va.Rejected || in[st.V] {
				continue
			}
			if w := r.Closure(st.V, func(v int) bool { return in[v] }, nil); w <= left {
				t.Fatalf("instance %d: rejected %d (closure %d) still fits the %d characters left of %v", i, st.V, w, left, got)
			}
		}
	}
}

func TestSnippetWholeSentence(t *testing.T) {
	heads := []int{2, 0, 2}
	s := &syntax.Sentence{Tokens: []syntax.Token{{Form: "Police", Rel: "nsubj", Head: 2}, {Form: "came", Rel: "root"}, {Form: "home", Rel: "obj", Head: 2}}}
	tree := mustTree(t, heads)
	var r wellformed.Rules
	if err := r.Reset(s, tree, []int{6, 4, 4}, []int{1}, 16); err != nil {
		t.Fatal(err)
	}
	var c va.Compressor
	got, err := c.Snippet(va.Problem{Sentence: s, Tree: tree, Query: []int{1}, Budget: 16}, &r, coin{Num: 0})
	if err != nil || !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("Snippet = %v, %v; want the whole sentence, which fits", got, err)
	}
}

// TestSnippetAllocs checks that Rules.Reset with Snippet, and with Nested, allocate
// nothing once their memory has grown, on random problems of three kinds for Nested,
// each of which must occur: the closure of Q under the rules fits NestedOrderBudget·ℓ(S),
// from which Nested orders the tokens; only Q does; Q does not either (the order is
// then made at ℓ(S) − 1).
func TestSnippetAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var r wellformed.Rules
	var c va.Compressor
	var inC []bool
	var kinds [3]int
	for i := range 400 {
		s, tree, lens, total, q, lq := ruledInstance(t, rng, 30)
		b := (total + lq) / 2
		if b < lq || b >= total {
			continue // the whole sentence fits, or no budget between
		}
		if err := r.Reset(s, tree, lens, q, b); err != nil {
			t.Fatal(err)
		}
		inC = slices.Grow(inC[:0], s.Len()+1)[:s.Len()+1]
		clear(inC)
		for _, v := range q {
			inC[v] = true
		}
		lc := lq + r.QueryClosure(q, func(v int) bool { return inC[v] }, func(v int) { inC[v] = true })
		share := int(va.NestedOrderBudget * float64(total))
		kind := 0 // the closure fits the share
		if lq > share {
			kind = 2
		} else if lc > share {
			kind = 1
		}
		kinds[kind]++
		p := va.Problem{Sentence: s, Tree: tree, Query: q, Budget: b}
		var d va.Decider = coin{Seed: uint64(i), Num: 5} // boxed once
		for _, nested := range []bool{false, true} {
			run := func() {
				if err := r.Reset(s, tree, lens, q, b); err != nil {
					t.Fatal(err)
				}
				var err error
				if nested {
					_, err = c.Nested(p, &r, d)
				} else {
					_, err = c.Snippet(p, &r, d)
				}
				if err != nil {
					t.Fatalf("instance %d, nested %v: %v", i, nested, err)
				}
			}
			run()
			if a := testing.AllocsPerRun(10, run); a != 0 {
				t.Errorf("instance %d (kind %d), nested %v: Rules.Reset and the decoding allocate %v times per run", i, kind, nested, a)
			}
		}
	}
	for k, n := range kinds {
		if n == 0 {
			t.Errorf("no problem of kind %d among the instances (%v)", k, kinds)
		}
	}
	t.Logf("problems of each kind: %v", kinds)
}

// lengths returns the token lengths of s and ℓ(S).
func lengths(s *syntax.Sentence) ([]int, int) {
	lens := make([]int, s.Len())
	total := -1
	for j, tok := range s.Tokens {
		lens[j] = len(tok.Form)
		total += lens[j] + 1
	}
	return lens, total
}

// TestNestedIsNested checks the promise of the Nested decoding: for one sentence and
// query, the compression at budget b is a subset of the one at b + 1, for every b from
// the query's length to the sentence's (between budgets where the rules agree on
// yielding to the query), and each is what Snippet promises: Q kept, within b, closed
// under the rules.
func TestNestedIsNested(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var c va.Compressor
	var r wellformed.Rules
	for i := range 300 {
		s, tree, lens, total, q, lq := ruledInstance(t, rng, 30)
		n := s.Len()
		d := coin{Seed: uint64(i), Num: uint64(rng.IntN(17))}
		var prev []int
		prevYielded := false
		for b := max(lq, 1); b <= total+1; b++ {
			if err := r.Reset(s, tree, lens, q, b); err != nil {
				t.Fatal(err)
			}
			got, err := c.Nested(va.Problem{Sentence: s, Tree: tree, Query: q, Budget: b}, &r, d)
			if err != nil {
				t.Fatalf("instance %d, b %d: %v", i, b, err)
			}
			for _, v := range q {
				if !slices.Contains(got, v) {
					t.Fatalf("instance %d, b %d: query %d missing from %v", i, b, v, got)
				}
			}
			if l := setLen(lens, got); l > b {
				t.Fatalf("instance %d: ℓ(C) = %d > b = %d", i, l, b)
			}
			if total <= b && len(got) != n {
				t.Fatalf("instance %d: the sentence fits (%d ≤ %d) but got %v", i, total, b, got)
			}
			if prev != nil && prevYielded == r.Yielded() {
				for _, v := range prev {
					if !slices.Contains(got, v) {
						t.Fatalf("instance %d: C(%d) = %v is not in C(%d) = %v", i, b-1, prev, b, got)
					}
				}
			}
			prev, prevYielded = slices.Clone(got), r.Yielded()
		}
	}
}

// ruledInstance draws a random parsed sentence of 1 to maxN tokens whose relations the
// rules bind, and a query of 1 to 3 of its tokens. It returns the sentence, its tree, the
// token lengths, ℓ(S), Q and ℓ(Q).
func ruledInstance(t testing.TB, rng *rand.Rand, maxN int) (*syntax.Sentence, *syntax.Tree, []int, int, []int, int) {
	t.Helper()
	n := 1 + rng.IntN(maxN)
	heads := randomHeads(rng, n)
	s := synth.RuledSentence(rng, heads)
	tree := mustTree(t, heads)
	lens, total := lengths(s)
	var q []int
	lq := -1
	for _, v := range rng.Perm(n)[:rng.IntN(min(n, 3))+1] {
		q = append(q, v+1)
		lq += lens[v] + 1
	}
	return s, tree, lens, total, q, lq
}

// TestShown checks that Shown rewrites the trace of a Snippet for another shown set: the
// candidates accepted or filled that it leaves out become Trimmed, the rejected or
// skipped ones it holds become Filled, and the others keep their outcomes.
func TestShown(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var c va.Compressor
	var r wellformed.Rules
	changed := 0
	for i := range 500 {
		s, tree, lens, q, b := randomSnippet(t, rng)
		n := s.Len()
		if err := r.Reset(s, tree, lens, q, b); err != nil {
			t.Fatal(err)
		}
		c.Trace = true
		if _, err := c.Snippet(va.Problem{Sentence: s, Tree: tree, Query: q, Budget: b}, &r, coin{Seed: uint64(i), Num: 2}); err != nil {
			t.Fatal(err)
		}
		before := slices.Clone(c.Steps())
		var shown []int // a random other set
		for v := 1; v <= n; v++ {
			if rng.IntN(2) == 0 {
				shown = append(shown, v)
			}
		}
		c.Shown(shown)
		for j, st := range c.Steps() {
			in := slices.Contains(shown, st.V)
			was := before[j].Outcome
			want := was
			switch {
			case !in && (was == va.Accepted || was == va.Filled):
				want = va.Trimmed
			case in && (was == va.Rejected || was == va.Skipped):
				want = va.Filled
			}
			if st.Outcome != want {
				t.Fatalf("instance %d: step %d (token %d, %v) became %v, want %v", i, j, st.V, was, st.Outcome, want)
			}
			if want != was {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Fatal("no outcome changed")
	}
}
