package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Verdicts as the judges write them, and as the tally maps them.
const (
	verdictA   = "A"
	verdictB   = "B"
	verdictTie = "="
)

// verdictRE reads "<pair> <1|2|=>" with what judges actually write around it: "12 1",
// "12: 1", "12. =", "Pair 12 - 2", "12\t1 snippet 1 keeps the name".
var verdictRE = regexp.MustCompile(`(?i)^(?:pair\s*)?(\d+)(?:\s*[:.)\-–—,]\s*|\s+)([12=])(?:$|[\s.,;:!)\-–—])`)

// verdictLine is one verdict of one judge: the pair number and "1", "2" or "=".
type verdictLine struct {
	pair    int
	verdict string
	line    int
}

// parseVerdicts reads a verdict file. Blank lines and lines starting with # are skipped;
// anything after the verdict is ignored. A malformed line or a pair judged twice is an
// error naming the file and the line.
func parseVerdicts(name string, r io.Reader) ([]verdictLine, error) {
	var out []verdictLine
	seen := map[int]int{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		s := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		m := verdictRE.FindStringSubmatch(s)
		if m == nil {
			return nil, fmt.Errorf("%s:%d: malformed verdict %q: want \"<pair number> <1|2|=>\"", name, n, s)
		}
		pair, err := strconv.Atoi(m[1])
		if err != nil || pair < 1 {
			return nil, fmt.Errorf("%s:%d: bad pair number %q", name, n, m[1])
		}
		if prev, ok := seen[pair]; ok {
			return nil, fmt.Errorf("%s:%d: pair %d already judged on line %d", name, n, pair, prev)
		}
		seen[pair] = n
		out = append(out, verdictLine{pair: pair, verdict: m[2], line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, n+1, err)
	}
	return out, nil
}

// judgeVerdicts maps a judge's verdicts to A, B or = by pair number, through the key.
func judgeVerdicts(key *Key, name string, vs []verdictLine) (map[int]string, error) {
	byPair := map[int]*KeyPair{}
	for i := range key.Pairs {
		if p := &key.Pairs[i]; p.Status == statusShown {
			byPair[p.Pair] = p
		}
	}
	out := map[int]string{}
	for _, v := range vs {
		p, ok := byPair[v.pair]
		if !ok {
			return nil, fmt.Errorf("%s:%d: pair %d is not in the key (its pairs are 1-%d)", name, v.line, v.pair, len(byPair))
		}
		switch {
		case v.verdict == "=":
			out[v.pair] = verdictTie
		case (v.verdict == "1") == (p.First == "A"):
			out[v.pair] = verdictA
		default:
			out[v.pair] = verdictB
		}
	}
	return out, nil
}

// JudgeStats counts one judge's verdicts over one group of items.
type JudgeStats struct {
	Judge    string   `json:"judge"`
	File     string   `json:"file"`
	Items    int      `json:"items"`
	Shown    int      `json:"shown"`
	AWins    int      `json:"a_wins"`
	BWins    int      `json:"b_wins"`
	Ties     int      `json:"ties"`
	Same     int      `json:"identical"`
	Errors   int      `json:"errors"`
	Unjudged int      `json:"unjudged"`
	AShare   *float64 `json:"a_share"` // A/(A+B), null when no pair is decided
	SignP    *float64 `json:"sign_p"`  // two-sided exact sign test of A against B, ties dropped
}

// Agreement compares two judges over the shown pairs both judged.
type Agreement struct {
	Both  int      `json:"both"`
	Agree int      `json:"agree"`
	Share *float64 `json:"share"`
	Kappa *float64 `json:"kappa"` // Cohen's kappa over A, B, =; null when undefined
}

// Group is the tally of one protocol, or of all ("all").
type Group struct {
	Protocol  string       `json:"protocol"`
	Judges    []JudgeStats `json:"judges"`
	Agreement *Agreement   `json:"agreement,omitempty"`
}

// Tally is the output of tally.
type Tally struct {
	Name     string           `json:"name"`
	Key      string           `json:"key"`
	A        string           `json:"a"`
	B        string           `json:"b"`
	Groups   []Group          `json:"groups"`
	Unjudged map[string][]int `json:"unjudged"` // by judge: the shown pairs without a verdict
}

type judge struct {
	name, file string
	verdicts   map[int]string
}

func cmdTally(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tally", "-key DIR/NAME.key.json -j1 verdicts1.txt [-j2 verdicts2.txt] [-json FILE]", stderr)
	keyPath := fs.String("key", "", "`FILE`: the key written by readtest pairs")
	j1 := fs.String("j1", "", "verdicts of judge 1")
	j2 := fs.String("j2", "", "verdicts of judge 2 (optional; without it there is no agreement)")
	jsonOut := fs.String("json", "", "also write the tally as JSON to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "key", "j1"); err != nil {
		return err
	}
	key, err := readKey(*keyPath)
	if err != nil {
		return err
	}
	var judges []judge
	for i, path := range []string{*j1, *j2} {
		if path == "" {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		vs, err := parseVerdicts(path, f)
		f.Close()
		if err != nil {
			return err
		}
		m, err := judgeVerdicts(key, path, vs)
		if err != nil {
			return err
		}
		judges = append(judges, judge{name: fmt.Sprintf("j%d", i+1), file: path, verdicts: m})
	}
	t := tally(key, *keyPath, judges)
	writeMarkdown(stdout, t, judges)
	for _, j := range judges {
		if u := t.Unjudged[j.name]; len(u) > 0 {
			fmt.Fprintf(stderr, "tally: warning: %s (%s) did not judge %d of the %d shown pairs: %s\n", j.name, j.file, len(u), key.Counts[statusShown], joinInts(u))
		}
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(t, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func readKey(path string) (*Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var k Key
	if err := json.Unmarshal(b, &k); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	seen := map[int]bool{}
	for _, p := range k.Pairs {
		if p.Status == statusShown {
			if p.Pair < 1 || seen[p.Pair] || (p.First != "A" && p.First != "B") {
				return nil, fmt.Errorf("%s: bad key: pair %d of item %q", path, p.Pair, p.ID)
			}
			seen[p.Pair] = true
		}
	}
	return &k, nil
}

// tally counts every judge's verdicts per protocol and overall, and the judges' agreement.
func tally(key *Key, keyPath string, judges []judge) *Tally {
	t := &Tally{Name: key.Name, Key: keyPath, A: key.LabelA, B: key.LabelB, Unjudged: map[string][]int{}}
	var protos []string
	for _, p := range protocols {
		if slices.ContainsFunc(key.Pairs, func(kp KeyPair) bool { return kp.Protocol == p }) {
			protos = append(protos, p)
		}
	}
	for _, kp := range key.Pairs {
		if !slices.Contains(protos, kp.Protocol) {
			protos = append(protos, kp.Protocol)
		}
	}
	for _, proto := range append(protos, "all") {
		in := func(kp KeyPair) bool { return proto == "all" || kp.Protocol == proto }
		g := Group{Protocol: proto}
		for _, j := range judges {
			s := JudgeStats{Judge: j.name, File: j.file}
			for _, kp := range key.Pairs {
				if !in(kp) {
					continue
				}
				s.Items++
				switch kp.Status {
				case statusSame:
					s.Same++
				case statusError:
					s.Errors++
				case statusShown:
					s.Shown++
					switch j.verdicts[kp.Pair] {
					case verdictA:
						s.AWins++
					case verdictB:
						s.BWins++
					case verdictTie:
						s.Ties++
					default:
						s.Unjudged++
					}
				}
			}
			if d := s.AWins + s.BWins; d > 0 {
				s.AShare = ptr(float64(s.AWins) / float64(d))
				s.SignP = ptr(signTest(s.AWins, s.BWins))
			}
			g.Judges = append(g.Judges, s)
		}
		if len(judges) == 2 {
			var a, b []string
			for _, kp := range key.Pairs {
				if !in(kp) || kp.Status != statusShown {
					continue
				}
				v1, ok1 := judges[0].verdicts[kp.Pair]
				v2, ok2 := judges[1].verdicts[kp.Pair]
				if ok1 && ok2 {
					a, b = append(a, v1), append(b, v2)
				}
			}
			g.Agreement = agreement(a, b)
		}
		t.Groups = append(t.Groups, g)
	}
	for _, j := range judges {
		var missing []int
		for _, kp := range key.Pairs {
			if _, ok := j.verdicts[kp.Pair]; kp.Status == statusShown && !ok {
				missing = append(missing, kp.Pair)
			}
		}
		slices.Sort(missing)
		t.Unjudged[j.name] = missing
	}
	return t
}

// agreement returns the share of equal verdicts and Cohen's kappa over A, B and =.
func agreement(a, b []string) *Agreement {
	g := &Agreement{Both: len(a)}
	if len(a) == 0 {
		return g
	}
	n := float64(len(a))
	c1, c2 := map[string]float64{}, map[string]float64{}
	for i := range a {
		if a[i] == b[i] {
			g.Agree++
		}
		c1[a[i]]++
		c2[b[i]]++
	}
	po := float64(g.Agree) / n
	g.Share = ptr(po)
	pe := 0.0
	for _, c := range []string{verdictA, verdictB, verdictTie} {
		pe += (c1[c] / n) * (c2[c] / n)
	}
	if pe < 1 {
		g.Kappa = ptr((po - pe) / (1 - pe))
	}
	return g
}

// signTest is the two-sided exact binomial test of a successes against b at p = 1/2.
func signTest(a, b int) float64 {
	n := a + b
	if n == 0 {
		return 1
	}
	k := min(a, b)
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	sum := 0.0
	for i := 0; i <= k; i++ {
		sum += math.Exp(lg(n) - lg(i) - lg(n-i) - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*sum)
}

func ptr(f float64) *float64 { return &f }

func fmtShare(f *float64, num, den int) string {
	if f == nil {
		return "–"
	}
	return fmt.Sprintf("%.3f (%d/%d)", *f, num, den)
}

func fmtFloat(f *float64, format string) string {
	if f == nil {
		return "–"
	}
	return fmt.Sprintf(format, *f)
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// writeMarkdown prints the tally as markdown tables.
func writeMarkdown(w io.Writer, t *Tally, judges []judge) {
	fmt.Fprintf(w, "Reading test %s: A = %s, B = %s (key %s)\n\n", t.Name, t.A, t.B, t.Key)
	for _, j := range judges {
		fmt.Fprintf(w, "- %s: %s\n", j.name, j.file)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| protocol | judge | items | shown | A wins | B wins | ties | identical | errors | unjudged | A share of decided | sign test p |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, g := range t.Groups {
		for _, s := range g.Judges {
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n",
				g.Protocol, s.Judge, s.Items, s.Shown, s.AWins, s.BWins, s.Ties, s.Same, s.Errors, s.Unjudged,
				fmtShare(s.AShare, s.AWins, s.AWins+s.BWins), fmtFloat(s.SignP, "%.3g"))
		}
	}
	if len(judges) < 2 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| protocol | judged by both | same verdict | agreement | Cohen's kappa |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, g := range t.Groups {
		a := g.Agreement
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s |\n", g.Protocol, a.Both, a.Agree, fmtFloat(a.Share, "%.3f"), fmtFloat(a.Kappa, "%.3f"))
	}
}
