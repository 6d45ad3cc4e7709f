package nn

import "math"

// The numeric kernels of the network, over float32. Every sum runs in a fixed order, so a
// computation gives the same bits whatever the goroutine that runs it.

// dot returns Σ a[i]·b[i] with four partial sums (a fixed order).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy adds alpha·x to y.
func axpy(alpha float32, x, y []float32) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += alpha * x[i]
		y[i+1] += alpha * x[i+1]
		y[i+2] += alpha * x[i+2]
		y[i+3] += alpha * x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}

// matVec sets out = W·x for the row-major rows × len(x) matrix W.
func matVec(w, x, out []float32) {
	k := len(x)
	for r := range out {
		out[r] = dot(w[r*k:(r+1)*k], x)
	}
}

// matVecAdd adds W·x to out. It computes two rows at a time, sharing the loads of x;
// each row's sum runs in the order of dot, so the result is the same as with dot.
func matVecAdd(w, x, out []float32) {
	k := len(x)
	r := 0
	for ; r+2 <= len(out); r += 2 {
		a, b := w[r*k:(r+1)*k], w[(r+1)*k:(r+2)*k]
		a, b = a[:len(x)], b[:len(x)]
		var a0, a1, a2, a3, b0, b1, b2, b3 float32
		i := 0
		for ; i+4 <= len(x); i += 4 {
			x0, x1, x2, x3 := x[i], x[i+1], x[i+2], x[i+3]
			a0 += a[i] * x0
			a1 += a[i+1] * x1
			a2 += a[i+2] * x2
			a3 += a[i+3] * x3
			b0 += b[i] * x0
			b1 += b[i+1] * x1
			b2 += b[i+2] * x2
			b3 += b[i+3] * x3
		}
		for ; i < len(x); i++ {
			a0 += a[i] * x[i]
			b0 += b[i] * x[i]
		}
		out[r] += (a0 + a1) + (a2 + a3)
		out[r+1] += (b0 + b1) + (b2 + b3)
	}
	for ; r < len(out); r++ {
		out[r] += dot(w[r*k:(r+1)*k], x)
	}
}

// sigmoid is the logistic function 1 / (1 + e^−x).
func sigmoid(x float32) float32 { return 1 / (1 + exp32(-x)) }

// tanh is the hyperbolic tangent, 1 − 2 / (1 + e^2x).
func tanh(x float32) float32 { return 1 - 2/(1+exp32(2*x)) }

// dirParams are the weights of one LSTM direction, gates in the order i, f, g, o (as
// PyTorch): z = Wx·x + b + U·h_{t−1}; c_t = σ(z_f)⊙c_{t−1} + σ(z_i)⊙tanh(z_g);
// h_t = σ(z_o)⊙tanh(c_t).
type dirParams struct {
	wx []float32 // 4H × E
	u  []float32 // 4H × H
	b  []float32 // 4H
}

// step computes one LSTM step from the input projection xp = Wx·x (4H), the previous
// hidden and cell states (nil for zeros), into act (the 4H gate activations), c, tc =
// tanh(c) and h. Training and inference share it, so both give the same bits.
func (d *dirParams) step(xp, hprev, cprev, act, c, tc, h []float32) {
	H := len(h)
	copy(act, xp)
	axpy(1, d.b, act)
	if hprev != nil {
		matVecAdd(d.u, hprev, act)
	}
	for j := range H {
		ig := sigmoid(act[j])
		fg := sigmoid(act[H+j])
		gg := tanh(act[2*H+j])
		og := sigmoid(act[3*H+j])
		act[j], act[H+j], act[2*H+j], act[3*H+j] = ig, fg, gg, og
		cv := ig * gg
		if cprev != nil {
			cv += fg * cprev[j]
		}
		c[j] = cv
		t := tanh(cv)
		tc[j] = t
		h[j] = og * t
	}
}

// stepBack back-propagates one step. dh is ∂L/∂h_t (all sources), dc the gradient
// reaching c_t from step t+1; on return dz holds ∂L/∂z (= ∂L/∂xp), dc is replaced by
// ∂L/∂c_{t−1}, and dhPrev (when hprev is not nil) receives Uᵀ·dz. du and db accumulate.
func (d *dirParams) stepBack(act, cprev, tc, hprev, dh, dc, dz, dhPrev, du, db []float32) {
	H := len(dh)
	for j := range H {
		ig, fg, gg, og := act[j], act[H+j], act[2*H+j], act[3*H+j]
		t := tc[j]
		dO := dh[j] * t
		dcj := dh[j]*og*(1-t*t) + dc[j]
		var cp float32
		if cprev != nil {
			cp = cprev[j]
		}
		dz[j] = dcj * gg * ig * (1 - ig)
		dz[H+j] = dcj * cp * fg * (1 - fg)
		dz[2*H+j] = dcj * ig * (1 - gg*gg)
		dz[3*H+j] = dO * og * (1 - og)
		dc[j] = dcj * fg
	}
	axpy(1, dz, db)
	if hprev == nil {
		return
	}
	for r, g := range dz {
		if g == 0 {
			continue
		}
		axpy(g, hprev, du[r*H:(r+1)*H])
		axpy(g, d.u[r*H:(r+1)*H], dhPrev)
	}
}

// exp32 is e^x in float32: x = k·ln 2 + r with |r| ≤ ln 2 / 2, a degree-6 Taylor
// polynomial for e^r (relative error below 2e-7), scaled by 2^k. x is clamped to
// [−87, 88], where e^x is a normal float32.
func exp32(x float32) float32 {
	x = min(max(x, -87), 88)
	const log2e, ln2hi, ln2lo = 1.44269504088896341, 0.693359375, -2.12194440e-4
	k := int32(math.Floor(float64(x*log2e + 0.5))) // exact; SSE4.1 ROUNDSD, no branch
	r := x - float32(k)*ln2hi - float32(k)*ln2lo
	p := 1 + r*(1+r*(0.5+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720))))))
	return p * math.Float32frombits(uint32(k+127)<<23)
}
