package nn

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

// grads holds the gradient of one sentence: dense for the LSTM and output weights, sparse
// (the touched rows only) for the embeddings.
type grads struct {
	dense *params // emb unused
	rows  map[int32]int32
	keys  []int32   // embedding rows in order of first touch
	vals  []float32 // len(keys) × E
}

func newGrads(p *params) *grads {
	g := &grads{dense: newParams(p.Sizes, 0), rows: map[int32]int32{}}
	return g
}

func (g *grads) reset() {
	for _, t := range g.dense.tensors()[1:] {
		clear(t)
	}
	clear(g.rows)
	g.keys, g.vals = g.keys[:0], g.vals[:0]
}

// row returns the gradient row of embedding row k (state·V + word), zero on first use.
func (g *grads) row(k int32, e int) []float32 {
	i, ok := g.rows[k]
	if !ok {
		i = int32(len(g.keys))
		g.rows[k] = i
		g.keys = append(g.keys, k)
		g.vals = append(g.vals, make([]float32, e)...)
	}
	return g.vals[int(i)*e : (int(i)+1)*e]
}

// work is one goroutine's memory for the forward and backward passes of a sentence.
//
// The decisions of a sentence share most of their LSTM computation: decision d differs
// from decision d−1 only at the tokens whose state changed, so the forward LSTM states
// before the first changed token, and the backward ones after the last, are those of
// decision d−1. The pass therefore builds, per direction, a tree of LSTM nodes: decision d
// computes new nodes only from its first changed token on (in the direction's order), and
// the gradient of a shared node sums what all the decisions that read it send back. The
// nodes are created in topological order, so the backward pass visits them in reverse.
type work struct {
	slot      []int32 // position·NumStates + state → slot, or −1
	slotPos   []int32
	slotState []uint8
	xp, dxp   []float32 // slots × 8H
	dirs      [2]nodes
	cur       [2][]int32 // the node of each position for the current decision
	at        []int32    // D × 2 × n: node per decision, direction and position
	pooled    []float32  // D × 2H
	arg       []int32    // D × 2H: node of each maximum
	dz        []float32
	probs     []float64 // p(y = 1) per decision of the last sentence
	lp        []float32 // 8H: the projection of a label row
}

// project sets the input projection of slot k (w.xp): that of the word's row, plus that
// of the label's row for a model with label input, added as run.input adds them.
func (w *work) project(p *params, ex *example, k int) {
	P := 8 * p.Hidden
	s, pos := int(w.slotState[k]), w.slotPos[k]
	out := w.xp[k*P : (k+1)*P]
	p.project(p.embRow(s, int(ex.words[pos])), out)
	if ex.rels == nil {
		return
	}
	w.lp = reuse.Resize(w.lp, P)
	p.project(p.embRow(s, int(ex.rels[pos])), w.lp)
	for i, x := range w.lp {
		out[i] += x
	}
}

// nodes holds the LSTM nodes of one direction.
type nodes struct {
	parent   []int32 // −1 for the first position
	xp       []int32 // offset of the input projection in work.xp
	act      []float32
	c, tc, h []float32
	dh, dc   []float32 // gradient accumulators
}

func (ns *nodes) reset() {
	ns.parent, ns.xp = ns.parent[:0], ns.xp[:0]
	ns.act, ns.c, ns.tc, ns.h = ns.act[:0], ns.c[:0], ns.tc[:0], ns.h[:0]
}

// add appends a node and returns its index.
func (ns *nodes) add(parent, xp int32, H int) int32 {
	k := int32(len(ns.parent))
	ns.parent = append(ns.parent, parent)
	ns.xp = append(ns.xp, xp)
	ns.act = append(ns.act, make([]float32, 4*H)...)
	ns.c = append(ns.c, make([]float32, H)...)
	ns.tc = append(ns.tc, make([]float32, H)...)
	ns.h = append(ns.h, make([]float32, H)...)
	return k
}

func newWork(p *params) *work {
	H := p.Hidden
	return &work{dz: make([]float32, 4*H)}
}

// sentence runs the network on every decision of ex. With g it also adds the gradient of
// the summed cross-entropy to g. It returns the summed loss and the number of decisions
// predicted right.
func (w *work) sentence(p *params, ex *example, g *grads) (float64, int) {
	n, D, H, E := ex.n(), len(ex.y), p.Hidden, p.Embed
	G := 4 * H
	P := 2 * G
	w.slot = reuse.Resize(w.slot, n*NumStates)
	for i := range w.slot {
		w.slot[i] = -1
	}
	w.slotPos, w.slotState = w.slotPos[:0], w.slotState[:0]
	for i, s := range ex.states {
		k := (i%n)*NumStates + int(s)
		if w.slot[k] < 0 {
			w.slot[k] = int32(len(w.slotPos))
			w.slotPos = append(w.slotPos, int32(i%n))
			w.slotState = append(w.slotState, s)
		}
	}
	ns := len(w.slotPos)
	w.xp = reuse.Resize(w.xp, ns*P)
	for k := range ns {
		w.project(p, ex, k)
	}
	w.at = reuse.Resize(w.at, D*2*n)
	w.pooled, w.arg = reuse.Resize(w.pooled, D*2*H), reuse.Resize(w.arg, D*2*H)
	for dir := range 2 {
		w.dirs[dir].reset()
		w.cur[dir] = reuse.Resize(w.cur[dir], n)
	}
	var loss float64
	correct := 0
	dzs := make([]float32, D) // ∂L/∂z1 per decision
	w.probs = w.probs[:0]
	for d := range D {
		st := ex.states[d*n : (d+1)*n]
		first, last := 0, n-1
		if d > 0 {
			prev := ex.states[(d-1)*n : d*n]
			for first < n && st[first] == prev[first] {
				first++
			}
			for last >= 0 && st[last] == prev[last] {
				last--
			}
		}
		for dir := range 2 {
			nd := &w.dirs[dir]
			cur := w.cur[dir]
			step := func(t, prevT int) {
				parent := int32(-1)
				if prevT >= 0 && prevT < n {
					parent = cur[prevT]
				}
				k := nd.add(parent, int32(int(w.slot[t*NumStates+int(st[t])])*P+dir*G), H)
				var hp, cp []float32
				if parent >= 0 {
					hp, cp = nd.h[int(parent)*H:int(parent+1)*H], nd.c[int(parent)*H:int(parent+1)*H]
				}
				o := int(nd.xp[k])
				p.dir[dir].step(w.xp[o:o+G], hp, cp, nd.act[int(k)*G:int(k+1)*G], nd.c[int(k)*H:int(k+1)*H], nd.tc[int(k)*H:int(k+1)*H], nd.h[int(k)*H:int(k+1)*H])
				cur[t] = k
			}
			if dir == 0 {
				for t := first; t < n; t++ {
					step(t, t-1)
				}
			} else {
				for t := last; t >= 0; t-- {
					step(t, t+1)
				}
			}
			copy(w.at[(d*2+dir)*n:(d*2+dir+1)*n], cur)
		}
		// Max-pool over positions, per direction.
		pooled, arg := w.pooled[d*2*H:(d+1)*2*H], w.arg[d*2*H:(d+1)*2*H]
		for dir := range 2 {
			nd := &w.dirs[dir]
			at := w.at[(d*2+dir)*n : (d*2+dir+1)*n]
			out, oa := pooled[dir*H:(dir+1)*H], arg[dir*H:(dir+1)*H]
			k0 := int(at[0])
			copy(out, nd.h[k0*H:(k0+1)*H])
			for j := range oa {
				oa[j] = at[0]
			}
			for t := 1; t < n; t++ {
				k := at[t]
				for j, x := range nd.h[int(k)*H : int(k+1)*H] {
					if x > out[j] {
						out[j], oa[j] = x, k
					}
				}
			}
		}
		z0, z1 := p.output(pooled)
		p1 := pAccept(z0, z1)
		w.probs = append(w.probs, p1)
		y := ex.y[d]
		if (p1 > 0.5) == y {
			correct++
		}
		py := p1
		if !y {
			py = 1 - p1
		}
		loss -= math.Log(max(py, 1e-30))
		yf := 0.0
		if y {
			yf = 1
		}
		dzs[d] = float32(p1 - yf)
	}
	if g == nil {
		return loss, correct
	}
	w.dxp = reuse.Resize(w.dxp, ns*P)
	clear(w.dxp)
	k2 := 2 * H
	for dir := range 2 {
		nd := &w.dirs[dir]
		nd.dh = reuse.Resize(nd.dh, len(nd.h))
		nd.dc = reuse.Resize(nd.dc, len(nd.c))
		clear(nd.dh)
		clear(nd.dc)
	}
	for d := range D {
		dz1 := dzs[d]
		dz0 := -dz1
		pooled, arg := w.pooled[d*k2:(d+1)*k2], w.arg[d*k2:(d+1)*k2]
		g.dense.bo[0] += dz0
		g.dense.bo[1] += dz1
		axpy(dz0, pooled, g.dense.wo[:k2])
		axpy(dz1, pooled, g.dense.wo[k2:2*k2])
		for j := range k2 {
			dir, jj := j/H, j%H
			w.dirs[dir].dh[int(arg[j])*H+jj] += dz0*p.wo[j] + dz1*p.wo[k2+j]
		}
	}
	for dir := range 2 {
		nd := &w.dirs[dir]
		gd := &g.dense.dir[dir]
		for k := len(nd.parent) - 1; k >= 0; k-- {
			parent := int(nd.parent[k])
			var hp, cp, dhp []float32
			if parent >= 0 {
				hp, cp = nd.h[parent*H:(parent+1)*H], nd.c[parent*H:(parent+1)*H]
				dhp = nd.dh[parent*H : (parent+1)*H]
			}
			dc := nd.dc[k*H : (k+1)*H]
			p.dir[dir].stepBack(nd.act[k*G:(k+1)*G], cp, nd.tc[k*H:(k+1)*H], hp, nd.dh[k*H:(k+1)*H], dc, w.dz, dhp, gd.u, gd.b)
			if parent >= 0 {
				axpy(1, dc, nd.dc[parent*H:(parent+1)*H])
			}
			o := int(nd.xp[k])
			axpy(1, w.dz, w.dxp[o:o+G])
		}
	}
	for k := range ns {
		// The input of a slot is the word's row, plus the label's row for a model with
		// label input: both rows get the same gradient, and Wx that of each.
		s, pos := int(w.slotState[k]), w.slotPos[k]
		rows := [2]int32{ex.words[pos], -1}
		if ex.rels != nil {
			rows[1] = ex.rels[pos]
		}
		for _, rw := range rows {
			if rw < 0 {
				continue
			}
			e := p.embRow(s, int(rw))
			row := g.row(int32(s*p.V)+rw, E)
			for dir := range 2 {
				dx := w.dxp[k*P+dir*G : k*P+(dir+1)*G]
				gw, wx := g.dense.dir[dir].wx, p.dir[dir].wx
				for r, v := range dx {
					if v == 0 {
						continue
					}
					axpy(v, e, gw[r*E:(r+1)*E])
					axpy(v, wx[r*E:(r+1)*E], row)
				}
			}
		}
	}
	return loss, correct
}

// gradPool computes the gradients of a batch, one buffer per sentence, with workers
// goroutines; the buffers are then summed in sentence order, so that the result does not
// depend on the scheduling.
type gradPool struct {
	bufs  []*grads
	works []*work
	sum   *grads
}

func newGradPool(p *params) *gradPool { return &gradPool{sum: newGrads(p)} }

// compute fills one buffer per sentence of batch and sums them into gp.sum. It returns the
// summed loss and the number of correct decisions.
func (gp *gradPool) compute(p *params, batch []*example, workers int) (float64, int) {
	for len(gp.bufs) < len(batch) {
		gp.bufs = append(gp.bufs, newGrads(p))
	}
	for len(gp.works) < workers {
		gp.works = append(gp.works, newWork(p))
	}
	losses := make([]float64, len(batch))
	corrects := make([]int, len(batch))
	var next atomic.Int64
	var wg sync.WaitGroup
	for wi := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := gp.works[wi]
			for {
				k := int(next.Add(1) - 1)
				if k >= len(batch) {
					return
				}
				gp.bufs[k].reset()
				losses[k], corrects[k] = w.sentence(p, batch[k], gp.bufs[k])
			}
		}()
	}
	wg.Wait()
	s := gp.sum
	s.reset()
	var loss float64
	correct := 0
	E := p.Embed
	for k := range batch {
		b := gp.bufs[k]
		dst := s.dense.tensors()
		for i, t := range b.dense.tensors() {
			if i > 0 {
				axpy(1, t, dst[i])
			}
		}
		for i, key := range b.keys {
			axpy(1, b.vals[i*E:(i+1)*E], s.row(key, E))
		}
		loss += losses[k]
		correct += corrects[k]
	}
	return loss, correct
}

// adagrad is AdaGrad (Duchi et al. 2011) with the accumulators of PyTorch's Adagrad
// (initial value 0, ε = 1e-10).
type adagrad struct {
	lr  float32
	acc *params
}

func newAdagrad(p *params, lr float64) *adagrad {
	return &adagrad{lr: float32(lr), acc: newParams(p.Sizes, p.V)}
}

// update applies the gradient in gp.sum, scaled by scale and clipped to [−clip, clip].
func (a *adagrad) update(p *params, gp *gradPool, scale, clip float32) {
	apply := func(w, g, acc []float32) {
		for i, gv := range g {
			gv *= scale
			if clip > 0 {
				gv = min(max(gv, -clip), clip)
			}
			if gv == 0 {
				continue
			}
			acc[i] += gv * gv
			w[i] -= a.lr * gv / (float32(math.Sqrt(float64(acc[i]))) + 1e-10)
		}
	}
	pt, gt, at := p.tensors(), gp.sum.dense.tensors(), a.acc.tensors()
	for i := 1; i < len(pt); i++ {
		apply(pt[i], gt[i], at[i])
	}
	E := p.Embed
	for i, key := range gp.sum.keys {
		o := int(key) * E
		apply(p.emb[o:o+E], gp.sum.vals[i*E:(i+1)*E], a.acc.emb[o:o+E])
	}
}
