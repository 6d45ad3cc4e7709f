// Package window chooses what a snippet shows of a sentence in a language without a
// compression model: the whole sentence when it fits the budget; otherwise one window of
// consecutive tokens around the query's hits, whose edges fall on clean boundaries.
//
// The edges. A window starts at a word, a character of a script written without spaces,
// or an opening quote or bracket, and ends at a word, a character, a closing quote or
// bracket, or the sentence's own final mark: never on a comma, a colon or a dash (no
// dangling comma), and never inside a word. Between two tokens a cut is allowed where
// white space or punctuation separates them, where the script changes (iPhone|発売), and
// between two characters of a script written without spaces (Han, kana, Thai), whose
// words cannot be told apart without a dictionary; it is not allowed between the
// syllables of a Hangul word (정부|는 is one word).
//
// With the language's stop words (Options.Stop: bleve's lists, package analyzers), a
// window never ends on one ("… pour les …"), unless the sentence does.
//
// The choice. Among the windows that fit, Choose takes the one that holds the most
// distinct query terms, then the best by fill and edges: the characters shown, plus a
// bonus B = max(6, budget/6) (in columns: max(12, budget/6)) for each edge at the start
// or end of the sentence or at a clause boundary (after , ; : 、，（ before it, before ,
// ; : 、， after it), B/2 for an end before a stop word (a phrase boundary, most often:
// "Unternehmen | im Jahr"); minus B/2 for a start right after a stop word ("les |
// petites"); minus B for an edge between two characters of one script without spaces
// and for one next to hiragana (税金|を, 引き|下げる), except after a particle (を は が の
// に で と も へ や) before kanji or katakana (政府は|水曜日: no minus); minus B/4 for an
// edge at another script change (ロイヤル|国立公園) or before a Thai leading vowel; and
// minus B/2 when a window that does not start the sentence starts on its first hit (a
// reader wants a word of lead-in). Each cut shows "…" (package display); the lengths
// counted include them.
//
// Cost: linear in the sentence's tokens for the lengths; then, for each start within the
// budget before a hit, a binary search over the ends, O(log n) length evaluations of O(1)
// each and a count of the hits inside; then a few displays measured exactly
// (Options.Fits).
package window

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/script"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// Hit is an occurrence of a query term: tokens [Start, End) of the sentence (0-based).
type Hit struct {
	Term       int
	Start, End int
}

// Options are the sentence and the budget of Choose.
type Options struct {
	// Doc is the text the tokens' offsets point into.
	Doc string
	// Toks are the sentence's tokens (package segment), ascending.
	Toks []syntax.Token
	// Hits are the occurrences of the query terms in Toks.
	Hits []Hit
	// Budget is the most characters (or columns) the display may take.
	Budget int
	// Columns counts East Asian wide characters as two columns (display.Columns).
	Columns bool
	// Plain counts the window's words alone, as a token budget does: no "…" marks.
	Plain bool
	// Stop reports whether a token's form is a stop word of the sentence's language (an
	// article, a preposition, …), or is nil. A window does not end on one, unless the
	// sentence does, and a start right after one is worse than a start on it.
	Stop func(form string) bool
	// Negation reports whether a token's form negates its clause's verb from after it
	// (German "nicht", "kein"; French "pas"), or is nil. A window that ends before one of
	// its clause loses B (the bonus): the verb it shows would read as affirmed.
	Negation func(form string) bool
	// Fits reports whether the tokens [lo, hi) fit the budget as displayed, exactly (the
	// caller's display measure); Choose's own count is an estimate that it checks with
	// Fits before it answers.
	Fits func(lo, hi int) bool
}

// Choose returns the window [lo, hi) of tokens to show, or ok false when no window with
// a hit fits the budget (a term alone is longer than the budget, or there is no hit).
func Choose(o Options) (lo, hi int, ok bool) {
	n := len(o.Toks)
	if n == 0 || len(o.Hits) == 0 {
		return 0, 0, false
	}
	c := newCounter(&o)
	if c.length(0, n) <= o.Budget && o.Fits(0, n) {
		return 0, n, true
	}
	type cand struct{ lo, hi, terms, score int }
	var cands []cand
	bonus := o.bonus()
	for lo := range c.starts() {
		ql := c.startQuality(lo)
		if ql == forbidden {
			continue
		}
		// The ends: the largest that fits, by binary search on the estimated length,
		// then the allowed ends before it that a bonus may prefer.
		a, b := lo+1, n // the longest fitting end is in [a-1, b]
		if c.length(lo, a) > o.Budget {
			continue
		}
		for a < b {
			m := (a + b + 1) / 2
			if c.length(lo, m) <= o.Budget {
				a = m
			} else {
				b = m - 1
			}
		}
		best, found := c.length(lo, a), false
		for hi := a; hi > lo; hi-- {
			l := c.length(lo, hi)
			if l+2*bonus < best && found {
				break // shorter ends lose more than a bonus gains; but take one that is allowed
			}
			qh := c.endQuality(hi)
			if qh == forbidden {
				continue
			}
			terms, first := c.terms(lo, hi)
			if terms == 0 {
				continue
			}
			score := l + (ql+qh)*bonus/4
			if lo > 0 && first == lo {
				score -= bonus / 2
			}
			if c.negAhead != nil && hi < n && c.negAhead[hi] {
				score -= bonus // "dürfen die Menschenrechte …" for "… nicht aushöhlen"
			}
			cands = append(cands, cand{lo, hi, terms, score})
			found = true
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int {
		if x.terms != y.terms {
			return y.terms - x.terms
		}
		return y.score - x.score
	})
	// The best window that fits and keeps its quotes and brackets paired; when none does,
	// the best that fits.
	partner := pairs(o.Toks)
	for _, paired := range []bool{true, false} {
		for i, k := range cands {
			if i == 8 { // the estimate is off; take the best that fits among the rest
				break
			}
			if (!paired || balanced(partner, k.lo, k.hi)) && o.Fits(k.lo, k.hi) {
				return k.lo, k.hi, true
			}
		}
		for _, k := range cands[min(8, len(cands)):] {
			if (!paired || balanced(partner, k.lo, k.hi)) && o.Fits(k.lo, k.hi) {
				return k.lo, k.hi, true
			}
		}
		if partner == nil {
			break // no pair: the first pass saw every window
		}
	}
	return 0, 0, false
}

// pairs returns, for each token of toks, the index of the other half of its pair of
// brackets or quotes as wellformed.Pairs pairs them, or −1; nil when the sentence has no
// pair.
func pairs(toks []syntax.Token) []int {
	var partner []int
	wellformed.Pairs(&syntax.Sentence{Tokens: toks}, func(o, c int) {
		if partner == nil {
			partner = make([]int, len(toks))
			for k := range partner {
				partner[k] = -1
			}
		}
		partner[o-1], partner[c-1] = c-1, o-1
	})
	return partner
}

// balanced reports whether the window [lo, hi) holds both halves of each pair it holds
// one half of.
func balanced(partner []int, lo, hi int) bool {
	if partner == nil {
		return true
	}
	for k := lo; k < hi; k++ {
		if p := partner[k]; p >= 0 && (p < lo || p >= hi) {
			return false
		}
	}
	return true
}

// Lead returns the end hi of the lead of the sentence, tokens [0, hi): the sentence
// itself when it fits, else its start cut cleanly to the budget, for a snippet of a
// document where no query term matched. The end obeys Choose's rules (never on a comma,
// an opening quote or a stop word, never inside a word) and takes the same bonuses, with
// no hit to hold; ok is false when no end fits (the first word alone is over the
// budget).
func Lead(o Options) (hi int, ok bool) {
	n := len(o.Toks)
	if n == 0 {
		return 0, false
	}
	c := newCounter(&o)
	if c.length(0, n) <= o.Budget && o.Fits(0, n) {
		return n, true
	}
	bonus := o.bonus()
	type cand struct{ hi, score int }
	var cands []cand
	for hi := n; hi > 0; hi-- {
		l := c.length(0, hi)
		if l > o.Budget {
			continue
		}
		if q := c.endQuality(hi); q != forbidden {
			cands = append(cands, cand{hi, l + q*bonus/4})
		}
		if len(cands) > 0 && l+2*bonus < cands[0].score {
			break // shorter ends cannot win
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int { return y.score - x.score })
	for _, k := range cands {
		if o.Fits(0, k.hi) {
			return k.hi, true
		}
	}
	return 0, false
}

// bonus returns B, the bonus of a clean edge: max(6, budget/6), in the budget's unit; a
// budget in columns counts a character of a script without spaces twice, and B's floor
// doubles with it, so that a cut inside a word weighs as much against the characters it
// saves.
func (o *Options) bonus() int {
	if o.Columns {
		return max(12, o.Budget/6)
	}
	return max(6, o.Budget/6)
}

// Edge qualities, in quarters of the bonus.
const (
	forbidden = -1000
	clause    = 4  // the sentence's edge or a clause boundary
	phrase    = 2  // before a stop word: most often a phrase boundary
	word      = 0  // white space or punctuation
	phraseCut = -2 // right after a stop word
	change    = -1 // a script change between characters of scripts without spaces
	char      = -4 // inside a run of one script without spaces
)

// counter estimates displayed lengths with prefix sums.
type counter struct {
	o     *Options
	hits  []Hit  // o.Hits by start
	width []int  // width[i]: the length of tokens [0, i) joined as displayed, from token 0
	words []int  // words[i]: the tokens before i that hold a letter or digit
	stop  []bool // stop[i]: token i is a stop word
	// negAhead[i]: a negation (Options.Negation) is among tokens i… up to the clause's end
	// (clausePunct or the sentence's end); nil without Options.Negation
	negAhead []bool
}

func newCounter(o *Options) *counter {
	n := len(o.Toks)
	c := &counter{o: o, width: make([]int, n+1), words: make([]int, n+1), stop: make([]bool, n)}
	c.hits = slices.Clone(o.Hits)
	slices.SortStableFunc(c.hits, func(a, b Hit) int { return a.Start - b.Start })
	for i, t := range o.Toks {
		c.stop[i] = o.Stop != nil && o.Stop(t.Form)
		w := 0
		if o.Columns {
			w = display.Columns(t.Form)
		} else {
			w = utf8.RuneCountInString(t.Form)
		}
		if i > 0 && t.Start > o.Toks[i-1].End {
			w++ // white space between tokens shows as one space
		}
		c.width[i+1] = c.width[i] + w
		c.words[i+1] = c.words[i]
		if segment.KindOf(t.Form) != segment.Punct {
			c.words[i+1]++
		}
	}
	if o.Negation != nil {
		c.negAhead = make([]bool, n+1)
		for i := n - 1; i >= 0; i-- {
			f := o.Toks[i].Form
			c.negAhead[i] = o.Negation(f) || !clausePunct(f) && !segment.Terminal(f) && c.negAhead[i+1]
		}
	}
	return c
}

// length estimates the display of tokens [lo, hi) with a "…" for each cut (none when
// Plain).
func (c *counter) length(lo, hi int) int {
	t := c.o.Toks
	l := c.width[hi] - c.width[lo]
	if lo > 0 && t[lo].Start > t[lo-1].End {
		l-- // the space before the window is not shown
	}
	if c.o.Plain {
		return l
	}
	if c.words[lo] > 0 { // words were cut before
		l++
		if r, _ := utf8.DecodeRuneInString(t[lo].Form); !segment.Spaceless(r) {
			l++
		}
	}
	if c.words[len(t)]-c.words[hi] > 0 { // words were cut after
		l++
		if r, _ := utf8.DecodeLastRuneInString(t[hi-1].Form); !segment.Spaceless(r) && !(segment.KindOf(t[hi-1].Form) == segment.Punct && hi > 1) {
			l++
		}
	}
	return l
}

// starts yields the starts of the windows worth trying, ascending: those from which a hit
// is within the budget (a token takes at least a character), not every token of a long
// sentence.
func (c *counter) starts() func(yield func(int) bool) {
	return func(yield func(int) bool) {
		next := 0 // the first start not yielded
		for _, h := range c.hits {
			for lo := max(next, h.Start-c.o.Budget); lo <= h.Start; lo++ {
				if !yield(lo) {
					return
				}
			}
			next = max(next, h.Start+1)
		}
	}
}

// terms returns the number of distinct terms with an occurrence inside [lo, hi), and the
// first token of the first such occurrence.
func (c *counter) terms(lo, hi int) (int, int) {
	var seen [64]bool
	n, first := 0, hi
	i, _ := slices.BinarySearchFunc(c.hits, lo, func(h Hit, lo int) int { return h.Start - lo })
	for _, h := range c.hits[i:] {
		if h.Start >= hi {
			break
		}
		if h.End <= hi {
			first = min(first, h.Start)
			if h.Term >= len(seen) || !seen[h.Term] {
				if h.Term < len(seen) {
					seen[h.Term] = true
				}
				n++
			}
		}
	}
	return n, first
}

// startQuality returns the quality of a window that starts at token lo, or forbidden.
func (c *counter) startQuality(lo int) int {
	t := c.o.Toks
	f := t[lo].Form
	if segment.KindOf(f) == segment.Punct && (!opener(f) || straight(f) && (lo+1 == len(t) || t[lo+1].Start > t[lo].End)) {
		return forbidden // punctuation, or a straight quote that does not open the word after it
	}
	if lo == 0 {
		return clause
	}
	q := c.cut(lo - 1)
	switch {
	case q == forbidden:
		return q
	case clausePunct(t[lo-1].Form) || opener(t[lo-1].Form):
		return clause
	case c.stop[lo-1] && !c.stop[lo]:
		return phraseCut // "les | petites": the article is cut from its noun
	}
	return q
}

// endQuality returns the quality of a window that ends before token hi, or forbidden.
func (c *counter) endQuality(hi int) int {
	t := c.o.Toks
	if hi == len(t) {
		return clause
	}
	f := t[hi-1].Form
	if segment.KindOf(f) == segment.Punct && (!closer(f) || straight(f) && (hi < 2 || t[hi-1].Start > t[hi-2].End)) || c.stop[hi-1] {
		return forbidden // a dangling comma, a quote that opens what is cut, or a dangling "les"
	}
	q := c.cut(hi - 1)
	switch {
	case q == forbidden:
		return q
	case clausePunct(t[hi].Form):
		return clause
	case c.stop[hi]:
		return phrase // before a function word: "Unternehmen | im nächsten Jahr"
	}
	return q
}

// cut returns the quality of a cut between tokens i and i+1, or forbidden.
func (c *counter) cut(i int) int {
	t := c.o.Toks
	a, b := t[i], t[i+1]
	if unitSign(b.Form) && isNumber(a.Form) {
		return forbidden // a number and its unit, spaced or not: "33 %", "31%", "−4 °C"
	}
	if b.Start > a.End {
		return word
	}
	ka, kb := segment.KindOf(a.Form), segment.KindOf(b.Form)
	if c.joining(i) || c.joining(i+1) {
		return forbidden // inside a hyphenated word: "Nordrhein-Westfalen", "light-saturated"
	}
	if ka == segment.Punct || kb == segment.Punct {
		return word
	}
	ra, _ := utf8.DecodeLastRuneInString(a.Form)
	rb, _ := utf8.DecodeRuneInString(b.Form)
	sa, sb := scriptOf(ra), scriptOf(rb)
	switch {
	case sa != sb && !(sa == script.Hangul || sb == script.Hangul):
		switch {
		case sa == script.Hiragana && (sb == script.Han || sb == script.Katakana) && strings.ContainsRune("をはがのにでともへや", ra):
			return word // after a particle: 政府は|水曜日
		case sa == script.Hiragana || sb == script.Hiragana:
			return char // before a particle or inside a word: 税金|を, 引き|下げる
		}
		return change
	case sa == script.Hangul || sb == script.Hangul:
		if sa != sb {
			return word
		}
		return forbidden // inside a Hangul word
	case sa == script.Thai && sb == script.Thai:
		switch {
		case leadingVowel(ra) || followingVowel(rb):
			return forbidden // เ|ก, ก|า: a vowel cut from its consonant
		case leadingVowel(rb):
			return change // before เ แ โ ใ ไ: a syllable starts
		}
		return char
	case segment.Spaceless(ra) && segment.Spaceless(rb):
		return char
	}
	return forbidden // two words written together: not a boundary the segmenter made
}

// joining reports whether token k is a hyphen written against a word on each side: a
// hyphenated word ("Lefèvre-Dubois"), which no edge cuts.
func (c *counter) joining(k int) bool {
	t := c.o.Toks
	if k <= 0 || k+1 >= len(t) || (t[k].Form != "-" && t[k].Form != "‐") {
		return false
	}
	return t[k-1].End == t[k].Start && t[k].End == t[k+1].Start &&
		segment.KindOf(t[k-1].Form) != segment.Punct && segment.KindOf(t[k+1].Form) != segment.Punct
}

// unitSign reports whether form is a sign written after a number as its unit.
func unitSign(form string) bool {
	switch form {
	case "%", "‰", "°", "℃", "℉", "°C", "°F":
		return true
	}
	return false
}

// isNumber reports whether form is a number: digits, with separators inside.
func isNumber(form string) bool {
	r, _ := utf8.DecodeLastRuneInString(form)
	return unicode.IsDigit(r) && strings.IndexFunc(form, func(r rune) bool {
		return !unicode.IsDigit(r) && !strings.ContainsRune(".,  ", r)
	}) < 0
}

// scriptOf returns the script of r for cut qualities: script.Of, with Lao, Khmer and
// Myanmar as Thai (their vowels and syllables are cut alike) and the scripts written with
// spaces as script.None.
func scriptOf(r rune) script.Script {
	switch s := script.Of(r); s {
	case script.Han, script.Hiragana, script.Katakana, script.Hangul, script.Thai:
		return s
	case script.Lao, script.Khmer, script.Myanmar:
		return script.Thai
	}
	return script.None
}

// leadingVowel reports whether r is a Thai or Lao vowel written before its consonant
// (เ แ โ ใ ไ): it begins a syllable.
func leadingVowel(r rune) bool {
	return 0x0e40 <= r && r <= 0x0e44 || 0x0ec0 <= r && r <= 0x0ec4
}

// followingVowel reports whether r is a Thai or Lao vowel sign written after its consonant
// as a character of its own (ะ า ำ ๅ), which a cut must not separate from it.
func followingVowel(r rune) bool {
	switch r {
	case 0x0e30, 0x0e32, 0x0e33, 0x0e45, 0x0eb0, 0x0eb2, 0x0eb3:
		return true
	}
	return false
}

// straight reports whether form is a straight quote, which opens or closes by its place.
func straight(form string) bool { return form == "\"" || form == "'" }

// clausePunct reports whether form ends a clause inside a sentence: , ; : and their
// full-width kin, and dashes.
func clausePunct(form string) bool {
	switch form {
	case ",", ";", ":", "、", "，", "；", "：", "—", "–", "،", "؛", "-":
		return true
	}
	return false
}

// opener reports whether form opens a quotation or a bracket.
func opener(form string) bool {
	r, size := utf8.DecodeRuneInString(form)
	return size == len(form) && (unicode.In(r, unicode.Ps, unicode.Pi) || r == '「' || r == '『' || r == '„')
}

// closer reports whether form closes a quotation or a bracket.
func closer(form string) bool {
	r, size := utf8.DecodeRuneInString(form)
	return size == len(form) && (unicode.In(r, unicode.Pe, unicode.Pf) || r == '」' || r == '』' || r == '"' || r == '\'')
}
