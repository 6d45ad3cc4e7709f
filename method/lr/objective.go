package lr

import (
	"math"
	"sync"

	"github.com/qsc-nlp/qsc/internal/core/features"
)

// valFlag marks, in examples.ids, a feature whose value is stored in examples.vals
// (features of value 1 store no value). Feature ids are below 2^features.MaxBits.
const valFlag = 1 << 31

// examples is a design matrix of binary-labelled sparse examples, stored compactly.
type examples struct {
	off  []int64   // example i has ids[off[i]:off[i+1]]
	voff []int64   // and its explicit values vals[voff[i]:voff[i+1]], in order
	ids  []uint32  // feature ids, valFlag set when the value is in vals
	vals []float32 // values ≠ 1
	y    []bool
	pos  int // examples with y = true
	// asked and askedPos count the examples (and positives) that the runtime would ask a
	// model about, leaving out candidates it skips as over budget.
	asked, askedPos int
}

func newExamples() *examples { return &examples{off: []int64{0}, voff: []int64{0}} }

// Len returns the number of examples.
func (e *examples) Len() int { return len(e.y) }

// NNZ returns the number of stored features.
func (e *examples) NNZ() int { return len(e.ids) }

// add appends one example.
func (e *examples) add(x *features.Vector, y bool) {
	for i, id := range x.IDs {
		if v := x.Vals[i]; v != 1 {
			e.ids = append(e.ids, id|valFlag)
			e.vals = append(e.vals, v)
		} else {
			e.ids = append(e.ids, id)
		}
	}
	e.off = append(e.off, int64(len(e.ids)))
	e.voff = append(e.voff, int64(len(e.vals)))
	e.y = append(e.y, y)
	if y {
		e.pos++
	}
}

// appendAll appends the examples of o.
func (e *examples) appendAll(o *examples) {
	base, vbase := int64(len(e.ids)), int64(len(e.vals))
	e.ids = append(e.ids, o.ids...)
	e.vals = append(e.vals, o.vals...)
	for i := 1; i < len(o.off); i++ {
		e.off = append(e.off, base+o.off[i])
		e.voff = append(e.voff, vbase+o.voff[i])
	}
	e.y = append(e.y, o.y...)
	e.pos += o.pos
	e.asked += o.asked
	e.askedPos += o.askedPos
}

// softplus returns log(1 + e^t) without overflow.
func softplus(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}

// sigmoid returns 1 / (1 + e^−z).
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	ez := math.Exp(z)
	return ez / (1 + ez)
}

// lrShards is the fixed number of shards of the data in a gradient evaluation. It does not
// depend on the number of CPUs, so that the sums, and the model, are the same everywhere.
const lrShards = 4

// lrObjective is the L2-regularised logistic loss of data with weights θ = (w, bias):
// Σᵢ log(1 + exp(−ỹᵢ zᵢ)) + ‖w‖²/(2C), zᵢ = bias + w·xᵢ, ỹᵢ = ±1, as scikit-learn's
// LogisticRegression minimises it up to the factor C (the bias is not regularised).
type lrObjective struct {
	data    *examples
	dim     int // len(w); θ has dim+1 entries
	c       float64
	workers int
	grads   [lrShards][]float64
	losses  [lrShards]float64
}

func newLRObjective(data *examples, dim int, c float64, workers int) *lrObjective {
	o := &lrObjective{data: data, dim: dim, c: c, workers: max(workers, 1)}
	for i := range o.grads {
		o.grads[i] = make([]float64, dim+1)
	}
	return o
}

// eval computes the objective and its gradient.
func (o *lrObjective) eval(theta, grad []float64) float64 {
	n := o.data.Len()
	var wg sync.WaitGroup
	next := make(chan int, lrShards)
	for s := range lrShards {
		next <- s
	}
	close(next)
	for range min(o.workers, lrShards) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				lo, hi := s*n/lrShards, (s+1)*n/lrShards
				o.losses[s] = o.shard(theta, o.grads[s], lo, hi)
			}
		}()
	}
	wg.Wait()
	w := theta[:o.dim]
	loss := 0.0
	for i := range o.dim {
		grad[i] = w[i] / o.c
		loss += w[i] * w[i]
	}
	loss /= 2 * o.c
	grad[o.dim] = 0
	for s := range lrShards {
		loss += o.losses[s]
		axpy(1, o.grads[s], grad)
	}
	return loss
}

// shard accumulates the loss and gradient of examples lo..hi−1 into g (cleared first).
func (o *lrObjective) shard(theta, g []float64, lo, hi int) float64 {
	clear(g)
	d := o.data
	bias := theta[o.dim]
	loss, gb := 0.0, 0.0
	for i := lo; i < hi; i++ {
		ids := d.ids[d.off[i]:d.off[i+1]]
		vals := d.vals[d.voff[i]:d.voff[i+1]]
		z := bias
		k := 0
		for _, id := range ids {
			if id&valFlag != 0 {
				z += theta[id&^valFlag] * float64(vals[k])
				k++
			} else {
				z += theta[id]
			}
		}
		var r float64 // ∂loss/∂z
		if d.y[i] {
			loss += softplus(-z)
			r = sigmoid(z) - 1
		} else {
			loss += softplus(z)
			r = sigmoid(z)
		}
		gb += r
		k = 0
		for _, id := range ids {
			if id&valFlag != 0 {
				g[id&^valFlag] += r * float64(vals[k])
				k++
			} else {
				g[id] += r
			}
		}
	}
	g[o.dim] = gb
	return loss
}

// fitOptions control fitLR.
type fitOptions struct {
	C       float64
	MaxIter int
	// Tol is the convergence tolerance on the largest gradient component of the mean
	// per-decision objective (0: DefaultTol).
	Tol     float64
	Workers int
	OnIter  func(it int, f, gmax float64)
}

// DefaultTol is scikit-learn's default tolerance for LogisticRegression(solver="lbfgs"),
// which the authors used: L-BFGS stops when every component of the gradient of the mean
// loss (the objective divided by the number of decisions) is at most 1e-4 in absolute
// value.
const DefaultTol = 1e-4

// fitLR fits an L2-regularised logistic regression to data with weights of dimension dim,
// starting from theta (dim+1 entries, the last the bias; updated in place).
func fitLR(data *examples, dim int, theta []float64, o fitOptions) (lbfgsResult, error) {
	obj := newLRObjective(data, dim, o.C, o.Workers)
	if o.Tol <= 0 {
		o.Tol = DefaultTol
	}
	return minimize(obj.eval, theta, lbfgsOptions{
		Memory: 10, MaxIter: o.MaxIter, GradTol: o.Tol * float64(data.Len()), FuncTol: 1e-13, OnIter: o.OnIter,
		Precond: data.curvature(dim, o.C),
	})
}

// curvature returns the Jacobi preconditioner of the objective: a bound on the diagonal of
// its Hessian, 1/C + Σᵢ xᵢⱼ²/4 for a weight j and n/4 for the bias.
func (e *examples) curvature(dim int, c float64) []float64 {
	d := make([]float64, dim+1)
	k := 0
	for _, id := range e.ids {
		if id&valFlag != 0 {
			v := float64(e.vals[k])
			d[id&^valFlag] += v * v / 4
			k++
		} else {
			d[id] += 0.25
		}
	}
	for j := range dim {
		d[j] += 1 / c
	}
	d[dim] = max(float64(e.Len())/4, 1e-12)
	return d
}
