package langid

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

//go:generate go run ./genprofiles

// This file ranks languages by trigrams as whatlanggo (github.com/abadojack/whatlanggo,
// the version of profiles.go) does, with the same answers, in a twentieth of its time or
// less (docs/languages.md, "The trigrams, fast"):
//
//   - whatlanggo counts a text's trigrams in a map of strings, ranks them, and then looks
//     up each of the 300 trigrams of each language's profile in that map (8,400 lookups
//     for the 28 Latin-script languages of Languages);
//   - guess packs a trigram's three runes in a uint64, counts them by sorting, and looks up
//     each of the text's distinct trigrams once in an index of the profiles' trigrams,
//     which says where each comes in which profile.
//
// A language's distance is the sum, over its profile's trigrams, of the difference of
// their rank in the profile and in the text, or 300 when the text does not have them. It
// is thus 300 times the profile's length less, for each trigram the text and the profile
// share, 300 less the difference of their ranks: what the index adds up. whatlanggo breaks
// a tie of distances in the order of a map, at random; guess gives it to the first
// language of profiles (the order of whatlanggo's Lang constants). Its confidence is then
// 0, which Detect reads as unsure. TestGuessSameAsWhatlanggo compares the two.

// profile is one language's trigram profile (profiles.go).
type profile struct {
	code  string      // ISO 639-1
	list  profileList // the script whose languages it is ranked with
	grams string      // trigrams, most frequent first, separated by "|"
}

// profileList is a script that whatlanggo ranks languages of by trigrams.
type profileList uint8

// The profile lists, and noList for a script that decides alone or not at all.
const (
	latinList profileList = iota
	cyrillicList
	arabicList
	devanagariList
	ethiopicList
	hebrewList
	numLists
	noList
)

const (
	maxTrigramDistance = 300   // whatlanggo's distance of a trigram that the text lacks
	maxTotalDistance   = 90000 // whatlanggo's score of a distance is this less it
)

// wlScript is one of the scripts of whatlanggo's script detection, in its order.
type wlScript struct {
	table *unicode.RangeTable
	list  profileList
	code  string // the language the script decides alone, or ""
}

// wlScripts are whatlanggo's scripts, in the order its DetectScript checks them first.
var wlScripts = [...]wlScript{
	{unicode.Latin, latinList, ""},
	{unicode.Cyrillic, cyrillicList, ""},
	{unicode.Arabic, arabicList, ""},
	{unicode.Devanagari, devanagariList, ""},
	{hiraganaKatakana, noList, "ja"},
	{unicode.Ethiopic, ethiopicList, ""},
	{unicode.Hebrew, hebrewList, ""},
	{unicode.Bengali, noList, "bn"},
	{unicode.Georgian, noList, "ka"},
	{unicode.Han, noList, "zh"},
	{unicode.Hangul, noList, "ko"},
	{unicode.Greek, noList, "el"},
	{unicode.Kannada, noList, "kn"},
	{unicode.Tamil, noList, "ta"},
	{unicode.Thai, noList, "th"},
	{unicode.Gujarati, noList, "gu"},
	{unicode.Gurmukhi, noList, "pa"},
	{unicode.Telugu, noList, "te"},
	{unicode.Malayalam, noList, "ml"},
	{unicode.Oriya, noList, "or"},
	{unicode.Myanmar, noList, "my"},
	{unicode.Sinhala, noList, "si"},
	{unicode.Khmer, noList, "km"},
}

// LangScript returns the script a language is written in, as Detect names scripts: that
// of the language's trigram profile (for a language of two scripts, the first: Latin for
// az), or of the script that decides it alone (ko: Hangul, ja: Kana); None for a code
// whatlanggo's languages lack.
func LangScript(code string) Script {
	for _, w := range wlScripts {
		if w.code == code {
			if r16 := w.table.R16; len(r16) > 0 {
				return ScriptOf(rune(r16[0].Lo))
			}
			return ScriptOf(rune(w.table.R32[0].Lo))
		}
	}
	for _, p := range profiles {
		if p.code == code {
			return listScripts[p.list]
		}
	}
	return None
}

// listScripts are the scripts of the profile lists.
var listScripts = [numLists]Script{latinList: Latin, cyrillicList: Cyrillic, arabicList: Arabic,
	devanagariList: Devanagari, ethiopicList: Other, hebrewList: Hebrew}

const (
	wlLatin = 0 // index of Latin in wlScripts
	wlKana  = 4 // of Hiragana and Katakana
	wlHan   = 9 // of Han
)

// hiraganaKatakana is whatlanggo's table of Hiragana and Katakana, made as it makes it
// (its ranges are not sorted, which unicode.Is's binary search may notice).
var hiraganaKatakana = &unicode.RangeTable{
	R16: append(slices.Clip(unicode.Hiragana.R16), unicode.Katakana.R16...),
	R32: append(slices.Clip(unicode.Hiragana.R32), unicode.Katakana.R32...),
}

// stopChar reports whether whatlanggo ignores r: a symbol, space, punctuation or digit.
func stopChar(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiStop[r]
	}
	return unicode.IsSymbol(r) || unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsDigit(r)
}

// asciiStop[b] is stopChar(rune(b)) for ASCII.
var asciiStop = func() (t [utf8.RuneSelf]bool) {
	for b := range t {
		r := rune(b)
		t[b] = unicode.IsSymbol(r) || unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsDigit(r)
	}
	return t
}()

// wlScriptOf returns the index in wlScripts of the script of r, or -1.
func wlScriptOf(r rune) int {
	if r < utf8.RuneSelf {
		if letters[r] == 1 {
			return wlLatin
		}
		return -1
	}
	for i := range wlScripts {
		if unicode.Is(wlScripts[i].table, r) {
			return i
		}
	}
	return -1
}

// detectScript returns the index in wlScripts of the script that whatlanggo's
// DetectScript gives text, or -1 for none. It follows its rules to their ties: the first
// script with more letters than half text's bytes decides at once; otherwise the one with
// the most, where a script moves one place forward in the order each time it is seen and
// the first in that order wins a tie; Han is Japanese if kana, at its turn in that order,
// had more letters than the scripts before it.
func detectScript(text string) int {
	half := len(text) / 2
	var order [len(wlScripts)]int8
	var count [len(wlScripts)]int
	for i := range order {
		order[i] = int8(i)
	}
	pos := order // pos[s] is where script s is in order
	for _, r := range text {
		if stopChar(r) {
			continue
		}
		s := wlScriptOf(r)
		if s < 0 {
			continue
		}
		count[s]++
		if count[s] > half {
			return s
		}
		if p := pos[s]; p > 0 {
			t := order[p-1]
			order[p-1], order[p] = int8(s), t
			pos[s], pos[t] = p-1, p
		}
	}
	best, n, kana := -1, 0, 0
	for _, s := range order {
		if count[s] > n {
			best, n = int(s), count[s]
			if s == wlKana {
				kana = n
			}
		}
	}
	if best == wlHan && kana > 0 {
		return wlKana
	}
	return best
}

// posting is where a trigram comes in a profile.
type posting struct {
	profile uint16 // index in profiles
	rank    uint16 // 0 for the profile's most frequent trigram
}

// guessTables are the profiles of Languages, indexed.
type guessTables struct {
	index    [numLists]trigramIndex // by list, where each trigram's postings are
	postings []posting
	langs    [numLists][]uint16 // by list, its profiles
	base     [len(profiles)]int // a profile's distance to a text with none of its trigrams
	keep     map[string]bool    // Languages
}

// getGuessTables makes the tables on first use: about 1.5 ms and 0.2 MB.
var getGuessTables = sync.OnceValue(func() *guessTables {
	t := &guessTables{keep: map[string]bool{}}
	for _, l := range Languages {
		t.keep[l] = true
	}
	var byKey [numLists]map[uint64][]posting
	for i := range byKey {
		byKey[i] = map[uint64][]posting{}
	}
	for p, prof := range profiles {
		if !t.keep[prof.code] {
			continue
		}
		t.langs[prof.list] = append(t.langs[prof.list], uint16(p))
		grams := strings.Split(prof.grams, "|")
		t.base[p] = maxTrigramDistance * len(grams)
		for rank, g := range grams {
			if k, ok := trigramKey(g); ok {
				byKey[prof.list][k] = append(byKey[prof.list][k], posting{uint16(p), uint16(rank)})
			}
		}
	}
	for i, m := range byKey {
		t.index[i] = newTrigramIndex(len(m))
		for k, ps := range m {
			t.index[i].add(k, uint32(len(t.postings))<<8|uint32(len(ps))) // fewer than 256 profiles
			t.postings = append(t.postings, ps...)
		}
	}
	return t
})

// trigramIndex maps trigrams to where their postings are (postings[v>>8:][:v&0xff]): an
// open-addressed hash table, at most half full, a few times as fast as a Go map here.
type trigramIndex struct {
	keys  []uint64 // 0 for an empty slot: no profile's trigram is 0 (a text's, NUL NUL NUL, finds none)
	vals  []uint32
	shift uint
}

// newTrigramIndex returns an index for n trigrams.
func newTrigramIndex(n int) trigramIndex {
	size, shift := 1, uint(64)
	for size < 2*n {
		size, shift = size*2, shift-1
	}
	return trigramIndex{keys: make([]uint64, size), vals: make([]uint32, size), shift: shift}
}

func (x *trigramIndex) slot(k uint64) int {
	return int((k * 0x9e3779b97f4a7c15) >> x.shift)
}

// add maps k, which is not in x and not 0, to v.
func (x *trigramIndex) add(k uint64, v uint32) {
	i := x.slot(k)
	for x.keys[i] != 0 {
		i = (i + 1) & (len(x.keys) - 1)
	}
	x.keys[i], x.vals[i] = k, v
}

// get returns what k maps to, and whether it is there.
func (x *trigramIndex) get(k uint64) (uint32, bool) {
	if len(x.keys) == 0 {
		return 0, false
	}
	for i := x.slot(k); ; i = (i + 1) & (len(x.keys) - 1) {
		switch x.keys[i] {
		case k:
			return x.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// trigramKey packs a string of three runes in a uint64, in an order that is that of the
// strings; ok is false for any other string, which no text's trigram equals.
func trigramKey(g string) (k uint64, ok bool) {
	n := 0
	for _, r := range g {
		k = k<<21 | uint64(r)
		n++
	}
	return k, n == 3 && utf8.ValidString(g)
}

// guess returns the language whatlanggo's DetectWithOptions gives text, with Languages as
// its whitelist, by ISO 639-1 code ("" where it gives none or one outside Languages), and
// its confidence.
func guess(text string) (string, float64) {
	s := detectScript(text)
	if s < 0 {
		return "", 0
	}
	ws := wlScripts[s]
	t := getGuessTables()
	if ws.list == noList {
		if t.keep[ws.code] {
			return ws.code, 1
		}
		return "", 1
	}
	langs := t.langs[ws.list]
	switch len(langs) {
	case 0:
		return "", 0
	case 1:
		return profiles[langs[0]].code, 1
	}
	var buf [WordBytes + 1]uint64
	keys := trigrams(text, buf[:0])
	slices.Sort(keys)
	// The distinct trigrams and their counts, then their ranks: by count, most first, and
	// a tie by the trigram, last first.
	var distinctBuf [WordBytes + 1]uint64
	var countsBuf, nextBuf [WordBytes + 2]int
	distinct, counts, next := distinctBuf[:], countsBuf[:], nextBuf[:] // next[c]: the next rank for a count of c
	if len(keys) > WordBytes {                                         // a text longer than Detect reads
		distinct, counts, next = make([]uint64, len(keys)), make([]int, len(keys)), make([]int, len(keys)+1)
	}
	n := 0
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		distinct[n], counts[n] = keys[i], j-i
		n++
		i = j
	}
	maxCount := 0
	for i := range n { // first the number of trigrams with each count
		next[counts[i]]++
		maxCount = max(maxCount, counts[i])
	}
	r := 0
	for c := maxCount; c >= 1; c-- {
		next[c], r = r, r+next[c]
	}
	var gain [len(profiles)]int
	index := &t.index[ws.list]
	for i := n - 1; i >= 0; i-- {
		rank := next[counts[i]]
		next[counts[i]]++
		v, ok := index.get(distinct[i])
		if !ok {
			continue
		}
		for _, p := range t.postings[v>>8:][:v&0xff] {
			d := rank - int(p.rank)
			if d < 0 {
				d = -d
			}
			gain[p.profile] += maxTrigramDistance - d
		}
	}
	// The two least distances, the first of profiles winning a tie.
	first, second := -1, -1
	for _, p := range langs {
		d := t.base[p] - gain[p]
		switch {
		case first < 0 || d < t.base[first]-gain[first]:
			first, second = int(p), first
		case second < 0 || d < t.base[second]-gain[second]:
			second = int(p)
		}
	}
	score1 := maxTotalDistance - (t.base[first] - gain[first])
	score2 := maxTotalDistance - (t.base[second] - gain[second])
	code := profiles[first].code
	switch {
	case score1 == 0:
		return "", 0
	case score2 == 0:
		return code, min(float64(score1/500), 1) // an integer division, as whatlanggo's
	}
	rate := float64(score1-score2) / float64(score2)
	confident := 12.0/float64(n) + 0.05
	if rate > confident {
		return code, 1
	}
	return code, rate / confident
}

// trigrams appends to keys the trigrams of text as whatlanggo counts them: its runes
// lower-cased, with symbols, spaces, punctuation and digits as spaces, a space before the
// first and after the last, and no trigram whose middle is a space next to another.
func trigrams(text string, keys []uint64) []uint64 {
	r1, r2, started := rune(' '), rune(0), false
	add := func(r3 rune) {
		if !(r2 == ' ' && (r1 == ' ' || r3 == ' ')) {
			keys = append(keys, uint64(r1)<<42|uint64(r2)<<21|uint64(r3))
		}
		r1, r2 = r2, r3
	}
	for _, r := range text {
		if stopChar(r) {
			r = ' '
		} else if r < utf8.RuneSelf {
			r |= 0x20 * rune(letters[r]) // lower-case an ASCII letter
		} else {
			r = unicode.ToLower(r)
		}
		if !started {
			r2, started = r, true
			continue
		}
		add(r)
	}
	if started {
		add(' ')
	}
	return keys
}
