package tokenize

import (
	"os"
	"strings"
	"testing"
)

// TestSentenceEnd checks cases of SentenceEnd (the mark asked about ends the first
// occurrence of mark in the text) and its contract on them and on the test files, each
// also with its lines joined into one.
func TestSentenceEnd(t *testing.T) {
	for _, c := range []struct {
		text string
		mark string // the mark asked about, found as the first occurrence of mark in text
		ok   bool
	}{
		{"He left. The end.", ".", true},
		{"He left.\n\nThe end.", ".", true},
		{"He left. the end.", ".", false},
		{"He left.The end.", ".", false},
		{"He met Mr. Smith.", ".", false},
		{"Apple Inc. The company.", ".", false},
		{"George W. Bush.", ".", false},
		{"So did I. The end.", ".", false},
		{"In the U.S. The end.", ".", false},
		{"Some, e.g. This one.", ".", false},
		{"He went to Mass. The end.", ".", false},
		{"Room No. 5 is free.", ".", false},
		{"On Oct. 14. The end.", "4.", true},
		{"Why? Because.", "?", true},
		{"Why?! Because.", "?", false},
		{"Why?! Because.", "!", true},
		{"Great!! The end.", "!!", true},
		{"He left... The end.", "...", true},
		{"Use Yahoo! The site.", "!", false},
		{"Use Yahoo!! The site.", "!!", true},
		{`He said "go." The end.`, ".", true},
		{"He said 'go.' The end.", ".", true},
		{"He left (see below). The end.", ".", true},
		{"He left.” The end.", ".", true},
		{"He left. 12.3 The end.", ".", true},
		{"He left. (: The end.", ".", false},
		// A mark that a closing bracket follows soon on its line may be inside the bracket.
		{"In Falluja (pop. 256,000) as the police were buried.", ".", false},
		{"He left. 2) The end.", ".", false},
		{"He left. The end came and the rest (of it) went.", ".", true},
		{"He left. (A) The end.", ".", true},
		{"He left. XD The end.", ".", false},
		{"He left. \"Go,\" she said.", ".", true},
		{"See http://x.org/(a.) The end.", ".", false},
		{"See www.x(a.) The end.", ".", false},
		{"See www. The end.", ".", false},
		{"Mail a@b.com. The end.", ".", false},
		{"A café. The end.", ".", false},
		{"It rose 40%. The end.", ".", true},
		{"It cost $1,000. The end.", ".", true},
		{"He didn't. The end.", ".", true},
		{"The AT&T. The end.", ".", false},
		{"The end.", ".", false},
		{"The end. ", ".", false},
		// A split in the middle of a line whose end would read the whole line (wrapped
		// prose) is refused, unless the rest of the line decides alike.
		{"software for all its users.  We, the Free Software Foundation, use the\nGNU General Public License.", ".", false},
		{"He left. The end\nof it came.", ".", true},                                                       // the next line begins no sentence
		{"He left. The end came.\nThe next day.", ".", true},                                               // the line ends with a period
		{"He left. The end came\n\nThe next day.", ".", true},                                              // a blank line
		{"He left. The end came\n", ".", true},                                                             // the end of the text
		{"He left. The end came\nThe next day.", ".", false},                                               // wrapped or not, the line tells
		{"He left.\nThe end came\nThe next day.", ".", true},                                               // the split begins a line
		{"He left. The committee that met on Tuesday said so in a statement at noon\nWith it.", ".", true}, // the rest alone is wrapped prose
	} {
		p := strings.Index(c.text, c.mark) + len(c.mark) - 1
		if _, ok := SentenceEnd(c.text, p); ok != c.ok {
			t.Errorf("SentenceEnd(%q, %d) = %v, want %v", c.text, p, ok, c.ok)
		}
		checkBreaks(t, c.text, SentenceEnd)
	}
	for _, name := range []string{"../testdata/news.txt", "../testdata/languages/de.txt", "../testdata/languages/fr.txt", "../testdata/languages/ru.txt"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Logf("%s: %v (skipped)", name, err)
			continue
		}
		checkBreaks(t, string(b), SentenceEnd)
		// English prose on one line has sure ends (the others' words are not ASCII).
		if n := checkBreaks(t, strings.ReplaceAll(string(b), "\n", " "), SentenceEnd); n == 0 && strings.HasSuffix(name, "news.txt") {
			t.Errorf("%s on one line: no sure sentence end", name)
		}
	}
}

// FuzzSentenceEnd checks SentenceEnd's contract on any text, seeded with sentence ends
// a splitter must get right: titles, initials, abbreviations, numbers, quotes, brackets,
// URLs, e-mail addresses, emoticons, Yahoo!.
func FuzzSentenceEnd(f *testing.F) {
	fuzzBreaks(f, []string{
		"Police arrested two men. The men were charged. \"We are happy,\" he said. (It was late.) Why? No!",
		"He met Mr. Smith on Tuesday. Apple Inc. The company. U.S. The end. e.g. This. A. B. Smith.",
		"It rose 3. 4 percent. No. 5 is. Mass. The. On Oct. 14. The end. 1,000. The $5. The 40%. The",
		"see http://example.com/(a.) The site. www.a(b.) X. www. The mail a@b.co. The :) Hi! :-( OK.",
		"He left. XD great. He left. (: ok. Yahoo! The. Jeopardy! The. Yahoo!! The. Why?! The. Wait... The",
		"He said 'go.' The. He said “go.” The. He left.’ The. He left.» The. He left.) (A) The. ''. The",
		"the pro-war side. The AT&T. The R&D. The rock&roll. The don't. The dogs'. The O'Neil. The 'Mr. The",
		"Mr.\r\nSmith. \t\n\tJones. \"",
		"He left. The report was published on Tuesday by the committee chaired by\nSenator Smith. It was late and the committee that met on Tuesday said so in\n99 words. Then\nThe end.",
		"He left. OPHELIA.\nGood my lord. HAMLET.\nI thank you. THE END.\nFin. A.\nB.",
		"Hi. Customer: the sync never worked properly with google calendar at all\nAgent (Tom): We fixed it. Sam: ok\n[10:03] Sam: ok. Then\n- Log in. Now\n2. Tap. Go\n> quoted. Yes",
	}, SentenceEnd)
}

// TestWordAtATime checks the tests that read eight bytes at a time against their
// definitions byte by byte, with every byte value at every position of a 17-byte string:
// printableASCII exactly; noBreak never over a line break, and true for a clean string.
func TestWordAtATime(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(string) bool
		want func(b byte) bool
	}{
		{"printableASCII", printableASCII, func(b byte) bool { return b >= ' ' && b <= '~' }},
		{"noBreak", noBreak, func(b byte) bool { return b > '\r' && b != 0xE2 }},
	} {
		base := []byte("The end of a line")
		for i := range base {
			for v := range 256 {
				b := append([]byte(nil), base...)
				b[i] = byte(v)
				got := c.f(string(b))
				if got != c.want(byte(v)) {
					t.Fatalf("%s(%q) = %v", c.name, b, got)
				}
				if c.name == "noBreak" && got && strings.ContainsFunc(string(b), func(r rune) bool { return breaks(r) > 0 }) {
					t.Fatalf("noBreak(%q) = true over a line break", b)
				}
			}
		}
	}
}
