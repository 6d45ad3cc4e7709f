package lm

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The IRSTLM fixture: the corpus (the first 500 sentences of UD_English-EWT train, each
// word passed through Normalize) and what IRSTLM 6.00.05 (Debian irstlm) built from it
// with
//
//	sed 's/^/<s> /; s/$/ <\/s>/' ewt500.txt > ewt500.se
//	tlm -tr=ewt500.se -n=3 -lm=ikn -ps=no -o=ewt500.arpa > ewt500.log 2>&1
//
// -lm=ikn is IRSTLM's "improved Kneser–Ney", the modified Kneser–Ney of Chen & Goodman
// (D1, D2, D3+ per order from count-of-counts); -ps=no turns off its default pruning of
// singleton n-grams. Its log holds the count-of-counts and the discounts of each order.
const (
	irstCorpus = "testdata/ewt500.txt"
	irstARPA   = "testdata/ewt500.irstlm-ikn.arpa.gz"
	irstLog    = "testdata/ewt500.irstlm-ikn.log"
)

// Tolerances of the cross-check (see docs/slor.md).
const (
	// IRSTLM prints 6 significant digits: its discounts carry a rounding error below 1e-5.
	tolDiscount = 1e-5
	// The discounted part u of p(w | h) and the backoff weight γ(h), each recovered from
	// three rounded ARPA values, agree to this fraction of p(w | h) and of γ(h).
	tolRelative = 5e-5
	// Each model with its own discounts and unigram level, log10 p(w | h) of every token
	// of the corpus: the mean and the largest absolute difference stay below these (the
	// unigram levels differ by design; measured: 0.0043 and 0.11).
	tolMeanLog10 = 0.01
	tolMaxLog10  = 0.25
)

// irstStats are the count-of-counts n1…n4 and discounts D1, D2, D3+ of each order, as
// IRSTLM's tlm prints them.
type irstStats struct {
	cc        [][4]uint64
	discounts [][3]float64
}

func parseIRSTLog(t testing.TB, r io.Reader) irstStats {
	t.Helper()
	var st irstStats
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 8 || f[0] != "n1:" {
			continue
		}
		var cc [4]uint64
		for i := range 4 {
			v, err := strconv.ParseUint(f[2*i+1], 10, 64)
			if err != nil || f[2*i] != fmt.Sprintf("n%d:", i+1) {
				t.Fatalf("IRSTLM log: bad statistics line %q", sc.Text())
			}
			cc[i] = v
		}
		if !sc.Scan() {
			t.Fatal("IRSTLM log: no discounts after the statistics")
		}
		var d [3]float64
		df := strings.Fields(sc.Text())
		if len(df) != 3 {
			t.Fatalf("IRSTLM log: bad discount line %q", sc.Text())
		}
		for i := range 3 {
			v, err := strconv.ParseFloat(df[i], 64)
			if err != nil {
				t.Fatalf("IRSTLM log: bad discount line %q", sc.Text())
			}
			d[i] = v
		}
		st.cc = append(st.cc, cc)
		st.discounts = append(st.discounts, d)
	}
	if len(st.cc) != 3 {
		t.Fatalf("IRSTLM log: statistics for %d orders, want 3", len(st.cc))
	}
	return st
}

// words returns the words of a packed n-gram of order n of m.
func (m *Model) ngramWords(key uint64, n int) []string {
	ws := make([]string, n)
	for j := n - 1; j >= 0; j-- {
		ws[j] = m.words[uint32(key)&wordMask]
		key >>= wordBits
	}
	return ws
}

// entry returns the entry of an n-gram given by its words.
func (m *Model) entry(ws []string) (Entry, bool) {
	var key uint64
	for _, w := range ws {
		id, ok := m.ids[w]
		if !ok {
			return Entry{}, false
		}
		key = key<<wordBits | uint64(id)
	}
	if len(ws) == 1 {
		return m.uni[key], true
	}
	p := m.grams[len(ws)].find(key)
	if p < 0 {
		return Entry{}, false
	}
	return m.grams[len(ws)].vals[p], true
}

func pow10(x float32) float64 { return math.Exp(math.Ln10 * float64(x)) }

// crossCheck compares our models of the corpus with IRSTLM's model ir and its log.
func crossCheck(t *testing.T, ir *Model, st irstStats) {
	text := readLines(t, irstCorpus, 0)
	mine := trainString(t, text, Options{})
	tr, _ := NewTrainer(Options{})
	for _, ws := range lines(t, irstCorpus) {
		tr.Add(ws)
	}
	levels := tr.adjustedCounts()

	// 1. The same n-grams, but for the start of IRSTLM's stream: it pads the first
	// sentence with an extra <s>, which makes "<s> <s>", "<s> <s> <s>" and
	// "<s> <s> w1".
	for n := 1; n <= 3; n++ {
		for k := range uint64(mine.Counts()[n-1]) {
			key := k
			if n > 1 {
				key = mine.grams[n].keys[k]
			}
			if ws := mine.ngramWords(key, n); !has(ir, ws) {
				t.Errorf("%d-gram %q is not in IRSTLM's model", n, ws)
			}
		}
		extra := ir.Counts()[n-1] - mine.Counts()[n-1]
		if extra < 0 || extra > 2 {
			t.Errorf("order %d: IRSTLM has %d n-grams more, want 0 to 2", n, extra)
		}
		if n > 1 {
			for _, key := range ir.grams[n].keys {
				if ws := ir.ngramWords(key, n); !has(mine, ws) && (ws[0] != BOSWord || ws[1] != BOSWord) {
					t.Errorf("IRSTLM's %d-gram %q is not ours and not from its stream start", n, ws)
				}
			}
		}
	}

	// 2. Count-of-counts: the same at order 1; off by the stream-start n-grams above.
	for n := 1; n <= 3; n++ {
		var cc [4]uint64
		for _, c := range levels[n].counts {
			if c >= 1 && c <= 4 {
				cc[c-1]++
			}
		}
		for k := range 4 {
			d := int64(st.cc[n-1][k]) - int64(cc[k])
			if (n == 1 && d != 0) || d < -2 || d > 2 {
				t.Errorf("order %d: n%d = %d ours, %d IRSTLM's", n, k+1, cc[k], st.cc[n-1][k])
			}
		}
		t.Logf("order %d count-of-counts: ours %v, IRSTLM's %v", n, cc, st.cc[n-1])
	}

	// 3. Discounts from those counts: equal at order 1, close above.
	for n := 1; n <= 3; n++ {
		var worst float64
		for k := range 3 {
			worst = math.Max(worst, math.Abs(mine.Discounts()[n-1][k]-st.discounts[n-1][k]))
		}
		if n == 1 && worst > tolDiscount {
			t.Errorf("order 1 discounts: ours %v, IRSTLM's %v", mine.Discounts()[0], st.discounts[0])
		}
		t.Logf("order %d discounts: ours %.6f, IRSTLM's %v: max |ΔD| = %.2g", n, mine.Discounts()[n-1], st.discounts[n-1], worst)
	}

	// 4. Unigrams: IRSTLM does not discount them, p(w) = a(w)/B, so its probabilities
	// give back our continuation counts a(w) up to one factor B.
	{
		var sumA, sumP float64
		for id, a := range levels[1].counts {
			w := tr.words[id]
			if w == UnkWord || w == BOSWord {
				continue
			}
			e, _ := ir.entry([]string{w})
			sumA += float64(a)
			sumP += pow10(e.LogProb)
		}
		b := sumA / sumP
		var worst float64
		for id, a := range levels[1].counts {
			w := tr.words[id]
			if w == UnkWord || w == BOSWord {
				continue
			}
			e, _ := ir.entry([]string{w})
			d := math.Abs(pow10(e.LogProb)*b-float64(a)) / float64(a)
			worst = math.Max(worst, d)
		}
		if worst > tolRelative {
			t.Errorf("unigram continuation counts from IRSTLM's p(w)·B: max relative error %.2g", worst)
		}
		t.Logf("unigrams: IRSTLM's p(w)·%.1f = our a(w) within %.2g (relative)", b, worst)
	}

	// 5. With IRSTLM's discounts, every bigram (context other than <s>) and trigram (not
	// from the stream start) splits as p(w|h) = u + γ(h)·p(w|h′) into the same u and γ.
	same := trainString(t, text, Options{Discounts: st.discounts})
	var worstU, worstG [4]float64
	var compared [4]int
	for n := 2; n <= 3; n++ {
		for _, key := range same.grams[n].keys {
			ws := same.ngramWords(key, n)
			if ws[0] == BOSWord && (n == 2 || ws[1] == BOSWord) {
				continue
			}
			var u, g, p [2]float64
			for i, m := range []*Model{same, ir} {
				e, ok1 := m.entry(ws)
				c, ok2 := m.entry(ws[:n-1])
				l, ok3 := m.entry(ws[1:])
				if !ok1 || !ok2 || !ok3 {
					t.Fatalf("%q: missing in model %d", ws, i)
				}
				p[i], g[i] = pow10(e.LogProb), pow10(c.Backoff)
				u[i] = p[i] - g[i]*pow10(l.LogProb)
			}
			du, dg := math.Abs(u[0]-u[1])/p[0], math.Abs(g[0]-g[1])/g[0]
			if du > tolRelative || dg > tolRelative {
				t.Errorf("%q: u %.7g vs %.7g, γ %.7g vs %.7g (p %.7g)", ws, u[0], u[1], g[0], g[1], p[0])
			}
			worstU[n], worstG[n] = math.Max(worstU[n], du), math.Max(worstG[n], dg)
			compared[n]++
		}
		t.Logf("order %d, IRSTLM's discounts: %d n-grams, max |Δu|/p = %.2g, max |Δγ|/γ = %.2g", n, compared[n], worstU[n], worstG[n])
	}

	// 6. End to end, each with its own discounts and unigram level: log10 p of every
	// token of the corpus and of </s>.
	var sum, worst float64
	var tokens int
	for _, ws := range lines(t, irstCorpus) {
		a, b := make([]uint32, len(ws)+1), make([]uint32, len(ws)+1)
		for i, w := range ws {
			a[i], b[i] = mine.ID(w), ir.ID(w)
		}
		a[len(ws)], b[len(ws)] = mine.EOS(), ir.EOS()
		ca, cb := []uint32{mine.BOS()}, []uint32{ir.BOS()}
		for i := range a {
			d := math.Abs(float64(mine.Cond(ca, a[i]) - ir.Cond(cb, b[i])))
			sum += d
			worst = math.Max(worst, d)
			tokens++
			ca, cb = append(ca, a[i]), append(cb, b[i])
		}
	}
	if mean := sum / float64(tokens); mean > tolMeanLog10 || worst > tolMaxLog10 {
		t.Errorf("|Δ log10 p| per token: mean %.3g, max %.3g; want below %g and %g", mean, worst, tolMeanLog10, tolMaxLog10)
	}
	t.Logf("end to end, %d tokens: mean |Δ log10 p| = %.3g, max %.3g", tokens, sum/float64(tokens), worst)
}

func has(m *Model, ws []string) bool {
	_, ok := m.entry(ws)
	return ok
}

// TestIRSTLMCrossCheck compares our model with the committed IRSTLM model of the same
// corpus; it needs no IRSTLM.
func TestIRSTLMCrossCheck(t *testing.T) {
	ir, err := ReadARPAFile(irstARPA)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(irstLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	crossCheck(t, ir, parseIRSTLog(t, f))
}

// tlmPath returns IRSTLM's tlm, on $PATH or where Debian's irstlm installs it.
func tlmPath() string {
	if p, err := exec.LookPath("tlm"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/lib/irstlm/bin/tlm"); err == nil {
		return "/usr/lib/irstlm/bin/tlm"
	}
	return ""
}

// TestIRSTLMRebuild builds the IRSTLM model again with the installed irstlm and runs
// the cross-check on it; it skips when irstlm is not installed.
func TestIRSTLMRebuild(t *testing.T) {
	tlm := tlmPath()
	if tlm == "" {
		t.Skip("IRSTLM's tlm is not installed (apt-get install irstlm); TestIRSTLMCrossCheck checks the committed IRSTLM model")
	}
	dir := t.TempDir()
	var se bytes.Buffer
	for _, ws := range lines(t, irstCorpus) {
		se.WriteString(BOSWord + " " + strings.Join(ws, " ") + " " + EOSWord + "\n")
	}
	train := filepath.Join(dir, "ewt500.se")
	if err := os.WriteFile(train, se.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ewt500.arpa")
	cmd := exec.Command(tlm, "-tr="+train, "-n=3", "-lm=ikn", "-ps=no", "-o="+out)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", tlm, err, log.String())
	}
	ir, err := ReadARPAFile(out)
	if err != nil {
		t.Fatal(err)
	}
	crossCheck(t, ir, parseIRSTLog(t, &log))
	// Report whether the fixture is what this IRSTLM writes.
	fresh, _ := os.ReadFile(out)
	zf, err := os.Open(irstARPA)
	if err != nil {
		t.Fatal(err)
	}
	defer zf.Close()
	zr, err := gzip.NewReader(zf)
	if err != nil {
		t.Fatal(err)
	}
	committed, _ := io.ReadAll(zr)
	t.Logf("fresh IRSTLM model identical to the committed one: %t", bytes.Equal(fresh, committed))
}
