package tagger

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/cputime"
	"github.com/qsc-nlp/qsc/internal/hashing"
	"github.com/qsc-nlp/qsc/internal/modelfile"
	"github.com/qsc-nlp/qsc/internal/shared"
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
var modelPath = filepath.Join("..", "internal", "pipeline", "en-ewt-tagger-v3.qsm")

func loadShipped(tb testing.TB) *Model {
	tb.Helper()
	path := modelPath
	if p := os.Getenv("QSC_TAGGER_MODEL"); p != "" {
		path = p
	}
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
// sentences (most words found in its cache, which is emptied more than once, since the
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
	resets := 0
	for _, s := range all {
		a := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		b := &syntax.Sentence{Tokens: slices.Clone(s.Tokens)}
		before := len(shared.words)
		shared.Tag(a)
		if len(shared.words) < before {
			resets++
		}
		m.NewTagger().Tag(b)
		for i := range a.Tokens {
			if a.Tokens[i].XPOS != b.Tokens[i].XPOS {
				t.Fatalf("%q: token %d tagged %s with the warm cache, %s without", s.Tokens[i].Form, i, a.Tokens[i].XPOS, b.Tokens[i].XPOS)
			}
		}
	}
	if resets == 0 {
		t.Errorf("the cache was never emptied (%d words in it): the test does not reach that path", len(shared.words))
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
