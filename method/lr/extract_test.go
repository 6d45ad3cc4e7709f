package lr

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/features/featurestest"
	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// tiny is featurestest.Tiny: "The old cat chased a mouse yesterday ." and its tree.
func tiny(t *testing.T) (*syntax.Sentence, *syntax.Tree) { return featurestest.Tiny(t) }

// hash is the hash of a word, tag or label as the features read it.
func hash(s string) uint64 { return hashing.Fmix(hashing.String(s)) }

// feat is a feature written out by hand: a key and a value.
type feat struct {
	name string
	key  uint64
	val  float32
}

func f1(name string, t uint64, a string) feat {
	return feat{name, features.Mix(features.Key(t), hash(a)), 1}
}
func num(name string, t uint64, v float32) feat { return feat{name, features.Key(t), v} }

// crossed returns f, (f, dep), (f, type), (f, type, dep).
func crossed(f feat, typ int, dep string) []feat {
	ft := features.Mix(features.Mix(f.key, tXType), uint64(typ))
	return []feat{f,
		{f.name + "×dep", features.Mix(features.Mix(f.key, tXDep), hash(dep)), f.val},
		{f.name + "×type", ft, f.val},
		{f.name + "×type×dep", features.Mix(features.Mix(ft, tXTypeDep), hash(dep)), f.val},
	}
}

// check compares a vector with the expected features, the hand-written ones and those of
// edge (the edge layer's, checked by hand in package features), as multisets of (bucket,
// value).
func check(t *testing.T, cfg FeatureSet, got *features.Vector, edge *features.Vector, want []feat) {
	t.Helper()
	var w []featurestest.Feature
	for _, f := range want {
		w = append(w, featurestest.Feature{Name: f.name, ID: cfg.Edge.Bucket(f.key), Val: f.val})
	}
	if edge != nil {
		for i, id := range edge.IDs {
			w = append(w, featurestest.Feature{Name: "edge feature", ID: id, Val: edge.Vals[i]})
		}
	}
	featurestest.Check(t, got.IDs, got.Vals, w)
}

var testCfg = FeatureSet{Stateful: true, Edge: features.Config{Bits: 24}}

// edgeOf returns the edge features of head(n) → n under cfg.
func edgeOf(t *testing.T, cfg FeatureSet, s *syntax.Sentence, tree *syntax.Tree, n int) *features.Vector {
	t.Helper()
	var x features.Sentence
	if err := x.Reset(s, tree, nil); err != nil {
		t.Fatal(err)
	}
	var v features.Vector
	cfg.Edge.Edge(&x, n, &v)
	return &v
}

// recorder is a Decider that records the features of the first decision and accepts
// according to a fixed set.
type recorder struct {
	ext    *extractor
	accept map[int]bool
	first  *features.Vector
	typ    []int
	check  func(s *va.State, v int)
}

func (r *recorder) Start(s *va.State)        { r.ext.Start(s) }
func (r *recorder) Added(s *va.State, v int) { r.ext.Added(s, v) }
func (r *recorder) Decide(s *va.State, v int) va.Decision {
	x := r.ext.Features(s, v)
	if r.first == nil {
		r.first = &features.Vector{IDs: slices.Clone(x.IDs), Vals: slices.Clone(x.Vals)}
	}
	typ, _ := r.ext.decisionType(s, v)
	r.typ = append(r.typ, typ)
	if r.check != nil {
		r.check(s, v)
	}
	return va.Decision{Accept: r.accept[v]}
}

// TestExtractorQuery checks that an extractor with Edge.Query reads the run's query: at
// every decision, the edge features of every token are those of the sentence with Q set,
// not those without a query.
func TestExtractorQuery(t *testing.T) {
	s, tree := tiny(t)
	cfg := testCfg
	cfg.Edge.Query = true
	ext, err := newExtractor(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var with, without features.Sentence
	if err := with.Reset(s, tree, nil); err != nil {
		t.Fatal(err)
	}
	if err := without.Reset(s, tree, nil); err != nil {
		t.Fatal(err)
	}
	with.SetQuery([]int{3})
	edges := func(x *features.Sentence) []uint32 {
		var v features.Vector
		for n := 1; n <= tree.N(); n++ {
			cfg.Edge.Edge(x, n, &v)
		}
		return v.IDs
	}
	want, none := edges(&with), edges(&without)
	if slices.Equal(want, none) {
		t.Fatal("the query features do not depend on the query")
	}
	r := &recorder{ext: ext, check: func(st *va.State, v int) {
		if got := edges(&scratchOf(st).sentence); !slices.Equal(got, want) {
			t.Fatalf("decision on %d: the edge features are not those with cat (3) in Q", v)
		}
	}}
	var c va.Compressor
	if _, err := c.Run(va.Problem{Sentence: s, Tree: tree, Query: []int{3}, Budget: 20}, r); err != nil {
		t.Fatal(err)
	}
	if len(r.typ) == 0 {
		t.Fatal("no decision")
	}
}

func TestDecisionFeatures(t *testing.T) {
	s, tree := tiny(t)
	ext, err := newExtractor(testCfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Q = {cat}, b = 20. The first candidate is "The" (child of cat): CHILD, edge cat → The.
	r := &recorder{ext: ext, accept: map[int]bool{4: true, 6: true}}
	var c va.Compressor
	if _, err := c.Run(va.Problem{Sentence: s, Tree: tree, Query: []int{3}, Budget: 20}, r); err != nil {
		t.Fatal(err)
	}
	want := []feat{
		{"type=CHILD", features.Mix(features.Key(tType), typeChild), 1},
		// stateful: position round(1/8, 1) = 0.1; ℓ(S) = 31 + 7 = 38; ℓ(Q) = 3
		num("position", tPosition, 0.1), num("cr_goal", tCRGoal, float32(20.0/38)),
		num("q_as_frac_of_cr", tQFrac, float32(3.0/20)), num("remaining", tRemaining, float32(6.0/20)),
	}
	want = append(want, crossed(feat{"l_add", features.Key(tLAdd), 1}, typeChild, "det")...)
	for _, h := range []feat{f1("has_already NN", tHasPOS, "NN"), f1("has_already_d det", tHasChild, "det"),
		f1("has_already_d amod", tHasChild, "amod"), f1("has_already_d_dep nsubj", tHasDep, "nsubj")} {
		want = append(want, crossed(h, typeChild, "det")...)
	}
	check(t, testCfg, r.first, edgeOf(t, testCfg, s, tree, 1), want)
	// candidates: The (CHILD), old (CHILD), chased (GOVERNOR), mouse (CHILD of chased, accepted),
	// a (CHILD of mouse), yesterday (CHILD), . (CHILD)
	if want := []int{typeChild, typeChild, typeGovernor, typeChild}; !slices.Equal(r.typ[:4], want) {
		t.Errorf("types %v, want prefix %v", r.typ, want)
	}

	// ABLATED: the local features only; a DISCONNECTED decision has type + dep only.
	ablCfg := FeatureSet{Edge: features.Config{Bits: 24}}
	abl, _ := newExtractor(ablCfg, nil)
	r = &recorder{ext: abl}
	if _, err := c.Run(va.Problem{Sentence: s, Tree: tree, Query: []int{6}, Budget: 40}, r); err != nil {
		t.Fatal(err)
	}
	// Q = {mouse}: first candidate "chased" (head of mouse): GOVERNOR, v's incoming edge.
	check(t, ablCfg, r.first, edgeOf(t, ablCfg, s, tree, 4), []feat{
		{"type=GOVERNOR", features.Mix(features.Key(tType), typeGovernor), 1},
	})
	// all rejected after "chased": the next candidates, e.g. "The", are DISCONNECTED.
	var disc *features.Vector
	r = &recorder{ext: abl, check: func(s *va.State, v int) {
		if v == 1 {
			x := abl.Features(s, v)
			disc = &features.Vector{IDs: slices.Clone(x.IDs), Vals: slices.Clone(x.Vals)}
		}
	}}
	if _, err := c.Run(va.Problem{Sentence: s, Tree: tree, Query: []int{6}, Budget: 40}, r); err != nil {
		t.Fatal(err)
	}
	check(t, ablCfg, disc, nil, []feat{{"type=DISCONNECTED", features.Mix(features.Key(tType), typeDisconnected), 1},
		{"dep", features.LabelKey(hash("det")), 1}})
}

// randomSentence returns a sentence of n tokens over a random tree (synth.Heads) with
// random words, tags and relations (featurestest.RandomSentence).
func randomSentence(t *testing.T, rng *rand.Rand, n int) (*syntax.Sentence, *syntax.Tree) {
	return featurestest.RandomSentence(t, rng, synth.Heads(rng, n))
}

// TestHistoryIncremental checks, at every decision of random runs, that the history
// maintained through Tracker.Added equals the history recomputed from scratch over C,
// and that the features are the same as those of an extractor that rebuilds the history.
func TestHistoryIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ext, _ := newExtractor(testCfg, nil)
	var c va.Compressor
	for trial := range 300 {
		n := 1 + rng.IntN(30)
		s, tree := randomSentence(t, rng, n)
		q := rng.Perm(n)[:rng.IntN(min(n, 3)+1)]
		for i := range q {
			q[i]++
		}
		steps := 0
		r := &recorder{ext: ext, accept: map[int]bool{}}
		for v := 1; v <= n; v++ {
			r.accept[v] = rng.IntN(2) == 0
		}
		r.check = func(st *va.State, v int) {
			steps++
			sc := st.Scratch.(*scratch)
			var fresh history
			for u := 1; u <= n; u++ {
				if st.InC(u) {
					fresh.add(&sc.sentence, u)
				}
			}
			got, want := slices.Clone(sc.history.keys), slices.Clone(fresh.keys)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, candidate %d: incremental history %v != recomputed %v", trial, v, got, want)
			}
			inc := slices.Clone(ext.Features(st, v).IDs)
			saved := sc.history
			sc.history = fresh
			re := slices.Clone(ext.Features(st, v).IDs)
			sc.history = saved
			slices.Sort(inc)
			slices.Sort(re)
			if !slices.Equal(inc, re) {
				t.Fatalf("trial %d, candidate %d: features differ", trial, v)
			}
		}
		b := 1 + rng.IntN(6*n)
		_, err := c.Run(va.Problem{Sentence: s, Tree: tree, Query: q, Budget: b}, r)
		if err != nil && !errors.Is(err, va.ErrBudgetTooSmall) {
			t.Fatal(err)
		}
	}
}

func TestFeatureSetValidate(t *testing.T) {
	for _, c := range []FeatureSet{{Edge: features.Config{Bits: 0}}, {Edge: features.Config{Bits: features.MaxBits + 1}},
		{GovEdge: 7, Edge: features.Config{Bits: 10}}, {Edge: features.Config{Bits: 10, Numeric: 9}}} {
		if _, err := newExtractor(c, nil); !errors.Is(err, features.ErrConfig) {
			t.Errorf("config %+v: %v", c, err)
		}
	}
	if _, err := newExtractor(FeatureSet{Edge: features.Config{Bits: 10}}, nil); err != nil {
		t.Error(err)
	}
	want := "stateful=true gov=child disconnected-edge=true cross-all=true numeric=binned bits=22"
	if got := Features().String(); got != want {
		t.Errorf("Features() = %q, want %q", got, want)
	}
}

// TestDecisionTemplates checks that the decision features use the templates that package
// features reserves for them, with the numbers the model files were trained with.
func TestDecisionTemplates(t *testing.T) {
	got := []uint64{tType, tXTypeDep, features.FirstMethodTemplate, features.LastMethodTemplate}
	if want := []uint64{14, 27, 14, 27}; !slices.Equal(got, want) {
		t.Errorf("templates %d to %d, reserved %d to %d; want 14 to 27", got[0], got[1], got[2], got[3])
	}
}

// scoreChecker is a model as a Decider that checks, at every decision, that Score is
// bias + w·Features to the bit, and counts the decisions whose local sum the
// cache held before.
type scoreChecker struct {
	t    *testing.T
	m    *LR
	hits int
}

// Start starts the run and checks that the scratch's Sentence reads the run's input:
// the edge features of every token are those of the sentence read afresh.
func (c *scoreChecker) Start(s *va.State) {
	c.m.Start(s)
	var fresh features.Sentence
	if err := fresh.Reset(s.Sentence(), s.Tree(), c.m.ext.vocab); err != nil {
		c.t.Fatal(err)
	}
	cfg := &c.m.ext.cfg.Edge
	if cfg.Query {
		fresh.SetQuery(s.Query())
	}
	var got, want features.Vector
	for n := 1; n <= s.Tree().N(); n++ {
		cfg.Edge(&scratchOf(s).sentence, n, &got)
		cfg.Edge(&fresh, n, &want)
	}
	if !slices.Equal(got.IDs, want.IDs) || !slices.Equal(got.Vals, want.Vals) {
		c.t.Fatal("the run's sentence values are not those of its input")
	}
}

func (c *scoreChecker) Added(s *va.State, v int) { c.m.Added(s, v) }
func (c *scoreChecker) Decide(s *va.State, v int) va.Decision {
	typ, n := c.m.ext.decisionType(s, v)
	if l := &scratchOf(s).local; l.ext == c.m.ext && l.w == &c.m.w[0] && l.known[3*n+typ-1] {
		c.hits++
	}
	got := c.m.Score(s, v)
	want := c.m.bias + c.m.ext.Features(s, v).Dot(c.m.w)
	if math.Float32bits(got) != math.Float32bits(want) {
		c.t.Fatalf("candidate %d: Score %v, bias + w·Features %v", v, got, want)
	}
	return c.m.Decide(s, v)
}

// TestScoreAcrossRuns checks that the sums of the local features kept from run to run
// (localCache) give Score to the bit: runs of the embedded model, and of a model of random
// weights with the query features, on random sentences, again with other budgets (the
// cache serves them), then on the same sentence changed in place (every form, tag or
// label), on another tree and with another query, which the cache must not serve.
func TestScoreAcrossRuns(t *testing.T) {
	m, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(34, 5))
	cfg := m.Info.Features
	cfg.Edge.Query, cfg.Edge.Bits = true, 16
	w := make([]float32, cfg.Size())
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	q, err := newLRWeights(Info{Name: "query", Features: cfg}, w, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*LR{m, q} {
		scoreAcrossRuns(t, rng, m)
	}
}

// scoreAcrossRuns runs the checks of TestScoreAcrossRuns with the model m.
func scoreAcrossRuns(t *testing.T, rng *rand.Rand, m *LR) {
	c := &scoreChecker{t: t, m: m}
	var vc va.Compressor
	run := func(s *syntax.Sentence, tree *syntax.Tree, q []int, b int) {
		t.Helper()
		if _, err := vc.Run(va.Problem{Sentence: s, Tree: tree, Query: q, Budget: b}, c); err != nil && !errors.Is(err, va.ErrBudgetTooSmall) {
			t.Fatal(err)
		}
	}
	for range 100 {
		n := 2 + rng.IntN(30)
		s, tree := randomSentence(t, rng, n)
		q := []int{1 + rng.IntN(n)}
		for _, b := range []int{6 * n, 4 * n, 2 * n} {
			run(s, tree, q, b)
		}
		for i := range s.Tokens {
			s.Tokens[i].Form += "x"
		}
		run(s, tree, q, 6*n)
		for i := range s.Tokens {
			s.Tokens[i].XPOS += "x"
		}
		run(s, tree, q, 6*n)
		for i := range s.Tokens {
			s.Tokens[i].Rel += "x"
		}
		run(s, tree, q, 6*n)
		_, other := randomSentence(t, rng, n)
		run(s, other, q, 6*n)
		run(s, other, []int{1 + (q[0])%n}, 6*n)
	}
	if c.hits == 0 {
		t.Fatal("no decision found its local sum kept: the cache is not used")
	}
}
