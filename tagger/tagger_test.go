package tagger

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/cputime"
	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/syntax"
)

const fixture = "testdata/ewt-sample.conllu"

func readFile(tb testing.TB, path string) []*syntax.Sentence {
	tb.Helper()
	cs, err := conllu.ReadAll(path)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]*syntax.Sentence, len(cs))
	for i, c := range cs {
		out[i] = syntax.FromCoNLLU(c)
	}
	return out
}

func readSents(tb testing.TB, rel string) []*syntax.Sentence {
	tb.Helper()
	return readFile(tb, shared.Require(tb, rel))
}

// fixtureClusters learns small clusters, with the tag profiles, from the fixture's own
// forms and tags.
func fixtureClusters(tb testing.TB) *Clusters {
	tb.Helper()
	c, err := LearnClustersFile(fixture, ClusterOptions{MinCount: 2, Contexts: 50, Fine: 16, Coarse: 4, Iterations: 5})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func trainFixture(tb testing.TB, seed int64, clusters bool) (*Model, []*syntax.Sentence) {
	tb.Helper()
	sents := readFile(tb, fixture)
	opts := TrainOptions{Epochs: 4, Seed: seed, Mix: 2, Quiet: true}
	if clusters {
		opts.Clusters = fixtureClusters(tb)
	}
	m, _, err := Train(sents[:50], sents[50:], opts)
	if err != nil {
		tb.Fatal(err)
	}
	return m, sents
}

func TestTrainDeterministic(t *testing.T) {
	m1, _ := trainFixture(t, 7, true)
	m2, _ := trainFixture(t, 7, true)
	b1, err := m1.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := m2.MarshalBinary()
	if !bytes.Equal(b1, b2) {
		t.Fatal("two trainings with the same seed gave different model bytes")
	}
}

func TestRoundTrip(t *testing.T) {
	m, sents := trainFixture(t, 1, true)
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	data2, _ := m2.MarshalBinary()
	if !bytes.Equal(data, data2) {
		t.Fatal("re-encoding a loaded model changed its bytes")
	}
	a1, c1, n1 := Accuracy(m, sents)
	a2, c2, n2 := Accuracy(m2, sents)
	if c1 != c2 || n1 != n2 {
		t.Fatalf("loaded model differs: %d/%d vs %d/%d", c1, n1, c2, n2)
	}
	if a1 < 0.9 { // mostly its own training data
		t.Fatalf("fixture accuracy %.3f, want ≥ 0.9", a1)
	}
	t.Logf("fixture accuracy %.4f (%d/%d), %d bytes", a2, c2, n2, len(data))
}

func TestLoadBad(t *testing.T) {
	m, _ := trainFixture(t, 1, true)
	data, _ := m.MarshalBinary()
	if _, err := Load(nil); !errors.Is(err, modelfile.ErrMagic) {
		t.Errorf("empty input: %v", err)
	}
	if _, err := Load(data[:len(data)/2]); err == nil {
		t.Error("truncated file accepted")
	}
	bad := slices.Clone(data)
	bad[len(bad)/2] ^= 1
	if _, err := Load(bad); !errors.Is(err, modelfile.ErrChecksum) {
		t.Errorf("corrupt file: %v", err)
	}
	other, _ := modelfile.Encode("parser", 1, []byte{1})
	if _, err := Load(other); err == nil || !strings.Contains(err.Error(), "parser") {
		t.Errorf("wrong kind: %v", err)
	}
	// Well-formed containers around damaged payloads must fail cleanly, never panic.
	payload, _, _ := modelfile.Decode(data, Kind, Version)
	for _, n := range []int{0, 1, 2, 5, 17, len(payload) / 3, len(payload) - 1} {
		enc, _ := modelfile.Encode(Kind, Version, payload[:n])
		if _, err := Load(enc); err == nil {
			t.Errorf("payload cut at %d accepted", n)
		}
	}
	for i := 0; i < len(payload); i += max(1, len(payload)/200) {
		p := slices.Clone(payload)
		p[i] ^= 0xff
		enc, _ := modelfile.Encode(Kind, Version, p)
		if m, err := Load(enc); err == nil {
			m.NewTagger().Tag(&syntax.Sentence{Tokens: []syntax.Token{{Form: "a"}, {Form: "test"}}})
		}
	}
}

func TestTagEdgeCases(t *testing.T) {
	m, _ := trainFixture(t, 1, true)
	tg := m.NewTagger()
	tg.Tag(&syntax.Sentence{})
	s := &syntax.Sentence{Tokens: []syntax.Token{{Form: ""}, {Form: "Ünïcödé"}, {Form: "\xff\xfe"}, {Form: "1,234.5"}, {Form: strings.Repeat("x", 1000)}, {Form: "."}}}
	tg.Tag(s)
	for i, tk := range s.Tokens {
		if !slices.Contains(m.Tags(), tk.XPOS) {
			t.Errorf("token %d %q: tag %q not in the tag set", i, tk.Form, tk.XPOS)
		}
	}
	if _, _, err := Train(nil, nil, TrainOptions{Quiet: true}); !errors.Is(err, ErrNoData) {
		t.Errorf("Train without data: %v", err)
	}
	if a, c, n := Accuracy(m, nil); a != 0 || c != 0 || n != 0 {
		t.Errorf("Accuracy of nothing = %v %v %v", a, c, n)
	}
}

func TestZeroAllocs(t *testing.T) {
	m, sents := trainFixture(t, 1, true)
	tg := m.NewTagger()
	for _, s := range sents {
		tg.Tag(s)
	}
	allocs := testing.AllocsPerRun(20, func() {
		for _, s := range sents {
			tg.Tag(s)
		}
	})
	if allocs != 0 {
		t.Fatalf("Tag allocates %.1f times per pass over the fixture", allocs)
	}
}

func TestClustersDeterministic(t *testing.T) {
	c1 := fixtureClusters(t)
	c2 := fixtureClusters(t)
	if !slices.Equal(c1.keys, c2.keys) || !slices.Equal(c1.fine, c2.fine) || !slices.Equal(c1.coarse, c2.coarse) ||
		!slices.Equal(c1.lexTop, c2.lexTop) || !slices.Equal(c1.lexCls, c2.lexCls) || !slices.Equal(c1.lexTags, c2.lexTags) {
		t.Fatal("clusters differ between two runs")
	}
	if f, c := c1.NumClusters(); f != 16 || c > 4 || c1.Len() == 0 {
		t.Fatalf("got %d words, %d fine, %d coarse clusters", c1.Len(), f, c)
	}
	if _, err := LearnClusters(func(func([]string) bool) {}, ClusterOptions{}); err == nil {
		t.Fatal("clusters from an empty corpus")
	}
}

// modelPath is the shipped model, relative to this package.
var modelPath = filepath.Join("..", "internal", "core", "pipeline", "en-ewt-tagger-v4.qsm")

// shippedPath is the model the tests load: $QSC_TAGGER_MODEL, or the shipped one.
func shippedPath() string {
	if p := os.Getenv("QSC_TAGGER_MODEL"); p != "" {
		return p
	}
	return modelPath
}

func loadShipped(tb testing.TB) *Model {
	tb.Helper()
	path := shippedPath()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("%s not found; skipping", path)
	}
	if err != nil {
		tb.Fatal(err)
	}
	m, err := Load(data)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestShippedModelAccuracy checks the shipped model on EWT test (gold tokens, all
// tokens including punctuation) against a floor just under its measured accuracy.
func TestShippedModelAccuracy(t *testing.T) {
	test := readSents(t, shared.EWTTest)
	m := loadShipped(t)
	const floor = 0.955
	acc, c, n := Accuracy(m, test)
	t.Logf("EWT test: %d/%d = %.2f%%", c, n, 100*acc)
	if acc < floor {
		t.Fatalf("EWT test accuracy %.4f < floor %.3f", acc, floor)
	}
}

func benchTag(b *testing.B, m *Model, sents []*syntax.Sentence) {
	tokens := 0
	work := make([]*syntax.Sentence, len(sents))
	for i, s := range sents {
		work[i] = &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		tokens += len(s.Tokens)
	}
	tg := m.NewTagger()
	for _, s := range work {
		tg.Tag(s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Used()
	for b.Loop() {
		for _, s := range work {
			tg.Tag(s)
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(tokens)*float64(b.N)/sec, "tokens/s")
	b.ReportMetric(float64(len(work))*float64(b.N)/sec, "sentences/s")
	// On a shared machine wall time undercounts; the CPU time of the (single-goroutine)
	// loop gives the throughput per core.
	if cpu := (cputime.Used() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(tokens)*float64(b.N)/cpu, "tokens/cpu-s")
		b.ReportMetric(float64(len(work))*float64(b.N)/cpu, "sentences/cpu-s")
	}
}

// BenchmarkTag tags EWT dev with the shipped model.
func BenchmarkTag(b *testing.B) {
	dev := readSents(b, shared.EWTDev)
	benchTag(b, loadShipped(b), dev)
}

// BenchmarkTagFixture tags the embedded fixture with a model trained on it.
func BenchmarkTagFixture(b *testing.B) {
	m, sents := trainFixture(b, 1, true)
	benchTag(b, m, sents)
}

// TestConcurrent tags with one shared Model from several goroutines.
func TestConcurrent(t *testing.T) {
	m, sents := trainFixture(t, 1, true)
	want := make([][]string, len(sents))
	tg := m.NewTagger()
	for i, s := range sents {
		c := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		tg.Tag(c)
		for _, tk := range c.Tokens {
			want[i] = append(want[i], tk.XPOS)
		}
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			tg := m.NewTagger()
			for i, s := range sents {
				c := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
				tg.Tag(c)
				for j, tk := range c.Tokens {
					if tk.XPOS != want[i][j] {
						errs <- errors.New("concurrent tagging gave a different tag")
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestWordCache checks that the cached word scores change no tag: one Tagger tags many
// sentences (most words found in its cache, which is renewed more than once, since the
// sentences hold more than wordCacheSize distinct words), and a fresh Tagger tags each
// sentence alone; the tags must agree.
func TestWordCache(t *testing.T) {
	m, sents := trainFixture(t, 1, true)
	var all []*syntax.Sentence
	for r := 0; len(all) < 3*wordCacheSize/8; r++ {
		for _, s := range sents {
			c := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
			if r%2 == 1 { // unseen word forms, so that the cache fills up
				for i := range c.Tokens {
					c.Tokens[i].Form = fmt.Sprintf("%s%d", c.Tokens[i].Form, r)
				}
			}
			all = append(all, c)
		}
	}
	shared := m.NewTagger()
	for _, s := range all {
		a := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		b := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		shared.Tag(a)
		m.NewTagger().Tag(b)
		for i := range a.Tokens {
			if a.Tokens[i].XPOS != b.Tokens[i].XPOS {
				t.Fatalf("%q: token %d tagged %s with the warm cache, %s without", s.Tokens[i].Form, i, a.Tokens[i].XPOS, b.Tokens[i].XPOS)
			}
		}
	}
	if shared.words.renewed == 0 {
		t.Error("the cache was never renewed: the test does not reach that path")
	}
}

// TestStaticScores checks the cached scores against the features themselves: after Tag,
// the static scores of every token (its word, its neighbours and its context, summed from
// the cache) must equal the sum of the weights of appendStatic's keys, looked up directly.
func TestStaticScores(t *testing.T) {
	m, sents := trainFixture(t, 1, true)
	tg := m.NewTagger()
	T := len(m.tags)
	checked := 0
	for round := range 2 { // the second round finds every word in the cache
		for _, s := range sents {
			c := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
			tg.Tag(c)
			a := tg.ex.attrs
			for i := range c.Tokens {
				if a[i+pad].dict >= 0 {
					continue
				}
				var want [maxTags]int32
				ref := m.NewTagger()
				ref.addScores(&want, appendStatic(nil, a, i))
				if got := tg.static[i*T : (i+1)*T]; !slices.Equal(got, want[:T]) {
					t.Fatalf("round %d, %q token %d: static scores %v, want %v", round, c.Tokens[i].Form, i, got, want[:T])
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no token was scored")
	}
}

// profile returns the most frequent tag and the frequent tags of a word in c's lexicon.
func profile(c *Clusters, word string) (top string, class []string) {
	k, _ := normalizeKey(word, nil)
	s, ok := c.slot(k)
	if !ok || c.lexTop == nil || c.lexTop[s] == 0 {
		return "", nil
	}
	for b, t := range c.lexTags {
		if c.lexCls[s]&(1<<b) != 0 {
			class = append(class, t)
		}
	}
	return c.lexTags[c.lexTop[s]-1], class
}

// TestLexicon checks the tag profiles learned with the clusters from a tagged corpus.
func TestLexicon(t *testing.T) {
	c := fixtureClusters(t)
	if !slices.IsSorted(c.lexTags) || len(c.lexTags) < 10 {
		t.Fatalf("lexicon tags %v: want a sorted tag set", c.lexTags)
	}
	for word, want := range map[string]string{"the": "DT", "The": "DT", "of": "IN", ",": ",", "2005": "CD"} {
		top, class := profile(c, word)
		if top != want || !slices.Contains(class, want) {
			t.Errorf("%q: top tag %q, class %v; want top %q", word, top, class, want)
		}
	}
	// Every clustered word of a tagged corpus has a profile whose class holds its top tag.
	for s, k := range c.keys {
		if k == 0 {
			continue
		}
		if top := c.lexTop[s]; top == 0 || c.lexCls[s]&(1<<(top-1)) == 0 {
			t.Fatalf("slot %d: top %d, class %b", s, top, c.lexCls[s])
		}
	}
	// A word that is a noun 8 times and a verb twice has both in its class; at 19:1 the
	// rarer tag falls under lexMinShare. Profiles do not depend on the order tags appear.
	build := func(words []string, tags []string) *Clusters {
		tc := newTagCounter()
		keys := make([]uint64, 0, len(words))
		for i, w := range words {
			k, _ := normalizeKey(w, nil)
			tc.add(k, tags[i])
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		cl := newClusters(keys, make([]uint16, len(keys)), []uint8{0})
		tc.attach(cl)
		return cl
	}
	var words, tags []string
	for i := range 20 {
		words = append(words, "run", "walk")
		tags = append(tags, map[bool]string{true: "VB", false: "NN"}[i%10 < 2], map[bool]string{true: "VB", false: "NN"}[i == 0])
	}
	a := build(words, tags)
	slices.Reverse(words)
	slices.Reverse(tags)
	b := build(words, tags)
	for _, cl := range []*Clusters{a, b} {
		if top, class := profile(cl, "run"); top != "NN" || !slices.Equal(class, []string{"NN", "VB"}) {
			t.Errorf("run: %q %v", top, class)
		}
		if top, class := profile(cl, "walk"); top != "NN" || !slices.Equal(class, []string{"NN"}) {
			t.Errorf("walk: %q %v", top, class)
		}
	}
	if !slices.Equal(a.lexTop, b.lexTop) || !slices.Equal(a.lexCls, b.lexCls) {
		t.Error("profiles depend on the order of the corpus")
	}
}

// TestLoadFormatV1 loads a model file of format version 1 (before the tag profiles),
// written by the code of commit f49a3cc, and checks it tags as it did then.
func TestLoadFormatV1(t *testing.T) {
	data, err := os.ReadFile("testdata/format-v1.qsm")
	if err != nil {
		t.Fatal(err)
	}
	if _, v, err := modelfile.Decode(data, Kind); err != nil || v != 1 {
		t.Fatalf("fixture: version %d, %v", v, err)
	}
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.clust == nil || m.clust.lexTop != nil {
		t.Fatal("a version-1 file has clusters and no tag profiles")
	}
	want, err := os.ReadFile("testdata/format-v1.tags")
	if err != nil {
		t.Fatal(err)
	}
	sents := readFile(t, fixture)
	var got []byte
	tg := m.NewTagger()
	for _, s := range sents[len(sents)-20:] {
		tg.Tag(s)
		for _, tok := range s.Tokens {
			got = append(got, tok.XPOS...)
			got = append(got, ' ')
		}
		got = append(got, '\n')
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("tags of the version-1 model changed:\n%s\nwant:\n%s", got, want)
	}
}

// TestLexiconTooManyTags checks that a cluster corpus with more tag names than a profile
// can hold is refused with an error naming the file and the tag, not silently cut.
func TestLexiconTooManyTags(t *testing.T) {
	var b strings.Builder
	for i := range 70 {
		fmt.Fprintf(&b, "1\tw%d\t_\t_\tT%d\t_\t_\t_\t_\t_\n\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "tags.conllu")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LearnClustersFile(path, ClusterOptions{MinCount: 1, Fine: 2, Coarse: 1})
	if err == nil || !strings.Contains(err.Error(), "tags.conllu") || !strings.Contains(err.Error(), `"T64"`) {
		t.Fatalf("err = %v, want one naming the file and tag T64", err)
	}
}

// silverTags are the tags of the silver sentence "the blorf cat sleeps .".
var silverTags = []string{"DT", "JJ", "NN", "VBZ", "."}

// silverSents returns n caseless silver sentences "the blorf cat sleeps ." tagged
// silverTags, and one with a tag outside the gold tag set.
func silverSents(n int) []*syntax.Sentence {
	var out []*syntax.Sentence
	for range n {
		s := &syntax.Sentence{}
		for i, w := range strings.Fields("the blorf cat sleeps .") {
			wt := [2]string{w, silverTags[i]}
			s.Tokens = append(s.Tokens, syntax.Token{Form: wt[0], XPOS: wt[1]})
		}
		out = append(out, s)
	}
	return append(out, &syntax.Sentence{Tokens: []syntax.Token{{Form: "zork", XPOS: "ZZZ"}}})
}

// TestTrainSilver checks TrainOptions.Silver: the silver sentences teach the model (the
// fixture alone tags their words otherwise), lose their case-sensitive attributes,
// stay out of the tag set and the tag dictionary, and training stays deterministic.
func TestTrainSilver(t *testing.T) {
	sents := readFile(t, fixture)
	train := func(silver []*syntax.Sentence, copies int) *Model {
		m, _, err := Train(sents[:50], nil, TrainOptions{Epochs: 4, Seed: 3, Quiet: true, Silver: silver, GoldCopies: copies})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tagsOf := func(m *Model) []string {
		s := &syntax.Sentence{Tokens: []syntax.Token{{Form: "The"}, {Form: "blorf"}, {Form: "cat"}, {Form: "sleeps"}, {Form: "."}}}
		m.NewTagger().Tag(s)
		var tags []string
		for _, tok := range s.Tokens {
			tags = append(tags, tok.XPOS)
		}
		return tags
	}
	without, with := train(nil, 1), train(silverSents(40), 2)
	if got := tagsOf(without); slices.Equal(got, silverTags) {
		t.Fatalf("without silver data the sentence is already tagged %v: the test proves nothing", got)
	}
	if got := tagsOf(with); !slices.Equal(got, silverTags) {
		t.Errorf("with silver data the sentence is tagged %v, want the silver tags %v", got, silverTags)
	}
	if slices.Contains(with.Tags(), "ZZZ") {
		t.Errorf("a tag found only in the silver data entered the tag set %v", with.Tags())
	}
	if e := with.dict.find(hashing.String("blorf")); len(e) > 0 {
		t.Errorf("a word seen only in the silver data entered the tag dictionary")
	}
	b1, _ := with.MarshalBinary()
	b2, _ := train(silverSents(40), 2).MarshalBinary()
	if !bytes.Equal(b1, b2) {
		t.Errorf("two trainings with the same silver data and seed gave different model bytes")
	}
	// Silver tokens carry no case-sensitive attribute.
	tr := &trainer{base: with}
	tr.prepare(silverSents(1), true)
	for _, a := range tr.sents[0].attrs[pad : len(tr.sents[0].attrs)-pad] {
		if a.form != absent || a.shape != absent {
			t.Fatalf("silver attrs keep form %x / shape %x", a.form, a.shape)
		}
	}
}

// shippedV3 returns the shipped model file in the current format version: the file
// itself, or its conversion when it has an older version.
func shippedV3(tb testing.TB) []byte {
	tb.Helper()
	data, err := os.ReadFile(shippedPath())
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("%s not found; skipping", shippedPath())
	}
	if err != nil {
		tb.Fatal(err)
	}
	if _, v, err := modelfile.Decode(data, Kind); err != nil || v == Version {
		return data
	}
	m, err := Load(data)
	if err != nil {
		tb.Fatal(err)
	}
	if data, err = m.MarshalBinary(); err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkLoad loads the shipped model in the current format version (converted in
// memory first if the file has an older one).
func BenchmarkLoad(b *testing.B) {
	data := shippedV3(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadV2 loads a version-2 model file given as QSC_TAGGER_MODEL (the previous
// shipped file: git show 89fe039:internal/pipeline/en-ewt-tagger-v3.qsm): decoded and
// converted to the current layout.
func BenchmarkLoadV2(b *testing.B) {
	data, err := os.ReadFile(shippedPath())
	if err != nil {
		b.Skip(err)
	}
	if _, v, _ := modelfile.Decode(data, Kind); v != 2 {
		b.Skipf("%s has version %d; give a version-2 file as QSC_TAGGER_MODEL", shippedPath(), v)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Load(data); err != nil {
			b.Fatal(err)
		}
	}
}

// tableRows returns the rows of t, in ascending key order, as packed entries.
func tableRows(t *table) []row {
	var rows []row
	for k, e := range t.all() {
		r := row{key: k}
		for j := range len(e) / 3 {
			tag, w := entry(e, j)
			r.ents = append(r.ents, pack(tag, w))
		}
		rows = append(rows, r)
	}
	return rows
}

// TestTable builds tables of random rows and checks every lookup, the iteration, and the
// round trip through the file layout.
func TestTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randRows := func(n, maxEnts int) []row {
		set := map[uint64]bool{0: true, math.MaxUint64: true, 1 << 63: true, 1<<63 - 1: true}
		for len(set) < n {
			k := rng.Uint64()
			set[k] = true
			if rng.IntN(4) == 0 { // a neighbour, often in the same bucket
				set[k+1] = true
			}
		}
		keys := slices.Sorted(maps.Keys(set))[:n]
		rows := make([]row, n)
		for i, k := range keys {
			tags := rng.Perm(256)[:1+rng.IntN(maxEnts)]
			rows[i].key = k
			for _, tag := range tags {
				rows[i].ents = append(rows[i].ents, pack(tag, int16(rng.Uint32())))
			}
		}
		return rows
	}
	for _, tc := range []struct{ n, maxEnts int }{{0, 1}, {1, 1}, {2, 3}, {3, 256}, {5, 4}, {100, 4}, {4000, 49}, {70000, 3}, {2000, 256}} {
		rows := randRows(tc.n, tc.maxEnts)
		tab, err := buildTable(rows)
		if err != nil {
			t.Fatal(err)
		}
		if tc.maxEnts == 256 && tc.n > 1000 && tab.block == maxBlockBits {
			t.Errorf("%d rows of up to 256 entries: runs of 2^%d buckets, offsets beyond uint16", tc.n, tab.block)
		}
		if tab.n != tc.n {
			t.Fatalf("%d rows: table holds %d", tc.n, tab.n)
		}
		present := map[uint64]bool{}
		for _, r := range rows {
			present[r.key] = true
			e := tab.find(r.key)
			if len(e) != 3*len(r.ents) {
				t.Fatalf("key %x: %d entry bytes, want %d", r.key, len(e), 3*len(r.ents))
			}
			for j, want := range r.ents {
				if tag, w := entry(e, j); pack(tag, w) != want {
					t.Fatalf("key %x entry %d: %d %d, want %08x", r.key, j, tag, w, want)
				}
			}
		}
		for _, r := range rows {
			for _, k := range []uint64{r.key + 1, r.key - 1, r.key ^ 1<<40, r.key ^ 1<<50, r.key ^ 1<<63, rng.Uint64()} {
				if e := tab.find(k); present[k] != (e != nil) {
					t.Fatalf("key %x: found %v, present %v", k, e != nil, present[k])
				}
			}
		}
		if got := tableRows(&tab); !slices.EqualFunc(got, rows, func(a, b row) bool { return a.key == b.key && slices.Equal(a.ents, b.ents) }) {
			t.Fatalf("%d rows: iteration differs", tc.n)
		}
		enc := appendTable(nil, &tab)
		d := &decoder{b: enc}
		back := d.table3(256)
		if d.err != nil || len(d.b) != 0 {
			t.Fatalf("%d rows: reading the table back: %v", tc.n, d.err)
		}
		if !bytes.Equal(appendTable(nil, &back), enc) {
			t.Fatalf("%d rows: the table re-encodes differently", tc.n)
		}
	}
	for name, rows := range map[string][]row{
		"descending keys": {{key: 2, ents: []uint32{pack(1, 1)}}, {key: 1, ents: []uint32{pack(1, 1)}}},
		"duplicate keys":  {{key: 2, ents: []uint32{pack(1, 1)}}, {key: 2, ents: []uint32{pack(2, 1)}}},
		"257 entries":     {{key: 2, ents: make([]uint32, 257)}},
		"tag 256":         {{key: 2, ents: []uint32{pack(256, 1)}}},
	} {
		if _, err := buildTable(rows); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// Rows without entries are left out.
	if tab, err := buildTable([]row{{key: 1}, {key: 2, ents: []uint32{pack(3, -5)}}}); err != nil || tab.n != 1 || tab.find(1) != nil || len(tab.find(2)) != 3 {
		t.Errorf("a row without entries: %v, %d rows", err, tab.n)
	}
}

// v3Payload returns the payload of m's file and the offset in it of the feature table.
func v3Payload(tb testing.TB, m *Model) ([]byte, int) {
	tb.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	payload, v, err := modelfile.Decode(data, Kind)
	if err != nil || v != Version {
		tb.Fatalf("version %d, %v", v, err)
	}
	f := &m.feats
	return payload, len(payload) - (10 + len(f.base) + len(f.delta) + len(f.data))
}

// TestLoadCorruptTable damages the feature table of a version-3 payload, in a
// well-formed container: the structural faults must give an error, and no damage may
// panic, at load or when tagging.
func TestLoadCorruptTable(t *testing.T) {
	m, _ := trainFixture(t, 1, true)
	payload, at := v3Payload(t, m)
	f := &m.feats
	load := func(p []byte) (*Model, error) {
		enc, err := modelfile.Encode(Kind, Version, p)
		if err != nil {
			t.Fatal(err)
		}
		return Load(enc)
	}
	if _, err := load(payload); err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	baseAt := at + 10
	deltaAt := baseAt + len(f.base)
	dataAt := deltaAt + len(f.delta)
	// A bucket of the second run with at least two rows, and its offset.
	per := 1 << f.block
	b2 := -1
	for b := per + 1; b < 1<<f.bits; b++ {
		if p := f.off(b); f.off(b+1) > p+f.kb+4+3*int(f.data[p+f.kb]) && b%per != 0 {
			b2 = b
			break
		}
	}
	if b2 < 0 || f.off(per) == 0 {
		t.Fatalf("no bucket of the second run with two rows (%d buckets, runs of %d)", 1<<f.bits, per)
	}
	row, runEnd := f.off(b2), f.off(b2-b2%per+per)
	row2 := row + f.kb + 4 + 3*int(f.data[row+f.kb])
	damage := map[string]func(p []byte){
		"no bucket bits":           func(p []byte) { p[at] = 0 },
		"too many bucket bits":     func(p []byte) { p[at] = maxBucketBits + 1 },
		"more bucket bits":         func(p []byte) { p[at]++ },
		"runs longer than buckets": func(p []byte) { p[at+1] = p[at] + 1 },
		"shorter runs":             func(p []byte) { p[at+1]-- },
		"row count + 1":            func(p []byte) { le.PutUint32(p[at+2:], uint32(f.n+1)) },
		"row count - 1":            func(p []byte) { le.PutUint32(p[at+2:], uint32(f.n-1)) },
		"data size + 1":            func(p []byte) { le.PutUint32(p[at+6:], uint32(len(f.data)+1)) },
		"data size - 1":            func(p []byte) { le.PutUint32(p[at+6:], uint32(len(f.data)-1)) },
		"first base not 0":         func(p []byte) { le.PutUint32(p[baseAt:], 1) },
		"base past the data":       func(p []byte) { le.PutUint32(p[baseAt+4:], uint32(len(f.data)+1)) },
		"descending bases":         func(p []byte) { le.PutUint32(p[baseAt+4:], le.Uint32(p[baseAt+8:])+1) },
		"last base short":          func(p []byte) { le.PutUint32(p[dataAt-len(f.delta)-4:], uint32(len(f.data)-1)) },
		"delta of a run's start":   func(p []byte) { le.PutUint16(p[deltaAt+2*per:], 1) },
		"end delta":                func(p []byte) { le.PutUint16(p[dataAt-2:], 1) },
		"delta past the run":       func(p []byte) { le.PutUint16(p[deltaAt+2*b2:], uint16(runEnd-f.off(per*(b2/per))+1)) },
		"delta inside a row":       func(p []byte) { le.PutUint16(p[deltaAt+2*b2:], le.Uint16(p[deltaAt+2*b2:])+1) },
		"descending deltas":        func(p []byte) { le.PutUint16(p[deltaAt+2*b2+2:], le.Uint16(p[deltaAt+2*b2:])-1) },
		"count past the bucket":    func(p []byte) { p[dataAt+row+f.kb] = 255 },
		"count short":              func(p []byte) { p[dataAt+row+f.kb]-- },
		"tag out of the set":       func(p []byte) { p[dataAt+row+f.kb+1] = byte(len(m.tags)) },
		"last tag out of the set":  func(p []byte) { p[dataAt+row2-3] = 255 },
		"equal keys":               func(p []byte) { copy(p[dataAt+row2:dataAt+row2+f.kb], p[dataAt+row:]) },
		"bucket bits in a key":     func(p []byte) { p[dataAt+row+f.kb-1] |= 0x80 },
	}
	if 8*f.kb == 64-int(f.bits) {
		t.Fatalf("%d bucket bits leave no spare bit in a stored key: pick another fixture", f.bits)
	}
	for name, d := range damage {
		p := slices.Clone(payload)
		d(p)
		if _, err := load(p); err == nil {
			t.Errorf("%s: accepted", name)
		} else if !errors.Is(err, errCorrupt) {
			t.Errorf("%s: error %v", name, err)
		}
	}
	for n := at; n < len(payload); n += max(1, (len(payload)-at)/200) {
		if _, err := load(payload[:n]); err == nil {
			t.Errorf("payload cut at %d (the table starts at %d) accepted", n, at)
		}
	}
	// Any byte: an error or a model that tags.
	s := &syntax.Sentence{Tokens: []syntax.Token{{Form: "The"}, {Form: "test"}, {Form: "is"}, {Form: "short"}, {Form: "."}}}
	for i := at; i < len(payload); i += max(1, (len(payload)-at)/400) + i%3 {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			p := slices.Clone(payload)
			p[i] ^= x
			if m, err := load(p); err == nil {
				m.NewTagger().Tag(s)
			}
		}
	}
}

// FuzzLoad loads damaged payloads in a well-formed container: an error or a model that
// tags, never a panic.
func FuzzLoad(f *testing.F) {
	m, _ := trainFixture(f, 1, false)
	payload, _ := v3Payload(f, m)
	f.Add(payload)
	f.Fuzz(func(t *testing.T, p []byte) {
		enc, err := modelfile.Encode(Kind, Version, p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(enc)
		if err != nil {
			return
		}
		m.NewTagger().Tag(&syntax.Sentence{Tokens: []syntax.Token{{Form: "The"}, {Form: "test"}, {Form: "."}}})
		if _, err := m.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	})
}

// v2Rows reads the feature table of a version-2 payload, independently of Load.
func v2Rows(tb testing.TB, p []byte) []row {
	tb.Helper()
	le := binary.LittleEndian
	skip := func(n int) {
		if n > len(p) {
			tb.Fatal("version-2 payload too short")
		}
		p = p[n:]
	}
	nt := int(le.Uint16(p))
	skip(2)
	for range nt {
		skip(1 + int(p[0]))
	}
	table := func() []row {
		n := int(le.Uint32(p))
		skip(4)
		rows := make([]row, n)
		for i := range rows {
			rows[i].key = le.Uint64(p)
			c := int(le.Uint16(p[8:]))
			skip(10)
			for j := range c {
				rows[i].ents = append(rows[i].ents, le.Uint32(p[4*j:]))
			}
			skip(4 * c)
		}
		return rows
	}
	table() // the tag dictionary
	if p[0] == 1 {
		skip(1)
		nf := int(le.Uint16(p))
		skip(2 + nf)
		nw := int(le.Uint32(p))
		skip(4 + 10*nw)
		nlex := int(p[0])
		skip(1)
		for range nlex {
			skip(1 + int(p[0]))
		}
		if nlex > 0 {
			skip(9 * nw)
		}
	} else {
		skip(1)
	}
	rows := table()
	if len(p) != 0 {
		tb.Fatalf("%d bytes after the feature table", len(p))
	}
	return rows
}

// TestShippedModelV3 checks the shipped model in the current format: it re-encodes to
// its own bytes, and, given a version-2 file as QSC_TAGGER_MODEL (en-ewt-tagger-v3.qsm:
// git show 89fe039:internal/pipeline/en-ewt-tagger-v3.qsm), its conversion keeps every
// feature row and tags EWT dev exactly as the file loaded as it is.
func TestShippedModelV3(t *testing.T) {
	v3 := shippedV3(t)
	m3, err := Load(v3)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := m3.MarshalBinary(); !bytes.Equal(again, v3) {
		t.Fatal("the shipped model re-encodes to other bytes")
	}
	data, _ := os.ReadFile(shippedPath())
	payload, v, err := modelfile.Decode(data, Kind)
	if err != nil {
		t.Fatal(err)
	}
	if v == Version {
		return // the file is the version-3 one checked above
	}
	rows := v2Rows(t, payload)
	if m3.feats.n != len(rows) {
		t.Fatalf("%d feature rows, the version-2 file has %d", m3.feats.n, len(rows))
	}
	got := tableRows(&m3.feats)
	for i, r := range rows {
		if got[i].key != r.key || !slices.Equal(got[i].ents, r.ents) {
			t.Fatalf("row %d: key %x entries %x, want key %x entries %x", i, got[i].key, got[i].ents, r.key, r.ents)
		}
	}
	t.Logf("version 2: %d bytes; version 3: %d bytes; %d rows", len(data), len(v3), len(rows))
	m2, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	dev := readSents(t, shared.EWTDev)
	t2, t3 := m2.NewTagger(), m3.NewTagger()
	tokens := 0
	for si, s := range dev {
		a := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		b := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		t2.Tag(a)
		t3.Tag(b)
		for i := range a.Tokens {
			if a.Tokens[i].XPOS != b.Tokens[i].XPOS {
				t.Fatalf("sentence %d token %d %q: %s with the version-2 file, %s with version 3", si, i, s.Tokens[i].Form, a.Tokens[i].XPOS, b.Tokens[i].XPOS)
			}
		}
		tokens += len(a.Tokens)
	}
	t.Logf("EWT dev: the %d tags agree", tokens)
}
