package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/method/runs"
)

// TestAlignDisplay checks that displayed snippets map back to their tokens: runs between
// "…" marks, a quote and a list's commas that the display drops, and a run that is not in
// the sentence.
func TestAlignDisplay(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	text := `He says: "They acquired Urchin, Zipdash, Picasa and Keyhole, so why not Firefox?"`
	res, err := eng.Do(context.Background(), &qsc.Request{Text: text, Query: []string{"Picasa"}, Budget: 200}, false)
	if err != nil {
		t.Fatal(err)
	}
	form := func(ids []int) string {
		var f []string
		for _, v := range ids {
			f = append(f, res.Sentence.Tokens[v-1].Form)
		}
		return strings.Join(f, " ")
	}
	for _, c := range []struct{ shown, want string }{
		{"He says: … acquired Urchin …", "He says : acquired Urchin"},
		{"… They acquired Urchin Zipdash Picasa …", "They acquired Urchin Zipdash Picasa"},
		{"… why not Firefox?", "why not Firefox ?"},
	} {
		ids, err := alignDisplay(res.Text, res.Sentence, c.shown)
		if err != nil || form(ids) != c.want {
			t.Errorf("%q: %q (error %v), want %q", c.shown, form(ids), err, c.want)
		}
	}
	if ids, err := alignDisplay(res.Text, res.Sentence, "… Firefox … Urchin …"); err == nil {
		t.Errorf("runs out of order: %v, want an error", ids)
	}
}

// TestTermsCommand checks the terms command on a key of one pair: both snippets weighed,
// the default's tokens recognized as today's display.
func TestTermsCommand(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	p := KeyPair{Pair: 1, ID: "i1", Protocol: protoB60, Status: statusShown, First: "B",
		Text:  "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.",
		Query: []string{"arrested", "burglaries"}, Budget: 60}
	res, err := eng.Do(context.Background(), &qsc.Request{Text: p.Text, Query: p.Query, Budget: p.Budget, BudgetCounts: qsc.BudgetDisplay}, false)
	if err != nil {
		t.Fatal(err)
	}
	p.A, p.B = "Police in Syracuse arrested … into a string of burglaries.", res.Ellipsis()
	dir := t.TempDir()
	key := filepath.Join(dir, "k.key.json")
	b, err := json.Marshal(Key{Name: "k", LabelA: "other", LabelB: "default", Pairs: []KeyPair{p}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "terms.jsonl")
	var stdout, stderr strings.Builder
	if err := run([]string{"terms", "-out", out, key}, &stdout, &stderr); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r termsRecord
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Error != "" || r.SameA || !r.SameB || !r.B.Allowed() || r.B != r.Default || !slices.Contains([]int{1, 2}, r.A.Edges) {
		t.Errorf("record %+v", r)
	}
}

// countingWeigher is an engine's Weigh that counts its calls.
type countingWeigher struct {
	eng   *qsc.Engine
	calls int
}

func (c *countingWeigher) Weigh(ctx context.Context, req *qsc.Request, explain bool, alts [][]int) (*qsc.Result, []runs.Terms, error) {
	c.calls++
	return c.eng.Weigh(ctx, req, explain, alts)
}

// TestWeighPairOnce checks that weighPair compresses each pair once, in its Weigh call,
// when the engine tokenizes the sentence as tokenize.Tokens does (an English key), and
// twice when it does not (a French key, read by another tokenizer); and that its records
// are those of aligning the snippets to a first compression's tokens and then weighing
// them (reference), on every shown pair of the two stored keys.
func TestWeighPairOnce(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		once bool // every pair compressed once
	}{
		{"../../docs/reading/final/new-vs-old.key.json", true},
		{"../../docs/reading/de-fr/fr-new-vs-before.key.json", false},
	} {
		key, err := readKey(c.path)
		if err != nil {
			t.Fatal(err)
		}
		twice, shown := 0, 0
		for _, p := range key.Pairs {
			if p.Status != statusShown {
				continue
			}
			shown++
			w := &countingWeigher{eng: eng}
			got := weighPair(w, p)
			if w.calls > 1 {
				twice++
			}
			if want := reference(t, eng, p); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, pair %d: %+v, want %+v", c.path, p.Pair, got, want)
			}
		}
		if shown == 0 || c.once != (twice == 0) {
			t.Errorf("%s: %d of %d pairs compressed twice; want none: %v", c.path, twice, shown, c.once)
		}
	}
}

// reference is weighPair's record for p made as the definition says: the snippets
// aligned to the tokens of a compression of the sentence, then weighed with it.
func reference(t *testing.T, eng *qsc.Engine, p KeyPair) termsRecord {
	t.Helper()
	r := termsRecord{Pair: p.Pair, First: p.First, Protocol: p.Protocol}
	req := &qsc.Request{Text: p.Text, Query: p.Query, Budget: p.Budget, BudgetCounts: qsc.BudgetDisplay}
	res, err := eng.Do(context.Background(), req, false)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	sets, err := alignPair(res.Text, res.Sentence, p)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	_, terms, err := eng.Weigh(context.Background(), req, false, sets)
	if err != nil {
		t.Fatal(err)
	}
	if terms == nil {
		r.Error = "no display was chosen (the sentence fits whole)"
		return r
	}
	r.Default, r.A, r.B = terms[0], terms[1], terms[2]
	r.SameA, r.SameB = slices.Equal(sets[0], res.Kept), slices.Equal(sets[1], res.Kept)
	return r
}
