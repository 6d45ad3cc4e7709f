package qsc_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
	_ "github.com/qsc-nlp/qsc/analyzers" // bleve's analyzers: Steuer finds Steuern
	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/segment"
)

// languageCases are queries on the fixtures of testdata/languages (PUD sentences, see its
// README.md), with the words each must find: inflected forms through bleve's analyzers,
// and characters inside longer runs for the scripts without spaces.
var languageCases = []struct {
	lang  string
	query string
	hits  []string // every hit shown is one of these
}{
	{"de", "Übergang", []string{"Übergangs", "Übergänge", "Übergang"}},
	{"de", "Ausgabe", []string{"Ausgaben"}},
	{"de", "Staat", []string{"Staaten"}},
	{"fr", "transitions", []string{"transition"}},
	{"fr", "dépense", []string{"dépenses"}},
	{"fr", "république", []string{"république"}},
	{"es", "transiciones", []string{"transición", "transiciones"}},
	{"es", "gasto", []string{"gastos"}},
	{"ru", "передача", []string{"передача", "передаче", "передачей", "передачи"}},
	{"ru", "расход", []string{"расходы"}},
	{"ar", "الانتقال", []string{"الانتقال"}},
	{"ar", "نفقات", []string{"النفقات"}},
	{"hi", "संक्रमण", []string{"संक्रमण"}},
	{"hi", "खर्च", []string{"खर्च"}},
	{"zh", "移民", []string{"移民"}},
	{"zh", "共和國", []string{"共和國"}},
	{"ja", "移民", []string{"移民"}},
	{"ja", "共和党", []string{"共和党"}},
	{"ko", "대통령", []string{"대통령"}},
	{"ko", "이민자", []string{"이민자"}},
	{"th", "การเปลี่ยนผ่าน", []string{"การเปลี่ยนผ่าน"}},
	{"th", "คลินตัน", []string{"คลินตัน"}},
}

func fixture(t testing.TB, lang string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/languages/" + lang + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// TestLanguages checks the snippets of the ten fixtures: the language identified, the
// window as method, the hits, the budget on both renderings, edges between words (for
// the scripts with spaces), and no cut after a comma.
func TestLanguages(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range languageCases {
		doc := fixture(t, c.lang)
		for _, budget := range []int{30, 40, 80, 200} {
			sn, err := e.DoSnippets(ctx, &qsc.SnippetRequest{Document: doc, Query: []string{c.query}, Budget: budget})
			if err != nil || len(sn) == 0 {
				t.Errorf("%s %q, budget %d: %d snippets, %v", c.lang, c.query, budget, len(sn), err)
				continue
			}
			for _, s := range sn {
				checkSnippet(t, doc, s, c.lang, budget, c.hits)
			}
		}
	}
}

// checkSnippet checks one snippet of a fixture.
func checkSnippet(t *testing.T, doc string, s qsc.Snippet, lang string, budget int, hits []string) {
	t.Helper()
	ell := display.Render(doc, s.Sentence, s.Kept, s.Hits, true, false)
	switch {
	case s.Lang != lang || s.Method != qsc.MethodWindow:
		t.Errorf("%s: snippet %q has lang %q, method %q", lang, s.Text, s.Lang, s.Method)
	case len(s.Hits) == 0 || len(s.Kept) != 1:
		t.Errorf("%s: snippet %q: hits %v, kept %v; want hits and one window", lang, s.Text, s.Hits, s.Kept)
	case utf8.RuneCountInString(s.Text) > budget || utf8.RuneCountInString(ell) > budget:
		t.Errorf("%s: %q (%q) over the budget %d", lang, s.Text, ell, budget)
	case strings.Contains(ell, ", …") || strings.Contains(ell, "、…") || strings.Contains(ell, "，…"):
		t.Errorf("%s: %q ends a run on a comma", lang, ell)
	}
	for _, h := range s.Hits {
		if got := doc[h.Start:h.End]; !slices.Contains(hits, got) {
			t.Errorf("%s: hit %q, want one of %q", lang, got, hits)
		}
	}
	k := s.Kept[0]
	before, _ := utf8.DecodeLastRuneInString(doc[:k.Start])
	after, _ := utf8.DecodeRuneInString(doc[k.End:])
	first, _ := utf8.DecodeRuneInString(doc[k.Start:])
	last, _ := utf8.DecodeLastRuneInString(doc[:k.End])
	if inWord(before, first) && k.Start > s.Sentence.Start || inWord(last, after) && k.End < s.Sentence.End {
		t.Errorf("%s: window %q cuts a word", lang, doc[k.Start:k.End])
	}
}

// inWord reports whether a cut between a and b falls inside a word of a script written
// with spaces.
func inWord(a, b rune) bool {
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }
	return word(a) && word(b) && !segment.Spaceless(a) && !segment.Spaceless(b)
}

// TestLanguagesCompress checks Compress on a sentence of each fixture: the compression
// holds the hit, fits, and reports the language and the window.
func TestLanguagesCompress(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range languageCases {
		doc := fixture(t, c.lang)
		sn, err := e.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: doc, Query: []string{c.query}, Budget: 1000, N: 1})
		if err != nil || len(sn) != 1 {
			t.Fatalf("%s: %v", c.lang, err)
		}
		sentence := doc[sn[0].Sentence.Start:sn[0].Sentence.End]
		for _, mode := range []string{qsc.BudgetTokens, qsc.BudgetDisplay, qsc.BudgetColumns} {
			res, err := e.Do(context.Background(), &qsc.Request{Text: sentence, Query: []string{c.query}, Budget: 40, BudgetCounts: mode}, false)
			if err != nil {
				t.Errorf("%s %q (%s): %v", c.lang, c.query, mode, err)
				continue
			}
			n := utf8.RuneCountInString(res.Compression)
			if mode == qsc.BudgetColumns {
				n = display.Columns(res.Ellipsis())
			} else if mode == qsc.BudgetDisplay {
				n = max(n, utf8.RuneCountInString(res.Ellipsis()))
			}
			if res.Lang != c.lang || res.Method != qsc.MethodWindow || n > 40 || !containsAny(res.Compression, c.hits) {
				t.Errorf("%s %q (%s): %q (%q), lang %s, method %s, length %d", c.lang, c.query, mode, res.Compression, res.Ellipsis(), res.Lang, res.Method, n)
			}
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestIssueJapanese is the example of issue 35: a Japanese sentence and a query of two
// characters gave nothing; it gives a snippet, and Compress a compression.
func TestIssueJapanese(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	doc := "政府は水曜日、中小企業の税金を引き下げると決めた。"
	sn, err := e.Snippets(context.Background(), doc, []string{"政府"}, 40, 3)
	if err != nil || len(sn) != 1 || sn[0].Text != doc || doc[sn[0].Hits[0].Start:sn[0].Hits[0].End] != "政府" || sn[0].Lang != "ja" {
		t.Errorf("snippets: %+v, %v", sn, err)
	}
	res, err := e.Compress(context.Background(), doc, []string{"税金"}, 12)
	if err != nil || !strings.Contains(res.Compression, "税金") || utf8.RuneCountInString(res.Compression) > 12 {
		t.Errorf("compress: %+v, %v", res, err)
	}
	if res != nil && res.Ellipsis() != "…中小企業の税金を…" {
		t.Errorf("compress: %q, want …中小企業の税金を…", res.Ellipsis())
	}
}

// TestMixedLanguages checks the per-sentence language: a Japanese sentence in an English
// document and an English one in a Japanese document take their own language and method.
func TestMixedLanguages(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	en := "The police said the two men were arrested after a long investigation of the burglaries in the city. " +
		"The mayor quoted the Japanese government: 政府は水曜日、中小企業の税金を引き下げると決めた。 The council will meet on Monday."
	sn, err := e.Snippets(ctx, en, []string{"政府", "police"}, 60, 3)
	if err != nil || len(sn) != 2 {
		t.Fatalf("English document: %+v, %v", sn, err)
	}
	langs := map[string]string{}
	for _, s := range sn {
		langs[s.Lang] = s.Method
	}
	if langs["en"] != qsc.DefaultMethod || langs["ja"] != qsc.MethodWindow {
		t.Errorf("English document: languages and methods %v, want en by %s and ja by the window", langs, qsc.DefaultMethod)
	}
	ja := fixture(t, "ja") + "The police said the two men were arrested after a long investigation."
	sn, err = e.Snippets(ctx, ja, []string{"police", "移民"}, 60, 3)
	if err != nil || len(sn) != 2 {
		t.Fatalf("Japanese document: %+v, %v", sn, err)
	}
	langs = map[string]string{}
	for _, s := range sn {
		langs[s.Lang] = s.Method
	}
	if langs["en"] != qsc.DefaultMethod || langs["ja"] != qsc.MethodWindow {
		t.Errorf("Japanese document: languages and methods %v", langs)
	}
	// A language given holds for every sentence.
	sn, err = e.DoSnippets(ctx, &qsc.SnippetRequest{Document: en, Query: []string{"police"}, Budget: 60, Lang: "en-US"})
	if err != nil || len(sn) != 1 || sn[0].Lang != "en" {
		t.Errorf("lang en-US: %+v, %v", sn, err)
	}
	// A Japanese or Thai word inside an English sentence, where the English tokenizer
	// keeps the run of letters around it as one token.
	doc := "The Tokyo office (東京事務所) moved to Shibuya in 2019. We met the ministry (กระทรวงการคลัง) last week."
	for _, term := range []string{"東京", "事務所", "การคลัง"} {
		sn, err = e.Snippets(ctx, doc, []string{term}, 60, 1)
		if err != nil || len(sn) != 1 || len(sn[0].Hits) != 1 || !strings.Contains(doc[sn[0].Hits[0].Start:sn[0].Hits[0].End], term) {
			t.Errorf("%s in an English sentence: %+v, %v", term, sn, err)
		}
	}
}

// TestLanguageOptions checks the caller's language, a method named for a text that is
// not English, and the columns budget.
func TestLanguageOptions(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Too short to identify: English by default, German when the caller says so.
	short := "Steuern senken"
	if _, err := e.Do(ctx, &qsc.Request{Text: short, Query: []string{"Steuer"}, Budget: 20}, false); !errors.Is(err, qsc.ErrInfeasible) {
		t.Errorf("short German text read as English: %v, want the term not found", err)
	}
	res, err := e.Do(ctx, &qsc.Request{Text: short, Query: []string{"Steuer"}, Budget: 20, Lang: "DE"}, false)
	if err != nil || res.Lang != "de" || res.Compression != short {
		t.Errorf("lang DE: %+v, %v", res, err)
	}
	// An ISO 639-3 code is the language of its 639-1 code, not an unknown language.
	for code, want := range map[string]string{"deu": "de", "GER": "de", "eng": "en"} {
		res, err := e.Do(ctx, &qsc.Request{Text: short, Query: []string{"Steuern"}, Budget: 20, Lang: code}, false)
		if err != nil || res.Lang != want || (want == "en") != (res.Method == qsc.DefaultMethod) {
			t.Errorf("lang %s: %+v, %v; want %s", code, res, err, want)
		}
	}
	// A method named reads the text as English, with the language's words and matches.
	doc := fixture(t, "de")
	sn, err := e.DoSnippets(ctx, &qsc.SnippetRequest{Document: doc, Query: []string{"Ausgabe"}, Budget: 40, Method: "ilp"})
	if err != nil || len(sn) != 1 || sn[0].Method != "ilp" || sn[0].Lang != "de" {
		t.Errorf("method ilp on German: %+v, %v", sn, err)
	}
	// Columns: a Japanese window of 40 columns holds about 20 characters.
	ja := fixture(t, "ja")
	for _, mode := range []string{qsc.BudgetDisplay, qsc.BudgetColumns} {
		sn, err := e.DoSnippets(ctx, &qsc.SnippetRequest{Document: ja, Query: []string{"移民"}, Budget: 40, BudgetCounts: mode, N: 1})
		if err != nil || len(sn) != 1 {
			t.Fatalf("%s: %v", mode, err)
		}
		ell := display.Render(ja, sn[0].Sentence, sn[0].Kept, sn[0].Hits, true, false)
		chars, cols := utf8.RuneCountInString(ell), display.Columns(ell)
		if mode == qsc.BudgetColumns && (cols > 40 || cols < 30) || mode == qsc.BudgetDisplay && (chars > 40 || chars < 30) {
			t.Errorf("%s: %q has %d characters, %d columns", mode, ell, chars, cols)
		}
	}
	for _, bad := range []string{"x", "english", "12", "und"} {
		if _, err := e.DoSnippets(ctx, &qsc.SnippetRequest{Document: ja, Query: []string{"移民"}, Budget: 40, Lang: bad}); !errors.Is(err, qsc.ErrBadRequest) || !strings.Contains(err.Error(), "not a language code") {
			t.Errorf("lang %q: %v", bad, err)
		}
	}
	// A term alone longer than the budget is infeasible, with its length.
	if _, err := e.Compress(ctx, "政府は水曜日、中小企業の税金を引き下げると決めた。", []string{"中小企業の税金"}, 5); !errors.Is(err, qsc.ErrInfeasible) {
		t.Errorf("term over the budget: %v", err)
	}
	// Terms too far apart for one window: a window around each, "…" between them, the
	// first not opening the quotation 「…」 that it cannot close; and infeasible when even
	// those do not fit.
	first := ja[:strings.Index(ja, "。")+len("。")]
	res, err = e.Do(ctx, &qsc.Request{Text: first, Query: []string{"米国", "月曜日"}, Budget: 12, BudgetCounts: qsc.BudgetDisplay}, false)
	if err != nil {
		t.Fatalf("terms apart: %v", err)
	}
	if ell := res.Ellipsis(); utf8.RuneCountInString(ell) > 12 || !strings.Contains(ell, "米国") || !strings.Contains(ell, "月曜日") || strings.Count(ell, "…") < 1 ||
		strings.Count(ell, "「") != strings.Count(ell, "」") {
		t.Errorf("terms apart: %q, want both terms in windows of at most 12 characters, no quote without its pair", ell)
	}
	if _, err := e.Compress(ctx, first, []string{"米国", "月曜日"}, 6); !errors.Is(err, qsc.ErrInfeasible) {
		t.Errorf("terms apart, budget 6: %v", err)
	}
	// A German sentence whose two terms lie at its two ends (PUD): each window uses the
	// room the other leaves, and ends on no stop word.
	de := "Allerdings war sie zu sehr auf kleine Posten im Westen ausgerichtet und nicht so gut für einen Überseekonflikt gerüstet."
	res, err = e.Compress(ctx, de, []string{"gerüstet", "Allerdings"}, 72)
	if err != nil {
		t.Fatalf("German terms apart: %v", err)
	}
	if ell := res.Ellipsis(); utf8.RuneCountInString(ell) > 72 || utf8.RuneCountInString(ell) < 55 || !strings.HasPrefix(ell, "Allerdings") || !strings.HasSuffix(ell, "gerüstet.") || strings.Count(ell, "…") != 1 {
		t.Errorf("German terms apart: %q (%d characters), want both ends in 55 to 72 characters, one cut", ell, utf8.RuneCountInString(ell))
	}
}

// FuzzForeignSnippets checks the snippets of any text read as Japanese, German or Thai:
// no panic, errors of the documented kinds, and every snippet within its budget.
func FuzzForeignSnippets(f *testing.F) {
	for _, s := range []struct {
		doc, term string
		budget    int
	}{
		{"政府は水曜日、中小企業の税金を引き下げると決めた。", "政府", 10},
		{"Die Regierung will die Steuern senken.", "Steuer", 12},
		{"รัฐบาลประกาศลดภาษี สำหรับธุรกิจขนาดเล็ก", "ภาษี", 8},
		{"「」、。…", "、", 3},
		{"a\u0301\u0301 b", "a", 1},
	} {
		f.Add(s.doc, s.term, s.budget)
	}
	e, err := qsc.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc, term string, budget int) {
		for _, lang := range []string{"ja", "de", "th"} {
			sn, err := e.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: doc, Query: []string{term}, Budget: budget, Lang: lang})
			if err != nil {
				if !errors.Is(err, qsc.ErrBadRequest) && !errors.Is(err, qsc.ErrInfeasible) {
					t.Fatalf("%s: %v", lang, err)
				}
				continue
			}
			for _, s := range sn {
				ell := display.Render(doc, s.Sentence, s.Kept, s.Hits, true, false)
				if utf8.RuneCountInString(s.Text) > budget || utf8.RuneCountInString(ell) > budget {
					t.Fatalf("%s: %q (%q) over the budget %d", lang, s.Text, ell, budget)
				}
			}
		}
	})
}

// TestNoMatch checks the snippet of a document where no query term matched: none by
// default; with NoMatch the first sentence, whole or cut cleanly to the budget.
func TestNoMatch(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	en := "The mayor of the city said on Monday that the council would vote on the new budget next week. It did."
	for _, c := range []struct {
		doc     string
		budget  int
		want    string
		lang    string
		wantErr error
	}{
		{en, 200, "The mayor of the city said on Monday that the council would vote on the new budget next week.", "en", nil},
		{en, 40, "The mayor of the city said on Monday …", "en", nil},
		{fixture(t, "ja"), 30, "「米国でデジタルへの移行が大いに進んでいる一方で…", "ja", nil},               // before the comma
		{fixture(t, "de"), 50, "„Ein Großteil des digitalen Übergangs …", "de", nil}, // not on "ist für"
		{"\n\n   Donaudampfschifffahrtsgesellschaftskapitän.", 10, "", "de", qsc.ErrInfeasible},
		{"... !!! ...", 10, "", "und", nil},
	} {
		req := &qsc.SnippetRequest{Document: c.doc, Query: []string{"zebra"}, Budget: c.budget}
		if sn, err := e.DoSnippets(ctx, req); err != nil || len(sn) != 0 {
			t.Errorf("%q without NoMatch: %+v, %v; want no snippet", c.want, sn, err)
		}
		req.NoMatch = true
		sn, err := e.DoSnippets(ctx, req)
		if c.wantErr != nil {
			if !errors.Is(err, c.wantErr) {
				t.Errorf("%q: %v, want %v", c.doc, err, c.wantErr)
			}
			continue
		}
		got := ""
		if len(sn) == 1 {
			got = display.Render(c.doc, sn[0].Sentence, sn[0].Kept, sn[0].Hits, true, false)
			if sn[0].Method != qsc.MethodLead || sn[0].Terms != 0 || sn[0].Lang != c.lang || utf8.RuneCountInString(got) > c.budget {
				t.Errorf("%q: %+v", got, sn[0])
			}
		}
		if err != nil || got != c.want {
			t.Errorf("NoMatch, budget %d: %q, %v; want %q", c.budget, got, err, c.want)
		}
	}
}

// TestMixedLatin checks the sentences in another Latin-script language than their
// document's: an English sentence in a German document is English (the ILP), a French
// one in an English document French (the window); a short accented English phrase stays
// English.
func TestMixedLatin(t *testing.T) {
	e, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	de := fixture(t, "de") + " The police said that the two men were arrested after a long investigation of the burglaries."
	sn, err := e.Snippets(ctx, de, []string{"police", "Ausgabe"}, 80, 3)
	langs := map[string]string{}
	for _, s := range sn {
		langs[s.Lang] = s.Method
	}
	if err != nil || langs["en"] != qsc.DefaultMethod || langs["de"] != qsc.MethodWindow {
		t.Errorf("German document with an English sentence: %v, %v", langs, err)
	}
	en := "The police said that the two men were arrested after a long investigation. " +
		"Le gouvernement a annoncé mercredi une baisse des impôts pour les petites entreprises. " +
		"The café near the station was closed by the police on Monday."
	sn, err = e.Snippets(ctx, en, []string{"police", "gouvernement"}, 80, 3)
	got := map[string]string{}
	for _, s := range sn {
		got[en[s.Sentence.Start:s.Sentence.Start+3]] = s.Lang + " " + s.Method
	}
	want := map[string]string{"The": "en ilp", "Le ": "fr window"}
	if err != nil || len(sn) != 3 || got["The"] != want["The"] || got["Le "] != want["Le "] {
		t.Errorf("English document with a French sentence: %v, %v; want %v", got, err, want)
	}
	// A sentence of another language that names an English organisation is that
	// language; an English sentence with a foreign name stays English.
	mixed := "Horizons for Refugees urges EU leaders to put protection first at the summit in Brussels. " +
		"The organisation said that the new pact would lead to more detention of children, and that it had written to every member state about it.\n\n" +
		"Horizons for Refugees fordert die Staats- und Regierungschefs der EU auf, den Flüchtlingsschutz in den Mittelpunkt zu stellen.\n\n" +
		"In 1997, he married María Elena Fernandez-Miranda, a lawyer and diplomatic attache in the EU delegation."
	sn, err = e.Snippets(ctx, mixed, []string{"EU"}, 200, 3)
	var langs3 []string
	for _, s := range sn {
		langs3 = append(langs3, s.Lang)
	}
	if err != nil || !slices.Equal(langs3, []string{"en", "de", "en"}) {
		t.Errorf("English document with a German sentence that names an English organisation: languages %v, %v; want en, de, en", langs3, err)
	}
}

// TestLeadInfeasible checks that a lead that does not fit says which budget its shortest
// clean beginning needs, and that this budget gives one.
func TestLeadInfeasible(t *testing.T) {
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	req := qsc.SnippetRequest{Document: "The hotel room was clean and quiet.", Query: []string{"zebra"}, Budget: 4, NoMatch: true}
	_, err = eng.DoSnippets(context.Background(), &req)
	var need int
	if !errors.Is(err, qsc.ErrInfeasible) {
		t.Fatalf("budget 4: %v, want ErrInfeasible", err)
	}
	if _, e := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "takes ")+len("takes "):], "%d", &need); e != nil || need <= 4 {
		t.Fatalf("budget 4: %q names no budget over 4", err)
	}
	req.Budget = need
	if sn, err := eng.DoSnippets(context.Background(), &req); err != nil || len(sn) != 1 || sn[0].Method != qsc.MethodLead {
		t.Errorf("budget %d, the one named: %+v, %v", need, sn, err)
	}
}
