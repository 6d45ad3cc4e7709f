// Command langcompare compares language identifiers on short text: whatlanggo, lingua-go
// (high and low accuracy modes) and qsc's internal/core/langid, on files of sentences, one
// file per language (CODE.txt, a sentence a line: the PUD sentences of docs/languages.md).
// It prints, per language, the share of sentences identified right and the wrong answers,
// then the share over all files and the mean time per text.
//
//	go run . -dir /tmp/pud -lib whatlanggo [-words 5] [-join 5]
//
// It is a module of its own, so that lingua-go (124 MB of language models) is not a
// dependency of qsc; docs/languages.md has the figures and the commands.
package main

import (
	"flag"
	"fmt"
	"log"
	"strings"

	"github.com/abadojack/whatlanggo"
	lingua "github.com/pemistahl/lingua-go"

	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/lab/pud"
)

func main() {
	dir := flag.String("dir", "", "folder of CODE.txt files, a sentence a line")
	lib := flag.String("lib", "qsc", "identifier: whatlanggo, lingua, lingua-low or qsc")
	words := flag.Int("words", 0, "cut each sentence to its first n words (4n characters for text without spaces); 0: whole")
	join := flag.Int("join", 1, "identify runs of this many consecutive sentences, joined by a space, as one text (a paragraph)")
	flag.Parse()
	files, err := pud.Read(*dir)
	if err != nil {
		log.Fatal(err)
	}
	detect, err := detector(*lib)
	if err != nil {
		log.Fatal(err)
	}
	r := pud.Measure(files, detect, *words, *join)
	fmt.Println(&r)
}

// detector returns the identifier called name, as a function from text to an ISO 639-1
// code ("?" when it gives none).
func detector(name string) (func(string) string, error) {
	switch name {
	case "qsc":
		return func(s string) string { return langid.Detect(s).Lang }, nil
	case "whatlanggo":
		return func(s string) string {
			if c := whatlanggo.Detect(s).Lang.Iso6391(); c != "" {
				return c
			}
			return "?"
		}, nil
	case "lingua", "lingua-low":
		b := lingua.NewLanguageDetectorBuilder().FromAllLanguages()
		if name == "lingua-low" {
			b = b.WithLowAccuracyMode()
		}
		d := b.Build()
		return func(s string) string {
			l, ok := d.DetectLanguageOf(s)
			if !ok {
				return "?"
			}
			return strings.ToLower(l.IsoCode639_1().String())
		}, nil
	}
	return nil, fmt.Errorf("unknown identifier %q (want whatlanggo, lingua, lingua-low or qsc)", name)
}
