package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
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
