package lm

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fallback are lmplz's --discount_fallback values, for corpora too small to estimate
// discounts.
var fallback = &[3]float64{0.5, 1, 1.5}

// toy is the corpus of the hand computation below.
const toy = "a b\nb a b\n"

func trainString(t testing.TB, text string, opts Options) *Model {
	t.Helper()
	m, err := Train(strings.NewReader(text), opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ngramText returns the n-grams of one order with their adjusted counts, as text.
func adjusted(t *Trainer, n int) map[string]uint64 {
	out := map[string]uint64{}
	l := t.adjustedCounts()[n]
	for i, k := range l.keys {
		var ws []string
		for j := 0; j < n; j++ {
			ws = append([]string{t.words[uint32(k)&wordMask]}, ws...)
			k >>= wordBits
		}
		if l.counts[i] > 0 {
			out[strings.Join(ws, " ")] = l.counts[i]
		}
	}
	return out
}

// TestAdjustedCounts checks lmplz's counting on the toy corpus: raw counts at the top
// order, continuation counts below, raw counts for n-grams starting with <s>, and no
// "<s> <s> w" trigram.
func TestAdjustedCounts(t *testing.T) {
	tr, _ := NewTrainer(Options{})
	for _, s := range strings.Split(strings.TrimSpace(toy), "\n") {
		if err := tr.Add(strings.Fields(s)); err != nil {
			t.Fatal(err)
		}
	}
	want := []map[string]uint64{
		1: {"a": 2, "b": 2, "</s>": 1},
		2: {"<s> a": 1, "<s> b": 1, "a b": 2, "b </s>": 1, "b a": 1},
		3: {"<s> a b": 1, "a b </s>": 2, "<s> b a": 1, "b a b": 1},
	}
	for n := 1; n <= 3; n++ {
		got := adjusted(tr, n)
		if len(got) != len(want[n]) {
			t.Errorf("order %d: got %v, want %v", n, got, want[n])
			continue
		}
		for g, c := range want[n] {
			if got[g] != c {
				t.Errorf("order %d: a(%s) = %d, want %d (all: %v)", n, g, got[g], c, got)
			}
		}
	}
}

// TestToyProbabilities checks the model against probabilities worked out by hand from
// the adjusted counts above with the fallback discounts D = 0.5, 1, 1.5 at every order.
func TestToyProbabilities(t *testing.T) {
	m := trainString(t, toy, Options{DiscountFallback: fallback})
	if got := m.Counts(); !slices.Equal(got, []int{5, 5, 4}) {
		t.Fatalf("counts %v, want [5 5 4]", got)
	}
	id := func(w string) uint32 { return m.ids[w] }
	a, b, s, e, unk := id("a"), id("b"), m.BOS(), m.EOS(), m.Unk()
	// Unigrams: Σa = 5, γ = (0.5·1 + 1·2)/5 = 0.5, spread over the 4 words other than <s>.
	// a(a) = a(b) = 2, a(</s>) = 1.
	pa, pe, punk := 1.0/5+0.125, 0.5/5+0.125, 0.125
	// Bigram contexts: <s> {a:1, b:1}, a {b:2}, b {</s>:1, a:1}; γ = 0.5 for each.
	pbA := 1.0/2 + 0.5*pa   // p(b | a)
	paB := 0.5/2 + 0.5*pa   // p(a | b)
	peB := 0.5/2 + 0.5*pe   // p(</s> | b)
	paS := 0.5/2 + 0.5*pa   // p(a | <s>)
	pbSA := 0.5 + 0.5*pbA   // p(b | <s> a)
	peAB := 1.0/2 + 0.5*peB // p(</s> | a b)
	cases := []struct {
		name string
		ctx  []uint32
		w    uint32
		want float64
	}{
		{"p(a)", nil, a, pa},
		{"p(</s>)", nil, e, pe},
		{"p(<unk>)", nil, unk, punk},
		{"p(b|a)", []uint32{a}, b, pbA},
		{"p(a|b)", []uint32{b}, a, paB},
		{"p(a|<s>)", []uint32{s}, a, paS},
		{"p(b|<s> a)", []uint32{s, a}, b, pbSA},
		{"p(</s>|a b)", []uint32{a, b}, e, peAB},
		{"p(a|a b), backed off", []uint32{a, b}, a, 0.5 * paB},
		{"p(<unk>|<s>), backed off", []uint32{s}, unk, 0.5 * punk},
		{"p(a|b b), unseen context", []uint32{b, b}, a, paB},
	}
	for _, c := range cases {
		if got := math.Pow(10, float64(m.Cond(c.ctx, c.w))); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("%s = %.7f, want %.7f", c.name, got, c.want)
		}
	}
	score := math.Log10(paS * pbSA * peAB)
	if got := m.Score([]string{"a", "b"}); math.Abs(got-score) > 1e-5 {
		t.Errorf("Score(a b) = %.6f, want %.6f", got, score)
	}
	slor := (score - 2*math.Log10(pa)) / 2
	if got, err := m.SLOR([]string{"A", "b"}); err != nil || math.Abs(got-slor) > 1e-5 {
		t.Errorf("SLOR(A b) = %.6f, %v; want %.6f", got, err, slor)
	}
	if got, err := m.SLORTokens([]string{"x", "A", "b"}, []int{3, 2}); err != nil || math.Abs(got-slor) > 1e-5 {
		t.Errorf("SLORTokens = %.6f, %v; want %.6f", got, err, slor)
	}
	// An unknown word reads as <unk>, in the LM and in the unigram sum alike.
	unkSLOR := (m.Score([]string{"zzz"}) - math.Log10(punk)) / 1
	if got, _ := m.SLOR([]string{"ZZZ"}); math.Abs(got-unkSLOR) > 1e-5 {
		t.Errorf("SLOR(ZZZ) = %.6f, want %.6f", got, unkSLOR)
	}
	if _, err := m.SLOR(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("SLOR(nil): err %v, want ErrEmpty", err)
	}
	for _, ids := range [][]int{{0}, {4}, {1, 1}} {
		if _, err := m.SLORTokens([]string{"a", "b", "c"}, ids); err == nil {
			t.Errorf("SLORTokens(%v): no error", ids)
		}
	}
}

// TestUnigramModes checks the unigram level with and without interpolation on the toy.
func TestUnigramModes(t *testing.T) {
	m := trainString(t, toy, Options{DiscountFallback: fallback, NoUnigramInterpolation: true})
	// Without interpolation <unk> takes all of γ = 0.5; a gets (2 − 1)/5.
	for _, c := range []struct {
		w    string
		want float64
	}{{"a", 0.2}, {"</s>", 0.1}, {UnkWord, 0.5}} {
		if got := math.Pow(10, float64(m.Unigram(m.ids[c.w]))); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("p(%s) = %g, want %g", c.w, got, c.want)
		}
	}
	if got := m.Unigram(m.BOS()); got != 0 {
		t.Errorf("log10 p(<s>) = %g, want 0 as lmplz writes it", got)
	}
}

// readLines returns the first n lines of a fixture (all when n ≤ 0).
func readLines(t testing.TB, path string, n int) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if n > 0 && n < len(lines) {
		lines = lines[:n]
	}
	return strings.Join(lines, "")
}

// contexts returns every context of m: the empty one and every n-gram of order below
// m.Order() that some higher-order n-gram extends.
func contexts(m *Model) [][]uint32 {
	out := [][]uint32{nil}
	seen := map[uint64]bool{}
	for n := 2; n <= m.Order(); n++ {
		for _, k := range m.grams[n].keys {
			ctx := k >> wordBits
			if seen[uint64(n)<<60|ctx] {
				continue
			}
			seen[uint64(n)<<60|ctx] = true
			ids := make([]uint32, n-1)
			for j := n - 2; j >= 0; j-- {
				ids[j] = uint32(ctx) & wordMask
				ctx >>= wordBits
			}
			out = append(out, ids)
		}
	}
	return out
}

// checkSumsToOne checks that p(· | h) sums to 1 over the vocabulary without <s> for
// every context h of m.
func checkSumsToOne(t *testing.T, m *Model, what string) {
	t.Helper()
	ctxs := contexts(m)
	worst := 0.0
	for _, h := range ctxs {
		var sum float64
		for w := range uint32(m.Vocab()) {
			if w != m.BOS() {
				sum += math.Exp(math.Ln10 * float64(m.Cond(h, w)))
			}
		}
		if d := math.Abs(sum - 1); d > worst {
			worst = d
		}
		if math.Abs(sum-1) > 1e-4 {
			t.Errorf("%s: Σ_w p(w | %v) = %.7f", what, h, sum)
			return
		}
	}
	t.Logf("%s: %d contexts, %d words: max |Σ p − 1| = %.2g", what, len(ctxs), m.Vocab(), worst)
}

// TestSumsToOne checks every context of models of each order and unigram mode, trained
// on the first 80 sentences of the fixture, before and after an ARPA round trip.
func TestSumsToOne(t *testing.T) {
	text := readLines(t, "testdata/ewt500.txt", 80)
	for order := 1; order <= MaxOrder; order++ {
		for _, noInterp := range []bool{false, true} {
			m := trainString(t, text, Options{Order: order, NoUnigramInterpolation: noInterp, DiscountFallback: fallback})
			name := "order " + string(rune('0'+order))
			if noInterp {
				name += ", no unigram interpolation"
			}
			checkSumsToOne(t, m, name)
			var buf bytes.Buffer
			if err := m.WriteARPA(&buf); err != nil {
				t.Fatal(err)
			}
			r, err := ReadARPA(&buf)
			if err != nil {
				t.Fatal(err)
			}
			checkSumsToOne(t, r, name+", read back from ARPA")
		}
	}
}

// TestARPARoundTrip checks that writing, reading and writing again gives the same bytes,
// through a gzip file too, and that training twice gives the same bytes.
func TestARPARoundTrip(t *testing.T) {
	text := readLines(t, "testdata/ewt500.txt", 0)
	m := trainString(t, text, Options{})
	var a, b, c bytes.Buffer
	if err := m.WriteARPA(&a); err != nil {
		t.Fatal(err)
	}
	r, err := ReadARPA(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteARPA(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("ARPA → model → ARPA changed the bytes")
	}
	if err := trainString(t, text, Options{}).WriteARPA(&c); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("training twice gave different ARPA bytes")
	}
	path := filepath.Join(t.TempDir(), "m.arpa.gz")
	if err := m.WriteARPAFile(path); err != nil {
		t.Fatal(err)
	}
	g, err := ReadARPAFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Counts(), m.Counts()) {
		t.Errorf("gzip round trip: counts %v, want %v", g.Counts(), m.Counts())
	}
	for _, s := range strings.Split(text, "\n")[:50] {
		ws := strings.Fields(s)
		if x, y := m.Score(ws), g.Score(ws); math.Abs(x-y) > 1e-9 {
			t.Errorf("score of %q: %g trained, %g read back", s, x, y)
		}
	}
	if !strings.HasPrefix(a.String(), "\\data\\\nngram 1=") {
		t.Errorf("ARPA starts with %q", a.String()[:20])
	}
}

// TestReadARPATolerant reads a hand-written file in IRSTLM's and SRILM's styles.
func TestReadARPATolerant(t *testing.T) {
	const text = `some text before the header

\data\
ngram  1=      4
ngram  2=      2

\1-grams:
-1.0	<s>	-0.5
-0.5 a -0.3
-0.7	</s>
-99	b

\2-grams:
-0.2	a </s>
-0.3  <s>  a	0

\end\
`
	m, err := ReadARPA(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Counts(), []int{5, 2}) {
		t.Errorf("counts %v, want [5 2] (<unk> added)", m.Counts())
	}
	if got := m.Unigram(m.Unk()); got != -100 {
		t.Errorf("added <unk>: log10 p = %g, want -100 as KenLM", got)
	}
	// p(a | <s>) = -0.3; p(b | <s>) backs off: -0.5 + -99.
	if got := m.Cond([]uint32{m.BOS()}, m.ID("a")); got != -0.3 {
		t.Errorf("log10 p(a|<s>) = %g, want -0.3", got)
	}
	if got := m.Cond([]uint32{m.BOS()}, m.ID("b")); math.Abs(float64(got)+99.5) > 1e-4 {
		t.Errorf("log10 p(b|<s>) = %g, want -99.5", got)
	}
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	zw.Write([]byte(text))
	zw.Close()
	if _, err := ReadARPA(&zbuf); err != nil {
		t.Errorf("gzip: %v", err)
	}
}

func TestReadARPAErrors(t *testing.T) {
	const head = "\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n-1\t<s>\t-0.5\n-1\ta\t0\n-1\t</s>\n\n\\2-grams:\n"
	cases := []struct{ name, text, want string }{
		{"empty", "", "no \\data\\"},
		{"no counts", "\\data\\\n\\1-grams:\n", "no n-gram counts"},
		{"bad count", "\\data\\\nngram 1=x\n", "bad header line"},
		{"order 4", "\\data\\\nngram 1=1\nngram 2=1\nngram 3=1\nngram 4=1\n\\1-grams:\n", "order 4"},
		{"no end", head + "-1\t<s> a\n", "no \\end\\"},
		{"unknown word", head + "-1\t<s> zz\n\\end\\\n", "word \"zz\""},
		{"too many", head + "-1\t<s> a\n-1\ta </s>\n\\end\\\n", "more 2-grams"},
		{"too few", "\\data\\\nngram 1=4\n\\1-grams:\n-1\t<s>\n-1\t</s>\n\\end\\\n", "2 1-grams, but the header says 4"},
		{"bad prob", head + "x\t<s> a\n\\end\\\n", "bad log10 probability"},
		{"short line", head + "-1\t<s>\n\\end\\\n", "2-gram line"},
		{"repeated", "\\data\\\nngram 1=3\n\\1-grams:\n-1\t<s>\n-1\t<s>\n-1\t</s>\n\\end\\\n", "repeated"},
		{"no </s>", "\\data\\\nngram 1=1\n\\1-grams:\n-1\t<s>\n\\end\\\n", "no 1-gram for </s>"},
	}
	for _, c := range cases {
		_, err := ReadARPA(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// The line number is in the message.
	_, err := ReadARPA(strings.NewReader(head + "x\t<s> a\n\\end\\\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "arpa:11:") {
		t.Errorf("error %v, want it to start with arpa:11:", err)
	}
	if _, err := ReadARPAFile(filepath.Join(t.TempDir(), "missing.arpa")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestTrainErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"bos", "a <s> b\n", "line 1: lm: word 2 is <s>"},
		{"eos", "a\nb </s>\n", "line 2: lm: word 2 is </s>"},
		{"empty corpus", "", "no sentences"},
		{"tiny", "a b\n", "cannot estimate Kneser–Ney discounts"},
	} {
		_, err := Train(strings.NewReader(c.text), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	for _, o := range []Options{{Order: 4}, {Order: -1}, {DiscountFallback: &[3]float64{2, 1, 1}}, {Discounts: [][3]float64{{0.5, 1, 1.5}}}} {
		if _, err := NewTrainer(o); err == nil {
			t.Errorf("NewTrainer(%+v): no error", o)
		}
	}
	tr, _ := NewTrainer(Options{})
	for _, ws := range [][]string{{""}, {"a b"}, {"a\tb"}} {
		if err := tr.Add(ws); err == nil {
			t.Errorf("Add(%q): no error", ws)
		}
	}
	if tr.Sentences() != 0 {
		t.Errorf("%d sentences added by failing calls", tr.Sentences())
	}
	// An empty sentence is "<s> </s>".
	if err := tr.Add(nil); err != nil || tr.Sentences() != 1 || tr.Tokens() != 0 {
		t.Errorf("Add(nil): %v, %d sentences, %d tokens", err, tr.Sentences(), tr.Tokens())
	}
}

// TestNoAllocs checks that queries allocate nothing.
func TestNoAllocs(t *testing.T) {
	m := trainString(t, readLines(t, "testdata/ewt500.txt", 0), Options{})
	ids := []uint32{m.ID("the"), m.ID("man"), m.ID("zzz"), m.ID("said")}
	if n := testing.AllocsPerRun(100, func() { m.Cond(ids[:2], ids[2]) }); n != 0 {
		t.Errorf("Cond: %g allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { m.ScoreIDs(ids) }); n != 0 {
		t.Errorf("ScoreIDs: %g allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { m.SLORIDs(ids) }); n != 0 {
		t.Errorf("SLORIDs: %g allocations", n)
	}
}

// TestNormalize checks the corpus normalization SLOR applies.
func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"Police": "police", "2014": "##", "$5": "##", "<unk>": "<unk>", "Élan": "élan"} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	m := trainString(t, readLines(t, "testdata/ewt500.txt", 0), Options{})
	a, _ := m.SLOR([]string{"The", "Man", "said", "2,000"})
	b, _ := m.SLOR([]string{"the", "man", "said", "##"})
	if a != b {
		t.Errorf("SLOR depends on case or digits: %g vs %g", a, b)
	}
}

// lines splits a fixture into sentences of words.
func lines(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, strings.Fields(sc.Text()))
	}
	return out
}
