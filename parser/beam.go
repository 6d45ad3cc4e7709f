package parser

import (
	"cmp"
	"slices"
)

// Beam search. A model trained with TrainOptions.Beam > 1 keeps the Beam best partial
// parses at every step instead of one, ranked by the sum of their transition scores
// (labels do not enter the score: each arc takes its best label when it is made, as in
// greedy parsing). Arc-hybrid parses of n tokens all take 2n transitions, so the items of
// a beam always have the same length. Training is global: the structured perceptron with
// early update (Collins & Roark 2004; Zhang & Nivre 2011) follows the static oracle's
// transition sequence and updates as soon as it falls out of the beam.

// MaxBeam is the largest beam width a model may use.
const MaxBeam = 64

// beamItem is one partial parse.
type beamItem struct {
	st    state
	score float64
	hist  []int32 // transitions so far, while training: action | label<<2
	gold  bool    // hist is a prefix of the oracle sequence
}

// beamCand is a possible successor: item parent extended by action act.
type beamCand struct {
	parent int
	act    int
	score  float64
	gold   bool
}

// copyFrom makes st a copy of src, reusing st's memory.
func (st *state) copyFrom(src *state) {
	st.n, st.i = src.n, src.i
	st.stack = append(st.stack[:0], src.stack...)
	st.head = append(st.head[:0], src.head...)
	st.label = append(st.label[:0], src.label...)
	st.l1 = append(st.l1[:0], src.l1...)
	st.l2 = append(st.l2[:0], src.l2...)
	st.r1 = append(st.r1[:0], src.r1...)
	st.r2 = append(st.r2[:0], src.r2...)
	st.nl = append(st.nl[:0], src.nl...)
	st.nr = append(st.nr[:0], src.nr...)
	st.lset = append(st.lset[:0], src.lset...)
	st.rset = append(st.rset[:0], src.rset...)
}

// beamTrain is the training side of a beam search (see runBeam).
type beamTrain struct {
	gold []int32 // the static oracle's transitions, action | label<<2
	pred []int32 // the predicted transitions of the update (nil: no update due)
}

// runBeam parses the encoded sentence with a beam of width k and leaves the best parse in
// p.st. With tr, it trains: the scores come from the float32 weights being trained, items
// that follow tr.gold are marked, and tr.pred receives the predicted transitions of the
// update, for the same number of gold ones. Early update stops at the first step where
// no item follows gold, or at the end when the best item does not (docs/pipeline.md
// compares early update with max-violation updates).
func (p *Parser) runBeam(k int, tr *beamTrain) {
	n := len(p.ws) - 1
	for len(p.beam) < 2*k {
		p.beam = append(p.beam, &beamItem{})
	}
	train := tr != nil
	if train {
		tr.pred = nil
	}
	cur := p.beam[:1]
	cur[0].st.reset(n)
	cur[0].score, cur[0].hist, cur[0].gold = 0, cur[0].hist[:0], train
	for step := range 2 * n {
		ga := -1
		if train {
			ga = int(tr.gold[step] & 3)
		}
		p.cands = p.cands[:0]
		for bi, it := range cur {
			st := &it.st
			if a := st.forced(); a >= 0 {
				p.cands = append(p.cands, beamCand{bi, a, it.score, it.gold && a == ga})
				continue
			}
			st.actionFeatures(p.ws, p.ps, p.cs, &p.af)
			var sc [numActs]float32
			if train {
				sc = p.m.scoreActsF(&p.af)
			} else {
				sc = p.m.scoreActs(&p.af)
			}
			for a := range numActs {
				if st.valid(a) {
					p.cands = append(p.cands, beamCand{bi, a, it.score + float64(sc[a]), it.gold && a == ga})
				}
			}
		}
		// The k best, by score, then by parent and action (deterministic ties).
		slices.SortStableFunc(p.cands, func(a, b beamCand) int { return cmp.Compare(b.score, a.score) })
		kept := p.cands[:min(k, len(p.cands))]
		if train {
			goldKept := false
			for _, c := range kept {
				goldKept = goldKept || c.gold
			}
			if !goldKept {
				tr.pred = kept[0].history(cur)
				return
			}
		}
		next := p.beam[k : k+len(kept)]
		for j, c := range kept {
			it, par := next[j], cur[c.parent]
			it.st.copyFrom(&par.st)
			it.score, it.gold = c.score, c.gold
			var lab int32
			if c.act != actShift {
				h, d := it.st.arc(c.act)
				if c.gold {
					lab = tr.gold[step] >> 2
				} else {
					lab = p.labelOn(&it.st, h, d, train)
				}
			}
			it.st.apply(c.act, lab)
			if train { // only updates replay the transitions
				it.hist = append(append(it.hist[:0], par.hist...), int32(c.act)|lab<<2)
			}
		}
		// The successors move to the front half of p.beam.
		for j := range k {
			p.beam[j], p.beam[k+j] = p.beam[k+j], p.beam[j]
		}
		cur = p.beam[:len(kept)]
	}
	p.st.copyFrom(&cur[0].st)
	if train && !cur[0].gold {
		tr.pred = slices.Clone(cur[0].hist)
	}
}

// history returns the transition sequence of candidate c of the beam cur. Its last
// transition carries no label: an update scores the actions in the states before them, and
// nothing follows the last one.
func (c beamCand) history(cur []*beamItem) []int32 {
	h := slices.Clone(cur[c.parent].hist)
	return append(h, int32(c.act))
}

// oracleSequence returns the static oracle's transitions (action | label<<2) for the
// projective gold tree of g: an arc as soon as it is a gold arc that loses nothing, else
// SHIFT. ok is false if the sequence does not rebuild the tree (it always should).
func (p *Parser) oracleSequence(g *instance) (seq []int32, ok bool) {
	st := &p.st
	st.reset(len(g.ws) - 1)
	for !st.terminal() {
		a := st.forced()
		if a < 0 {
			a = actShift
			for _, b := range [...]int{actLeft, actRight} {
				if st.valid(b) {
					h, d := st.arc(b)
					if g.gold[d] == h && st.cost(b, g.gold) == 0 {
						a = b
						break
					}
				}
			}
		}
		var lab int32
		if a != actShift {
			h, d := st.arc(a)
			if h == 0 {
				lab = p.m.rootLab
			} else {
				lab = max(g.glab[d], 0)
			}
		}
		st.apply(a, lab)
		seq = append(seq, int32(a)|lab<<2)
	}
	return seq, slices.Equal(st.head[1:], g.gold[1:])
}

// replay runs the transitions seq from the start and adds delta to the weights of each
// chosen action in the features of the state it was chosen in.
func (tr *trainer) replay(p *Parser, seq []int32, delta float32) {
	st := &p.st
	st.reset(len(p.ws) - 1)
	for _, x := range seq {
		a := int(x & 3)
		if st.forced() < 0 {
			st.actionFeatures(p.ws, p.ps, p.cs, &p.af)
			tr.updateActs(&p.af, a, delta)
		}
		st.apply(a, x>>2)
	}
}

// trainLabels trains the label weights locally along the oracle sequence: at every arc
// below the root, a perceptron update when the predicted label is wrong.
func (tr *trainer) trainLabels(p *Parser, seq []int32) {
	st := &p.st
	st.reset(len(p.ws) - 1)
	for _, x := range seq {
		a, gl := int(x&3), x>>2
		if a != actShift {
			if h, d := st.arc(a); h != 0 {
				if lab := p.labelOn(st, h, d, true); lab != gl {
					tr.updateLabels(&p.lf, gl, 1)
					tr.updateLabels(&p.lf, lab, -1)
				}
			}
		}
		st.apply(a, gl)
	}
}

// beamStep trains on one sentence with beam search (see runBeam).
func (tr *trainer) beamStep(p *Parser, g *instance, k int) {
	tr.c++
	tr.bt.gold = g.seq
	p.runBeam(k, &tr.bt)
	if pred := tr.bt.pred; pred != nil {
		tr.replay(p, g.seq[:len(pred)], 1)
		tr.replay(p, pred, -1)
	}
	tr.trainLabels(p, g.seq)
}
