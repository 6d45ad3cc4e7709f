package langid

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestDetect checks Detect on sentences of the fixtures' languages and on the cases its
// rules are for.
func TestDetect(t *testing.T) {
	for _, c := range []struct {
		text, lang string
		sure       bool
	}{
		{"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.", "en", false},
		{"The police said that the two men had been arrested after a long investigation of the burglaries.", "en", true},
		{"Owl terrorizes neighborhood joggers, swooping down at their head.", "en", false},
		{"Die Regierung will die Steuern im nächsten Jahr senken, sagte der Finanzminister am Mittwoch.", "de", true},
		{"Le gouvernement a annoncé mercredi une baisse des impôts pour les petites entreprises.", "fr", true},
		{"El gobierno anunció el miércoles una reducción de los impuestos para las pequeñas empresas.", "es", true},
		// Short, with one accent or none: their function words tell, the trigrams being unsure.
		{"Die Polizei in Berlin hat am Dienstag zwei Männer festgenommen.", "de", true},
		{"Le gouvernement a annoncé mardi une nouvelle loi.", "fr", true},
		{"Apple unveils new iPhone models at Cupertino event", "en", false},
		{"Правительство в среду объявило о снижении налогов для малых предприятий.", "ru", true},
		{"أعلنت الحكومة يوم الأربعاء عن تخفيض الضرائب على الشركات الصغيرة.", "ar", true},
		{"सरकार ने बुधवार को छोटे व्यवसायों के लिए करों में कटौती की घोषणा की।", "hi", true},
		{"政府周三宣布为小企业减税。", "zh", true},
		{"政府は水曜日、中小企業の税金を引き下げると決めた。", "ja", true},
		{"中華人民共和国国務院", "zh", true},
		{"政府는 수요일 중소기업에 대한 세금 인하를 발표했다.", "ko", true},
		{"รัฐบาลประกาศลดภาษีสำหรับธุรกิจขนาดเล็กเมื่อวันพุธ", "th", true},
		{"Kori Schulman 오바마 대통령 특별 보좌관은 월요일 블로그에 글을 올렸다.", "ko", true},
		{"12345 67890 !!!", Und, false},
		{"", Und, false},
	} {
		got := Detect(c.text)
		if got.Lang != c.lang || got.Sure != c.sure {
			t.Errorf("Detect(%q) = %+v, want %s (sure %v)", c.text, got, c.lang, c.sure)
		}
	}
}

// TestDetectSample checks that Detect reads only the first SampleBytes bytes, and cuts
// them at a rune boundary.
func TestDetectSample(t *testing.T) {
	ja := "政府は水曜日、中小企業の税金を引き下げると決めた。"
	text := ""
	for len(text) < SampleBytes+10 {
		text += ja
	}
	text += " The government said on Wednesday that it would cut the taxes of the small businesses."
	if got := Detect(text); got.Lang != "ja" {
		t.Errorf("Detect of Japanese then English past the sample: %+v, want ja", got)
	}
	if s := sample(text); len(s) > SampleBytes || len(s) < SampleBytes-3 {
		t.Errorf("sample: %d bytes", len(s))
	}
}

// FuzzDetect checks that Detect never panics and returns a code for any input.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{"", "the and of", "政府は", "\xff\xfe", "Ёж", "ب", "a\u0301"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r := Detect(s); r.Lang == "" {
			t.Errorf("Detect(%q) has no language", s)
		}
	})
}

// TestEnglishStays checks that the English sentences of the out-of-domain set (reviews,
// e-mail, answers, newsgroups, weblogs of UD_English-EWT, shipped in internal/lab/ood) are
// English: a sentence taken for another language would lose its compression. All 320
// are; the test allows one.
func TestEnglishStays(t *testing.T) {
	b, err := os.ReadFile("../../lab/ood/data/ewt-snippets.conllu")
	if err != nil {
		t.Fatal(err)
	}
	n, other := 0, 0
	for line := range strings.SplitSeq(string(b), "\n") {
		text, ok := strings.CutPrefix(line, "# text = ")
		if !ok {
			continue
		}
		n++
		if r := Detect(text); r.Lang != English {
			other++
			t.Logf("%s: %q", r.Lang, text)
		}
	}
	if n != 320 || other > 1 {
		t.Errorf("%d of %d English sentences taken for another language", other, n)
	}
}

// BenchmarkDetect measures Detect on the English news story of the root package's tests
// (its first 2 KiB: the fast path), on German and Japanese text (the trigrams and the
// script alone).
func BenchmarkDetect(b *testing.B) {
	news, err := os.ReadFile("../../../testdata/news.txt")
	if err != nil {
		b.Fatal(err)
	}
	de, err := os.ReadFile("../../../testdata/languages/de.txt")
	if err != nil {
		b.Fatal(err)
	}
	ja, err := os.ReadFile("../../../testdata/languages/ja.txt")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
	}{{"en-news", string(news)}, {"de", string(de)}, {"ja", string(ja)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Detect(c.text)
			}
		})
	}
}

// TestISO6391: every language of Languages, and of the stop lists, has its ISO 639-3 code
// mapped to its 639-1 code; other codes are returned as they are.
func TestISO6391(t *testing.T) {
	reached := map[string]bool{}
	for from, to := range iso6393 {
		if len(from) != 3 || len(to) != 2 || ISO6391(from) != to {
			t.Errorf("%q → %q", from, to)
		}
		reached[to] = true
	}
	for _, l := range append(slices.Clone(Languages), "ca", "eu", "ga", "gl", "hy", "no") {
		if !reached[l] {
			t.Errorf("no ISO 639-3 code maps to %q", l)
		}
	}
	for in, want := range map[string]string{"eng": "en", "deu": "de", "ger": "de", "cmn": "zh", "en": "en", "yue": "yue", "xx": "xx"} {
		if got := ISO6391(in); got != want {
			t.Errorf("ISO6391(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEnglishEarlyStop checks that english, which stops reading words once sureHits of
// them are function words, reports what reading all the first 100 words reports: on
// texts whose function words come first, last, or in a share around the 12% it needs.
func TestEnglishEarlyStop(t *testing.T) {
	early := 0
	for _, fw := range []int{0, 1, 2, 11, 12, 13, 30} {
		for _, other := range []int{0, 5, 80, 88, 89, 120} {
			for _, first := range []bool{true, false} {
				ws := make([]string, 0, fw+other)
				for range other {
					ws = append(ws, "word")
				}
				for range fw {
					if first {
						ws = append([]string{"the"}, ws...)
					} else {
						ws = append(ws, "the")
					}
				}
				s := head(strings.Join(ws, " "), WordBytes)
				c := Count(s)
				sure, likely := english(s, &c)
				wantSure, wantLikely := readEnglish(s, &c, 0)
				if sure != wantSure || likely != wantLikely {
					t.Errorf("%d function words (first %v) and %d others: english %v %v, want %v %v", fw, first, other, sure, likely, wantSure, wantLikely)
				}
				if n, _ := words(s, sureHits); n < min(100, fw+other) {
					early++
				}
			}
		}
	}
	if early == 0 {
		t.Error("no text stopped early")
	}
}
