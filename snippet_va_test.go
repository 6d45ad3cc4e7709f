package qsc

import (
	"context"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TestVASnippetDisplay checks that the VERTEX ADDITION methods under the Snippet decoding
// show their compressions as the ILP shows its optimum (package method/runs): at every
// budget from the query's closure to the whole sentence, counted as displayed and as
// tokens, the snippet of lr and ablated holds the query, fits, and shows no one-word
// island, no cut right after a function word and no name kept in part
// (wellformed.Chopper). Without the display step, lr showed "The staff … phone …" and
// "The staff did not answer the phone for … days" here.
func TestVASnippetDisplay(t *testing.T) {
	eng, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const text = "The staff did not answer the phone for two days."
	var ck wellformed.Chopper
	checked := 0
	for _, name := range []string{"lr", "ablated"} {
		for _, counts := range []string{BudgetDisplay, BudgetTokens} {
			for b := 18; b <= 48; b++ {
				req := &Request{Text: text, Query: []string{"staff"}, Budget: b, BudgetCounts: counts, Method: name}
				res, err := eng.Do(context.Background(), req, false)
				if err != nil {
					t.Fatalf("%s, %s budget %d: %v", name, counts, b, err)
				}
				tree, err := syntax.NewTree(res.Sentence.Heads())
				if err != nil {
					t.Fatal(err)
				}
				ch := ck.Chop(res.Sentence, tree, res.Kept, res.Query)
				if ch.Islands+ch.AfterFunction+ch.NamesCut > 0 {
					t.Errorf("%s, %s budget %d: %q shows %+v", name, counts, b, res.Ellipsis(), ch)
				}
				checked++
			}
		}
	}
	t.Logf("%d snippets checked", checked)
}
