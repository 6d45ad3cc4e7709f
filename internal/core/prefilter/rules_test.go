package prefilter

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	_ "github.com/qsc-nlp/qsc/analyzers" // bleve's analyzers, whose stems the rules describe
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/internal/core/stem"
)

// alphabets are the letters of the random stems of each language, vowels twice.
var alphabets = map[string]string{
	"de": "abcdefghijklmnopqrstuvwxyzäöüßaeiouaeiou", "fr": "abcdefghijklmnopqrstuvwxyzàâçéèêëîïôûùüÿœæaeiou",
	"es": "abcdefghijklmnopqrstuvwxyzñáéíóúüaeiou", "it": "abcdefghijklmnopqrstuvwxyzàèéìòùaeiou",
	"pt": "abcdefghijklmnopqrstuvwxyzãõáâàçéêíóôúaeiou", "nl": "abcdefghijklmnopqrstuvwxyzëïaeiou",
	"sv": "abcdefghijklmnopqrstuvwxyzåäöaeiou", "da": "abcdefghijklmnopqrstuvwxyzæøåaeiou",
	"no": "abcdefghijklmnopqrstuvwxyzæøåaeiou", "nb": "abcdefghijklmnopqrstuvwxyzæøåaeiou",
	"fi": "abcdefghijklmnopqrstuvwxyzäöaeiou", "hu": "abcdefghijklmnopqrstuvwxyzáéíóöőúüűaeiou",
	"ro": "abcdefghijklmnopqrstuvwxyzăâîșțşţaeiou", "tr": "abcdefghijklmnopqrstuvwxyzçğıöşüaeiou",
	"pl": "abcdefghijklmnopqrstuvwxyząćęłńóśźżaeiou", "hr": "abcdefghijklmnopqrstuvwxyzčćđšžaeiou",
	"ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюяаеиоуыэюя",
	"ar": "ابتثجحخدذرسشصضطظعغفقكلمنهويءآأإؤئىةـًٌٍَُِّْ",
	"fa": "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیءآأؤئۀ\u200c",
	"hi": "कखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसहअआइईउऊएऐओऔािीुूेैोौंँःृ़्ॅॉ",
}

// endings adds, to the string literals of the stemmers' sources (testdata/endings.json),
// the endings of the stemmers written as code (German, Spanish, Italian and Hindi light
// stemmers; Polish's, a learned table; Persian has no stemmer).
var endings = map[string][]string{
	"de": {"e", "em", "en", "er", "es", "ern", "est", "st", "s", "n", "nen", "ungen", "ung", "heit", "keit", "chen", "lein", "ae", "oe", "ue", "ge", "te", "ten"},
	"es": {"s", "es", "as", "os", "a", "o", "e", "ces", "eses", "ión", "iones", "z"},
	"it": {"a", "e", "i", "o", "he", "hi", "che", "chi", "ghe", "ghi", "ie", "ia", "io", "zione", "zioni"},
	"hi": {"ों", "ें", "ाएँ", "ाओं", "ाने", "ानी", "ाना", "ते", "ती", "ता", "ना", "ने", "नी", "ो", "े", "ू", "ु", "ी", "ि", "ा", "ां", "ाँ", "ियाँ", "ियों", "ियां", "ाइयाँ", "ाइयां", "ाइयों", "ाएं", "ाकर", "ाइए", "ाईं", "ाया", "ेगी", "ेगा", "ोगी", "ोगे", "ाते", "ाती", "ाता", "तीं", "ाएगा", "ाएगी", "ाएंगे", "न्", "ँ", "ं"},
	"pl": {"ów", "ami", "ach", "om", "ego", "emu", "ym", "ej", "ą", "ę", "y", "i", "ie", "ość", "ości", "ek", "ka", "ki", "ce", "cy", "dzy", "owi", "em", "ań", "anie", "ania", "ować", "uje", "ują", "ał", "ała", "ało", "ali", "ły", "ski", "ska", "skie", "owy", "owa", "owe", "ni", "nia"},
	"fa": {"ها", "های", "ی", "ان", "ترین", "تر", "ات", "\u200cها", "ۀ"},
}

// prefixes are what the analyzers take off a word's start: Arabic's article and
// conjunctions, French and Italian elisions, Persian's verb prefixes.
var prefixes = map[string][]string{
	"ar": {"ال", "وال", "بال", "كال", "فال", "لل", "و", "أ", "إ", "آ"},
	"fr": {"l'", "d'", "qu'", "j'", "l’"}, "it": {"l'", "dell'", "un'"}, "fa": {"می", "نمی", "\u200c"},
}

// fixtureWords returns the words of the fixture of lang in testdata/languages, if any.
func fixtureWords(lang string) []string {
	b, err := os.ReadFile("../../../testdata/languages/" + lang + ".txt")
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range segment.Tokens(string(b)) {
		if segment.KindOf(t.Form) == segment.Word {
			out = append(out, t.Form)
		}
	}
	return out
}

// TestAnalyzerRules checks the rules of the languages with an analyzer: every word holds,
// in skeleton (undoubled for the rules that undouble), every anchor of its key. The words
// are the fixture's and random ones: a stem of 1 to 8 letters of the language, 0 to 3
// endings of its stemmer's tables, and a prefix half the time where the analyzer takes
// one off; a third capitalized. 100,000 per language (20,000 with -short); the
// measured rules were set on 300,000 to 1,000,000.
func TestAnalyzerRules(t *testing.T) {
	b, err := os.ReadFile("testdata/endings.json")
	if err != nil {
		t.Fatal(err)
	}
	var literals map[string][]string
	if err := json.Unmarshal(b, &literals); err != nil {
		t.Fatal(err)
	}
	n := 100000
	if testing.Short() {
		n = 20000
	}
	for _, lang := range segment.Languages() {
		r, ok := rules[lang]
		if !ok {
			if lang != "pl" {
				t.Errorf("%s has an analyzer and no rule", lang)
			}
			if Filterable(lang) {
				t.Errorf("%s is filterable without a rule", lang)
			}
			continue
		}
		base := lang
		if lang == "nb" {
			base = "no"
		}
		ends := append(slices.Clone(literals[base]), endings[base]...)
		alpha := []rune(alphabets[base])
		if len(alpha) == 0 {
			t.Errorf("%s: no alphabet to test its rule with", lang)
			continue
		}
		check := func(w string) bool {
			if segment.KindOf(w) != segment.Word {
				return true
			}
			key := segment.Key(w, lang)
			sk := Skeleton(w)
			if r.undouble {
				sk = undouble(sk)
			}
			for _, p := range r.pieces(key) {
				if !strings.Contains(sk, p) {
					t.Errorf("%s: %q has the key %q, whose anchor %q is not in its skeleton %q", lang, w, key, p, sk)
					return false
				}
			}
			return true
		}
		for _, w := range fixtureWords(base) {
			check(w)
		}
		rng := newRand(uint64(len(lang)*7919 + int(lang[0])))
		var sb strings.Builder
		for i := range n {
			sb.Reset()
			if ps := prefixes[base]; len(ps) > 0 && rng.IntN(2) == 0 {
				sb.WriteString(ps[rng.IntN(len(ps))])
			}
			for range 1 + rng.IntN(8) {
				sb.WriteRune(alpha[rng.IntN(len(alpha))])
			}
			for range rng.IntN(4) {
				if len(ends) > 0 {
					sb.WriteString(ends[rng.IntN(len(ends))])
				}
			}
			w := sb.String()
			if i%3 == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			if !check(w) {
				break
			}
		}
	}
}

// TestEnglishAnchors checks the English anchors from the text's side: every word holds,
// in skeleton, an anchor of its key (match.Key: punctuation, accents, case and stem), on
// the irregular forms and on random words with accents, apostrophes, hyphens and
// endings.
func TestEnglishAnchors(t *testing.T) {
	rng := newRand(3)
	letters := []rune("abcdefghijklmnopqrstuvwxyzaeiouyéèüöçñøßæ'’-ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	ends := []string{"s", "es", "ies", "ied", "ed", "eed", "ing", "ly", "'s", "’s", "ying", "e", "y", ".", ",", "!"}
	var forms []string
	for _, k := range []string{"go", "man", "child", "die", "lie", "tie", "sky", "take", "eat", "run"} {
		forms = append(forms, stem.Anchors(k)...)
	}
	var sb strings.Builder
	for i := range 200000 {
		var w string
		if i < len(forms) {
			w = forms[i]
		} else {
			sb.Reset()
			for range 1 + rng.IntN(8) {
				sb.WriteRune(letters[rng.IntN(len(letters))])
			}
			for range rng.IntN(3) {
				sb.WriteString(ends[rng.IntN(len(ends))])
			}
			w = sb.String()
		}
		var f Filter
		f.AddEnglish([]string{w})
		if len(match.Words(w)) != 1 || f.Always() {
			continue
		}
		var sk Scratch
		sk.Read(w)
		if f.Count(&sk) == 0 {
			t.Fatalf("%q (key %q): no anchor of %q in its skeleton %q", w, match.Key(w), stem.Anchors(match.Key(w)), Skeleton(w))
		}
	}
}
