package tokenize

import "testing"

// TestASCIIQuotes checks the ASCII spelling of typographic quotes, and that a form
// without them is returned as it is.
func TestASCIIQuotes(t *testing.T) {
	for form, want := range map[string]string{"“": `"`, "”": `"`, "«": `"`, "didn’t": "didn't", "‘": "'", "can": "can", `"`: `"`} {
		if got := ASCIIQuotes(form); got != want {
			t.Errorf("ASCIIQuotes(%q) = %q, want %q", form, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = ASCIIQuotes("can") }); n != 0 {
		t.Errorf("a form without quotes: %v allocations", n)
	}
}
