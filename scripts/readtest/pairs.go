package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// result is one output line of `qsc compress --jsonl`.
type result struct {
	ID                  string  `json:"id"`
	Kept                []int   `json:"kept"`
	Compression         string  `json:"compression"`
	CompressionEllipsis *string `json:"compression_ellipsis"`
	Error               string  `json:"error"`
}

// Pair statuses in the key.
const (
	statusShown = "shown" // in the packet, numbered
	statusSame  = "same"  // identical snippets: not shown, counted apart
	statusError = "error" // one side (or both) failed: not shown
)

// Key is the file that maps the packet back to the systems.
type Key struct {
	Name   string         `json:"name"`
	Seed   uint64         `json:"seed"`
	Items  string         `json:"items"`
	A      string         `json:"a"`       // file of system A
	B      string         `json:"b"`       // file of system B
	LabelA string         `json:"label_a"` // short names of the systems
	LabelB string         `json:"label_b"`
	Parts  []string       `json:"parts"` // the packet files, in order
	Counts map[string]int `json:"counts"`
	Pairs  []KeyPair      `json:"pairs"` // in the items' order
}

// KeyPair is one item of the key.
type KeyPair struct {
	Pair     int      `json:"pair,omitempty"` // number in the packet (shown pairs only)
	Part     int      `json:"part,omitempty"` // packet part, 1-based (shown pairs only)
	ID       string   `json:"id"`
	Protocol string   `json:"protocol"`
	Source   string   `json:"source"`
	Status   string   `json:"status"`          // shown, same or error
	First    string   `json:"first,omitempty"` // "A" or "B": the system shown as snippet 1
	Text     string   `json:"text"`
	Query    []string `json:"query"`
	Budget   int      `json:"budget"`
	A        string   `json:"a,omitempty"` // A's display snippet (compression_ellipsis)
	B        string   `json:"b,omitempty"`
	ErrorA   string   `json:"error_a,omitempty"`
	ErrorB   string   `json:"error_b,omitempty"`
}

// pairsOptions are the inputs of pairs.
type pairsOptions struct {
	items, a, b    string
	labelA, labelB string
	seed           uint64
	name, out      string
	split          int
	entries        bool // each output is a result entry of several snippets (packetText)
}

func cmdPairs(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pairs", "-items items.jsonl -a A.jsonl -b B.jsonl -name NAME -out DIR [-seed 2] [-split K]", stderr)
	var o pairsOptions
	fs.StringVar(&o.items, "items", "", "`FILE`: the items written by readtest items")
	fs.StringVar(&o.a, "a", "", "`FILE`: output of qsc compress --jsonl for system A")
	fs.StringVar(&o.b, "b", "", "`FILE`: output of qsc compress --jsonl for system B")
	fs.StringVar(&o.labelA, "label-a", "", "name of system A in the key and the tally (default: the -a file's base name)")
	fs.StringVar(&o.labelB, "label-b", "", "name of system B (default: the -b file's base name)")
	fs.Uint64Var(&o.seed, "seed", 2, "seed of the shuffles (math/rand/v2 PCG)")
	fs.StringVar(&o.name, "name", "", "name of the test: DIR/NAME.key.json and DIR/NAME.judge.txt (not shown to the judges)")
	fs.StringVar(&o.out, "out", "", "directory to write the key and the packet to")
	fs.IntVar(&o.split, "split", 1, "write the packet in K parts, NAME.judge.1.txt ... NAME.judge.K.txt, numbered across parts")
	fs.BoolVar(&o.entries, "entries", false, "each item's text is a document and each output a result entry of its snippets, one a line: the packet asks which entry serves a searcher better")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "items", "a", "b", "name", "out"); err != nil {
		return err
	}
	if o.split < 1 {
		return fmt.Errorf("pairs: -split must be at least 1")
	}
	if strings.ContainsAny(o.name, `/\`) {
		return fmt.Errorf("pairs: -name %q must not contain a path separator", o.name)
	}
	key, err := makePairs(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pairs: %d items: %d shown, %d identical, %d with an error; key %s, packet %s\n",
		len(key.Pairs), key.Counts[statusShown], key.Counts[statusSame], key.Counts[statusError],
		filepath.Join(o.out, o.name+".key.json"), strings.Join(key.Parts, ", "))
	return nil
}

// readItems reads an items file, failing on a malformed line or a repeated id.
func readItems(path string) ([]Item, error) {
	var items []Item
	seen := map[string]int{}
	err := eachLine(path, func(line int, b []byte) error {
		var it Item
		if err := json.Unmarshal(b, &it); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if it.ID == "" {
			return fmt.Errorf("%s:%d: item has no id", path, line)
		}
		if prev, ok := seen[it.ID]; ok {
			return fmt.Errorf("%s:%d: id %q repeats line %d", path, line, it.ID, prev)
		}
		seen[it.ID] = line
		items = append(items, it)
		return nil
	})
	if err == nil && len(items) == 0 {
		err = fmt.Errorf("%s: no items", path)
	}
	return items, err
}

// readResults reads the output of `qsc compress --jsonl` by id.
func readResults(path string) (map[string]result, error) {
	out := map[string]result{}
	lines := map[string]int{}
	err := eachLine(path, func(line int, b []byte) error {
		var r result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if r.ID == "" {
			return fmt.Errorf("%s:%d: result has no id", path, line)
		}
		if prev, ok := lines[r.ID]; ok {
			return fmt.Errorf("%s:%d: id %q repeats line %d", path, line, r.ID, prev)
		}
		if r.Error == "" && r.CompressionEllipsis == nil {
			return fmt.Errorf("%s:%d: result %q has neither compression_ellipsis nor error", path, line, r.ID)
		}
		lines[r.ID] = line
		out[r.ID] = r
		return nil
	})
	return out, err
}

// eachLine calls fn on every non-blank line of a file, with its 1-based number.
func eachLine(path string, fn func(line int, b []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := fn(n, b); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", path, n+1, err)
	}
	return nil
}

func baseLabel(path string) string {
	b := filepath.Base(path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// makePairs builds the key and the packet and writes them to o.out.
func makePairs(o pairsOptions) (*Key, error) {
	items, err := readItems(o.items)
	if err != nil {
		return nil, err
	}
	ra, err := readResults(o.a)
	if err != nil {
		return nil, err
	}
	rb, err := readResults(o.b)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, it := range items {
		ids[it.ID] = true
	}
	for _, side := range []struct {
		path string
		res  map[string]result
	}{{o.a, ra}, {o.b, rb}} {
		for id := range side.res {
			if !ids[id] {
				return nil, fmt.Errorf("pairs: %s has id %q, which is not in %s", side.path, id, o.items)
			}
		}
	}
	if o.labelA == "" {
		o.labelA = baseLabel(o.a)
	}
	if o.labelB == "" {
		o.labelB = baseLabel(o.b)
	}
	key := &Key{Name: o.name, Seed: o.seed, Items: o.items, A: o.a, B: o.b,
		LabelA: o.labelA, LabelB: o.labelB, Counts: map[string]int{}}

	rng := rand.New(rand.NewPCG(o.seed, 0x70616972_73686f77)) // "pairshow"
	var shown []int                                           // indexes into key.Pairs
	over := 0
	for _, it := range items {
		p := KeyPair{ID: it.ID, Protocol: it.Protocol, Source: it.Source, Text: it.Text, Query: it.Query, Budget: it.Budget}
		a, okA := ra[it.ID]
		b, okB := rb[it.ID]
		switch {
		case !okA:
			p.ErrorA = "missing from " + o.a
		case a.Error != "":
			p.ErrorA = a.Error
		default:
			p.A = *a.CompressionEllipsis
		}
		switch {
		case !okB:
			p.ErrorB = "missing from " + o.b
		case b.Error != "":
			p.ErrorB = b.Error
		default:
			p.B = *b.CompressionEllipsis
		}
		switch {
		case p.ErrorA != "" || p.ErrorB != "":
			p.Status = statusError
		case p.A == p.B:
			p.Status = statusSame
		default:
			p.Status = statusShown
			p.First = "A"
			if rng.IntN(2) == 1 {
				p.First = "B"
			}
			shown = append(shown, len(key.Pairs))
			for _, s := range []string{p.A, p.B} {
				if it.Budget > 0 && utf8.RuneCountInString(s) > it.Budget {
					over++
				}
			}
		}
		key.Counts[p.Status]++
		key.Pairs = append(key.Pairs, p)
	}
	if over > 0 {
		fmt.Fprintf(os.Stderr, "pairs: warning: %d shown snippets are longer than their budget\n", over)
	}

	// Number the shown pairs in a shuffled order, the two items of one sentence (b60 and
	// box100) kept apart, and cut them into parts.
	order := spreadOrder(rng.Perm(len(shown)), func(j int) string { return textKey(key.Pairs[shown[j]].Text) })
	parts := min(o.split, max(1, len(shown)))
	packets := make([][]int, parts)
	for num, j := range order {
		idx := shown[j]
		part := num * parts / max(1, len(shown))
		key.Pairs[idx].Pair = num + 1
		key.Pairs[idx].Part = part + 1
		packets[part] = append(packets[part], idx)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return nil, err
	}
	for i, pk := range packets {
		name := o.name + ".judge.txt"
		if parts > 1 {
			name = fmt.Sprintf("%s.judge.%d.txt", o.name, i+1)
		}
		path := filepath.Join(o.out, name)
		if err := os.WriteFile(path, packetText(key, pk, i+1, parts, o.entries), 0o644); err != nil {
			return nil, err
		}
		key.Parts = append(key.Parts, path)
	}
	b, err := json.MarshalIndent(key, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.out, o.name+".key.json"), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	return key, nil
}

// minGap is how many pairs at least separate two pairs of the same sentence in the packet,
// when the packet is long enough.
const minGap = 30

// spreadOrder reorders a shuffled order so that two elements of the same group (the same
// sentence) are at least minGap apart where it can: it takes, each time, the first
// remaining element whose group is not among the last gap placed (gap = minGap, less for a
// short packet), and the first remaining one when there is none. It is deterministic.
func spreadOrder(order []int, group func(int) string) []int {
	gap := min(minGap, len(order)/4)
	rest := slices.Clone(order)
	out := make([]int, 0, len(order))
	for len(rest) > 0 {
		pick := 0
		for i, j := range rest {
			g := group(j)
			if !slices.ContainsFunc(out[max(0, len(out)-gap):], func(k int) bool { return group(k) == g }) {
				pick = i
				break
			}
		}
		out = append(out, rest[pick])
		rest = slices.Delete(rest, pick, pick+1)
	}
	return out
}

// packetText renders one part of the packet for the judges: the instructions, then one
// block per pair. It shows nothing of the systems, the items' ids or the test's name.
// With entries, each pair is a document and two result entries of its snippets.
func packetText(key *Key, idx []int, part, parts int, entries bool) []byte {
	var b strings.Builder
	b.WriteString("BLIND READING TEST")
	if parts > 1 {
		fmt.Fprintf(&b, ", part %d of %d", part, parts)
	}
	if len(idx) > 0 {
		fmt.Fprintf(&b, " (pairs %d-%d)", key.Pairs[idx[0]].Pair, key.Pairs[idx[len(idx)-1]].Pair)
	}
	l := packetLabels[0]
	if entries {
		l = packetLabels[1]
	}
	b.WriteString("\n\n" + l.task + `
Answer with one line per pair, in a plain text file:

    <pair number> 1     ` + l.unit + ` 1 ` + l.better + `
    <pair number> 2     ` + l.unit + ` 2 ` + l.better + `
    <pair number> =     no preference (equally good or equally bad)

for example "7 2". You may add a comment after the verdict on the same line. Judge
every pair on its own; the order of the two ` + l.units + ` is random.
`)
	for _, i := range idx {
		p := key.Pairs[i]
		s1, s2 := p.A, p.B
		if p.First == "B" {
			s1, s2 = p.B, p.A
		}
		fmt.Fprintf(&b, "\n=== Pair %d ===\n", p.Pair)
		fmt.Fprintf(&b, "%-11s%s\n", l.text+":", p.Text)
		fmt.Fprintf(&b, "Query:     %s\n", strings.Join(p.Query, ", "))
		fmt.Fprintf(&b, "Budget:    %d characters%s\n", p.Budget, l.budget)
		fmt.Fprintf(&b, "%-11s%s\n", l.title+" 1:", s1)
		fmt.Fprintf(&b, "%-11s%s\n", l.title+" 2:", s2)
	}
	return []byte(b.String())
}

// packetLabels are the words of a packet of snippets ([0]) and of result entries ([1]).
var packetLabels = [2]struct{ task, unit, units, title, better, text, budget string }{
	{task: `Each pair shows a sentence, a search query, a budget and two snippets cut from the
sentence. A snippet keeps some of the sentence's words in their order; "…" marks where
words were left out. The budget is the most characters a snippet may take on the page,
"…" included. Imagine the snippet under a search result for the query: which of the two
reads better as a search snippet (reads well, makes sense on its own, and tells you what
the sentence says about the query)?
`, unit: "snippet", units: "snippets", title: "Snippet", better: "reads better", text: "Sentence"},
	{task: `Each pair shows a document, a search query, and two entries that a search results page
could show under the document: a few snippets each, one a line, cut from the document's
sentences, each within the budget ("…" marks where words were left out). Imagine you
searched for the query and this document came up: which of the two entries serves you
better as a search result (tells you what the document says about your query, and reads
well)?
`, unit: "entry", units: "entries", title: "Entry", better: "is better", text: "Document", budget: " a snippet"},
}
