package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/lab/ood"
)

// Item is one line of the items file: a sentence, a query and a budget under one protocol.
// Without protocol, source and sent_id it is a record of `qsc compress --jsonl`.
type Item struct {
	ID           string   `json:"id"`
	Protocol     string   `json:"protocol"`
	Source       string   `json:"source"`
	Text         string   `json:"text"`
	Query        []string `json:"query"`
	Budget       int      `json:"budget"`
	BudgetCounts string   `json:"budget_counts"`
	SentID       string   `json:"sent_id,omitempty"`
}

// qscRecord is the input record of `qsc compress --jsonl` (docs/surfaces.md, "Batch
// interface"), which rejects unknown fields.
type qscRecord struct {
	ID           string   `json:"id"`
	Text         string   `json:"text"`
	Query        []string `json:"query"`
	Budget       int      `json:"budget"`
	BudgetCounts string   `json:"budget_counts"`
	Method       string   `json:"method,omitempty"`
	Decoding     string   `json:"decoding,omitempty"`
}

// The protocols: b60 gives 60% of the sentence's characters, box100 a fixed 100 characters.
const (
	protoB60    = "b60"
	protoBox100 = "box100"
)

var protocols = []string{protoB60, protoBox100}

// budgetFor returns the budget, in displayed characters, of a sentence under a protocol.
func budgetFor(protocol, text string) int {
	if protocol == protoB60 {
		return int(math.Round(0.6 * float64(utf8.RuneCountInString(text))))
	}
	return 100
}

// Sentence filters (docs/reading.md).
const (
	minTokens = 18
	minRunes  = 110
	maxRunes  = 400
	minTerm   = 3 // runes of a query term
)

// webRE finds URLs, e-mail addresses and bare domain names.
var webRE = regexp.MustCompile(`(?i)(https?://|ftp://|www\.|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z]|\b[a-z0-9-]+\.(com|org|net|edu|gov|info|biz|co\.uk|de|fr)\b)`)

// contentUPOS are the parts of speech a query term is drawn from.
var contentUPOS = map[string]bool{"NOUN": true, "PROPN": true, "VERB": true, "ADJ": true, "NUM": true}

// stopWords are English function and light words never used as query terms (on top of
// the UPOS filter, which already drops pronouns, determiners, auxiliaries and the like).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a about above after again against all also am an and any are as at be because been
		before being below between both but by can could did do does doing done down during
		each etc few for from further get gets getting got had has have having he her here
		hers herself him himself his how however i if in into is it its itself just let lets
		like made make makes many may me might more most much must my myself no nor not now of
		off on once one only or other ought our ours ourselves out over own put really said same
		say says see seem seems she should so some such than that the their theirs them
		themselves then there these they thing things this those through to too took under
		until up upon us use used very via want was we well were what when where which while
		who whom why will with within without would yes yet you your yours yourself
		yourselves go goes going gone went come came know knew think thought take tell told
		way lot lots`) {
		m[w] = true
	}
	return m
}()

// term is a query candidate: a word's surface form and its matching key.
type term struct {
	form, key string
	pos       int // index in the sentence's words
}

// isTermForm reports whether a form can be a query term: at least minTerm runes, all
// letters or all digits.
func isTermForm(form string) bool {
	if utf8.RuneCountInString(form) < minTerm {
		return false
	}
	letters, digits := true, true
	for _, r := range form {
		letters = letters && unicode.IsLetter(r)
		digits = digits && unicode.IsDigit(r)
	}
	return letters || digits
}

// contentTerms returns the sentence's query candidates in sentence order, one per matching
// key (the first occurrence): content words that are not stop words, not inside a multiword
// token, and whose form occurs in the text.
func contentTerms(s *conllu.Sentence, text string) []term {
	inRange := map[int]bool{}
	for _, rg := range s.Ranges {
		for id := rg.Start; id <= rg.End; id++ {
			inRange[id] = true
		}
	}
	seen := map[string]bool{}
	var out []term
	for i, w := range s.Words {
		if !contentUPOS[w.UPOS] || inRange[w.ID] || !isTermForm(w.Form) {
			continue
		}
		low := strings.ToLower(w.Form)
		if stopWords[low] || stopWords[strings.ToLower(w.Lemma)] || !strings.Contains(text, w.Form) {
			continue
		}
		k := match.Key(w.Form)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, term{form: w.Form, key: k, pos: i})
	}
	return out
}

// candidate is an eligible sentence of one source.
type candidate struct {
	source, sentID, text string
	terms                []term
}

// eligible returns the sentence as a candidate, or why it is not one.
func eligible(s *conllu.Sentence, source string) (candidate, string) {
	text, ok := s.Meta("text")
	text = strings.TrimSpace(text)
	n := utf8.RuneCountInString(text)
	switch {
	case !ok || text == "":
		return candidate{}, "no # text"
	case len(s.Words) < minTokens:
		return candidate{}, "fewer than 18 tokens"
	case n < minRunes || n > maxRunes:
		return candidate{}, "length outside 110-400 characters"
	case webRE.MatchString(text):
		return candidate{}, "URL or e-mail address"
	}
	terms := contentTerms(s, text)
	if len(terms) < 2 {
		return candidate{}, "fewer than 2 content words"
	}
	id, _ := s.Meta("sent_id")
	return candidate{source: source, sentID: id, text: text, terms: terms}, ""
}

// textKey is the form under which two sentences count as duplicates.
func textKey(text string) string { return strings.ToLower(strings.Join(strings.Fields(text), " ")) }

// pool is the eligible sentences of one or more sources, sampled together.
type pool struct {
	name  string // in messages
	share float64
	cands []candidate
}

func cmdItems(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("items", "-out items.jsonl [-qsc in.jsonl] [-n 80] [-seed 1] [-data ../shared/data]", stderr)
	n := fs.Int("n", 80, "number of sentences (each gives one item per protocol)")
	seed := fs.Uint64("seed", 1, "seed of the sampling (math/rand/v2 PCG)")
	out := fs.String("out", "", "items file to write (JSONL)")
	qscOut := fs.String("qsc", "", "`FILE`: also write the records for qsc compress --jsonl (id, text, query, budget, budget_counts) to this file")
	data := fs.String("data", "../shared/data", "directory holding ud-english/UD_English-EWT and ud-english/UD_English-PUD")
	method := fs.String("method", "", `add "method" to every record of the -qsc file (ilp, lr, nn, window, ...)`)
	decoding := fs.String("decoding", "", `add "decoding" to every record of the -qsc file (snippet, nested, paper)`)
	pudNews := fs.Bool("pud-news", false, "also draw from UD_English-PUD's news sentences (sent_id n...); by default only its Wikipedia half (w...)")
	gum := fs.Bool("gum-dev", false, "draw only from UD_English-GUM's dev split less its news, for a reading test on fresh text of many genres (GUM is non-commercial: experiments only; its test split is held out and never read)")
	gumTrain := fs.Bool("gum-train", false, "draw only from UD_English-GUM's train split less its news, as -gum-dev does from its dev split (qsc's models never train on GUM)")
	exclude := fs.String("exclude", "", "`FILES`: comma-separated items files of earlier tests (readtest items -out); their sentences are not drawn again")
	gentle := fs.String("gentle", "", "`FILE`: draw only from UD_English-GENTLE's en_gentle-ud-test.conllu (eight genres outside news: dictionary, esports, legal, medical, poetry, proof, syllabus, threat; non-commercial: experiments only), a source qsc never trains or tunes on")
	files := fs.String("conllu", "", "`FILES`: draw only from these comma-separated CoNLL-U files of other treebanks (UD_English-LinES, UD_English-ParTUT, ...), each treebank an equal share, named by its file (en_lines-ud-test.conllu: \"lines\"); mind each one's license (text of a non-commercial one is for experiments only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	if *n < 2 {
		return fmt.Errorf("items: -n must be at least 2")
	}
	var pools []pool
	var err error
	switch {
	case btoi(*gum)+btoi(*gumTrain)+btoi(*gentle != "")+btoi(*files != "") > 1:
		return fmt.Errorf("items: give one of -gum-dev, -gum-train, -gentle and -conllu")
	case *files != "":
		pools, err = loadTreebanks(strings.Split(*files, ","), stderr)
	case *gum:
		pools, err = loadGUM(*data, "dev", stderr)
	case *gumTrain:
		pools, err = loadGUM(*data, "train", stderr)
	case *gentle != "":
		pools, err = loadGENTLE(*gentle, stderr)
	default:
		pools, err = loadPools(*data, *pudNews, stderr)
	}
	if err != nil {
		return err
	}
	if *exclude != "" {
		if pools, err = excludeRead(pools, strings.Split(*exclude, ","), stderr); err != nil {
			return err
		}
	}
	items, err := sampleItems(pools, *n, *seed)
	if err != nil {
		return err
	}
	if err := writeJSONL(*out, items, func(it Item) any { return it }); err != nil {
		return err
	}
	if *qscOut != "" {
		if err := writeJSONL(*qscOut, items, func(it Item) any {
			return qscRecord{ID: it.ID, Text: it.Text, Query: it.Query, Budget: it.Budget,
				BudgetCounts: it.BudgetCounts, Method: *method, Decoding: *decoding}
		}); err != nil {
			return err
		}
	}
	counts := map[string]int{}
	terms := map[int]int{}
	for _, it := range items {
		if it.Protocol == protoB60 {
			counts[it.Source]++
			terms[len(it.Query)]++
		}
	}
	var parts []string
	for _, src := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", src, counts[src]))
	}
	fmt.Fprintf(stderr, "items: %d sentences (%s), %d with one query term and %d with two; %d items written to %s\n",
		len(items)/2, strings.Join(parts, ", "), terms[1], terms[2], len(items), *out)
	return nil
}

// loadPools reads the three sources: qsc's out-of-domain set (embedded in internal/lab/ood),
// UD_English-EWT's dev and test files, and UD_English-PUD. It never reads UD_English-GUM
// (loadGUM does, with -gum-dev or -gum-train).
func loadPools(data string, pudNews bool, stderr io.Writer) ([]pool, error) {
	oodSents, err := ood.Sentences()
	if err != nil {
		return nil, err
	}
	oodPool := pool{name: "ood (internal/lab/ood/data/ewt-snippets.conllu)", share: 0.3}
	addAll(&oodPool, oodSents, func(*conllu.Sentence) string { return "ood" })

	ewt := pool{name: "UD_English-EWT dev+test", share: 0.4}
	for _, split := range []string{"dev", "test"} {
		err := addFiles(&ewt, filepath.Join(data, "ud-english", "UD_English-EWT"), "*-"+split+".conllu*",
			func(*conllu.Sentence) string { return "ewt-" + split })
		if err != nil {
			return nil, err
		}
	}
	pud := pool{name: "UD_English-PUD", share: 0.3}
	err = addFiles(&pud, filepath.Join(data, "ud-english", "UD_English-PUD"), "*.conllu*", func(s *conllu.Sentence) string {
		id, _ := s.Meta("sent_id")
		switch {
		case strings.HasPrefix(id, "w"):
			return "pud-wiki"
		case pudNews:
			return "pud-news"
		}
		return "" // the news half, skipped by default
	})
	if err != nil {
		return nil, err
	}
	pools := []pool{ewt, oodPool, pud}
	for _, p := range pools {
		fmt.Fprintf(stderr, "items: %s: %d eligible sentences\n", p.name, len(p.cands))
	}
	return pools, nil
}

// loadGUM reads one split of UD_English-GUM, dev (the source of -gum-dev) or train
// (-gum-train), less its news documents; the sources are named "gum-" and the genre of the
// document ("gum-academic", "gum-fiction"). It never reads GUM's test split, which is held
// out for the maintainers' own reading test.
func loadGUM(data, split string, stderr io.Writer) ([]pool, error) {
	gum := pool{name: "UD_English-GUM " + split, share: 1}
	err := addFiles(&gum, filepath.Join(data, "ud-english", "UD_English-GUM"), "*-"+split+".conllu*", func(s *conllu.Sentence) string {
		id, _ := s.Meta("sent_id")
		genre, _, ok := strings.Cut(strings.TrimPrefix(id, "GUM_"), "_")
		switch {
		case genre == "news":
			return "" // text outside the news
		case !ok || genre == "":
			return "gum"
		}
		return "gum-" + genre
	})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "items: %s: %d eligible sentences\n", gum.name, len(gum.cands))
	return []pool{gum}, nil
}

// loadGENTLE reads UD_English-GENTLE (https://github.com/UniversalDependencies/UD_English-GENTLE),
// one file of eight genres; the sources are named "gentle-" and the genre of the document
// ("gentle-legal"), from the sentence ids (GENTLE_legal_service-12).
func loadGENTLE(path string, stderr io.Writer) ([]pool, error) {
	g := pool{name: "UD_English-GENTLE", share: 1}
	err := addFile(&g, path, "UD_English-GENTLE's CoNLL-U file", func(s *conllu.Sentence) string {
		id, _ := s.Meta("sent_id")
		genre, _, ok := strings.Cut(strings.TrimPrefix(id, "GENTLE_"), "_")
		if !ok || genre == "" {
			return "gentle"
		}
		return "gentle-" + genre
	})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "items: %s: %d eligible sentences\n", g.name, len(g.cands))
	return []pool{g}, nil
}

// addFile adds to p the eligible sentences of the CoNLL-U file at path (readConllu, so
// never GUM's test split), each named by source; a file that adds none is an error, whose
// message asks whether it is what (the file the flag expects).
func addFile(p *pool, path, what string, source func(*conllu.Sentence) string) error {
	sents, err := readConllu(path)
	if err != nil {
		return err
	}
	before := len(p.cands)
	addAll(p, sents, source)
	if len(p.cands) == before {
		return fmt.Errorf("items: %s has no eligible sentence (is it %s?)", path, what)
	}
	return nil
}

// loadTreebanks reads CoNLL-U files of any treebanks (-conllu): one pool per treebank, of
// equal shares, in the order the files name them. A treebank and each sentence's source
// are named by the file, the part of its base name before "-ud-" without a language
// prefix ("en_lines-ud-test.conllu": "lines"); files of one treebank (its dev and test
// splits) make one pool.
func loadTreebanks(paths []string, stderr io.Writer) ([]pool, error) {
	var pools []pool
	at := map[string]int{}
	for _, path := range paths {
		name := treebankName(path)
		i, ok := at[name]
		if !ok {
			i = len(pools)
			at[name] = i
			pools = append(pools, pool{name: name})
		}
		if err := addFile(&pools[i], path, "a CoNLL-U file with # text lines", func(*conllu.Sentence) string { return name }); err != nil {
			return nil, err
		}
	}
	for i := range pools {
		pools[i].share = 1 / float64(len(pools))
		fmt.Fprintf(stderr, "items: %s: %d eligible sentences\n", pools[i].name, len(pools[i].cands))
	}
	return pools, nil
}

// treebankName names the treebank of a CoNLL-U file by its base name: the part before
// "-ud-" (or before the extension), without a language prefix such as "en_".
func treebankName(path string) string {
	base := filepath.Base(path)
	if i := strings.Index(base, "-ud-"); i >= 0 {
		base = base[:i]
	} else {
		base = strings.TrimSuffix(strings.TrimSuffix(base, ".gz"), ".conllu")
	}
	if _, rest, ok := strings.Cut(base, "_"); ok && rest != "" {
		base = rest
	}
	return strings.ToLower(base)
}

// excludeRead removes from the pools every sentence whose text (textKey) is that of an
// item of the files (JSONL items files, as readtest items writes them), so that a new test
// reads only sentences no earlier test has read. The files are read by readItems, whose
// errors name the file and line.
func excludeRead(pools []pool, files []string, stderr io.Writer) ([]pool, error) {
	read := map[string]bool{}
	for _, path := range files {
		items, err := readItems(path)
		if err != nil {
			return nil, fmt.Errorf("items: -exclude: %w", err)
		}
		for _, it := range items {
			read[textKey(it.Text)] = true
		}
	}
	out := make([]pool, len(pools))
	for i, p := range pools {
		q := p
		q.cands = nil
		for _, c := range p.cands {
			if !read[textKey(c.text)] {
				q.cands = append(q.cands, c)
			}
		}
		fmt.Fprintf(stderr, "items: %s: %d eligible sentences not read by the -exclude files\n", p.name, len(q.cands))
		out[i] = q
	}
	return out, nil
}

// addFiles adds the eligible sentences of the CoNLL-U files of dir that match pattern
// (globOne) to the pool, their sources named by source.
func addFiles(p *pool, dir, pattern string, source func(*conllu.Sentence) string) error {
	paths, err := globOne(dir, pattern)
	if err != nil {
		return err
	}
	for _, path := range paths {
		sents, err := readConllu(path)
		if err != nil {
			return err
		}
		addAll(p, sents, source)
	}
	return nil
}

// addAll adds the eligible sentences to the pool; source names each one's source, "" to skip.
func addAll(p *pool, sents []*conllu.Sentence, source func(*conllu.Sentence) string) {
	for _, s := range sents {
		src := source(s)
		if src == "" {
			continue
		}
		if c, why := eligible(s, src); why == "" {
			p.cands = append(p.cands, c)
		}
	}
}

// globOne returns the files matching pattern in dir, sorted, failing when there is none or
// when one is held out (heldOut).
func globOne(dir, pattern string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("items: no file %s in %s (give -data the directory holding ud-english/)", pattern, dir)
	}
	for _, p := range paths {
		if err := heldOut(p); err != nil {
			return nil, err
		}
	}
	slices.Sort(paths)
	return paths, nil
}

func readConllu(path string) ([]*conllu.Sentence, error) {
	if err := heldOut(path); err != nil {
		return nil, err
	}
	return conllu.ReadAll(path)
}

// heldOut refuses UD_English-GUM's test split, held out for the maintainers' own reading
// test, and any other GUM file but its dev and train splits (-gum-dev, -gum-train).
func heldOut(path string) error {
	base := strings.ToLower(filepath.Base(path))
	if strings.Contains(strings.ToLower(path), "gum") && !strings.Contains(base, "-dev.") && !strings.Contains(base, "-train.") {
		return fmt.Errorf("items: refusing to read %s: of UD_English-GUM only the dev and train splits may be read (its test split is held out)", path)
	}
	return nil
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sampleItems draws n sentences from the pools by their shares (each pool in turn, in the
// order given, skipping texts already drawn), shuffles them together, gives half of them
// one query term and half two, and returns two items per sentence, b60 then box100.
func sampleItems(pools []pool, n int, seed uint64) ([]Item, error) {
	rng := rand.New(rand.NewPCG(seed, 0x72656164_74657374)) // "readtest"
	quotas := make([]int, len(pools))
	left := n
	for i, p := range pools {
		if i == len(pools)-1 {
			quotas[i] = left
		} else {
			quotas[i] = int(math.Round(p.share * float64(n)))
			left -= quotas[i]
		}
	}
	seen := map[string]bool{}
	var chosen []candidate
	for i, p := range pools {
		cands := slices.Clone(p.cands)
		rng.Shuffle(len(cands), func(a, b int) { cands[a], cands[b] = cands[b], cands[a] })
		got := 0
		for _, c := range cands {
			if got == quotas[i] {
				break
			}
			if k := textKey(c.text); !seen[k] {
				seen[k] = true
				chosen = append(chosen, c)
				got++
			}
		}
		if got < quotas[i] {
			return nil, fmt.Errorf("items: %s has only %d eligible sentences not drawn already, %d wanted", p.name, got, quotas[i])
		}
	}
	rng.Shuffle(len(chosen), func(a, b int) { chosen[a], chosen[b] = chosen[b], chosen[a] })
	nTerms := make([]int, len(chosen))
	for i := range nTerms {
		nTerms[i] = 1 + i%2
	}
	rng.Shuffle(len(nTerms), func(a, b int) { nTerms[a], nTerms[b] = nTerms[b], nTerms[a] })

	items := make([]Item, 0, 2*len(chosen))
	for k, c := range chosen {
		query := pickQuery(c.terms, nTerms[k], rng)
		for _, proto := range protocols {
			items = append(items, Item{
				ID:           fmt.Sprintf("%s-%d", proto, k+1),
				Protocol:     proto,
				Source:       c.source,
				Text:         c.text,
				Query:        query,
				Budget:       budgetFor(proto, c.text),
				BudgetCounts: "display",
				SentID:       c.sentID,
			})
		}
	}
	return items, nil
}

// pickQuery draws k distinct terms (distinct matching keys: contentTerms keeps one term per
// key) and returns their forms in sentence order.
func pickQuery(terms []term, k int, rng *rand.Rand) []string {
	perm := rng.Perm(len(terms))[:min(k, len(terms))]
	slices.Sort(perm) // terms are in sentence order
	out := make([]string, len(perm))
	for i, p := range perm {
		out[i] = terms[p].form
	}
	return out
}

// writeJSONL writes one JSON line per item, without HTML escaping.
func writeJSONL(path string, items []Item, rec func(Item) any) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(rec(it)); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
