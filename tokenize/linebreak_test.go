package tokenize

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// describeSplit returns the tokens of text (offsets shifted by base) with | where a
// sentence ends.
func describeSplit(b *strings.Builder, text string, base int) {
	for _, s := range Sentences(text) {
		for _, t := range s.Tokens {
			fmt.Fprintf(b, "%d:%d:%s ", t.Start+base, t.End+base, t.Form)
		}
		b.WriteString("| ")
	}
}

// checkBreaks checks the contract of a sure break, LineBreak's or SentenceEnd's, on every
// byte of text: where it reports one at k, Sentences of text is Sentences of text[:k]
// followed by those of text[k:]. It returns the number of breaks reported.
func checkBreaks(t *testing.T, text string, sure func(text string, p int) (int, bool)) int {
	t.Helper()
	var whole strings.Builder
	describeSplit(&whole, text, 0)
	found := 0
	for p := range len(text) {
		k, ok := sure(text, p)
		if !ok {
			continue
		}
		found++
		var parts strings.Builder
		describeSplit(&parts, text[:k], 0)
		describeSplit(&parts, text[k:], k)
		if parts.String() != whole.String() {
			t.Fatalf("text %q, break at %d (k %d):\nwhole %s\nsplit %s", text, p, k, whole.String(), parts.String())
		}
	}
	return found
}

// lineBreakAt is LineBreak at any byte p of text: false where text[p] is no line break.
func lineBreakAt(text string, p int) (int, bool) {
	if text[p] != '\n' {
		return 0, false
	}
	return LineBreak(text, p)
}

// checkLineBreaks checks LineBreak's contract on every line break of text.
func checkLineBreaks(t *testing.T, text string) {
	t.Helper()
	checkBreaks(t, text, lineBreakAt)
}

// fuzzBreaks fuzzes checkBreaks with sure on any text of up to 1000 bytes, from seeds.
func fuzzBreaks(f *testing.F, seeds []string, sure func(text string, p int) (int, bool)) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1000 {
			return
		}
		checkBreaks(t, text, sure)
	})
}

// TestLineBreak checks cases of LineBreak and its contract on the test files.
func TestLineBreak(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"He left.\nThe end.", true},
		{"He left\nThe end.", true},
		{"He met Mr.\nSmith.", false},
		{"He met Gen.\nSmith.", false},
		{"He met the Gov.\n(Smith)", false},
		{"He left,\nThe end.", false},
		{"He left.\nthe end.", false},
		{"He said \"go.\"\n\"Go\" is short.", true},
		{"Versus vs.\nThem.", false},
		{"A U.S.\nThe end.", true},
		{"Zürich Dr.\nX", false},
		{"pro-\nWar", false},
		{"He left. \r\n  The end.", true},
		{"\nThe end.", false},
		{"He left.\n", false},
		// Wrapped prose: a long line that ends on a word goes on, also when a sentence
		// began in the middle of it; a short line does not.
		{"The report was published on Tuesday by the committee chaired by\nSenator Smith.", false},
		{"The report was published on Tuesday by the committee chaired by Mr. Smith.\nThe end.", true},
		{"He left at noon, as he always did on those days. The committee\nSmith chaired met.", false},
		{"    software for all its users.  We, the Free Software Foundation, use the\nGNU General Public License.", false},
		{"He left. The committee\nSmith chaired met.", true},
		// A word that keeps its "!" ends a line as a word does.
		{"We looked it up on the search engine that everybody used then, Yahoo!\nThe answer was there.", false},
		{"We looked it up on Yahoo!\nThe answer was there.", true},
		{"We looked it up on the search engine that everybody used then, Yahoo!!\nThe answer was there.", true},
	} {
		p := strings.IndexByte(c.text, '\n')
		if _, ok := LineBreak(c.text, p); ok != c.ok {
			t.Errorf("LineBreak(%q) = %v, want %v", c.text, ok, c.ok)
		}
		checkLineBreaks(t, c.text)
	}
	for _, name := range []string{"../testdata/news.txt", "../testdata/languages/de.txt", "../testdata/languages/fr.txt", "../testdata/languages/ru.txt"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Logf("%s: %v (skipped)", name, err)
			continue
		}
		checkLineBreaks(t, string(b))
	}
}

// FuzzLineBreak checks LineBreak's contract on any text, seeded with line ends a
// sentence splitter must get right: titles, initials, abbreviations, quotes, hyphens.
func FuzzLineBreak(f *testing.F) {
	fuzzBreaks(f, []string{
		"Police arrested two men.\nThe men were charged.",
		"He met Mr.\nSmith on Tuesday.\nThe end.",
		"Apple Inc.\nThe company said.\n\"We are happy,\" he said.\n(It was late.)",
		"It rose 3.\n4 percent\nA. B. Smith.\nU.S.\nThe Calif.\nJr.\nNo.\n5",
		"see http://example.com/a.\nThe site. :)\nHi! :-(\nOK.\n\"Quoted.\"\n(Yes.)",
		"the pro-\nWar side vs.\nThem; v.\nHim etc.\nThe end ...\nNext … \nLast",
		"Mr.\r\nSmith \t\n\tJones\n\"",
		"The report was published on Tuesday by the committee chaired by\nSenator Smith, who\n99 said (it) \"was\"\nLate. The committee that met on Tuesday without its chair\u2028Smith\nThe end.",
		"OPHELIA.\nGood my lord,\nHow?\nLADY MACBETH.\nOut!\n  FIRST CLOWN.\nIs she?\nTHE END.\nA\nB C D E.\nX.\nNo.\nAB.",
		"Customer: the sync never worked properly with google calendar at all\nAgent (Tom): We fixed it,\n[10:03] Sam: ok\n- Log in again and disable the sync before the first sync of the day\n- Worked. Dr. Ruiz: yes\n2. Tap\n3) Go\n> quoted",
	}, lineBreakAt)
}
