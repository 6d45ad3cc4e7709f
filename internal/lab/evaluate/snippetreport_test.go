package evaluate

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/wellformed"
)

// TestSnippetTableChop checks the choppiness columns of the snippet table (the --snippets
// and --ood tables both): their headers right after "room left", and a hand-made row's
// numbers, per snippet and as percentages of the snippets.
func TestSnippetTableChop(t *testing.T) {
	row := SnippetRow{Method: "m", Decoding: "snippet", N: 8, F1: 0.5, CR: 0.25, SLOR: math.NaN(), BudgetUse: 0.75, RoomLeft: 2,
		Broken: 3, Yielded: 1, Chop: wellformed.Choppiness{Snippets: 8, Gaps: 10, Islands: 1, AfterFunction: 2, NamesCut: 3}}
	var b strings.Builder
	writeSnippetTable(&b, []SnippetRow{row, {Method: "empty", Decoding: "—", SLOR: math.NaN()}})
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 4 {
		t.Fatalf("table:\n%s", b.String())
	}
	head, rule := lines[0], lines[1]
	if want := "| room left | inner gaps | 1-word islands | gap after function word | names cut | broken |"; !strings.Contains(head, want) {
		t.Errorf("header lacks %q:\n%s", want, head)
	}
	if strings.Count(head, "|") != strings.Count(rule, "|") || strings.Count(head, "|") != strings.Count(lines[2], "|") {
		t.Errorf("header, rule and row have different numbers of columns:\n%s", b.String())
	}
	if want := "| m | snippet | 0.5000 | 0.250 | — | 0.750 | 25.0% | 1.25 | 12.5% | 25.0% | 37.5% | 3 | 1 |"; !strings.HasPrefix(lines[2], want) {
		t.Errorf("row:\n%s\nwant prefix\n%s", lines[2], want)
	}
	if want := "| empty | — | 0.0000 | 0.000 | — | 0.000 | 0.0% | 0.00 | 0.0% | 0.0% | 0.0% | 0 | 0 |"; !strings.HasPrefix(lines[3], want) {
		t.Errorf("empty row:\n%s\nwant prefix\n%s", lines[3], want)
	}
	var notes strings.Builder
	writeSnippetNotes(&notes)
	for _, want := range []string{"inner gaps = ", "1-word islands = ", "gap after function word = ", "names cut = "} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notes lack %q", want)
		}
	}
	js, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"choppiness":{"snippets":8,"inner_gaps":10,"one_word_islands":1,"gaps_after_function_word":2,"names_cut":3}`; !strings.Contains(string(js), want) {
		t.Errorf("JSON lacks %s:\n%s", want, js)
	}
}
