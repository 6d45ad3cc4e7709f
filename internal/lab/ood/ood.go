// Package ood ships qsc's out-of-domain development set: sentences of UD_English-EWT (its dev
// and test documents, spread over reviews, email, answers, newsgroups and weblogs) with their
// gold trees and one hand-written, deletion-only snippet compression each. Every word carries
// Keep=Yes or Keep=No in MISC, the format of the Google corpus that internal/lab/dataset reads, and
// each sentence has "# genre" and "# compression" comments.
//
// `qsc-lab eval --ood` scores every method on it, to see whether compressions hold up outside
// news. It is for evaluation and model selection only, never for training. data/README.md
// says who wrote the compressions, how they were chosen, the rules followed and the license
// (CC BY-SA 4.0, UD_English-EWT attributed). The file is rebuilt from ../shared by
// `go test ./internal/lab/ood -run TestBuild -update`.
package ood

import (
	"bytes"
	_ "embed" // the shipped set
	"strings"

	"github.com/qsc-nlp/qsc/conllu"
)

// File is the name of the shipped CoNLL-U file inside this package.
const File = "data/ewt-snippets.conllu"

//go:embed data/ewt-snippets.conllu
var shipped []byte

// Genres are the five EWT genres in the set, as Genre returns them.
var Genres = []string{"answers", "email", "newsgroup", "reviews", "weblog"}

// Sentences returns the shipped sentences as read by package conllu, in file order. Each call
// parses the embedded file afresh, so callers may modify the result.
func Sentences() ([]*conllu.Sentence, error) {
	r, err := conllu.NewReader(bytes.NewReader(shipped), "ood/"+File)
	if err != nil {
		return nil, err
	}
	return r.ReadAll()
}

// Genre returns the EWT genre of a sentence: its "# genre" comment, or else the prefix of its
// sent_id before the first "-" (EWT's ids start with the genre). It returns "" when neither
// is present.
func Genre(s *conllu.Sentence) string {
	if g, ok := s.Meta("genre"); ok && g != "" {
		return g
	}
	id, _ := s.Meta("sent_id")
	g, _, ok := strings.Cut(id, "-")
	if !ok {
		return ""
	}
	return g
}
