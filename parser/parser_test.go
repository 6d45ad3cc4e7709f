package parser

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/syntax"
)

func fixture(t testing.TB) []*syntax.Sentence {
	t.Helper()
	cs, err := conllu.ReadAll("testdata/small.conllu")
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*syntax.Sentence, len(cs))
	for i, c := range cs {
		out[i] = syntax.FromCoNLLU(c)
	}
	return out
}

func fixtureModel(t testing.TB, seed uint64) *Model {
	return fixtureModelBeam(t, seed, 1)
}

// fixtureModelBeam trains on the fixture with beam width beam (1: greedy).
func fixtureModelBeam(t testing.TB, seed uint64, beam int) *Model {
	t.Helper()
	m, _, err := Train(fixture(t), nil, TrainOptions{Seed: seed, Epochs: 5, Runs: 2, MinWordCount: 1, ActionBits: 12, LabelBits: 10, Beam: beam})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// widths are the beam widths the model tests cover: greedy and a beam.
var widths = []int{1, 4}

func goldHeads(s *syntax.Sentence) []int32 {
	return append([]int32{-1}, headsOf(s)...)
}

func isProjective(h []int32) bool {
	for d := int32(1); d < int32(len(h)); d++ {
		if !projectiveArc(h, h[d], d) {
			return false
		}
	}
	return true
}

func TestNormalizeForm(t *testing.T) {
	for in, want := range map[string]string{
		"Hello": "hello", "IBM": "ibm", "3.5": "##", "B52s": "##", "<unk>": "<unk>", "<UNK>": "<unk>",
		"Ärger": "ärger", "٣": "##", "##": "##", "": "", "e-mail": "e-mail",
	} {
		if got := NormalizeForm(in); got != want {
			t.Errorf("NormalizeForm(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProjectivize(t *testing.T) {
	sents := fixture(t)
	for i, s := range sents {
		h := goldHeads(s)
		p, lifts := projectivize(h)
		if !isProjective(p) {
			t.Fatalf("sentence %d: result not projective: %v", i+1, p)
		}
		if i == 1 { // "A hearing is scheduled on the issue today ." : issue → hearing crosses.
			if isProjective(h) || lifts != 1 || p[7] != 4 {
				t.Errorf("non-projective fixture: lifts %d, head of 'issue' %d; want 1 lift to 4", lifts, p[7])
			}
		} else if lifts != 0 || !slices.Equal(p, h) {
			t.Errorf("sentence %d: projective tree changed: %v → %v", i+1, h, p)
		}
	}
}

// staticParse follows a zero-cost action (preferring SHIFT < LEFT < RIGHT) from the
// initial configuration and returns the heads.
func staticParse(gold []int32) ([]int32, bool) {
	var st state
	st.reset(len(gold) - 1)
	for !st.terminal() {
		a := -1
		for b := range numActs {
			if st.valid(b) && st.cost(b, gold) == 0 {
				a = b
				break
			}
		}
		if a < 0 {
			return nil, false
		}
		st.apply(a, 0)
	}
	return slices.Clone(st.head), true
}

func TestOracleReproducesGold(t *testing.T) {
	for i, s := range fixture(t) {
		g, _ := projectivize(goldHeads(s))
		got, ok := staticParse(g)
		if !ok {
			t.Fatalf("sentence %d: no zero-cost action", i+1)
		}
		if !slices.Equal(got[1:], g[1:]) {
			t.Errorf("sentence %d: oracle parse %v, gold %v", i+1, got[1:], g[1:])
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		g := randomProjective(rng, 1+rng.IntN(12))
		got, ok := staticParse(g)
		if !ok || !slices.Equal(got[1:], g[1:]) {
			t.Fatalf("random projective tree %v: oracle parse %v", g, got)
		}
	}
}

// randomProjective returns a random projective tree over n tokens with one root dependent.
func randomProjective(rng *rand.Rand, n int) []int32 {
	h := make([]int32, n+1)
	h[0] = -1
	var build func(lo, hi, head int32) // tokens lo..hi all attach under head
	build = func(lo, hi, head int32) {
		if lo > hi {
			return
		}
		r := lo + rng.Int32N(hi-lo+1)
		h[r] = head
		// Split the rest into left and right spans of r's subtree.
		build(lo, r-1, r)
		build(r+1, hi, r)
	}
	// A root word and its subtrees; then re-hang some subtree roots to make flatter trees.
	build(1, int32(n), 0)
	return h
}

func TestOracleCostsHandMade(t *testing.T) {
	s := fixture(t)[0] // The cat sat on the mat .
	g := goldHeads(s)
	cfg := func(stack []int32, i int32) *state {
		var st state
		st.reset(len(g) - 1)
		st.stack = append(st.stack[:0], stack...)
		st.i = i
		return &st
	}
	cases := []struct {
		stack       []int32
		i           int32
		shift, left int
		right       int // -1: invalid
	}{
		{[]int32{0}, 1, 0, -1, -1},
		// The on the stack, cat next: SHIFT loses The ← cat; LEFT is right.
		{[]int32{0, 1}, 2, 1, 0, -1},
		// sat on the stack over the root: LEFT (on → sat) loses root → sat and sat → mat, sat → . .
		{[]int32{0, 3}, 4, 0, 3, -1},
		// cat and sat on the stack: RIGHT (cat → sat) loses sat's dependents mat and .;
		// LEFT (on → sat) loses them too (root → sat is already out of reach under cat).
		{[]int32{0, 2, 3}, 4, 0, 2, 2},
		// on and the on the stack above sat, mat next: SHIFT loses mat ← the, mat ← on
		// and sat → mat.
		{[]int32{0, 3, 4, 5}, 6, 3, 0, 1},
		// Buffer empty: only RIGHT.
		{[]int32{0, 3}, 8, -1, -1, 0},
	}
	for _, c := range cases {
		st := cfg(c.stack, c.i)
		for a, want := range []int{c.shift, c.left, c.right} {
			if !st.valid(a) {
				if want != -1 {
					t.Errorf("stack %v i %d: action %d invalid, want cost %d", c.stack, c.i, a, want)
				}
				continue
			}
			if want == -1 {
				t.Errorf("stack %v i %d: action %d valid, want invalid", c.stack, c.i, a)
				continue
			}
			if got := st.cost(a, g); got != want {
				t.Errorf("stack %v i %d: cost of action %d = %d, want %d", c.stack, c.i, a, got, want)
			}
		}
	}
}

// TestOracleCostsExhaustive checks the dynamic-oracle cost against search: the cost of an
// action is the increase of the least number of wrong heads reachable.
func TestOracleCostsExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 150 {
		n := 1 + rng.IntN(7)
		g := randomProjective(rng, n)
		var st state
		st.reset(n)
		for !st.terminal() {
			base := minLoss(&st, g)
			for a := range numActs {
				if !st.valid(a) {
					continue
				}
				next := cloneState(&st)
				next.apply(a, 0)
				if got, want := st.cost(a, g), minLoss(next, g)-base; got != want {
					t.Fatalf("gold %v stack %v i %d heads %v: cost(%d) = %d, search says %d", g, st.stack, st.i, st.head, a, got, want)
				}
			}
			var valid []int
			for a := range numActs {
				if st.valid(a) {
					valid = append(valid, a)
				}
			}
			st.apply(valid[rng.IntN(len(valid))], 0)
		}
	}
}

func cloneState(st *state) *state {
	c := &state{n: st.n, i: st.i, stack: slices.Clone(st.stack), head: slices.Clone(st.head), label: slices.Clone(st.label),
		l1: slices.Clone(st.l1), l2: slices.Clone(st.l2), r1: slices.Clone(st.r1), r2: slices.Clone(st.r2),
		nl: slices.Clone(st.nl), nr: slices.Clone(st.nr), lset: slices.Clone(st.lset), rset: slices.Clone(st.rset)}
	return c
}

// minLoss is the least number of tokens with a wrong head over all terminal
// configurations reachable from st.
func minLoss(st *state, g []int32) int {
	if st.terminal() {
		loss := 0
		for k := 1; k < len(g); k++ {
			if st.head[k] != g[k] {
				loss++
			}
		}
		return loss
	}
	best := 1 << 30
	for a := range numActs {
		if st.valid(a) {
			next := cloneState(st)
			next.apply(a, 0)
			best = min(best, minLoss(next, g))
		}
	}
	return best
}

func TestParseAlwaysValidTree(t *testing.T) {
	for _, w := range widths {
		t.Run(fmt.Sprintf("beam%d", w), func(t *testing.T) { testAlwaysValidTree(t, fixtureModelBeam(t, 1, w)) })
	}
}

func testAlwaysValidTree(t *testing.T, m *Model) {
	p := m.NewParser()
	rng := rand.New(rand.NewPCG(5, 6))
	forms := []string{"the", "The", "cat", "sat", "on", "ran", ",", ".", "Zyzzyva", "42", "", "über", "'s"}
	tags := []string{"DT", "NN", "VBD", "IN", ",", ".", "NNP", "CD", "XYZ", "PRP$", "RP"}
	for trial := range 2000 {
		n := 1 + rng.IntN(40)
		s := &syntax.Sentence{Tokens: make([]syntax.Token, n)}
		for i := range s.Tokens {
			s.Tokens[i] = syntax.Token{Form: forms[rng.IntN(len(forms))], XPOS: tags[rng.IntN(len(tags))], Head: syntax.NoHead}
		}
		if err := p.Parse(s); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if _, err := syntax.NewTree(s.Heads()); err != nil {
			t.Fatalf("trial %d: invalid tree %v: %v", trial, s.Heads(), err)
		}
		roots := 0
		h := []int32{-1}
		for _, tk := range s.Tokens {
			if tk.Head == 0 {
				roots++
				if tk.Rel != "root" {
					t.Fatalf("trial %d: root dependent labelled %q", trial, tk.Rel)
				}
			} else if tk.Rel == "" || tk.Rel == "root" {
				t.Fatalf("trial %d: bad label %q", trial, tk.Rel)
			}
			h = append(h, int32(tk.Head))
		}
		if roots != 1 || !isProjective(h) {
			t.Fatalf("trial %d: %d roots, projective %v: %v", trial, roots, isProjective(h), h)
		}
	}
}

func TestParseErrors(t *testing.T) {
	p := fixtureModel(t, 1).NewParser()
	if err := p.Parse(&syntax.Sentence{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty sentence: %v", err)
	}
	s := &syntax.Sentence{Tokens: []syntax.Token{{Form: "a", XPOS: "DT"}, {Form: "b"}}}
	if err := p.Parse(s); !errors.Is(err, ErrNoTag) {
		t.Errorf("missing tag: %v", err)
	}
	var nilP *Parser
	if err := nilP.Parse(s); !errors.Is(err, ErrNoModel) {
		t.Errorf("nil parser: %v", err)
	}
	if err := new(Model).NewParser().Parse(s); !errors.Is(err, ErrNoModel) {
		t.Errorf("zero model: %v", err)
	}
	if err := p.Parse(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil sentence: %v", err)
	}
	if _, _, err := Train(nil, nil, TrainOptions{}); err == nil {
		t.Error("Train with no data: no error")
	}
}

func TestLearnsFixture(t *testing.T) {
	for _, w := range widths {
		t.Run(fmt.Sprintf("beam%d", w), func(t *testing.T) { testLearnsFixture(t, w) })
	}
}

func testLearnsFixture(t *testing.T, beam int) {
	sents := fixture(t)
	m, _, err := Train(sents, nil, TrainOptions{Epochs: 20, MinWordCount: 1, ActionBits: 14, LabelBits: 12, Beam: beam})
	if err != nil {
		t.Fatal(err)
	}
	var proj []*syntax.Sentence
	for _, s := range sents {
		c := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		g, _ := projectivize(goldHeads(s))
		for i := range c.Tokens {
			c.Tokens[i].Head = int(g[i+1])
		}
		proj = append(proj, c)
	}
	sc, err := m.evaluate(proj)
	if err != nil {
		t.Fatal(err)
	}
	if sc.LAS() < 100 {
		t.Errorf("fixture not learnt: %v", sc)
	}
}

func TestDeterministic(t *testing.T) {
	for _, w := range widths {
		a, err := fixtureModelBeam(t, 7, w).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b, err := fixtureModelBeam(t, 7, w).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("beam %d: same seed, different model bytes", w)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, w := range widths {
		t.Run(fmt.Sprintf("beam%d", w), func(t *testing.T) { testRoundTrip(t, fixtureModelBeam(t, 1, w), w) })
	}
}

func testRoundTrip(t *testing.T, m *Model, beam int) {
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	data2, err := m2.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, data2) {
		t.Error("model bytes changed after a round trip")
	}
	_, v, err := modelfile.Decode(data, Kind)
	if err != nil || m2.Beam() != beam || v != modelVersion {
		t.Errorf("beam %d: loaded beam %d, format version %d (%v)", beam, m2.Beam(), v, err)
	}
	p1, p2 := m.NewParser(), m2.NewParser()
	for _, g := range fixture(t) {
		a := &syntax.Sentence{Tokens: slices.Clone(g.Tokens)}
		b := &syntax.Sentence{Tokens: slices.Clone(g.Tokens)}
		if err := p1.Parse(a); err != nil {
			t.Fatal(err)
		}
		if err := p2.Parse(b); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Tokens, b.Tokens) {
			t.Errorf("loaded model parses differently")
		}
	}
}

func TestCorruptModel(t *testing.T) {
	data, err := fixtureModel(t, 1).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(data)
	bad[len(bad)/2] ^= 0x55
	if _, err := Load(bad); !errors.Is(err, modelfile.ErrChecksum) {
		t.Errorf("flipped byte: %v", err)
	}
	if _, err := Load(data[:len(data)-10]); !errors.Is(err, modelfile.ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
	if _, err := Load([]byte("hello")); !errors.Is(err, modelfile.ErrMagic) {
		t.Errorf("not a model: %v", err)
	}
	other, _ := modelfile.Encode("tagger", 1, []byte("x"))
	if _, err := Load(other); err == nil || !strings.Contains(err.Error(), "tagger") {
		t.Errorf("wrong kind: %v", err)
	}
	junk, _ := modelfile.Encode(Kind, modelVersion, []byte("not deflate data"))
	if _, err := Load(junk); !errors.Is(err, errFormat) {
		t.Errorf("bad payload: %v", err)
	}
}

func TestParseZeroAllocs(t *testing.T) {
	for _, w := range widths {
		t.Run(fmt.Sprintf("beam%d", w), func(t *testing.T) { testZeroAllocs(t, fixtureModelBeam(t, 1, w)) })
	}
}

func testZeroAllocs(t *testing.T, m *Model) {
	p := m.NewParser()
	sents := fixture(t)
	s := &syntax.Sentence{Tokens: make([]syntax.Token, 0, 64)}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		g := sents[i%len(sents)]
		i++
		s.Tokens = append(s.Tokens[:0], g.Tokens...)
		if err := p.Parse(s); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Parse allocates %.1f times per sentence", allocs)
	}
}

func TestEvaluate(t *testing.T) {
	gold := fixture(t)[:1]
	pred := []*syntax.Sentence{{Tokens: slices.Clone(gold[0].Tokens)}}
	pred[0].Tokens[0].Head = 3         // wrong head
	pred[0].Tokens[5].Rel = "obl:tmod" // same universal label
	pred[0].Tokens[6].Rel = "nsubj"    // wrong label
	sc, err := Evaluate(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	if sc != (Score{Words: 7, Head: 6, Labeled: 5}) {
		t.Errorf("score %+v", sc)
	}
	if _, err := Evaluate(gold, nil); err == nil {
		t.Error("mismatched lengths: no error")
	}
}

// encodeModel wraps a payload in the container as the given version: a version 3
// payload as it is, that of an older version compressed as they were.
func encodeModel(raw []byte, version uint16) ([]byte, error) {
	if version < 3 {
		raw = deflate(raw)
	}
	return modelfile.Encode(Kind, version, raw)
}

// FuzzLoad feeds arbitrary payloads, in a valid container of each version, to Load: it
// must return an error or a model that parses, never panic.
func FuzzLoad(f *testing.F) {
	m, _, err := Train(fixture(f), nil, TrainOptions{Epochs: 1, MinWordCount: 1, ActionBits: 10, LabelBits: 8})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(m.payload(), uint8(3))
	f.Add([]byte{}, uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, version uint8) {
		data, err := encodeModel(raw, 1+uint16(version%3))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(data)
		if err != nil {
			return
		}
		s := &syntax.Sentence{Tokens: []syntax.Token{{Form: "The", XPOS: "DT"}, {Form: "cat", XPOS: "NN"}, {Form: "sat", XPOS: "VBD"}}}
		if err := m.NewParser().Parse(s); err != nil {
			t.Fatal(err)
		}
		if _, err := syntax.NewTree(s.Heads()); err != nil {
			t.Fatal(err)
		}
	})
}

// TestOracleSequence checks the static oracle used by beam training: on every fixture tree
// and on random projective trees it rebuilds the tree with its labels.
func TestOracleSequence(t *testing.T) {
	m := fixtureModel(t, 1)
	p := m.NewParser()
	check := func(name string, g *instance) {
		p.ws, p.ps, p.cs = g.ws, g.ps, g.cs
		seq, ok := p.oracleSequence(g)
		n := len(g.ws) - 1
		if !ok || len(seq) != 2*n {
			t.Fatalf("%s: rebuilt %v, %d transitions for %d tokens", name, ok, len(seq), n)
		}
		for k := 1; k <= n; k++ {
			want := g.glab[k]
			if g.gold[k] == 0 {
				want = m.rootLab
			}
			if p.st.label[k] != want {
				t.Fatalf("%s: token %d labelled %d, want %d", name, k, p.st.label[k], want)
			}
		}
	}
	for i, s := range fixture(t) {
		g, _ := m.instance(s, 0)
		check(fmt.Sprintf("fixture %d", i), &g)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		n := 1 + rng.IntN(30)
		gold := randomProjective(rng, n)
		g := instance{ws: make([]uint32, n+1), ps: make([]uint32, n+1), cs: make([]uint32, n+1), gold: gold, glab: make([]int32, n+1)}
		for k := 1; k <= n; k++ {
			g.glab[k] = int32(rng.IntN(len(m.labels)))
			for g.glab[k] == m.rootLab {
				g.glab[k] = int32(rng.IntN(len(m.labels)))
			}
		}
		check(fmt.Sprintf("random tree %d", trial), &g)
	}
}

// TestBeamOneIsGreedy checks beam search against greedy parsing: with width 1 it must
// make the same choices, and a wider beam must never score its parse below the greedy one.
func TestBeamOneIsGreedy(t *testing.T) {
	m := fixtureModel(t, 1)
	p := m.NewParser()
	for i, s := range fixture(t) {
		p.encode(s)
		p.run(nil, nil)
		greedyHeads, greedyLabels := slices.Clone(p.st.head), slices.Clone(p.st.label)
		p.runBeam(1, nil)
		if !slices.Equal(p.st.head, greedyHeads) || !slices.Equal(p.st.label, greedyLabels) {
			t.Fatalf("sentence %d: beam 1 parsed %v, greedy %v", i, p.st.head, greedyHeads)
		}
		p.runBeam(8, nil)
		if wide := p.beam[0].score; wide < p.greedyScore()-1e-6 {
			t.Fatalf("sentence %d: beam 8 found a parse scored %g below the greedy one", i, wide)
		}
	}
}

// greedyScore parses the encoded sentence greedily and returns the sum of the scores of
// its transitions (the score beam search ranks parses by).
func (p *Parser) greedyScore() float64 {
	st := &p.st
	st.reset(len(p.ws) - 1)
	total := 0.0
	for !st.terminal() {
		a := st.forced()
		if a < 0 {
			st.actionFeatures(p.ws, p.ps, p.cs, &p.af)
			sc := p.m.scoreActs(&p.af)
			a = bestValid(st, &sc)
			total += float64(sc[a])
		}
		var lab int32
		if a != actShift {
			h, d := st.arc(a)
			lab = p.labelOn(st, h, d, false)
		}
		st.apply(a, lab)
	}
	return total
}
