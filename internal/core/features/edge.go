package features

import (
	"math"
	"slices"
)

// labelNeg is the hash of the label that the edge feature is_neg tests.
var labelNeg = hashString("neg")

// emitter reduces feature keys to buckets: the feature functions append the products
// (bucket, value) of an arc to a slice that they hold in a local variable and return, so
// that the slice's length stays in a register from one feature to the next instead of
// being stored and loaded again through a pointer for each. EdgeScores queues them
// (pending) to add their products with its weights, and sets sib to the buckets of the
// sibling features of the head being scored; Edge and Arc copy them to a Vector.
type emitter struct {
	shift uint8
	num   Numeric
	sib   []uint32
}

// pending is the queue of EdgeScores' deferred products: the features of many arcs are
// queued first and their products with the weights w added after, arc by arc in the order
// they were queued (so to the same float32 as Vector.Dot). The weight loads of those arcs
// are then independent of one another and of the hashing, so the processor overlaps
// their cache misses (the weight tables are megabytes). The queue is summed whenever an
// arc ends with pendingMax products or more queued, so that its memory stays bounded
// (an arc's sibling features make the products of a sentence quadratic in the worst
// case). A Sentence holds one, so that its memory is reused.
type pending struct {
	w     []float32
	items []product
	ends  []int32   // ends[a]: the end in items of the a-th arc queued since the last sum
	z     []float32 // z[a]: the sum of the products of arc a of the sentence
}

// pendingMax is the number of queued products beyond which pending sums the arcs queued.
const pendingMax = 1 << 13

// product is a deferred product w[id]·v.
type product struct {
	id uint32
	v  float32
}

// add appends to ps the feature of key k with value v.
func (e *emitter) add(ps []product, k uint64, v float32) []product {
	return append(ps, product{uint32(k >> (e.shift & 63)), v})
}

// one returns the feature of key k with value 1.
func (e *emitter) one(k uint64) product { return product{uint32(k >> (e.shift & 63)), 1} }

// vector appends the features ps to x.
func vector(x *Vector, ps []product) {
	ids, vals := x.IDs, x.Vals
	for _, p := range ps {
		ids, vals = append(ids, p.id), append(vals, p.v)
	}
	x.IDs, x.Vals = ids, vals
}

// end closes the products of the arc being queued, and sums the queue when it is full.
func (q *pending) end() {
	q.ends = append(q.ends, int32(len(q.items)))
	if len(q.items) >= pendingMax {
		q.sums()
	}
}

// sums appends to q.z the sums of the products of the arcs queued, each added in the order
// its products were queued, and empties the queue. Each sum is a chain of dependent
// additions, but the chains of different arcs are independent: they are added four at a
// time, interleaved, so that the processor overlaps them. The weights are read at the
// buckets masked by len(q.w) − 1, which are the buckets: q.w is the table of Size()
// weights, a power of two, of the Config that made them (EdgeScores, Config.Bucket); so
// the loads need no bounds test.
func (q *pending) sums() {
	w := q.w
	if len(w) == 0 {
		return
	}
	mask := uint(len(w) - 1)
	start := func(a int) int32 {
		if a == 0 {
			return 0
		}
		return q.ends[a-1]
	}
	a := 0
	for ; a+4 <= len(q.ends); a += 4 {
		p0 := q.items[start(a):q.ends[a]]
		p1 := q.items[q.ends[a]:q.ends[a+1]]
		p2 := q.items[q.ends[a+1]:q.ends[a+2]]
		p3 := q.items[q.ends[a+2]:q.ends[a+3]]
		m := min(len(p0), len(p1), len(p2), len(p3))
		p0, p1, p2, p3 = p0[:m], p1[:m], p2[:m], p3[:m]
		var z0, z1, z2, z3 float32
		for i := range p0 {
			z0 += p0[i].times(w, mask)
			z1 += p1[i].times(w, mask)
			z2 += p2[i].times(w, mask)
			z3 += p3[i].times(w, mask)
		}
		q.z = append(q.z,
			add(z0, q.items[start(a)+int32(m):q.ends[a]], w),
			add(z1, q.items[q.ends[a]+int32(m):q.ends[a+1]], w),
			add(z2, q.items[q.ends[a+1]+int32(m):q.ends[a+2]], w),
			add(z3, q.items[q.ends[a+2]+int32(m):q.ends[a+3]], w))
	}
	for ; a < len(q.ends); a++ {
		q.z = append(q.z, add(0, q.items[start(a):q.ends[a]], w))
	}
	q.items, q.ends = q.items[:0], q.ends[:0]
}

// add returns z plus the products ps with w, a table of a power of two weights, added in
// order.
func add(z float32, ps []product, w []float32) float32 {
	if len(w) == 0 {
		return z
	}
	mask := uint(len(w) - 1)
	for _, p := range ps {
		z += p.times(w, mask)
	}
	return z
}

// times returns the product w[id]·v, the bucket id masked by mask: len(w) − 1 for a table
// of a power of two weights, which id is below (Config.Bucket).
func (p product) times(w []float32, mask uint) float32 { return w[uint(p.id)&mask] * p.v }

// numeric appends to ps numeric feature t with value v, raw and/or as bin b.
func (e *emitter) numeric(ps []product, t uint64, v float64, b int) []product {
	return e.numericKey(ps, t, v, binKey(t, b))
}

// binKeys holds BinKey(t, b) for the numeric edge templates t and the bins b of binCount.
var binKeys = func() (k [tIndexH + 1][10]uint64) {
	for _, t := range [...]uint64{tChildrenH, tChildrenN, tDepthN, tCharLenH, tIndexH} {
		for b := range k[t] {
			k[t][b] = BinKey(t, b)
		}
	}
	return k
}()

// binKey returns BinKey(t, b) for a numeric edge template t and a bin b of binCount, from
// binKeys.
func binKey(t uint64, b int) uint64 { return binKeys[t][b] }

// numericKey appends to ps numeric feature t with value v as numeric does, its bin's key
// being bk.
func (e *emitter) numericKey(ps []product, t uint64, v float64, bk uint64) []product {
	if e.num != NumBinned {
		if v != 0 {
			ps = e.add(ps, key(t), float32(v))
		}
	}
	if e.num != NumRaw {
		ps = e.add(ps, bk, 1)
	}
	return ps
}

// headKeys are the keys of an arc's features, or their prefixes, that depend on its head
// h alone: computed once per head for the arcs out of it (EdgeScores).
type headKeys struct {
	posH    uint64 // mix(key(tPosH), pos[h])
	lemmaH  uint64 // mix(key(tLemmaHLabel), lemma[h]), to mix with the label
	posPair uint64 // mix(key(tPosPair), pos[h]), to mix with pos[n] and the label
	bilex   uint64 // mix(key(tBilex), lemma[h]), to mix with word[n]
	// the numeric features of h: values and the keys of their bins
	nh, lenH                   float64
	childrenH, charLenH, index uint64
}

// headKeys sets k for head h.
func (x *Sentence) headKeys(k *headKeys, h int) {
	nh := x.tree.NumChildren(h)
	*k = headKeys{
		posH:      mix(key(tPosH), x.pos[h]),
		lemmaH:    mix(key(tLemmaHLabel), x.lemma[h]),
		posPair:   mix(key(tPosPair), x.pos[h]),
		bilex:     mix(key(tBilex), x.lemma[h]),
		nh:        float64(nh),
		lenH:      float64(x.lens[h]),
		childrenH: binKey(tChildrenH, binCount(nh)),
		charLenH:  binKey(tCharLenH, binCount(x.lens[h])),
		index:     binKey(tIndexH, binCount(h)),
	}
}

// binCount bins a count or index.
func binCount(v int) int {
	switch {
	case v <= 4:
		return v
	case v <= 7:
		return 5
	case v <= 12:
		return 6
	case v <= 20:
		return 7
	case v <= 35:
		return 8
	}
	return 9
}

// BinFrac returns the bin of a fraction f: tenths, from 0 to 20 (f is clamped to [0, 2]).
func BinFrac(f float64) int { return int(math.Round(10 * min(max(f, 0), 2))) }

// arc appends to ps the edge features (§3.1) of an arc h → n with label hash rel. The
// siblings of n are the children of h in the parse other than n; the child counts and
// the depth of n are those of the parse. hk holds h's keys (Sentence.headKeys).
func (c *Config) arc(ps []product, e *emitter, x *Sentence, hk *headKeys, h, n int, rel uint64) []product {
	t := x.tree
	r, m := x.relKeys(rel)
	ps = e.add(ps, r[tDep], 1)
	ps = e.add(ps, hk.posH, 1)
	ps = e.add(ps, mix(key(tPosN), x.pos[n]), 1)
	ps = e.add(ps, mix(key(tLemmaN), x.lemma[n]), 1)
	ps = e.add(ps, mix(hk.lemmaH, rel), 1)
	if rel == labelNeg {
		ps = e.add(ps, key(tIsNeg), 1)
	}
	for i, s := range t.Children(h) {
		if int(s) == n {
			continue
		}
		if e.sib != nil { // their buckets, hashed once for the head
			ps = append(ps, product{e.sib[2*i], 1}, product{e.sib[2*i+1], 1})
			continue
		}
		a, b := siblingKeys(x, h, int(s))
		ps = e.add(ps, a, 1)
		ps = e.add(ps, b, 1)
	}
	ps = e.numericKey(ps, tChildrenH, hk.nh, hk.childrenH)
	nn := t.NumChildren(n)
	ps = e.numeric(ps, tChildrenN, float64(nn), binCount(nn))
	d := t.Depth(n)
	ps = e.numeric(ps, tDepthN, float64(d), binCount(d))
	ps = e.numericKey(ps, tCharLenH, hk.lenH, hk.charLenH)
	ps = e.numericKey(ps, tIndexH, float64(h), hk.index)
	if c.Conjoined {
		ps = conjoin(ps, e, x, hk, h, n, rel, r, m)
	}
	if c.Query {
		ps = queryFeatures(ps, e, x, h, n, r, m)
	}
	return ps
}

// relTemplates are the templates whose keys start with the arc's label, mix(key(t),
// rel): the keys that relKeys caches.
var relTemplates = [...]uint64{tDep,
	tDirPosN, tDist, tGrandLabel, tPositionN, tWordNLabel, tMarkerN, tPunctN, tLenS,
	tChildrenNLabel, tDepthLabel, tPrevPOS, tNextPOS, tSubSize, tSubFrac, tPrevWord,
	tNextWord, tPOSTri, tOwnLabel, tRealHead, tHeadDir, tLeftChild, tRightChild, tPrevSib,
	tNextSib, tHeadMarker,
	tQRelN, tQRelH, tQWords, tQTree, tQRelPOS, tQRelPair}

// relPrefix holds mix(key(t), rel) for the templates t of relTemplates (the others are 0),
// indexed by template.
type relPrefix [tQRelPair + 1]uint64

// relCacheSize is the number of labels relKeys holds at once: more than a parser's label
// set, so that a label is seldom evicted by another.
const relCacheSize = 128

// relMemo holds the whole keys of the features of one label whose values after the label
// are small counts or codes, mix(r[t], value) (or mix(mix(r[t], a), b)), indexed by the
// values: filled as they are met (0 marks a key not computed yet) and kept with the
// label's relPrefix, so that an arc reads them instead of hashing them.
type relMemo struct {
	dist      [2][10]uint64 // tDist: direction, distance bin
	position  [21]uint64    // tPositionN: BinFrac
	punct     [2]uint64     // tPunctN
	lenS      [10]uint64    // tLenS: bin
	childrenN [10]uint64    // tChildrenNLabel: bin
	depth     [10]uint64    // tDepthLabel: bin
	subSize   [10]uint64    // tSubSize: bin
	subFrac   [21]uint64    // tSubFrac: BinFrac
	qRelN     [8]uint64     // tQRelN: relation to Q
	qRelH     [8]uint64     // tQRelH
	qWords    [3][10]uint64 // tQWords: side, bin
	qTree     [10]uint64    // tQTree: bin
	qPair     [8][8]uint64  // tQRelPair: h's relation, n's
}

// memo returns *k, set to mix(a, b) first when it is 0 (not computed yet; a key that is 0
// is computed every time, and is the same).
func memo(k *uint64, a, b uint64) uint64 {
	if *k == 0 {
		*k = mix(a, b)
	}
	return *k
}

// memo2 returns *k, set to mix(mix(a, b), c) first when it is 0, as memo.
func memo2(k *uint64, a, b, c uint64) uint64 {
	if *k == 0 {
		*k = mix(mix(a, b), c)
	}
	return *k
}

// relCache maps label hashes to their relPrefix and relMemo, direct-mapped by the hash's
// low bits: about 260 KB, of which an arc reads its label's entry only.
type relCache struct {
	rel  [relCacheSize]uint64
	ok   [relCacheSize]bool
	keys [relCacheSize]relPrefix
	memo [relCacheSize]relMemo
}

// relKeys returns the keys mix(key(t), rel) of the templates of relTemplates, and the
// label's memo of whole keys (relMemo). They depend on the label only, and a parse has
// few labels, so they are computed once per label and kept across sentences (Reset does
// not clear them): an arc's features then hash the label into the key once instead of
// once per template, and the features of small values not at all once met. The cache is
// allocated on the first call.
func (x *Sentence) relKeys(rel uint64) (*relPrefix, *relMemo) {
	c := x.rels
	if c == nil {
		c = new(relCache)
		x.rels = c
	}
	i := rel % relCacheSize
	if !c.ok[i] || c.rel[i] != rel {
		for _, t := range relTemplates {
			c.keys[i][t] = mix(key(t), rel)
		}
		c.memo[i] = relMemo{}
		c.rel[i], c.ok[i] = rel, true
	}
	return &c.keys[i], &c.memo[i]
}

// siblingKeys returns the keys of the two sibling features that child s of h gives the
// arcs from h to its other children: its word, and its word with h's lemma.
func siblingKeys(x *Sentence, h, s int) (uint64, uint64) {
	w := x.word[s]
	return mix(key(tSibling), w), mix(mix(key(tSiblingLemma), w), x.lemma[h])
}

// EdgeScores sets edge[n-1] to Edge(x, n)·w and root[n-1] to Arc(x, 0, n, RootLabel)·w
// (0 where head(n) is the root) for every token n, as Vector.Dot of those vectors gives
// them, to the bit, without building them: the products are added in the same order, and
// the buckets of each child's sibling features are hashed once per head instead of once
// per other child of the head. The features of many arcs are hashed first and their
// weights loaded after (pending), in bounded memory of x that is reused. sib is
// scratch memory, returned for the next call. edge and root must have room for N entries;
// w must have Size() entries.
func (c *Config) EdgeScores(x *Sentence, w []float32, edge, root []float64, sib []uint32) []uint32 {
	t := x.tree
	if t == nil {
		return sib
	}
	q := &x.pend
	q.w, q.items, q.ends, q.z = w[:c.Size()], q.items[:0], q.ends[:0], q.z[:0]
	e := emitter{shift: c.shift(), num: c.Numeric}
	var hk headKeys
	// Queue the arcs, each head's children in turn, then the arcs ROOT → n of the tokens
	// whose head is not the root; then add their products.
	for h := 0; h <= t.N(); h++ {
		kids := t.Children(h)
		if len(kids) == 0 && h != 0 {
			continue // a leaf heads no arc: its keys are not needed
		}
		sib = slices.Grow(sib[:0], 2*len(kids))[:2*len(kids)]
		for i, s := range kids {
			a, b := siblingKeys(x, h, int(s))
			sib[2*i], sib[2*i+1] = uint32(a>>e.shift), uint32(b>>e.shift)
		}
		e.sib = sib
		x.headKeys(&hk, h)
		for _, n := range kids {
			q.items = c.arc(q.items, &e, x, &hk, h, int(n), x.rel[n])
			q.end()
		}
		if h == 0 {
			for n := 1; n <= t.N(); n++ {
				if t.Head(n) != 0 {
					q.items = c.arc(q.items, &e, x, &hk, 0, n, rootLabel)
					q.end()
				}
			}
		}
	}
	q.sums()
	q.w = nil
	a := 0
	for h := 0; h <= t.N(); h++ {
		for _, n := range t.Children(h) {
			edge[n-1] = float64(q.z[a])
			a++
		}
		if h == 0 {
			for n := 1; n <= t.N(); n++ {
				root[n-1] = 0
				if t.Head(n) != 0 {
					root[n-1] = float64(q.z[a])
					a++
				}
			}
		}
	}
	return sib
}

// Edge appends to out the edge features of the edge head(n) → n of the sentence x, for
// 1 ≤ n ≤ N (no-op otherwise). The features do not depend on c's stateful options.
func (c *Config) Edge(x *Sentence, n int, out *Vector) {
	if x.tree == nil || n < 1 || n > x.tree.N() {
		return
	}
	e := emitter{shift: c.shift(), num: c.Numeric}
	var hk headKeys
	h := x.tree.Head(n)
	x.headKeys(&hk, h)
	x.emitted = c.arc(x.emitted[:0], &e, x, &hk, h, n, x.rel[n])
	vector(out, x.emitted)
}

// RootLabel is the label of the arcs ROOT → n that the ILP baseline adds from the root to
// every token (Filippova & Altun 2013, as the authors' filippova_tree_transform does).
const RootLabel = "ROOT"

var rootLabel = hashString(RootLabel)

// Arc appends to out the edge features of an arc h → n with label rel, which need not be
// an edge of the parse: the ILP baseline scores the parse edges and the added arcs
// ROOT → n (h = 0, rel = RootLabel). As for the authors' code, the siblings of n are the
// children of h in the parse other than n, and the child counts and the depth of n are
// those of the parse. Arc(x, head(n), n, label of n, out) appends what Edge(x, n, out)
// does. It is a no-op unless 0 ≤ h ≤ N, 1 ≤ n ≤ N and h ≠ n.
func (c *Config) Arc(x *Sentence, h, n int, rel string, out *Vector) {
	if x.tree == nil || n < 1 || n > x.tree.N() || h < 0 || h > x.tree.N() || h == n {
		return
	}
	r := rootLabel
	if rel != RootLabel {
		r = hashString(rel)
	}
	e := emitter{shift: c.shift(), num: c.Numeric}
	var hk headKeys
	x.headKeys(&hk, h)
	x.emitted = c.arc(x.emitted[:0], &e, x, &hk, h, n, r)
	vector(out, x.emitted)
}
