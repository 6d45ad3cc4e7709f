package ood

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
)

// keepOf returns the Keep labels of a shipped sentence, failing on a missing or bad one.
func keepOf(t *testing.T, id string, s *conllu.Sentence) []bool {
	t.Helper()
	keep := make([]bool, len(s.Words))
	for i, w := range s.Words {
		switch k := conllu.MiscValue(w.Misc, "Keep"); k {
		case "Yes":
			keep[i] = true
		case "No":
		default:
			t.Fatalf("%s word %d: Keep=%q in MISC %q, want Yes or No", id, w.ID, k, w.Misc)
		}
	}
	return keep
}

// TestShipped checks the embedded set: its size and genre spread, the Keep labels against
// the "# compression" comments, the character ratios and the gold trees. With -v it prints
// the statistics that data/README.md quotes.
func TestShipped(t *testing.T) {
	ss, err := Sentences()
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) < 300 {
		t.Fatalf("%d sentences, want at least 300", len(ss))
	}
	perGenre := map[string]int{}
	perSplit := map[string]int{}
	seen := map[string]bool{}
	var ratios []float64
	sum := 0.0
	for _, s := range ss {
		id, ok := s.Meta("sent_id")
		if !ok || seen[id] {
			t.Fatalf("sentence without sent_id or duplicate %q", id)
		}
		seen[id] = true
		g := Genre(s)
		if !slices.Contains(Genres, g) || !strings.HasPrefix(id, g+"-") {
			t.Errorf("%s: genre %q, want one of %v matching the sent_id", id, g, Genres)
		}
		perGenre[g]++
		sp, _ := s.Meta("ewt_split")
		perSplit[sp]++
		if !s.Parsed() {
			t.Errorf("%s: no gold tree (a HEAD is _)", id)
		}
		keep := keepOf(t, id, s)
		comp, ok := s.Meta("compression")
		if !ok || comp == "" {
			t.Fatalf("%s: no # compression", id)
		}
		if r := render(s, keep); r != comp {
			t.Errorf("%s: # compression %q, but the kept words read %q", id, comp, r)
		}
		if again, _, err := align(s, comp); err != nil || !slices.Equal(again, keep) {
			t.Errorf("%s: # compression does not align back to the Keep labels (%v)", id, err)
		}
		r, err := ratio(s, keep)
		if err != nil {
			t.Fatal(err)
		}
		if r < minRatio || r > maxRatio {
			t.Errorf("%s: character ratio %.3f outside [%.1f, %.1f]", id, r, minRatio, maxRatio)
		}
		noun := false
		for i, w := range s.Words {
			noun = noun || (keep[i] && dataset.IsNoun(w.XPOS))
		}
		if !noun {
			t.Errorf("%s: no noun kept", id)
		}
		ratios = append(ratios, r)
		sum += r
	}
	for _, g := range Genres {
		if perGenre[g] < 50 {
			t.Errorf("genre %s: %d sentences, want at least 50", g, perGenre[g])
		}
	}
	mean := sum / float64(len(ratios))
	if mean < 0.6 || mean > 0.8 {
		t.Errorf("mean character ratio %.3f outside [0.6, 0.8]", mean)
	}
	sort.Float64s(ratios)
	q := func(p float64) float64 { return ratios[int(math.Round(p*float64(len(ratios)-1)))] }
	t.Logf("%d sentences; per genre %v; per EWT file %v", len(ss), perGenre, perSplit)
	t.Logf("character ratio: mean %.3f, min %.3f, 10%% %.3f, median %.3f, 90%% %.3f, max %.3f",
		mean, ratios[0], q(0.1), q(0.5), q(0.9), ratios[len(ratios)-1])
	aim := 0
	for _, r := range ratios {
		if r >= 0.6 && r <= 0.8 {
			aim++
		}
	}
	t.Logf("%d of %d within the aim [0.6, 0.8]", aim, len(ratios))
	hist := map[string]int{}
	for _, r := range ratios {
		lo := math.Floor(r*20) / 20
		hist[fmt.Sprintf("[%.2f, %.2f)", lo, lo+0.05)]++
	}
	keys := make([]string, 0, len(hist))
	for k := range hist {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %s %d", k, hist[k])
	}
}

// TestDatasetReads checks that internal/lab/dataset, which evaluation uses, reads the shipped
// file as a test split and keeps every sentence.
func TestDatasetReads(t *testing.T) {
	d, err := dataset.Load(filepath.FromSlash(File), dataset.Test, dataset.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := Sentences()
	if err != nil {
		t.Fatal(err)
	}
	if d.Counts.Kept != len(ss) {
		t.Fatalf("dataset keeps %d of %d sentences (counts %+v)", d.Counts.Kept, len(ss), d.Counts)
	}
}

func TestGenre(t *testing.T) {
	s := &conllu.Sentence{Comments: []string{"# sent_id = email-enronsent01_01-0007"}}
	if g := Genre(s); g != "email" {
		t.Errorf("Genre from sent_id = %q, want email", g)
	}
	s.SetMeta("genre", "reviews")
	if g := Genre(s); g != "reviews" {
		t.Errorf("Genre from # genre = %q, want reviews", g)
	}
	if g := Genre(&conllu.Sentence{}); g != "" {
		t.Errorf("Genre of a sentence without ids = %q, want empty", g)
	}
}

// TestBuilderRejects checks that the builder refuses a compression that is not a deletion,
// keeps no noun, falls outside the ratio bounds or breaks an editing rule, naming the
// sentence; and that a needless waiver is refused too.
func TestBuilderRejects(t *testing.T) {
	ss, err := Sentences()
	if err != nil {
		t.Fatal(err)
	}
	s := ss[0] // "President Bush on Tuesday nominated two individuals to replace retiring jurists ..."
	id, _ := s.Meta("sent_id")
	c := chosen{s: s, id: id, genre: Genre(s)}
	good, _ := s.Meta("compression")
	if _, _, err := compress(c, entry{text: good}); err != nil {
		t.Fatalf("shipped compression refused: %v", err)
	}
	for _, tc := range []struct {
		name, text string
		waive      []string
		want       string
	}{
		{"reordered", "Bush President nominated two individuals.", nil, "not a deletion"},
		{"changed word", "President Bush nominated three individuals to replace retiring jurists on federal courts.", nil, "not a deletion"},
		{"too long", "President Bush nominated two individuals to replace retiring jurists on federal courts in the Washington area.", nil, "ratio"},
		{"too short", "Bush nominated two individuals.", nil, "ratio"},
		{"root dropped", "President Bush two individuals to replace retiring jurists on federal courts in the area.", nil, "root"},
		{"no subject", "nominated two individuals to replace retiring jurists on federal courts in the area.", nil, "core"},
		{"needless waiver", good, []string{"aux"}, `breaks no "aux" rule`},
	} {
		_, _, err := compress(c, entry{text: tc.text, waive: tc.waive, line: 7})
		if err == nil || !strings.Contains(err.Error(), id) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one naming %s and %q", tc.name, err, id, tc.want)
		}
	}
	noNoun := make([]bool, len(s.Words))
	for i, w := range s.Words {
		noNoun[i] = !dataset.IsNoun(w.XPOS)
	}
	if v := violations(s, noNoun); !slices.ContainsFunc(v, func(x string) bool { return strings.HasPrefix(x, "noun:") }) {
		t.Errorf("violations without nouns = %v, want a noun violation", v)
	}
}

// TestAlign checks the alignment on the shipped sentences' own words: ties go to the
// alignment that keeps words with their heads, and a glued chunk may span a gap.
func TestAlign(t *testing.T) {
	s := &conllu.Sentence{}
	for i, f := range strings.Fields("the cat and the dog left .") {
		s.Words = append(s.Words, conllu.Word{ID: i + 1, Form: f, Misc: "_", Head: 0})
	}
	s.Words[5].Misc = "SpaceAfter=No"
	keep, differs, err := align(s, "the dog left.")
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, false, false, true, true, true, true}
	if !slices.Equal(keep, want) || !differs {
		t.Errorf("keep = %v (greedy differs %v), want %v and a greedy difference", keep, differs, want)
	}
	if got := render(s, keep); got != "the dog left." {
		t.Errorf("render = %q", got)
	}
	if _, _, err := align(s, "the do g"); err == nil {
		t.Error("a space inside a token was accepted")
	}
}
