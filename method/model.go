package method

import (
	"errors"
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
	"github.com/qsc-nlp/qsc/wellformed"
)

// Names of the VERTEX ADDITION methods of package method/lr, which reads both from one
// file format (the baselines' names are in method/baseline).
const (
	NameLR      = "lr"
	NameAblated = "ablated"
)

// Errors.
var (
	ErrUnknownMethod = errors.New("unknown method")
	ErrNoGold        = errors.New("method: the oracle needs the gold compression")
	ErrNoSentence    = errors.New("method: input has no sentence or no tree")
)

// Method is a compression method. It is either a va.Decider, which VERTEX ADDITION asks
// about one candidate at a time (lr, ablated, random, and the LSTM), or a Solver, which
// chooses the whole compression at once (the ILP baseline). Methods are safe for
// concurrent use.
type Method interface {
	// Name returns the method's name, such as NameLR.
	Name() string
}

// GoldMethod is a Method that keeps the gold compression of its Input, such as the static
// oracle of method/baseline: a Compressor runs VERTEX ADDITION with va.Gold over in.Gold
// under every decoding, and fails with ErrNoGold without it.
type GoldMethod interface {
	Method
	// KeepsGold marks the method; it is never called.
	KeepsGold()
}

// Solver is a Method that compresses a whole Input at once, such as an ILP. It computes
// a compression and nothing more: under the Snippet and Nested decodings, the Compressor
// shows the compression of a Solver that honours the rules (a RuleSolver) with the
// display step of every method, and a Solver that does not is its own result.
type Solver interface {
	Method
	// Solve returns the kept token ids of in, ascending, with Q ⊆ C and ℓ(C) ≤ b: with
	// in.Rules set, for a RuleSolver that honours them, its compression under the rules,
	// which is C* under Snippet and, under Nested, the result when the display rules
	// yield. scratch is memory owned by the calling Compressor, which the solver may keep
	// reusable state in; the returned slice may alias it and is valid until the next call
	// with scratch. An Input with an empty Query is allowed (the unconstrained task).
	Solve(in Input, scratch *any) ([]int, error)
}

// Input is one compression problem (S, Q, b) with, optionally, its gold compression.
type Input struct {
	// Sentence is S, parsed: every token has Head and Rel. XPOS is used by the features.
	Sentence *syntax.Sentence
	// Tree is the dependency tree of Sentence (see TreeOf).
	Tree *syntax.Tree
	// Query is Q: 1-based token ids.
	Query []int
	// Budget is b, in characters (runes) of the tokens joined by single spaces.
	Budget int
	// Gold is the gold compression C_g (1-based ids). The oracle and training need it.
	Gold []int
	// Rules are the well-formedness rules of the input under the Snippet and Nested
	// decodings, set by the Compressor (nil under the Paper decoding). A Solver that
	// honours them (RuleSolver) returns a compression closed under them; a baseline may
	// ignore them. The display step (DisplayStep) reads them and records their yield.
	Rules *wellformed.Rules
	// Nested asks a Solver for its compression under the Nested decoding (set by the
	// Compressor with Rules).
	Nested bool
	// Fits, when not nil, is a further constraint on the whole output that only the output
	// can be checked against, such as the displayed length of a snippet (package qsc sets
	// it under the Snippet and Nested decodings). A Solver that can return other
	// near-optimal solutions (the ILP's dynamic program) returns the best one that fits;
	// under Nested, the Compressor shows a RuleSolver's order as the last display of its
	// sequence that fits. VERTEX ADDITION does not call it, and the caller checks the
	// output itself. Under the Snippet and Nested decodings, its being set means that
	// the budget counts the display: the display step (DisplayStep) then counts the
	// spaces as shown and the width of each "…", for every method.
	Fits func(kept []int) bool
}

// Problem returns the VERTEX ADDITION problem of in: S, its tree, Q and b.
func (in *Input) Problem() va.Problem {
	return va.Problem{Sentence: in.Sentence, Tree: in.Tree, Query: in.Query, Budget: in.Budget}
}

// Decisions runs the static oracle of c over in (va.Compressor.Oracle, with tracker tr,
// which may be nil) and calls f at every decision of its path, including the candidates
// that the runtime skips as over budget. It fails with ErrNoSentence for an input that
// is not parsed, ErrNoGold for one without a gold compression, or the oracle's error.
// The trainers of every VERTEX ADDITION model collect their examples with it.
func (in *Input) Decisions(c *va.Compressor, tr va.Tracker, f va.OracleFunc) error {
	switch {
	case in.Sentence == nil || in.Tree == nil:
		return ErrNoSentence
	case in.Gold == nil:
		return ErrNoGold
	}
	_, err := c.Oracle(in.Problem(), in.Gold, tr, f)
	return err
}

// TreeOf returns the dependency tree of a parsed sentence.
func TreeOf(s *syntax.Sentence) (*syntax.Tree, error) {
	if s == nil {
		return nil, ErrNoSentence
	}
	return syntax.NewTree(s.Heads())
}

// Decoding selects how a Compressor turns a method's decisions into a compression.
type Decoding uint8

// Decodings.
const (
	// Paper is the decoder of Handler & O'Connor (2019), which reproduces their Table 2:
	// VERTEX ADDITION accepts a candidate iff the model's p > 0.5 and stops when nothing
	// fits; the ILP maximises its arc scores under the budget.
	Paper Decoding = iota
	// Snippet is budget-true, well-formed decoding for a snippet box: when the sentence
	// fits, it is the compression; otherwise every method computes a compression C*
	// closed under the rules of package wellformed (no function word without its head,
	// whole names, numbers with their symbols, negations and hedges with their heads,
	// balanced quotes and brackets), and the Compressor shows it with one display step
	// for every method (DisplayStep): the best display of C* under the display rules of
	// wellformed.Runs and the weights of runs.Default, in runs without a gap inside a
	// phrase or a name and without one-word islands (package method/runs), its width
	// counted as displayed when Input.Fits is set. C* is a RuleSolver's compression under
	// the rules (the ILP's exact optimum, method/ilp), or VERTEX ADDITION's compression,
	// which fills the budget left with the rejected candidates, best first
	// (va.Compressor.Snippet). When the display rules and the budget leave no display,
	// they yield to the query and C* is the result (Compressor.Yielded). The oracle and
	// the window baseline ignore it.
	Snippet
	// Nested is the Snippet decoding under one more promise: for one sentence and
	// query, a larger budget keeps everything a smaller one kept, C(b) ⊆ C(b′) for
	// b < b′ (as long as the rules do not yield to the query at one budget and not at
	// the other, and both show a display of the sequence below), so a snippet that
	// grows never drops a word. Every method orders the tokens once, whatever the
	// budget: the ILP by the price of a character at which each token enters the
	// optimum of its relaxation (the entry prices of ilp.TreeDP.NestedOptimize),
	// VERTEX ADDITION by the order in which it would add the tokens with a budget of a
	// fraction of the sentence (va.Compressor.Nested). The
	// Compressor's display step then grows one sequence of displays from that order
	// (RuleSolver.NestedOrder, va.Compressor.NestedOrder), each obeying the display
	// rules of wellformed.Runs, and shows the last one that fits (DisplayStep.Nested):
	// its values are the objective of the Snippet decoding with the order in place of
	// C*. When none fits but another display does, it shows the Snippet decoding's best
	// display under those values, which a larger budget need not keep. When the display
	// rules and the budget leave no display, they yield to the query and the result is
	// the method's compression under the rules, the longest prefix of the order that
	// fits (Compressor.Yielded). It gives up budget use, and the
	// exact optimum at one budget, for that promise (docs/snippets.md, "Nested
	// display"). The oracle and the window baseline ignore it (the window is nested
	// already).
	Nested
)

// decodingNames are the names of the decodings, by value.
var decodingNames = [...]string{Paper: "paper", Snippet: "snippet", Nested: "nested"}

// String returns "paper", "snippet" or "nested".
func (d Decoding) String() string {
	if int(d) < len(decodingNames) {
		return decodingNames[d]
	}
	return fmt.Sprintf("Decoding(%d)", uint8(d))
}

// ParseDecoding returns the decoding called name ("paper", "snippet" or "nested").
func ParseDecoding(name string) (Decoding, error) {
	for d, n := range decodingNames {
		if n == name {
			return Decoding(d), nil
		}
	}
	return 0, fmt.Errorf("method: unknown decoding %q (want paper, snippet or nested)", name)
}

// Budgeted reports whether d is one of the budget-true, well-formed decodings, Snippet
// or Nested.
func (d Decoding) Budgeted() bool { return d == Snippet || d == Nested }

// Compressor compresses Inputs with a Method. Under the Snippet and Nested decodings it
// is the one place that turns a method's compression (C*, or the nested order) into what
// the decoding shows, for a va.Decider as for a RuleSolver (DisplayStep), and that
// records whether the rules yielded (Yielded). It reuses its buffers, so that
// compressing allocates nothing once they have grown, and it learns what a method is (a
// Solver, a RuleSolver, a va.Decider, a GoldMethod) once, when it meets the method, so
// that compressing with the method again asserts no type (for a method of a pointer type
// or of size zero, as every method of this module is; one of another type is asked on
// every call); it keeps a reference to the last method. It is not safe for concurrent
// use (use one per goroutine); one Compressor may compress with any number of methods, in
// any order. The zero value is ready to use and decodes as the paper does.
type Compressor struct {
	// VA is the underlying engine; set VA.Trace to record the steps (Steps).
	VA va.Compressor
	// Decoding selects the decoder; the zero value is Paper.
	Decoding Decoding
	// RulesOff switches well-formedness rules off under the Snippet decoding
	// (wellformed.Rules.Off), for ablations.
	RulesOff uint16

	gold    va.Gold
	scratch any // a Solver's reusable memory
	rules   wellformed.Rules
	lens    []int
	all     []int
	yielded bool
	disp    DisplayStep // the display step of every method under Snippet and Nested
	shown   Input       // the Input of the last best display (show under Snippet), for Measure
	kind    kind        // what the method of the last Compress is
}

// kind is what a Method is, as the Compressor calls it: resolved once for every method the
// Compressor meets (Compressor.kindOf), so that compressing asserts no type. At most one
// of solver and decider is set, and rules only with solver.
type kind struct {
	m       Method     // the method resolved; nil before the first
	gold    bool       // a GoldMethod
	solver  Solver     // m as a Solver, or nil
	rules   RuleSolver // m as a RuleSolver that honours the rules, or nil
	decider va.Decider // m as a va.Decider when it is not a Solver, or nil
}

// kindOf returns what m is. It asks m only when m is not the method of the last call
// (reuse.Same), so that compressing with one method again asserts no type: the runtime
// allocates, now and then, while it fills the cache of a type assertion's call site. A
// RuleSolver's HonoursRules is constant, so it is asked then too.
func (c *Compressor) kindOf(m Method) *kind {
	if reuse.Same(m, c.kind.m) {
		return &c.kind
	}
	k := kind{m: m}
	_, k.gold = m.(GoldMethod)
	switch m := m.(type) {
	case RuleSolver:
		k.solver = m
		if m.HonoursRules() {
			k.rules = m
		}
	case Solver:
		k.solver = m
	case va.Decider:
		k.decider = m
	}
	c.kind = k
	return &c.kind
}

// errUnknown is the error of compressing with m, which is neither a va.Decider nor a
// Solver, or nil.
func errUnknown(m Method) error {
	if m == nil {
		return fmt.Errorf("%w: nil method", ErrUnknownMethod)
	}
	return fmt.Errorf("%w: %s (%T) is neither a va.Decider nor a Solver", ErrUnknownMethod, m.Name(), m)
}

// Yielded reports whether the last Snippet compression could not keep the closure of its
// query under the rules within the budget, so that the rules yielded for the query tokens
// (wellformed.Rules.Yielded).
func (c *Compressor) Yielded() bool { return c.yielded }

// Steps returns, after a Compress that returned no error, the candidates of its VERTEX
// ADDITION when VA.Trace is set (va.Compressor.Steps), or nil when its method is a Solver,
// which has no steps. The slice is valid until the next call on c.
func (c *Compressor) Steps() []va.Step {
	if c.kind.decider == nil && !c.kind.gold {
		return nil
	}
	return c.VA.Steps()
}

// Rules returns the rules of the last Snippet compression that computed them (valid
// until the next call): every one but a Solver's of a sentence that fits whole.
func (c *Compressor) Rules() *wellformed.Rules { return &c.rules }

// Compress compresses in with m and returns the kept token ids in sentence order. The
// slice is valid until the next call on c. Errors wrap ErrNoSentence, ErrNoGold,
// ErrUnknownMethod or one of the va errors (bad query, budget, tree). A Solver's steps are
// not traced.
func (c *Compressor) Compress(m Method, in Input) ([]int, error) {
	if in.Sentence == nil || in.Tree == nil {
		return nil, ErrNoSentence
	}
	p := in.Problem()
	c.yielded, c.shown = false, Input{}
	k := c.kindOf(m)
	switch {
	case !k.gold && c.Decoding.Budgeted():
		return c.snippet(k, in)
	case k.gold:
		if in.Gold == nil {
			return nil, ErrNoGold
		}
		if err := c.gold.Reset(in.Tree.N(), in.Gold); err != nil {
			return nil, err
		}
		return c.VA.Run(p, &c.gold)
	case k.solver != nil:
		return k.solver.Solve(in, &c.scratch)
	case k.decider != nil:
		return c.VA.Run(p, k.decider)
	}
	return nil, errUnknown(m)
}

// Measure returns the terms of the snippet decoding's objective (runs.Terms, under
// runs.Default's width model and the rules of the compression) for the tokens kept of the
// sentence of the last Compress under the Snippet decoding that showed a best display, with
// that compression's C*: so a display that the decoding did not choose can be weighed
// against the one it chose. It reports false when the last Compress showed none (the
// sentence fit whole, the method does not honour the rules, or the decoding was not
// Snippet). It costs O(n) and allocates nothing once c has grown.
func (c *Compressor) Measure(kept []int) (runs.Terms, bool) {
	if c.shown.Sentence == nil {
		return runs.Terms{}, false
	}
	return c.disp.MeasureShown(&c.shown, c.lens, runs.Default(), kept), true
}

// snippet compresses in with the method k under the Snippet or the Nested decoding: the
// method's compression under the rules (C*, or the nested order), then the display step
// (c.show) for every method that honours the rules.
func (c *Compressor) snippet(k *kind, in Input) ([]int, error) {
	n := in.Tree.N()
	if in.Sentence.Len() != n {
		return nil, fmt.Errorf("%w: sentence has %d tokens but tree has %d", va.ErrInvalidInput, in.Sentence.Len(), n)
	}
	c.lens = in.Sentence.AppendLens(c.lens[:0])
	if k.solver != nil && n > 0 && len(in.Query) > 0 {
		if all, ok := va.Whole(c.all[:0], c.lens, in.Budget); ok {
			// The whole sentence fits: a solver's answer, without its rules, which
			// never yield then (the closure of the query is part of the sentence).
			c.all, c.yielded = all, false
			return all, nil
		}
	}
	c.rules.Off = c.RulesOff
	if err := c.rules.Reset(in.Sentence, in.Tree, c.lens, in.Query, in.Budget); err != nil {
		return nil, fmt.Errorf("%w: %v", va.ErrInvalidInput, err)
	}
	c.yielded = c.rules.Yielded()
	in.Rules, in.Nested = &c.rules, c.Decoding == Nested
	var (
		kept   []int
		order  []int32
		wanted int
		err    error
	)
	rs := k.rules // nil for VERTEX ADDITION
	switch {
	case rs != nil && in.Nested:
		order, wanted, err = rs.NestedOrder(in, &c.scratch)
	case rs != nil:
		kept, err = rs.Solve(in, &c.scratch) // C*
	case k.solver != nil:
		return c.solvedAlone(k.solver, in)
	case k.decider != nil:
		if in.Nested {
			kept, err = c.VA.Nested(in.Problem(), &c.rules, k.decider)
			order, wanted = c.VA.NestedOrder()
		} else {
			kept, err = c.VA.Snippet(in.Problem(), &c.rules, k.decider)
		}
		if err == nil && len(kept) == n {
			return kept, nil // the whole sentence fits: it is its own snippet
		}
	default:
		return nil, errUnknown(k.m)
	}
	if err != nil {
		return nil, err
	}
	return c.show(in, rs, kept, order, wanted)
}

// solvedAlone returns the compression of a solver that does not honour the rules (the
// window baseline, the ILP's evaluation variants): the rules are not its own, and its
// compression is the result.
func (c *Compressor) solvedAlone(m Solver, in Input) ([]int, error) {
	kept, err := m.Solve(in, &c.scratch)
	c.yielded = c.rules.Yielded()
	return kept, err
}

// show is the display step of the Snippet and Nested decodings for every method that
// honours the rules (c.disp, runs.Default's weights): under Snippet, the best display of
// C* (kept); under Nested, the nested display of order, checked against in.Fits for a
// solver (Input.Fits), and, when the display rules yield to the query, the method's
// compression under the rules alone: kept for VERTEX ADDITION, Solve's for the solver rs
// (nil for VERTEX ADDITION). It notes whether the rules yielded (Yielded) and tells the
// trace of VERTEX ADDITION what was shown (va.Compressor.Shown). c.lens and c.rules must
// be in's. The slice is c's memory or kept.
func (c *Compressor) show(in Input, rs RuleSolver, kept []int, order []int32, wanted int) ([]int, error) {
	pr := runs.Default()
	if !in.Nested {
		c.shown = in
		kept = c.disp.Show(&in, c.lens, pr, kept)
	} else {
		var fits func([]int) bool
		if rs != nil {
			fits = in.Fits
		}
		shown, ok := c.disp.Nested(&in, c.lens, pr, order, wanted, fits)
		switch {
		case ok:
			kept = shown
		case rs != nil:
			var err error
			if kept, err = rs.Solve(in, &c.scratch); err != nil {
				c.yielded = c.rules.Yielded()
				return nil, err
			}
		}
	}
	c.yielded = c.rules.Yielded()
	if rs == nil {
		c.VA.Shown(kept)
	}
	return kept, nil
}
