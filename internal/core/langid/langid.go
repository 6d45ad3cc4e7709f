// Package langid identifies the language of a text: an ISO 639-1 code such as "en", "de"
// or "ja", for the snippet pipeline to choose how to segment, match and shorten it.
//
// Detect decides in three steps, cheapest first, over a sample of at most SampleBytes
// bytes of the text for the script and its first WordBytes for the words and trigrams:
//
//  1. Script. The letters of the sample are counted by script. A script that one language
//     owns decides it: Hangul is ko, Thai th, Greek el, Hebrew he, Georgian ka, Armenian
//     hy; Han with any kana is ja (Japanese mixes kanji and kana; the trigram library
//     alone takes kanji-heavy Japanese for Chinese), Han alone zh.
//  2. English. Latin-script text whose words are mostly ASCII and include English
//     function words often enough (the, and, of, that, …: at least 2 and 12% of the
//     first 100 words) is English without further work; so is ASCII text with one of
//     them, unless its other letters say otherwise. This keeps the cost for English
//     text, the common case and the one with a compression model, at a scan of the
//     sample.
//  3. Trigrams. Otherwise the languages of the sample's script are ranked by trigram
//     profile, among Languages (the languages with an ISO 639-1 code and enough speakers to
//     matter, so that Swedish is not taken for Nynorsk nor Russian for Bulgarian as often:
//     docs/languages.md has the figures). The profiles and the ranking are whatlanggo's
//     (github.com/abadojack/whatlanggo), with its answers (guess.go says how and where
//     they may differ), computed from an index of the profiles in a twentieth of its
//     time or less.
//
// A Latin-script text that the trigrams do not place with confidence, that has no two
// accented letters and whose words are no function words of another language
// (ownWords: at least 2 of German, French, Spanish, Italian, Portuguese, Swedish, Dutch
// or Indonesian ones, and no English one) is English (Sure is false): the pipeline then
// tags, parses and compresses it as English. The comparison
// with lingua-go, the accuracy on short text, the speed and the binary size behind this
// choice are in docs/languages.md.
//
// Detect is safe for concurrent use and never panics. Its cost is that of the sample: a
// few µs for English, and 15 to 30 µs when the trigrams decide (docs/languages.md has the
// figures). The trigram index is made on first use (about 1.5 ms and 0.2 MB); whatlanggo itself is not
// linked.
package langid

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/script"
)

// SampleBytes is the most of a text that Detect reads: its first 2 KiB.
const SampleBytes = 2048

// Und is the language of a text with no letters ("und" in BCP 47: undetermined).
const Und = "und"

// English is the code of English, the language of the compression models.
const English = "en"

// Script is the writing system of a text's letters, as Detect counts them.
type Script uint8

// The scripts Detect tells apart; Other is any other, None a text with no letters.
const (
	None Script = iota
	Latin
	Cyrillic
	Greek
	Arabic
	Hebrew
	Devanagari
	Han
	Kana // Hiragana and Katakana
	Hangul
	Thai
	Other
	numScripts
)

// String returns the script's name.
func (s Script) String() string {
	return [...]string{"none", "Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari", "Han", "Kana", "Hangul", "Thai", "other"}[s]
}

// ScriptOf returns the script of the letter or mark r, None for any other rune: the
// scripts of package script, with Hiragana and Katakana as Kana, and Lao, Khmer and
// Myanmar as Other.
func ScriptOf(r rune) Script {
	s := script.Of(r)
	if c := coarse[s]; c != None || s == script.None {
		return c
	}
	if unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
		return Other // a letter or mark of Lao, Khmer or Myanmar
	}
	return None // their digits and punctuation
}

// coarse are the scripts of package script as Detect counts them; None for Lao, Khmer
// and Myanmar, whose letters and marks are Other.
var coarse = [...]Script{
	script.None: None, script.Latin: Latin, script.Cyrillic: Cyrillic, script.Greek: Greek,
	script.Arabic: Arabic, script.Hebrew: Hebrew, script.Devanagari: Devanagari, script.Han: Han,
	script.Hiragana: Kana, script.Katakana: Kana, script.Hangul: Hangul, script.Thai: Thai,
	script.Lao: None, script.Khmer: None, script.Myanmar: None, script.Other: Other,
}

// Result is what Detect found.
type Result struct {
	// Lang is an ISO 639-1 code ("en", "de", "ja"), or Und for a text without letters.
	Lang string
	// Script is the script of most of the sample's letters.
	Script Script
	// Sure is false when the decision is a default: Latin-script text that the trigrams
	// did not place with confidence (Lang is then English), or a text without letters.
	Sure bool
}

// Counts are the letters of a text by script.
type Counts [numScripts]int

// Count returns the letters of text by script.
func Count(text string) Counts {
	var c Counts
	for i := 0; i < len(text); {
		if b := text[i]; b < utf8.RuneSelf {
			l := int(letters[b]) // no branch: letters and others alternate in text
			c[Latin] += l
			c[None] += 1 - l
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		c[ScriptOf(r)]++
		i += size
	}
	return c
}

// Main returns the script of most letters, or None. Han and kana count as one script,
// reported as Kana when any kana is there, so that Japanese is one script; their letters
// and Hangul's count three times, as a syllable or a word is written with one of them and
// with about three Latin letters (a Korean sentence that names "Kori Schulman" is Korean).
func (c *Counts) Main() Script {
	best, n := None, 0
	for s := Latin; s < numScripts; s++ {
		k := c[s]
		switch s {
		case Han:
			k = 3 * (k + c[Kana])
		case Hangul:
			k *= 3
		case Kana:
			continue
		}
		if k > n {
			best, n = s, k
		}
	}
	if best == Han && c[Kana] > 0 {
		return Kana
	}
	return best
}

// sample returns the first SampleBytes of text, cut at a rune boundary.
func sample(text string) string { return head(text, SampleBytes) }

// head returns the first n bytes of text, cut at a rune boundary.
func head(text string, n int) string {
	if len(text) <= n {
		return text
	}
	end := n
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return text[:end]
}

// WordBytes is the most of a text that the English words and the trigrams read: its first
// 512 bytes, 80 to 100 words of a language written in the Latin script. More text costs
// more time (the trigrams take about 1 µs a byte) and changes few answers.
const WordBytes = 512

// Detect returns the language of text (see the package documentation).
func Detect(text string) Result {
	s := head(text, WordBytes)
	c := Count(s) // the counts of what the words and trigrams read
	if c.Main() == Latin {
		if sure, _ := english(s, &c); sure {
			return Result{Lang: English, Script: Latin, Sure: true} // without reading on
		}
	}
	script := c.Main()
	if len(s) < len(text) {
		script = sampleScript(text, s, &c)
	}
	switch script {
	case None:
		return Result{Lang: Und, Script: None}
	case Kana:
		return Result{Lang: "ja", Script: Kana, Sure: true}
	case Han:
		return Result{Lang: "zh", Script: Han, Sure: true}
	case Latin:
		sure, likely := english(s, &c)
		if sure {
			return Result{Lang: English, Script: Latin, Sure: true}
		}
		if likely {
			return Result{Lang: English, Script: Latin}
		}
	}
	if lang, ok := owned[script]; ok {
		return Result{Lang: lang, Script: script, Sure: true}
	}
	if script == Cyrillic && russian(sample(text)) {
		return Result{Lang: "ru", Script: Cyrillic, Sure: true}
	}
	lang, confidence := guess(s)
	sure := lang != "" && (confidence >= minConfidence || script == Latin && accented(s, &c))
	if !sure && script == Latin {
		if own := ownWords(s, lang); own != "" {
			lang, sure = own, true
		}
	}
	if !sure && script == Latin {
		return Result{Lang: English, Script: Latin}
	}
	if lang == "" {
		return Result{Lang: Und, Script: script}
	}
	return Result{Lang: lang, Script: script, Sure: sure}
}

// sampleScript returns the main script of text's sample, whose head s has the counts c.
func sampleScript(text, s string, c *Counts) Script {
	all := Count(sample(text)[len(s):]) // s is the sample's head, cut at a rune boundary
	for i, n := range c {
		all[i] += n
	}
	return all.Main()
}

// ownWords returns the language whose function words the Latin-script text s holds, by
// its first readWords words: a language of ownFunctionWords with at least 2 of its words
// there and more than any other (on a tie, guessed, the trigrams' guess, wins), when none
// of them is an English function word (functionWord): "de" for "Die Polizei in Berlin hat
// am Dienstag zwei Männer festgenommen." ("die", "hat", "am", "zwei"); "" otherwise.
func ownWords(s, guessed string) string {
	var hits [len(ownFunctionWords)]int
	for i, n := 0, 0; i < len(s) && n < readWords; {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) && r != '\'' {
				break
			}
			j += size
		}
		w := s[i:j]
		n++
		if functionWord(w) {
			return ""
		}
		lw := strings.ToLower(w)
		for k, l := range ownFunctionWords {
			if l.words[lw] {
				hits[k]++
			}
		}
		i = j
	}
	best, top, tie := "", 1, false
	for k, l := range ownFunctionWords {
		switch h := hits[k]; {
		case h > top:
			best, top, tie = l.lang, h, false
		case h == top && h >= 2:
			tie = true
			if l.lang == guessed {
				best, tie = l.lang, false
			}
		}
	}
	if tie && best != guessed {
		return ""
	}
	return best
}

// ownFunctionWords are, for the Latin-script languages whose short sentences Detect most
// often took for English (docs/languages.md), frequent function words of each that are
// not English words, lowercased: not "per", "die", "am", "do", "till", "men", "met",
// "van", which English text without a function word of its own (a price list, a
// headline) holds. The order is fixed, so that ownWords is deterministic.
var ownFunctionWords = [...]struct {
	lang  string
	words map[string]bool
}{
	{"de", set("der das und ist nicht mit den dem des ein eine einen einer eines auf sich für von zu im auch wird wurde werden hat haben sind bei nach aus wie oder über zum zur noch nur vor sie er wir ich zwei drei sein seine ihre")},
	{"fr", set("de en le la les des une est et du au aux dans pour pas qui sur avec par sont été il elle ils ce cette ses son leur plus mais ou où deux trois être avait")},
	{"es", set("de en el los las del una y por para es se su sus lo como más pero fue ha muy también sobre entre desde este esta dos tres ser")},
	{"it", set("il gli della dei delle di che è con una sono del alla nel nella anche più da ha lo si ma questo questa due tre essere")},
	{"pt", set("de o os da das dos uma não com para em que se por ao na mais foi é seu sua são também dois três ser")},
	{"sv", set("och att det som är av för med på har inte ett de jag vi från två tre vara")},
	{"nl", set("de het een en niet zijn voor aan dat te ook maar om bij naar uit twee drie")},
	{"id", set("yang di ini itu dengan untuk dari tidak akan dalam pada ke juga oleh sebagai telah karena dua tiga")},
}

// set returns the set of the words of s, separated by spaces.
func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// minConfidence is the whatlanggo confidence below which a Latin-script text stays
// English (docs/languages.md: the share of English sentences kept against the share of
// foreign ones caught).
const minConfidence = 0.8

// accented reports whether the Latin letters of s, counted in c, include at least 2 that
// are not ASCII, and 3% of them: letters that English does not write but most other
// Latin-script languages do (ä, é, ñ, ş, ł, å, …), so that a short text with them is not
// English even when the trigrams are unsure which language it is.
func accented(s string, c *Counts) bool {
	n := 0
	for _, r := range s {
		if r >= utf8.RuneSelf && ScriptOf(r) == Latin {
			n++
		}
	}
	return n >= 2 && n*100 >= 3*c[Latin]
}

// SureEnglish reports whether text reads surely as English by its first WordBytes: the
// first step of Detect for Latin-script text (English function words, ASCII letters).
func SureEnglish(text string) bool {
	s := head(text, WordBytes)
	c := Count(s)
	sure, _ := english(s, &c)
	return sure
}

// EnglishWords returns the number of English function words (the, and, that, with, …)
// among the first 100 words of the first WordBytes of text.
func EnglishWords(text string) int {
	_, hits := words(head(text, WordBytes), 0)
	return hits
}

// NonASCIILetters returns the number of Latin letters of text outside ASCII (ä, é, ñ, …).
func NonASCIILetters(text string) int {
	n := 0
	for _, r := range text {
		if r >= utf8.RuneSelf && ScriptOf(r) == Latin {
			n++
		}
	}
	return n
}

// Guess returns the language the trigrams rank first for the first WordBytes of text,
// among Languages, and their confidence (0 to 1), without Detect's defaults: "" when they
// give none.
func Guess(text string) (string, float64) {
	return guess(head(text, WordBytes))
}

// owned are the scripts that one language owns.
var owned = map[Script]string{Hangul: "ko", Thai: "th", Greek: "el", Hebrew: "he"}

// english reads s, whose letters are counted in c, for signs of English. It reports sure
// when s is mostly Latin letters, nearly all ASCII, and at least 2 of its first 100 words,
// and 12% of them, are English function words; likely when all its letters are ASCII and
// one of its words is one (a headline: "Owl terrorizes neighborhood joggers, swooping down
// at their head").
func english(s string, c *Counts) (sure, likely bool) { return readEnglish(s, c, sureHits) }

// readEnglish is english, reading words until enough of them are function words (all of
// the first 100 when enough is 0).
func readEnglish(s string, c *Counts, enough int) (sure, likely bool) {
	all := 0
	for _, n := range c[Latin:] {
		all += n
	}
	ascii := 0
	for i := 0; i < len(s); i++ {
		ascii += int(letters[s[i]])
	}
	if ascii*50 < all*49 { // more than 2% of the letters are not ASCII
		return false, false
	}
	words, hits := words(s, enough)
	return hits >= 2 && hits*readWords >= words*sureHits, hits >= 1 && ascii == all
}

// readWords is the number of words english reads at most, and sureHits the number of
// function words from which it is sure whatever the words after them: 12% of readWords.
const (
	readWords = 100
	sureHits  = readWords * 12 / 100
)

// russian reports whether the Cyrillic text s has a letter that of the languages written
// in Cyrillic only Russian and Belarusian use (ы, э, ё) and none that Russian lacks
// (Ukrainian і ї є ґ, Belarusian ў, Serbian and Macedonian ђ ј љ њ ћ џ ѓ ќ ѕ): the
// trigrams take a fifth of short Russian sentences for Bulgarian, Serbian or Ukrainian.
func russian(s string) bool {
	own := false
	for _, r := range s {
		switch unicode.ToLower(r) {
		case 'ы', 'э', 'ё':
			own = true
		case 'і', 'ї', 'є', 'ґ', 'ў', 'ђ', 'ј', 'љ', 'њ', 'ћ', 'џ', 'ѓ', 'ќ', 'ѕ':
			return false
		}
	}
	return own
}

// words returns the number of words (runs of ASCII letters and apostrophes) among the
// first 100 of s, and how many of them are English function words; it stops early, after
// the word that brings the function words to enough (when enough > 0).
func words(s string, enough int) (n, hits int) {
	for i := 0; i < len(s) && n < readWords && (enough <= 0 || hits < enough); {
		if !asciiLetter(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && (asciiLetter(s[j]) || s[j] == '\'') {
			j++
		}
		n++
		if functionWord(s[i:j]) {
			hits++
		}
		i = j
	}
	return n, hits
}

func asciiLetter(b byte) bool { return letters[b] == 1 }

// letters[b] is 1 for the ASCII letters, 0 for any other byte.
var letters = func() (t [256]uint8) {
	for b := 'a'; b <= 'z'; b++ {
		t[b], t[b-'a'+'A'] = 1, 1
	}
	return t
}()

// functionWord reports whether w (ASCII letters and apostrophes) is one of the English
// function words that other Latin-script languages do not use often (not "a", "in", "to",
// "was", "is", "of", "had", "an", "by", …: Spanish, Italian, Polish, German and Dutch have
// them).
func functionWord(w string) bool {
	if len(w) < 2 || len(w) > 5 {
		return false
	}
	var b [5]byte
	for i := 0; i < len(w); i++ {
		b[i] = w[i] | 0x20
	}
	switch string(b[:len(w)]) {
	case "the", "and", "that", "with", "this", "are", "from", "have", "not",
		"but", "which", "would", "been", "were", "they", "their", "there", "his", "she",
		"you", "what", "when", "who", "it", "its", "it's", "has", "for", "after", "about":
		return true
	}
	return false
}

// ISO6391 returns the ISO 639-1 code of a language given by its ISO 639-3 code, or by
// its ISO 639-2/B code where that differs ("eng" → "en", "deu" and "ger" → "de", "cmn" →
// "zh"), for the languages qsc treats apart: Languages and the languages of package
// analyzers' stop lists. Any other code, a 639-1 code included, is returned as it is.
// The code must be lower-case. It does not allocate.
func ISO6391(code string) string {
	if c, ok := iso6393[code]; ok {
		return c
	}
	return code
}

// iso6393 maps the ISO 639-3 and 639-2/B codes of ISO6391 to the 639-1 codes.
var iso6393 = map[string]string{
	"afr": "af", "ara": "ar", "arb": "ar", "aze": "az", "azj": "az", "bel": "be", "bul": "bg",
	"ben": "bn", "ces": "cs", "cze": "cs", "dan": "da", "deu": "de", "ger": "de", "ell": "el",
	"gre": "el", "eng": "en", "spa": "es", "est": "et", "ekk": "et", "fas": "fa", "per": "fa",
	"pes": "fa", "fin": "fi", "fra": "fr", "fre": "fr", "guj": "gu", "heb": "he", "hin": "hi",
	"hrv": "hr", "hun": "hu", "ind": "id", "ita": "it", "jpn": "ja", "kat": "ka", "geo": "ka",
	"khm": "km", "kan": "kn", "kor": "ko", "lit": "lt", "lav": "lv", "lvs": "lv", "mkd": "mk",
	"mac": "mk", "mal": "ml", "mar": "mr", "mya": "my", "bur": "my", "nob": "nb", "nep": "ne",
	"npi": "ne", "nld": "nl", "dut": "nl", "pan": "pa", "pol": "pl", "por": "pt", "ron": "ro",
	"rum": "ro", "rus": "ru", "sin": "si", "slk": "sk", "slo": "sk", "slv": "sl", "som": "so",
	"srp": "sr", "swe": "sv", "tam": "ta", "tel": "te", "tha": "th", "tgl": "tl", "tur": "tr",
	"ukr": "uk", "urd": "ur", "uzb": "uz", "uzn": "uz", "vie": "vi", "zho": "zh", "chi": "zh",
	"cmn": "zh",
	// the stop lists' languages that are not in Languages
	"cat": "ca", "eus": "eu", "baq": "eu", "gle": "ga", "glg": "gl", "hye": "hy", "arm": "hy",
	"nor": "no",
}

// Languages are the languages the trigrams choose among: those of whatlanggo with an ISO
// 639-1 code, less the ones that, on the parallel sentences of docs/languages.md, took
// more sentences from a larger neighbour than they found of their own (Nynorsk from
// Swedish, Bihari from Hindi, Javanese from Indonesian, …).
var Languages = []string{
	"af", "ar", "az", "be", "bg", "bn", "cs", "da", "de", "el", "en", "es", "et", "fa", "fi",
	"fr", "gu", "he", "hi", "hr", "hu", "id", "it", "ja", "ka", "km", "kn", "ko", "lt", "lv",
	"mk", "ml", "mr", "my", "nb", "ne", "nl", "pa", "pl", "pt", "ro", "ru", "si", "sk", "sl",
	"so", "sr", "sv", "ta", "te", "th", "tl", "tr", "uk", "ur", "uz", "vi", "zh",
}
