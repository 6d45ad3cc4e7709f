package tokenize

import "testing"

// TestIsURL: a token that the tokenizer keeps whole as a web or e-mail address is one; a
// word, an abbreviation or an address with text around it is not.
func TestIsURL(t *testing.T) {
	for tok, want := range map[string]bool{
		"http://proxy.example.com:3128": true,
		"https://example.org/a?b=c":     true,
		"www.example.org/docs":          true,
		"jane.doe@example.com":          true,
		"mailto:jane@example.com":       true,
		"example.com":                   false, // no scheme, no www.
		"U.S.A.":                        false,
		"transformer-based":             false,
		"see:http://example.org":        false, // text before it
		"http://":                       false,
	} {
		if got := IsURL(tok); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", tok, got, want)
		}
	}
	// Every address the tokenizer keeps as a token is one for IsURL.
	for _, s := range []string{"Mail jane.doe@example.com or see http://proxy.example.com:3128/x today.", "Go to www.example.org/docs, then (https://a.example/b)."} {
		n := 0
		for _, tok := range Tokens(s) {
			if IsURL(tok.Form) {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%q: %d addresses, want 2", s, n)
		}
	}
}
