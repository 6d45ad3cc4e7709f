package tokenize

import (
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/syntax"
)

// Sentences tokenizes text and splits it into sentences. The tokens are those of Tokens,
// with offsets into text; the sentences share one backing array (each is capped, so
// appending to one does not overwrite the next).
//
// A sentence ends:
//   - after . ? ! ... or … (and any closing quotes or brackets attached to it, or an
//     emoticon) when the next word does not begin with continuing punctuation, nor with a
//     lowercase letter unless a bare . ? or ! precedes it ("it ended. then"), and the
//     mark is not inside a short bracket: after an opening bracket of the sentence that a
//     closing one follows on the same line, within bracketReach bytes and with no other
//     mark or opening bracket before it ("(pop. 256,000)", "(approx. five km)");
//   - after an abbreviation (Inc., U.S., a.m.) or an initial only when the next word is a
//     common sentence starter (The, He, In, …) or begins a new line; never after a title
//     (Mr., Dr., Gen.);
//   - at a paragraph break (a blank line), always;
//   - at a line break, unless the next line begins with a lowercase letter, the line
//     ends with a comma, semicolon, colon, hyphen or dash, or the line, counted from its
//     start, ends with a word after at least wrapWidth characters (hard-wrapped text:
//     "… decoding nests in" and "99.7% of …" are one sentence, also when the sentence
//     began in the middle of the line; a title or a list item without a period ends at
//     its line).
func Sentences(text string) []syntax.Sentence {
	_, out := AppendSentences(nil, nil, text)
	return out
}

// AppendSentences is Sentences into buffers a caller reuses: it appends the tokens of
// text to toks and its sentences to sents, and returns both. The sentences share the
// tokens' backing array, so they hold until toks is appended to again.
func AppendSentences(toks []syntax.Token, sents []syntax.Sentence, text string) ([]syntax.Token, []syntax.Sentence) {
	base := len(toks)
	toks = AppendTokens(toks, text)
	all := toks
	toks = toks[base:]
	out := sents
	begin, open := 0, 0 // open: the brackets opened and not closed since begin
	for i := 0; i < len(toks); i++ {
		switch toks[i].Form {
		case "(", "[":
			open++
		case ")", "]":
			open = max(open-1, 0)
		}
		if last, ok := breakAfter(text, toks, i, open > 0); ok {
			out = append(out, syntax.Sentence{Tokens: toks[begin : last+1 : last+1]})
			begin, i, open = last+1, last, 0
		}
	}
	if begin < len(toks) {
		out = append(out, syntax.Sentence{Tokens: toks[begin:len(toks):len(toks)]})
	}
	return all, out
}

// breakAfter reports whether a sentence ends after token i or after the closing
// punctuation attached to it; last is the final token of that sentence. open tells
// whether a bracket opened in the sentence is still open at token i.
func breakAfter(text string, toks []syntax.Token, i int, open bool) (last int, ok bool) {
	if i+1 >= len(toks) {
		return i, false
	}
	t := toks[i]
	kind := terminal(t.Form)
	last = i
	if kind != notTerminal {
		for last+1 < len(toks) {
			nx := toks[last+1]
			if !(nx.Start == toks[last].End && isCloser(nx.Form)) &&
				!(emoticon(nx.Form) == len(nx.Form) && newlines(text[toks[last].End:nx.Start]) == 0) {
				break
			}
			last++ // closing quote or bracket, or an emoticon: "Great!" :)
		}
		if last+1 == len(toks) {
			return last, false
		}
	}
	next := toks[last+1]
	gap := text[toks[last].End:next.Start]
	lines := newlines(gap)
	if lines >= 2 {
		return last, true
	}
	if open && lines == 0 && kind != notTerminal && closesSoon(text, toks, last+1) {
		return last, false // "(pop. 256,000)", "(approx. five km)"
	}
	switch kind {
	case stop:
		// A full stop, ? or ! right before a lowercase word still ends a sentence (web text:
		// "thanks! see you"); inside a quotation the closing quote follows and it does not
		// ("Why?" he asked). "..." before a lowercase word does not.
		if last == i && gap != "" && startsLower(next.Form) && (t.Form == "." || strings.Trim(t.Form, "?!") == "") {
			return last, true
		}
		if lines == 1 && last == i && t.Form == "." && speakerLine(text, toks, i) {
			return last, false // "OPHELIA.\nGood my lord, …": a play's speaker with the speech
		}
		if lines == 0 && attribution(text, toks, last+1) {
			return last, false // `"… hobby." — Zoe Lefevre`: a quotation with its source
		}
		return last, gap != "" && canStart(text, toks, last+1)
	case abbreviation:
		if gap == "" || abbrevClass(strings.TrimSuffix(t.Form, ".")) == abbrTitle {
			return last, false
		}
		return last, isStarter(next.Form) || (lines == 1 && canStart(text, toks, last+1))
	}
	if lines == 1 && opensLine(text, toks, i+1) {
		return i, true
	}
	return i, lines == 1 && canStart(text, toks, i+1) && !continues(t.Form) && !wrapped(text, t.End)
}

// opensLine reports whether the line that begins at token j opens with a marker that
// begins a new sentence whatever the line before it: a speaker's label ("Customer:",
// "Agent (Tom):", "Dr. Ruiz:"), a bracketed time ("[10:03]"), a list item's bullet or
// number ("- ", "•", "2.", "3)") or a quoted e-mail's ">". A chat, a list or a transcript
// whose lines have no final punctuation would otherwise run its lines together, and a
// snippet put one speaker's words after another's label.
func opensLine(text string, toks []syntax.Token, j int) bool {
	f := toks[j].Form
	spaced := blankAfter(text, toks[j].End)
	switch f {
	case "-", "*", "•", "‣", "◦", "–", "—", "·":
		return spaced
	case ">", "&gt;":
		return true
	case "[", "(":
		return j+1 < len(toks) && toks[j+1].Start == toks[j].End && (clockTime(toks[j+1].Form) || dateStamp(toks[j+1].Form))
	}
	if dateStamp(f) {
		return true // a chat export's message: "12/03/2024, 19:03 - Jane: …"
	}
	if itemNumber(f) && j+1 < len(toks) && toks[j+1].Start == toks[j].End && (toks[j+1].Form == "." || toks[j+1].Form == ")") {
		return blankAfter(text, toks[j+1].End) // "2. " or "3) " as two tokens
	}
	if n := len(f); n > 1 && (f[n-1] == '.' || f[n-1] == ')') && itemNumber(f[:n-1]) {
		return spaced // "2." as one token
	}
	return speakerLabel(text, toks, j)
}

// blankAfter reports whether a space or a tab follows text[:end]. opensLine reads the
// text, not the next token, so that its answer holds in a part of the text cut right
// after that blank (SentenceEnd).
func blankAfter(text string, end int) bool {
	return end < len(text) && (text[end] == ' ' || text[end] == '\t')
}

// dateStamp reports whether form is a date of digits, as a chat export opens each of its
// messages with: three groups of digits joined by "/", "." or "-" ("12/03/2024",
// "2024-03-04", "3.12.24").
func dateStamp(form string) bool {
	parts, n := 0, 0
	for i := 0; i <= len(form); i++ {
		if i < len(form) && form[i] >= '0' && form[i] <= '9' {
			n++
			continue
		}
		if n == 0 || n > 4 {
			return false
		}
		parts, n = parts+1, 0
		if i < len(form) && form[i] != '/' && form[i] != '.' && form[i] != '-' {
			return false
		}
	}
	return parts == 3
}

// itemNumber reports whether form is one or two digits, a list item's number.
func itemNumber(form string) bool { return len(form) <= 2 && isDigits(form) }

// clockTime reports whether form is a time of day, h:mm or hh:mm, with seconds or not.
func clockTime(form string) bool {
	h, rest, ok := strings.Cut(form, ":")
	return ok && len(h) <= 2 && isDigits(h) && len(rest) >= 2 && isDigits(rest[:2])
}

// maxLabelTokens is the most tokens of a speaker's label before its colon.
const maxLabelTokens = 6

// speakerLabel reports whether the line that begins at token j begins with a speaker's
// label: a capitalized word, then at most maxLabelTokens tokens of capitalized words,
// initials and a bracketed part, on the line, then a colon attached to the last of them
// and a space or tab after it ("Agent (Tom): We fixed …"; not "Note:" at a line's end).
func speakerLabel(text string, toks []syntax.Token, j int) bool {
	r, _ := utf8.DecodeRuneInString(toks[j].Form)
	if !unicode.IsUpper(r) {
		return false
	}
	depth := 0
	for k := j + 1; k < len(toks) && k <= j+maxLabelTokens; k++ {
		if newlines(text[toks[k-1].End:toks[k].Start]) > 0 {
			return false
		}
		f := toks[k].Form
		switch {
		case f == ":":
			return depth == 0 && toks[k].Start == toks[k-1].End && blankAfter(text, toks[k].End)
		case f == "(":
			depth++
		case f == ")":
			depth--
		case f == "." || f == "&" || f == "-" || f == "'s":
		case depth > 0:
		default:
			if r, _ := utf8.DecodeRuneInString(f); !unicode.IsUpper(r) && !isDigitByte(f[0]) {
				return false
			}
		}
	}
	return false
}

// speakerLine reports whether the period at token i ends a line that names a play's
// speaker: from the line's start, one to three words of capital letters (OPHELIA, LADY
// MACBETH, FIRST CLOWN), the period attached to the last, at most maxSpeakerBytes in all.
// LineBreak and SentenceEnd refuse a split after such a line (capsLine).
func speakerLine(text string, toks []syntax.Token, i int) bool {
	if i == 0 || toks[i].Start != toks[i-1].End {
		return false
	}
	k := i - 1
	for ; k > 0 && i-k < 3 && newlines(text[toks[k-1].End:toks[k].Start]) == 0; k-- {
	}
	if k > 0 && newlines(text[toks[k-1].End:toks[k].Start]) == 0 {
		return false // more than three words on the line
	}
	if toks[i].End-toks[k].Start > maxSpeakerBytes || !capsLine(text, toks[i].Start) {
		return false // capsLine: the words are capital letters alone
	}
	for j := k; j < i; j++ {
		if len(toks[j].Form) < 2 {
			return false
		}
	}
	return true
}

// maxSpeakerBytes is the longest line that names a speaker, its period included.
const maxSpeakerBytes = 40

// capsLine reports whether the line of text that ends at end (before a period) may name
// a speaker (speakerLine): from its start (after a line break of breaks, or the text's),
// fewer than 2·maxSpeakerBytes bytes of capital ASCII letters, spaces and tabs, two
// letters at least.
func capsLine(text string, end int) bool {
	letters := 0
	for b := end; b > 0; {
		r, size := utf8.DecodeLastRuneInString(text[:b])
		switch {
		case breaks(r) > 0:
			return letters >= 2
		case end-b >= 2*maxSpeakerBytes:
			return false
		case r >= 'A' && r <= 'Z':
			letters++
		case r == ' ' || r == '\t':
		default:
			return false
		}
		b -= size
	}
	return letters >= 2
}

// capsRest reports whether the rest of the line from k, read alone, may name a speaker
// (capsLine): capitals, spaces and tabs, then a period that ends the line.
func capsRest(text string, k int) bool {
	for e := k; e < len(text) && e-k <= 2*maxSpeakerBytes; e++ {
		if text[e] == '.' {
			r, _ := utf8.DecodeRuneInString(text[e+1:])
			return breaks(r) > 0 && capsLine(text[k:e], e-k)
		}
		if c := text[e]; !(c >= 'A' && c <= 'Z' || c == ' ' || c == '\t') {
			return false
		}
	}
	return false
}

// bracketReach is how far, in bytes from the start of the word after a sentence mark, a
// closing bracket on the same line keeps the mark inside the bracket that it closes.
const bracketReach = 32

// closesSoon reports whether a closing bracket follows token j on its line, beginning at
// most bracketReach bytes after it, with no opening bracket or sentence mark before it:
// the mark before token j is inside a short bracket ("(pop. 256,000)").
func closesSoon(text string, toks []syntax.Token, j int) bool {
	for k := j; k < len(toks) && toks[k].Start-toks[j].Start <= bracketReach; k++ {
		if k > j && newlines(text[toks[k-1].End:toks[k].Start]) > 0 {
			return false
		}
		switch f := toks[k].Form; {
		case f == ")" || f == "]":
			return true
		case f == "(" || f == "[" || terminal(f) != notTerminal:
			return false
		}
	}
	return false
}

// wrapWidth is the length in characters of a line, from its start (its indentation
// included), at which a line that ends on a word, not on a sentence's final
// punctuation, is read as prose wrapped at a fixed width (mail, plain text and Markdown
// wrap at 70 to 100 columns), not as a title or a list item: a sentence goes on across
// its line break even when the next line begins with a capital or a digit, and even
// when it began in the middle of the line ("… software for all its users.  We, the Free
// Software Foundation, use the" / "GNU General Public License …").
const wrapWidth = 55

// wrapped reports whether the line of text that ends at end (before its line break) is
// wrapped prose: from its start to end, it holds at least wrapWidth characters. It reads
// the line alone, back from end. A split of text at a line break (LineBreak, and
// SentenceEnd at a mark that ends its line) or a blank line begins a line, so it leaves
// the answer unchanged; SentenceEnd, which may also split a line in its middle, accepts no
// such split unless the rest of the line alone decides as the whole line does
// (lineDecided). It costs O(line).
func wrapped(text string, end int) bool {
	start := end // after the line break before end, as newlines counts them
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if breaks(r) > 0 {
			break
		}
		start -= size
	}
	if end-start < wrapWidth { // fewer bytes, so fewer characters
		return false
	}
	return utf8.RuneCountInString(text[start:end]) >= wrapWidth
}

// lineDecided reports whether splitting text at k, in the middle of a line (the first
// token after a sure sentence end), leaves the splitter's decision at the end of that line
// as it is in the whole text. That decision reads the whole line only where the line ends
// on a word before one line break and a line that may begin a sentence (wrapped), and the
// part from k then decides alike when it alone holds wrapWidth characters. So it reports
// true when no line break follows k, when the rest of the line from k holds wrapWidth
// characters, when the line ends with a period (a sentence's or an abbreviation's, where
// the splitter asks nothing of the line), when a blank line or the end of the text follows
// it, or when the next line begins with a lowercase letter (which begins no sentence);
// false otherwise, which is never wrong: only a split refused. It reads at most lineScan
// bytes after k, and refuses a line that goes on beyond them.
func lineDecided(text string, k int) bool {
	// The usual cases, read eight bytes at a time: no line break in the next wrapWidth
	// bytes, all printable ASCII, or in the next 4·wrapWidth, which hold wrapWidth
	// characters at least; either up to a last one that is not blank.
	if e := k + wrapWidth; e <= len(text) && text[e-1] > ' ' && text[e-1] < 0x7f && printableASCII(text[k:e]) {
		return true
	}
	if e := k + 4*wrapWidth; e <= len(text) && text[e-1] > ' ' && text[e-1] < 0x7f && noBreak(text[k:e]) {
		return true
	}
	if ok, sure := shortLine(text, k); sure {
		return ok
	}
	n, last := 0, k // characters from k, and the end of the last one that is not blank
	for i := k; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if breaks(r) > 0 {
			return decidedAt(text, k, last, i)
		}
		i += size
		n++
		if r > ' ' && r != 0x7f && (r < utf8.RuneSelf || !unicode.IsSpace(r) && !unicode.IsControl(r)) {
			last = i
			if n >= wrapWidth {
				return true // the rest of the line alone holds wrapWidth characters
			}
		}
		if i-k > lineScan {
			return false
		}
	}
	return true // no line break follows
}

// shortLine is lineDecided for the usual line of wrapped text, printable ASCII that ends
// within 4·wrapWidth bytes with "\n" or "\r\n": it reports the answer and true, or false
// and false for any other line (lineDecided then reads it character by character). It
// finds the line's end with strings.IndexByte.
func shortLine(text string, k int) (ok, sure bool) {
	e := strings.IndexByte(text[k:min(len(text), k+4*wrapWidth)], '\n')
	if e < 0 {
		return false, false
	}
	e += k
	line := strings.TrimSuffix(text[k:e], "\r")
	if !printableASCII(line) {
		return false, false
	}
	content := strings.TrimRight(line, " ")
	if len(content) >= wrapWidth {
		return true, true
	}
	return decidedAt(text, k, k+len(content), k+len(line)), true
}

// decidedAt is lineDecided's answer for the line from k whose characters that are not
// blank end at last, and whose line break is at i, when that line holds fewer than
// wrapWidth characters: true when it ends with a period, or a blank line, the end of the
// text or a line that begins with a lowercase letter follows.
func decidedAt(text string, k, last, i int) bool {
	if last > k && text[last-1] == '.' {
		return true
	}
	gap := i
	for gap < len(text) {
		r, size := utf8.DecodeRuneInString(text[gap:])
		if r != ' ' && r != '\t' && breaks(r) == 0 {
			break
		}
		gap += size
	}
	if gap == len(text) || newlines(text[i:gap]) >= 2 {
		return true
	}
	next, _ := utf8.DecodeRuneInString(text[gap:])
	return unicode.IsLower(next)
}

// printableASCII reports whether every byte of s is printable ASCII (from ' ' to '~'):
// no line break, no other control character and no byte of a longer rune. It reads s
// eight bytes at a time.
func printableASCII(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; len(s) >= 8; s = s[8:] {
		x := binary.LittleEndian.Uint64([]byte(s[:8]))
		// A byte below 0x20, or at or above 0x7f (0x7f + 1 = 0x80), sets a high bit.
		if (x-0x20*ones)&^x&highs|(x+ones)&highs|x&highs != 0 {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// noBreak reports false when s may hold a line break (breaks): a byte from '\t' to '\r'
// or below, or 0xE2 (the first byte of U+2028 and U+2029); a false answer may be wrong,
// true never is. It reads s eight bytes at a time.
func noBreak(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; len(s) >= 8; s = s[8:] {
		x := binary.LittleEndian.Uint64([]byte(s[:8]))
		y := x ^ 0xE2*ones // a zero byte where x has 0xE2
		// A byte of x below 0x0E, or of y below 0x01, sets the high bit of its term (or
		// of a higher byte's: only a false alarm).
		if (x-0x0E*ones)&^x&highs|(y-ones)&^y&highs != 0 {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= '\r' || c == 0xE2 {
			return false
		}
	}
	return true
}

// keepsBang reports whether the word keeps a "!" that follows it as part of its token
// (Yahoo!, Jeopardy!), so that the mark ends no sentence by itself.
func keepsBang(word string) bool { return word == "Yahoo" || word == "Jeopardy" }

// lettersBefore returns the ASCII letters of text that end at end.
func lettersBefore(text string, end int) string {
	a := end
	for a > 0 && isASCIILetter(text[a-1]) {
		a--
	}
	return text[a:end]
}

// lineScan bounds the bytes that lineDecided reads.
const lineScan = 4 << 10

// Kinds of sentence-final tokens.
const (
	notTerminal  = iota
	stop         // . ? ! ... …
	abbreviation // a word with its period: Inc. U.S. W.
)

func terminal(form string) int {
	if form == "" {
		return notTerminal
	}
	if strings.Trim(form, ".?!…") == "" {
		return stop // . ? ! ... !!! …
	}
	if form[len(form)-1] == '.' {
		return abbreviation
	}
	return notTerminal
}

// closingMarks are the quotes and brackets that may close a sentence after its mark.
const closingMarks = "\"')]}’”»›"

// EndsSentence reports whether text ends as a finished sentence does: with . ? ! or …,
// before any closing quotes and brackets ("go.", "(yes!)", "“Really?”"). It reads the
// text's last characters only, not whether the mark is an abbreviation's.
func EndsSentence(text string) bool {
	text = strings.TrimRight(text, closingMarks)
	return strings.HasSuffix(text, ".") || strings.HasSuffix(text, "?") || strings.HasSuffix(text, "!") || strings.HasSuffix(text, "…")
}

// isCloser reports whether a token attached after a full stop still belongs to its sentence.
func isCloser(form string) bool {
	switch form {
	case "''", `"`, "'", "’", "”", "»", "›", ")", "]", "}":
		return true
	}
	return false
}

// canStart reports whether token i can begin a sentence: it does not begin with a
// lowercase letter and is not punctuation that continues one.
func canStart(text string, toks []syntax.Token, i int) bool {
	f := toks[i].Form
	r, _ := utf8.DecodeRuneInString(f)
	if unicode.IsLower(r) {
		return false
	}
	switch f {
	case ",", ";", ":", ".", "?", "!", ")", "]", "}", "''", "%", "n't", "'s", "…":
		return false
	}
	return !strings.HasPrefix(f, "..")
}

// attribution reports whether token j, on the line of the sentence mark before it, is a
// dash with a blank after it and a capitalized word after that: the source of a quotation
// or an epigraph (`"Every new medium starts as somebody's hobby." — Zoe Lefevre, 2009`,
// `-- Mark Twain`), which names whose words they are and is no sentence alone.
func attribution(text string, toks []syntax.Token, j int) bool {
	switch toks[j].Form {
	case "—", "–", "―", "--":
	default:
		return false
	}
	if j+1 >= len(toks) || !blankAfter(text, toks[j].End) || newlines(text[toks[j].End:toks[j+1].Start]) > 0 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(toks[j+1].Form)
	return unicode.IsUpper(r)
}

// startsLower reports whether form begins with a lowercase letter (n't aside).
func startsLower(form string) bool {
	r, _ := utf8.DecodeRuneInString(form)
	return unicode.IsLower(r) && form != "n't"
}

// continues reports whether a line ending with form continues on the next line.
func continues(form string) bool {
	switch form {
	case ",", ";", ":", "-", "--", "–", "—", "(", "[", "{", "``", "“", "‘", "&":
		return true
	}
	return false
}

// isStarter reports whether form is a capitalized common sentence starter.
func isStarter(form string) bool {
	r, _ := utf8.DecodeRuneInString(form)
	if !unicode.IsUpper(r) || len(form) > 12 {
		return false
	}
	var b [12]byte
	for i := 0; i < len(form); i++ {
		c := form[i]
		if 'A' <= c && c <= 'Z' {
			c |= 0x20
		}
		b[i] = c
	}
	return starters[string(b[:len(form)])]
}

// newlines counts the line breaks in a gap between tokens (\r\n counts once).
func newlines(gap string) int {
	n := 0
	for i, r := range gap {
		if r == '\r' && strings.HasPrefix(gap[i+1:], "\n") {
			continue
		}
		n += breaks(r)
	}
	return n
}

// breaks is the number of line breaks that the rune r is: 1 for \n, \v, \f, \r and
// U+2028 LINE SEPARATOR, 2 for U+2029 PARAGRAPH SEPARATOR (a paragraph ends there, as
// after a blank line), 0 for any other rune. It is the one list of the line-break
// characters of the sentence splitter.
func breaks(r rune) int {
	switch r {
	case '\n', '\v', '\f', '\r', '\u2028':
		return 1
	case '\u2029':
		return 2
	}
	return 0
}

// LineBreak reports whether the line break at text[p] (a '\n') certainly ends a sentence,
// whatever the text before and after the line: the line ends, before blanks (spaces, tabs,
// a carriage return), with ! ?, a period that no title keeps (Mr. does not end a
// sentence), or a letter, a digit, " or ) on a line that is not wrapped prose (wrapped),
// and the next line begins, after spaces or tabs, with a capital letter, a digit, " or (.
// It then returns k = p+1, where the next line begins (its indentation included, so that
// the line reads as wide in text[k:] as in text: wrapped):
// AppendSentences(text) gives the tokens and sentences of text[:k] followed by those of
// text[k:] (offsets shifted), because no token spans whitespace, the tokenizer looks
// across a line break neither back nor ahead, and the sentence splitter ends a sentence
// at such a break (see Sentences; FuzzLineBreak). It reads a few bytes around p, and the
// letters before a final period.
func LineBreak(text string, p int) (k int, ok bool) {
	j := p
	if j > 0 && text[j-1] == '\r' {
		j--
	}
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	k = p + 1
	f := k // the next line's first character after spaces and tabs
	for f < len(text) && (text[f] == ' ' || text[f] == '\t') {
		f++
	}
	if j == 0 || f == len(text) {
		return 0, false
	}
	if c := text[f]; !isUpperByte(c) && !isDigitByte(c) && c != '"' && c != '(' {
		return 0, false
	}
	switch c := text[j-1]; {
	case c == '!' && (j < 2 || text[j-2] != '!') && keepsBang(lettersBefore(text, j-1)):
		// The line ends on a word that keeps its mark (Yahoo!): it ends its sentence
		// unless the line is wrapped prose, as a line that ends on a word.
		if wrapped(text, j) {
			return 0, false
		}
		return k, true
	case c == '!', c == '?':
		return k, true
	case isASCIILetter(c), isDigitByte(c), c == '"', c == ')':
		// A line that ends on a word, or on a quote or bracket, ends its sentence unless
		// it is wrapped prose, which the line alone tells (wrapped); a quote or bracket
		// after a sure sentence end (SentenceEnd: "go." but not "www.a(b.)") ends it
		// whatever the line.
		if c == '"' || c == ')' {
			b := j - 1
			for b > 0 && (text[b] == '"' || text[b] == ')') {
				b--
			}
			if m := text[b]; m == '.' || m == '?' || m == '!' {
				if e, ok := SentenceEnd(text, b); ok && e == k {
					return k, true
				}
			}
		}
		if wrapped(text, j) {
			return 0, false
		}
		return k, true
	case c == '.':
		if capsLine(text, j-1) {
			return 0, false // a play's speaker goes with the next line (speakerLine)
		}
		// A title keeps its period and never ends a sentence: refuse any run of ASCII
		// letters before the period that ends with one, and a word of other letters.
		w := j - 1
		for w > 0 && isASCIILetter(text[w-1]) {
			w--
		}
		if w > 0 && text[w-1] >= utf8.RuneSelf {
			return 0, false
		}
		// A title is at most 8 letters and begins with a capital or v (vs.): look up only
		// such suffixes.
		for a := max(w, j-9); a < j-1; a++ {
			if c := text[a]; (isUpperByte(c) || c == 'v') && abbrevClass(text[a:j-1]) == abbrTitle {
				return 0, false
			}
		}
		return k, true
	}
	return 0, false
}

// SentenceEnd reports whether the full stop, question mark or exclamation mark at text[p]
// certainly ends a sentence, whatever the text before and after its word: the mark ends a
// run of . ? and ! that is followed by closing quotes or brackets (" ' ) ] } ’ ” ») and
// blanks (spaces, tabs, line breaks, carriage returns), and then by a capital letter, a
// digit, " or ( and a letter or digit; the word before the run is plain (ASCII letters,
// digits and - ' " ( ) [ ] , % $ &, up to blanks, at most 64 bytes: no URL, e-mail
// address or dotted abbreviation), and a lone . or ! does not belong to it (an
// abbreviation or initial keeps its period: Mr., Inc., U.S., e.g., A.; Yahoo! keeps its
// mark). In the middle of a line, no ) or ] may follow within bracketReach bytes of the
// next word (bracketAhead: the mark may be inside a bracket), and the rest of the line
// must decide alone as the whole line does (lineDecided: not where wrapped prose would be
// split from its start). It then returns k, where the next token begins, or where its
// line begins when a line break comes between (the indentation then stays with the line:
// wrapped): AppendSentences(text) gives the tokens and sentences of text[:k] followed by
// those of text[k:] (offsets shifted), because the mark is a token of its own that ends a
// sentence before a word that can begin one (see Sentences), no token spans the blanks,
// and the tokenizer's look back from the next word and ahead from the plain word do not
// change their tokens (FuzzSentenceEnd). It answers "not sure" (false) for anything else.
// It reads the run, the closers and blanks after it, at most 65 bytes before it and, in
// the middle of a line, at most lineScan bytes of the rest of the line.
func SentenceEnd(text string, p int) (k int, ok bool) {
	if p < 0 || p >= len(text) || !isMark(text[p]) {
		return 0, false
	}
	j := p + 1
	for j < len(text) {
		n := closerLen(text[j:])
		if n == 0 {
			break
		}
		j += n
	}
	k = j
	for k < len(text) && isBlank(text[k]) {
		k++
	}
	if k == j || k == len(text) || !opensSentence(text[k:]) {
		return 0, false
	}
	begin := k // where the text after the split begins
	b := strings.LastIndexAny(text[j:k], "\n\r")
	if b >= 0 {
		begin = j + b + 1 // the start of the next token's line, its indentation included
	} else if bracketAhead(text, k) {
		return 0, false // the mark may be inside a bracket that closes soon (closesSoon)
	}
	r := p // the run of marks
	for r > 0 && isMark(text[r-1]) {
		r--
	}
	w := r // the letters and digits before it
	for w > 0 && r-w < maxPlain && isASCIIAlnum(text[w-1]) {
		w--
	}
	word := text[w:r]
	if strings.EqualFold(word, "www") {
		return 0, false // www. may begin a URL
	}
	if r == p {
		switch {
		case text[p] == '.' && abbrevClass(word) != abbrNone:
			return 0, false
		case text[p] == '!' && keepsBang(word):
			return 0, false
		}
	}
	for a := w; a > 0 && !isBlank(text[a-1]); a-- {
		if r-a >= maxPlain || !isPlain(text[a-1]) {
			return 0, false
		}
	}
	if b >= 0 && r == p && text[p] == '.' && capsLine(text, p) {
		return 0, false // a play's speaker goes with the next line (speakerLine)
	}
	if b < 0 && capsRest(text, k) {
		return 0, false // the rest of the line alone would name a speaker (speakerLine)
	}
	if b < 0 && !lineDecided(text, k) {
		return 0, false // a split in the middle of a line that wrapped would read alone
	}
	return begin, true
}

// bracketAhead reports whether a closing bracket ) or ] stands in text from k on, on the
// same line, at most bracketReach bytes after k, before any word that opens a bracket:
// where a bracket opened before the mark would keep the splitter from ending the sentence
// (closesSoon), whatever came before.
func bracketAhead(text string, k int) bool {
	for x := k; x < len(text) && x <= k+bracketReach; x++ {
		switch text[x] {
		case '\n', '\r':
			return false
		case ')', ']':
			return true
		case '(', '[':
			if (x == k || isBlank(text[x-1])) && x+1 < len(text) && isASCIIAlnum(text[x+1]) {
				return false // a word that opens a bracket, where closesSoon stops
			}
		}
	}
	return false
}

// maxPlain is the longest plain word SentenceEnd takes before a run of marks.
const maxPlain = 64

func isMark(c byte) bool  { return c == '.' || c == '?' || c == '!' }
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isPlain reports whether c may stand in the word before a run of marks for SentenceEnd:
// none of it makes a URL, an e-mail address, an emoticon or a dotted word.
func isPlain(c byte) bool {
	switch c {
	case '-', '\'', '"', '(', ')', '[', ']', ',', '%', '$', '&':
		return true
	}
	return isASCIIAlnum(c)
}

// closerLen returns the length of the closing quote or bracket s begins with, or 0.
func closerLen(s string) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '"', '\'', ')', ']', '}':
		return 1
	case 0xE2: // ’ ”
		if strings.HasPrefix(s, "’") || strings.HasPrefix(s, "”") {
			return 3
		}
	case 0xC2: // »
		if strings.HasPrefix(s, "»") {
			return 2
		}
	}
	return 0
}

// opensSentence reports whether the token s begins with can begin a sentence after a
// mark and blanks, and is no emoticon (XD) that would stay with the sentence before: a
// capital letter, a digit, ", or ( before a letter or digit.
func opensSentence(s string) bool {
	switch c := s[0]; {
	case isUpperByte(c):
		return !strings.HasPrefix(s, "XD")
	case isDigitByte(c), c == '"':
		return true
	case c == '(':
		return len(s) > 1 && isASCIIAlnum(s[1])
	}
	return false
}

// Turns of a transcript or a chat: how far TurnLabel looks back for its turn's label.
const (
	turnBytes      = 4096 // the most bytes of the turn before the sentence
	labelLineBytes = 160  // the most bytes of a line read for its label
)

// TurnLabel returns the span [start, end) of text that labels the turn of a transcript or
// a chat that the sentence beginning at byte at belongs to, when that sentence is not the
// turn's first: a line of the sentence's paragraph (no blank line between, at most
// turnBytes before it) that begins with a speaker's label (a capitalized word and at most
// six more of capitalized words, initials and a bracketed part, and a colon: "LEFÈVRE:",
// "Agent (Tom):"), after a bracketed time or not ("[00:01:06] LEFÈVRE:"). The span runs
// from the line's first token to the colon; name is where the speaker's name begins,
// after the time (start when there is none). It reports false for the turn's first
// sentence, which begins with the label itself, where no line of the paragraph before the
// sentence begins with one, and where no other line near the label begins with one
// (otherTurn: a document's lone "Email:" line is no turn). It reads the lines between at
// and the label, and those around the label.
func TurnLabel(text string, at int) (start, name, end int, ok bool) {
	if at <= 0 || at > len(text) {
		return 0, 0, 0, false
	}
	ls := strings.LastIndexByte(text[:at], '\n') + 1
	for at-ls <= turnBytes {
		if s, n, e, ok := lineLabel(text, ls); ok {
			if s >= at || !otherTurn(text, ls) {
				return 0, 0, 0, false // the turn's first sentence holds its label; or no transcript
			}
			return s, n, e, true
		}
		if ls == 0 {
			return 0, 0, 0, false
		}
		prev := strings.LastIndexByte(text[:ls-1], '\n') + 1 // the line before
		if strings.TrimSpace(text[prev:ls-1]) == "" {
			return 0, 0, 0, false // a blank line: the paragraph begins at ls
		}
		ls = prev
	}
	return 0, 0, 0, false
}

// headerField reports whether form is the name of a field of an e-mail's or a post's
// header ("From:", "Email:", "Subject:"), whose lines read as labels but name no speaker.
func headerField(form string) bool {
	switch strings.ToLower(form) {
	case "from", "to", "cc", "bcc", "subject", "date", "sent", "email", "e-mail", "reply-to",
		"newsgroups", "organization", "tel", "phone", "fax", "re", "fw", "fwd", "attachments", "importance":
		return true
	}
	return false
}

// stampPunct reports whether form is punctuation of a line's time stamp: a bracket, a
// comma or a dash.
func stampPunct(form string) bool {
	switch form {
	case "[", "]", "(", ")", ",", "-", "–", "—":
		return true
	}
	return false
}

// otherTurn reports whether another line than the one beginning at byte ls, within
// turnBytes before or after it, opens with a speaker's label: the line is a turn of a
// transcript or a chat, not a document's one "Email:" or "Note:" line.
func otherTurn(text string, ls int) bool {
	for i := ls - 1; i > 0 && ls-i <= turnBytes; {
		start := strings.LastIndexByte(text[:i], '\n') + 1
		if _, _, _, ok := lineLabel(text, start); ok {
			return true
		}
		i = start - 1
	}
	for i := ls; i < len(text) && i-ls <= turnBytes; {
		next := strings.IndexByte(text[i:], '\n')
		if next < 0 {
			break
		}
		i += next + 1
		if _, _, _, ok := lineLabel(text, i); ok {
			return true
		}
	}
	return false
}

// lineLabel returns the span of the speaker's label that the line of text beginning at
// byte ls begins with (opensLine's speakerLabel, after a time or date stamp or not:
// "[00:01:06]", "12/03/2024, 19:03 -"), from the line's first token to the colon, and
// where the name begins.
func lineLabel(text string, ls int) (start, name, end int, ok bool) {
	le := len(text)
	if i := strings.IndexByte(text[ls:], '\n'); i >= 0 {
		le = ls + i
	}
	line := text[ls:min(le, ls+labelLineBytes)]
	if line == "" || !strings.Contains(line, ":") {
		return 0, 0, 0, false
	}
	toks := Tokens(line)
	j := 0 // after the stamp of a transcript's or a chat's line: "[00:01:06]", "12/03/2024, 19:03 -"
	for j < len(toks) && (clockTime(toks[j].Form) || dateStamp(toks[j].Form) || stampPunct(toks[j].Form)) {
		j++
	}
	if j >= len(toks) || !speakerLabel(line, toks, j) || headerField(toks[j].Form) {
		return 0, 0, 0, false
	}
	for k := j + 1; k < len(toks); k++ {
		if toks[k].Form == ":" {
			return ls + toks[0].Start, ls + toks[j].Start, ls + toks[k].End, true
		}
	}
	return 0, 0, 0, false
}
