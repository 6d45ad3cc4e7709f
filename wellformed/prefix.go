package wellformed

// Prefix grows and shrinks the set C of a nested decoding (method.Nested): from a seed
// closed under the rules (the closure of Q), C grows by the tokens of one order, each with
// its closure, while the next one fits the budget (Grow); then, when the whole must pass
// a check that only a whole set can be put to (a displayed length), the units added last
// are dropped until it passes (Shrink). The order does not depend on the budget, so C is
// a prefix of one sequence of units whatever the budget: a larger budget keeps what a
// smaller one kept. Its memory is reused: once grown it allocates nothing. The zero value
// is ready; it is not safe for concurrent use.
type Prefix struct {
	seq  []int32 // the tokens Grow added, in turn
	cuts []int   // where each unit ends in seq
}

// Reset forgets the units added: call it once C is the seed.
func (p *Prefix) Reset() { p.seq, p.cuts = p.seq[:0], p.cuts[:0] }

// Grow adds to C, in turn, each token of order that C does not hold, with its closure
// under r (add is called for every new member and must make inC true), while it fits:
// while weight, the weight Σ (len + 1) of C, plus that of the closure is at most capacity,
// which is b + 1 for a budget b (for C and the closure not both empty, ℓ = weight − 1).
// It stops at the first token that does not fit and returns the weight of C. Each unit
// it adds is recorded for Shrink. It costs O(|order|) plus the closures.
func (p *Prefix) Grow(r *Rules, order []int32, weight, capacity int, inC func(int) bool, add func(int)) int {
	record := func(u int) {
		add(u)
		p.seq = append(p.seq, int32(u))
	}
	for _, v := range order {
		if inC(int(v)) {
			continue
		}
		if weight+r.Closure(int(v), inC, nil) > capacity {
			break
		}
		weight += r.Closure(int(v), inC, record)
		p.cuts = append(p.cuts, len(p.seq))
	}
	return weight
}

// Shrink returns kept(), the set C as its caller reads it, when fits is nil or passes it;
// otherwise it drops the units Grow added, last first (drop is called for each of their
// tokens and must take it out of C), until fits(kept()) or no added unit is left. It
// returns the last kept() and whether it fits.
func (p *Prefix) Shrink(kept func() []int, fits func([]int) bool, drop func(int)) ([]int, bool) {
	c := kept()
	ok := fits == nil || fits(c)
	for !ok && len(p.cuts) > 0 {
		k := len(p.cuts) - 1
		from := 0
		if k > 0 {
			from = p.cuts[k-1]
		}
		for _, v := range p.seq[from:p.cuts[k]] {
			drop(int(v))
		}
		p.seq, p.cuts = p.seq[:from], p.cuts[:k]
		c = kept()
		ok = fits(c)
	}
	return c, ok
}
