package lr

import (
	"fmt"
	"math"
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// FeatureSet selects the features of a VERTEX ADDITION decision (Handler & O'Connor 2019,
// docs/features.md): the decision type (§3.2), the edge features of the shared edge layer
// (Edge, §3.1), and with Stateful the stateful (§3.3) and interaction (§3.4) features. The
// model file records every field but Edge.Conjoined and Edge.Query.
type FeatureSet struct {
	// Stateful adds the stateful (§3.3) and interaction (§3.4) features: VA_LR. Without it
	// the features are the local ones only: ABLATED.
	Stateful bool
	// GovEdge is the edge described by a GOVERNOR decision.
	GovEdge GovEdge
	// DisconnectedEdge gives DISCONNECTED decisions the edge features of v's incoming edge;
	// the authors give them only the type and the label.
	DisconnectedEdge bool
	// CrossAll crosses every stateful feature with type and label, as the paper says; the
	// authors cross only the position indicators (left/middle/right) and the history.
	CrossAll bool
	// Edge configures the edge features and the weight table (Edge.Bits).
	Edge features.Config
}

// GovEdge selects the edge whose features describe a GOVERNOR decision.
type GovEdge uint8

// The GOVERNOR edge choices.
const (
	// GovIncoming uses v's own incoming edge head(v) → v, as the authors' code does.
	GovIncoming GovEdge = iota
	// GovChild uses the edge v → u to the leftmost child u of v in C, as the paper says.
	GovChild
)

// Validate reports whether c is usable; its error wraps features.ErrConfig.
func (c FeatureSet) Validate() error {
	if err := c.Edge.Validate(); err != nil {
		return err
	}
	if c.GovEdge > GovChild {
		return fmt.Errorf("%w: GovEdge = %d", features.ErrConfig, c.GovEdge)
	}
	return nil
}

// String describes c in one line.
func (c FeatureSet) String() string {
	gov := "incoming"
	if c.GovEdge == GovChild {
		gov = "child"
	}
	return fmt.Sprintf("stateful=%t gov=%s disconnected-edge=%t cross-all=%t %s",
		c.Stateful, gov, c.DisconnectedEdge, c.CrossAll, c.Edge)
}

// Size returns the number of weight buckets, 2^Edge.Bits.
func (c FeatureSet) Size() int { return c.Edge.Size() }

// Decision types (§3.2).
const (
	typeChild        = 1 // head(v) ∈ C
	typeGovernor     = 2 // a child of v is in C
	typeDisconnected = 3 // neither
)

// Templates of the decision features, in the range that package features reserves for
// them (features.FirstMethodTemplate to features.LastMethodTemplate). Their numbers are
// part of features.Version.
const (
	// local
	tType uint64 = features.FirstMethodTemplate + iota // decision type
	// stateful (§3.3)
	tPosition  // round(v/n, 1)
	tCRGoal    // b / ℓ(S)
	tQFrac     // ℓ(Q) / b
	tRemaining // (ℓ(C) + len(v)) / b
	tMiddle    // min C < v < max C
	tRAdd      // v > max C
	tLAdd      // v < min C
	tHasPOS    // (has_already, POS(u))
	tHasChild  // (has_already_d, label of a child edge of u)
	tHasDep    // (has_already_d_dep, label of u's incoming edge)
	// crossings (§3.4)
	tXDep     // (f, dep)
	tXType    // (f, type)
	tXTypeDep // (f, type, dep)
)

// history is the set of history features (§3.3) of C, as feature keys. It is maintained
// incrementally: add(u) when u joins C. A history feature is present or absent (the
// authors' feature dictionary keeps one entry per key), so keys holds distinct keys, and
// crossed their crossings' key prefixes (crossKey), position for position: every
// decision crosses every history feature.
type history struct {
	keys    []uint64
	crossed []crossKey
}

// reset empties h.
func (h *history) reset() { h.keys, h.crossed = h.keys[:0], h.crossed[:0] }

func (h *history) insert(k uint64) {
	for _, o := range h.keys {
		if o == k {
			return
		}
	}
	h.keys = append(h.keys, k)
	h.crossed = append(h.crossed, crossKeyOf(k))
}

// add records that u joined C: (has_already, POS(u)), (has_already_d, l) for the label l
// of every child edge of u in the full parse, and (has_already_d_dep, label of u).
func (h *history) add(x *features.Sentence, u int) {
	t := x.Tree()
	if t == nil || u < 1 || u > t.N() {
		return
	}
	h.insert(features.Mix(features.Key(tHasPOS), x.POS(u)))
	for _, c := range t.Children(u) {
		h.insert(features.Mix(features.Key(tHasChild), x.Label(int(c))))
	}
	h.insert(features.Mix(features.Key(tHasDep), x.Label(u)))
}

// scratch is the per-run data of an extractor, kept in va.State.Scratch.
type scratch struct {
	sentence features.Sentence
	history  history
	vector   features.Vector
	// err is the error of the last Start (a sentence that does not match its tree), or nil.
	err error
	// local holds the sums of the local features of the decisions of the runs on one
	// input (localCache).
	local localCache
}

// localCache holds w·x of the local features (the type and edge part, extractor.local)
// of the decisions met in the runs on one input: a sentence, its tree and its query,
// which Start compares with the last run's, field by field (and then reads the sentence
// again only when they differ). A run that a caller repeats
// on the same input with another budget (a snippet over its display budget is
// compressed again) then finds the local part of its decisions summed: it depends on
// the decision's type and edge only. Only the stateful part is computed again, and
// added to the sum in the order of Features, so Score is the same to the bit. The
// input is kept as copies of what the features read: the forms, tags and labels of the
// tokens (strings that share the sentence's memory), the tree's heads and the query. The
// extractor and the weights are held by pointer, so that no other model's can take their
// memory while the sums are kept. Its memory grows to the longest sentence and is reused.
type localCache struct {
	ext   *extractor
	w     *float32 // the first weight of the table the sums are of, nil when none is
	toks  []localToken
	heads []int
	query []int
	// sum[3n+t−1] is the sum of decision type t with edge n, when known[3n+t−1].
	sum   []float32
	known []bool
}

// localToken is what the features read of a token.
type localToken struct{ form, xpos, rel string }

// holds reports whether the sentence s, its tree t and query q are the input of the
// sums of f: that of f's last run.
func (c *localCache) holds(f *extractor, s *syntax.Sentence, t *syntax.Tree, q []int) bool {
	return f != nil && c.ext == f && s != nil && t != nil && c.same(s, t, q)
}

// record makes the sentence s (tree t, query q) the input of the sums of f, which are
// forgotten.
func (c *localCache) record(f *extractor, s *syntax.Sentence, t *syntax.Tree, q []int) {
	c.ext, c.w = f, nil
	c.toks = c.toks[:0]
	for i := range s.Tokens {
		k := &s.Tokens[i]
		c.toks = append(c.toks, localToken{k.Form, k.XPOS, k.Rel})
	}
	c.heads = c.heads[:0]
	for v := 1; v <= t.N(); v++ {
		c.heads = append(c.heads, t.Head(v))
	}
	c.query = append(c.query[:0], q...)
	c.sum = reuse.Resize(c.sum, 3*(t.N()+1))
	c.known = reuse.Resize(c.known, 3*(t.N()+1))
	clear(c.known)
}

// same reports whether the sentence s, its tree t and query q are the input of the sums.
func (c *localCache) same(s *syntax.Sentence, t *syntax.Tree, q []int) bool {
	if len(s.Tokens) != len(c.toks) || t.N() != len(c.heads) || !slices.Equal(q, c.query) {
		return false
	}
	for i := range s.Tokens {
		k, o := &s.Tokens[i], &c.toks[i]
		if k.Form != o.form || k.XPOS != o.xpos || k.Rel != o.rel || t.Head(i+1) != c.heads[i] {
			return false
		}
	}
	return true
}

// forget drops the input and the sums: a run whose sentence could not be read.
func (c *localCache) forget() { c.ext, c.w = nil, nil }

// lookup returns the sum of decision type typ with edge n for the weights w, and whether
// it is known; a table other than that of the sums forgets them.
func (c *localCache) lookup(typ, n int, w []float32) (float32, bool) {
	if c.ext == nil || len(w) == 0 {
		return 0, false
	}
	if c.w != &w[0] {
		c.w = &w[0]
		clear(c.known)
		return 0, false
	}
	i := 3*n + typ - 1
	return c.sum[i], c.known[i]
}

// store records the sum z of decision type typ with edge n (after lookup).
func (c *localCache) store(typ, n int, z float32) {
	if c.ext == nil || c.w == nil {
		return
	}
	i := 3*n + typ - 1
	c.sum[i], c.known[i] = z, true
}

// extractor computes the features of VERTEX ADDITION decisions. It implements va.Tracker:
// Start and Added keep the Sentence and history of the run in a *scratch in
// va.State.Scratch. It is read-only after construction and safe for concurrent use.
type extractor struct {
	cfg   FeatureSet
	vocab *features.Vocab
}

// newExtractor returns an extractor for cfg. Words outside vocab read as "<unk>"; a nil
// vocab keeps every word.
func newExtractor(cfg FeatureSet, vocab *features.Vocab) (*extractor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &extractor{cfg: cfg, vocab: vocab}, nil
}

// scratchOf returns the *scratch of s, creating it when s.Scratch holds something else.
func scratchOf(s *va.State) *scratch {
	sc, ok := s.Scratch.(*scratch)
	if !ok {
		sc = new(scratch)
		s.Scratch = sc
	}
	return sc
}

// Start prepares the run: the sentence values, the query (Edge.Query) and the history of
// C = Q. A run without a Sentence, or whose Sentence does not match the tree, records an
// error in scratch.err, and every decision of that run then has no features
// (method.Compressor rejects such inputs before the run).
func (f *extractor) Start(s *va.State) {
	sc := scratchOf(s)
	sc.history.reset()
	sent, tree, q := s.Sentence(), s.Tree(), s.Query()
	if sc.local.holds(f, sent, tree, q) {
		// The input of the last run, read without error: its values stand.
		sc.sentence.Rebind(sent, tree)
	} else {
		sc.err = sc.sentence.Reset(sent, tree, f.vocab)
		if sc.err != nil {
			sc.local.forget()
			return
		}
		if f.cfg.Edge.Query {
			sc.sentence.SetQuery(q)
		}
		sc.local.record(f, sent, tree, q)
	}
	if f.cfg.Stateful {
		for _, u := range s.Query() {
			sc.history.add(&sc.sentence, u)
		}
		for _, u := range s.Accepted() {
			sc.history.add(&sc.sentence, u)
		}
	}
}

// Added records that v joined C.
func (f *extractor) Added(s *va.State, v int) {
	if !f.cfg.Stateful {
		return
	}
	sc := scratchOf(s)
	sc.history.add(&sc.sentence, v)
}

// decisionType returns the type of candidate v (typeChild, typeGovernor or
// typeDisconnected) and the vertex n whose incoming edge describes the decision: v for
// CHILD and DISCONNECTED decisions and, for GOVERNOR ones, v or its leftmost child in C
// (GovChild).
func (f *extractor) decisionType(s *va.State, v int) (typ, n int) {
	t := s.Tree()
	if h := t.Head(v); h > 0 && s.InC(h) {
		return typeChild, v
	}
	for _, c := range t.Children(v) {
		if s.InC(int(c)) {
			if f.cfg.GovEdge == GovChild {
				return typeGovernor, int(c)
			}
			return typeGovernor, v
		}
	}
	return typeDisconnected, v
}

// Features computes the features of deciding candidate v in state s into the scratch's
// Vector and returns it. The Vector is valid until the next call with the same s. Start
// must have been called for the run (va.Compressor does so for Trackers). It costs
// O(features) and allocates nothing once the buffers have grown.
func (f *extractor) Features(s *va.State, v int) *features.Vector {
	sc := scratchOf(s)
	sc.vector.Reset()
	f.extract(s, sc, v, &sc.vector)
	return &sc.vector
}

// extract appends the features of candidate v to out: the local ones (the type and the
// edge features), then the stateful features (the order is part of the scores' float32
// sums).
func (f *extractor) extract(s *va.State, sc *scratch, v int, out *features.Vector) {
	x := &sc.sentence
	t := x.Tree()
	if t == nil || v < 1 || v > t.N() {
		return
	}
	typ, n := f.decisionType(s, v)
	f.local(x, typ, n, out)
	f.stateful(s, sc, v, typ, n, out)
}

// dot returns w·Features(s, v), to the bit, with the sum of the local features from the
// scratch's localCache when a run on the same input met the same type and edge.
func (f *extractor) dot(s *va.State, v int, w []float32) float32 {
	sc := scratchOf(s)
	x := &sc.sentence
	t := x.Tree()
	if t == nil || v < 1 || v > t.N() {
		return 0
	}
	typ, n := f.decisionType(s, v)
	z, ok := sc.local.lookup(typ, n, w)
	if !ok {
		sc.vector.Reset()
		f.local(x, typ, n, &sc.vector)
		z = sc.vector.Dot(w)
		sc.local.store(typ, n, z)
	}
	sc.vector.Reset()
	f.stateful(s, sc, v, typ, n, &sc.vector)
	return sc.vector.DotFrom(z, w)
}

// local appends to out the local features of a decision of type typ described by the
// edge into n: the type, and the edge features (or, for a DISCONNECTED decision without
// DisconnectedEdge, the label).
func (f *extractor) local(x *features.Sentence, typ, n int, out *features.Vector) {
	e := emitter{edge: &f.cfg.Edge}
	ids, vals := e.add(out.IDs, out.Vals, features.Mix(features.Key(tType), uint64(typ)), 1)
	if typ == typeDisconnected && !f.cfg.DisconnectedEdge {
		out.IDs, out.Vals = e.add(ids, vals, features.LabelKey(x.Label(n)), 1)
		return
	}
	out.IDs, out.Vals = ids, vals
	f.cfg.Edge.Edge(x, n, out)
}

// stateful appends to out the stateful and interaction features of candidate v, a
// decision of type typ described by the edge into n (none without Stateful). The
// features are appended to out's slices held in local variables (see emitter), stored
// back at the end.
func (f *extractor) stateful(s *va.State, sc *scratch, v, typ, n int, out *features.Vector) {
	if !f.cfg.Stateful {
		return
	}
	x := &sc.sentence
	t := x.Tree()
	e := emitter{edge: &f.cfg.Edge}
	ids, vals := out.IDs, out.Vals
	cr := crosser{e: &e, typ: uint64(typ), dep: x.Label(n)}
	b := float64(s.Budget())
	pos := math.Round(10*float64(v)/float64(t.N())) / 10
	crGoal := b / float64(max(x.LenS(), 1))
	lq := 0
	for _, q := range s.Query() {
		lq += x.WordLen(q) + 1
	}
	lq = max(lq-1, 0)
	qFrac := float64(lq) / b
	rem := float64(s.Len()+x.WordLen(v)) / b
	if f.cfg.CrossAll {
		ids, vals = cr.numeric(ids, vals, tPosition, pos, features.BinFrac(pos))
		ids, vals = cr.numeric(ids, vals, tCRGoal, crGoal, features.BinFrac(crGoal))
		ids, vals = cr.numeric(ids, vals, tQFrac, qFrac, features.BinFrac(qFrac))
		ids, vals = cr.numeric(ids, vals, tRemaining, rem, features.BinFrac(rem))
	} else {
		ids, vals = e.numeric(ids, vals, tPosition, pos, features.BinFrac(pos))
		ids, vals = e.numeric(ids, vals, tCRGoal, crGoal, features.BinFrac(crGoal))
		ids, vals = e.numeric(ids, vals, tQFrac, qFrac, features.BinFrac(qFrac))
		ids, vals = e.numeric(ids, vals, tRemaining, rem, features.BinFrac(rem))
	}
	if s.Size() > 0 {
		lo, hi := s.MinC(), s.MaxC()
		switch {
		case v < lo:
			ids, vals = cr.cross(ids, vals, features.Key(tLAdd), 1)
		case v > hi:
			ids, vals = cr.cross(ids, vals, features.Key(tRAdd), 1)
		default:
			ids, vals = cr.cross(ids, vals, features.Key(tMiddle), 1)
		}
	}
	for i := range sc.history.crossed {
		k := &sc.history.crossed[i]
		ids, vals = cr.emit(ids, vals, k.f, k.fd, k.ft[typ-1], k.ftd[typ-1], 1)
	}
	out.IDs, out.Vals = ids, vals
}

// emitter appends decision features, in the buckets of the edge layer's table, to the
// IDs and Vals of a Vector that the caller holds in local variables and gets back: so
// the slices' lengths stay in registers from one feature to the next instead of being
// stored and loaded again through a pointer for each.
type emitter struct {
	edge *features.Config
}

// add appends the feature of key k with value v.
func (e *emitter) add(ids []uint32, vals []float32, k uint64, v float32) ([]uint32, []float32) {
	return append(ids, e.edge.Bucket(k)), append(vals, v)
}

// numeric appends numeric feature t with value v, raw and/or as bin b (Edge.Numeric).
func (e *emitter) numeric(ids []uint32, vals []float32, t uint64, v float64, b int) ([]uint32, []float32) {
	if e.edge.Numeric != features.NumBinned && v != 0 {
		ids, vals = e.add(ids, vals, features.Key(t), float32(v))
	}
	if e.edge.Numeric != features.NumRaw {
		ids, vals = e.add(ids, vals, features.BinKey(t, b), 1)
	}
	return ids, vals
}

// crosser emits a feature f crossed with the decision type and label (§3.4).
type crosser struct {
	e        *emitter
	typ, dep uint64
}

// cross appends f, (f, dep), (f, type), (f, type, dep), all with value v.
func (c *crosser) cross(ids []uint32, vals []float32, f uint64, v float32) ([]uint32, []float32) {
	ft, ftd := typed(f, c.typ)
	return c.emit(ids, vals, f, features.Mix(f, tXDep), ft, ftd, v)
}

// numeric appends a crossed numeric feature, raw and/or binned.
func (c *crosser) numeric(ids []uint32, vals []float32, t uint64, v float64, b int) ([]uint32, []float32) {
	if c.e.edge.Numeric != features.NumBinned && v != 0 {
		ids, vals = c.cross(ids, vals, features.Key(t), float32(v))
	}
	if c.e.edge.Numeric != features.NumRaw {
		ids, vals = c.cross(ids, vals, features.BinKey(t, b), 1)
	}
	return ids, vals
}

// emit appends the crossings of f, whose key prefixes are fd = Mix(f, tXDep) and ft,
// ftd = typed(f, type), as cross does, hashing the label in.
func (c *crosser) emit(ids []uint32, vals []float32, f, fd, ft, ftd uint64, v float32) ([]uint32, []float32) {
	b := c.e.edge
	ids = append(ids, b.Bucket(f), b.Bucket(features.Mix(fd, c.dep)), b.Bucket(ft), b.Bucket(features.Mix(ftd, c.dep)))
	return ids, append(vals, v, v, v, v)
}

// crossKey holds what the crossings of a feature f (crosser.cross) hash before the
// decision's label: Mix(f, tXDep), and for each decision type t (typeChild to
// typeDisconnected) the key of (f, t) and its prefix for (f, t, dep), typed(f, t).
type crossKey struct {
	f, fd   uint64
	ft, ftd [typeDisconnected]uint64
}

// crossKeyOf returns the crossKey of f.
func crossKeyOf(f uint64) crossKey {
	k := crossKey{f: f, fd: features.Mix(f, tXDep)}
	for t := range k.ft {
		k.ft[t], k.ftd[t] = typed(f, uint64(t+1))
	}
	return k
}

// typed returns the key of the crossing of f with decision type typ, (f, type), and the
// prefix of its crossing with the label, (f, type, dep).
func typed(f, typ uint64) (ft, ftd uint64) {
	ft = features.Mix(features.Mix(f, tXType), typ)
	return ft, features.Mix(ft, tXTypeDep)
}
