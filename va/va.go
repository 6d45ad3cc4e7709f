// Package va implements VERTEX ADDITION (Handler & O'Connor, EMNLP 2019, §3 and the
// appendix): it compresses a sentence S to a subset C of its tokens that contains the query
// Q and fits a length budget b, growing C one vertex at a time over the dependency tree and
// asking a model, the Decider, whether to keep each candidate.
//
// # Lengths
//
// The length of a token is the number of characters of its form, counted as Unicode code
// points (runes, syntax.TokenLen); the authors used Python 3 len on ASCII-folded words,
// which agrees on ASCII. The length of a vertex set is the length of its words joined by
// single spaces (syntax.Length): ℓ(C) = Σ_{v∈C} len(v) + (|C| − 1), and ℓ(∅) = 0. The
// budget b is in the same unit. Adding v to C therefore costs len(v) + 1, or len(v) when C is empty.
//
// # Algorithm
//
// C starts as Q, and the priority queue P as all other vertices. While P is not empty and
// ℓ(C) < b, the engine pops the candidate v of highest priority: the vertices of P adjacent
// to C in the tree (as head or child; the root 0 is not a vertex, so two dependents of the
// root are not adjacent) come first, and otherwise any vertex of P; ties go to the
// leftmost (smallest index). A candidate that does not fit, ℓ(C ∪ {v}) > b, is skipped
// without asking the model. Otherwise the Decider decides, and v joins C if accepted.
// Either way v leaves P for good. The result is C in sentence order. This is the
// procedure of the authors' code (pick_l2r_connected and runtime_path).
//
// # Linear time
//
// Nothing is rescanned. The frontier, the vertices of P adjacent to C, is a 64-ary
// hierarchical bitset with insert, delete and find-min in O(log₆₄ n) word operations (one
// level up to 64 tokens, two up to 4096); each vertex that enters C inserts its neighbours
// once, so the frontier sees O(n) operations per sentence. The leftmost vertex of P is
// found by a cursor that only moves right, since P only shrinks. ℓ(C), |C|, min C and
// max C are updated on each addition; initialisation and output are single passes. A run
// costs O(n) plus the Decider's work and, once the Compressor's buffers have grown to the
// sentence length, allocates nothing.
//
// # Models
//
// A model implements Decider. It sees the whole State through O(1) accessors. Models are
// shared by goroutines, so a model must not keep per-run data itself: it may implement
// Tracker, whose Start is called once C = Q and whose Added is called after every
// acceptance, and keep incremental data (such as the history features of C) in
// State.Scratch. Scratch stays with the Compressor from run to run, so a model reuses
// it instead of allocating; it checks the type, since a Compressor used with several
// models holds whichever Scratch was set last:
//
//	func (m *LR) Start(s *va.State) {
//		h, ok := s.Scratch.(*history)
//		if !ok {
//			h = new(history)
//			s.Scratch = h
//		}
//		h.reset()
//		for _, u := range s.Query() {
//			h.add(m, s, u)
//		}
//	}
//
//	func (m *LR) Added(s *va.State, v int) { s.Scratch.(*history).add(m, s, v) }
//
// # Training
//
// Compressor.Oracle follows the static oracle of the authors' oracle_path: the same
// engine with a Decider that accepts exactly the gold vertices (Gold). It reports every
// candidate, with its label and the runtime State, to a callback, where a feature
// extractor reads the exact state a model sees at run time. Oracle also drives the
// model's Tracker, so the features can use the same Scratch:
//
//	c.Oracle(p, gold, model, func(s *va.State, v int, y, skipped bool) {
//		examples = append(examples, Example{X: model.Features(s, v), Y: y, Skipped: skipped})
//	})
package va

import (
	"errors"
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// Errors. A Problem that cannot be solved without violating a constraint returns an error
// that wraps one of them: a *VertexError for a bad query or gold vertex, a *BudgetError
// for a bad budget, and an error wrapping ErrInvalidInput for a malformed Problem.
var (
	ErrInvalidInput   = errors.New("va: invalid input")                // no tree, lengths missing or wrong, nil Decider
	ErrNotInSentence  = errors.New("vertex not in sentence")           // a query or gold vertex outside 1..n
	ErrDuplicate      = errors.New("vertex listed twice")              // a query or gold vertex given twice
	ErrNotInGold      = errors.New("query vertex not in the gold set") // Oracle: Q ⊄ C_g
	ErrBadBudget      = errors.New("budget must be positive")          // b ≤ 0
	ErrBudgetTooSmall = errors.New("query is longer than the budget")  // ℓ(Q) > b
)

// VertexError reports a bad vertex in a query or gold set.
type VertexError struct {
	Set    string // "query" or "gold"
	Vertex int    // the vertex as given
	N      int    // number of tokens in the sentence
	Err    error  // ErrNotInSentence, ErrDuplicate or ErrNotInGold
}

// Error describes the bad vertex.
func (e *VertexError) Error() string {
	return fmt.Sprintf("va: %s vertex %d: %v (sentence of %d tokens)", e.Set, e.Vertex, e.Err, e.N)
}

// Unwrap returns e.Err.
func (e *VertexError) Unwrap() error { return e.Err }

// BudgetError reports a budget that is not positive or is smaller than the query.
type BudgetError struct {
	Budget   int   // b
	QueryLen int   // ℓ(Q)
	Err      error // ErrBadBudget or ErrBudgetTooSmall
}

// Error describes the budget and the query length.
func (e *BudgetError) Error() string {
	return fmt.Sprintf("va: %v (budget %d, query length %d)", e.Err, e.Budget, e.QueryLen)
}

// Unwrap returns e.Err.
func (e *BudgetError) Unwrap() error { return e.Err }

// Problem is one compression instance.
type Problem struct {
	// Sentence is the sentence, for models that read its tokens. It may be nil when Lens
	// is set; otherwise it must have Tree.N() tokens.
	Sentence *syntax.Sentence
	// Tree is the dependency tree of the sentence. It is required.
	Tree *syntax.Tree
	// Lens[i] is the length of token i+1 (≥ 0). When nil, the lengths are the rune counts
	// of the Sentence forms.
	Lens []int
	// Query is Q: distinct vertices in 1..n, in any order. It may be empty, as for a
	// compression under a length constraint only (the ILP baseline's "Q = ∅, b = ℓ(gold)").
	Query []int
	// Budget is b > 0, in the unit of the lengths.
	Budget int
}

// Decision is a model's verdict on a candidate.
type Decision struct {
	Accept bool    // add the candidate to C
	P      float64 // the model's probability of accepting, for explanations
}

// Decider is the model that accepts or rejects candidates. It must be safe for concurrent
// use by several Compressors; see Tracker for per-run data.
type Decider interface {
	// Decide says whether to add candidate v to C. s is the state before the decision; v
	// has already left P. Decide may change s.Scratch and nothing else.
	Decide(s *State, v int) Decision
}

// Tracker is implemented by Deciders that maintain per-run data in State.Scratch. Start
// is called once after initialisation (C = Q), before the first candidate; Added is called
// after each acceptance, when v is in C.
type Tracker interface {
	Start(s *State)
	Added(s *State, v int)
}

// Outcome is what happened to a candidate.
type Outcome uint8

// Outcomes.
const (
	Accepted Outcome = iota + 1 // the Decider accepted it; it joined C
	Rejected                    // the Decider rejected it
	Skipped                     // it did not fit the budget; the Decider was not asked
)

// String returns "accept", "reject", "skip", "fill", "trim" or "cut".
func (o Outcome) String() string {
	switch o {
	case Accepted:
		return "accept"
	case Rejected:
		return "reject"
	case Skipped:
		return "skip"
	case Filled:
		return "fill"
	case Trimmed:
		return "trim"
	case Cut:
		return "cut"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Step records one candidate, in the order the candidates were popped.
type Step struct {
	V       int     // the candidate vertex
	P       float64 // Decision.P; 0 when skipped
	Outcome Outcome // what happened to V
	Len     int     // ℓ(C) after the step
}

// status is the place of a vertex in the state.
type status uint8

const (
	stNone     status = iota // the root, or the candidate being decided
	stP                      // in P
	stC                      // in C
	stRejected               // rejected by the Decider
	stSkipped                // skipped by the budget check
)

// State is the state of a run, as a Decider sees it. All accessors are O(1). Vertices are
// 1..N(); the accessors taking a vertex return false or 0 for any other int. A *State
// passed to a Decider, Tracker or OracleFunc must not be kept after the call.
type State struct {
	// Scratch is the model's per-run data (see Tracker). The engine never touches it, so
	// it survives from run to run of the same Compressor.
	Scratch any

	sent     *syntax.Sentence
	tree     *syntax.Tree
	lens     []int    // lens[v]; lens[0] = 0
	status   []status // status[v]
	order    []int    // Q as given, then the accepted vertices in order of addition
	nq       int      // |Q|
	budget   int
	length   int // ℓ(C)
	minC     int
	maxC     int
	np       int    // |P|
	next     int    // no vertex of P lies left of next
	frontier minSet // vertices of P adjacent to C
}

// N returns the number of tokens.
func (s *State) N() int { return len(s.status) - 1 }

// Tree returns the dependency tree.
func (s *State) Tree() *syntax.Tree { return s.tree }

// Sentence returns the sentence, or nil when the Problem had none.
func (s *State) Sentence() *syntax.Sentence { return s.sent }

// TokenLen returns the length of vertex v.
func (s *State) TokenLen(v int) int {
	if uint(v) >= uint(len(s.lens)) {
		return 0
	}
	return s.lens[v]
}

// Budget returns b.
func (s *State) Budget() int { return s.budget }

// Len returns ℓ(C).
func (s *State) Len() int { return s.length }

// Size returns |C|.
func (s *State) Size() int { return len(s.order) }

// MinC returns the leftmost vertex of C, or 0 when C is empty.
func (s *State) MinC() int { return s.minC }

// MaxC returns the rightmost vertex of C, or 0 when C is empty.
func (s *State) MaxC() int { return s.maxC }

// Query returns Q in the order given. The slice must not be modified.
func (s *State) Query() []int { return s.order[:s.nq] }

// Accepted returns the vertices the Decider accepted, in order of addition; C is Query()
// plus Accepted(). The slice must not be modified and is valid until the next step.
func (s *State) Accepted() []int { return s.order[s.nq:] }

// InC reports whether v is in C.
func (s *State) InC(v int) bool { return s.is(v, stC) }

// Remaining reports whether v is in P. The candidate being decided is not.
func (s *State) Remaining(v int) bool { return s.is(v, stP) }

// Rejected reports whether the Decider rejected v.
func (s *State) Rejected(v int) bool { return s.is(v, stRejected) }

// Skipped reports whether v was skipped because it did not fit the budget.
func (s *State) Skipped(v int) bool { return s.is(v, stSkipped) }

func (s *State) is(v int, st status) bool {
	return uint(v) < uint(len(s.status)) && s.status[v] == st
}

// maxTotal bounds the sum of the token lengths, so that no length sum overflows.
const maxTotal = math.MaxInt / 4

// reset initialises s for p: C = Q, P = the other vertices.
func (s *State) reset(p *Problem) error {
	if p.Tree == nil || p.Tree.N() < 0 {
		return fmt.Errorf("%w: no tree", ErrInvalidInput)
	}
	n := p.Tree.N()
	if p.Sentence != nil && p.Sentence.Len() != n {
		return fmt.Errorf("%w: sentence has %d tokens but tree has %d", ErrInvalidInput, p.Sentence.Len(), n)
	}
	s.sent, s.tree = p.Sentence, p.Tree
	s.lens = reuse.Resize(s.lens, n+1)
	s.lens[0] = 0
	total := 0
	switch {
	case p.Lens != nil:
		if len(p.Lens) != n {
			return fmt.Errorf("%w: %d token lengths for %d tokens", ErrInvalidInput, len(p.Lens), n)
		}
		for i, l := range p.Lens {
			if l < 0 || l > maxTotal-total {
				return fmt.Errorf("%w: token %d has length %d", ErrInvalidInput, i+1, l)
			}
			s.lens[i+1] = l
			total += l
		}
	case p.Sentence != nil:
		for i := range p.Sentence.Tokens {
			l := syntax.TokenLen(p.Sentence.Tokens[i].Form)
			if l > maxTotal-total {
				return fmt.Errorf("%w: sentence too long", ErrInvalidInput)
			}
			s.lens[i+1] = l
			total += l
		}
	default:
		return fmt.Errorf("%w: neither token lengths nor a sentence", ErrInvalidInput)
	}

	s.status = reuse.Resize(s.status, n+1)
	s.status[0] = stNone
	for v := 1; v <= n; v++ {
		s.status[v] = stP
	}
	s.np, s.next = n, 1
	s.order = s.order[:0]
	s.length, s.minC, s.maxC = 0, 0, 0
	for _, q := range p.Query {
		if q < 1 || q > n {
			return &VertexError{Set: "query", Vertex: q, N: n, Err: ErrNotInSentence}
		}
		if s.status[q] == stC {
			return &VertexError{Set: "query", Vertex: q, N: n, Err: ErrDuplicate}
		}
		s.status[q] = stC
		s.np--
		s.enter(q)
	}
	s.nq = len(s.order)
	if p.Budget <= 0 {
		return &BudgetError{Budget: p.Budget, QueryLen: s.length, Err: ErrBadBudget}
	}
	if s.length > p.Budget {
		return &BudgetError{Budget: p.Budget, QueryLen: s.length, Err: ErrBudgetTooSmall}
	}
	s.budget = p.Budget
	s.frontier.reset(n + 1)
	for _, q := range s.order {
		s.push(q)
	}
	return nil
}

// cost returns ℓ(C ∪ {v}) − ℓ(C) for v not in C.
func (s *State) cost(v int) int {
	if len(s.order) == 0 {
		return s.lens[v]
	}
	return s.lens[v] + 1
}

// enter records v, already marked stC, in ℓ(C), the order and the extremes of C.
func (s *State) enter(v int) {
	s.length += s.cost(v)
	if len(s.order) == 0 || v < s.minC {
		s.minC = v
	}
	if v > s.maxC {
		s.maxC = v
	}
	s.order = append(s.order, v)
}

// push adds the neighbours of v (a vertex of C) that are in P to the frontier.
func (s *State) push(v int) {
	if h := s.tree.Head(v); h > 0 && s.status[h] == stP {
		s.frontier.add(h)
	}
	for _, c := range s.tree.Children(v) {
		if s.status[c] == stP {
			s.frontier.add(int(c))
		}
	}
}

// more reports whether the loop goes on: P is not empty and ℓ(C) < b.
func (s *State) more() bool { return s.np > 0 && s.length < s.budget }

// pop removes the next candidate from P and reports whether it fits the budget.
func (s *State) pop() (v int, fits bool) {
	if v = s.frontier.min(); v > 0 {
		s.frontier.remove(v)
	} else {
		for s.status[s.next] != stP {
			s.next++
		}
		v = s.next
	}
	s.status[v] = stNone
	s.np--
	return v, s.length+s.cost(v) <= s.budget
}

// Compressor runs VERTEX ADDITION. It holds buffers that grow to the longest sentence
// seen and are reused, so that runs allocate nothing. A Compressor is not safe for
// concurrent use: use one per goroutine (Deciders can be shared). The zero value is ready
// to use. It keeps a reference to the last Decider it ran and whether that is a Tracker,
// so that running a Decider of a pointer type or of size zero again asserts no type.
type Compressor struct {
	// Trace makes Run and Oracle record every candidate; see Steps.
	Trace bool

	s     State
	gold  Gold
	steps []Step
	out   []int
	snip  snippetState
	dec   Decider // the Decider of the last run
	tr    Tracker // dec as a Tracker, or nil
}

// Run compresses p with the Decider d and returns C in sentence order (ascending). The
// returned slice is valid until the next call on c. If d is a Tracker, its Start and Added
// are called. Q ⊆ C and ℓ(C) ≤ b always hold; a Problem for which they cannot hold
// returns an error (see the Err variables).
func (c *Compressor) Run(p Problem, d Decider) ([]int, error) {
	if d == nil {
		return nil, fmt.Errorf("%w: nil Decider", ErrInvalidInput)
	}
	if err := c.start(&p); err != nil {
		return nil, err
	}
	tr := c.tracker(d)
	if tr != nil {
		tr.Start(&c.s)
	}
	for c.s.more() {
		v, fits := c.s.pop()
		c.decide(v, fits, d, tr)
	}
	return c.result(), nil
}

// tracker returns d as a Tracker, or nil when it is not one. It asks d only when d is not
// the Decider of the last run (reuse.Same), so that running one Decider again asserts no
// type: the runtime allocates, now and then, while it fills a type assertion's cache.
func (c *Compressor) tracker(d Decider) Tracker {
	if !reuse.Same(d, c.dec) {
		c.dec = d
		c.tr, _ = d.(Tracker)
	}
	return c.tr
}

// Steps returns the candidates of the last Run or Oracle when Trace is set. The slice is
// valid until the next call on c.
func (c *Compressor) Steps() []Step { return c.steps }

// start clears the trace and initialises the state for p.
func (c *Compressor) start(p *Problem) error {
	c.steps = c.steps[:0]
	return c.s.reset(p)
}

// decide settles the popped candidate v: skip it if it does not fit, else ask d.
func (c *Compressor) decide(v int, fits bool, d Decider, tr Tracker) {
	var dec Decision
	out := Skipped
	if fits {
		dec = d.Decide(&c.s, v)
		out = Rejected
		if dec.Accept {
			out = Accepted
		}
	}
	switch out {
	case Skipped:
		c.s.status[v] = stSkipped
	case Rejected:
		c.s.status[v] = stRejected
	case Accepted:
		c.s.status[v] = stC
		c.s.enter(v)
		c.s.push(v)
		if tr != nil {
			tr.Added(&c.s, v)
		}
	}
	if c.Trace {
		c.steps = append(c.steps, Step{V: v, P: dec.P, Outcome: out, Len: c.s.length})
	}
}

// result returns C in sentence order.
func (c *Compressor) result() []int {
	c.out = c.out[:0]
	for v, st := range c.s.status {
		if st == stC {
			c.out = append(c.out, v)
		}
	}
	return c.out
}
