// Package render turns a qsc.Snippet into text for a search page: plain, with "…" where
// words were removed, or HTML with the query terms in <mark>.
//
// Every function is a pure function of the document and a snippet of it. The kept runs keep
// their original spelling (no space before a comma, typographic quotes as written); any run
// of white space or control characters inside a run is shown as one space. The functions
// are safe for any input: spans out of the document's range, reversed, overlapping or not
// ascending are clamped or skipped, invalid UTF-8 is shown as U+FFFD, and HTML output is
// always escaped.
package render

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
)

// cut is the mark shown where words were removed.
const cut = "…"

// Plain returns the kept runs of s joined by single spaces, in their original spelling.
func Plain(doc string, s qsc.Snippet) string {
	return render(doc, s, false, false)
}

// Ellipsis returns the kept runs of s joined by " … " where words were removed, with a
// leading "… " when words were removed before the first run and a trailing " …" when words
// were removed after the last one, as search pages show. Words are letters and digits: a
// gap that holds none (a dropped comma) is shown as a space, or as nothing at the ends (a
// dropped final period), and a kept run of punctuation alone between cuts is left out.
func Ellipsis(doc string, s qsc.Snippet) string {
	return render(doc, s, true, false)
}

// HTML returns the snippet as HTML: the text of Plain (or of Ellipsis when ellipsis is
// true), escaped, with <mark>…</mark> around the query hits. Hits separated only by white
// space (the words of a phrase) share one <mark>.
func HTML(doc string, s qsc.Snippet, ellipsis bool) string {
	return render(doc, s, ellipsis, true)
}

// render writes the snippet; see Plain, Ellipsis and HTML.
func render(doc string, s qsc.Snippet, ellipsis, markup bool) string {
	runs := clean(doc, s.Kept, 0, len(doc))
	if len(runs) == 0 {
		return ""
	}
	sent := qsc.Span{Start: max(0, min(s.Sentence.Start, runs[0].Start)), End: min(len(doc), max(s.Sentence.End, runs[len(runs)-1].End))}
	hits := clean(doc, s.Hits, 0, len(doc))
	if ellipsis {
		runs = wordy(doc, runs, hits)
	}
	var b strings.Builder
	w := writer{b: &b, markup: markup}
	if ellipsis && hasWord(doc[sent.Start:runs[0].Start]) {
		b.WriteString(cut + " ")
	}
	h := 0
	for i, r := range runs {
		if i > 0 {
			if ellipsis && hasWord(doc[runs[i-1].End:r.Start]) {
				b.WriteString(" " + cut + " ")
			} else {
				b.WriteByte(' ')
			}
		}
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
	}
	if ellipsis && hasWord(doc[runs[len(runs)-1].End:sent.End]) {
		b.WriteString(" " + cut)
	}
	return b.String()
}

// wordy returns the runs that hold a letter, a digit or a hit: a run of punctuation alone
// (a final period after a cut) is treated as part of the cut. When no run holds one, it
// returns runs unchanged.
func wordy(doc string, runs, hits []qsc.Span) []qsc.Span {
	out := make([]qsc.Span, 0, len(runs))
	h := 0
	for _, r := range runs {
		for h < len(hits) && hits[h].End <= r.Start {
			h++
		}
		if hasWord(doc[r.Start:r.End]) || (h < len(hits) && hits[h].Start < r.End) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return runs
	}
	return out
}

// clean returns the spans clamped to [lo, hi], without empty ones and without any that
// starts before the end of the previous one, moved to UTF-8 boundaries.
func clean(doc string, spans []qsc.Span, lo, hi int) []qsc.Span {
	out := make([]qsc.Span, 0, len(spans))
	end := lo
	for _, sp := range spans {
		st, en := boundary(doc, max(sp.Start, lo), false), boundary(doc, min(sp.End, hi), true)
		if st < end || st >= en {
			continue
		}
		out = append(out, qsc.Span{Start: st, End: en})
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

// hasWord reports whether s holds a letter or a digit.
func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// isSpace reports whether s is only white space or control characters.
func isSpace(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !separator(r) }) < 0
}

// separator reports whether r separates words without being shown: white space, control
// and invisible format characters (as the tokenizer treats them).
func separator(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// writer writes document text with separators collapsed, escaped when markup.
type writer struct {
	b      *strings.Builder
	markup bool
	space  bool // a separator is pending
}

// text writes s, collapsing runs of separators into one space.
func (w *writer) text(s string) {
	for len(s) > 0 {
		i := strings.IndexFunc(s, separator)
		if i < 0 {
			i = len(s)
		}
		if i > 0 {
			w.word(s[:i])
		}
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !separator(r) })
		if j < 0 {
			j = len(s)
		}
		if j > 0 {
			w.space = true
		}
		s = s[j:]
	}
}

// word writes s, which holds no separator, after a pending space.
func (w *writer) word(s string) {
	if w.space {
		w.b.WriteByte(' ')
		w.space = false
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if w.markup {
		s = html.EscapeString(s)
	}
	w.b.WriteString(s)
}

// mark writes s inside <mark> when markup, else as text.
func (w *writer) mark(s string) {
	if !w.markup {
		w.text(s)
		return
	}
	if w.space {
		w.b.WriteByte(' ')
		w.space = false
	}
	w.b.WriteString("<mark>")
	w.text(s)
	w.space = false
	w.b.WriteString("</mark>")
}
