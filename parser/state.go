package parser

import (
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

// The transition system is arc-hybrid (Kuhlmann, Gómez-Rodríguez & Satta 2011) with the
// artificial root at the bottom of the stack. Tokens are numbered 1..n, 0 is the root.
// The buffer is always a suffix i..n of the sentence.
//
//	SHIFT  (σ, i|β)      ⇒ (σ|i, β)
//	LEFT   (σ|s0, i|β)   ⇒ (σ, i|β)   and the arc i → s0
//	RIGHT  (σ|s1|s0, β)  ⇒ (σ|s1, β)  and the arc s1 → s0
//
// RIGHT from the root (s1 = 0) is only allowed once the buffer is empty, so the root gets
// exactly one dependent and every terminal configuration is a single-rooted tree.

const (
	actShift = iota
	actLeft
	actRight
	numActs
)

// state is a parser configuration plus the bookkeeping the features need.
type state struct {
	n     int32
	i     int32   // first buffer token; the buffer is empty when i > n
	stack []int32 // stack[0] == 0 (the root)
	head  []int32 // head[k], -1 while unattached; index 0 unused
	label []int32 // class index of the label of k, -1 while unattached
	// Nearest and second-nearest outermost children: l1 is the leftmost left child,
	// l2 the second leftmost; r1 the rightmost, r2 the second rightmost. 0 means none.
	l1, l2, r1, r2 []int32
	nl, nr         []int32  // number of left and right children
	lset, rset     []uint64 // bit sets of the labels of left and right children
}

// reset prepares st for a sentence of n tokens, reusing memory.
func (st *state) reset(n int) {
	st.n = int32(n)
	st.i = 1
	st.stack = append(slices.Grow(st.stack[:0], n+1), 0)
	st.head = reuse.Resize(st.head, n+1)
	st.label = reuse.Resize(st.label, n+1)
	st.l1 = reuse.Resize(st.l1, n+1)
	st.l2 = reuse.Resize(st.l2, n+1)
	st.r1 = reuse.Resize(st.r1, n+1)
	st.r2 = reuse.Resize(st.r2, n+1)
	st.nl = reuse.Resize(st.nl, n+1)
	st.nr = reuse.Resize(st.nr, n+1)
	st.lset = reuse.Resize(st.lset, n+1)
	st.rset = reuse.Resize(st.rset, n+1)
	for k := range st.head {
		st.head[k] = -1
		st.label[k] = -1
	}
	clear(st.l1)
	clear(st.l2)
	clear(st.r1)
	clear(st.r2)
	clear(st.nl)
	clear(st.nr)
	clear(st.lset)
	clear(st.rset)
}

func (st *state) terminal() bool { return st.i > st.n && len(st.stack) == 1 }

// valid reports whether action a is allowed.
func (st *state) valid(a int) bool {
	switch a {
	case actShift:
		return st.i <= st.n
	case actLeft:
		return len(st.stack) >= 2 && st.i <= st.n
	case actRight:
		return len(st.stack) >= 3 || (len(st.stack) == 2 && st.i > st.n)
	}
	return false
}

// forced returns the only valid action, or -1 when there is a choice: SHIFT when the
// stack holds only the root, RIGHT once the buffer is empty.
func (st *state) forced() int {
	switch {
	case st.i > st.n:
		return actRight
	case len(st.stack) == 1:
		return actShift
	}
	return -1
}

// arc returns the head and dependent of arc action a (valid, not SHIFT).
func (st *state) arc(a int) (h, d int32) {
	d = st.stack[len(st.stack)-1]
	if a == actLeft {
		return st.i, d
	}
	return st.stack[len(st.stack)-2], d
}

// apply performs a valid action; lab is the label class for arc actions.
func (st *state) apply(a int, lab int32) {
	if a == actShift {
		st.stack = append(st.stack, st.i)
		st.i++
		return
	}
	h, d := st.arc(a)
	st.stack = st.stack[:len(st.stack)-1]
	st.attach(h, d, lab)
}

func (st *state) attach(h, d, lab int32) {
	st.head[d] = h
	st.label[d] = lab
	bit := uint64(1) << (uint(lab) & 63)
	if d < h {
		st.nl[h]++
		st.lset[h] |= bit
		switch {
		case st.l1[h] == 0 || d < st.l1[h]:
			st.l2[h] = st.l1[h]
			st.l1[h] = d
		case st.l2[h] == 0 || d < st.l2[h]:
			st.l2[h] = d
		}
	} else {
		st.nr[h]++
		st.rset[h] |= bit
		switch {
		case d > st.r1[h]:
			st.r2[h] = st.r1[h]
			st.r1[h] = d
		case d > st.r2[h]:
			st.r2[h] = d
		}
	}
}

// cost returns the number of gold arcs that action a (valid) makes unreachable, given the
// gold heads (gold[k] for k in 1..n, a projective tree). Arc-hybrid is arc-decomposable
// for projective trees, so this is the exact dynamic-oracle cost (Goldberg & Nivre 2013).
func (st *state) cost(a int, gold []int32) int {
	n, i := st.n, st.i
	s0 := st.stack[len(st.stack)-1]
	c := 0
	switch a {
	case actShift:
		// i can no longer take a head in the stack below s0, nor dependents in the stack.
		g := gold[i]
		for _, k := range st.stack {
			if k != s0 && g == k {
				c++
			}
			if k != 0 && gold[k] == i {
				c++
			}
		}
	case actLeft:
		// s0 gets head i: it loses a gold head in s1 or β\{i}, and its dependents in β.
		g := gold[s0]
		if g == st.stack[len(st.stack)-2] || g > i {
			c++
		}
		for k := i; k <= n; k++ {
			if gold[k] == s0 {
				c++
			}
		}
	case actRight:
		// s0 gets head s1: it loses a gold head in β, and its dependents in β.
		if gold[s0] >= i {
			c++
		}
		for k := i; k <= n; k++ {
			if gold[k] == s0 {
				c++
			}
		}
	}
	return c
}
