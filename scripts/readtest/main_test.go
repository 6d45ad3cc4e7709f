package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseVerdicts(t *testing.T) {
	in := "\ufeff# judge 1\n\n1 1\n2: 2\n3 =\n4. 1 keeps the name\n5\t2\nPair 6 - =\n7:1\n  8 2.  \n9 = both fine\n"
	vs, err := parseVerdicts("v.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []verdictLine{{1, "1", 3}, {2, "2", 4}, {3, "=", 5}, {4, "1", 6}, {5, "2", 7}, {6, "=", 8}, {7, "1", 9}, {8, "2", 10}, {9, "=", 11}}
	if fmt.Sprint(vs) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", vs, want)
	}
	for _, c := range []struct{ in, err string }{
		{"1 1\n2 3\n", "v.txt:2: malformed verdict"},
		{"1 1\n\n# c\n12 12\n", "v.txt:4: malformed verdict"},
		{"one 1\n", "v.txt:1: malformed verdict"},
		{"4\n", "v.txt:1: malformed verdict"},
		{"1 1\n1 2\n", "v.txt:2: pair 1 already judged on line 1"},
		{"0 1\n", "v.txt:1: bad pair number"},
	} {
		if _, err := parseVerdicts("v.txt", strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.err)
		}
	}
}

// fixture writes items and two systems' outputs: item 1 differs, 2 is identical, 3 has an
// error in B, 4 and 5 differ (box100).
func fixture(t *testing.T, dir string) (items, a, b string) {
	t.Helper()
	var it, ra, rb strings.Builder
	snip := func(id, s string) string {
		return fmt.Sprintf(`{"id":%q,"kept":[1],"compression":%q,"compression_ellipsis":%q}`+"\n", id, s, s)
	}
	for k := 1; k <= 6; k++ {
		proto := protoB60
		if k > 3 {
			proto = protoBox100
		}
		id := fmt.Sprintf("%s-%d", proto, k)
		fmt.Fprintf(&it, `{"id":%q,"protocol":%q,"source":"ood","text":"Sentence %d has words.","query":["words"],"budget":%d,"budget_counts":"display"}`+"\n", id, proto, k, 10+k)
		ra.WriteString(snip(id, fmt.Sprintf("A%d words", k)))
		switch k {
		case 2:
			rb.WriteString(snip(id, "A2 words"))
		case 3:
			fmt.Fprintf(&rb, `{"id":%q,"error":"infeasible"}`+"\n", id)
		default:
			rb.WriteString(snip(id, fmt.Sprintf("B%d words", k)))
		}
	}
	return writeFile(t, dir, "items.jsonl", it.String()), writeFile(t, dir, "A.jsonl", ra.String()), writeFile(t, dir, "B.jsonl", rb.String())
}

func TestPairsDeterministicAndBlind(t *testing.T) {
	dir := t.TempDir()
	items, a, b := fixture(t, dir)
	read := func(out string) map[string]string {
		got := map[string]string{}
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			c, _ := os.ReadFile(filepath.Join(out, e.Name()))
			got[e.Name()] = strings.ReplaceAll(string(c), out, "OUT")
		}
		return got
	}
	run := func(out string, seed uint64, split int) (*Key, map[string]string) {
		key, err := makePairs(pairsOptions{items: items, a: a, b: b, labelA: "new", labelB: "window", seed: seed, name: "t", out: out, split: split})
		if err != nil {
			t.Fatal(err)
		}
		return key, read(out)
	}
	k1, f1 := run(filepath.Join(dir, "o1"), 2, 1)
	_, f2 := run(filepath.Join(dir, "o2"), 2, 1)
	if fmt.Sprint(f1) != fmt.Sprint(f2) {
		t.Errorf("two runs with the same seed differ")
	}
	if k1.Counts[statusShown] != 4 || k1.Counts[statusSame] != 1 || k1.Counts[statusError] != 1 {
		t.Errorf("counts %v, want 4 shown, 1 same, 1 error", k1.Counts)
	}
	packet := f1["t.judge.txt"]
	for _, hidden := range []string{"A2 words", "A3 words", "new", "window", "b60", "box100", "Sentence 2 ", "Sentence 3 "} {
		if strings.Contains(packet, hidden) {
			t.Errorf("packet shows %q:\n%s", hidden, packet)
		}
	}
	nums := map[int]bool{}
	for _, p := range k1.Pairs {
		switch p.ID {
		case "b60-2":
			if p.Status != statusSame || p.Pair != 0 {
				t.Errorf("identical pair: %+v", p)
			}
		case "b60-3":
			if p.Status != statusError || p.ErrorB != "infeasible" || p.Pair != 0 {
				t.Errorf("error pair: %+v", p)
			}
		default:
			if p.Status != statusShown || p.Pair < 1 || p.Pair > 4 || nums[p.Pair] {
				t.Errorf("shown pair: %+v", p)
			}
			nums[p.Pair] = true
			s1, s2 := p.A, p.B
			if p.First == "B" {
				s1, s2 = s2, s1
			}
			block := fmt.Sprintf("=== Pair %d ===\nSentence:  %s\nQuery:     words\nBudget:    %d characters\nSnippet 1: %s\nSnippet 2: %s\n", p.Pair, p.Text, p.Budget, s1, s2)
			if !strings.Contains(packet, block) {
				t.Errorf("packet lacks\n%s", block)
			}
		}
	}
	// Another seed changes the order or the sides (with 4 pairs, almost surely).
	changed := false
	for seed := uint64(3); seed < 8 && !changed; seed++ {
		_, f := run(filepath.Join(dir, fmt.Sprint("s", seed)), seed, 1)
		changed = f["t.judge.txt"] != packet
	}
	if !changed {
		t.Errorf("five other seeds give the same packet")
	}
	// Split: the parts number the pairs 1..4 once across them.
	k3, f3 := run(filepath.Join(dir, "o3"), 2, 2)
	if len(k3.Parts) != 2 || f3["t.judge.1.txt"] == "" || f3["t.judge.2.txt"] == "" {
		t.Fatalf("split parts %v", k3.Parts)
	}
	seen := map[int]int{}
	for part, name := range []string{"t.judge.1.txt", "t.judge.2.txt"} {
		for _, line := range strings.Split(f3[name], "\n") {
			var n int
			if _, err := fmt.Sscanf(line, "=== Pair %d ===", &n); err == nil {
				if _, dup := seen[n]; dup {
					t.Errorf("pair %d in two places", n)
				}
				seen[n] = part + 1
			}
		}
	}
	for _, p := range k3.Pairs {
		if p.Status == statusShown && seen[p.Pair] != p.Part {
			t.Errorf("pair %d: key says part %d, packet part %d", p.Pair, p.Part, seen[p.Pair])
		}
	}
	if len(seen) != 4 {
		t.Errorf("split packet has pairs %v, want 1-4", seen)
	}
}

func TestSpreadOrder(t *testing.T) {
	// 20 sentences with two items each: no two items of a sentence are adjacent within 5.
	var order []int
	for i := range 40 {
		order = append(order, i)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	out := spreadOrder(order, func(j int) string { return fmt.Sprint(j / 2) })
	pos := map[int]int{}
	for i, j := range out {
		pos[j] = i
	}
	if len(out) != 40 || len(pos) != 40 {
		t.Fatalf("not a permutation: %v", out)
	}
	for s := range 20 {
		if d := pos[2*s] - pos[2*s+1]; d > -5 && d < 5 {
			t.Errorf("sentence %d: items %d apart", s, d)
		}
	}
}

func TestTally(t *testing.T) {
	dir := t.TempDir()
	items, a, b := fixture(t, dir)
	out := filepath.Join(dir, "out")
	key, err := makePairs(pairsOptions{items: items, a: a, b: b, labelA: "new", labelB: "window", seed: 2, name: "t", out: out, split: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Judge 1 prefers A everywhere but ties b60-1; judge 2 prefers A on box100 and leaves
	// one pair unjudged.
	num := map[string]*KeyPair{}
	for i := range key.Pairs {
		num[key.Pairs[i].ID] = &key.Pairs[i]
	}
	side := func(id, sys string) string { // the snippet number showing sys
		if num[id].First == sys {
			return "1"
		}
		return "2"
	}
	v1 := fmt.Sprintf("# j1\n%d =\n%d: %s\n%d %s\n%d %s fine\n", num["b60-1"].Pair,
		num["box100-4"].Pair, side("box100-4", "A"), num["box100-5"].Pair, side("box100-5", "A"), num["box100-6"].Pair, side("box100-6", "A"))
	v2 := fmt.Sprintf("%d %s\n%d %s\n%d %s\n", num["b60-1"].Pair, side("b60-1", "B"),
		num["box100-4"].Pair, side("box100-4", "A"), num["box100-5"].Pair, side("box100-5", "A"))
	p1, p2 := writeFile(t, dir, "v1.txt", v1), writeFile(t, dir, "v2.txt", v2)
	var stdout, stderr bytes.Buffer
	jsonPath := filepath.Join(dir, "tally.json")
	if err := run([]string{"tally", "-key", filepath.Join(out, "t.key.json"), "-j1", p1, "-j2", p2, "-json", jsonPath}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var tl Tally
	b2, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(b2, &tl); err != nil {
		t.Fatal(err)
	}
	get := func(proto string) Group {
		for _, g := range tl.Groups {
			if g.Protocol == proto {
				return g
			}
		}
		t.Fatalf("no group %s", proto)
		return Group{}
	}
	all := get("all")
	j1, j2 := all.Judges[0], all.Judges[1]
	if j1.AWins != 3 || j1.BWins != 0 || j1.Ties != 1 || j1.Same != 1 || j1.Errors != 1 || j1.Unjudged != 0 || *j1.AShare != 1 {
		t.Errorf("j1 all: %+v", j1)
	}
	if j2.AWins != 2 || j2.BWins != 1 || j2.Ties != 0 || j2.Unjudged != 1 || math.Abs(*j2.AShare-2.0/3) > 1e-9 {
		t.Errorf("j2 all: %+v", j2)
	}
	if g := get(protoB60).Judges[0]; g.Items != 3 || g.Shown != 1 || g.Ties != 1 || g.AShare != nil {
		t.Errorf("j1 b60: %+v", g)
	}
	// Both judged 3 pairs and agree on 2 (box100-4, box100-5). Kappa: po = 2/3; j1 = (A, A, =),
	// j2 = (A, A, B): pe = (2/3)(2/3) = 4/9; kappa = (2/3-4/9)/(5/9) = 0.4.
	ag := all.Agreement
	if ag.Both != 3 || ag.Agree != 2 || math.Abs(*ag.Kappa-0.4) > 1e-9 {
		t.Errorf("agreement %+v (kappa %v)", ag, *ag.Kappa)
	}
	if u := tl.Unjudged["j2"]; len(u) != 1 || u[0] != num["box100-6"].Pair {
		t.Errorf("j2 unjudged %v", u)
	}
	if !strings.Contains(stderr.String(), "j2 ("+p2+") did not judge 1 of the 4 shown pairs") {
		t.Errorf("stderr %q", stderr.String())
	}
	if !strings.Contains(stdout.String(), "| all | j1 | 6 | 4 | 3 | 0 | 1 | 1 | 1 | 0 | 1.000 (3/3) |") {
		t.Errorf("markdown:\n%s", stdout.String())
	}

	// A pair not in the key, and a malformed line, name the file and the line.
	bad := writeFile(t, dir, "bad.txt", "1 1\n\n99 2\n")
	err = run([]string{"tally", "-key", filepath.Join(out, "t.key.json"), "-j1", bad}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), bad+":3: pair 99 is not in the key") {
		t.Errorf("got %v", err)
	}
	bad2 := writeFile(t, dir, "bad2.txt", "1 1\n2 maybe\n")
	err = run([]string{"tally", "-key", filepath.Join(out, "t.key.json"), "-j1", bad2}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), bad2+":2: malformed verdict") {
		t.Errorf("got %v", err)
	}
}

func TestSignTest(t *testing.T) {
	for _, c := range []struct {
		a, b int
		p    float64
	}{{0, 0, 1}, {5, 5, 1}, {10, 0, 2.0 / 1024}, {8, 2, 112.0 / 1024}} {
		if got := signTest(c.a, c.b); math.Abs(got-c.p) > 1e-12 {
			t.Errorf("signTest(%d, %d) = %v, want %v", c.a, c.b, got, c.p)
		}
	}
}

const sample = `# sent_id = s1
# text = The committee approved 25 new parks in Oregon yesterday after a long debate about funding rules.
1	The	the	DET	DT	_	2	det	_	_
2	committee	committee	NOUN	NN	_	3	nsubj	_	_
3	approved	approve	VERB	VBD	_	0	root	_	_
4	25	25	NUM	CD	_	6	nummod	_	_
5	new	new	ADJ	JJ	_	6	amod	_	_
6	parks	park	NOUN	NNS	_	3	obj	_	_
7	in	in	ADP	IN	_	8	case	_	_
8	Oregon	Oregon	PROPN	NNP	_	6	nmod	_	_
9	yesterday	yesterday	NOUN	NN	_	3	obl	_	_
10	after	after	ADP	IN	_	13	case	_	_
11	a	a	DET	DT	_	13	det	_	_
12	long	long	ADJ	JJ	_	13	amod	_	_
13	debate	debate	NOUN	NN	_	3	obl	_	_
14	about	about	ADP	IN	_	16	case	_	_
15	funding	funding	NOUN	NN	_	16	compound	_	_
16	rules	rule	NOUN	NNS	_	13	nmod	_	SpaceAfter=No
17	.	.	PUNCT	.	_	3	punct	_	_

# sent_id = s2
# text = Short sentence.
1	Short	short	ADJ	JJ	_	2	amod	_	_
2	sentence	sentence	NOUN	NN	_	0	root	_	SpaceAfter=No
3	.	.	PUNCT	.	_	2	punct	_	_

`

func TestEligibleAndQuery(t *testing.T) {
	r, err := conllu.NewReader(strings.NewReader(sample), "sample")
	if err != nil {
		t.Fatal(err)
	}
	sents, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// s1 has 17 tokens: below the minimum.
	if _, why := eligible(sents[0], "x"); why != "fewer than 18 tokens" {
		t.Errorf("s1: %q", why)
	}
	if _, why := eligible(sents[1], "x"); why == "" {
		t.Errorf("s2 eligible")
	}
	text, _ := sents[0].Meta("text")
	var forms []string
	for _, tm := range contentTerms(sents[0], text) {
		forms = append(forms, tm.form)
	}
	// "new" has 3 letters but is kept; "long" too; "The", "a", "in" are not content words.
	if got := strings.Join(forms, " "); got != "committee approved new parks Oregon yesterday long debate funding rules" {
		t.Errorf("terms %q", got) // 25 is numeric but two digits
	}
	// Queries: distinct terms, in sentence order, deterministic.
	terms := contentTerms(sents[0], text)
	q1 := pickQuery(terms, 2, rand.New(rand.NewPCG(7, 7)))
	q2 := pickQuery(terms, 2, rand.New(rand.NewPCG(7, 7)))
	if fmt.Sprint(q1) != fmt.Sprint(q2) || len(q1) != 2 || q1[0] == q1[1] || strings.Index(text, q1[0]) > strings.Index(text, q1[1]) {
		t.Errorf("queries %v %v", q1, q2)
	}
	if webRE.MatchString(text) || !webRE.MatchString("mail me at bob@example.com today") || !webRE.MatchString("see www.example.org") {
		t.Errorf("webRE")
	}
	if got := budgetFor(protoB60, strings.Repeat("é", 115)); got != 69 {
		t.Errorf("b60 budget %d, want 69", got)
	}
	if got := budgetFor(protoBox100, strings.Repeat("x", 300)); got != 100 {
		t.Errorf("box100 budget %d", got)
	}
}

func TestExamples(t *testing.T) {
	dir := t.TempDir()
	items := writeFile(t, dir, "items.jsonl",
		`{"id":"b60-1","protocol":"b60","source":"ood","text":"A | B c.","query":["c"],"budget":9,"budget_counts":"display"}`+"\n")
	a := writeFile(t, dir, "a.jsonl", `{"id":"b60-1","kept":[1],"compression":"A","compression_ellipsis":"A …"}`+"\n")
	b := writeFile(t, dir, "b.jsonl", `{"id":"b60-1","error":"too long"}`+"\n")
	var out, errw strings.Builder
	if err := run([]string{"examples", "-items", items, "-sys", "new=" + a, "-sys", "old=" + b, "-n", "5"}, &out, &errw); err != nil {
		t.Fatal(err, errw.String())
	}
	want := "| # | budget | query | sentence | new | old |\n|--:|--:|---|---|---|---|\n| 1 | 9 (b60) | c | A \\| B c. | A … | error: too long |\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err := run([]string{"examples", "-items", items, "-sys", "nolabel"}, &out, &errw); err == nil {
		t.Error("a -sys without LABEL= was accepted")
	}
}

func TestChopText(t *testing.T) {
	for _, c := range []struct {
		s     string
		query []string
		want  displayChop
	}{
		{"Police arrested two men.", []string{"police"}, displayChop{snippets: 1}},
		{"… the … client sued Saks …", []string{"client"}, displayChop{snippets: 1, gaps: 1, islands: 1, afterFunction: 1}},
		{"… feel … results …", nil, displayChop{snippets: 1, gaps: 1, islands: 1}},
		{"… police … arrested two men", []string{"police"}, displayChop{snippets: 1, gaps: 1}},
		{"… the staff at the desk … we never got the checkout …", []string{"staff"}, displayChop{snippets: 1, gaps: 1}},
	} {
		if got := chopText(c.s, c.query); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.s, got, c.want)
		}
	}
}
