package docindex

import (
	"bytes"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/qsc-nlp/qsc/internal/core/match"
)

// hyphenTokenizerName names hyphenTokenizer in bleve's registry.
const hyphenTokenizerName = "qsc_unicode_hyphen"

func init() {
	if err := registry.RegisterTokenizer(hyphenTokenizerName, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return hyphenTokenizer{unicode.NewUnicodeTokenizer()}, nil
	}); err != nil {
		panic(err) // a second registration: a programming error
	}
}

// hyphenTokenizer is bleve's unicode tokenizer, which cuts "e-mail" into "e" and "mail",
// with one more token for each run of words that only hyphens join: "e-mail" (spanning the
// run, at the position of its last word), which the key filter makes "email" (match.Key
// drops a word's hyphens). So a search for "email" finds "e-mail" and one for "e-mail"
// finds "email", as the snippets' matcher does; "mail" still finds "e-mail". A phrase
// with a hyphenated word ("e-mail notice") finds the text spelled with its hyphen, not
// "email notice". Indexes made before it keep the analyzer their mapping names.
type hyphenTokenizer struct{ inner analysis.Tokenizer }

// Tokenize implements analysis.Tokenizer.
func (h hyphenTokenizer) Tokenize(input []byte) analysis.TokenStream {
	ts := withScripts(input, h.inner.Tokenize(input))
	var out analysis.TokenStream
	for i := 0; i < len(ts); {
		j := i
		for j+1 < len(ts) && ts[j].End+1 == ts[j+1].Start && input[ts[j].End] == '-' {
			j++
		}
		if j == i {
			if out != nil {
				out = append(out, ts[i])
			}
			i++
			continue
		}
		if out == nil {
			out = append(make(analysis.TokenStream, 0, len(ts)+4), ts[:i]...)
		}
		out = append(out, ts[i:j+1]...)
		joined := make([]byte, 0, ts[j].End-ts[i].Start)
		for k := i; k <= j; k++ {
			joined = append(joined, input[ts[k].Start:ts[k].End]...)
		}
		out = append(out, &analysis.Token{Term: joined, Start: ts[i].Start, End: ts[j].End, Position: ts[j].Position, Type: ts[j].Type})
		i = j + 1
	}
	if out == nil {
		return ts
	}
	return out
}

// withScripts returns ts with each token that subscript or superscript digits or signs
// follow ("CO₂", "cm²", "Ca²⁺") extended over them, as one word: the unicode tokenizer
// drops them, so "CO₂" was "CO". The key filter (match.Key) reads their compatibility
// form, so "CO₂" and "CO2" are one term. A token that the extension covers is left out.
func withScripts(input []byte, ts analysis.TokenStream) analysis.TokenStream {
	if !bytes.ContainsAny(input, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻₀₁₂₃₄₅₆₇₈₉₊₋") {
		return ts
	}
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && t.Start < out[n-1].End {
			continue // inside the token before, extended
		}
		end := t.End
		for end < len(input) {
			r, size := utf8.DecodeRune(input[end:])
			if !scriptDigit(r) {
				break
			}
			end += size
		}
		if end > t.End {
			t.End, t.Term = end, input[t.Start:end]
		}
		out = append(out, t)
	}
	return out
}

// scriptDigit reports whether r is a superscript or subscript digit, plus or minus.
func scriptDigit(r rune) bool {
	return r == '¹' || r == '²' || r == '³' || 0x2070 <= r && r <= 0x207B || 0x2080 <= r && r <= 0x208B
}

// partsTokenizerName names partsTokenizer in bleve's registry.
const partsTokenizerName = "qsc_unicode_parts"

func init() {
	if err := registry.RegisterTokenizer(partsTokenizerName, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return partsTokenizer{hyphenTokenizer{unicode.NewUnicodeTokenizer()}}, nil
	}); err != nil {
		panic(err) // a second registration: a programming error
	}
}

// partsTokenizer is hyphenTokenizer with one more token, at the same position, for each
// word that the query matcher finds inside a web or e-mail address, a dotted name or a
// host and port (match.AddressParts): "NullPointerException" and "lang" in
// "java.lang.NullPointerException", "example.com" in "proxy.example.com". So a search
// finds the documents whose snippets mark such a word. It is the tokenizer of an index's
// text, not of a query's words (Index.queryAnalyzers), where the parts of
// "example.com" would find every document with a "com".
type partsTokenizer struct{ inner hyphenTokenizer }

// Tokenize implements analysis.Tokenizer.
func (p partsTokenizer) Tokenize(input []byte) analysis.TokenStream {
	ts := p.inner.Tokenize(input)
	if !bytes.ContainsAny(input, ".:@") {
		return ts
	}
	var out analysis.TokenStream
	for i, t := range ts {
		var parts []string
		if bytes.ContainsAny(t.Term, ".:@") && bytes.Equal(t.Term, input[t.Start:t.End]) { // an address, not a word joined at its hyphens
			parts = match.AddressParts(string(t.Term))
		}
		if parts == nil {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make(analysis.TokenStream, 0, len(ts)+len(parts)), ts[:i]...)
		}
		out = append(out, t)
		from := 0 // the parts are in order of their place in the word, domains after
		for _, part := range parts {
			j := bytes.Index(t.Term[from:], []byte(part))
			if j < 0 {
				j, from = bytes.Index(t.Term, []byte(part)), 0
				if j < 0 {
					continue
				}
			}
			start := t.Start + from + j
			out = append(out, &analysis.Token{Term: input[start : start+len(part)], Start: start, End: start + len(part), Position: t.Position, Type: t.Type})
			from += j + len(part)
		}
	}
	if out == nil {
		return ts
	}
	return out
}
