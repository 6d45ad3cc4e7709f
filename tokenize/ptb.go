package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/syntax"
)

// PTBForm returns the Penn Treebank spelling of token t of text, the spelling of the Google
// corpus and of PTB-trained taggers: a straight double quote becomes “ when it opens a
// quotation (it follows white space or an opening bracket and precedes a word) and ”
// otherwise; “ „ « become “ and ” » become ”; ‘, and a straight or typographic single
// quote that opens a quotation, become `; ’ becomes ' (inside words too: n’t → n't).
// Brackets stay as they are, as in the Google corpus. Other forms are returned unchanged,
// without allocating. Tokens keep their original Form: call PTBForm where a model needs it.
func PTBForm(text string, t syntax.Token) string {
	switch t.Form {
	case `"`:
		if opens(text, t) {
			return "``"
		}
		return "''"
	case "“", "„", "«":
		return "``"
	case "”", "»":
		return "''"
	case "‘":
		return "`"
	case "'", "’":
		if opens(text, t) {
			return "`"
		}
		return "'"
	}
	if strings.Contains(t.Form, "’") {
		return strings.ReplaceAll(t.Form, "’", "'")
	}
	return t.Form
}

// ASCIIQuotes returns form with its typographic quotes and apostrophes (“ ” „ ‟ « », ‘ ’
// ‚ ‛) the ASCII ones, the spelling of UD_English-EWT, which the tagger and parser learned
// from and which writes `"` and `'s` 30 times as often as “ ” and ’s (PTBForm is the
// Google corpus's spelling instead). A form without them (HasTypographicQuote) is
// returned unchanged, without allocating.
func ASCIIQuotes(form string) string {
	if !HasTypographicQuote(form) {
		return form
	}
	return asciiQuotes.Replace(form)
}

// asciiQuotes is ASCIIQuotes' replacer.
var asciiQuotes = strings.NewReplacer("“", `"`, "”", `"`, "„", `"`, "‟", `"`, "«", `"`, "»", `"`,
	"‘", "'", "’", "'", "‚", "'", "‛", "'")

// HasTypographicQuote reports whether form holds one of the quotes ASCIIQuotes replaces,
// all of which begin with the byte 0xE2 or 0xC2 in UTF-8.
func HasTypographicQuote(form string) bool {
	return strings.IndexByte(form, 0xE2) >= 0 && strings.ContainsAny(form, "“”„‟‘’‚‛") ||
		strings.IndexByte(form, 0xC2) >= 0 && strings.ContainsAny(form, "«»")
}

// opens reports whether the quote token t opens a quotation.
func opens(text string, t syntax.Token) bool {
	if t.Start < 0 || t.End > len(text) || t.Start >= t.End {
		return false
	}
	if t.End == len(text) {
		return false
	}
	if next, _ := utf8.DecodeRuneInString(text[t.End:]); unicode.IsSpace(next) {
		return false
	}
	if t.Start == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:t.Start])
	return unicode.IsSpace(prev) || strings.ContainsRune("([{<-–—/“‘`", prev)
}
