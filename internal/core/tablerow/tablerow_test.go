package tablerow

import (
	"slices"
	"testing"
)

// TestLabels checks which header rows label the cells of the others.
func TestLabels(t *testing.T) {
	for _, c := range []struct {
		head []string
		ok   bool
	}{
		{[]string{"Plan", "Price", "Users"}, true},
		{[]string{"", "Q1", "Q2"}, true},                               // a corner cell without a label
		{[]string{"Plan", ""}, false},                                  // one label
		{[]string{"This is what we offer.", "Price"}, false},           // a sentence
		{[]string{"Plan:", "Price"}, false},                            // labels already
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, false}, // too wide
		{[]string{"Plan", "The price you pay for each seat every month"}, false},
	} {
		got := Labels(c.head)
		if (got != nil) != c.ok || got != nil && !slices.Equal(got, c.head) {
			t.Errorf("Labels(%q) = %q, want labels %v", c.head, got, c.ok)
		}
	}
	if got := Cell("Plan", "Team") + Sep + Cell("", "10"); got != "Plan: Team · 10" {
		t.Errorf("cells: %q", got)
	}
	if SepAfter("It renews.") != " " || SepAfter("Team") != Sep {
		t.Error("SepAfter")
	}
}
