package segment

import (
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/syntax"
)

func forms(toks []syntax.Token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Form
	}
	return out
}

// TestTokens checks words, characters of scripts without spaces and Hangul syllables.
func TestTokens(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Die Social-Media-Übergänge, 3,5 %.", []string{"Die", "Social", "-", "Media", "-", "Übergänge", ",", "3,5", "%", "."}},
		{"L'État a 2 ans.", []string{"L'État", "a", "2", "ans", "."}},
		{"政府は水曜日、", []string{"政", "府", "は", "水", "曜", "日", "、"}},
		{"정부는 수요일", []string{"정", "부", "는", "수", "요", "일"}},
		{"ภาษี ธุรกิจ", []string{"ภ", "า", "ษี", "ธุ", "ร", "กิ", "จ"}},
		{"iPhone発売 3月", []string{"iPhone", "発", "売", "3", "月"}},
		{"सरकार ने घोषणा की।", []string{"सरकार", "ने", "घोषणा", "की", "।"}},
		{" \t\u200b\n", nil},
	} {
		toks := Tokens(c.text)
		if got := forms(toks); !slices.Equal(got, c.want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
		}
		checkTokens(t, c.text, toks, 0)
	}
}

// checkTokens checks the invariants of tokens of text (offsets from base): each form is
// its text, ascending, not overlapping, not empty and not white space alone.
func checkTokens(t *testing.T, text string, toks []syntax.Token, base int) {
	t.Helper()
	end := base
	for _, tk := range toks {
		if tk.Start < end || tk.End <= tk.Start || tk.End-base > len(text) || text[tk.Start-base:tk.End-base] != tk.Form || strings.TrimSpace(tk.Form) == "" {
			t.Fatalf("bad token %+v in %q", tk, text)
		}
		end = tk.End
	}
}

// TestSentences checks where sentences end.
func TestSentences(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string // the first token of each sentence
	}{
		{"政府は決めた。次の文です！最後？", []string{"政", "次", "最"}},
		{"Die Regierung will senken. Z. B. sagte er am 3. Mai: „Nein.“ Dann ging er.", []string{"Die", "Z", "Dann"}},
		{"Er kam ca. drei Tage zu spät. Sie nicht.", []string{"Er", "Sie"}},
		{"„Nein“, sagte Dr. Schäfer nach Art. 16 GG. Sra. Núñez und Mme Dubois kamen. Fertig.", []string{"„", "Sra", "Fertig"}},
		{"Вот. Это?! Да…", []string{"Вот", "Это", "Да"}},
		{"वाक्य एक। वाक्य दो।", []string{"वाक्य", "वाक्य"}},
		{"هل جاء؟ نعم.", []string{"هل", "نعم"}},
		{"。“所以我不想", []string{"。", "“"}},
		{"Titel\n\nText ohne Punkt", []string{"Titel", "Text"}},
		{"eine Zeile\nweiter", []string{"eine"}},
		{"ร้านอาหารเปิดแล้ว\nวันนี้ฝนตก", []string{"ร้", "วั"}},
		{"政府は決め\nた", []string{"政"}},
	} {
		var got []string
		for _, s := range Sentences(c.text, 7) {
			got = append(got, s.Tokens[0].Form)
			checkTokens(t, c.text, s.Tokens, 7)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Sentences(%q) start with %q, want %q", c.text, got, c.want)
		}
	}
}

// TestMatch checks the matcher without analyzers: case, accents, width, characters inside
// runs, phrases, elided articles, and no match inside a word of a spaced script.
func TestMatch(t *testing.T) {
	for _, c := range []struct {
		lang, term, text string
		want             []string // the text of each hit
	}{
		{"de", "zurich", "In Zürich und ZÜRICH.", []string{"Zürich", "ZÜRICH"}},
		{"ja", "政府", "政府は水曜日、日本政府が", []string{"政府", "政府"}},
		{"ja", "ＡＢＣ", "abc社とＡＢＣ", []string{"abc", "ＡＢＣ"}},
		{"ja", "ｶﾀｶﾅ", "カタカナ", []string{"カタカナ"}},
		{"ko", "정부", "정부는 수요일 정부가", []string{"정부", "정부"}},
		{"fr", "état", "L'État et l’état", []string{"L'État", "l’état"}},
		{"fr", "art", "la partie d'art", []string{"d'art"}},
		{"de", "kleine Unternehmen", "für kleine  Unternehmen", []string{"kleine  Unternehmen"}},
		{"ar", "الحكومة", "الحُكُومَة", []string{"الحُكُومَة"}},
		{"ru", "ёж", "Ежи и ёж", []string{"ёж"}},
		{"hi", "कि", "क कि", []string{"कि"}},
	} {
		q, err := Compile([]string{c.term}, c.lang, 64)
		if err != nil {
			t.Fatal(err)
		}
		toks := Tokens(c.text)
		var got []string
		for _, h := range q.NewScanner().Scan(toks) {
			got = append(got, c.text[toks[h.Start].Start:toks[h.End-1].End])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %q in %q: %q, want %q", c.lang, c.term, c.text, got, c.want)
		}
	}
	if _, err := Compile([]string{"  "}, "de", 64); err == nil {
		t.Error("an empty term compiled")
	}
	if _, err := Compile([]string{strings.Repeat("字", 65)}, "ja", 64); err == nil {
		t.Error("a term of 65 characters compiled with a maximum of 64")
	}
}

// TestFixtures checks the segmentation of the ten fixtures of testdata/languages: every
// token valid, and as many sentences as the six PUD sentences of each (Thai writes no
// sentence marks: one; the Arabic fixture seven: "إن ما تقوله وما تفعله... في الواقع"
// splits at the "..." before a word that has no case to tell a new sentence by).
func TestFixtures(t *testing.T) {
	want := map[string]int{"de": 6, "fr": 6, "es": 6, "ru": 6, "ar": 7, "hi": 6, "zh": 6, "ja": 6, "ko": 6, "th": 1}
	for lang, n := range want {
		b, err := os.ReadFile("../../../testdata/languages/" + lang + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		text := strings.TrimSpace(string(b))
		sents := Sentences(text, 0)
		for _, s := range sents {
			checkTokens(t, text, s.Tokens, 0)
		}
		if len(sents) != n {
			var firsts []string
			for _, s := range sents {
				firsts = append(firsts, text[s.Tokens[0].Start:s.Tokens[min(3, len(s.Tokens)-1)].End])
			}
			t.Errorf("%s: %d sentences, want %d: %q", lang, len(sents), n, firsts)
		}
	}
}

// FuzzSegment checks the tokens and sentences of any text: valid tokens, sentences that
// cover the tokens in order, and kinds for every form.
func FuzzSegment(f *testing.F) {
	for _, s := range []string{"政府は水曜日、決めた。", "Z. B. „Nein.“ Dann", "ภาษี ธุรกิจ", "a\u0301\u200d\xff", "。“", "\n\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		toks := Tokens(text)
		checkTokens(t, text, toks, 0)
		var all []syntax.Token
		for _, s := range Sentences(text, 0) {
			if len(s.Tokens) == 0 {
				t.Fatalf("empty sentence in %q", text)
			}
			all = append(all, s.Tokens...)
		}
		if !slices.Equal(all, toks) {
			t.Fatalf("sentences of %q do not hold its tokens", text)
		}
		for _, tk := range toks {
			KindOf(tk.Form)
		}
	})
}

// FuzzMatch checks the matcher on any term and text: no panic, hits inside the tokens,
// and a term of words always found in its own text.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{{"政府", "政府は"}, {"Steuer", "Steuern"}, {"l'état", "L'État"}, {"\xff", "\xff"}, {"a b", "a  b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, term, text string) {
		for _, lang := range []string{"de", "ja", "ar"} {
			q, err := Compile([]string{term}, lang, 64)
			if err != nil {
				continue
			}
			toks := Tokens(text)
			for _, h := range q.NewScanner().Scan(toks) {
				if h.Start < 0 || h.End > len(toks) || h.Start >= h.End || h.Term != 0 {
					t.Fatalf("hit %+v of %d tokens", h, len(toks))
				}
			}
			if utf8.ValidString(term) && len(q.NewScanner().Scan(Tokens(term))) == 0 {
				t.Fatalf("%s: %q is not found in itself", lang, term)
			}
		}
	})
}

// TestQuotedMarks checks that a sentence mark inside a quotation that closes ends no
// sentence: the sentence goes on after the quotation.
func TestQuotedMarks(t *testing.T) {
	for _, c := range []struct {
		text string
		want int // sentences
	}{
		{"二、昭和16年12月8日の頁には「ラジオにて開戦を知る。町は静かなり」とあります。次の頁は白紙です。", 2},
		{"사진 뒷면에는 연필로 “1952. 7. 15. 김씨 가게”라고 적혀 있었어요. 그 가게는 없어요.", 2},
		{"« Nous partons. Il est tard. » dit-il. Puis il sortit.", 4}, // a space after the quotation: read as it comes
		{"„Nein. Niemals.“ Dann ging er. Er kam nicht wieder.", 4},    // a space after: as it comes
		{"「開戦を知る。町は静かなり\n\n次の段落。", 3},                                 // left open in its paragraph: read as it comes
	} {
		if got := len(Sentences(c.text, 0)); got != c.want {
			var forms []string
			for _, s := range Sentences(c.text, 0) {
				forms = append(forms, c.text[s.Tokens[0].Start:s.Tokens[len(s.Tokens)-1].End])
			}
			t.Errorf("%q: %d sentences %q, want %d", c.text, got, forms, c.want)
		}
	}
}

// TestGreek checks the Greek question mark (a semicolon after a Greek word) and Greek
// abbreviations before a number or a name.
func TestGreek(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"Τι θυμάστε από τη Σμύρνη; Μ. Κ.: Ήμουν έξι χρονών.", 2},
		{"Ο Αλέξανδρος Παπαδόπουλος (γεν. 1916) μίλησε. Ο φάκελος αρ. 8 λείπει.", 2},
		{"Read this; then that.", 1}, // a Latin semicolon ends nothing
	} {
		if got := len(Sentences(c.text, 0)); got != c.want {
			t.Errorf("%q: %d sentences, want %d", c.text, got, c.want)
		}
	}
}

// TestMixedWordTokens checks that a word mixing a script split into characters with
// digits or Latin letters keeps each run of those whole: "1964" of "1964년" is one token,
// so that a number is found and "1" does not match inside "12세기".
func TestMixedWordTokens(t *testing.T) {
	for text, want := range map[string][]string{
		"1964년":     {"1964", "년"},
		"12세기":      {"12", "세", "기"},
		"3月":        {"3", "月"},
		"COVID19検査": {"COVID19", "検", "査"},
		"東京":        {"東", "京"},
	} {
		var got []string
		for _, tk := range Tokens(text) {
			got = append(got, tk.Form)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", text, got, want)
		}
	}
}
