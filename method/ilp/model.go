// Package ilp is the ILP baseline of Handler & O'Connor (EMNLP 2019): the compression
// model of Filippova & Altun (2013) with the query as a constraint, as the authors'
// appendix and code (ilp2013/) describe it.
//
// The objective is edge-factored: every arc of the parse, and an added arc ROOT → n from
// the root to every token (label "ROOT"), has a score w · φ(arc), where φ are the edge
// features of Filippova & Altun as VERTEX ADDITION uses them (internal/core/features). The
// compression C is the set of tokens with a kept incoming arc, and the kept arcs
// maximise the total score subject to: at most one head per token; an arc out of a
// token only if the token is in C; Q ⊆ C; ℓ(C) ≤ b (see Problem).
//
// Two exact solvers give the same optimum: TreeDP, a dynamic program over the tree (a
// tree knapsack over characters; pure Go, the default) and MIP, the integer program
// solved by GLPK, only in builds with the tag glpk (GLPK is GPL-3). The weights are
// learned by an averaged structured perceptron (Train), and a Model compresses a
// method.Input as a method.RuleSolver: under the snippet and nested decodings it computes
// C* or its nested order, which the method.Compressor shows with the display step of
// every method. The unconstrained variant (Model.Unconstrained) drops Q, as the authors'
// "vanilla" ILP evaluation with b = ℓ(gold) does.
//
// The package embeds its model file (FileName) and registers the method "ilp", the
// library's default, and the evaluation-only variants "ilp-unconstrained" and
// "ilp-root-query" with package method. The root package qsc imports it.
package ilp

import (
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// Method names.
const (
	// Name is the query-constrained ILP: Q ⊆ C, ℓ(C) ≤ b.
	Name = "ilp"
	// NameUnconstrained is the ILP without the query (Q = ∅), under the budget only; an
	// evaluation method, as in the paper (b = ℓ(gold)).
	NameUnconstrained = "ilp-unconstrained"
	// NameRootQuery is the ILP with the authors' query constraint: every query token
	// takes its arc from the root (Problem.QueryViaRoot); an evaluation method.
	NameRootQuery = "ilp-root-query"
)

// variant is how a Model uses the query.
type variant uint8

const (
	constrained   variant = iota // Q ⊆ C
	unconstrained                // Q = ∅
	rootQuery                    // Q ⊆ C, each q by its arc from the root
)

// Model is a trained ILP: the weights of the edge features and the solver backend. It
// implements method.Solver and is safe for concurrent use.
type Model struct {
	w       []float32
	cfg     features.Config
	vocab   *features.Vocab
	variant variant
	backend string // DP or GLPK
	// Info describes the training.
	Info Info
}

// Info describes how a Model was trained; it is stored in the model file.
type Info struct {
	// Epochs is the number of perceptron epochs behind the averaged weights.
	Epochs int
	// Sentences is the number of training sentences per epoch.
	Sentences int
	// Seed drove the order of the training sentences.
	Seed uint64
	// Bits is log2 of the number of hashed feature buckets.
	Bits int
	// Numeric is the representation of the numeric edge features: "raw", "binned" or
	// "both".
	Numeric string
	// Conjoined reports the conjoined edge features (features.Config.Conjoined).
	Conjoined bool
	// Query reports the query features (features.Config.Query).
	Query bool
}

var numericNames = [...]string{features.NumRaw: "raw", features.NumBinned: "binned", features.NumBoth: "both"}

// edgeConfig returns the feature configuration of the edge features.
func edgeConfig(bits int, numeric string, conjoined, query bool) (features.Config, error) {
	cfg := features.Config{Bits: uint8(min(max(bits, 0), 255)), Conjoined: conjoined, Query: query}
	found := false
	for i, n := range numericNames {
		if n == numeric {
			cfg.Numeric, found = features.Numeric(i), true
		}
	}
	if !found {
		return cfg, fmt.Errorf("%w: numeric features %q (want raw, binned or both)", features.ErrConfig, numeric)
	}
	return cfg, cfg.Validate()
}

// Name returns Name, NameUnconstrained or NameRootQuery.
func (m *Model) Name() string {
	return [...]string{constrained: Name, unconstrained: NameUnconstrained, rootQuery: NameRootQuery}[m.variant]
}

// Backend returns the solver backend: DP or GLPK.
func (m *Model) Backend() string { return m.backend }

// Unconstrained returns the model without the query constraint: it compresses an Input
// as if its Query were empty.
func (m *Model) Unconstrained() *Model {
	c := *m
	c.variant = unconstrained
	return &c
}

// RootQuery returns the model with the authors' query constraint: each query token is
// kept by its arc from the root (see Problem.QueryViaRoot).
func (m *Model) RootQuery() *Model {
	c := *m
	c.variant = rootQuery
	return &c
}

// WithBackend returns the model solved by the named backend (see Backends).
func (m *Model) WithBackend(backend string) (*Model, error) {
	if _, ok := backends[backend]; !ok {
		return nil, fmt.Errorf("%w: %q (this build has %v)", ErrNoBackend, backend, Backends())
	}
	c := *m
	c.backend = backend
	return &c, nil
}

// scratch is a Compressor's reusable memory for Solve and NestedOrder.
type scratch struct {
	backend string
	opt     Optimizer
	x       features.Sentence
	sib     []uint32 // EdgeScores' scratch
	p       Problem
	sol     Solution
	// for the decodings under rules (OptimizeFit, NestedFit): the sentence being
	// solved, and trimmed as a func made once
	sentence *syntax.Sentence
	trim     func([]int) []int
	ext      TreeDP // the decodings under rules with another backend than the DP
}

// Solve returns the compression of in: its kept token ids, ascending. Without in.Rules
// (the Paper decoding), and for the evaluation variants, which do not honour them, it is
// the optimum of the program. With them, for Name (HonoursRules), it is the compression
// under the well-formedness rules that the method.Compressor shows with the display step
// of every method (method.RuleSolver): C*, the exact optimum under the rules (with the
// DP backend, the best one that fits in.Fits, TreeDP.OptimizeFit); under in.Nested, the
// longest prefix of the nested order that fits (TreeDP.NestedFit), the result when the
// display rules yield to the query. The slice aliases *scratch. Errors wrap
// method.ErrNoSentence or the va errors of a bad query or budget (va.ErrNotInSentence,
// va.ErrDuplicate, va.ErrBadBudget, va.ErrBudgetTooSmall).
func (m *Model) Solve(in method.Input, scratchp *any) ([]int, error) {
	sc, err := m.prepare(in, scratchp)
	if err != nil {
		return nil, err
	}
	if sc.p.Rules == nil {
		if err := sc.opt.Optimize(&sc.p, &sc.sol); err != nil {
			return nil, err
		}
		return sc.sol.Kept, nil
	}
	sc.sentence = in.Sentence
	kept, err := sc.decode(in.Fits)
	sc.sentence = nil
	return kept, err
}

// HonoursRules reports whether the model honours method.Input.Rules: the
// query-constrained model (Name) does, the evaluation variants do not.
func (m *Model) HonoursRules() bool { return m.variant == constrained }

// NestedOrder returns the nested order of in, whose Rules must be set: the tokens by
// falling entry price (TreeDP.NestedOptimize; ties nearer the query first, then left to
// right), with the number of them whose price is positive, the tokens the relaxation
// keeps when a character costs nothing (method.RuleSolver). The slice aliases *scratch.
// Errors are those of Solve, and one wrapping va.ErrInvalidInput without the rules or
// for a model that does not honour them.
func (m *Model) NestedOrder(in method.Input, scratchp *any) ([]int32, int, error) {
	sc, err := m.prepare(in, scratchp)
	if err != nil {
		return nil, 0, err
	}
	return sc.dp().nestedOrder(&sc.p)
}

// prepare returns the scratch of scratchp (made for m's backend when it is not) holding
// the problem of in under m's weights, with in's rules when m honours them.
func (m *Model) prepare(in method.Input, scratchp *any) (*scratch, error) {
	if scratchp == nil {
		scratchp = new(any)
	}
	sc, ok := (*scratchp).(*scratch)
	if !ok || sc.backend != m.backend {
		opt, err := NewOptimizer(m.backend)
		if err != nil {
			return nil, err
		}
		sc = &scratch{backend: m.backend, opt: opt}
		sc.trim = sc.trimmed
		*scratchp = sc
	}
	if in.Sentence == nil || in.Tree == nil {
		return nil, method.ErrNoSentence
	}
	if err := sc.x.Reset(in.Sentence, in.Tree, m.vocab); err != nil {
		return nil, fmt.Errorf("%w: %v", va.ErrInvalidInput, err)
	}
	q := in.Query
	if m.variant == unconstrained {
		q = nil
	}
	if m.cfg.Query {
		sc.x.SetQuery(q)
	}
	m.problem(&sc.p, &sc.x, &sc.sib, in, q)
	sc.p.QueryViaRoot = m.variant == rootQuery
	sc.p.Rules, sc.p.Nested = nil, false
	if in.Rules != nil && m.HonoursRules() {
		sc.p.Rules, sc.p.Nested = in.Rules, in.Nested
	}
	return sc, nil
}

// dp returns the TreeDP of the decodings under rules: the backend's, or sc.ext.
func (sc *scratch) dp() *TreeDP {
	if dp, ok := sc.opt.(*TreeDP); ok {
		return dp
	}
	return &sc.ext
}

// decode solves the problem of sc under its rules: C*, the exact optimum, by the backend
// (the DP: under fits too), or under Nested the longest prefix of the nested order that
// fits.
func (sc *scratch) decode(fits func([]int) bool) ([]int, error) {
	if sc.p.Nested {
		kept, _, err := sc.dp().NestedFit(&sc.p, &sc.sol, sc.trim, fits)
		return kept, err
	}
	if dp, isDP := sc.opt.(*TreeDP); isDP {
		kept, _, err := dp.OptimizeFit(&sc.p, &sc.sol, sc.trim, fits)
		return kept, err
	}
	if err := sc.opt.Optimize(&sc.p, &sc.sol); err != nil {
		return nil, err
	}
	return sc.trim(sc.sol.Kept), nil
}

// trimmed is kept trimmed by the rules of the problem being solved (Rules.Trim).
func (sc *scratch) trimmed(kept []int) []int {
	return sc.p.Rules.Trim(sc.sentence, kept)
}

// problem fills p with the arc scores of in under m's weights.
func (m *Model) problem(p *Problem, x *features.Sentence, sib *[]uint32, in method.Input, q []int) {
	setLens(p, in)
	p.Query, p.Budget = q, in.Budget
	*sib = m.cfg.EdgeScores(x, m.w, p.Edge, p.Root, *sib)
}

// setLens sets the tree, the token lengths (runes) and the size of the score slices of p.
func setLens(p *Problem, in method.Input) {
	n := in.Tree.N()
	p.Tree = in.Tree
	p.Lens = reuse.Resize(p.Lens, n)
	p.Edge = reuse.Resize(p.Edge, n)
	p.Root = reuse.Resize(p.Root, n)
	for i := range in.Sentence.Tokens {
		if i < n {
			p.Lens[i] = syntax.TokenLen(in.Sentence.Tokens[i].Form)
		}
	}
}

// NonZero returns the number of non-zero weights.
func (m *Model) NonZero() int {
	n := 0
	for _, w := range m.w {
		if w != 0 {
			n++
		}
	}
	return n
}
