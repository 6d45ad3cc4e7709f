package va_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// recorder is a Decider that logs the candidates it is asked about and accepts those in
// its set.
type recorder struct {
	accept []int
	calls  []int
}

func (r *recorder) Decide(_ *va.State, v int) va.Decision {
	r.calls = append(r.calls, v)
	if slices.Contains(r.accept, v) {
		return va.Decision{Accept: true, P: 0.9}
	}
	return va.Decision{P: 0.1}
}

// sentence makes a sentence from space-separated forms and heads.
func sentence(forms string, heads []int) *syntax.Sentence {
	s := &syntax.Sentence{}
	for i, f := range strings.Fields(forms) {
		s.Tokens = append(s.Tokens, syntax.Token{Form: f, Head: heads[i], Start: -1, End: -1})
	}
	return s
}

// steps renders a trace as "v:outcome" items.
func steps(ss []va.Step) string {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d:%s", s.V, s.Outcome)
	}
	return b.String()
}

// TestCandidateOrder checks the exact candidate sequence on a small tree:
//
//	2 ─┬─ 1
//	   └─ 4 ─┬─ 3
//	         └─ 5 ── 7 ── 6
//
// with token lengths 1 2 3 4 1 2 7.
func TestCandidateOrder(t *testing.T) {
	heads := []int{2, 0, 4, 2, 4, 7, 5}
	const forms = "a bb ccc dddd e ff ggggggg"
	all := []int{1, 2, 3, 4, 5, 6, 7}
	tests := []struct {
		name      string
		heads     []int
		forms     string
		q         []int
		b         int
		accept    []int
		wantSteps string
		wantCalls []int // nil: the candidates that were not skipped
		wantC     []int
	}{
		{"adjacent first, left to right", heads, forms, []int{5}, 100, all,
			"4:accept 2:accept 1:accept 3:accept 7:accept 6:accept", nil, all},
		{"fallback to leftmost remaining", heads, forms, []int{5}, 100, nil,
			"4:reject 7:reject 1:reject 2:reject 3:reject 6:reject", nil, []int{5}},
		{"fallback vertex grows C", heads, forms, []int{5}, 100, []int{7, 1},
			"4:reject 7:accept 6:reject 1:accept 2:reject 3:reject", nil, []int{1, 5, 7}},
		{"skip over budget without asking", heads, forms, []int{5}, 8, all,
			"4:accept 2:skip 3:skip 7:skip 1:accept", []int{4, 1}, []int{1, 4, 5}},
		{"query order does not matter", heads, forms, []int{6, 3}, 100, nil,
			"4:reject 7:reject 1:reject 2:reject 5:reject", nil, []int{3, 6}},
		{"empty query starts at the leftmost", heads, forms, nil, 100, all,
			"1:accept 2:accept 4:accept 3:accept 5:accept 7:accept 6:accept", nil, all},
		{"empty C costs no space", heads, forms, nil, 1, all,
			"1:accept", nil, []int{1}},
		{"ℓ(Q) = b: nothing to do", heads, forms, []int{4, 5}, 6, all, "", nil, []int{4, 5}},
		{"root is not a vertex", []int{2, 0, 0}, "x y z", []int{3}, 100, nil,
			"1:reject 2:reject", nil, []int{3}},
		{"head before children, all by index", []int{3, 3, 0, 3}, "w x y z", []int{3}, 100, nil,
			"1:reject 2:reject 4:reject", nil, []int{3}},
		{"budget exactly met stops the loop", []int{0, 1, 1, 1}, "aa b c d", []int{1}, 6, all,
			"2:accept 3:accept", nil, []int{1, 2, 3}},
	}
	var c va.Compressor
	c.Trace = true
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{accept: tt.accept}
			p := va.Problem{Sentence: sentence(tt.forms, tt.heads), Tree: mustTree(t, tt.heads), Query: tt.q, Budget: tt.b}
			got, err := c.Run(p, r)
			if err != nil {
				t.Fatal(err)
			}
			if s := steps(c.Steps()); s != tt.wantSteps {
				t.Errorf("steps = %q, want %q", s, tt.wantSteps)
			}
			wantCalls := tt.wantCalls
			if wantCalls == nil {
				for _, s := range c.Steps() {
					if s.Outcome != va.Skipped {
						wantCalls = append(wantCalls, s.V)
					}
				}
			}
			if !slices.Equal(r.calls, wantCalls) {
				t.Errorf("Decide calls = %v, want %v", r.calls, wantCalls)
			}
			if !slices.Equal(got, tt.wantC) {
				t.Errorf("C = %v, want %v", got, tt.wantC)
			}
			for _, s := range c.Steps() {
				if want := map[va.Outcome]float64{va.Accepted: 0.9, va.Rejected: 0.1, va.Skipped: 0}[s.Outcome]; s.P != want {
					t.Errorf("step %d: P = %v, want %v", s.V, s.P, want)
				}
			}
		})
	}
}

// TestLengthsAreRunes checks that lengths from the sentence count runes, not bytes, and
// that Lens takes precedence over the sentence.
func TestLengthsAreRunes(t *testing.T) {
	heads := []int{0, 1, 1}
	p := va.Problem{Sentence: sentence("café 日本 x", heads), Tree: mustTree(t, heads), Query: []int{1}, Budget: 7}
	var c va.Compressor
	got, err := c.Run(p, coin{Num: 16})
	if err != nil || !slices.Equal(got, []int{1, 2}) { // 4 + 1 + 2 = 7; x does not fit
		t.Errorf("runes: C = %v, %v; want [1 2]", got, err)
	}
	p.Lens = []int{4, 1, 1}
	got, err = c.Run(p, coin{Num: 16})
	if err != nil || !slices.Equal(got, []int{1, 2}) { // 4 + 1 + 1 = 6; x costs 2 more
		t.Errorf("Lens: C = %v, %v; want [1 2]", got, err)
	}
}

// TestErrors checks that every impossible or malformed Problem returns a typed error and
// that the Compressor still works afterwards.
func TestErrors(t *testing.T) {
	heads := []int{2, 0, 2}
	tree := mustTree(t, heads)
	sent := sentence("aa bbb c", heads)
	tests := []struct {
		name string
		p    va.Problem
		d    va.Decider
		want error
		typ  string
	}{
		{"query out of range", va.Problem{Sentence: sent, Tree: tree, Query: []int{4}, Budget: 10}, coin{}, va.ErrNotInSentence, "vertex"},
		{"query is the root", va.Problem{Sentence: sent, Tree: tree, Query: []int{0}, Budget: 10}, coin{}, va.ErrNotInSentence, "vertex"},
		{"negative query", va.Problem{Sentence: sent, Tree: tree, Query: []int{-1}, Budget: 10}, coin{}, va.ErrNotInSentence, "vertex"},
		{"duplicate query", va.Problem{Sentence: sent, Tree: tree, Query: []int{1, 3, 1}, Budget: 10}, coin{}, va.ErrDuplicate, "vertex"},
		{"zero budget", va.Problem{Sentence: sent, Tree: tree, Budget: 0}, coin{}, va.ErrBadBudget, "budget"},
		{"negative budget", va.Problem{Sentence: sent, Tree: tree, Query: []int{1}, Budget: -5}, coin{}, va.ErrBadBudget, "budget"},
		{"query over budget", va.Problem{Sentence: sent, Tree: tree, Query: []int{1, 2}, Budget: 5}, coin{}, va.ErrBudgetTooSmall, "budget"},
		{"no tree", va.Problem{Sentence: sent, Budget: 10}, coin{}, va.ErrInvalidInput, ""},
		{"zero tree", va.Problem{Sentence: sent, Tree: &syntax.Tree{}, Budget: 10}, coin{}, va.ErrInvalidInput, ""},
		{"no lengths", va.Problem{Tree: tree, Budget: 10}, coin{}, va.ErrInvalidInput, ""},
		{"sentence size", va.Problem{Sentence: sentence("a b", heads), Tree: tree, Budget: 10}, coin{}, va.ErrInvalidInput, ""},
		{"lens size", va.Problem{Tree: tree, Lens: []int{1, 2}, Budget: 10}, coin{}, va.ErrInvalidInput, ""},
		{"negative length", va.Problem{Tree: tree, Lens: []int{1, -2, 3}, Budget: 10}, coin{}, va.ErrInvalidInput, ""},
		{"huge lengths", va.Problem{Tree: tree, Lens: []int{1 << 62, 1 << 62, 1 << 62}, Budget: 10}, coin{}, va.ErrInvalidInput, ""},
		{"nil decider", va.Problem{Sentence: sent, Tree: tree, Budget: 10}, nil, va.ErrInvalidInput, ""},
	}
	var c va.Compressor
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Run(tt.p, tt.d)
			if !errors.Is(err, tt.want) || got != nil {
				t.Fatalf("Run = %v, %v; want error %v", got, err, tt.want)
			}
			var ve *va.VertexError
			var be *va.BudgetError
			if (tt.typ == "vertex") != errors.As(err, &ve) || (tt.typ == "budget") != errors.As(err, &be) {
				t.Errorf("error %v (%T) has the wrong type", err, err)
			}
			if !strings.HasPrefix(err.Error(), "va: ") {
				t.Errorf("message %q lacks the package prefix", err)
			}
			got, err = c.Run(va.Problem{Sentence: sent, Tree: tree, Query: []int{2}, Budget: 6}, coin{Num: 16})
			if err != nil || !slices.Equal(got, []int{1, 2}) {
				t.Errorf("run after the error: %v, %v", got, err)
			}
		})
	}
}

// TestEmptySentence checks that a sentence without tokens compresses to nothing.
func TestEmptySentence(t *testing.T) {
	var c va.Compressor
	got, err := c.Run(va.Problem{Tree: mustTree(t, nil), Lens: []int{}, Budget: 1}, coin{})
	if err != nil || len(got) != 0 {
		t.Errorf("Run = %v, %v", got, err)
	}
}

// TestRandomTrees checks the invariants and the agreement with the quadratic reference
// on many random trees, lengths, queries, budgets and deciders, with one Compressor
// reused throughout (sizes go up and down).
func TestRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var c va.Compressor
	for trial := 0; trial < 5000; trial++ {
		n := 1 + rng.IntN(60)
		if trial%50 == 0 {
			n = 64 + rng.IntN(300) // two bitset levels
		}
		heads := randomHeads(rng, n)
		lens := make([]int, n)
		total := 0
		for i := range lens {
			lens[i] = rng.IntN(12) // includes empty tokens
			total += lens[i] + 1
		}
		q := rng.Perm(n)[:rng.IntN(min(n, 4)+1)]
		for i := range q {
			q[i]++
		}
		b := max(1, setLen(lens, q)) + rng.IntN(total+2)
		p := va.Problem{Tree: mustTree(t, heads), Lens: lens, Query: q, Budget: b}
		verify(t, &c, heads, p, coin{Seed: uint64(trial), Num: uint64(rng.IntN(17))})
	}
}

// history is the per-run Scratch of tracked: the sum of the token lengths in C,
// maintained incrementally, and counters for the test.
type history struct {
	starts, added, sum, stale int
}

// tracked is a stateless model that keeps per-run data in State.Scratch.
type tracked struct{ coin }

func (tracked) Start(s *va.State) {
	h, ok := s.Scratch.(*history)
	if !ok {
		h = new(history)
		s.Scratch = h
	}
	h.starts++
	h.added, h.sum = 0, 0
	for _, q := range s.Query() {
		h.sum += s.TokenLen(q)
	}
}

func (tracked) Added(s *va.State, v int) {
	h := s.Scratch.(*history)
	h.added++
	h.sum += s.TokenLen(v)
}

func (m tracked) Decide(s *va.State, v int) va.Decision {
	h := s.Scratch.(*history)
	if s.Size() > 0 && h.sum+s.Size()-1 != s.Len() {
		h.stale++
	}
	return m.coin.Decide(s, v)
}

// TestTrackerScratch checks that a Tracker's Scratch is kept up to date and survives from
// run to run, also when a Decider that is no Tracker runs between two runs of the Tracker
// (whose Tracker the Compressor resolves once per Decider), and that Run allocates
// nothing after warm-up, with or without a Tracker and a trace.
func TestTrackerScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 200
	heads := randomHeads(rng, n)
	lens := make([]int, n)
	for i := range lens {
		lens[i] = 1 + rng.IntN(9)
	}
	p := va.Problem{Tree: mustTree(t, heads), Lens: lens, Query: []int{5, 50}, Budget: 500}
	var c va.Compressor
	var m va.Decider = &tracked{coin{Seed: 1, Num: 8}}
	c.Run(p, m)
	got, err := c.Run(p, m)
	if err != nil {
		t.Fatal(err)
	}
	var h *history
	c.Run(p, decideFunc(func(s *va.State, _ int) va.Decision { // no Tracker: Scratch untouched
		h = s.Scratch.(*history)
		return va.Decision{}
	}))
	if h.starts != 2 || h.added != len(got)-2 || h.stale != 0 {
		t.Fatalf("Scratch = %+v after two runs keeping %d vertices", *h, len(got))
	}
	if again, err := c.Run(p, m); err != nil || !slices.Equal(again, got) || h.starts != 3 || h.stale != 0 {
		t.Fatalf("the Tracker's run after another Decider's: %v, %v, Scratch = %+v", again, err, *h)
	}
	for _, trace := range []bool{false, true} {
		c.Trace = trace
		for _, d := range []va.Decider{m, coin{Seed: 2, Num: 8}} {
			if allocs := testing.AllocsPerRun(100, func() { c.Run(p, d) }); allocs != 0 {
				t.Errorf("Trace %v, %T: %v allocations per run", trace, d, allocs)
			}
		}
	}
}

// decideFunc adapts a function to Decider.
type decideFunc func(s *va.State, v int) va.Decision

func (f decideFunc) Decide(s *va.State, v int) va.Decision { return f(s, v) }
