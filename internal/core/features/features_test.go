package features

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/features/featurestest"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/syntax"
)

// tiny is featurestest.Tiny: "The old cat chased a mouse yesterday ." and its tree.
func tiny(t *testing.T) (*syntax.Sentence, *syntax.Tree) { return featurestest.Tiny(t) }

// feat is a feature written out by hand: a key and a value.
type feat struct {
	name string
	key  uint64
	val  float32
}

func f1(name string, t uint64, a string) feat { return feat{name, mix(key(t), hashString(a)), 1} }
func f2(name string, t uint64, a, b string) feat {
	return feat{name, mix(mix(key(t), hashString(a)), hashString(b)), 1}
}
func num(name string, t uint64, v float32) feat { return feat{name, key(t), v} }

// check compares a vector with the expected features (as multisets of (bucket, value)).
func check(t *testing.T, cfg Config, got *Vector, want []feat) {
	t.Helper()
	var w []featurestest.Feature
	for _, f := range want {
		w = append(w, featurestest.Feature{Name: f.name, ID: uint32(f.key >> (64 - cfg.Bits)), Val: f.val})
	}
	featurestest.Check(t, got.IDs, got.Vals, w)
}

var testCfg = Config{Bits: 24}

func TestEdgeFeatures(t *testing.T) {
	s, tree := tiny(t)
	var x Sentence
	if err := x.Reset(s, tree, nil); err != nil {
		t.Fatal(err)
	}
	var v Vector
	// edge chased → cat (nsubj): siblings mouse, yesterday, "."
	testCfg.Edge(&x, 3, &v)
	check(t, testCfg, &v, []feat{
		f1("dep", tDep, "nsubj"), f1("pos_h", tPosH, "VBD"), f1("pos_n", tPosN, "NN"),
		f1("lemma_n", tLemmaN, "cat"), f2("lemma_h_label_e", tLemmaHLabel, "chased", "nsubj"),
		f1("ds mouse", tSibling, "mouse"), f1("ds yesterday", tSibling, "yesterday"), f1("ds .", tSibling, "."),
		f2("s: mouse chased", tSiblingLemma, "mouse", "chased"), f2("s: yesterday chased", tSiblingLemma, "yesterday", "chased"),
		f2("s: . chased", tSiblingLemma, ".", "chased"),
		num("childrenCount_h", tChildrenH, 4), num("childrenCount_e", tChildrenN, 2), num("depth", tDepthN, 2),
		num("char_len_h", tCharLenH, 6), num("no_words_in_h (index of h)", tIndexH, 4),
	})
	// edge cat → The (det): sibling old
	v.Reset()
	testCfg.Edge(&x, 1, &v)
	check(t, testCfg, &v, []feat{
		f1("dep", tDep, "det"), f1("pos_h", tPosH, "NN"), f1("pos_n", tPosN, "DT"),
		f1("lemma_n", tLemmaN, "the"), f2("lemma_h_label_e", tLemmaHLabel, "cat", "det"),
		f1("ds old", tSibling, "old"), f2("s: old cat", tSiblingLemma, "old", "cat"),
		num("childrenCount_h", tChildrenH, 2), num("depth", tDepthN, 3),
		num("char_len_h", tCharLenH, 3), num("index of h", tIndexH, 3),
	})
	// edge root → chased: the dummy root (lemma is_root, POS root, length 0, index 0)
	v.Reset()
	testCfg.Edge(&x, 4, &v)
	check(t, testCfg, &v, []feat{
		f1("dep", tDep, "root"), f1("pos_h", tPosH, "root"), f1("pos_n", tPosN, "VBD"),
		f1("lemma_n", tLemmaN, "chased"), f2("lemma_h_label_e", tLemmaHLabel, "is_root", "root"),
		num("childrenCount_h", tChildrenH, 1), num("childrenCount_e", tChildrenN, 4), num("depth", tDepthN, 1),
	})
	// out of range: nothing
	v.Reset()
	testCfg.Edge(&x, 9, &v)
	testCfg.Edge(&x, 0, &v)
	if v.Len() != 0 {
		t.Errorf("edge features of a non-vertex: %d", v.Len())
	}
}

func TestArc(t *testing.T) {
	s, tree := tiny(t)
	var x Sentence
	if err := x.Reset(s, tree, nil); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []Config{testCfg, {Numeric: NumBoth, Bits: 20}} {
		// The parse edge head(n) → n with its own label gives exactly Edge's features.
		for n := 1; n <= tree.N(); n++ {
			var a, e Vector
			cfg.Arc(&x, tree.Head(n), n, s.Tokens[n-1].Rel, &a)
			cfg.Edge(&x, n, &e)
			if !slices.Equal(a.IDs, e.IDs) || !slices.Equal(a.Vals, e.Vals) || a.Len() == 0 {
				t.Errorf("%v: Arc(head(%d), %d) differs from Edge(%d)", cfg, n, n, n)
			}
		}
	}
	// The added arc ROOT → cat: the dummy root as head, label ROOT, the root's children in
	// the parse (chased) as siblings; cat's own child count and depth.
	var v Vector
	testCfg.Arc(&x, 0, 3, RootLabel, &v)
	check(t, testCfg, &v, []feat{
		f1("dep", tDep, "ROOT"), f1("pos_h", tPosH, "root"), f1("pos_n", tPosN, "NN"),
		f1("lemma_n", tLemmaN, "cat"), f2("lemma_h_label_e", tLemmaHLabel, "is_root", "ROOT"),
		f1("ds chased", tSibling, "chased"), f2("s: chased is_root", tSiblingLemma, "chased", "is_root"),
		num("childrenCount_h", tChildrenH, 1), num("childrenCount_e", tChildrenN, 2), num("depth", tDepthN, 2),
	})
	// An arc that is not in the parse, mouse → The: its siblings are mouse's children
	// ("a"), its child count and depth are The's in the parse.
	v.Reset()
	testCfg.Arc(&x, 6, 1, "det", &v)
	check(t, testCfg, &v, []feat{
		f1("dep", tDep, "det"), f1("pos_h", tPosH, "NN"), f1("pos_n", tPosN, "DT"),
		f1("lemma_n", tLemmaN, "the"), f2("lemma_h_label_e", tLemmaHLabel, "mouse", "det"),
		f1("ds a", tSibling, "a"), f2("s: a mouse", tSiblingLemma, "a", "mouse"),
		num("childrenCount_h", tChildrenH, 1), num("depth", tDepthN, 3),
		num("char_len_h", tCharLenH, 5), num("no_words_in_h (index of h)", tIndexH, 6),
	})
	// Not an arc: nothing.
	v.Reset()
	for _, hn := range [][2]int{{3, 3}, {-1, 3}, {9, 3}, {0, 0}, {0, 9}} {
		testCfg.Arc(&x, hn[0], hn[1], "dep", &v)
	}
	if v.Len() != 0 {
		t.Errorf("features of non-arcs: %d", v.Len())
	}
}

func TestVocab(t *testing.T) {
	v := NewVocab(slices.Values([]string{"the", "cat", "##"}))
	for _, c := range []struct {
		form string
		want uint64
	}{{"The", hashString("the")}, {"CAT", hashString("cat")}, {"2013", hashString("##")}, {"a1", hashString("##")},
		{"dog", hashString("<unk>")}} {
		if got := v.known(hashWord(c.form)); got != c.want {
			t.Errorf("known(hashWord(%q)) wrong", c.form)
		}
	}
	if got := VocabOf(v.Hashes()); got.Len() != 3 || !slices.Equal(got.Hashes(), v.Hashes()) {
		t.Error("VocabOf(Hashes()) differs")
	}
	var nilVocab *Vocab
	if nilVocab.known(hashWord("dog")) != hashString("dog") {
		t.Error("nil vocabulary changes words")
	}
}

func TestLowercase(t *testing.T) {
	for _, c := range [][2]string{{"The", "the"}, {"ÉCOLE", "école"}, {"ΣΟΦΙΑ", "σοφια"}, {"", ""}} {
		if hashLower(c[0]) != hashString(c[1]) {
			t.Errorf("hashLower(%q) != hashString(%q)", c[0], c[1])
		}
	}
}

// randomSentence returns a sentence of n tokens over a random tree (synth.Heads) with
// random words, tags and relations (featurestest.RandomSentence).
func randomSentence(t testing.TB, rng *rand.Rand, n int) (*syntax.Sentence, *syntax.Tree) {
	return featurestest.RandomSentence(t, rng, synth.Heads(rng, n))
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []Config{{Bits: 0}, {Bits: MaxBits + 1}, {Bits: 10, Numeric: 9}} {
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("config %+v: %v", c, err)
		}
	}
	if err := (Config{Bits: 10}).Validate(); err != nil {
		t.Error(err)
	}
}

// TestTemplateNumbers pins the template numbers, on which the keys of every model file
// depend (Version), and the range reserved for the methods' own features.
func TestTemplateNumbers(t *testing.T) {
	got := []uint64{tDep, tIsNeg, FirstMethodTemplate, LastMethodTemplate, tBin, tDirPosN, tHeadMarker, tQRelN, tQRelPair}
	want := []uint64{1, 13, 14, 27, 28, 29, 55, 56, 61}
	if !slices.Equal(got, want) {
		t.Errorf("templates %v, want %v", got, want)
	}
	if BinKey(tChildrenH, 3) != mix(mix(key(tBin), tChildrenH), 3) || LabelKey(hashString("det")) != mix(key(tDep), hashString("det")) {
		t.Error("BinKey or LabelKey differ from the edge features' keys")
	}
}

func TestSentenceMismatch(t *testing.T) {
	s, _ := tiny(t)
	tree, _ := syntax.NewTree([]int{0, 1})
	var x Sentence
	good, _ := syntax.NewTree(s.Heads())
	if err := x.Reset(s, good, nil); err != nil {
		t.Fatal(err)
	}
	if err := x.Reset(s, tree, nil); err == nil {
		t.Error("sentence of 8 tokens accepted with a tree of 2")
	}
	// The sentence before the failed Reset is forgotten.
	var v Vector
	testCfg.Edge(&x, 1, &v)
	if x.Tree() != nil || v.Len() != 0 {
		t.Errorf("after a failed Reset: tree %v, %d features", x.Tree(), v.Len())
	}
}

// TestDotFrom checks Vector.DotFrom against the products added one at a time in the
// vector's order, to the bit, with tables of a power of two weights (read at masked ids)
// and of other sizes, and ids up to the last weight.
func TestDotFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range []int{1, 2, 3, 64, 100, 1 << 12, 1<<12 + 1} {
		w := make([]float32, size)
		for i := range w {
			w[i] = float32(rng.NormFloat64()) * float32(rng.IntN(1000)+1) / 7
		}
		for trial := range 50 {
			var x Vector
			for range rng.IntN(200) {
				x.IDs = append(x.IDs, uint32(rng.IntN(size)))
				x.Vals = append(x.Vals, float32(rng.IntN(5))+float32(rng.NormFloat64()))
			}
			x.IDs = append(x.IDs, uint32(size-1))
			x.Vals = append(x.Vals, 1.5)
			z0 := float32(rng.NormFloat64())
			want := z0
			for i, id := range x.IDs {
				want += w[id] * x.Vals[i]
			}
			if got := x.DotFrom(z0, w); math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("table of %d, trial %d: DotFrom %v, want %v", size, trial, got, want)
			}
		}
	}
}

// TestEdgeScores checks that EdgeScores gives, to the bit, what Vector.Dot gives for the
// vectors of Edge and Arc(ROOT), on random trees and weights, with every numeric
// representation and the scratch memory reused. One sentence in 25 is long (150 to 299
// tokens), so that the queue of deferred products is summed before the sentence ends.
func TestEdgeScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var (
		x     Sentence
		vec   Vector
		sib   []uint32
		edge  = make([]float64, 300)
		root  = make([]float64, 300)
		gotOK int
	)
	for k := range 9 {
		num, conjoined, query := Numeric(k%3), k >= 3, k >= 6
		cfg := Config{Bits: 12, Numeric: num, Conjoined: conjoined, Query: query}
		w := make([]float32, cfg.Size())
		for i := range w {
			w[i] = float32(rng.NormFloat64()) * float32(rng.IntN(1000)+1) / 7
		}
		for trial := range 200 {
			n := 1 + rng.IntN(40)
			if trial%25 == 0 {
				n = 150 + rng.IntN(150)
			}
			s, tree := randomSentence(t, rng, n)
			if err := x.Reset(s, tree, nil); err != nil {
				t.Fatal(err)
			}
			if query && trial%4 != 0 { // and a quarter without a query
				x.SetQuery([]int{1 + rng.IntN(n), 1 + rng.IntN(n)})
			}
			sib = cfg.EdgeScores(&x, w, edge, root, sib)
			for v := 1; v <= n; v++ {
				vec.Reset()
				cfg.Edge(&x, v, &vec)
				want := float64(vec.Dot(w))
				wantRoot := 0.0
				if tree.Head(v) != 0 {
					vec.Reset()
					cfg.Arc(&x, 0, v, RootLabel, &vec)
					wantRoot = float64(vec.Dot(w))
				}
				if math.Float64bits(edge[v-1]) != math.Float64bits(want) || math.Float64bits(root[v-1]) != math.Float64bits(wantRoot) {
					t.Fatalf("numeric %v, conjoined %t, query %t, trial %d, token %d: EdgeScores %v / %v, Dot %v / %v", num, conjoined, query, trial, v, edge[v-1], root[v-1], want, wantRoot)
				}
				gotOK++
			}
		}
	}
	if gotOK == 0 {
		t.Fatal("nothing compared")
	}
}

// TestConjoinedValues checks what Sentence.Reset computes for the conjoined features
// against definitions computed naively: subtree sizes by walking up from every token, the
// siblings and markers by scanning all tokens.
func TestConjoinedValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var x Sentence
	for trial := range 300 {
		n := 1 + rng.IntN(30)
		s, tree := randomSentence(t, rng, n)
		if err := x.Reset(s, tree, nil); err != nil {
			t.Fatal(err)
		}
		x.conjoined()
		for v := 0; v <= n; v++ {
			size, chars := 0, 0
			for u := 1; u <= n; u++ {
				a := u
				for a != 0 && a != v {
					a = tree.Head(a)
				}
				if a == v {
					size++
					chars += x.lens[u] + 1
				}
			}
			if v == 0 { // the root, which no walk counts, has length 0
				size, chars = size+1, chars+1
			}
			if x.sub[v] != size || x.subLen[v] != chars {
				t.Fatalf("trial %d, token %d: subtree %d tokens %d chars, want %d, %d", trial, v, x.sub[v], x.subLen[v], size, chars)
			}
			var marker uint64
			punct := false
			prev, next := -1, -1
			for u := 1; u <= n; u++ {
				if tree.Head(u) == v {
					switch s.Tokens[u-1].Rel {
					case "case", "mark":
						if marker == 0 {
							marker = x.word[u]
						}
					case "punct":
						punct = true
					}
				}
				if v > 0 && u != v && tree.Head(u) == tree.Head(v) {
					if u < v {
						prev = u
					} else if next < 0 {
						next = u
					}
				}
			}
			if x.marker[v] != marker || x.punct[v] != punct {
				t.Fatalf("trial %d, token %d: marker %x punct %t, want %x %t", trial, v, x.marker[v], x.punct[v], marker, punct)
			}
			if v == 0 {
				continue
			}
			want := func(u int) uint64 {
				if u < 0 {
					return 0
				}
				return x.rel[u]
			}
			if x.prevSib[v] != want(prev) || x.nextSib[v] != want(next) {
				t.Fatalf("trial %d, token %d: siblings %x %x, want %x %x", trial, v, x.prevSib[v], x.nextSib[v], want(prev), want(next))
			}
		}
	}
}

// TestQueryValues checks what Sentence.SetQuery computes for the query features against
// definitions computed naively: relations by walking up from every token, distances in
// the tree by the paths through the lowest common ancestor, distances in words by
// scanning the query.
func TestQueryValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var x Sentence
	for trial := range 500 {
		n := 1 + rng.IntN(30)
		s, tree := randomSentence(t, rng, n)
		if err := x.Reset(s, tree, nil); err != nil {
			t.Fatal(err)
		}
		var q []int
		for range rng.IntN(4) {
			q = append(q, rng.IntN(n+2)) // 0 and n+1 are outside and ignored
		}
		x.SetQuery(q)
		inQ := make([]bool, n+1)
		for _, v := range q {
			if v >= 1 && v <= n {
				inQ[v] = true
			}
		}
		if !slices.Contains(inQ, true) {
			if len(x.qrel) != 0 {
				t.Fatalf("trial %d: query %v has no token, but relations are set", trial, q)
			}
			continue
		}
		// above(a, v): a is a proper ancestor of v (a ≥ 1).
		above := func(a, v int) bool {
			for u := tree.Head(v); u >= 1; u = tree.Head(u) {
				if u == a {
					return true
				}
			}
			return false
		}
		depth := func(v int) int {
			d := 0
			for u := v; u != 0; u = tree.Head(u) {
				d++
			}
			return d
		}
		for v := 1; v <= n; v++ {
			rel := uint8(qNone)
			tdist, wdist, side := qFar, qFar, uint8(0)
			for _, k := range []uint8{qDescendant, qAncestor, qSibling, qChild, qParent, qIn} { // last wins
				for u := 1; u <= n; u++ {
					if !inQ[u] {
						continue
					}
					var holds bool
					switch k {
					case qIn:
						holds = u == v
					case qParent:
						holds = tree.Head(u) == v
					case qChild:
						holds = tree.Head(v) == u
					case qSibling:
						holds = u != v && tree.Head(u) == tree.Head(v)
					case qAncestor:
						holds = above(v, u)
					case qDescendant:
						holds = above(u, v)
					}
					if holds {
						rel = k
					}
				}
			}
			for u := 1; u <= n; u++ {
				if !inQ[u] {
					continue
				}
				a, b := u, v // their lowest common ancestor
				for depth(a) > depth(b) {
					a = tree.Head(a)
				}
				for depth(b) > depth(a) {
					b = tree.Head(b)
				}
				for a != b {
					a, b = tree.Head(a), tree.Head(b)
				}
				if a != 0 || u == v {
					tdist = min(tdist, depth(u)+depth(v)-2*depth(a))
				}
				d, sd := v-u, uint8(1)
				if u > v {
					d, sd = u-v, 2
				}
				if d < wdist || (d == wdist && sd == 1) {
					wdist, side = d, sd
				}
			}
			if x.qrel[v] != rel || int(x.qtree[v]) != tdist || int(x.qwords[v]) != wdist || x.qside[v] != side {
				t.Fatalf("trial %d, query %v, token %d: relation %d, tree %d, words %d, side %d; want %d, %d, %d, %d",
					trial, q, v, x.qrel[v], x.qtree[v], x.qwords[v], x.qside[v], rel, tdist, wdist, side)
			}
		}
		if x.qrel[0] != qRoot {
			t.Fatalf("trial %d: the root's relation %d", trial, x.qrel[0])
		}
	}
}

func TestHashWordNormalizes(t *testing.T) {
	for _, f := range []string{"The", "ÉCOLE", "B52s", "٣", "Ｘ３", "<unk>", "", "a\xffB"} {
		if got, want := hashWord(f), hashString(wordform.Normalize(f)); got != want {
			t.Errorf("hashWord(%q) = %x, want the hash of %q", f, got, wordform.Normalize(f))
		}
	}
}

// BenchmarkEdgeScores scores every arc of random sentences of 20 to 59 tokens with a
// query of two tokens, under the ILP model's configuration (2^20 buckets, binned numeric
// features, conjoined and query features): the feature part of the ILP's latency.
// go test -run XXX -bench EdgeScores ./internal/core/features
func BenchmarkEdgeScores(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	cfg := Config{Bits: 20, Numeric: NumBinned, Conjoined: true, Query: true}
	w := make([]float32, cfg.Size())
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	type input struct {
		s    *syntax.Sentence
		tree *syntax.Tree
	}
	ins := make([]input, 200)
	for i := range ins {
		ins[i].s, ins[i].tree = randomSentence(b, rng, 20+rng.IntN(40))
	}
	var (
		x    Sentence
		sib  []uint32
		edge = make([]float64, 60)
		root = make([]float64, 60)
	)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		in := ins[i%len(ins)]
		if err := x.Reset(in.s, in.tree, nil); err != nil {
			b.Fatal(err)
		}
		x.SetQuery([]int{1 + i%in.tree.N(), 1 + (i/7)%in.tree.N()})
		sib = cfg.EdgeScores(&x, w, edge, root, sib)
		i++
	}
}

// TestIDsBelowSize checks the invariant the masked weight loads rely on (Config.Bucket):
// every id of Edge, Arc and Bucket is below Size(), for small tables too, so that a table
// of Size() weights is read at the ids themselves.
func TestIDsBelowSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var (
		x   Sentence
		vec Vector
	)
	checked := 0
	for _, bits := range []uint8{1, 3, 12, MaxBits} {
		for k := range 9 {
			cfg := Config{Bits: bits, Numeric: Numeric(k % 3), Conjoined: k >= 3, Query: k >= 6}
			size := uint32(cfg.Size())
			for _, key := range []uint64{0, 1, 1 << 63, math.MaxUint64, rng.Uint64()} {
				if b := cfg.Bucket(key); b >= size {
					t.Fatalf("%v: Bucket(%#x) = %d, not below %d", cfg, key, b, size)
				}
			}
			for range 20 {
				n := 1 + rng.IntN(30)
				s, tree := randomSentence(t, rng, n)
				if err := x.Reset(s, tree, nil); err != nil {
					t.Fatal(err)
				}
				if cfg.Query {
					x.SetQuery([]int{1 + rng.IntN(n)})
				}
				vec.Reset()
				for v := 1; v <= n; v++ {
					cfg.Edge(&x, v, &vec)
					cfg.Arc(&x, 0, v, RootLabel, &vec)
				}
				for _, id := range vec.IDs {
					if id >= size {
						t.Fatalf("%v: feature id %d, not below %d", cfg, id, size)
					}
					checked++
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no id checked")
	}
}
