package method

import "github.com/qsc-nlp/qsc/method/runs"

// RuleSolver is a Solver that can honour the well-formedness rules of the Snippet and
// Nested decodings, such as the ILP. For one that does (HonoursRules), the Compressor
// asks the solver only for its compression and shows it with the display step that it
// shares with VERTEX ADDITION (DisplayStep): under Snippet, Solve with Input.Rules set
// returns C*, closed under the rules; under Nested, NestedOrder returns the nested order,
// and Solve with Input.Nested set returns the compression under the well-formedness
// rules alone, which is the result when the display rules yield to the query. A Solver
// that does not honour the rules (the window baseline, the ILP's evaluation variants)
// answers with its compression, which is then the result.
type RuleSolver interface {
	Solver
	// HonoursRules reports whether the solver honours Input.Rules, so that the
	// Compressor shows its compression. It is constant for a solver and costs O(1).
	HonoursRules() bool
	// NestedOrder returns the nested order of in (whose Rules are set): its token ids,
	// distinct, the most wanted first, the same for every budget, and how many of the
	// first ones the solver keeps at all (runs.Program.Nested). scratch is as for Solve;
	// the slice may alias it and is valid until the next call with scratch. Errors are
	// those of Solve.
	NestedOrder(in Input, scratch *any) (order []int32, wanted int, err error)
}

// DisplayStep is the display step of the Snippet and Nested decodings with its reusable
// memory: the one code path that turns a compression under the rules (C*), or a nested
// order, into what the decoding shows (package method/runs). It builds the run program's
// view of an Input, sets its width model (the display when Input.Fits is set; the tokens
// joined by spaces otherwise, with clean cuts only, runs.Params.Clean) and records the
// yield of the rules. A Compressor holds one
// for every method that honours the rules; a trainer that learns from what the decoding
// shows (method/ilp's TrainConfig.Target) holds its own. The zero value is ready; it is
// not safe for concurrent use, and once its memory has grown to the largest problem it
// allocates nothing.
type DisplayStep struct {
	prog runs.Program
	view runs.Input // prog's view of the Input being shown, here so that it does not escape
}

// Show returns the best display of kept (C*: ascending, closed under in.Rules, which are
// required) for in under the weights of pr (runs.Program.Show): the runs of the objective
// of package runs under the display rules of wellformed.Runs within in.Budget. lens[i] is
// the length in runes of token i+1 of in.Sentence (syntax.Sentence.AppendLens). When the
// display rules and the budget leave no display, they yield to the query: the result is
// kept, and in.Rules.Yielded reports it. The slice is d's memory or kept, valid until the
// next call. It costs O(Σ_runs (b + 1)).
func (d *DisplayStep) Show(in *Input, lens []int, pr runs.Params, kept []int) []int {
	kept = d.prog.Show(d.look(in, lens, &pr), pr, kept)
	d.view = runs.Input{}
	return kept
}

// Nested returns the nested display of in (runs.Program.Nested) under the weights of pr
// for order, of which the first wanted are the tokens the method keeps at all (as
// RuleSolver.NestedOrder gives them): the last state of one budget-free sequence of
// displays that fits in.Budget and passes fits when it is not nil (in.Rules are
// required, lens as for Show), or, when no state does, the snippet decoding's best
// display under the same values, which a larger budget need not hold. When the display
// rules leave no display that holds Q within the budget, they yield to the query: Nested
// reports false, in.Rules.Yielded reports the yield, and the caller's result is its
// compression under the well-formedness rules alone. The slice is d's memory, valid
// until the next call. It costs O(n²·runs.Lookahead) closures, plus the snippet
// decoding's program when no state fits.
func (d *DisplayStep) Nested(in *Input, lens []int, pr runs.Params, order []int32, wanted int, fits func([]int) bool) ([]int, bool) {
	kept, ok := d.prog.Nested(d.look(in, lens, &pr), pr, order, wanted, fits)
	d.view = runs.Input{}
	return kept, ok
}

// MeasureShown returns the terms of the objective of package runs
// (runs.Program.MeasureShown) for the tokens kept of in, against the C* of the last Show
// of d on in, under the weights of pr and the width model of in (the display when in.Fits
// is set); lens as for Show. It costs O(n).
func (d *DisplayStep) MeasureShown(in *Input, lens []int, pr runs.Params, kept []int) runs.Terms {
	t := d.prog.MeasureShown(d.look(in, lens, &pr), pr, kept)
	d.view = runs.Input{}
	return t
}

// look sets d.view to the run program's view of in with the token lengths lens, sets the
// width model of pr (the display when in.Fits is set, else the tokens with clean cuts)
// and returns the view.
func (d *DisplayStep) look(in *Input, lens []int, pr *runs.Params) *runs.Input {
	pr.Display = in.Fits != nil
	pr.Clean = !pr.Display
	d.view = runs.Input{Sentence: in.Sentence, Tree: in.Tree, Lens: lens, Query: in.Query, Budget: in.Budget, Rules: in.Rules}
	return &d.view
}
