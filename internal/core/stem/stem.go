// Package stem reduces English words to a key shared by their inflections, so that a
// query term matches "arrest", "arrests", "arrested" and "Arresting" alike.
//
// Key is the inflectional part of the Porter2 (Snowball English) stemmer: its steps 0, 1a,
// 1b, 1c and 5 (possessives, plural and third-person -s, -ed and -ing, final y and e),
// plus tables of irregular plurals (children → child, men → man, …) and irregular verb
// forms (went → go, brought → bring, …). The
// derivational steps 2–4 are left out on purpose: they conflate words that a reader does
// not take for the same term ("organ" and "organization", "universe" and "university",
// "general" and "generous" … in full Porter2 share a stem), which in a highlighted
// snippet looks like a false hit.
//
// Key lower-cases any word; only words of ASCII letters (with inner hyphens or apostrophes)
// are stemmed, others are returned lower-cased. It never panics and allocates only when
// the key differs from the input.
//
// The first-rune rule. A key begins with the folded first rune of its word (Fold), with two
// exceptions: leading apostrophes are dropped ('tis → tis), and an irregular form takes the
// key of its infinitive or singular, which may begin with another letter (went → go, ate →
// eat). IrregularForms lists the words of the second kind for a key, so that a caller that
// skips words by their first rune (the snippet matcher) can admit them too.
package stem

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// irregular maps irregular plurals to their singular and irregular verb forms to their
// infinitive, which is then stemmed as usual.
var irregular = map[string]string{
	"children": "child", "men": "man", "women": "woman", "feet": "foot", "teeth": "tooth",
	"geese": "goose", "mice": "mouse", "lice": "louse", "oxen": "ox", "people": "person",
	"wives": "wife", "knives": "knife", "lives": "life", "leaves": "leaf", "wolves": "wolf",
	"halves": "half", "selves": "self", "shelves": "shelf", "thieves": "thief",
	// Irregular verbs, leaving out forms that are also common nouns, adjectives or names
	// (saw, left, felt, rose, fell, lay, found, ground, wound, spoke, lead, bore, born, lit,
	// thought, stuck, drew, fed, met).
	// Forms of "be" are left out too ("IS", "AM" are also names).
	"has": "have", "had": "have", "having": "have", "does": "do", "did": "do", "done": "do",
	"went": "go", "gone": "go", "goes": "go", "said": "say", "says": "say", "made": "make",
	"took": "take", "taken": "take", "came": "come", "ran": "run", "seen": "see", "brought": "bring",
	"bought": "buy", "told": "tell", "gave": "give", "given": "give",
	"got": "get", "gotten": "get", "knew": "know", "known": "know", "kept": "keep",
	"held": "hold", "stood": "stand", "wrote": "write", "written": "write", "spoken": "speak",
	"began": "begin", "begun": "begin", "fallen": "fall", "flew": "fly", "flown": "fly",
	"caught": "catch", "taught": "teach", "sold": "sell", "paid": "pay",
	"sent": "send", "built": "build", "lost": "lose", "won": "win", "led": "lead",
	"struck": "strike", "drove": "drive", "driven": "drive", "ate": "eat", "eaten": "eat",
	"chose": "choose", "chosen": "choose", "broke": "break", "broken": "break",
	"forgot": "forget", "forgotten": "forget", "sought": "seek", "fought": "fight",
	"hid": "hide", "hidden": "hide", "shot": "shoot", "risen": "rise", "grew": "grow",
	"grown": "grow", "threw": "throw", "thrown": "throw", "drawn": "draw",
	"wore": "wear", "worn": "wear", "stole": "steal", "stolen": "steal", "froze": "freeze",
	"frozen": "freeze", "sang": "sing", "sung": "sing", "drank": "drink", "swam": "swim",
	"fled": "flee", "slept": "sleep", "meant": "mean", "dealt": "deal",
	"spent": "spend", "heard": "hear", "understood": "understand", "became": "become",
	"forgave": "forgive", "forgiven": "forgive", "rode": "ride", "ridden": "ride",
	"shook": "shake", "shaken": "shake", "woke": "wake", "woken": "wake", "sprang": "spring",
	"sprung": "spring", "swore": "swear", "sworn": "swear", "withdrew": "withdraw",
	"withdrawn": "withdraw", "overtook": "overtake", "overtaken": "overtake",
	"undertook": "undertake", "undertaken": "undertake", "arose": "arise", "arisen": "arise",
	"bitten": "bite", "beaten": "beat", "hung": "hang", "dug": "dig",
	"spun": "spin", "wept": "weep", "swept": "sweep",
	"crept": "creep", "sped": "speed", "bled": "bleed", "bred": "breed", "slid": "slide",
	"clung": "cling", "flung": "fling", "stung": "sting", "swung": "swing", "wrung": "wring",
	"sank": "sink", "sunk": "sink", "shrank": "shrink", "shrunk": "shrink",
	"forbade": "forbid", "forbidden": "forbid", "mistook": "mistake",
	"mistaken": "mistake", "foresaw": "foresee", "foreseen": "foresee", "oversaw": "oversee",
	"overseen": "oversee", "undergone": "undergo", "underwent": "undergo",
}

// irregularByKey maps a key to the irregular forms that have it (go → went, gone, goes).
var irregularByKey = func() map[string][]string {
	m := map[string][]string{}
	for form := range irregular {
		k := Key(form)
		m[k] = append(m[k], form)
	}
	for _, forms := range m {
		slices.Sort(forms)
	}
	return m
}()

// exceptions maps a key to the irregular and exceptional forms (Porter2's, such as dying
// → die) that have it and that do not contain the key less its last letter.
var exceptions = func() map[string][]string {
	m := map[string][]string{}
	add := func(form string) {
		k := Key(form)
		if !strings.Contains(form, trimAnchor(k)) && !slices.Contains(m[k], form) {
			m[k] = append(m[k], form)
		}
	}
	for form := range irregular {
		add(form)
	}
	for form := range special {
		add(form)
	}
	for _, forms := range m {
		slices.Sort(forms)
	}
	return m
}()

// trimAnchor returns key less its last letter when that is an e or an i, which a word of
// the key may not have there (hoping → hope, happy → happi).
func trimAnchor(key string) string {
	if n := len(key); n >= 2 && (key[n-1] == 'e' || key[n-1] == 'i') {
		return key[:n-1]
	}
	return key
}

// Anchors returns strings of which every word whose key is key holds one, in lower case
// with typographic apostrophes as ' (strings.Map(Fold, word)): the key itself, less its
// last letter when that is an e or an i, and the irregular and exceptional forms that do
// not hold that (went, gone, goes for go; dying for die). The stemming steps only take
// letters off a word's end, drop leading apostrophes, add an e after a stem (hoping →
// hope) and write a final y as i (happy → happi), so the rest of a key is always in its
// words; TestAnchors checks it on a million words. A caller that scans text for a key's
// words (the snippet prefilter) looks for its anchors. The slice is new.
func Anchors(key string) []string {
	return append([]string{trimAnchor(key)}, exceptions[key]...)
}

// IrregularForms returns the irregular forms whose key is key, sorted (for "go": gone,
// goes, went; for "eat": ate, eaten), or nil. They are the only words whose key may begin
// with another letter than the word (see Key). The slice must not be modified.
func IrregularForms(key string) []string { return irregularByKey[key] }

// special are Porter2's exceptional forms (those of the inflectional steps).
var special = map[string]string{
	"skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
	"news": "news", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
	"inning": "inning", "innings": "inning", "outing": "outing", "outings": "outing",
	"canning": "canning", "cannings": "canning", "herring": "herring", "herrings": "herring",
	"earring": "earring", "earrings": "earring", "proceed": "proceed", "proceeds": "proceed",
	"proceeded": "proceed", "proceeding": "proceed", "exceed": "exceed", "exceeds": "exceed",
	"exceeded": "exceed", "exceeding": "exceed", "succeed": "succeed", "succeeds": "succeed",
	"succeeded": "succeed", "succeeding": "succeed",
}

// Key returns the matching key of word: its lower-case form, stemmed when it is an English
// word. Two words with the same key are taken for inflections of one term.
func Key(word string) string {
	var buf [keyBytes]byte
	w := lower(buf[:0], word)
	if s, ok := irregular[string(w)]; ok {
		w = append(w[:0], s...)
	}
	if len(w) <= 2 || !stemmable(w) {
		return keyOf(word, w)
	}
	if s, ok := special[string(w)]; ok {
		return s
	}
	b := w
	// Preprocess: drop leading apostrophes, mark consonant y as Y.
	for len(b) > 0 && b[0] == '\'' {
		b = b[1:]
	}
	for i, c := range b {
		if c == 'y' && (i == 0 || isVowel(b[i-1])) {
			b[i] = 'Y'
		}
	}
	r1, r2 := regions(b)
	b = step0(b)
	b = step1a(b)
	b, r1, r2 = step1b(b, r1, r2)
	b = step1c(b)
	b = step5(b, r1, r2)
	for i, c := range b {
		if c == 'Y' {
			b[i] = 'y'
		}
	}
	return keyOf(word, b)
}

// keyBytes is the length of the words whose key Key computes in memory of its stack; a
// longer word takes memory of the heap.
const keyBytes = 32

// keyOf returns key, computed from word, as a string: the start of word when it is, so
// that the key of a word in lower case that stemming leaves whole or cuts allocates
// nothing.
func keyOf(word string, key []byte) string {
	if len(key) <= len(word) && string(key) == word[:len(key)] {
		return word[:len(key)]
	}
	return string(key)
}

// lower appends to dst the lower case of s (each rune folded: Fold).
func lower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			for _, r := range s[i:] {
				dst = utf8.AppendRune(dst, Fold(r))
			}
			return dst
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// Fold lower-cases r and spells typographic apostrophes (’ ‘ ‛) as '. A key begins with
// the folded first rune of its word, unless that rune is an apostrophe (leading
// apostrophes are dropped), so callers can skip words that cannot match cheaply.
func Fold(r rune) rune {
	switch r {
	case '\u2019', '\u2018', '\u201B':
		return '\''
	}
	return unicode.ToLower(r)
}

// stemmable reports whether w is made of ASCII letters, with hyphens or apostrophes inside.
func stemmable(w []byte) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case 'a' <= c && c <= 'z':
		case (c == '-' || c == '\'') && i > 0 && i < len(w)-1:
		default:
			return false
		}
	}
	return true
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

// regions returns the starts of Porter's R1 and R2.
func regions(b []byte) (r1, r2 int) {
	r1 = len(b)
	for _, p := range []string{"gener", "commun", "arsen"} {
		if len(b) >= len(p) && string(b[:len(p)]) == p {
			r1 = len(p)
			break
		}
	}
	if r1 == len(b) {
		r1 = vnv(b, 0)
	}
	return r1, vnv(b, r1)
}

// vnv returns the index after the first non-vowel that follows a vowel, from start on.
func vnv(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		if !isVowel(b[i]) && isVowel(b[i-1]) {
			return i + 1
		}
	}
	return len(b)
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// step0 removes the possessive endings ', 's and 's'.
func step0(b []byte) []byte {
	for _, s := range []string{"'s'", "'s", "'"} {
		if hasSuffix(b, s) {
			return b[:len(b)-len(s)]
		}
	}
	return b
}

// step1a handles plurals and the third-person -s.
func step1a(b []byte) []byte {
	switch {
	case hasSuffix(b, "sses"):
		return b[:len(b)-2]
	case hasSuffix(b, "ied"), hasSuffix(b, "ies"):
		if len(b) > 4 {
			return append(b[:len(b)-3], 'i')
		}
		return b[:len(b)-1]
	case hasSuffix(b, "us"), hasSuffix(b, "ss"):
		return b
	case hasSuffix(b, "s"):
		// Delete when the part before the s has a vowel that is not right before it.
		for i := 0; i < len(b)-2; i++ {
			if isVowel(b[i]) {
				return b[:len(b)-1]
			}
		}
	}
	return b
}

// step1b handles -ed, -ing (and -edly, -ingly, -eed).
func step1b(b []byte, r1, r2 int) ([]byte, int, int) {
	var suf string
	for _, s := range []string{"eedly", "ingly", "edly", "eed", "ing", "ed"} {
		if hasSuffix(b, s) {
			suf = s
			break
		}
	}
	switch suf {
	case "":
		return b, r1, r2
	case "eed", "eedly":
		if len(b)-len(suf) >= r1 {
			b = append(b[:len(b)-len(suf)], 'e', 'e')
		}
		return b, min(r1, len(b)), min(r2, len(b))
	}
	stem := b[:len(b)-len(suf)]
	vowel := false
	for _, c := range stem {
		if isVowel(c) {
			vowel = true
			break
		}
	}
	if !vowel {
		return b, r1, r2
	}
	b = stem
	switch {
	case hasSuffix(b, "at"), hasSuffix(b, "bl"), hasSuffix(b, "iz"):
		b = append(b, 'e')
	case hasDouble(b) && len(b) > 3: // not "add" (added): a departure from Porter2
		b = b[:len(b)-1]
	case isShortWord(b, r1):
		b = append(b, 'e')
		return b, len(b), len(b)
	}
	return b, min(r1, len(b)), min(r2, len(b))
}

func hasDouble(b []byte) bool {
	for _, s := range []string{"bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"} {
		if hasSuffix(b, s) {
			return true
		}
	}
	return false
}

// endsShortSyllable reports whether b[:n] ends in a short syllable: a non-vowel, a vowel
// and a non-vowel other than w, x or Y, or a word of a vowel and a non-vowel.
func endsShortSyllable(b []byte, n int) bool {
	switch {
	case n == 2:
		return isVowel(b[0]) && !isVowel(b[1])
	case n >= 3:
		c := b[n-1]
		return !isVowel(b[n-3]) && isVowel(b[n-2]) && !isVowel(c) && c != 'w' && c != 'x' && c != 'Y'
	}
	return false
}

// isShortWord reports whether b ends in a short syllable and R1 is empty.
func isShortWord(b []byte, r1 int) bool {
	return r1 >= len(b) && endsShortSyllable(b, len(b))
}

// step1c turns a final y after a non-vowel (not the first letter) into i.
func step1c(b []byte) []byte {
	n := len(b)
	if n > 2 && (b[n-1] == 'y' || b[n-1] == 'Y') && !isVowel(b[n-2]) {
		b[n-1] = 'i'
	}
	return b
}

// step5 deletes a final e in R2 (or in R1 after no short syllable) and a double l in R2.
func step5(b []byte, r1, r2 int) []byte {
	last := len(b) - 1
	if last < 0 || r1 > last {
		return b
	}
	switch {
	case b[last] == 'e' && (r2 <= last || !endsShortSyllable(b, last)):
		return b[:last]
	case b[last] == 'l' && r2 <= last && last > 0 && b[last-1] == 'l':
		return b[:last]
	}
	return b
}
