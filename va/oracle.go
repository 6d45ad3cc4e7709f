package va

import (
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

// Gold is the static oracle's policy as a Decider: it accepts exactly the vertices of a
// gold compression C_g. Set it with Reset; the zero value accepts nothing. A Gold is
// per-sentence data: share it between goroutines only for reading.
type Gold struct {
	in []bool // in[v] reports v ∈ C_g
}

// Reset sets C_g for a sentence of n tokens, reusing g's memory. It returns a
// *VertexError for a vertex outside 1..n or listed twice.
func (g *Gold) Reset(n int, gold []int) error {
	if n < 0 {
		return fmt.Errorf("%w: %d tokens", ErrInvalidInput, n)
	}
	g.in = reuse.Resize(g.in, n+1)
	clear(g.in)
	for _, v := range gold {
		if v < 1 || v > n {
			return &VertexError{Set: "gold", Vertex: v, N: n, Err: ErrNotInSentence}
		}
		if g.in[v] {
			return &VertexError{Set: "gold", Vertex: v, N: n, Err: ErrDuplicate}
		}
		g.in[v] = true
	}
	return nil
}

// Contains reports whether v ∈ C_g.
func (g *Gold) Contains(v int) bool { return uint(v) < uint(len(g.in)) && g.in[v] }

// Decide accepts v iff v ∈ C_g, with P = 1 or 0.
func (g *Gold) Decide(_ *State, v int) Decision {
	if g.Contains(v) {
		return Decision{Accept: true, P: 1}
	}
	return Decision{}
}

// OracleFunc receives one oracle decision: the state s before the decision (what a Decider
// would see at run time), the candidate v, its label y = v ∈ C_g, and whether the runtime
// budget check skips v (the model is never asked about such a candidate).
type OracleFunc func(s *State, v int, y, skipped bool)

// Oracle follows the static oracle for p and the gold set C_g (the authors' oracle_path):
// the engine of Run with Decider Gold, which accepts v iff y = v ∈ C_g. It calls f, if not
// nil, for every candidate before the candidate is settled, so that a feature extractor
// can run inside f on the exact runtime State. tr, if not nil, is the model's Tracker:
// its Start and Added are called as in Run, so s.Scratch holds what the model keeps.
// Candidates with skipped = true are skipped as in Run; the authors kept them as training
// examples, so whether to use them is up to the trainer.
//
// C_g must contain Q (else a *VertexError wrapping ErrNotInGold). With b = ℓ(C_g), as in
// training, no gold vertex is skipped, ℓ(C) < b holds until C = C_g, and Oracle returns
// exactly C_g, in sentence order. A smaller b yields the gold-consistent C that fits.
func (c *Compressor) Oracle(p Problem, gold []int, tr Tracker, f OracleFunc) ([]int, error) {
	if err := c.start(&p); err != nil {
		return nil, err
	}
	if err := c.gold.Reset(c.s.N(), gold); err != nil {
		return nil, err
	}
	for _, q := range c.s.Query() {
		if !c.gold.in[q] {
			return nil, &VertexError{Set: "query", Vertex: q, N: c.s.N(), Err: ErrNotInGold}
		}
	}
	if tr != nil {
		tr.Start(&c.s)
	}
	for c.s.more() {
		v, fits := c.s.pop()
		if f != nil {
			f(&c.s, v, c.gold.in[v], !fits)
		}
		c.decide(v, fits, &c.gold, tr)
	}
	return c.result(), nil
}
