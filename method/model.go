package method

import (
	"errors"
	"fmt"

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

// Solver is a Method that compresses a whole Input at once, such as an ILP.
type Solver interface {
	Method
	// Solve returns the kept token ids of in, ascending, with Q ⊆ C and ℓ(C) ≤ b. scratch
	// is memory owned by the calling Compressor, which the solver may keep reusable state
	// in; the returned slice may alias it and is valid until the next call with scratch.
	// An Input with an empty Query is allowed (the unconstrained task).
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
	// decodings, set by the Compressor for a Solver (nil under the Paper decoding). A
	// Solver that honours them returns a compression closed under them; a baseline may
	// ignore them.
	Rules *wellformed.Rules
	// Nested asks a Solver for the Nested decoding (set by the Compressor with Rules).
	Nested bool
	// Fits, when not nil, is a further constraint on the whole output that only the output
	// can be checked against, such as the displayed length of a snippet (package qsc sets
	// it under the Snippet and Nested decodings). A Solver that can return other
	// near-optimal solutions (the ILP's dynamic program) returns the best one that fits,
	// and under Nested the last display of its sequence that fits; every other method
	// does not call it, and the caller checks the output itself. Under the Snippet
	// decoding, its being set means that the budget counts the display: the display step
	// (package method/runs) then counts the spaces as shown and the width of each "…",
	// for every method.
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
	// balanced quotes and brackets), and one display step shared by every method shows
	// it: the best display of C* under the display rules of wellformed.Runs and the
	// weights of runs.Default, in runs without a gap inside a phrase or a name and
	// without one-word islands (package method/runs), its width counted as displayed
	// when Input.Fits is set. C* is the ILP's exact optimum (method/ilp), or VERTEX
	// ADDITION's compression, which fills the budget left with the rejected candidates,
	// best first (va.Compressor.Snippet). When the display rules and the budget leave no
	// display, they yield to the query and C* is the result (Compressor.Yielded). The
	// oracle and the window baseline ignore it.
	Snippet
	// Nested is the Snippet decoding under one more promise: for one sentence and
	// query, a larger budget keeps everything a smaller one kept, C(b) ⊆ C(b′) for
	// b < b′ (as long as the rules do not yield to the query at one budget and not at
	// the other), so a snippet that grows never drops a word. Every method orders the
	// tokens once, whatever the budget: the ILP by the price of a character at which
	// each token enters the optimum of its relaxation (the entry prices of
	// ilp.TreeDP.NestedOptimize), VERTEX ADDITION by the order in which it would add the
	// tokens with a budget of a fraction of the sentence (va.Compressor.Nested). The
	// display step then grows one sequence of displays from that order, each obeying the
	// display rules of wellformed.Runs, and shows the last one that fits
	// (runs.Program.Nested): its values are the objective of the Snippet decoding with
	// the order in place of C*. When the display rules and the budget leave no display,
	// they yield to the query and the result is the longest prefix of the order that
	// fits (Compressor.Yielded). It gives up budget use, and the exact optimum at one
	// budget, for that promise (docs/snippets.md, "Nested display"). The oracle and the
	// window baseline ignore it (the window is nested already).
	Nested
)

// nestedDisplay returns the nested display of in (runs.Program.Nested) for the order of
// the last VA.Nested, whose compression was kept: the last state of one sequence of
// displays that fits, its width counted as displayed when in.Fits is set. When the
// display rules leave no display that holds Q within the budget, they yield to the
// query and kept is the result (then Yielded reports it). c.lens and c.rules must be
// in's. The slice is c's memory or kept.
func (c *Compressor) nestedDisplay(in Input, kept []int) []int {
	order, wanted := c.VA.NestedOrder()
	if shown, ok := c.shown.Nested(&c.view, c.look(in), order, wanted, nil); ok {
		kept = shown
	} else {
		c.rules.MarkYielded()
	}
	return c.shownAs(kept)
}

// display returns the best display of the compression kept of in (the display step of
// the Snippet decoding, package runs, as the ILP shows its optimum): the runs of the
// objective of runs.Default under the display rules, the width counted as displayed when
// in.Fits is set, and kept itself when the rules yield to the query (then Yielded
// reports it); the trace of VERTEX ADDITION says which candidates the display left out or
// added (va.Compressor.Shown). c.lens and c.rules must be in's. The slice is c's memory or kept.
func (c *Compressor) display(in Input, kept []int) []int {
	kept = c.shown.Show(&c.view, c.look(in), kept)
	return c.shownAs(kept)
}

// look sets c.view to the display step's view of in (c.lens and c.rules must be in's)
// and returns the weights of runs.Default, the width counted as displayed when in.Fits
// is set.
func (c *Compressor) look(in Input) runs.Params {
	pr := runs.Default()
	pr.Display = in.Fits != nil
	c.view = runs.Input{Sentence: in.Sentence, Tree: in.Tree, Lens: c.lens, Query: in.Query, Budget: in.Budget, Rules: &c.rules}
	return pr
}

// shownAs records that the display step showed kept: it forgets c.view, notes whether
// the rules yielded and tells the trace of VERTEX ADDITION (va.Compressor.Shown).
func (c *Compressor) shownAs(kept []int) []int {
	c.view = runs.Input{}
	c.yielded = c.rules.Yielded()
	c.VA.Shown(kept)
	return kept
}

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

// Compressor compresses Inputs with a Method. It reuses its buffers, so that compressing
// allocates nothing once they have grown; it is not safe for concurrent use (use one per
// goroutine). The zero value is ready to use and decodes as the paper does.
type Compressor struct {
	// VA is the underlying engine; set VA.Trace to record the steps (VA.Steps).
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
	shown   runs.Program // the display step of VERTEX ADDITION under Snippet
	view    runs.Input   // its view of the input
}

// Yielded reports whether the last Snippet compression could not keep the closure of its
// query under the rules within the budget, so that the rules yielded for the query tokens
// (wellformed.Rules.Yielded).
func (c *Compressor) Yielded() bool { return c.yielded }

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
	c.yielded = false
	_, oracle := m.(GoldMethod)
	if !oracle && c.Decoding.Budgeted() {
		return c.snippet(m, in)
	}
	if oracle {
		if in.Gold == nil {
			return nil, ErrNoGold
		}
		if err := c.gold.Reset(in.Tree.N(), in.Gold); err != nil {
			return nil, err
		}
		return c.VA.Run(p, &c.gold)
	}
	switch m := m.(type) {
	case Solver:
		return m.Solve(in, &c.scratch)
	case va.Decider:
		return c.VA.Run(p, m)
	case nil:
		return nil, fmt.Errorf("%w: nil method", ErrUnknownMethod)
	}
	return nil, fmt.Errorf("%w: %s (%T) is neither a va.Decider nor a Solver", ErrUnknownMethod, m.Name(), m)
}

// snippet compresses in with m under the Snippet or the Nested decoding.
func (c *Compressor) snippet(m Method, in Input) ([]int, error) {
	n := in.Tree.N()
	if in.Sentence.Len() != n {
		return nil, fmt.Errorf("%w: sentence has %d tokens but tree has %d", va.ErrInvalidInput, in.Sentence.Len(), n)
	}
	c.lens = in.Sentence.AppendLens(c.lens[:0])
	if _, solver := m.(Solver); solver && n > 0 && len(in.Query) > 0 {
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
	switch m := m.(type) {
	case Solver:
		in.Rules, in.Nested = &c.rules, c.Decoding == Nested
		kept, err := m.Solve(in, &c.scratch)
		c.yielded = c.rules.Yielded() // a solver may have let the rules yield (Rules.MarkYielded)
		return kept, err
	case va.Decider:
		if c.Decoding == Nested {
			kept, err := c.VA.Nested(in.Problem(), &c.rules, m)
			if err != nil || len(kept) == n {
				return kept, err
			}
			return c.nestedDisplay(in, kept), nil
		}
		kept, err := c.VA.Snippet(in.Problem(), &c.rules, m)
		if err != nil || len(kept) == n {
			return kept, err // the whole sentence fits: it is its own snippet
		}
		return c.display(in, kept), nil
	case nil:
		return nil, fmt.Errorf("%w: nil method", ErrUnknownMethod)
	}
	return nil, fmt.Errorf("%w: %s (%T) is neither a va.Decider nor a Solver", ErrUnknownMethod, m.Name(), m)
}
