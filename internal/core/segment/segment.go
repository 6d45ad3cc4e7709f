// Package segment splits text in any language and script into sentences and tokens, and
// finds query terms in them: the segmentation and matching of the snippets of text that is
// not English (English keeps its own tokenizer and matcher, packages tokenize and
// internal/core/match).
//
// Tokens. Words are the segments of the Unicode word boundaries (UAX #29, through
// github.com/clipperhouse/uax29/v2), less white space. A word of a script that is written
// without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar) or whose words hold
// a noun and its particles (Hangul: 정부는 is 정부 and 는) is split into its characters
// (grapheme clusters), one token each, so that a query's characters are found inside a
// longer run without a dictionary: 政府 in 政府は水曜日; a run of other characters in
// such a word (digits, Latin letters) stays one token: 1964 and 년 of 1964년. Punctuation
// and symbols are tokens of their own. Every token's Form is text[Start:End]; tokens are ascending and do
// not overlap.
//
// Sentences end after a terminal mark (. ! ? … and 。！？｡ ؟ ۔ । ॥, with the closing quotes
// and brackets after it) before white space or a character of a script without spaces,
// unless the mark is a full stop after a single letter (an initial) or before a lowercase
// word; at a line break between two letters of Thai or Lao, which mark no sentence's end;
// and always at a blank line.
//
// Everything here is linear in the length of the text and never panics, whatever the
// input (invalid UTF-8 is read as U+FFFD).
package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/clipperhouse/uax29/v2/words"

	"github.com/qsc-nlp/qsc/internal/core/script"
	"github.com/qsc-nlp/qsc/syntax"
)

// Kind is what a token is.
type Kind uint8

// The kinds of token.
const (
	// Punct is punctuation or a symbol: no letter or digit.
	Punct Kind = iota
	// Word is a word of a script written with spaces (or a number).
	Word
	// Char is one character of a script written without spaces, or a syllable of Hangul.
	Char
)

// KindOf returns the kind of a token's form.
func KindOf(form string) Kind {
	r, _ := utf8.DecodeRuneInString(form)
	switch {
	case split(r):
		return Char
	case hasWordRune(form):
		return Word
	}
	return Punct
}

// split reports whether r is a letter of a script whose words are split into characters:
// one written without spaces, or Hangul.
func split(r rune) bool {
	if r < 0x0e00 { // below Thai: none of them
		return false
	}
	s := script.Of(r)
	return s.Spaceless() || s == script.Hangul
}

// Spaceless reports whether r is a letter of a script written without spaces between
// words (script.Script.Spaceless: Han, kana, Thai, Lao, Khmer, Myanmar): a cut may fall
// between any two of its characters. Hangul is written with spaces and is not.
func Spaceless(r rune) bool {
	return r >= 0x0e00 && script.Of(r).Spaceless()
}

// hasWordRune reports whether s holds a letter, a digit or a mark.
func hasWordRune(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			return true
		}
	}
	return false
}

// Tokens returns the tokens of text (see the package documentation).
func Tokens(text string) []syntax.Token {
	return AppendTokens(nil, text, 0)
}

// AppendTokens appends the tokens of text to dst, with offsets into text plus base, and
// returns the extended slice.
func AppendTokens(dst []syntax.Token, text string, base int) []syntax.Token {
	it := words.FromString(text)
	for it.Next() {
		w := it.Value()
		start := it.Start()
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case space(r) && !hasVisible(w):
			continue
		case split(r) || hasSplit(w):
			// Each character of a script split into characters is a token; a run of
			// other characters within the word (digits, Latin letters: "1964" of
			// "1964년", "12" of "12세기", "COVID19" of "COVID19検査") is one, so that a
			// number is found whole and "1" does not match inside "12".
			g := graphemes.FromString(w)
			run := -1 // the start of the run of other characters, or -1
			for g.Next() {
				c, _ := utf8.DecodeRuneInString(g.Value())
				if !split(c) {
					if run < 0 {
						run = g.Start()
					}
					continue
				}
				if run >= 0 {
					dst = append(dst, token(text, base, start+run, start+g.Start()))
					run = -1
				}
				dst = append(dst, token(text, base, start+g.Start(), start+g.End()))
			}
			if run >= 0 {
				dst = append(dst, token(text, base, start+run, start+len(w)))
			}
		default:
			dst = append(dst, token(text, base, start, it.End()))
		}
	}
	return dst
}

func token(text string, base, start, end int) syntax.Token {
	return syntax.Token{Form: text[start:end], Head: syntax.NoHead, Start: base + start, End: base + end}
}

// hasSplit reports whether the word w holds a character of a script split into characters
// (a word that mixes scripts: 3月).
func hasSplit(w string) bool {
	for _, r := range w {
		if split(r) {
			return true
		}
	}
	return false
}

// space reports whether r separates tokens: white space, control and format characters.
func space(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// hasVisible reports whether s holds a rune that does not separate tokens.
func hasVisible(s string) bool {
	for _, r := range s {
		if !space(r) {
			return true
		}
	}
	return false
}

// Sentences returns the sentences of text, each a run of its tokens (see the package
// documentation), with offsets into text plus base. The sentences share one backing
// array; each is capped.
func Sentences(text string, base int) []syntax.Sentence {
	_, out := AppendSentences(nil, nil, text, base)
	return out
}

// AppendSentences is Sentences into buffers a caller reuses: it appends the tokens of
// text to toks and its sentences to sents, and returns both. The sentences share the
// tokens' backing array, so they hold until toks is appended to again.
func AppendSentences(toks []syntax.Token, sents []syntax.Sentence, text string, base int) ([]syntax.Token, []syntax.Sentence) {
	n0 := len(toks)
	all := AppendTokens(toks, text, base)
	toks = all[n0:]
	out := sents
	begin := 0
	quoted := quotedSpans(text, base, toks)
	for i := 0; i < len(toks); i++ {
		if len(quoted) > 0 && quoted[0][0] < i && i < quoted[0][1] {
			continue // a mark inside a quotation that closes: 「ラジオにて開戦を知る。町は静かなり」とあります。
		}
		for len(quoted) > 0 && quoted[0][1] <= i {
			quoted = quoted[1:]
		}
		if last, ok := breakAfter(text, base, toks, i); ok {
			out = append(out, syntax.Sentence{Tokens: toks[begin : last+1 : last+1]})
			begin, i = last+1, last
		}
	}
	if begin < len(toks) {
		out = append(out, syntax.Sentence{Tokens: toks[begin:len(toks):len(toks)]})
	}
	return all, out
}

// maxQuoted is the most tokens between the marks of a quotation within which a sentence
// mark ends no sentence (quotedSpans): a longer one, or one left open, is read as it
// comes.
const maxQuoted = 300

// quotedSpans returns the spans [open, close] (token indexes) of the outermost quotations
// of toks, in order, that close within maxQuoted tokens and in the paragraph they open,
// with a word written against their closing mark: 「…」, 『…』, “…”, «…», and German
// „…“. A sentence mark inside one ends no sentence, as the sentence goes on after it
// (「…。」とあります, “1952. 7. 15.”라고).
func quotedSpans(text string, base int, toks []syntax.Token) [][2]int {
	var spans [][2]int
	var stack []int // open marks
	for i := range toks {
		f := toks[i].Form
		if i > 0 && newlines(text[toks[i-1].End-base:toks[i].Start-base]) >= 2 {
			stack = stack[:0] // a paragraph ends every quotation open
		}
		switch f {
		case "「", "『", "«", "„", "“":
			if f == "“" && len(stack) > 0 && toks[stack[len(stack)-1]].Form == "„" {
				break // „…“ closes below
			}
			stack = append(stack, i)
			continue
		}
		if len(stack) == 0 {
			continue
		}
		o := stack[len(stack)-1]
		switch open := toks[o].Form; {
		case f == "」" && open == "「", f == "』" && open == "『", f == "”" && open == "“",
			f == "»" && open == "«", f == "“" && open == "„":
			stack = stack[:len(stack)-1]
			// Only a quotation the sentence surely goes on after: a word written
			// against its closing mark (」とあります, ”라고), not a space, which may
			// begin the next sentence („Nein.“ Dann).
			goesOn := i+1 < len(toks) && toks[i+1].Start == toks[i].End && KindOf(toks[i+1].Form) != Punct
			if len(stack) == 0 && i-o <= maxQuoted && goesOn {
				spans = append(spans, [2]int{o, i})
			}
		}
	}
	return spans
}

// breakAfter reports whether a sentence ends after token i, or after the closing marks
// attached to it; last is the sentence's final token.
func breakAfter(text string, base int, toks []syntax.Token, i int) (last int, ok bool) {
	if i+1 >= len(toks) {
		return i, false
	}
	last = i
	term := Terminal(toks[i].Form) || greekQuestion(toks, i)
	if term {
		for last+1 < len(toks) && toks[last+1].Start == toks[last].End && Closer(toks[last+1].Form) &&
			(!initialQuote(toks[last+1].Form) || last+2 == len(toks) || toks[last+2].Start > toks[last+1].End) {
			last++ // a closing mark; “ closes („Nein.“ Dann) only before a space: 。“所以 opens
		}
		if last+1 == len(toks) {
			return last, false
		}
	}
	next := toks[last+1]
	gap := text[toks[last].End-base : next.Start-base]
	if newlines(gap) >= 2 {
		return last, true
	}
	if !term {
		// Thai and Lao mark no sentence's end: a line break between two of their
		// letters is the surest one there is.
		return last, newlines(gap) == 1 && unmarked(lastRune(toks[last].Form)) && unmarked(firstRune(next.Form))
	}
	r, _ := utf8.DecodeRuneInString(next.Form)
	switch {
	case gap == "" && !Spaceless(r) && !fullwidth(toks[i].Form):
		return last, false // a mark written against the next word
	case toks[i].Form != ".":
		return last, true
	case i > 0 && toks[i-1].End == toks[i].Start && utf8.RuneCountInString(toks[i-1].Form) == 1 && KindOf(toks[i-1].Form) == Word:
		return last, false // an initial: J. Smith, z. B.
	case unicode.IsLower(r):
		return last, false // an abbreviation before a lowercase word: ca. drei
	case i > 0 && toks[i-1].End == toks[i].Start && titles[toks[i-1].Form]:
		return last, false // a title or reference before a name or number: Dr. Schäfer, Art. 5
	}
	return last, true
}

// titles are the abbreviations of the languages that come before a name or a number
// and end no sentence there (Dr. Schäfer, Sra. Núñez, Nr. 5, Art. 16): titles, and the
// words that cite a numbered part. Forms are case-sensitive.
var titles = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`Dr Dres Prof Hr Hrn Fr Mme Mmes Mlle Mlles Me Mgr Pr
		Sr Sra Srta Sres Dra Dña Dn Ud Uds Sig Sigg Dott Ing Mag Dipl Pfr St Sto Sta
		Nr No Nº Art Abs Bd Abb Tab Kap Vol Av Avda Pl
		γεν αρ σελ κ κα Δρ Καθ`) {
		m[w] = true
	}
	return m
}()

// unmarked reports whether r is a letter of a script that has no mark to end a sentence
// (Thai, Lao), where a line break ends one.
func unmarked(r rune) bool { return unicode.In(r, unicode.Thai, unicode.Lao) }

// firstRune and lastRune return the first and the last rune of s.
func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }
func lastRune(s string) rune  { r, _ := utf8.DecodeLastRuneInString(s); return r }

// Terminal reports whether form ends a sentence: . ! ? … and their kin in other scripts,
// alone or repeated (?!, ...).
func Terminal(form string) bool {
	for _, r := range form {
		switch r {
		case '.', '!', '?', '…', '。', '！', '？', '｡', '؟', '۔', '।', '॥', '‼', '⁇', '⁈', '⁉', '︒', '﹒', '．':
		default:
			return false
		}
	}
	return form != ""
}

// greekQuestion reports whether token i is a semicolon that ends a Greek question, as
// Greek writes its question mark (U+037E, or the semicolon it decomposes to): after a
// word of Greek script.
func greekQuestion(toks []syntax.Token, i int) bool {
	if f := toks[i].Form; i == 0 || f != ";" && f != "\u037e" {
		return false
	}
	return unicode.Is(unicode.Greek, lastRune(toks[i-1].Form))
}

// fullwidth reports whether the terminal mark form is one of the scripts without spaces
// (。！？), which ends a sentence with or without a space after it.
func fullwidth(form string) bool {
	r, _ := utf8.DecodeRuneInString(form)
	return r >= 0x3000
}

// initialQuote reports whether form is a quotation mark of Unicode category Pi (“ ‘ «),
// which closes in German and opens in most other languages.
func initialQuote(form string) bool {
	r, _ := utf8.DecodeRuneInString(form)
	return unicode.Is(unicode.Pi, r)
}

// Closer reports whether form closes a quotation or a bracket (a German „…“ closes on
// “, so every initial quote counts too).
func Closer(form string) bool {
	for _, r := range form {
		if !unicode.In(r, unicode.Pe, unicode.Pf, unicode.Pi) && r != '"' && r != '\'' && r != '」' && r != '』' {
			return false
		}
	}
	return form != ""
}

// newlines counts the line breaks in s.
func newlines(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}
