package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
)

const fixture = "testdata/fixture.conllu"

func byID(ts []*Tuple) map[string]*Tuple {
	m := map[string]*Tuple{}
	for _, t := range ts {
		m[t.ID] = t
	}
	return m
}

// checkTuple checks the invariants every tuple must satisfy.
func checkTuple(t *testing.T, tu *Tuple) {
	t.Helper()
	if len(tu.Query) < 1 || len(tu.Query) > MaxQuery {
		t.Errorf("%s: |Q| = %d", tu.ID, len(tu.Query))
	}
	if !slices.IsSorted(tu.Query) || !slices.IsSorted(tu.Gold) {
		t.Errorf("%s: Q %v or gold %v not ascending", tu.ID, tu.Query, tu.Gold)
	}
	nouns := 0
	for _, g := range tu.Gold {
		if IsNoun(tu.Sentence.Tokens[g-1].XPOS) {
			nouns++
		}
	}
	if want := min(nouns, MaxQuery); len(tu.Query) > want {
		t.Errorf("%s: |Q| = %d but gold has %d nouns", tu.ID, len(tu.Query), nouns)
	}
	for i, q := range tu.Query {
		if !slices.Contains(tu.Gold, q) {
			t.Errorf("%s: query token %d not in gold %v", tu.ID, q, tu.Gold)
		}
		if x := tu.Sentence.Tokens[q-1].XPOS; !IsNoun(x) {
			t.Errorf("%s: query token %d has tag %s", tu.ID, q, x)
		}
		if i > 0 && tu.Query[i-1] == q {
			t.Errorf("%s: query %v repeats a token", tu.ID, tu.Query)
		}
	}
}

func TestLoadFixture(t *testing.T) {
	d, err := Load(fixture, Test, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// fx-02: gold "It rained heavily ." has no noun; fx-07: suspect and no noun (counted
	// once, as no noun); fx-03: suspect; fx-04: every Keep=No.
	want := Counts{Read: 11, EmptyGold: 1, NoNoun: 2, Suspect: 1, SuspectAll: 2, Kept: 7}
	if d.Counts != want {
		t.Errorf("counts = %+v, want %+v", d.Counts, want)
	}
	if got := d.Counts.PaperFilter(); got != 8 { // 11 − 1 empty − 2 no noun
		t.Errorf("PaperFilter = %d, want 8", got)
	}
	var ids []string
	for _, tu := range d.Tuples {
		ids = append(ids, tu.ID)
		checkTuple(t, tu)
		if tu.Split != Test {
			t.Errorf("%s: split %q", tu.ID, tu.Split)
		}
	}
	if want := []string{"fx-01", "fx-05", "fx-06", "fx-08", "fx-09", "fx-10", "fx-11"}; !slices.Equal(ids, want) {
		t.Errorf("kept %v, want %v (file order)", ids, want)
	}
	m := byID(d.Tuples)
	for _, c := range []struct {
		id     string
		gold   []int
		budget int
	}{
		// "Five people were hurt ." = 4+6+4+4+1 + 4 spaces.
		{"fx-01", []int{1, 2, 3, 4, 8}, 23},
		// 16 gold tokens: 68 characters + 15 spaces.
		{"fx-05", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 19}, 83},
		// "The mayor of Québec opened a bridge ." = 3+5+2+6+6+1+6+1 + 7 = 37 runes (38 bytes).
		{"fx-06", []int{1, 2, 3, 4, 5, 6, 8, 11}, 37},
		// "NHS trusts missed targets ." = 3+6+6+7+1 + 4.
		{"fx-08", []int{1, 2, 4, 6, 8}, 27},
		// "Scientists discovered a new species of frog ." = 38 + 7.
		{"fx-11", []int{1, 4, 5, 6, 7, 8, 9, 10}, 45},
	} {
		tu := m[c.id]
		if tu == nil {
			t.Errorf("%s missing", c.id)
			continue
		}
		if !slices.Equal(tu.Gold, c.gold) || tu.Budget != c.budget {
			t.Errorf("%s: gold %v b %d; want %v b %d", c.id, tu.Gold, tu.Budget, c.gold, c.budget)
		}
	}
	// fx-01 has a single noun in its gold (people): Q must be exactly it.
	if q := m["fx-01"].Query; !slices.Equal(q, []int{2}) {
		t.Errorf("fx-01: Q = %v, want [2]", q)
	}
	// Gold ratio of fx-01: 23 / len("Five people were hurt in a crash .") = 23 / (27 + 7).
	if r, err := m["fx-01"].GoldRatio(); err != nil || r != 23.0/34 {
		t.Errorf("fx-01: gold ratio %v, %v; want 23/34", r, err)
	}
	if m["fx-01"].Raw != nil {
		t.Error("Raw kept without KeepRaw")
	}
	d2, err := Load(fixture, Test, Options{Seed: 1, KeepRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	if raw := d2.Tuples[0].Raw; raw == nil || raw.Text() != "Five people were hurt in a crash." {
		t.Errorf("KeepRaw: Raw = %+v", raw)
	}
}

// writeReversed writes the sentences of the fixture in reverse order to a temporary file.
func writeReversed(t *testing.T) string {
	t.Helper()
	ss, err := conllu.ReadAll(fixture)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(ss)
	p := filepath.Join(t.TempDir(), "reversed.conllu")
	w, err := conllu.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		w.Write(s)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func summary(d *Data) string {
	var b strings.Builder
	ts := slices.Clone(d.Tuples)
	slices.SortFunc(ts, func(x, y *Tuple) int { return strings.Compare(x.ID, y.ID) })
	for _, t := range ts {
		fmt.Fprintf(&b, "%s %s Q=%v b=%d C=%v\n", t.ID, t.Split, t.Query, t.Budget, t.Gold)
	}
	return b.String()
}

func TestDeterministicAndOrderIndependent(t *testing.T) {
	rev := writeReversed(t)
	for _, file := range []Split{Test, Train} {
		opts := Options{Seed: 1, Validation: 2}
		a, err := Load(fixture, file, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Load(fixture, file, opts)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Load(rev, file, opts)
		if err != nil {
			t.Fatal(err)
		}
		if summary(a) != summary(b) {
			t.Errorf("%s: two loads differ:\n%s\n%s", file, summary(a), summary(b))
		}
		if summary(a) != summary(c) {
			t.Errorf("%s: reversed file gives other tuples:\n%s\n%s", file, summary(a), summary(c))
		}
		if file == Train {
			// The whole order, not only the set, is independent of the file order.
			for i := range a.Tuples {
				if a.Tuples[i].ID != c.Tuples[i].ID {
					t.Errorf("train order differs at %d: %s vs %s", i, a.Tuples[i].ID, c.Tuples[i].ID)
				}
			}
		}
		other, err := Load(fixture, file, Options{Seed: 2, Validation: 2})
		if err != nil {
			t.Fatal(err)
		}
		if summary(a) == summary(other) {
			t.Errorf("%s: seeds 1 and 2 give the same tuples", file)
		}
	}
}

func TestSplit(t *testing.T) {
	d, err := Load(fixture, Train, Options{Seed: 1, Validation: 2})
	if err != nil {
		t.Fatal(err)
	}
	tr, va := d.Split(Train), d.Split(Validation)
	if len(tr) != 5 || len(va) != 2 || d.Counts.Kept != 7 {
		t.Fatalf("train %d, validation %d, kept %d; want 5, 2, 7", len(tr), len(va), d.Counts.Kept)
	}
	// Training tuples first, then validation.
	if !slices.Equal(d.Tuples[5:], va) {
		t.Error("validation tuples are not last")
	}
	// A query does not depend on the split or on the other sentences.
	test, err := Load(fixture, Test, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tm := byID(test.Tuples)
	for _, tu := range d.Tuples {
		if !slices.Equal(tu.Query, tm[tu.ID].Query) {
			t.Errorf("%s: Q %v as train, %v as test", tu.ID, tu.Query, tm[tu.ID].Query)
		}
	}
	if d, err := Load(fixture, Train, Options{Seed: 1, Validation: -1}); err != nil || len(d.Split(Validation)) != 0 {
		t.Errorf("Validation -1: %v", err)
	}
	if _, err := Load(fixture, Train, Options{Seed: 1}); err == nil || !strings.Contains(err.Error(), "25000") {
		t.Errorf("default validation on 7 tuples: err = %v", err)
	}
	if _, err := Load(fixture, Train, Options{Seed: 1, Validation: 7}); err == nil {
		t.Error("validation = all tuples: no error")
	}
	if _, err := Load(fixture, Validation, Options{}); err == nil {
		t.Error("Load(Validation): no error")
	}
}

func TestSampleQuery(t *testing.T) {
	// 3000 sentences with 5 candidate nouns: each size 1..3 about 1000 times, each
	// candidate about as often as the others.
	size := map[int]int{}
	picked := map[int]int{}
	for i := range 3000 {
		q := sampleQuery([]int{2, 4, 6, 8, 10}, 1, fmt.Sprintf("s%d", i))
		size[len(q)]++
		for _, x := range q {
			picked[x]++
		}
		if !slices.IsSorted(q) {
			t.Fatalf("query %v not sorted", q)
		}
	}
	for k := 1; k <= 3; k++ {
		if size[k] < 850 || size[k] > 1150 {
			t.Errorf("|Q| = %d drawn %d times of 3000", k, size[k])
		}
	}
	// Expected picks per candidate: 3000 · E|Q| / 5 = 3000 · 2 / 5 = 1200.
	for _, x := range []int{2, 4, 6, 8, 10} {
		if picked[x] < 1050 || picked[x] > 1350 {
			t.Errorf("candidate %d picked %d times, want about 1200", x, picked[x])
		}
	}
	// Fewer candidates than the drawn size: all of them.
	for i := range 50 {
		if q := sampleQuery([]int{7}, 1, fmt.Sprint(i)); !slices.Equal(q, []int{7}) {
			t.Fatalf("single candidate: %v", q)
		}
	}
	if q := sampleQuery(nil, 1, "x"); q != nil {
		t.Errorf("no candidates: %v", q)
	}
}

func TestLoadErrors(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	write := func(s string) string {
		p := filepath.Join(t.TempDir(), "bad.conllu")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"bad keep", strings.Replace(string(data), "GDep=conj|Keep=Yes", "GDep=conj|Keep=Maybe", 1),
			[]string{"bad.conllu:", "fx-05", "word 12", `Keep="Maybe"`}},
		{"no keep", strings.Replace(string(data), "GDep=num|Keep=Yes", "GDep=num", 1),
			[]string{"bad.conllu:", "fx-01", "word 1", `Keep=""`}},
		{"no sent_id", strings.Replace(string(data), "# sent_id = fx-02\n", "", 1),
			[]string{"bad.conllu:", "no sent_id"}},
		{"duplicate", strings.Replace(string(data), "fx-02", "fx-01", 1),
			[]string{"bad.conllu:", "fx-01", "duplicate"}},
		{"malformed", strings.Replace(string(data), "1\tFive\t_", "1\tFive", 1),
			[]string{"bad.conllu:4:", "columns"}},
	} {
		_, err := Load(write(c.text), Test, Options{})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.conllu"), Test, Options{}); err == nil {
		t.Error("missing file: no error")
	}
}

func TestRealTest(t *testing.T) {
	p := shared.Require(t, shared.GoogleTest)
	d, err := Load(p, Test, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Counts
	t.Logf("test counts: %+v", c)
	if c.Read != 10000 || c.SuspectAll != 171 {
		t.Errorf("read %d (want 10000), suspect %d (want 171)", c.Read, c.SuspectAll)
	}
	// The paper kept 9,949 after its noun filter (different tagger); ours must be close.
	if pf := c.PaperFilter(); pf < 9900 || pf > 10000 {
		t.Errorf("sentences with a noun in gold: %d, want about 9,949", pf)
	}
	if c.Kept != c.Read-c.EmptyGold-c.NoNoun-c.Suspect || c.Kept != len(d.Tuples) {
		t.Errorf("inconsistent counts %+v, %d tuples", c, len(d.Tuples))
	}
	if c.Kept < 9700 || c.Kept > 9829 { // 10,000 − 171 − no-noun, no-noun ≥ 0 and small
		t.Errorf("kept %d", c.Kept)
	}
	for _, tu := range d.Tuples {
		checkTuple(t, tu)
	}
}

func TestRealTrain(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the 200,000-sentence train file")
	}
	p := shared.Require(t, shared.GoogleTrain)
	d, err := Load(p, Train, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Counts
	t.Logf("train counts: %+v", c)
	// The paper: 198,570 training+validation tuples.
	if c.Read != 200000 || c.SuspectAll != 0 || c.Kept < 195000 || c.Kept > 200000 {
		t.Errorf("counts %+v", c)
	}
	if n := len(d.Split(Validation)); n != DefaultValidation || len(d.Split(Train)) != c.Kept-n {
		t.Errorf("validation %d, train %d", n, len(d.Split(Train)))
	}
	for _, tu := range d.Tuples {
		checkTuple(t, tu)
	}
}
