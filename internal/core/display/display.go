// Package display renders a compression as the text a reader sees: the kept runs of the
// original text in their own spelling, with "…" where words were removed, or as HTML with
// the query terms in <mark>. It is the one implementation behind package render, the
// library's Result and Snippet texts and the "display" budget of package qsc.
//
// Ellipsis rendering: the kept runs are joined by " … " where words were removed, with a
// leading "… " when words were removed before the first run and a trailing " …" when words
// were removed after the last one, as search pages show. Words are letters and digits: a
// gap that holds none (a dropped quote) is shown as a space, after its first comma,
// semicolon or colon if it holds one (gapMark: "is the same, al-Sadr said"), or as nothing
// at the ends (a dropped final period), and a kept run of punctuation alone between cuts is left out
// unless it holds a hit, a double quote or a bracket, or is written against a shown run
// before it. A cut after an opening quote or
// bracket, or before a closing one, is written against it: “… word …”. A cut beside an
// ellipsis of the text's own ("…", "...") is shown by that one alone: "in recent
// years...", not "in recent years... …".
//
// Every function is safe for any input: spans out of the document's range, reversed,
// overlapping or not ascending are clamped or skipped, invalid UTF-8 is shown as U+FFFD,
// and HTML output is always escaped.
package display

import (
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/tokenize"
)

// Cut is the mark shown where words were removed.
const Cut = "…"

// Span is a byte range [Start, End) of a text.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Render returns the kept runs of the sentence sent of doc as text: in their original
// spelling, any run of separators (tokenize.IsSeparator: white space, control and
// invisible format characters, but not the soft hyphen and zero-width (non-)joiner of a
// word) shown as one space, and the runs joined by one space, or by none before a run that
// attaches to the word before it (AttachesLeft: a final period after a cut sits against
// the last word) or that was written against the run before it with only punctuation cut
// between them (the closing quote of `battlefield."`), or, with ellipsis, before a
// closing quote or bracket at a cut. With ellipsis, "…" marks where words were removed (see the package
// documentation); with markup, the text is HTML-escaped and the hits are in <mark>.
func Render(doc string, sent Span, kept, hits []Span, ellipsis, markup bool) string {
	var runBuf, hitBuf [renderSpans]Span
	var wordBuf [renderSpans]bool
	runs, marks := clean(runBuf[:0], doc, kept, 0, len(doc)), clean(hitBuf[:0], doc, hits, 0, len(doc))
	var b strings.Builder
	b.Grow(renderBytes(runs, marks, markup))
	w := writer{b: &b, markup: markup}
	var words []bool
	if ellipsis {
		words = wordy(wordBuf[:0], doc, runs, marks)
	}
	w.layout(doc, sent, runs, marks, words, nil)
	return b.String()
}

// Mark returns the text r of doc as HTML, as a page that shows a whole document writes
// it: escaped (invalid UTF-8 as U+FFFD), its separators as they are, and the hits (spans
// of doc, ascending, not overlapping) in <mark> as Render marks them: a hit cut at r's
// ends, and hits that only separators separate in one mark. It also returns the number
// of marks, and the hits from the first that does not start before r ends, for the next
// stretch of doc. A span r out of doc's range is clamped to it.
func Mark(doc string, r Span, hits []Span) (html string, marks int, rest []Span) {
	r.Start = max(0, min(r.Start, len(doc)))
	r.End = max(r.Start, min(r.End, len(doc)))
	var b strings.Builder
	b.Grow(r.End - r.Start + len(hits)*len("<mark></mark>"))
	w := writer{b: &b, markup: true, verbatim: true}
	h := w.run(doc, r, hits, 0)
	return b.String(), w.marks, hits[h:]
}

// renderSpans is the number of runs and of hits that Render holds on its stack; more
// take memory of the heap.
const renderSpans = 16

// renderBytes returns the usual size of a rendering of the runs with the hits marked
// (markup): their bytes, a cut between every two and at both ends, and the tags. Escaping
// may need more, and collapsed white space less.
func renderBytes(runs, hits []Span, markup bool) int {
	n := (len(runs) + 1) * len(" "+Cut)
	for _, r := range runs {
		n += r.End - r.Start
	}
	if markup {
		n += len(hits) * len("<mark></mark>")
	}
	return n
}

// Scratch is reusable memory for Length: once grown, its Length allocates nothing. The
// zero value is ready to use; it is not safe for concurrent use.
type Scratch struct {
	// Columns makes Length count columns, as a fixed-width display shows the text
	// (Columns), instead of characters.
	Columns bool

	runs, hits []Span
	lens       []int
	words      []bool
}

// Length returns the number of characters (runes) of the longer of the two plain
// renderings of kept, Render(doc, sent, kept, hits, false, false) and the same with
// ellipsis, without building either string: it is the displayed length that a display
// budget counts. Each run's text is counted once, for both renderings.
func (sc *Scratch) Length(doc string, sent Span, kept, hits []Span) int {
	runs := clean(sc.runs[:0], doc, kept, 0, len(doc))
	sc.runs = runs
	sc.hits = clean(sc.hits[:0], doc, hits, 0, len(doc))
	if len(runs) == 0 {
		return 0
	}
	sc.lens = slices.Grow(sc.lens[:0], len(runs))[:len(runs)]
	w := writer{cols: sc.Columns}
	h := 0
	for i, r := range runs {
		w.n = 0
		h = w.run(doc, r, sc.hits, h)
		sc.lens[i] = w.n
	}
	sc.words = wordy(sc.words[:0], doc, runs, sc.hits)
	w = writer{cols: sc.Columns}
	w.layout(doc, sent, runs, sc.hits, nil, sc.lens)
	plain := w.n
	w = writer{cols: sc.Columns}
	w.layout(doc, sent, runs, sc.hits, sc.words, sc.lens)
	return max(plain, w.n)
}

// MinLength returns a lower bound on the length of any rendering (plain or with
// ellipsis, not markup) of text kept whole: the number of its printable ASCII characters
// other than the space, each of which a rendering shows as itself. It is cheaper than
// Length, for ruling out a text that cannot fit a budget.
func MinLength(text string) int {
	n := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c > ' ' && c < 0x7f {
			n++
		}
	}
	return n
}

// sentenceOf returns sent widened to hold the runs (clean, not empty) and clamped to doc.
func sentenceOf(doc string, sent Span, runs []Span) Span {
	return Span{Start: max(0, min(sent.Start, runs[0].Start)), End: min(len(doc), max(sent.End, runs[len(runs)-1].End))}
}

// layout writes the runs (clean) of the sentence sent of doc to w, joined as Render
// joins them: with ellipses when words, wordy's for the runs, is not nil. When lens is
// not nil, w only counts (w.b is nil) and lens holds each run's length as w.run counts
// it, so that Length counts the text of a run once for both renderings.
func (w *writer) layout(doc string, sent Span, runs, hits []Span, words []bool, lens []int) {
	if len(runs) == 0 {
		return
	}
	sent = sentenceOf(doc, sent, runs)
	ellipsis := words != nil
	var bareLead, bareTrail bool
	if ellipsis {
		bareLead, bareTrail = bareQuotes(doc, runs, words)
	}
	h, last, shown := 0, -1, 0
	for i, r := range runs {
		if ellipsis && !words[i] {
			continue
		}
		if last >= 0 && doc[r.Start:r.End] == "." && strings.HasSuffix(doc[runs[last].Start:runs[last].End], ".") {
			continue // the sentence's period after a cut, against a word that ends with one ("Elm St.")
		}
		cut := ellipsis && cutBefore(doc, sent, runs, last, r) && !(last < 0 && bareLead)
		switch {
		case cut && last < 0: // a "…" opens the display: the space, if any, follows it
			if startsSpaceless(doc, r) {
				w.put(Cut)
			} else {
				w.put(Cut + " ")
			}
		case cut && (opensCut(doc, runs[last]) || endsSpaceless(doc, runs[last]) || bareLead && shown == 1):
			// After an opening quote, and after the bare mark that opens the display ("“…"
			// of a quotation of several sentences), the cut is written against it.
			w.put(Cut)
		case cut:
			w.put(" " + Cut)
		}
		if ellipsis && last >= 0 && !cut {
			if m := gapMark(doc[runs[last].End:r.Start]); m != "" && !AttachesLeft(doc[r.Start:r.End]) {
				w.put(m) // "is the same," al-Sadr said' shown as "is the same, al-Sadr said"
			}
		}
		// A cut shown by the text's own ellipsis at the run before ("involved... ") is a
		// cut too: a closing quote is written against it ("involved..."").
		ownCut := ellipsis && last >= 0 && !cut && endsEllipsis(doc, runs[last]) && HasWord(doc[runs[last].End:r.Start])
		if last >= 0 && spaced(doc, runs[last], r) && !((cut || ownCut) && (closesCut(doc, r) || startsSpaceless(doc, r))) {
			w.put(" ")
		}
		if lens != nil {
			w.n += lens[i]
		} else {
			h = w.run(doc, r, hits, h)
		}
		last = i
		shown++
	}
	if ellipsis && cutAfter(doc, sent, runs[last]) && !bareTrail {
		if endsSpaceless(doc, runs[last]) {
			w.put(Cut)
		} else {
			w.put(" " + Cut)
		}
	}
}

// endsEllipsis reports whether run r of doc ends with an ellipsis of its own ("…" or
// "..."), which then marks a cut after it: the rendering writes no second one.
func endsEllipsis(doc string, r Span) bool {
	t := doc[r.Start:r.End]
	return strings.HasSuffix(t, Cut) || strings.HasSuffix(t, "...")
}

// startsEllipsis reports whether run r of doc begins with an ellipsis of its own, which
// then marks a cut before it.
func startsEllipsis(doc string, r Span) bool {
	t := doc[r.Start:r.End]
	return strings.HasPrefix(t, Cut) || strings.HasPrefix(t, "...")
}

// cutBefore reports whether the ellipsis rendering writes a "…" before run r of the
// sentence sent of doc, the last shown run before it being runs[last] (none when last is
// negative): whether the text cut between them holds a word, unless an ellipsis of the
// text's own, at the end of the run before or the start of r, already marks the cut
// ("years... …" and "of … …" would show two).
func cutBefore(doc string, sent Span, runs []Span, last int, r Span) bool {
	if startsEllipsis(doc, r) {
		return false
	}
	if last < 0 {
		return HasWord(doc[sent.Start:r.Start])
	}
	return !endsEllipsis(doc, runs[last]) && HasWord(doc[runs[last].End:r.Start])
}

// cutAfter reports whether the ellipsis rendering writes a "…" after run r, the last
// shown one of the sentence sent of doc: whether the text cut after it holds a word,
// unless r ends with an ellipsis of its own.
func cutAfter(doc string, sent Span, r Span) bool {
	return !endsEllipsis(doc, r) && HasWord(doc[r.End:sent.End])
}

// Piece is a run of kept text as the ellipsis rendering shows it (Scratch.Pieces).
type Piece struct {
	Span
	// Cut reports whether a "…" is written before the piece.
	Cut bool
}

// Pieces appends to out the runs of kept (of the sentence sent of doc, with the hits
// hits) that the ellipsis rendering (Render with ellipsis) shows, in order, each with
// whether a "…" is written before it, and reports whether one is written after the last:
// the rendering's own account of its cuts, for measuring how choppy a display reads
// (wellformed.Chopper). A run that the rendering leaves out (punctuation alone after a
// cut) is not appended, and the spans are cleaned as Render cleans them. Once sc has
// grown, it allocates nothing beyond out's growth.
func (sc *Scratch) Pieces(out []Piece, doc string, sent Span, kept, hits []Span) ([]Piece, bool) {
	runs := clean(sc.runs[:0], doc, kept, 0, len(doc))
	sc.runs = runs
	sc.hits = clean(sc.hits[:0], doc, hits, 0, len(doc))
	if len(runs) == 0 {
		return out, false
	}
	sc.words = wordy(sc.words[:0], doc, runs, sc.hits)
	sent = sentenceOf(doc, sent, runs)
	bareLead, bareTrail := bareQuotes(doc, runs, sc.words)
	last := -1
	for i, r := range runs {
		if !sc.words[i] {
			continue
		}
		out = append(out, Piece{Span: r, Cut: cutBefore(doc, sent, runs, last, r) && !(last < 0 && bareLead)})
		last = i
	}
	return out, cutAfter(doc, sent, runs[last]) && !bareTrail
}

// bareQuotes reports whether the first shown run (words, as wordy gives them) is a
// quotation's opening mark alone with a cut after it, and whether the last is its closing
// mark alone with a cut before it: a display that opens on `“… words` shows its cut
// there, and the rendering writes no "…" before the mark (`… “… words`), nor after a
// closing one (`words …” …`).
func bareQuotes(doc string, runs []Span, words []bool) (lead, trail bool) {
	first, second, prev, last := -1, -1, -1, -1
	for i := range runs {
		if !words[i] {
			continue
		}
		switch {
		case first < 0:
			first = i
		case second < 0:
			second = i
		}
		prev, last = last, i
	}
	if second < 0 {
		return false, false
	}
	lead = quoteMark(strings.TrimSpace(doc[runs[first].Start:runs[first].End]), true) && HasWord(doc[runs[first].End:runs[second].Start])
	trail = quoteMark(strings.TrimSpace(doc[runs[last].Start:runs[last].End]), false) && HasWord(doc[runs[prev].End:runs[last].Start])
	return lead, trail
}

// quoteMark reports whether s is one double quote mark that can open a quotation (open),
// or close one: “ « „ and " open, ” » “ and " close.
func quoteMark(s string, open bool) bool {
	switch s {
	case `"`:
		return true
	case "“":
		return true // it opens, and closes German „…“
	case "«", "„":
		return open
	case "”", "»":
		return !open
	}
	return false
}

// startsSpaceless reports whether run r begins with a letter of a script written without
// spaces (segment.Spaceless: 政府, ภาษี): a cut before it is written against it, "…政府".
func startsSpaceless(doc string, r Span) bool {
	c, _ := utf8.DecodeRuneInString(doc[r.Start:r.End])
	return c >= 0x0e00 && segment.Spaceless(c)
}

// endsSpaceless reports whether run r ends with a letter of a script written without
// spaces, or with punctuation after one (決めた、): a cut after it is written against it.
func endsSpaceless(doc string, r Span) bool {
	t := doc[r.Start:r.End]
	for len(t) > 0 {
		c, size := utf8.DecodeLastRuneInString(t)
		if c < 0x0e00 {
			return false
		}
		if unicode.IsLetter(c) || unicode.IsMark(c) {
			return segment.Spaceless(c)
		}
		t = t[:len(t)-size]
	}
	return false
}

// run writes the text of run r, the hits from hits[h] on that fall in it marked, and
// returns the index of the first hit that does not start before r ends.
func (w *writer) run(doc string, r Span, hits []Span, h int) int {
	w.space = false
	pos := r.Start
	for ; h < len(hits) && hits[h].Start < r.End; h++ {
		hs, he := max(hits[h].Start, pos), min(hits[h].End, r.End)
		if hs >= he {
			continue
		}
		w.text(doc[pos:hs])
		// Merge the next hits of this run that only white space separates.
		for h+1 < len(hits) && hits[h+1].Start < r.End && hits[h+1].Start >= he && isSpace(doc[he:hits[h+1].Start]) {
			h++
			he = min(hits[h].End, r.End)
		}
		w.mark(doc[hs:he])
		pos = he
	}
	w.text(doc[pos:r.End])
	return h
}

// wordy appends to out, for each run, whether it is shown with ellipses: whether it holds
// a letter, a digit, a quote or bracket (hasPair: the rules keep them paired, so both
// halves show), or a hit, or is written against a shown run before it (glued: a
// closing quote after a dropped final period). A run of punctuation alone after a cut (a
// final period, a comma) is treated as part of the cut. When no run holds a word, every
// run is shown.
func wordy(out []bool, doc string, runs, hits []Span) []bool {
	h, found := 0, false
	for i, r := range runs {
		for h < len(hits) && hits[h].End <= r.Start {
			h++
		}
		word := HasWord(doc[r.Start:r.End]) || hasPair(doc[r.Start:r.End]) || (h < len(hits) && hits[h].Start < r.End)
		found = found || word
		word = word || (i > 0 && out[len(out)-1] && glued(doc[runs[i-1].End:r.Start]))
		out = append(out, word)
	}
	if !found {
		for i := range out {
			out[i] = true
		}
	}
	return out
}

// clean appends to out the spans clamped to [lo, hi], without empty ones and without any
// that starts before the end of the previous one, moved to UTF-8 boundaries.
func clean(out []Span, doc string, spans []Span, lo, hi int) []Span {
	end := lo
	for _, sp := range spans {
		st, en := boundary(doc, max(sp.Start, lo), false), boundary(doc, min(sp.End, hi), true)
		if st < end || st >= en {
			continue
		}
		out = append(out, Span{Start: st, End: en})
		end = en
	}
	return out
}

// boundary moves i (clamped to the document) back to the start of the rune it is in, or
// forward past it when forward.
func boundary(doc string, i int, forward bool) int {
	i = max(0, min(i, len(doc)))
	for i > 0 && i < len(doc) && !utf8.RuneStart(doc[i]) {
		if forward {
			i++
		} else {
			i--
		}
	}
	return i
}

// spaced reports whether the run r is joined to the run prev before it by a space: unless
// it attaches to the word before it (AttachesLeft) or only punctuation written without a
// space was cut between them (glued: "battlefield" and the closing quote of
// `battlefield."`). A clitic ("n't", "'s") whose own word was cut is not written against
// another word ("Asian … n't", never "Asiann't").
func spaced(doc string, prev, r Span) bool {
	if attaches, clitic := attachment(doc[r.Start:r.End]); attaches {
		return clitic && HasWord(doc[prev.End:r.Start])
	}
	return !glued(doc[prev.End:r.Start])
}

// glued reports whether a cut between two runs held only punctuation written without
// white space: the two runs were written against each other.
func glued(gap string) bool {
	return gap != "" && !HasWord(gap) && skip(gap, false) == len(gap)
}

// gapMark returns the comma, semicolon or colon that a cut holding no word (gap) shows:
// the first one in it, so that two runs that punctuation alone separated are not run
// together ("is the same," al-Sadr said' as "is the same, al-Sadr said", not "is the
// same al-Sadr said"). Quotes, brackets and dashes are not shown. It is "" for a gap that
// holds a word or none of these marks.
func gapMark(gap string) string {
	if HasWord(gap) {
		return ""
	}
	for i, c := range gap {
		switch c {
		case ',', ';', ':', '、', '，', '；', '：':
			return gap[i : i+utf8.RuneLen(c)]
		}
	}
	return ""
}

// hasPair reports whether s holds a double quote or a bracket.
func hasPair(s string) bool {
	return strings.ContainsAny(s, "\"()[]{}\u201C\u201D\u00AB\u00BB")
}

// opensCut reports whether run r ends with an opening double quote or bracket written
// against the text after it: a cut after it is written against it, "“… word". A closing
// one (")", "]", "”", or a straight quote after a word) is not: "(0.953) … more", even
// when a comma follows it in the text.
func opensCut(doc string, r Span) bool {
	m, size := utf8.DecodeLastRuneInString(doc[r.Start:r.End])
	if !hasPair(string(m)) || r.End >= len(doc) || closer(m) {
		return false
	}
	if m == '"' && r.End-size > 0 {
		if prev, _ := utf8.DecodeLastRuneInString(doc[:r.End-size]); !separator(prev) {
			return false // a straight quote after a word closes
		}
	}
	next, _ := utf8.DecodeRuneInString(doc[r.End:])
	return !separator(next)
}

// closesCut reports whether run r starts with a closing double quote or bracket written
// against the text before it: it is written against a cut before it, "word …”". An
// opening one ("(", "[", "“", or a straight quote before a word) is not.
func closesCut(doc string, r Span) bool {
	m, size := utf8.DecodeRuneInString(doc[r.Start:r.End])
	if !hasPair(string(m)) || r.Start == 0 || opener(m) {
		return false
	}
	if m == '"' && r.Start+size < len(doc) {
		if next, _ := utf8.DecodeRuneInString(doc[r.Start+size:]); !separator(next) && (unicode.IsLetter(next) || unicode.IsDigit(next)) {
			return false // a straight quote before a word opens
		}
	}
	prev, _ := utf8.DecodeLastRuneInString(doc[:r.Start])
	return !separator(prev)
}

// opener and closer report whether r is a bracket or typographic quote that only opens,
// or only closes, a pair; a straight double quote is neither.
func opener(r rune) bool { return r == '(' || r == '[' || r == '{' || r == '\u201C' || r == '\u00AB' }
func closer(r rune) bool { return r == ')' || r == ']' || r == '}' || r == '\u201D' || r == '\u00BB' }

// HasWord reports whether s holds a letter or a digit: a word, as the renderings count
// cuts (a gap without one is not shown as a cut). ASCII bytes are tested without
// decoding.
func HasWord(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
		i += size
	}
	return false
}

// isSpace reports whether s is only white space or control characters.
func isSpace(s string) bool {
	return skip(s, true) == len(s)
}

// skip returns the length of the longest prefix of s made of separators (sep) or of
// anything else (!sep).
func skip(s string, sep bool) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c <= ' ' || c == 0x7f) != sep {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if separator(r) != sep {
			return i
		}
		i += size
	}
	return i
}

// separator reports whether r separates words without being shown, as the tokenizer
// treats it (tokenize.IsSeparator): white space, control and invisible format
// characters, but not the soft hyphen and zero-width (non-)joiner inside a word, which
// are written as they are.
func separator(r rune) bool { return tokenize.IsSeparator(r) }

// writer writes document text with separators collapsed, escaped when markup. Without a
// builder it only counts the characters (runes) it would write, in n, or their columns
// when cols.
type writer struct {
	b      *strings.Builder
	n      int
	markup bool
	cols   bool
	space  bool // a separator is pending
	// verbatim writes separators as they are, none collapsed (Mark).
	verbatim bool
	marks    int // the <mark> elements written
}

// put writes s as it is.
func (w *writer) put(s string) {
	if w.b == nil {
		if w.cols {
			w.n += Columns(s)
		} else {
			w.n += utf8.RuneCountInString(s)
		}
		return
	}
	w.b.WriteString(s)
}

// text writes s, collapsing runs of separators into one space (unless verbatim).
func (w *writer) text(s string) {
	if w.verbatim {
		w.word(s)
		return
	}
	if w.b == nil && !w.markup {
		s = w.countASCII(s)
	}
	for len(s) > 0 {
		if i := skip(s, false); i > 0 {
			w.word(s[:i])
			s = s[i:]
		}
		if j := skip(s, true); j > 0 {
			w.space = true
			s = s[j:]
		}
	}
}

// countASCII counts the leading ASCII bytes of s as text does, for a writer that only
// counts (no builder, no markup: each of those bytes is one character and one column, a
// separator or not), in one pass instead of text's three (skip, utf8.ValidString and the
// count of put). It returns the rest of s, from its first byte that is not ASCII, for text
// to write: a word cut there counts as the two parts would, since the replacement of
// invalid bytes (word) never reaches back across an ASCII byte.
func (w *writer) countASCII(s string) string {
	n, space := w.n, w.space
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			w.n, w.space = n, space
			return s[i:]
		case c <= ' ' || c == 0x7f:
			space = true
		default:
			if space {
				n, space = n+1, false
			}
			n++
		}
	}
	w.n, w.space = n, space
	return ""
}

// word writes s, which holds no separator, after a pending space.
func (w *writer) word(s string) {
	if w.space {
		w.put(" ")
		w.space = false
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if w.markup {
		s = html.EscapeString(s)
	}
	w.put(s)
}

// mark writes s inside <mark> when markup, else as text.
func (w *writer) mark(s string) {
	if !w.markup {
		w.text(s)
		return
	}
	if w.space {
		w.put(" ")
		w.space = false
	}
	w.put("<mark>")
	w.text(s)
	w.space = false
	w.put("</mark>")
	w.marks++
}

// Columns returns the number of columns s takes on a fixed-width display: two for each
// East Asian wide or full-width character (漢字, かな, 한글, full-width Ｌａｔｉｎ), none for a
// combining mark or an invisible format character, one for any other; invalid UTF-8 takes
// one column a byte.
func Columns(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += RuneColumns(r)
		i += size
	}
	return n
}

// RuneColumns returns the columns of r, as Columns counts them.
func RuneColumns(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// AttachesLeft reports whether text, the start of a run or a token, is written against the
// word before it, without a space: closing punctuation (, . ; : ! ? % ) ] } and closing
// quotes), a lone apostrophe (students'), and the clitics 's 're 've 'll 'd 'm n't.
func AttachesLeft(text string) bool {
	attaches, _ := attachment(text)
	return attaches
}

// attachment reports whether text AttachesLeft, and whether what attaches is a clitic that
// is part of a word ("n't", "'s", "’ll") rather than punctuation or a lone apostrophe.
func attachment(text string) (attaches, clitic bool) {
	r, size := utf8.DecodeRuneInString(text)
	switch r {
	case ',', '.', ';', ':', '!', '?', '%', ')', ']', '}', '\u201D', '\u00BB', '\u2026':
		return true, false
	case '\'', '\u2019':
		// A closing quote or an apostrophe, unless a letter follows that is not a clitic
		// ('quoted' opens a quote; 's does not).
		next, _ := utf8.DecodeRuneInString(text[size:])
		if !unicode.IsLetter(next) {
			return true, false
		}
		c := cliticRest(text[size:], "s", "re", "ve", "ll", "d", "m")
		return c, c
	case 'n', 'N':
		c := cliticRest(text[size:], "'t", "\u2019t")
		return c, c
	}
	return false, false
}

// cliticRest reports whether text begins with one of the endings (ignoring case) and no
// letter follows it: the rest of a clitic.
func cliticRest(text string, endings ...string) bool {
	for _, e := range endings {
		if len(text) >= len(e) && strings.EqualFold(text[:len(e)], e) {
			next, _ := utf8.DecodeRuneInString(text[len(e):])
			if !unicode.IsLetter(next) {
				return true
			}
		}
	}
	return false
}

// attachesRight reports whether a token is written against the word after it: opening
// brackets and quotes, and currency and number signs ($89.5, #1).
func attachesRight(form string) bool {
	switch form {
	case "(", "[", "{", "``", "\u201C", "\u2018", "\u00AB", "#":
		return true
	}
	r, size := utf8.DecodeRuneInString(form)
	return size == len(form) && unicode.Is(unicode.Sc, r)
}

// Detokenize joins tokens as a detokenizer would, for a sentence given as tokens without
// its text: one space between tokens, but none before a token that AttachesLeft, none after
// an opening bracket, quote or currency sign, and straight double quotes taken as opening
// and closing in turn. It returns the text and the span of each token in it.
func Detokenize(forms []string) (string, []Span) {
	text, spans := AppendDetokenized(nil, make([]Span, 0, len(forms)), forms)
	return string(text), spans
}

// AppendDetokenized is Detokenize appending the text to b and the spans to spans, for a
// caller that reuses their memory.
func AppendDetokenized(b []byte, spans []Span, forms []string) ([]byte, []Span) {
	glue, quotes := true, 0
	for _, f := range forms {
		closing := f == "\"" && quotes%2 == 1
		if !glue && !closing && !(f != "\"" && AttachesLeft(f)) {
			b = append(b, ' ')
		}
		st := len(b)
		b = append(b, f...)
		spans = append(spans, Span{Start: st, End: len(b)})
		glue = attachesRight(f) || (f == "\"" && !closing)
		if f == "\"" {
			quotes++
		}
	}
	return b, spans
}
