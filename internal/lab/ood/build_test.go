package ood

// The builder of data/ewt-snippets.conllu. It selects the sentences from UD_English-EWT in
// ../shared, aligns each hand-written compression of data/compressions.tsv to its words,
// checks it against the editing rules and writes the CoNLL-U. Run
//
//	go test ./internal/lab/ood -run TestBuild -update     # rewrite the shipped file
//	go test ./internal/lab/ood -run TestBuild -v          # check it is reproduced byte for byte
//	go test ./internal/lab/ood -run TestBuild -todo       # print the selected sentences still without a compression

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/metrics"
)

var (
	update  = flag.Bool("update", false, "rebuild "+File+" from ../shared and data/compressions.tsv")
	listNew = flag.Bool("todo", false, "print the selected sentences that have no compression yet")
)

// The selection rule (data/README.md repeats it).
const (
	selSalt   = "qsc-ood-ewt-v1" // sentences are taken in the order of SHA-256(selSalt + sent_id)
	perBucket = 32               // sentences per genre and split (dev, test)
	perDoc    = 3                // at most this many from one EWT document
	minWords  = 12               // non-punctuation words
	maxWords  = 45
	minRatio  = 0.5 // character ratio bounds of a compression (hard)
	maxRatio  = 0.9
)

const (
	tsvPath      = "data/compressions.tsv"
	rejectedPath = "data/rejected.tsv"
)

// split is one EWT file the set draws from.
type split struct {
	name, rel string
}

var splits = []split{{"dev", shared.EWTDev}, {"test", shared.EWTTest}}

// entry is one line of compressions.tsv.
type entry struct {
	text  string
	waive []string // rules the editor judged not to apply, with the third column "waive=a,b"
	line  int
}

// readTSV reads "sent_id<TAB>text[<TAB>extra]" lines; '#' lines and blank lines are skipped.
// For compressions.tsv extra is "waive=rule,rule"; for rejected.tsv the second column is the reason.
func readTSV(path string) (map[string]entry, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	m := map[string]entry{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 || len(cols) > 3 || cols[0] == "" || strings.TrimSpace(cols[1]) == "" {
			return nil, nil, fmt.Errorf("%s:%d: want sent_id<TAB>text[<TAB>waive=rule,...], got %q", path, n, line)
		}
		if _, dup := m[cols[0]]; dup {
			return nil, nil, fmt.Errorf("%s:%d: %s: duplicate sent_id", path, n, cols[0])
		}
		e := entry{text: strings.TrimSpace(cols[1]), line: n}
		if len(cols) == 3 {
			w, ok := strings.CutPrefix(cols[2], "waive=")
			if !ok || w == "" {
				return nil, nil, fmt.Errorf("%s:%d: %s: third column %q, want waive=rule,...", path, n, cols[0], cols[2])
			}
			e.waive = strings.Split(w, ",")
		}
		m[cols[0]] = e
		order = append(order, cols[0])
	}
	return m, order, sc.Err()
}

// docOf returns the EWT document of a sent_id: the id without its final "-NNNN".
func docOf(id string) string {
	if i := strings.LastIndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	return id
}

// eligible reports whether an EWT sentence may be selected, or why not: 12–45 words besides
// punctuation, a noun, a finite verb, final . ! or ?, no URL, e-mail address, file name or
// phone number, and not mostly in capitals.
func eligible(s *conllu.Sentence) (bool, string) {
	n, noun, fin := 0, false, false
	upper, letters := 0, 0
	for _, w := range s.Words {
		if w.UPOS != "PUNCT" {
			n++
		}
		noun = noun || dataset.IsNoun(w.XPOS)
		fin = fin || strings.Contains(w.Feats, "VerbForm=Fin")
		f := strings.ToLower(w.Form)
		if strings.Contains(f, "://") || strings.Contains(f, "www.") || strings.Contains(f, "@") ||
			strings.Contains(w.Misc, "FlatType=") {
			return false, "url/address"
		}
		for _, r := range w.Form {
			if unicode.IsLetter(r) {
				letters++
				if unicode.IsUpper(r) {
					upper++
				}
			}
		}
	}
	switch {
	case n < minWords || n > maxWords:
		return false, "length"
	case !noun:
		return false, "no noun"
	case !fin:
		return false, "no finite verb"
	case 2*upper > letters:
		return false, "capitals"
	}
	last := len(s.Words) - 1
	for last > 0 && strings.ContainsAny(s.Words[last].Form, `"')]`) && s.Words[last].UPOS == "PUNCT" {
		last--
	}
	if w := s.Words[last]; w.UPOS != "PUNCT" || !strings.ContainsAny(w.Form, ".!?") {
		return false, "no final punctuation"
	}
	return true, ""
}

// chosen is a selected sentence.
type chosen struct {
	s            *conllu.Sentence
	id, genre    string
	split        string
	pos          int // position in its EWT file
	greedyDiffer bool
	ratio        float64 // of its compression, once built
	done         bool    // it has a compression
}

// selectSentences returns the selection: for each genre and split, the first perBucket eligible
// sentences not rejected by hand, in the order of SHA-256(selSalt + sent_id), at most perDoc
// per document; in file order, dev first.
func selectSentences(files [][]*conllu.Sentence, rejected map[string]entry) ([]chosen, error) {
	var out []chosen
	for si, sents := range files {
		type cand struct {
			chosen
			key [32]byte
		}
		byGenre := map[string][]cand{}
		for pos, s := range sents {
			id, _ := s.Meta("sent_id")
			g := Genre(s)
			if !slices.Contains(Genres, g) {
				return nil, fmt.Errorf("%s: sentence %s: genre %q is not one of %v", splits[si].name, id, g, Genres)
			}
			if ok, _ := eligible(s); !ok {
				continue
			}
			byGenre[g] = append(byGenre[g], cand{chosen{s: s, id: id, genre: g, split: splits[si].name, pos: pos},
				sha256.Sum256([]byte(selSalt + id))})
		}
		var picked []chosen
		for _, g := range Genres {
			cs := byGenre[g]
			sort.Slice(cs, func(i, j int) bool { return bytes.Compare(cs[i].key[:], cs[j].key[:]) < 0 })
			perDocN := map[string]int{}
			n := 0
			for _, c := range cs {
				if n == perBucket {
					break
				}
				if _, rej := rejected[c.id]; rej || perDocN[docOf(c.id)] == perDoc {
					continue
				}
				perDocN[docOf(c.id)]++
				picked = append(picked, c.chosen)
				n++
			}
			if n < perBucket {
				return nil, fmt.Errorf("%s %s: only %d eligible sentences, want %d", splits[si].name, g, n, perBucket)
			}
		}
		sort.Slice(picked, func(i, j int) bool { return picked[i].pos < picked[j].pos })
		out = append(out, picked...)
	}
	return out, nil
}

// unit is one surface token: a multiword token (words first..last) or a single word.
type unit struct {
	form        string
	first, last int // 0-based word indices
	noSpace     bool
}

func units(s *conllu.Sentence) []unit {
	var us []unit
	ri := 0
	for i := 0; i < len(s.Words); i++ {
		if ri < len(s.Ranges) && s.Ranges[ri].Start == s.Words[i].ID {
			r := s.Ranges[ri]
			us = append(us, unit{r.Form(), i, r.End - 1, conllu.MiscValue(r.Cols[8], "SpaceAfter") == "No"})
			i = r.End - 1
			ri++
			continue
		}
		w := s.Words[i]
		us = append(us, unit{w.Form, i, i, conllu.MiscValue(w.Misc, "SpaceAfter") == "No"})
	}
	return us
}

// align maps a compression onto the sentence's tokens: its text without the spaces must be
// the forms of some of the tokens in order, and a space of the compression may not fall
// inside a token. So "courts." may keep "courts" and a "." further on, and "don't" keeps the
// multiword token whole. Of all the ways to match, align takes the one with the fewest runs
// of consecutive kept tokens, so that "the dog" out of "the cat and the dog" keeps the second
// "the"; among those, the one with the fewest kept words whose head is dropped, then the
// leftmost. It also reports whether a plain greedy left-to-right
// match (each token kept as soon as it fits) would have kept other words.
func align(s *conllu.Sentence, compression string) (keep []bool, greedyDiffers bool, err error) {
	us := units(s)
	target := strings.Join(strings.Fields(compression), "")
	if target == "" {
		return nil, false, fmt.Errorf("empty compression")
	}
	boundary := make([]bool, len(target)+1) // a space of the compression falls before target[p]
	p := 0
	for _, f := range strings.Fields(compression) {
		boundary[p] = true
		p += len(f)
	}
	boundary[p] = true
	fits := func(p, i int) (int, bool) { // unit i spells target[p:q]
		q := p + len(us[i].form)
		if !strings.HasPrefix(target[p:], us[i].form) {
			return 0, false
		}
		for b := p + 1; b < q; b++ {
			if boundary[b] {
				return 0, false
			}
		}
		return q, true
	}
	n, m := len(us), len(target)
	const inf = 1 << 30
	// cost[prev][i][p]: fewest new runs to spell target[p:] from units i.., where prev says
	// whether unit i-1 is kept.
	var cost [2][][]int
	for prev := range cost {
		cost[prev] = make([][]int, n+1)
		for i := range cost[prev] {
			cost[prev][i] = make([]int, m+1)
			for p := range cost[prev][i] {
				cost[prev][i][p] = inf
			}
			cost[prev][i][m] = 0
		}
	}
	for i := n - 1; i >= 0; i-- {
		for p := m - 1; p >= 0; p-- {
			for prev := range 2 {
				c := cost[0][i+1][p] // skip unit i
				if q, ok := fits(p, i); ok && cost[1][i+1][q] < inf {
					c = min(c, cost[1][i+1][q]+1-prev)
				}
				cost[prev][i][p] = c
			}
		}
	}
	if cost[0][0][0] >= inf {
		return nil, false, fmt.Errorf("%q is not a deletion of the sentence (its words in order)", compression)
	}
	mark := func(keep []bool, u unit) {
		for w := u.first; w <= u.last; w++ {
			keep[w] = true
		}
	}
	// Enumerate the alignments with the fewest runs (leftmost first) and keep the one that
	// leaves the fewest kept words whose head is dropped: "demotion, and they" keeps the
	// ", and" that belongs to "they", not an identical one before a dropped conjunct.
	const maxAlignments = 10000
	var cand []bool
	var taken []int
	bestOrphans, seen := -1, 0
	var walk func(i, p, prev int)
	walk = func(i, p, prev int) {
		if seen == maxAlignments {
			return
		}
		if p == m {
			seen++
			k := make([]bool, len(s.Words))
			for _, t := range taken {
				mark(k, us[t])
			}
			if o := orphans(s, k); bestOrphans < 0 || o < bestOrphans {
				cand, bestOrphans = k, o
			}
			return
		}
		if i == n {
			return
		}
		if q, ok := fits(p, i); ok && cost[1][i+1][q] < inf && cost[1][i+1][q]+1-prev == cost[prev][i][p] {
			taken = append(taken, i)
			walk(i+1, q, 1)
			taken = taken[:len(taken)-1]
		}
		if cost[0][i+1][p] == cost[prev][i][p] {
			walk(i+1, p, 0)
		}
	}
	walk(0, 0, 0)
	keep = cand
	greedy := make([]bool, len(s.Words))
	for i, p := 0, 0; i < n && p < m; i++ {
		if q, ok := fits(p, i); ok {
			mark(greedy, us[i])
			p = q
		}
	}
	return keep, !slices.Equal(greedy, keep), nil
}

// orphans counts the kept words whose head is dropped.
func orphans(s *conllu.Sentence, keep []bool) int {
	n := 0
	for i, w := range s.Words {
		if keep[i] && w.Head > 0 && !keep[w.Head-1] {
			n++
		}
	}
	return n
}

// render writes the kept tokens as text: a space between two kept tokens unless they are
// adjacent and written without a space in the sentence, or the second is punctuation that
// was written without a space after the token before it (so "courts" and a later "." give
// "courts.").
func render(s *conllu.Sentence, keep []bool) string {
	us := units(s)
	var b strings.Builder
	prev := -1
	for k, u := range us {
		if !keep[u.first] {
			continue
		}
		glued := k > 0 && us[k-1].noSpace && (prev == k-1 || isPunct(u.form))
		if prev >= 0 && !glued {
			b.WriteByte(' ')
		}
		b.WriteString(u.form)
		prev = k
	}
	return b.String()
}

// isPunct reports whether a form is made of punctuation only.
func isPunct(form string) bool {
	for _, r := range form {
		if !unicode.IsPunct(r) {
			return false
		}
	}
	return form != ""
}

// keptIDs returns the 1-based ids of the kept words.
func keptIDs(keep []bool) []int {
	var ids []int
	for i, k := range keep {
		if k {
			ids = append(ids, i+1)
		}
	}
	return ids
}

// ratio is the character ratio of a compression, as metrics computes it for the corpus.
func ratio(s *conllu.Sentence, keep []bool) (float64, error) {
	return metrics.CompressionRatio(s.Forms(), keptIDs(keep))
}

// violations lists the editing rules a compression breaks (see data/README.md); each rule
// is named so that compressions.tsv can waive it for one sentence where the editor judged
// it does not apply.
func violations(s *conllu.Sentence, keep []bool) []string {
	var out []string
	add := func(rule, format string, args ...any) {
		out = append(out, rule+": "+fmt.Sprintf(format, args...))
	}
	headKept := func(w conllu.Word) bool { return w.Head == 0 || (w.Head > 0 && keep[w.Head-1]) }
	noun := false
	opens, closes, quotes := 0, 0, 0
	for i, w := range s.Words {
		k := keep[i]
		rel, _, _ := strings.Cut(w.DepRel, ":")
		if k && dataset.IsNoun(w.XPOS) {
			noun = true
		}
		switch {
		case w.Head == 0 && !k:
			add("root", "the main predicate %d %q is dropped", w.ID, w.Form)
		case (w.Lemma == "not" || w.Lemma == "never" || (w.Lemma == "no" && rel == "det")) && headKept(w) && !k:
			add("negation", "word %d %q dropped while its head is kept", w.ID, w.Form)
		case (rel == "nsubj" || rel == "obj" || rel == "iobj" || rel == "csubj" || rel == "expl") && headKept(w) && w.Head > 0 && !k:
			add("core", "argument %d %q (%s) dropped while its predicate is kept", w.ID, w.Form, w.DepRel)
		case (rel == "aux" || rel == "cop") && k != headKept(w):
			add("aux", "word %d %q (%s) kept=%v but its head kept=%v", w.ID, w.Form, w.DepRel, k, headKept(w))
		case (rel == "case" || (rel == "det" && strings.Contains(w.Feats, "PronType=Art"))) && !k && headKept(w) &&
			headKept(s.Words[w.Head-1]) && s.Words[w.Head-1].UPOS != "PROPN":
			add("head", "word %d %q (%s) dropped while its head and the head's head are kept", w.ID, w.Form, w.DepRel)
		case (rel == "nummod" || rel == "flat" ||
			(rel == "compound" && w.UPOS == "PROPN" && w.Head > 0 && s.Words[w.Head-1].UPOS == "PROPN")) &&
			k != headKept(w):
			add("head", "word %d %q (%s) kept=%v but its head kept=%v", w.ID, w.Form, w.DepRel, k, headKept(w))
		case (rel == "case" || rel == "mark" || rel == "cc" || rel == "punct" || rel == "det" || rel == "fixed") && k && !headKept(w):
			add("head", "word %d %q (%s) kept without its head", w.ID, w.Form, w.DepRel)
		}
		if k {
			switch w.Form {
			case "(", "[":
				opens++
			case ")", "]":
				closes++
			case `"`:
				quotes++
			}
		}
	}
	if !noun {
		add("noun", "no noun kept")
	}
	if opens != closes || quotes%2 != 0 {
		add("brackets", "unbalanced brackets or quotes")
	}
	// Final punctuation stays with the main clause.
	last := len(s.Words) - 1
	if w := s.Words[last]; w.UPOS == "PUNCT" && strings.ContainsAny(w.Form, ".!?") && headKept(w) && !keep[last] {
		add("final", "final %q dropped while the clause it ends is kept", w.Form)
	}
	// Two kept punctuation tokens in a row, such as ", ," left by a dropped phrase.
	prevPunct := false
	for i, w := range s.Words {
		if !keep[i] {
			continue
		}
		p := w.UPOS == "PUNCT" && strings.ContainsAny(w.Form, ",;:-")
		if p && prevPunct {
			add("punct", "punctuation %d %q follows kept punctuation", w.ID, w.Form)
		}
		prevPunct = p
	}
	return out
}

// compress checks one compression and returns the sentence with Keep in MISC and the
// "# genre" and "# compression" comments, or an error naming the sentence.
func compress(c chosen, e entry) (*conllu.Sentence, float64, error) {
	keep, _, err := align(c.s, e.text)
	if err != nil {
		return nil, 0, fmt.Errorf("%s (%s:%d): %w", c.id, tsvPath, e.line, err)
	}
	r, err := ratio(c.s, keep)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", c.id, err)
	}
	if r < minRatio || r > maxRatio {
		return nil, 0, fmt.Errorf("%s (%s:%d): character ratio %.3f outside [%.1f, %.1f]", c.id, tsvPath, e.line, r, minRatio, maxRatio)
	}
	var bad []string
	broken := map[string]bool{}
	for _, v := range violations(c.s, keep) {
		rule, _, _ := strings.Cut(v, ":")
		broken[rule] = true
		if !slices.Contains(e.waive, rule) {
			bad = append(bad, v)
		}
	}
	for _, w := range e.waive {
		if !broken[w] {
			bad = append(bad, fmt.Sprintf("waive=%s: the compression breaks no %q rule", w, w))
		}
	}
	if len(bad) > 0 {
		return nil, 0, fmt.Errorf("%s (%s:%d): %q breaks: %s", c.id, tsvPath, e.line, render(c.s, keep), strings.Join(bad, "; "))
	}
	out := *c.s
	out.Comments = slices.Clone(c.s.Comments)
	out.Words = slices.Clone(c.s.Words)
	for i := range out.Words {
		v := "Keep=No"
		if keep[i] {
			v = "Keep=Yes"
		}
		if m := out.Words[i].Misc; m == "_" || m == "" {
			out.Words[i].Misc = v
		} else {
			out.Words[i].Misc = m + "|" + v
		}
	}
	out.SetMeta("genre", c.genre)
	out.SetMeta("ewt_split", c.split)
	out.SetMeta("compression", render(c.s, keep))
	return &out, r, nil
}

// build reads EWT and the TSV files and returns the CoNLL-U of the set. With partial set,
// selected sentences without a compression are left out instead of being an error.
func build(tb testing.TB, partial bool) ([]byte, []chosen, error) {
	var files [][]*conllu.Sentence
	for _, sp := range splits {
		ss, err := conllu.ReadAll(shared.Require(tb, sp.rel))
		if err != nil {
			return nil, nil, err
		}
		files = append(files, ss)
	}
	rejected, _, err := readTSV(rejectedPath)
	if err != nil {
		return nil, nil, err
	}
	comps, _, err := readTSV(tsvPath)
	if err != nil {
		return nil, nil, err
	}
	sel, err := selectSentences(files, rejected)
	if err != nil {
		return nil, nil, err
	}
	inSel := map[string]bool{}
	for _, c := range sel {
		inSel[c.id] = true
	}
	for id, e := range comps {
		if !inSel[id] {
			return nil, nil, fmt.Errorf("%s:%d: %s is not a selected sentence (rejected, ineligible or unknown)", tsvPath, e.line, id)
		}
	}
	var buf bytes.Buffer
	wr := conllu.NewWriter(&buf)
	var missing []string
	var errs []string
	for i, c := range sel {
		e, ok := comps[c.id]
		if !ok {
			missing = append(missing, c.id)
			continue
		}
		out, r, err := compress(c, e)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		_, sel[i].greedyDiffer, _ = align(c.s, e.text)
		sel[i].ratio, sel[i].done = r, true
		if err := wr.Write(out); err != nil {
			return nil, nil, err
		}
	}
	if len(errs) > 0 {
		return nil, sel, fmt.Errorf("%d compressions fail:\n%s", len(errs), strings.Join(errs, "\n"))
	}
	if len(missing) > 0 && !partial {
		return nil, sel, fmt.Errorf("%d selected sentences have no compression in %s, e.g. %s (-todo prints them)", len(missing), tsvPath, missing[0])
	}
	if err := wr.Flush(); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), sel, nil
}

func TestBuild(t *testing.T) {
	if *listNew {
		_, sel, err := build(t, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range sel {
			if c.done {
				t.Logf("%.3f %s", c.ratio, c.id)
			} else {
				fmt.Printf("%s\t%s\n", c.id, c.s.Text())
			}
		}
		return
	}
	data, sel, err := build(t, false)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for _, c := range sel {
		if c.greedyDiffer {
			differ++
			t.Logf("alignment differs from greedy: %s", c.id)
		}
	}
	t.Logf("%d sentences selected; %d aligned differently from a greedy left-to-right match", len(sel), differ)
	if *update {
		if err := os.WriteFile(filepath.FromSlash(File), data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", File, len(data))
		return
	}
	if !bytes.Equal(data, shipped) {
		t.Fatalf("%s is not what the builder makes from ../shared and %s; run go test ./internal/lab/ood -run TestBuild -update", File, tsvPath)
	}
}
