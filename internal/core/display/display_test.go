package display

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAttachesLeft(t *testing.T) {
	for _, s := range []string{",", ". Then", "%", ")", "'s", "’s new", "n't", "N'T", "'", "''", "'re", "”", "…"} {
		if !AttachesLeft(s) {
			t.Errorf("AttachesLeft(%q) = false", s)
		}
	}
	for _, s := range []string{"", "men", "(", "$", "'quoted'", "'tis", "not", "new", "“", "``", "- x"} {
		if AttachesLeft(s) {
			t.Errorf("AttachesLeft(%q) = true", s)
		}
	}
}

func TestDetokenize(t *testing.T) {
	for in, want := range map[string]string{
		`The city 's deficit grew 3.7 % to $ 89.5 billion , said Sen. Cornyn ( R-Texas ) .`: `The city's deficit grew 3.7% to $89.5 billion, said Sen. Cornyn (R-Texas).`,
		`He said " quoted " and " again " .`:                                                `He said "quoted" and "again".`,
		`I do n't know ; `:                                                                  `I don't know;`,
		"“ Yes , ” she said .":                                                              "“Yes,” she said.",
		"":                                                                                  "",
	} {
		forms := strings.Fields(in)
		got, spans := Detokenize(forms)
		if got != want {
			t.Errorf("Detokenize(%q) = %q, want %q", in, got, want)
		}
		var back []string
		for _, sp := range spans {
			back = append(back, got[sp.Start:sp.End])
		}
		if !slices.Equal(back, forms) {
			t.Errorf("Detokenize(%q): spans give %q", in, back)
		}
	}
}

func TestRenderJoins(t *testing.T) {
	doc := "Police arrested two men on Tuesday, officials said."
	sent := Span{0, len(doc)}
	at := func(s string) Span { i := strings.Index(doc, s); return Span{i, i + len(s)} }
	kept := []Span{at("Police arrested"), at("men"), at(","), at("officials said.")}
	if got := Render(doc, sent, kept, nil, false, false); got != "Police arrested men, officials said." {
		t.Errorf("plain %q", got)
	}
	if got := Render(doc, sent, kept, nil, true, false); got != "Police arrested … men … officials said." {
		t.Errorf("ellipsis %q", got)
	}
	kept = []Span{at("Police"), at("men"), at(".")}
	if got := Render(doc, sent, kept, []Span{at("men")}, false, true); got != "Police <mark>men</mark>." {
		t.Errorf("html %q", got)
	}
	// A closing quote written against a dropped final period stays against the word, and
	// is shown with ellipses too: the quotes stay balanced.
	doc = `Hamas hopes to turn the strip "into a vast battlefield." Then`
	sent = Span{0, strings.Index(doc, " Then")}
	kept = []Span{at(`the strip "into a vast battlefield`), {sent.End - 1, sent.End}}
	if got := Render(doc, sent, kept, nil, false, false); got != `the strip "into a vast battlefield"` {
		t.Errorf("plain, glued quote %q", got)
	}
	if got := Render(doc, sent, kept, nil, true, false); got != `… the strip "into a vast battlefield"` {
		t.Errorf("ellipsis, glued quote %q", got)
	}
	if got, want := new(Scratch).Length(doc, sent, kept, nil), lengthOf(doc, sent, kept, nil); got != want {
		t.Errorf("Length with a glued quote = %d, want %d", got, want)
	}
	// An opening quote kept alone before a cut is shown (the rules kept both halves), and
	// the cuts are written against the quotes.
	doc = `"We believe this is an ill-advised term," said Nihad Awad (a director).`
	sent = Span{0, len(doc)}
	kept = []Span{{0, 1}, at("believe"), at(`" said Nihad Awad (`), at(").")}
	if got := Render(doc, sent, kept, nil, true, false); got != `"… believe …" said Nihad Awad (…).` {
		t.Errorf("ellipsis, quotes around cuts %q", got)
	}
	if got := Render(doc, sent, kept, nil, false, false); got != `" believe " said Nihad Awad ().` {
		t.Errorf("plain, quotes around cuts %q", got)
	}
	if got, want := new(Scratch).Length(doc, sent, kept, nil), lengthOf(doc, sent, kept, nil); got != want {
		t.Errorf("Length with quotes around cuts = %d, want %d", got, want)
	}
}

// lengthOf is what Length must return: the longer plain rendering, counted in runes.
func lengthOf(doc string, sent Span, kept, hits []Span) int {
	return max(utf8.RuneCountInString(Render(doc, sent, kept, hits, false, false)),
		utf8.RuneCountInString(Render(doc, sent, kept, hits, true, false)))
}

func TestLength(t *testing.T) {
	doc := "Police  arrested two\u00a0men on Tuesday,\u2028 officials said \xff\xfe (in Zürich)."
	sent := Span{0, len(doc)}
	at := func(s string) Span { i := strings.Index(doc, s); return Span{i, i + len(s)} }
	for _, kept := range [][]Span{
		nil,
		{at("Police  arrested")},
		{at("Police  arrested"), at("men"), at(","), at("officials said")},
		{at("two\u00a0men"), at("\xff\xfe"), at("Zürich)."), at(".")},
		{at("on"), at("Tuesday,\u2028 officials")},
	} {
		hits := []Span{at("men")}
		if got, want := new(Scratch).Length(doc, sent, kept, hits), lengthOf(doc, sent, kept, hits); got != want {
			t.Errorf("Length(%v) = %d, want %d (%q, %q)", kept, got, want,
				Render(doc, sent, kept, hits, false, false), Render(doc, sent, kept, hits, true, false))
		}
	}
}

// FuzzLength checks that Length counts what Render writes, for any spans of any text,
// with a Scratch used again and again.
func FuzzLength(f *testing.F) {
	f.Add("Police arrested two men on Tuesday, officials said.", 0, 6, 16, 19, 20, 51, 0, 51, 7, 15, 20, 23)
	f.Add("a\u00a0b \xff c\u200b, d", 0, 1, 2, 5, 6, 9, 0, 12, 9, 10, 3, 4)
	f.Add("He left . , and \"then\" she came (back) .", 0, 2, 8, 9, 10, 11, 0, 40, 16, 22, 28, 33)
	f.Add("He said \"no.\" Then", 0, 2, 8, 11, 13, 14, 0, 14, 3, 7, 9, 11)
	f.Add("\"We see it,\" he said (a lot).", 0, 1, 4, 7, 11, 20, 0, 30, 21, 22, 4, 7)
	var sc Scratch
	f.Fuzz(func(t *testing.T, doc string, k1, k2, k3, k4, k5, k6, s1, s2, k7, k8, h1, h2 int) {
		kept := []Span{{k1, k2}, {k3, k4}, {k5, k6}, {k7, k8}}
		hits := []Span{{h1, h2}, {k5, k6}}
		sent := Span{s1, s2}
		if got, want := sc.Length(doc, sent, kept, hits), lengthOf(doc, sent, kept, hits); got != want {
			t.Fatalf("Length = %d, Render gives %d", got, want)
		}
		// A whole span is at least as long as MinLength says.
		if whole := clean(nil, doc, kept[:1], 0, len(doc)); len(whole) == 1 {
			text := doc[whole[0].Start:whole[0].End]
			if got := sc.Length(doc, whole[0], whole, nil); got < MinLength(text) {
				t.Fatalf("Length of %q = %d, under MinLength %d", text, got, MinLength(text))
			}
		}
	})
}

// TestLengthAllocs checks Scratch's promise: once grown, Length allocates nothing.
func TestLengthAllocs(t *testing.T) {
	doc := `"Police arrested two men on Tuesday," officials said.`
	at := func(s string) Span { i := strings.Index(doc, s); return Span{i, i + len(s)} }
	kept, hits := []Span{at(`"Police`), at("two men"), at(`Tuesday,"`), at("said.")}, []Span{at("men")}
	var sc Scratch
	sc.Length(doc, Span{0, len(doc)}, kept, hits)
	if a := testing.AllocsPerRun(100, func() { sc.Length(doc, Span{0, len(doc)}, kept, hits) }); a != 0 {
		t.Errorf("Length allocates %v times", a)
	}
}

// TestRenderInvisibleInWords: the soft hyphen and the zero-width (non-)joiner are parts of
// their words, as the tokenizer reads them: a kept run shows them as they are, where a
// space would split the word ("str ike", "می خواهم") or the emoji sequence (👨 👩 👧).
// Other invisible format characters (the zero-width space) still separate words.
func TestRenderInvisibleInWords(t *testing.T) {
	for doc, want := range map[string]string{
		"The str\u00adike ended.":                                     "The str\u00adike ended.",
		"Our family \U0001F468\u200d\U0001F469\u200d\U0001F467 left.": "Our family \U0001F468\u200d\U0001F469\u200d\U0001F467 left.",
		"من می\u200cخواهم بروم.":                                      "من می\u200cخواهم بروم.",
		"The sta\u200btion.":                                          "The sta tion.",
		"Tabs\tand\r\nlines.":                                         "Tabs and lines.",
	} {
		all := []Span{{0, len(doc)}}
		for _, ellipsis := range []bool{false, true} {
			if got := Render(doc, all[0], all, nil, ellipsis, false); got != want {
				t.Errorf("Render(%q, ellipsis %v) = %q, want %q", doc, ellipsis, got, want)
			}
		}
		if n, w := new(Scratch).Length(doc, all[0], all, nil), utf8.RuneCountInString(want); n != w {
			t.Errorf("Length(%q) = %d, want %d", doc, n, w)
		}
	}
}

// TestRenderGapMark checks that two runs that punctuation alone separated are shown with
// the comma, semicolon or colon of the cut, not its quotes or brackets, in the ellipsis
// rendering and in Length; the plain rendering is the runs alone, as Snippet.Text promises.
func TestRenderGapMark(t *testing.T) {
	doc := `"The fate of Iraq is the same," al-Sadr said: "We stand (firmly) with them."`
	sent := Span{0, len(doc)}
	at := func(s string) Span { i := strings.Index(doc, s); return Span{i, i + len(s)} }
	var sc Scratch
	for _, c := range []struct {
		kept          []Span
		plain, dotted string
	}{
		{[]Span{at("The fate of Iraq is the same"), at("al-Sadr said")}, "The fate of Iraq is the same al-Sadr said", "The fate of Iraq is the same, al-Sadr said …"},
		{[]Span{at("al-Sadr said"), at("We stand")}, "al-Sadr said We stand", "… al-Sadr said: We stand …"},
		{[]Span{at("firmly"), at("with them")}, "firmly with them", "… firmly with them"},
		{[]Span{at("of Iraq"), at("al-Sadr said")}, "of Iraq al-Sadr said", "… of Iraq … al-Sadr said …"},
	} {
		plain, dotted := Render(doc, sent, c.kept, nil, false, false), Render(doc, sent, c.kept, nil, true, false)
		if plain != c.plain || dotted != c.dotted {
			t.Errorf("got %q and %q, want %q and %q", plain, dotted, c.plain, c.dotted)
		}
		if n, want := sc.Length(doc, sent, c.kept, nil), max(utf8.RuneCountInString(plain), utf8.RuneCountInString(dotted)); n != want {
			t.Errorf("%q: Length %d, want %d", dotted, n, want)
		}
	}
}

// TestRenderCutAfterCloser checks that a cut after a closing bracket or quote is written
// apart from it, even when a comma or semicolon follows it in the text, and that a cut
// after an opening one, or before a closing one, is written against it.
func TestRenderCutAfterCloser(t *testing.T) {
	for _, c := range []struct{ doc, a, b, want string }{
		{"It uses less (0.922 against 0.953), since one sequence serves every budget (see below).",
			"It uses less (0.922 against 0.953)", "(see below).", "It uses less (0.922 against 0.953) … (see below)."},
		{`He read "Nested display"; then the rest of it, and "more" came.`,
			`He read "Nested display"`, `"more" came.`, `He read "Nested display" … "more" came.`},
		{"She said “we will go there soon and often” and left.",
			"She said “we", "often” and left.", "She said “we … often” and left."},
		{`She said "we will go there soon and often" and left.`,
			`She said "we`, `often" and left.`, `She said "we … often" and left.`},
	} {
		at := func(s string) Span { i := strings.Index(c.doc, s); return Span{i, i + len(s)} }
		got := Render(c.doc, Span{0, len(c.doc)}, []Span{at(c.a), at(c.b)}, nil, true, false)
		if got != c.want {
			t.Errorf("Render(%q) = %q, want %q", c.doc, got, c.want)
		}
		var sc Scratch
		if n := sc.Length(c.doc, Span{0, len(c.doc)}, []Span{at(c.a), at(c.b)}, nil); n != utf8.RuneCountInString(c.want) {
			t.Errorf("Length(%q) = %d, want %d", c.doc, n, utf8.RuneCountInString(c.want))
		}
	}
}

// TestRenderOwnEllipsis checks that a cut beside the text's own ellipsis ("…" or "...")
// shows that one alone, at either end and inside, and that Length counts what is shown.
func TestRenderOwnEllipsis(t *testing.T) {
	for _, c := range []struct {
		doc  string
		kept []string
		want string
	}{
		{"I had six or seven shots of … was it tequila? .. yeah, it was.", []string{"I had six or seven shots of …"}, "I had six or seven shots of …"},
		{"It changed in recent years... Then it went on for a while.", []string{"It changed in recent years..."}, "It changed in recent years..."},
		{"He stopped and ...then he left the room quietly.", []string{"...then he left the room"}, "...then he left the room …"},
		{"It was good... the staff were kind and the food was hot.", []string{"It was good...", "the food was hot."}, "It was good... the food was hot."},
		{"It was good, the staff were kind and the food was hot.", []string{"It was good", "the food was hot."}, "It was good … the food was hot."},
	} {
		at := func(s string) Span { i := strings.Index(c.doc, s); return Span{i, i + len(s)} }
		var kept []Span
		for _, k := range c.kept {
			kept = append(kept, at(k))
		}
		sent := Span{0, len(c.doc)}
		if got := Render(c.doc, sent, kept, nil, true, false); got != c.want {
			t.Errorf("Render(%q) = %q, want %q", c.doc, got, c.want)
		}
		var sc Scratch
		if n := sc.Length(c.doc, sent, kept, nil); n != utf8.RuneCountInString(c.want) {
			t.Errorf("Length(%q) = %d, want %d", c.doc, n, utf8.RuneCountInString(c.want))
		}
	}
}

// TestRenderCliticAfterCut checks that a clitic whose own word was cut is written apart
// from the word before the cut, in both renderings ("Asian … n't", "Asian n't", never
// "Asiann't"), while a final period after a cut and a clitic after its own word stay
// against the word.
func TestRenderCliticAfterCut(t *testing.T) {
	doc := "Many Asian countries won't let it grow, and the firm's staff agreed."
	at := func(s string) Span { i := strings.Index(doc, s); return Span{i, i + len(s)} }
	for _, c := range []struct {
		kept          []Span
		plain, dotted string
	}{
		{[]Span{at("Many Asian"), at("n't let it grow")}, "Many Asian n't let it grow", "Many Asian … n't let it grow …"},
		{[]Span{at("Many Asian"), at("'s staff agreed")}, "Many Asian 's staff agreed", "Many Asian … 's staff agreed"},
		{[]Span{at("the firm's staff"), at(".")}, "the firm's staff.", "… the firm's staff …"},
		{[]Span{at("countries wo"), at("n't let")}, "countries won't let", "… countries won't let …"},
	} {
		for _, ell := range []bool{false, true} {
			want := c.plain
			if ell {
				want = c.dotted
			}
			if got := Render(doc, Span{0, len(doc)}, c.kept, nil, ell, false); got != want {
				t.Errorf("Render(%v, ellipsis %v) = %q, want %q", c.kept, ell, got, want)
			}
		}
		var sc Scratch
		if n, want := sc.Length(doc, Span{0, len(doc)}, c.kept, nil), max(utf8.RuneCountInString(c.plain), utf8.RuneCountInString(c.dotted)); n != want {
			t.Errorf("Length(%v) = %d, want %d", c.kept, n, want)
		}
	}
}

// TestMark checks Mark: the stretch escaped with its white space as it is, hits in
// <mark> as Render marks them (the words of a phrase in one, a hit cut at the stretch's
// end), the count of marks, the hits left for the next stretch, and a stretch out of range
// clamped.
func TestMark(t *testing.T) {
	doc := "a <b> c\r\n d\n\ne f\xffg"
	for _, c := range []struct {
		r     Span
		hits  []Span
		want  string
		marks int
		rest  int
	}{
		{Span{0, 11}, []Span{{2, 5}, {6, 7}, {10, 11}, {13, 14}}, "a <mark>&lt;b&gt; c\r\n d</mark>", 1, 1},
		{Span{0, 11}, []Span{{0, 1}, {10, 12}}, "<mark>a</mark> &lt;b&gt; c\r\n <mark>d</mark>", 2, 0},
		{Span{13, 18}, []Span{{13, 14}, {15, 16}}, "<mark>e f</mark>\uFFFDg", 1, 0},
		{Span{13, 18}, nil, "e f\uFFFDg", 0, 0},
		{Span{-5, 99}, []Span{{0, 1}}, "<mark>a</mark> &lt;b&gt; c\r\n d\n\ne f\uFFFDg", 1, 0},
	} {
		got, marks, rest := Mark(doc, c.r, c.hits)
		if got != c.want || marks != c.marks || len(rest) != c.rest {
			t.Errorf("Mark(%v, %v) = %q, %d marks, %d hits left; want %q, %d, %d", c.r, c.hits, got, marks, len(rest), c.want, c.marks, c.rest)
		}
	}
}

// TestRenderPeriodAfterAbbreviation: the sentence's period after a cut is not written
// against a word that ends with a period of its own ("Elm St.", never "Elm St.."), in
// either rendering, and Length counts what Render writes.
func TestRenderPeriodAfterAbbreviation(t *testing.T) {
	doc := "He entered 1400 Elm St. without a warrant."
	at := func(s string) Span { i := strings.LastIndex(doc, s); return Span{i, i + len(s)} }
	kept := []Span{at("He entered 1400 Elm St."), at(".")}
	for ell, want := range map[bool]string{false: "He entered 1400 Elm St.", true: "He entered 1400 Elm St. …"} {
		if got := Render(doc, Span{0, len(doc)}, kept, nil, ell, false); got != want {
			t.Errorf("Render(ellipsis %v) = %q, want %q", ell, got, want)
		}
	}
	var sc Scratch
	if n := sc.Length(doc, Span{0, len(doc)}, kept, nil); n != utf8.RuneCountInString("He entered 1400 Elm St. …") {
		t.Errorf("Length = %d", n)
	}
}

// TestRenderBareQuotes checks that a display opening on a quotation's mark with a cut
// after it writes no "…" before the mark, nor one after a closing mark with a cut before
// it, and that Length and Pieces count the display as Render writes it.
func TestRenderBareQuotes(t *testing.T) {
	for _, c := range []struct {
		doc  string
		kept []string
		want string
	}{
		{`The judge said, "nor does this appeal concern any right to use sidewalks."`, []string{`"`, `right to use sidewalks."`}, `"… right to use sidewalks."`},
		{`The report ends: "We suggest that the author publish the whole of his work in order to form an opinion." [16]`, []string{`"We suggest that the author publish`, `"`}, `… "We suggest that the author publish …"`},
		{`He said «no more wars today» and left.`, []string{"«", "wars", "»"}, "«… wars …»"},
		// A closing mark after a cut that the text's own ellipsis shows is written against it.
		{`"If a bus drove off a cliff, killing everyone involved... that would be a tragedy".`, []string{`"If a bus drove off a cliff, killing everyone involved...`, `".`}, `"If a bus drove off a cliff, killing everyone involved...".`},
		// Not bare: the mark opens a run of words, or nothing is cut beside it.
		{`He said, "we won" and left the hall.`, []string{`"we won"`}, `… "we won" …`},
		{`She wrote "yes" twice, then left.`, []string{`"yes" twice`}, `… "yes" twice …`},
	} {
		var kept []Span
		from := 0
		for _, k := range c.kept {
			i := strings.Index(c.doc[from:], k) + from
			kept = append(kept, Span{i, i + len(k)})
			from = i + len(k)
		}
		sent := Span{0, len(c.doc)}
		got := Render(c.doc, sent, kept, nil, true, false)
		if got != c.want {
			t.Errorf("%q %q: %q, want %q", c.doc, c.kept, got, c.want)
		}
		var sc Scratch
		if n, w := sc.Length(c.doc, sent, kept, nil), utf8.RuneCountInString(got); n < w {
			t.Errorf("%q: Length %d, the display %q has %d", c.doc, n, got, w)
		}
		pieces, after := sc.Pieces(nil, c.doc, sent, kept, nil)
		cuts := 0
		for _, p := range pieces {
			if p.Cut {
				cuts++
			}
		}
		if after {
			cuts++
		}
		if want := strings.Count(got, Cut); cuts != want {
			t.Errorf("%q: Pieces count %d cuts, the display %q shows %d", c.doc, cuts, got, want)
		}
	}
}
