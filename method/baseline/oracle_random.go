package baseline

import (
	"fmt"
	"math/rand/v2"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/va"
)

// The compile-time checks of what package method asks of the baselines.
var (
	_ method.GoldMethod = Oracle{}
	_ va.Decider        = (*Random)(nil)
	_ method.Solver     = Window{}
)

// Oracle is the static oracle: with a method.Compressor it accepts exactly the gold tokens
// of the method.Input (va.Gold). Called directly as a va.Decider, it accepts nothing, since it
// does not know the gold set.
type Oracle struct{}

// Name returns "oracle".
func (Oracle) Name() string { return NameOracle }

// KeepsGold marks the Oracle as a method.GoldMethod.
func (Oracle) KeepsGold() {}

// Decide rejects v; see the type's doc.
func (Oracle) Decide(*va.State, int) va.Decision { return va.Decision{} }

// Random is the RANDOM baseline: it accepts a candidate with the probability given to
// NewRandom. Each
// compression draws from a PCG generator seeded with the Random's seed and a hash of the
// problem (token forms, query and budget), so a compression is the same whatever the
// order in which problems are compressed.
type Random struct {
	marginal float64
	seed     uint64
}

// NewRandom returns a Random with acceptance probability marginal ∈ [0, 1].
func NewRandom(marginal float64, seed uint64) (*Random, error) {
	if !(marginal >= 0 && marginal <= 1) {
		return nil, fmt.Errorf("random: marginal %v outside [0, 1]", marginal)
	}
	return &Random{marginal: marginal, seed: seed}, nil
}

// Name returns "random".
func (r *Random) Name() string { return NameRandom }

// Start seeds the run's generator.
func (r *Random) Start(s *va.State) {
	g, ok := s.Scratch.(*rand.PCG)
	if !ok {
		g = new(rand.PCG)
		s.Scratch = g
	}
	h := uint64(hashing.FNVOffset)
	if sent := s.Sentence(); sent != nil {
		for i := range sent.Tokens {
			h = hashing.Add(hashing.AddString(h, sent.Tokens[i].Form), 0)
		}
	}
	h = hashing.AddUint64(h, uint64(s.N()))
	for _, q := range s.Query() {
		h = hashing.AddUint64(h, uint64(q))
	}
	h = hashing.AddUint64(h, uint64(s.Budget()))
	g.Seed(r.seed, h)
}

// Added does nothing.
func (r *Random) Added(*va.State, int) {}

// Decide accepts v with the Random's probability.
func (r *Random) Decide(s *va.State, _ int) va.Decision {
	g, ok := s.Scratch.(*rand.PCG)
	if !ok { // used without Start: seed from the model seed alone
		g = rand.NewPCG(r.seed, 0)
		s.Scratch = g
	}
	u := float64(g.Uint64()>>11) / (1 << 53)
	return va.Decision{Accept: u < r.marginal, P: r.marginal}
}
