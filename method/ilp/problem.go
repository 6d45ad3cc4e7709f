package ilp

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
	"github.com/qsc-nlp/qsc/wellformed"
)

// Problem is the integer linear program of one sentence, with its arc scores. There is a
// binary variable per arc: the parse edge head(n) → n of every token n, and the added arc
// ROOT → n of every token whose head is not already the root. Token n is in the
// compression C when one of its incoming arcs is kept. The program maximises the total
// score of the kept arcs subject to
//
//   - at most one kept incoming arc per token;
//   - an arc n → u out of a token n only if n ∈ C (an arc out of ROOT always);
//   - Q ⊆ C;
//   - ℓ(C) = Σ_{n∈C} (Lens[n] + 1) − 1 ≤ Budget.
//
// Any token set that contains Q and fits the budget is feasible (each token can hang off
// ROOT), so the optimum exists whenever ℓ(Q) ≤ Budget.
type Problem struct {
	// Tree is the dependency parse; it is required.
	Tree *syntax.Tree
	// Lens[i] is the length of token i+1, in runes, ≥ 0.
	Lens []int
	// Edge[i] is the score of the parse edge head(i+1) → i+1.
	Edge []float64
	// Root[i] is the score of the added arc ROOT → i+1; it is ignored for a token whose
	// head is the root (its parse edge already comes from the root).
	Root []float64
	// Query is Q: distinct token ids in 1..N. It may be empty.
	Query []int
	// Budget is b > 0, in the unit of Lens.
	Budget int
	// QueryViaRoot makes each query token take its arc from the root (the arc ROOT → q,
	// or its parse edge when its head is the root), as the authors' constraint does ("the
	// incoming edge of q with the smallest governor index is kept"), instead of only
	// q ∈ C.
	QueryViaRoot bool
	// Rules, when set, constrain C to be well-formed: every token that Rules.NeedsHead
	// is kept only with its rule head, every token that Rules.WithHead is kept iff its
	// rule head is, and the tree of the program is Rules.Tree(). The rules must have
	// been computed for this problem (its sentence, lengths, query and budget).
	Rules *wellformed.Rules
	// Nested asks the TreeDP for nested decoding (NestedOptimize): not the exact
	// optimum under the budget, but the longest prefix that fits of one order of the
	// tokens, the same for every budget, so that a larger budget gives a superset. It
	// needs Rules.
	Nested bool
}

// N returns the number of tokens.
func (p *Problem) N() int {
	if p.Tree == nil {
		return 0
	}
	return p.Tree.N()
}

// Solution is an optimal assignment of a Problem.
type Solution struct {
	// Kept is C, ascending.
	Kept []int
	// Parent[n] is the tail of the kept arc into token n, for 0 ≤ n ≤ N: −1 when n ∉ C
	// (and for n = 0), head(n) for the parse edge, 0 for the arc from the root (the added
	// arc ROOT → n, or the parse edge when head(n) = 0).
	Parent []int
	// Score is the objective: the total score of the kept arcs.
	Score float64
}

// An Optimizer solves Problems exactly. It holds reusable memory, so it is not safe for
// concurrent use: use one per goroutine.
type Optimizer interface {
	// Optimize writes an optimal solution of p into sol, reusing sol's memory. Errors wrap
	// the va errors for an invalid problem (ErrInvalidInput, ErrNotInSentence,
	// ErrDuplicate, ErrBadBudget, ErrBudgetTooSmall).
	Optimize(p *Problem, sol *Solution) error
}

// Backend names.
const (
	// DP is the exact dynamic program over the tree (the default; pure Go).
	DP = "dp"
	// GLPK is the MIP solver GLPK, in builds with the tag glpk.
	GLPK = "glpk"
)

// backends maps a backend name to a constructor of its Optimizer. glpk.go adds GLPK in
// builds with the tag glpk.
var backends = map[string]func() Optimizer{DP: func() Optimizer { return new(TreeDP) }}

// ErrNoBackend is wrapped by the error for an unknown backend or one not in this build.
var ErrNoBackend = errors.New("ilp: no such solver backend in this build")

// Backends returns the names of the backends in this build, sorted: "dp", and "glpk" in a
// build with the tag glpk.
func Backends() []string {
	var names []string
	for n := range backends {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewOptimizer returns a new Optimizer of the named backend.
func NewOptimizer(backend string) (Optimizer, error) {
	f, ok := backends[backend]
	if !ok {
		return nil, fmt.Errorf("%w: %q (this build has %v)", ErrNoBackend, backend, Backends())
	}
	return f(), nil
}

// validate checks p and returns the query marks (mark[q] for q ∈ Q), reusing mark.
func (p *Problem) validate(mark []bool) ([]bool, error) {
	if p.Tree == nil {
		return mark, fmt.Errorf("%w: no tree", va.ErrInvalidInput)
	}
	n := p.Tree.N()
	if len(p.Lens) != n || len(p.Edge) != n || len(p.Root) != n {
		return mark, fmt.Errorf("%w: %d tokens but %d lengths, %d edge scores and %d root scores",
			va.ErrInvalidInput, n, len(p.Lens), len(p.Edge), len(p.Root))
	}
	total := 0
	for i, l := range p.Lens {
		if l < 0 || l > math.MaxInt32-total {
			return mark, fmt.Errorf("%w: token %d has length %d", va.ErrInvalidInput, i+1, l)
		}
		total += l + 1
		if math.IsNaN(p.Edge[i]) || math.IsInf(p.Edge[i], 0) || math.IsNaN(p.Root[i]) || math.IsInf(p.Root[i], 0) {
			return mark, fmt.Errorf("%w: token %d has a score that is not finite", va.ErrInvalidInput, i+1)
		}
	}
	mark = slices.Grow(mark[:0], n+1)[:n+1]
	clear(mark)
	wq := 0
	for _, q := range p.Query {
		if q < 1 || q > n {
			return mark, &va.VertexError{Set: "query", Vertex: q, N: n, Err: va.ErrNotInSentence}
		}
		if mark[q] {
			return mark, &va.VertexError{Set: "query", Vertex: q, N: n, Err: va.ErrDuplicate}
		}
		mark[q] = true
		wq += p.Lens[q-1] + 1
	}
	lq := syntax.Length(wq)
	if p.Budget <= 0 {
		return mark, &va.BudgetError{Budget: p.Budget, QueryLen: lq, Err: va.ErrBadBudget}
	}
	if lq > p.Budget {
		return mark, &va.BudgetError{Budget: p.Budget, QueryLen: lq, Err: va.ErrBudgetTooSmall}
	}
	return mark, nil
}

// capacity is the solvers' bound on Σ_{v∈C} (Lens[v] + 1): b + 1, with b capped at the
// weight of the whole sentence (a larger budget changes nothing), so that it cannot
// overflow.
func (p *Problem) capacity() int {
	total := 0
	for _, l := range p.Lens {
		total += l + 1
	}
	return min(p.Budget, total) + 1
}

// Evaluate returns the objective of keeping the token set kept (any order) with the best
// arc into each kept token, and whether kept is feasible: distinct tokens, Q ⊆ kept and
// ℓ(kept) ≤ b. It is the reference the solvers are tested against.
func (p *Problem) Evaluate(kept []int) (score float64, feasible bool) {
	n := p.N()
	in := make([]bool, n+1)
	weight := 0
	for _, v := range kept {
		if v < 1 || v > n || in[v] {
			return 0, false
		}
		in[v] = true
		weight += p.Lens[v-1] + 1
	}
	q := make([]bool, n+1)
	for _, v := range p.Query {
		if v < 1 || v > n || !in[v] {
			return 0, false
		}
		q[v] = true
	}
	for _, v := range kept {
		score += p.gain(v, in[p.Tree.Head(v)] || p.Tree.Head(v) == 0, q[v])
	}
	return score, syntax.Length(weight) <= p.Budget
}

// gain returns the score of the best arc into token v when v ∈ C, given whether its head
// is in C (or is the root) and whether v is a query token.
func (p *Problem) gain(v int, headIn, query bool) float64 {
	if p.Tree.Head(v) == 0 {
		return p.Edge[v-1]
	}
	if headIn && !(query && p.QueryViaRoot) {
		return max(p.Edge[v-1], p.Root[v-1])
	}
	return p.Root[v-1]
}

// parent returns the tail of the best arc into v ∈ C: head(v) for the parse edge (on a
// tie with the root arc too), 0 for the root.
func (p *Problem) parent(v int, headIn, query bool) int {
	h := p.Tree.Head(v)
	if h == 0 || (headIn && !(query && p.QueryViaRoot) && p.Edge[v-1] >= p.Root[v-1]) {
		return h
	}
	return 0
}
