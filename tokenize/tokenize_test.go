package tokenize

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/syntax"
)

// at writes an expected token: its form and start; the end is start+len(form).
func at(form string, start int) syntax.Token {
	return syntax.Token{Form: form, Start: start, End: start + len(form), Head: syntax.NoHead}
}

func show(toks []syntax.Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s@%d-%d", t.Form, t.Start, t.End)
	}
	return b.String()
}

func TestTokensOffsets(t *testing.T) {
	tests := []struct {
		text string
		want []syntax.Token
	}{
		{"I don't know.", []syntax.Token{at("I", 0), at("do", 2), at("n't", 4), at("know", 8), at(".", 12)}},
		{"can't won't", []syntax.Token{at("ca", 0), at("n't", 2), at("wo", 6), at("n't", 8)}},
		{"DON'T", []syntax.Token{at("DO", 0), at("N'T", 2)}},
		{"don’t", []syntax.Token{at("do", 0), at("n’t", 2)}},
		{"I'm sure they'll", []syntax.Token{at("I", 0), at("'m", 1), at("sure", 4), at("they", 9), at("'ll", 13)}},
		{"we've it's I'd", []syntax.Token{at("we", 0), at("'ve", 2), at("it", 6), at("'s", 8), at("I", 11), at("'d", 12)}},
		{"this Presidents' Day", []syntax.Token{at("this", 0), at("Presidents", 5), at("'", 15), at("Day", 17)}},
		{"the U.S. economy", []syntax.Token{at("the", 0), at("U.S.", 4), at("economy", 9)}},
		{`He said "quoted" (brackets).`, []syntax.Token{at("He", 0), at("said", 3), at(`"`, 8), at("quoted", 9),
			at(`"`, 15), at("(", 17), at("brackets", 18), at(")", 26), at(".", 27)}},
		{"``Staff of Serapis,''", []syntax.Token{at("``", 0), at("Staff", 2), at("of", 8), at("Serapis", 11),
			at(",", 18), at("''", 19)}},
		{"$5.50 and 3,000 or 1,000.50", []syntax.Token{at("$", 0), at("5.50", 1), at("and", 6), at("3,000", 10),
			at("or", 16), at("1,000.50", 19)}},
		{"up 0.27% to -0.46%", []syntax.Token{at("up", 0), at("0.27", 3), at("%", 7), at("to", 9), at("-0.46", 12), at("%", 17)}},
		{"e-mail U.S.-based state-of-the-art", []syntax.Token{at("e-mail", 0), at("U.S.-based", 7), at("state-of-the-art", 18)}},
		{"Wait... what -- now", []syntax.Token{at("Wait", 0), at("...", 4), at("what", 8), at("--", 13), at("now", 16)}},
		{"prison--and", []syntax.Token{at("prison", 0), at("--", 6), at("and", 8)}},
		{"see http://example.com/a?b=1.", []syntax.Token{at("see", 0), at("http://example.com/a?b=1", 4), at(".", 28)}},
		{"(www.example.com/x_(y))", []syntax.Token{at("(", 0), at("www.example.com/x_(y)", 1), at(")", 22)}},
		{"Mail bob.smith@example.com.", []syntax.Token{at("Mail", 0), at("bob.smith@example.com", 5), at(".", 26)}},
		{"Mr. Smith left at 5 p.m. Friday.", []syntax.Token{at("Mr.", 0), at("Smith", 4), at("left", 10), at("at", 15),
			at("5", 18), at("p.m.", 20), at("Friday", 25), at(".", 31)}},
		{"Apple Inc.", []syntax.Token{at("Apple", 0), at("Inc.", 6)}},
		{"e.g. this, i.e. that", []syntax.Token{at("e.g.", 0), at("this", 5), at(",", 9), at("i.e.", 11), at("that", 16)}},
		{"George W. Bush", []syntax.Token{at("George", 0), at("W.", 7), at("Bush", 10)}},
		{"Boston, Mass. Police", []syntax.Token{at("Boston", 0), at(",", 6), at("Mass", 8), at(".", 12), at("Police", 14)}},
		{"Boston, Mass., police", []syntax.Token{at("Boston", 0), at(",", 6), at("Mass.", 8), at(",", 13), at("police", 15)}},
		{"No. 5 said no.", []syntax.Token{at("No.", 0), at("5", 4), at("said", 6), at("no", 11), at(".", 13)}},
		{"St. Louis-based", []syntax.Token{at("St.", 0), at("Louis-based", 4)}},
		{"the San Francisco-based firm", []syntax.Token{at("the", 0), at("San", 4), at("Francisco", 8), at("-", 17),
			at("based", 18), at("firm", 24)}},
		{"a 22-year-old and a 20 year-old", []syntax.Token{at("a", 0), at("22-year-old", 2), at("and", 14), at("a", 18),
			at("20", 20), at("year", 23), at("-", 27), at("old", 28)}},
		{"won 7-5, 1-2% 853-7906", []syntax.Token{at("won", 0), at("7", 4), at("-", 5), at("5", 6), at(",", 7), at("1", 9),
			at("-", 10), at("2", 11), at("%", 12), at("853-7906", 14)}},
		// An ISO date is one token; a range of years, or a month 13, is not a date.
		{"on 2024-03-10 in 2013-2016 2024-13-10", []syntax.Token{at("on", 0), at("2024-03-10", 3), at("in", 14), at("2013", 17),
			at("-", 21), at("2016", 22), at("2024", 27), at("-", 31), at("13", 32), at("-", 34), at("10", 35)}},
		{"O'Brien's 1990's '90s", []syntax.Token{at("O'Brien", 0), at("'s", 7), at("1990", 10), at("'s", 14),
			at("'", 17), at("90s", 18)}},
		{"cannot gonna", []syntax.Token{at("can", 0), at("not", 3), at("gon", 7), at("na", 10)}},
		{"#1 at 7:30, 1/2 cup", []syntax.Token{at("#", 0), at("1", 1), at("at", 3), at("7:30", 6), at(",", 10), at("1/2", 12), at("cup", 16)}},
		{"and/or AT&T", []syntax.Token{at("and", 0), at("/", 3), at("or", 4), at("AT&T", 7)}},
		{"pro- and anti-war", []syntax.Token{at("pro-", 0), at("and", 5), at("anti-war", 9)}},
		{"Wow!!! :) ok?", []syntax.Token{at("Wow", 0), at("!!!", 3), at(":)", 7), at("ok", 10), at("?", 12)}},
		{"Corp.. end....", []syntax.Token{at("Corp.", 0), at(".", 5), at("end", 7), at("....", 10)}},
		{"LLOYD >> A", []syntax.Token{at("LLOYD", 0), at(">", 6), at(">", 7), at("A", 9)}},
		{"café naïve", []syntax.Token{at("café", 0), at("naïve", 6)}},
		{"400 W m⁻¹ K⁻¹, x⁽²⁾ CO₂", []syntax.Token{at("400", 0), at("W", 4), at("m⁻¹", 6), at("K⁻¹", 13), at(",", 19),
			at("x⁽²⁾", 21), at("CO₂", 31)}},
		{"“Hi,” she said…", []syntax.Token{at("“", 0), at("Hi", 3), at(",", 5), at("”", 6), at("she", 10), at("said", 14), at("…", 18)}},
	}
	for _, tc := range tests {
		if got := Tokens(tc.text); show(got) != show(tc.want) {
			t.Errorf("Tokens(%q)\n got %s\nwant %s", tc.text, show(got), show(tc.want))
		}
	}
}

func TestTokensEmpty(t *testing.T) {
	for _, s := range []string{"", " ", "\n\t \r\n", "\u200b\ufeff\u00a0", "\x00\x01\x7f"} {
		if got := Tokens(s); len(got) != 0 {
			t.Errorf("Tokens(%q) = %s, want none", s, show(got))
		}
		if got := Sentences(s); len(got) != 0 {
			t.Errorf("Sentences(%q) = %d sentences, want none", s, len(got))
		}
	}
}

func TestTokensInvalidUTF8(t *testing.T) {
	text := "caf\xe9 ok\xff\xfe. \xc3"
	got := Tokens(text)
	want := []syntax.Token{at("caf\xe9", 0), at("ok\xff\xfe", 5), at(".", 9), at("\xc3", 11)}
	if show(got) != show(want) {
		t.Errorf("got %s\nwant %s", show(got), show(want))
	}
}

func TestAppendTokensReusesBuffer(t *testing.T) {
	buf := make([]syntax.Token, 0, 64)
	buf = AppendTokens(buf, "One two.")
	n := len(buf)
	buf = AppendTokens(buf, "Three")
	if n != 3 || len(buf) != 4 || buf[3].Form != "Three" || buf[3].Start != 0 {
		t.Fatalf("got %s", show(buf))
	}
	if allocs := testing.AllocsPerRun(100, func() { buf = AppendTokens(buf[:0], "I don't know, Mr. Smith said.") }); allocs != 0 {
		t.Errorf("AppendTokens into a large enough buffer allocates %v times", allocs)
	}
}

func sentenceForms(ss []syntax.Sentence) []string {
	var out []string
	for _, s := range ss {
		out = append(out, strings.Join(s.Forms(), " "))
	}
	return out
}

func TestSentences(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Mr. Smith left at 5 p.m. Friday. He was late.", []string{"Mr. Smith left at 5 p.m. Friday .", "He was late ."}},
		{"He works at Apple Inc. The company is big.", []string{"He works at Apple Inc.", "The company is big ."}},
		// The law's abbreviations end no sentence before a word that starts none.
		{"We review a dismissal under Fed. R. Civ. P. 12(b)(6) de novo. Id. at 5.", []string{"We review a dismissal under Fed. R. Civ. P. 12 ( b ) ( 6 ) de novo .", "Id. at 5 ."}},
		{"See Monell v. Dep't of Soc. Servs., 436 U.S. 658 (1978). The court agreed.", []string{"See Monell v. Dep't of Soc. Servs. , 436 U.S. 658 ( 1978 ) .", "The court agreed ."}},
		{"It was filed in the N.D. Cal. in 2023. Under Art. 52 it fails.", []string{"It was filed in the N.D. Cal. in 2023 .", "Under Art. 52 it fails ."}},
		// Science's: Eq., Ref., Suppl., journals; a letter after a degree sign is a unit.
		{"As shown in Eq. (4), the energy is conserved. Data are from Ref. 23 and Suppl. Fig. S2.", []string{"As shown in Eq. ( 4 ) , the energy is conserved .", "Data are from Ref. 23 and Suppl. Fig. S2 ."}},
		{"See Mol. Cell 2020 for it. Samples were kept at −80 °C. Prof. Smith disagreed.", []string{"See Mol. Cell 2020 for it .", "Samples were kept at − 80 ° C .", "Prof. Smith disagreed ."}},
		{"The U.S. Army and George W. Bush spoke.", []string{"The U.S. Army and George W. Bush spoke ."}},
		{"It was 5 p.m. The shop shut.", []string{"It was 5 p.m.", "The shop shut ."}},
		{`He said "Stop." Then he left.`, []string{`He said " Stop . "`, "Then he left ."}},
		{`"Why?" he asked. (It rained.) Then it stopped!`, []string{`" Why ? " he asked .`, "( It rained . )", "Then it stopped !"}},
		{"It cost $3.50. Prices rose 1.5 percent.", []string{"It cost $ 3.50 .", "Prices rose 1.5 percent ."}},
		{"Wait... What happened? Nothing... really.", []string{"Wait ...", "What happened ?", "Nothing ... really ."}},
		{"No. 5 won. Dr. Who? Yes.", []string{"No. 5 won .", "Dr. Who ?", "Yes ."}},
		{"He lives in Washington, D.C. The next day he left.", []string{"He lives in Washington , D.C.", "The next day he left ."}},
		{"Great! :) See you.", []string{"Great ! :)", "See you ."}},
		{"Visit www.example.com. It is good.", []string{"Visit www.example.com .", "It is good ."}},
		{"Title\n\nbody text here", []string{"Title", "body text here"}},
		{"Breaking News\nThe president spoke.", []string{"Breaking News", "The president spoke ."}},
		{"a hard-wrapped\nline continues, and\nso on.", []string{"a hard-wrapped line continues , and so on ."}},
		{"it ended. then more", []string{"it ended .", "then more"}},
		// A mark inside a short bracket ends no sentence; an enumerator after one does.
		{"Crowds met in Falluja (pop. 256,000) as the police came. Then it rained.",
			[]string{"Crowds met in Falluja ( pop . 256,000 ) as the police came .", "Then it rained ."}},
		{"The lake (approx. five km) froze. He left. 2) Then more.",
			[]string{"The lake ( approx. five km ) froze .", "He left .", "2 ) Then more ."}},
		{"A long aside (He left. She stayed behind in the old house with her sister) ended.",
			[]string{"A long aside ( He left .", "She stayed behind in the old house with her sister ) ended ."}},
		// Prose wrapped at a fixed width goes on across a line that begins with a capital
		// or a digit, also where a sentence began in the middle of the line; a title or a
		// short line still ends there.
		{"The nested decoding shows one sequence of displays and nests in\n99.7% of the budget pairs.",
			[]string{"The nested decoding shows one sequence of displays and nests in 99.7 % of the budget pairs ."}},
		{"The report was published on Tuesday by the committee chaired by\nSenator Smith, who spoke.",
			[]string{"The report was published on Tuesday by the committee chaired by Senator Smith , who spoke ."}},
		{"Key Delhi blast suspect arrested\nPolice say more arrests are likely.",
			[]string{"Key Delhi blast suspect arrested", "Police say more arrests are likely ."}},
		{"He left at noon. The report on Tuesday came from the committee\nSenator Smith chaired.",
			[]string{"He left at noon .", "The report on Tuesday came from the committee Senator Smith chaired ."}},
		{"share and change all versions of a program--to make sure it remains free\nsoftware for all its users.  We, the Free Software Foundation, use the\nGNU General Public License for most of our software.",
			[]string{"share and change all versions of a program -- to make sure it remains free software for all its users .",
				"We , the Free Software Foundation , use the GNU General Public License for most of our software ."}},
		{"He left. The committee\nSmith chaired met.", []string{"He left .", "The committee", "Smith chaired met ."}},
		{"One.", []string{"One ."}},
		// A line that opens with a speaker's label, a bracketed time, a bullet or a quoted
		// e-mail's ">" begins a sentence, even after a wrapped line or a lowercase start.
		{"Customer: the sync never worked properly with google calendar\nAgent (Tom): We fixed several sync bugs.",
			[]string{"Customer : the sync never worked properly with google calendar", "Agent ( Tom ) : We fixed several sync bugs ."}},
		{"It's been 10 days and I still have not received anything at all\n[10:03] Agent (Sam): I can see it",
			[]string{"It 's been 10 days and I still have not received anything at all", "[ 10:03 ] Agent ( Sam ) : I can see it"}},
		{"- Log in again and disable the sync before the first sync of the day\n- worked for me,\n• on a Galaxy\n> and you wrote",
			[]string{"- Log in again and disable the sync before the first sync of the day", "- worked for me ,", "• on a Galaxy", "> and you wrote"}},
		// A play's speaker, a line of capitals and its period, goes with the speech.
		{"OPHELIA.\nGood my lord,\nHow does your honour?\nLADY MACBETH.\nOut, damned spot!\nCHAPTER I.\nIt was night.",
			[]string{"OPHELIA . Good my lord , How does your honour ?", "LADY MACBETH . Out , damned spot !", "CHAPTER I.", "It was night ."}},
		// Not a label: a colon at the line's end, a lowercase word, a label of more words.
		{"The agenda of the meeting changed when the speaker came in late and\nNote:\nthe end",
			[]string{"The agenda of the meeting changed when the speaker came in late and Note : the end"}},
		{"The agenda of the meeting changed when the speaker came in late and\nThe Chair of the Board of Trustees: yes",
			[]string{"The agenda of the meeting changed when the speaker came in late and The Chair of the Board of Trustees : yes"}},
		// A quotation's source after a dash goes with it; a dash on the next line does not
		// join.
		{"\"Every new medium starts as somebody's hobby.\" — Zoe Lefevre, interviewed in 2009. He left.",
			[]string{"\" Every new medium starts as somebody 's hobby . \" — Zoe Lefevre , interviewed in 2009 .", "He left ."}},
		{"Be yourself; everyone else is already taken. -- Oscar Wilde",
			[]string{"Be yourself ; everyone else is already taken . -- Oscar Wilde"}},
		{"It rained all day.\n— Then the sun came out.", []string{"It rained all day .", "— Then the sun came out ."}},
		// A chat export's message opens with its date, whatever the line before it.
		{"12/03/2024, 19:02 - Source H: he called it a crank letter and said nobody in the office took it seriously\n12/03/2024, 19:03 - Jane: did you see it yourself\n[2024-03-04 21:20] Priya: then nothing",
			[]string{"12/03/2024 , 19:02 - Source H : he called it a crank letter and said nobody in the office took it seriously", "12/03/2024 , 19:03 - Jane : did you see it yourself", "[ 2024-03-04 21:20 ] Priya : then nothing"}},
		// "p." before a page number keeps its period and ends no sentence; before a
		// sentence starter it ends one.
		{"Martínez interview, transcript p. 2. He spoke of p. The end came.",
			[]string{"Martínez interview , transcript p. 2 .", "He spoke of p.", "The end came ."}},
	}
	for _, tc := range tests {
		got := sentenceForms(Sentences(tc.text))
		if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
			t.Errorf("Sentences(%q)\n got %q\nwant %q", tc.text, got, tc.want)
		}
	}
}

func TestSentencesShareTokens(t *testing.T) {
	text := "One two. Three four. Five."
	ss := Sentences(text)
	toks := Tokens(text)
	var all []syntax.Token
	for _, s := range ss {
		if cap(s.Tokens) != len(s.Tokens) {
			t.Errorf("sentence capacity %d > length %d", cap(s.Tokens), len(s.Tokens))
		}
		all = append(all, s.Tokens...)
	}
	if show(all) != show(toks) {
		t.Errorf("sentences hold %s, tokens are %s", show(all), show(toks))
	}
}

func TestPTBForm(t *testing.T) {
	text := `He said "it's “fine” and ‘ok’," don’t 'go' (x).`
	var got []string
	for _, tok := range Tokens(text) {
		got = append(got, PTBForm(text, tok))
	}
	want := "He said `` it 's `` fine '' and ` ok ' , '' do n't ` go ' ( x ) ."
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// checkTokens verifies the invariants every tokenization must satisfy.
func checkTokens(t *testing.T, text string, toks []syntax.Token) {
	t.Helper()
	prev := 0
	for i, tok := range toks {
		if tok.Start < prev || tok.Start >= tok.End || tok.End > len(text) {
			t.Fatalf("token %d %q has bad span [%d,%d) (previous end %d, text length %d)", i, tok.Form, tok.Start, tok.End, prev, len(text))
		}
		if tok.Form != text[tok.Start:tok.End] {
			t.Fatalf("token %d form %q is not text[%d:%d] = %q", i, tok.Form, tok.Start, tok.End, text[tok.Start:tok.End])
		}
		if tok.Head != syntax.NoHead {
			t.Fatalf("token %d has head %d", i, tok.Head)
		}
		for _, r := range tok.Form {
			if r != utf8.RuneError && IsSeparator(r) {
				t.Fatalf("token %d %q holds a separator %U", i, tok.Form, r)
			}
		}
		prev = tok.End
	}
	// Every non-separator byte belongs to a token.
	covered := 0
	for _, tok := range toks {
		for j := covered; j < tok.Start; {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !IsSeparator(r) {
				t.Fatalf("byte %d (%q) belongs to no token", j, text[j:j+n])
			}
			j += n
		}
		covered = tok.End
	}
	for j := covered; j < len(text); {
		r, n := utf8.DecodeRuneInString(text[j:])
		if !IsSeparator(r) {
			t.Fatalf("byte %d (%q) belongs to no token", j, text[j:j+n])
		}
		j += n
	}
}

func checkSentences(t *testing.T, text string, toks []syntax.Token, ss []syntax.Sentence) {
	t.Helper()
	n := 0
	for _, s := range ss {
		if len(s.Tokens) == 0 {
			t.Fatalf("empty sentence")
		}
		for _, tok := range s.Tokens {
			if n >= len(toks) || tok != toks[n] {
				t.Fatalf("sentence token %d %+v differs from Tokens", n, tok)
			}
			n++
		}
	}
	if n != len(toks) {
		t.Fatalf("sentences hold %d tokens, Tokens gives %d", n, len(toks))
	}
}

// TestLargeInputs runs pathological 1 MB inputs (64 KB with -short); a quadratic step
// would time out.
func TestLargeInputs(t *testing.T) {
	size := 1 << 20
	if testing.Short() {
		size = 1 << 16
	}
	units := []string{"a.", "No.(", "'", "-", "1-", "a-", ".", "a@", "www.", "http://x)", "x", " ", "\n",
		"\xff", "U.S.", "don't ", "a'", "1,", ":)", "Mr. ", "San Francisco-based ", "\u200d", "🇫🇷", "e\u0301"}
	for _, u := range units {
		text := strings.Repeat(u, size/len(u))
		var toks []syntax.Token
		for _, s := range Sentences(text) {
			if len(s.Tokens) == 0 {
				t.Fatalf("%q: empty sentence", u)
			}
			toks = append(toks, s.Tokens...)
		}
		checkTokens(t, text, toks)
	}
	text := "http://" + strings.Repeat(")", size)
	checkTokens(t, text, Tokens(text))
}

func TestEndsSentence(t *testing.T) {
	for s, want := range map[string]bool{
		"He left.": true, `He said "go."`: true, "(Yes!)": true, "“Really?”": true, "Wait…": true,
		"Garden notes": false, "0.855": false, `"go"`: false, "": false,
	} {
		if got := EndsSentence(s); got != want {
			t.Errorf("EndsSentence(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestEndsWithAbbreviation checks the lines that end with an abbreviation's period.
func TestEndsWithAbbreviation(t *testing.T) {
	for text, want := range map[string]bool{
		"OKAFOR v. MERIDIAN HEALTH SYSTEMS, INC.": true, "Smith Jr.": true, "(Fed.)": true, "George W.": true,
		"She went home.": false, "Is it?": false, "Apple Inc": false, "": false, ".": false,
	} {
		if got := EndsWithAbbreviation(text); got != want {
			t.Errorf("EndsWithAbbreviation(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestTurnLabel checks the label of a transcript's or a chat's turn, for a sentence of
// the turn after its first, across the turn's wrapped lines, and none for the turn's first
// sentence, a paragraph without one, or a label in another paragraph.
func TestTurnLabel(t *testing.T) {
	text := "Oral history interview with Zoë Lefèvre\n\n" +
		"[00:01:06] LEFÈVRE: Hans Müller's, really. Hans came into my office in the\n" +
		"spring of 1997. I didn't know what he meant.\n\n" +
		"Customer: My card was charged twice. I want a refund.\n\n" +
		"The reason is simple: we ran out. It happens.\n\n" +
		"Agent (Tom): Sorry about that.\n\nIt was fixed.\n\n" +
		"12/03/2024, 19:05 - Source H: no. someone in records told me."
	at := func(s string) int { return strings.Index(text, s) }
	for _, c := range []struct {
		sentence, want string
	}{
		{"Hans came", "[00:01:06] LEFÈVRE:"},
		{"I didn't know", "[00:01:06] LEFÈVRE:"},  // on the turn's next line
		{"[00:01:06] LEFÈVRE: Hans Müller's", ""}, // the turn's first sentence
		{"I want a refund", "Customer:"},
		{"It happens", ""},                                      // "The reason is simple:" is no label
		{"It was fixed", ""},                                    // another paragraph's label
		{"Oral history", ""},                                    // the document's start
		{"someone in records", "12/03/2024, 19:05 - Source H:"}, // a chat export's message
	} {
		s, n, e, ok := TurnLabel(text, at(c.sentence))
		got := ""
		if ok {
			got = text[s:e]
			if name := c.want[strings.LastIndexAny(c.want, "] -")+1:]; !strings.HasSuffix(text[n:e], name) {
				t.Errorf("TurnLabel at %q: name %q, want %q", c.sentence, text[n:e], name)
			}
		}
		if got != c.want {
			t.Errorf("TurnLabel at %q = %q, want %q", c.sentence, got, c.want)
		}
	}
}
