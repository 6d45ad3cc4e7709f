// Package tablerow is how qsc reads a table's rows as text, for the readers of Markdown
// (package markdown) and HTML (package htmltext): each row a paragraph of its own, its
// cells joined by " · " (by a space after a cell that ends a sentence), and, when the
// table has a header row of short labels, each cell of the other rows after its
// column's label ("Plan: Team · Price: $50 · Users: 10"), so that a row found by a search
// reads alone as a snippet; the header row itself is then left out, its words being in
// every row.
package tablerow

import (
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/tokenize"
)

// The bounds of a header row that labels the cells of the other rows: at most
// MaxColumns cells, each label at most MaxLabelRunes characters. A wider table, or one
// whose header holds sentences, reads as it is written.
const (
	MaxColumns    = 8
	MaxLabelRunes = 40
)

// Sep is the separator of two cells of a row.
const Sep = " · "

// Labels returns the labels of the columns that the header row's cell texts head give
// the cells of the other rows, or nil when the header does not read as labels: fewer than
// two cells with text, more than MaxColumns cells, a label over MaxLabelRunes
// characters, one that ends a sentence or already ends with ":". A column whose header
// is empty has the label "". Texts are trimmed of white space by the caller.
func Labels(head []string) []string {
	if len(head) > MaxColumns {
		return nil
	}
	n := 0
	for _, h := range head {
		switch {
		case h == "":
			continue
		case utf8.RuneCountInString(h) > MaxLabelRunes, h[len(h)-1] == ':', tokenize.EndsSentence(h):
			return nil
		}
		n++
	}
	if n < 2 {
		return nil
	}
	return head
}

// Cell returns the text of a cell of a labelled column: "label: text", or text when
// label is "".
func Cell(label, text string) string {
	if label == "" {
		return text
	}
	return label + ": " + text
}

// SepAfter returns the separator to write after a cell whose text ends with tail (its
// last bytes suffice): a space when it ends a sentence, so that no "·" leads the next
// cell's sentence, else Sep.
func SepAfter(tail string) string {
	if tokenize.EndsSentence(tail) {
		return " "
	}
	return Sep
}
