package features

import (
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

// Relations of a token to the query (Config.Query): the first that holds, in this order.
const (
	qNone       = iota
	qIn         // a query token
	qParent     // the head of a query token
	qChild      // a child of a query token
	qSibling    // another child of a query token's head (the root's too)
	qAncestor   // above a query token (not its head)
	qDescendant // below a query token (not its child)
	qRoot       // the root, the tail of the ROOT arcs
)

// qFar is the distance of a token that no query token reaches: none, or only through the
// root. Distances are capped just below it.
const qFar = 255

// SetQuery records the query tokens q (1-based ids) for the query features, in time
// linear in the sentence; ids outside 1..N are ignored. Reset forgets them, and without
// a query every token reads as unrelated to it and far from it.
func (x *Sentence) SetQuery(q []int) {
	t := x.tree
	if t == nil {
		return
	}
	n := t.N()
	x.qrel = reuse.Resize(x.qrel, n+1)
	x.qside = reuse.Resize(x.qside, n+1)
	x.qwords = reuse.Resize(x.qwords, n+1)
	x.qtree = reuse.Resize(x.qtree, n+1)
	x.qbelow = reuse.Resize(x.qbelow, n+1)
	clear(x.qrel)
	clear(x.qside)
	clear(x.qbelow)
	for v := range x.qtree {
		x.qtree[v], x.qwords[v] = qFar, qFar
	}
	x.queue = x.queue[:0]
	for _, v := range q {
		if v >= 1 && v <= n && x.qrel[v] != qIn {
			x.qrel[v], x.qtree[v] = qIn, 0
			x.queue = append(x.queue, int32(v))
		}
	}
	nq := len(x.queue)
	if nq == 0 {
		x.qrel = x.qrel[:0]
		return
	}
	// The distance in the tree: breadth first from Q over heads and children, not
	// through the root.
	for i := 0; i < len(x.queue); i++ {
		v := int(x.queue[i])
		d := min(x.qtree[v]+1, qFar-1)
		if h := t.Head(v); h >= 1 && x.qtree[h] == qFar {
			x.qtree[h] = d
			x.queue = append(x.queue, int32(h))
		}
		for _, c := range t.Children(v) {
			if x.qtree[c] == qFar {
				x.qtree[c] = d
				x.queue = append(x.queue, c)
			}
		}
	}
	// The distance in words, and the side of the nearest query token (before on ties).
	last := 0
	for v := 1; v <= n; v++ {
		if x.qrel[v] == qIn {
			last = v
		}
		if last > 0 {
			x.qwords[v], x.qside[v] = uint8(min(v-last, qFar-1)), 1
		}
	}
	last = 0
	for v := n; v >= 1; v-- {
		if x.qrel[v] == qIn {
			last = v
		}
		if d := uint8(min(last-v, qFar-1)); last > 0 && d < x.qwords[v] {
			x.qwords[v], x.qside[v] = d, 2
		}
	}
	// The relations, from the first in the order to the last: each pass marks only the
	// tokens that no earlier one did. x.queue[:nq] still holds Q (the search above only
	// appended after it).
	qs := x.queue[:nq]
	for _, v := range qs {
		x.markQuery(t.Head(int(v)), qParent)
	}
	for _, v := range qs {
		for _, c := range t.Children(int(v)) {
			x.markQuery(int(c), qChild)
		}
	}
	for _, v := range qs {
		for _, s := range t.Children(t.Head(int(v))) {
			x.markQuery(int(s), qSibling)
		}
	}
	for _, v := range qs {
		// Stop at a query token or a parent of one, whose own walk goes on above it,
		// and at an ancestor already marked: each token is climbed through once.
		for a := t.Head(t.Head(int(v))); a >= 1 && x.qrel[a] != qIn && x.qrel[a] != qParent && x.qrel[a] != qAncestor; a = t.Head(a) {
			x.markQuery(a, qAncestor)
		}
	}
	// Descendants: top down from the root.
	x.queue = append(x.queue[:0], 0)
	for i := 0; i < len(x.queue); i++ {
		v := int(x.queue[i])
		for _, c := range t.Children(v) {
			x.qbelow[c] = v >= 1 && (x.qbelow[v] || x.qrel[v] == qIn)
			if x.qbelow[c] {
				x.markQuery(int(c), qDescendant)
			}
			x.queue = append(x.queue, c)
		}
	}
	x.qrel[0] = qRoot
}

// markQuery gives token v the relation r to the query unless it has one.
func (x *Sentence) markQuery(v int, r uint8) {
	if v >= 1 && x.qrel[v] == qNone {
		x.qrel[v] = r
	}
}

// queryFeatureCount is the number of query features of an arc.
const queryFeatureCount = 6

// queryFeatures appends to ps the query features (Config.Query) of an arc h → n, whose
// label's prefixed keys are r and memo m (relKeys); without a query (SetQuery) every
// token reads as qNone and far from it.
func queryFeatures(ps []product, e *emitter, x *Sentence, h, n int, r *relPrefix, m *relMemo) []product {
	var rn, rh, side uint64 = qNone, qNone, 0
	words, tree := uint64(binCount(qFar)), uint64(binCount(qFar))
	if h == 0 {
		rh = qRoot
	}
	if len(x.qrel) > 0 {
		rn, rh, side = uint64(x.qrel[n]), uint64(x.qrel[h]), uint64(x.qside[n])
		words, tree = uint64(binCount(int(x.qwords[n]))), uint64(binCount(int(x.qtree[n])))
	}
	at := len(ps)
	ps = slices.Grow(ps, queryFeatureCount)[:at+queryFeatureCount]
	f := (*[queryFeatureCount]product)(ps[at:]) // its features in turn, each in its place
	f[0] = e.one(memo(&m.qRelN[rn], r[tQRelN], rn))
	f[1] = e.one(memo(&m.qRelH[rh], r[tQRelH], rh))
	f[2] = e.one(memo2(&m.qWords[side][words], r[tQWords], side, words))
	f[3] = e.one(memo(&m.qTree[tree], r[tQTree], tree))
	f[4] = e.one(mix(mix(r[tQRelPOS], rn), x.pos[n]))
	f[5] = e.one(memo2(&m.qPair[rh][rn], r[tQRelPair], rh, rn))
	return ps
}
