// Package conllu reads and writes CoNLL-U files (https://universaldependencies.org/format.html).
//
// The reader streams one sentence at a time from plain or gzip-compressed input. It keeps
// every column as written, the comment lines, multiword-token ranges (1-2) and empty nodes
// (8.1), so that reading and writing a well-formed file reproduces it byte for byte.
// An underscore in HEAD and DEPREL is accepted and means the sentence is not parsed.
// Malformed input yields a *ParseError naming the file, the line and the fault.
package conllu

import (
	"strconv"
	"strings"
)

// NoHead is the Head value of a word whose HEAD column is "_" (unparsed).
const NoHead = -1

// Word is an ordinary syntactic word: a line whose ID is a single integer.
type Word struct {
	ID     int    // 1-based position in the sentence
	Form   string // FORM
	Lemma  string // LEMMA
	UPOS   string // UPOS
	XPOS   string // XPOS
	Feats  string // FEATS
	Head   int    // HEAD: 0 for the root, NoHead for "_"
	DepRel string // DEPREL, "_" when unparsed
	Deps   string // DEPS
	Misc   string // MISC
}

// Range is a multiword-token line such as "1-2 don't _ _ ...". It is written just before
// word Start.
type Range struct {
	Start, End int
	// Cols holds columns 2 to 10 (FORM … MISC) as written.
	Cols [9]string
}

// Form returns the surface form of the multiword token.
func (r Range) Form() string { return r.Cols[0] }

// EmptyNode is an enhanced-UD empty node such as "8.1". It is written just after word
// Major (or before word 1 when Major is 0).
type EmptyNode struct {
	Major, Minor int
	// Cols holds columns 2 to 10 (FORM … MISC) as written.
	Cols [9]string
}

// Sentence is one CoNLL-U sentence.
type Sentence struct {
	// Comments are the comment lines, each as written including the leading "#".
	Comments []string
	// Words are the ordinary words, Words[i].ID == i+1.
	Words []Word
	// Ranges are the multiword tokens in file order.
	Ranges []Range
	// Empty are the empty nodes in file order.
	Empty []EmptyNode
}

// Meta returns the value of a "# key = value" comment and whether it was present.
// A comment "# key" without a value yields ("", true).
func (s *Sentence) Meta(key string) (string, bool) {
	for _, c := range s.Comments {
		k, v, hasVal := parseMeta(c)
		if k == key {
			if !hasVal {
				return "", true
			}
			return v, true
		}
	}
	return "", false
}

// SetMeta sets the "# key = value" comment, replacing an existing one or appending it.
func (s *Sentence) SetMeta(key, value string) {
	line := "# " + key + " = " + value
	for i, c := range s.Comments {
		if k, _, _ := parseMeta(c); k == key {
			s.Comments[i] = line
			return
		}
	}
	s.Comments = append(s.Comments, line)
}

func parseMeta(c string) (key, val string, hasVal bool) {
	c = strings.TrimSpace(strings.TrimPrefix(c, "#"))
	k, v, ok := strings.Cut(c, "=")
	return strings.TrimSpace(k), strings.TrimSpace(v), ok
}

// Text returns the "# text" comment, or the forms joined by spaces (honouring
// SpaceAfter=No) when there is none.
func (s *Sentence) Text() string {
	if t, ok := s.Meta("text"); ok {
		return t
	}
	var b strings.Builder
	for i, w := range s.Words {
		b.WriteString(w.Form)
		if i+1 < len(s.Words) && MiscValue(w.Misc, "SpaceAfter") != "No" {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// Forms returns the FORM of every word.
func (s *Sentence) Forms() []string {
	out := make([]string, len(s.Words))
	for i, w := range s.Words {
		out[i] = w.Form
	}
	return out
}

// Parsed reports whether every word has a HEAD.
func (s *Sentence) Parsed() bool {
	for _, w := range s.Words {
		if w.Head == NoHead {
			return false
		}
	}
	return len(s.Words) > 0
}

// MiscValue returns the value of key in a MISC column such as "SpaceAfter=No|GDep=nsubj",
// or "" when absent.
func MiscValue(misc, key string) string {
	if misc == "_" {
		return ""
	}
	for misc != "" {
		var item string
		item, misc, _ = strings.Cut(misc, "|")
		if k, v, ok := strings.Cut(item, "="); ok && k == key {
			return v
		}
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }
