package langid

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/abadojack/whatlanggo"
)

// whatlanggoTables returns the map of whatlanggo's languages to ISO 639-1 codes, and the
// options that whitelist Languages: how Detect called whatlanggo before guess.
var whatlanggoTables = sync.OnceValues(func() (map[whatlanggo.Lang]string, whatlanggo.Options) {
	m := map[whatlanggo.Lang]string{}
	wl := map[whatlanggo.Lang]bool{}
	keep := map[string]bool{}
	for _, l := range Languages {
		keep[l] = true
	}
	for l := range whatlanggo.Langs {
		code := l.Iso6391()
		if l == whatlanggo.Pes {
			code = "fa" // whatlanggo gives Persian no ISO 639-1 code
		}
		if keep[code] {
			m[l] = code
			wl[l] = true
		}
	}
	return m, whatlanggo.Options{Whitelist: wl}
})

// whatlanggoGuess returns whatlanggo's language and confidence for text.
func whatlanggoGuess(text string) (string, float64) {
	codes, options := whatlanggoTables()
	info := whatlanggo.DetectWithOptions(text, options)
	return codes[info.Lang], info.Confidence
}

// sameAsWhatlanggo reports where guess and whatlanggo differ on text: the confidence
// always, the language unless the confidence is 0 (a tie, which whatlanggo breaks at
// random).
func sameAsWhatlanggo(t *testing.T, text string) bool {
	t.Helper()
	lang, conf := guess(text)
	wlang, wconf := whatlanggoGuess(text)
	if conf != wconf || lang != wlang && conf != 0 {
		t.Errorf("guess(%q) = %s %v, whatlanggo %s %v", text, lang, conf, wlang, wconf)
		return false
	}
	return true
}

// guessTexts returns texts of every script of the fixtures: each fixture whole, each of
// its lines, its first WordBytes and their first words; the English out-of-domain
// sentences; the news story; and any file in QSC_GUESS_DIR, line by line.
func guessTexts(t *testing.T) []string {
	var texts []string
	add := func(s string) {
		texts = append(texts, s, head(s, WordBytes))
		words := strings.Fields(s)
		for _, n := range []int{1, 2, 3, 5, 8} {
			if n < len(words) {
				texts = append(texts, strings.Join(words[:n], " "))
			}
		}
	}
	files, _ := filepath.Glob("../../../testdata/languages/*.txt")
	files = append(files, "../../../testdata/news.txt", "../../lab/ood/data/ewt-snippets.conllu")
	if dir := os.Getenv("QSC_GUESS_DIR"); dir != "" {
		more, _ := filepath.Glob(filepath.Join(dir, "*"))
		files = append(files, more...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add(string(b))
		for line := range strings.SplitSeq(string(b), "\n") {
			if text, ok := strings.CutPrefix(line, "# text = "); ok {
				line = text
			} else if strings.HasPrefix(line, "#") || strings.Contains(line, "\t") {
				continue
			}
			add(line)
		}
	}
	return append(texts, "", " ", "12 34", "a", "ab", "abc", "Ёж", "\xff\xfe", "ぁ漢字", "漢字", "a\u0301bc", "ÀÉÎ õü")
}

// TestGuessSameAsWhatlanggo checks that guess gives whatlanggo's answers.
func TestGuessSameAsWhatlanggo(t *testing.T) {
	texts := guessTexts(t)
	bad := 0
	for _, s := range texts {
		if !sameAsWhatlanggo(t, s) {
			bad++
		}
		if bad > 20 {
			t.Fatal("too many differences")
		}
	}
	t.Logf("%d texts", len(texts))
}

// TestProfilesUpToDate checks that profiles.go holds the profiles of the whatlanggo that
// go.mod requires, for the languages of Languages.
func TestProfilesUpToDate(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	for _, m := range info.Deps {
		if m.Path == "github.com/abadojack/whatlanggo" && m.Version != whatlanggoVersion {
			t.Errorf("profiles.go is of whatlanggo %s, go.mod requires %s: run go generate", whatlanggoVersion, m.Version)
		}
	}
	codes, _ := whatlanggoTables()
	have := map[string]bool{}
	for _, p := range profiles {
		have[p.code] = true
	}
	for l, code := range codes {
		single := false
		for _, s := range wlScripts {
			single = single || s.code == code
		}
		if !have[code] && !single && l != whatlanggo.Cmn {
			t.Errorf("%s (%s) has no profile in profiles.go; run go generate", code, l)
		}
	}
}

// FuzzGuess checks that guess gives whatlanggo's answers on any text.
func FuzzGuess(f *testing.F) {
	for _, s := range []string{"", "the and of", "Die Regierung will die Steuern", "政府は", "\xff\xfe", "Ёж и ёж", "ب", "a\u0301", "ÀÉÎ õü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameAsWhatlanggo(t, s)
	})
}

// TestLangScript checks the script of a language, from its profile or from the script
// that decides it alone.
func TestLangScript(t *testing.T) {
	for code, want := range map[string]Script{"en": Latin, "tr": Latin, "ru": Cyrillic, "uk": Cyrillic,
		"ar": Arabic, "fa": Arabic, "he": Hebrew, "hi": Devanagari, "el": Greek, "ko": Hangul,
		"ja": Kana, "zh": Han, "th": Thai, "bn": Other, "xx": None} {
		if got := LangScript(code); got != want {
			t.Errorf("LangScript(%q) = %v, want %v", code, got, want)
		}
	}
}
