package tokenize

import "testing"

// FuzzTokens checks that any input tokenizes without panicking into tokens whose spans are
// valid, increasing and exactly their forms, that cover every byte that is not a
// separator, and that Sentences partitions the same tokens.
//
//	go test -run XXX -fuzz FuzzTokens -fuzztime 60s ./tokenize
func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"", " ", "I don't know.", "Presidents' Day in the U.S.", "Mr. Smith left at 5 p.m. Friday. He was late.",
		`He said "quoted" (brackets) $5.50 3,000 e-mail U.S.-based ... -- http://x.com/a_(b).`,
		"caf\xe9 \xff\xfe \xc3", "\x00\x1f\u200b\ufeff", "San Francisco-based 7-5 853-7906 1,000.50 -0.46%",
		"O'Brien's '90s cannot gonna won't", "``Quote,'' ‘single’ “double” don’t", "Wow!!! :) ;-) <3",
		"a@b.c www.x.y mailto:a@b.co", "👍🏽 👨‍👩‍👧 🇫🇷 e\u0301", "Title\n\nBody.\r\nNext line", "No. RE37,802. Mass. Police",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		toks := Tokens(text)
		checkTokens(t, text, toks)
		checkSentences(t, text, toks, Sentences(text))
		for _, tok := range toks {
			_ = PTBForm(text, tok)
		}
	})
}
