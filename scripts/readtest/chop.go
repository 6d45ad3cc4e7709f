package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
)

// functionWords are the English function words a shown run should not end on before a
// cut: determiners, prepositions, auxiliaries, conjunctions, possessive pronouns, "to".
var functionWords = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "that": true, "these": true, "those": true,
	"some": true, "any": true, "each": true, "every": true, "no": true,
	"of": true, "in": true, "on": true, "at": true, "by": true, "for": true, "with": true,
	"from": true, "to": true, "into": true, "onto": true, "about": true, "as": true,
	"over": true, "under": true, "after": true, "before": true, "between": true, "through": true,
	"and": true, "or": true, "but": true, "nor": true, "if": true, "whether": true, "than": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "being": true,
	"has": true, "have": true, "had": true, "do": true, "does": true, "did": true,
	"will": true, "would": true, "shall": true, "should": true, "can": true, "could": true,
	"may": true, "might": true, "must": true,
	"my": true, "your": true, "his": true, "her": true, "its": true, "our": true, "their": true,
}

// displayChop is the choppiness of displayed snippets, counted on their text: the cuts
// are the "…" marks the display shows.
type displayChop struct {
	snippets, gaps, islands, afterFunction int
}

// chopText counts one displayed snippet with the query terms.
func chopText(s string, query []string) displayChop {
	c := displayChop{snippets: 1}
	parts := strings.Split(s, "…")
	// parts[0] is before the first mark, parts[len-1] after the last; an inner part is a
	// run between two marks.
	shown := 0
	for i, p := range parts {
		words := wordsOf(p)
		if len(words) == 0 {
			continue
		}
		shown++
		cutBefore, cutAfter := i > 0, i < len(parts)-1
		if (cutBefore || cutAfter) && len(words) == 1 && !isQueryWord(words[0], query) {
			c.islands = 1
		}
		if cutAfter && functionWords[strings.ToLower(words[len(words)-1])] {
			c.afterFunction = 1
		}
	}
	c.gaps = max(shown-1, 0) // the marks between two shown runs
	return c
}

// wordsOf returns the words of a run: space-separated pieces with a letter or digit,
// stripped of the punctuation around them.
func wordsOf(p string) []string {
	var out []string
	for _, f := range strings.Fields(p) {
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// isQueryWord reports whether a word contains a query term or is contained in one
// (ignoring case), so that inflections of the term count as the term.
func isQueryWord(w string, query []string) bool {
	w = strings.ToLower(w)
	for _, q := range query {
		q = strings.ToLower(q)
		if strings.Contains(w, q) || strings.Contains(q, w) {
			return true
		}
	}
	return false
}

// cmdChop prints the choppiness of each system's displayed snippets, by protocol.
func cmdChop(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("chop", "-items FILE -sys LABEL=FILE [-sys LABEL=FILE …]", stderr)
	items, labels, outs, err := systemsArgs(fs, args)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "| system | protocol | snippets | inner gaps per snippet | one-word islands | gap after a function word |")
	fmt.Fprintln(stdout, "|---|---|--:|--:|--:|--:|")
	for k, label := range labels {
		out := outs[k]
		byProto := map[string]*displayChop{}
		var protos []string
		for _, it := range items {
			r, ok := out[it.ID]
			if !ok || r.Error != "" || r.CompressionEllipsis == nil {
				continue
			}
			for _, p := range []string{it.Protocol, "all"} {
				if byProto[p] == nil {
					byProto[p] = &displayChop{}
					protos = append(protos, p)
				}
				c := chopText(*r.CompressionEllipsis, it.Query)
				t := byProto[p]
				t.snippets += c.snippets
				t.gaps += c.gaps
				t.islands += c.islands
				t.afterFunction += c.afterFunction
			}
		}
		for _, p := range protos {
			t := byProto[p]
			n := float64(max(t.snippets, 1))
			fmt.Fprintf(stdout, "| %s | %s | %d | %.2f | %.1f%% | %.1f%% |\n", label, p, t.snippets,
				float64(t.gaps)/n, 100*float64(t.islands)/n, 100*float64(t.afterFunction)/n)
		}
	}
	return nil
}
