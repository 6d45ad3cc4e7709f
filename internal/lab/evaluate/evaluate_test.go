package evaluate

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/synth"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/syntax"
)

func TestInputsAndLatency(t *testing.T) {
	s := &syntax.Sentence{Tokens: []syntax.Token{
		{Form: "Dogs", XPOS: "NNS", Head: 2, Rel: "nsubj"},
		{Form: "bark", XPOS: "VBP", Head: 0, Rel: "root"},
		{Form: ".", XPOS: ".", Head: 2, Rel: "punct"},
	}}
	tu := &dataset.Tuple{ID: "t", Sentence: s, Query: []int{1}, Budget: 9, Gold: []int{1, 2}}
	ins, err := Inputs([]*dataset.Tuple{tu})
	if err != nil || len(ins) != 1 || ins[0].Tree.Head(1) != 2 {
		t.Fatalf("Inputs: %v %v", ins, err)
	}
	lat, err := LatencyWith(baseline.Oracle{}, method.Paper, ins, 10, 1, nil)
	if err != nil || lat.N != 10 {
		t.Fatalf("Latency: %+v %v", lat, err)
	}
	if _, err := LatencyWith(baseline.Oracle{}, method.Paper, nil, 10, 1, nil); err == nil {
		t.Error("no inputs: no error")
	}
	s.Tokens[2].Head = syntax.NoHead
	if _, err := Inputs([]*dataset.Tuple{tu}); !errors.Is(err, ErrUnparsed) {
		t.Errorf("unparsed: err = %v", err)
	}
}

// TestSweepAndSlack checks the budget sweep and the slack table on the window baseline,
// which nests by construction: every adjacent pair nests and none regresses; the slack
// table has a point per offset, the first at b = ℓ(gold) as SnippetScore gives it.
func TestSweepAndSlack(t *testing.T) {
	inputs := synth.Inputs(3, 200)
	w := baseline.Window{}
	sw, err := SweepBudgets(w, method.Snippet, 0, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Pairs != len(inputs)*(len(SweepFractions)-1) || sw.Nested != sw.Pairs || sw.Regressions != 0 {
		t.Errorf("window sweep: %d pairs, %d nested, %d regressions", sw.Pairs, sw.Nested, sw.Regressions)
	}
	sl, err := SlackBudgets(w, method.Snippet, 0, inputs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	row, err := SnippetScore(w, method.Snippet, 0, inputs, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Given the row at b = ℓ(gold), the slack table takes it as its first point, the
	// same as computed, and refuses a row of something else.
	again, err := SlackBudgets(w, method.Snippet, 0, inputs, nil, &row)
	a, _ := json.Marshal(again) // SLOR is NaN here: compare the JSON, which leaves it out
	b, _ := json.Marshal(sl)
	if err != nil || string(a) != string(b) {
		t.Errorf("with the row at +0: %s, %v; want %s", a, err, b)
	}
	other := row
	other.Decoding = method.Nested.String()
	if _, err := SlackBudgets(w, method.Snippet, 0, inputs, nil, &other); err == nil {
		t.Error("the row of another decoding taken as +0")
	}
	if len(sl.Points) != len(SlackOffsets) || sl.Points[0].F1 != row.F1 || sl.N != len(inputs) {
		t.Fatalf("slack %+v, want %d points, the first with F1 %v", sl, len(SlackOffsets), row.F1)
	}
	for i, p := range sl.Points {
		if p.Offset != SlackOffsets[i] || !math.IsNaN(p.SLOR) || p.SLORJSON != nil {
			t.Errorf("point %d: %+v", i, p)
		}
	}
}

// TestRoomLeft checks the measure of a decoding that stops early: a compression that
// leaves room for a word with its closure counts, one that fills the budget, holds the
// whole sentence, or could only gain punctuation does not.
func TestRoomLeft(t *testing.T) {
	var m room
	checked := 0
	for _, in := range synth.Inputs(5, 200) {
		forms := in.Sentence.Forms()
		n := len(forms)
		if n < 3 || len(in.Query) == 0 {
			continue
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i + 1
		}
		in.Budget = charLen(forms, all)
		if m.left(in, forms, all) {
			t.Fatalf("the whole sentence leaves room")
		}
		q := slices.Sorted(slices.Values(in.Query))
		// With the budget of the whole sentence, a word outside Q fits (its closure is
		// part of the sentence) unless there is none.
		got, word := m.left(in, forms, q), false // left resets m.rules for in
		for v := 1; v <= n; v++ {
			word = word || (!slices.Contains(q, v) && !m.rules.Punct(v))
		}
		if got != word {
			t.Fatalf("Q alone under the sentence's length: room %v, a word outside Q %v", got, word)
		}
		in.Budget = charLen(forms, q)
		if m.left(in, forms, q) {
			t.Fatalf("Q alone under its own length leaves room")
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
	// "Dogs bark" with the room for " .": only punctuation fits, which is no room.
	s := &syntax.Sentence{Tokens: []syntax.Token{
		{Form: "Dogs", XPOS: "NNS", Head: 2, Rel: "nsubj"},
		{Form: "bark", XPOS: "VBP", Head: 0, Rel: "root"},
		{Form: ".", XPOS: ".", Head: 2, Rel: "punct"},
	}}
	ins, err := Inputs([]*dataset.Tuple{{ID: "t", Sentence: s, Query: []int{1}, Budget: 11, Gold: []int{1, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	forms := s.Forms()
	if m.left(ins[0], forms, []int{1, 2}) {
		t.Error(`"Dogs bark" leaves room for "."`)
	}
	if !m.left(ins[0], forms, []int{1, 3}) {
		t.Error(`"Dogs ." does not leave room for "bark"`)
	}
}
