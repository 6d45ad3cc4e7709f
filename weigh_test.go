package qsc_test

import (
	"context"
	"fmt"
	"log"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/method/runs"
)

// Weigh tells why the snippet decoding chose its display over another: here a display that
// drops "two men" for more of the investigation.
func ExampleEngine_Weigh() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	req := &qsc.Request{
		Text:         "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.",
		Query:        []string{"arrested", "burglaries"},
		Budget:       60,
		BudgetCounts: qsc.BudgetDisplay,
	}
	other := []int{1, 2, 3, 4, 13, 14, 15, 16, 17, 18} // "Police in Syracuse arrested … into a string of burglaries."
	res, terms, err := eng.Weigh(context.Background(), req, false, [][]int{other})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Ellipsis())
	for i, t := range terms {
		fmt.Printf("%d: score %.1f: C* %.0f, fill %.1f, %d carriers, %d gaps, %d dangling, %d edges; allowed %v\n",
			i, t.Score(runs.Default()), t.Keep, t.Fill, t.Carriers, t.Gaps, t.Dangles, t.Edges, t.Allowed())
	}
	// The other display ends a run on "arrested" with its object cut: it dangles.
	// Output:
	// Police in Syracuse arrested two men … string of burglaries.
	// 0: score 84.8: C* 47, fill 57.5, 2 carriers, 1 gaps, 0 dangling, 2 edges; allowed true
	// 1: score 69.2: C* 46, fill 56.5, 1 carriers, 1 gaps, 1 dangling, 2 edges; allowed true
}

// TestWeigh checks Weigh against the program: the chosen display is allowed and scores at
// least as much as any other allowed set (here every set of one or two runs of the
// sentence); a sentence that fits whole and the paper decoding have no terms.
func TestWeigh(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	req := &qsc.Request{
		Text:         "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries that had troubled the north side of the city for months.",
		Query:        []string{"Syracuse", "burglaries"},
		Budget:       70,
		BudgetCounts: qsc.BudgetDisplay,
	}
	res, err := eng.Do(context.Background(), req, false)
	if err != nil {
		t.Fatal(err)
	}
	n := res.Sentence.Len()
	var windows [][]int // every set of one or two runs: [a, b] ∪ [c, d]
	for a := 1; a <= n; a++ {
		for b := a; b <= n; b++ {
			windows = append(windows, span(a, b, nil))
			for c := b + 2; c <= n; c++ {
				for d := c; d <= n; d++ {
					windows = append(windows, span(c, d, span(a, b, nil)))
				}
			}
		}
	}
	res2, terms, err := eng.Weigh(context.Background(), req, false, windows)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res2.Kept) != fmt.Sprint(res.Kept) {
		t.Fatalf("Weigh kept %v, Do %v", res2.Kept, res.Kept)
	}
	if len(terms) != len(windows)+1 {
		t.Fatalf("%d terms for %d sets", len(terms), len(windows)+1)
	}
	pr := runs.Default()
	best := terms[0]
	if !best.Allowed() || best.Gaps != 1 {
		t.Fatalf("the chosen display %q: %+v; want allowed, one gap", res.Ellipsis(), best)
	}
	allowed := 0
	for i, w := range terms[1:] {
		if w.Allowed() {
			allowed++
			if w.Score(pr) > best.Score(pr)+1e-9 {
				t.Errorf("set %v scores %g, more than the chosen display's %g", windows[i], w.Score(pr), best.Score(pr))
			}
		}
	}
	if allowed == 0 {
		t.Error("no set is allowed: the test compares nothing")
	}
	t.Logf("%d sets, %d allowed", len(windows), allowed)
	for _, r := range []*qsc.Request{
		{Text: "Police arrested two men.", Query: []string{"police"}, Budget: 60, BudgetCounts: qsc.BudgetDisplay},
		{Text: req.Text, Query: req.Query, Budget: 70, Decoding: qsc.DecodingPaper},
	} {
		if _, terms, err := eng.Weigh(context.Background(), r, false, nil); err != nil || terms != nil {
			t.Errorf("%q (decoding %q): terms %v, error %v; want none", r.Text, r.Decoding, terms, err)
		}
	}
}

// span appends the ids a..b to ids.
func span(a, b int, ids []int) []int {
	for v := a; v <= b; v++ {
		ids = append(ids, v)
	}
	return ids
}
