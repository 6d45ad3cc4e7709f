package lr

import (
	"errors"
	"math"
)

// objective evaluates f(x) and writes ∇f(x) into grad.
type objective func(x, grad []float64) float64

// lbfgsResult reports how a minimisation ended.
type lbfgsResult struct {
	F          float64 // final objective
	GradNorm   float64 // final ‖∇f‖₂
	GradMax    float64 // final ‖∇f‖∞
	Iterations int     // L-BFGS iterations
	Evals      int     // function evaluations
	Converged  bool    // the gradient tolerance was met
	Stalled    bool    // stopped because f no longer decreased (FuncTol), not converged
}

// lbfgsOptions control minimize.
type lbfgsOptions struct {
	Memory  int     // correction pairs kept (m)
	MaxIter int     // iteration limit
	GradTol float64 // stop when ‖∇f‖∞ ≤ GradTol (converged)
	FuncTol float64 // stop when the relative decrease of f over 5 iterations is below FuncTol
	OnIter  func(it int, f, gmax float64)
	// Precond, when not nil, is a positive diagonal approximation of the Hessian: the
	// initial inverse Hessian of every iteration is diag(1/Precond), scaled.
	Precond  []float64
	maxTries int // line search trials per iteration
}

var errLineSearch = errors.New("lr: L-BFGS line search failed")

// minimize minimises f from x (updated in place) with L-BFGS and a backtracking line
// search under the Armijo condition. It is deterministic.
func minimize(f objective, x []float64, o lbfgsOptions) (lbfgsResult, error) {
	if o.Memory <= 0 {
		o.Memory = 10
	}
	if o.maxTries <= 0 {
		o.maxTries = 40
	}
	n := len(x)
	orig := x
	g := make([]float64, n)
	gNew := make([]float64, n)
	d := make([]float64, n)
	xNew := make([]float64, n)
	s := make([][]float64, 0, o.Memory)
	y := make([][]float64, 0, o.Memory)
	rho := make([]float64, 0, o.Memory)
	alpha := make([]float64, o.Memory)

	res := lbfgsResult{}
	fx := f(x, g)
	res.Evals = 1
	gn := norm(g)
	gm := maxAbs(g)
	hist := []float64{fx}
	for res.Iterations < o.MaxIter {
		if gm <= o.GradTol {
			res.Converged = true
			break
		}
		// two-loop recursion: d = −H∇f
		copy(d, g)
		k := len(s)
		for i := k - 1; i >= 0; i-- {
			alpha[i] = rho[i] * dot(s[i], d)
			axpy(-alpha[i], y[i], d)
		}
		gamma := 1.0
		if k > 0 {
			gamma = dot(s[k-1], y[k-1]) / precondDot(y[k-1], y[k-1], o.Precond)
		}
		if o.Precond != nil {
			for i, p := range o.Precond {
				d[i] *= gamma / p
			}
		} else {
			scale(gamma, d)
		}
		for i := range k {
			beta := rho[i] * dot(y[i], d)
			axpy(alpha[i]-beta, s[i], d)
		}
		scale(-1, d)
		slope := dot(g, d)
		if slope >= 0 { // not a descent direction: restart with steepest descent
			s, y, rho = s[:0], y[:0], rho[:0]
			copy(d, g)
			scale(-1/max(gn, 1), d)
			slope = dot(g, d)
		}
		step := 1.0
		if k == 0 && o.Precond == nil {
			step = 1 / max(gn, 1)
		}
		var fNew float64
		ok := false
		for range o.maxTries {
			for i := range x {
				xNew[i] = x[i] + step*d[i]
			}
			fNew = f(xNew, gNew)
			res.Evals++
			if fNew <= fx+1e-4*step*slope && !math.IsNaN(fNew) {
				ok = true
				break
			}
			step *= 0.5
		}
		if !ok {
			res.F, res.GradNorm, res.GradMax = fx, gn, gm
			return res, errLineSearch
		}
		// update the correction pairs, recycling the oldest buffers
		var si, yi []float64
		if len(s) == o.Memory {
			si, yi = s[0], y[0]
			s, y, rho = append(s[:0], s[1:]...), append(y[:0], y[1:]...), append(rho[:0], rho[1:]...)
		} else {
			si, yi = make([]float64, n), make([]float64, n)
		}
		for i := range x {
			si[i] = xNew[i] - x[i]
			yi[i] = gNew[i] - g[i]
		}
		if sy := dot(si, yi); sy > 1e-12 {
			s, y, rho = append(s, si), append(y, yi), append(rho, 1/sy)
		}
		x, xNew = xNew, x
		g, gNew = gNew, g
		fx = fNew
		gn, gm = norm(g), maxAbs(g)
		res.Iterations++
		if o.OnIter != nil {
			o.OnIter(res.Iterations, fx, gm)
		}
		hist = append(hist, fx)
		if len(hist) > 5 {
			old := hist[len(hist)-6]
			if (old-fx)/max(math.Abs(fx), 1) < o.FuncTol {
				res.Stalled = true
				break
			}
		}
	}
	if gm <= o.GradTol {
		res.Converged = true
	}
	res.F, res.GradNorm, res.GradMax = fx, gn, gm
	if n > 0 && &x[0] != &orig[0] { // x and xNew were swapped: return the result in orig
		copy(orig, x)
	}
	return res, nil
}

// precondDot returns Σ a_i b_i / p_i, or a·b when p is nil.
func precondDot(a, b, p []float64) float64 {
	if p == nil {
		return dot(a, b)
	}
	var s float64
	for i, v := range a {
		s += v * b[i] / p[i]
	}
	return s
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func norm(a []float64) float64 { return math.Sqrt(dot(a, a)) }

func maxAbs(a []float64) float64 {
	m := 0.0
	for _, v := range a {
		m = max(m, math.Abs(v))
	}
	return m
}

func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

func scale(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}
