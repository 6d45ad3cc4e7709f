package lr

import (
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/internal/core/features"
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
// authors' feature dictionary keeps one entry per key), so keys holds distinct keys.
type history struct {
	keys []uint64
}

// reset empties h.
func (h *history) reset() { h.keys = h.keys[:0] }

func (h *history) insert(k uint64) {
	for _, o := range h.keys {
		if o == k {
			return
		}
	}
	h.keys = append(h.keys, k)
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
	sc.err = sc.sentence.Reset(s.Sentence(), s.Tree(), f.vocab)
	if sc.err != nil {
		return
	}
	if f.cfg.Edge.Query {
		sc.sentence.SetQuery(s.Query())
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

// extract appends the features of candidate v to out: the type, the edge features, then
// the stateful features (the order is part of the scores' float32 sums).
func (f *extractor) extract(s *va.State, sc *scratch, v int, out *features.Vector) {
	x := &sc.sentence
	t := x.Tree()
	if t == nil || v < 1 || v > t.N() {
		return
	}
	e := emitter{out: out, edge: &f.cfg.Edge}
	typ, n := f.decisionType(s, v)
	dep := x.Label(n)
	e.add(features.Mix(features.Key(tType), uint64(typ)), 1)
	if typ == typeDisconnected && !f.cfg.DisconnectedEdge {
		e.add(features.LabelKey(dep), 1)
	} else {
		f.cfg.Edge.Edge(x, n, out)
	}
	if !f.cfg.Stateful {
		return
	}
	cr := crosser{e: &e, typ: uint64(typ), dep: dep}
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
		cr.numeric(tPosition, pos, features.BinFrac(pos))
		cr.numeric(tCRGoal, crGoal, features.BinFrac(crGoal))
		cr.numeric(tQFrac, qFrac, features.BinFrac(qFrac))
		cr.numeric(tRemaining, rem, features.BinFrac(rem))
	} else {
		e.numeric(tPosition, pos, features.BinFrac(pos))
		e.numeric(tCRGoal, crGoal, features.BinFrac(crGoal))
		e.numeric(tQFrac, qFrac, features.BinFrac(qFrac))
		e.numeric(tRemaining, rem, features.BinFrac(rem))
	}
	if s.Size() > 0 {
		lo, hi := s.MinC(), s.MaxC()
		switch {
		case v < lo:
			cr.indicator(features.Key(tLAdd))
		case v > hi:
			cr.indicator(features.Key(tRAdd))
		default:
			cr.indicator(features.Key(tMiddle))
		}
	}
	for _, k := range sc.history.keys {
		cr.indicator(k)
	}
}

// emitter appends decision features to a Vector, in the buckets of the edge layer's
// table.
type emitter struct {
	out  *features.Vector
	edge *features.Config
}

func (e *emitter) add(k uint64, v float32) {
	e.out.IDs = append(e.out.IDs, e.edge.Bucket(k))
	e.out.Vals = append(e.out.Vals, v)
}

// numeric emits numeric feature t with value v, raw and/or as bin b (Edge.Numeric).
func (e *emitter) numeric(t uint64, v float64, b int) {
	if e.edge.Numeric != features.NumBinned && v != 0 {
		e.add(features.Key(t), float32(v))
	}
	if e.edge.Numeric != features.NumRaw {
		e.add(features.BinKey(t, b), 1)
	}
}

// crosser emits a feature f crossed with the decision type and label (§3.4).
type crosser struct {
	e        *emitter
	typ, dep uint64
}

// cross emits f, (f, dep), (f, type), (f, type, dep), all with value v.
func (c *crosser) cross(f uint64, v float32) {
	c.e.add(f, v)
	c.e.add(features.Mix(features.Mix(f, tXDep), c.dep), v)
	ft := features.Mix(features.Mix(f, tXType), c.typ)
	c.e.add(ft, v)
	c.e.add(features.Mix(features.Mix(ft, tXTypeDep), c.dep), v)
}

func (c *crosser) indicator(f uint64) { c.cross(f, 1) }

// numeric emits a crossed numeric feature, raw and/or binned.
func (c *crosser) numeric(t uint64, v float64, b int) {
	if c.e.edge.Numeric != features.NumBinned && v != 0 {
		c.cross(features.Key(t), float32(v))
	}
	if c.e.edge.Numeric != features.NumRaw {
		c.cross(features.BinKey(t, b), 1)
	}
}
