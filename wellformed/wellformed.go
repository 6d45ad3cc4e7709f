// Package wellformed holds the well-formedness rules that every compression method obeys
// when it decodes a snippet, and the checker that counts how often an output breaks them.
// The rules are stated over UD relations, so that they read the same parse the methods
// read:
//
//   - Function words: a token whose relation is case, mark, det, cc, aux or cop (any
//     subtype; the possessive 's is case) is kept only with its head (NeedsHead), and a
//     compression does not end on one (FunctionEnd; enforced by Trim).
//   - Chains: the members of a flat, fixed or goeswith chain, and proper nouns joined by
//     compound ("New York", "Aung San Suu Kyi"), are kept all or none (WithHead).
//   - Symbols: a currency symbol or % and its number are kept together, and so are the
//     parts of a number ("89.5 billion") and of a range or score ("1-1", "2010-2012").
//   - Negation: "not", "n't", "never" and "no" are kept whenever their head is. Its
//     scope goes with it, so that no snippet says the opposite of the sentence: a
//     negative subject or object ("no nominee", "nothing", "nobody") is kept whenever
//     its predicate is, and the complement clause of a negated predicate (xcomp, ccomp:
//     "don't seem to like answering") or the relative clause of a negated nominal
//     predicate (acl:relcl of a head with a copula: "were not in the situation where
//     they were able …") is kept only with it; both when no punctuation stands between
//     the two. What a barring verb bars, with its "from" ("preventing the federation
//     from collapsing", "kept them from leaving"), is kept all or none with the verb.
//   - Articles: "a" or "an" is not followed by a word it does not agree with ("a
//     investigation" from "a long investigation"). When a word after the article, up to
//     and including its head, starts with the other sound, the article needs the first word after it
//     (punctuation skipped), and the words from there up to the head need their heads,
//     so the article is kept only with the words that made it agree.
//   - Hedges: epistemic hedges ("reportedly", "allegedly", "may", …) are kept whenever
//     their head is.
//   - Punctuation goes with the phrase it delimits: a punct token is kept only with its
//     head, but sentence-final punctuation and the separators (comma, colon, semicolon,
//     dash) are free; a compression does not end on a separator (Trim), a snippet shows
//     one only between two kept words (Runs), and
//     the two halves of a pair of quotes or brackets are kept together. When both halves
//     are leaves of the parse, they need what they enclose (its head: the first enclosed
//     token whose head is outside the pair), so that a snippet may drop the quotes around
//     a kept phrase, as the Google compressions do, but never keeps one half alone or
//     both around nothing. Otherwise the two share a head, and are kept with it.
//
// Rules turns these into a binding of each token to its rule head (Free, NeedsHead,
// WithHead) and into units: the sets of tokens bound WithHead to one another, which are
// kept all or none. A method keeps a set C that is closed under the bindings: it adds a
// token with Closure. Query tokens are always kept: when the closure of the query does
// not fit the budget, the rules yield (Rules.Yielded) and the query tokens are freed of
// their bindings for that request.
//
// Runs holds the display rules over runs of kept tokens (no gap inside a phrase or a
// name, no one-word island), which the ILP's snippet decoding obeys, and Chop measures
// how choppy any compression reads with "…" at its cuts.
//
// Check counts the violations of a compression by Category. It reads the relations
// directly, with the same definitions as the rules, so it measures any output: gold,
// a method decoded without the rules, or the window baseline.
package wellformed

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/internal/core/wordshape"
	"github.com/qsc-nlp/qsc/syntax"
)

// Binding is how a token is bound to its rule head.
type Binding uint8

// Bindings.
const (
	// Free tokens may be kept or dropped on their own.
	Free Binding = iota
	// NeedsHead tokens (function words, and the words an article's agreement needs) are
	// kept only with their rule head.
	NeedsHead
	// WithHead tokens are kept iff their rule head is kept.
	WithHead
)

// Category is a kind of ill-formedness that Check counts.
type Category uint8

// Categories. Hedge is reported beside the others.
const (
	FunctionHead Category = iota // a function word kept without its head
	FunctionEnd                  // the compression ends on a function word
	Chain                        // part of a name, flat, fixed or goeswith chain
	Symbol                       // a currency symbol or % without its number, or part of a number
	Negation                     // a kept head whose negation was dropped
	Balance                      // one half of a pair of quotes or brackets
	Article                      // "a" or "an" before a word it does not agree with
	Hedge                        // a kept head whose epistemic hedge was dropped
	NumCategories
)

var categoryNames = [NumCategories]string{"function-head", "function-end", "chain", "symbol", "negation", "balance", "article", "hedge"}

// String returns the category's name, as the reports show it.
func (c Category) String() string {
	if c < NumCategories {
		return categoryNames[c]
	}
	return "category?"
}

// Categories returns every category, in report order.
func Categories() []Category {
	out := make([]Category, NumCategories)
	for i := range out {
		out[i] = Category(i)
	}
	return out
}

// IsFunction reports whether a token with this relation is a function word: case, mark,
// det, cc, aux or cop, with any subtype.
func IsFunction(rel string) bool {
	return isFunctionRel(relOf(rel))
}

// IsNegation reports whether a token is a negation of its head.
func IsNegation(tok *syntax.Token) bool { return isNegation(relOf(tok.Rel), tok.Form) }

// isNegation is IsNegation of a token of relation r and form form.
func isNegation(r rel, form string) bool {
	switch r { // first: most tokens are ruled out without lowercasing
	case relAdvmod, relDet, relNeg, relDiscourse:
		return negationWords.has(form)
	}
	return false
}

// The marks of negations sets per token.
const (
	negatedPredicate uint8 = 1 << iota // a child "not", "n't" or "never" negates it
	negativeWord                       // a nominal with "no", or a negative pronoun
	copular                            // a nominal predicate: it has a copula
	barred                             // what a barring verb bars, or its "from"
	negatedAdverb                      // "longer" of "no longer": it negates its own head
)

// negations sets neg[v] (1-based; resized to s.Len()+1) to the negation marks of each
// token of s, whose relations and facts k holds (tokens.reset for s) and whose heads are
// head[v] (1-based; any value outside 1..n is no head), and to barred for what a barring
// verb bars and its "from" (barredFrom).
func negations(s *syntax.Sentence, k *tokens, head []int32, neg []uint8) []uint8 {
	n := s.Len()
	neg = reuse.Resize(neg, n+1)
	clear(neg)
	for v := 1; v <= n; v++ {
		tok := &s.Tokens[v-1]
		if negativePronouns.has(tok.Form) {
			neg[v] |= negativeWord
		}
		h := int(head[v])
		if h >= 1 && h <= n && k.rel[v] == relCop {
			neg[h] |= copular
		}
		if f := barredFrom(s, k, head, v, h); f != 0 {
			neg[v] |= barred
			neg[f] |= barred
		}
		if h < 1 || h > n || !k.has(v, factNegation) {
			continue
		}
		switch g := int(head[h]); {
		case negativeDeterminers.has(tok.Form) && k.rel[v] == relAdvmod && k.rel[h] == relAdvmod && negatedAdverbs.has(s.Tokens[h-1].Form) && g >= 1 && g <= n:
			// "the app no longer shows the error": "no" modifies "longer", which is the
			// negation of the verb; shown without it, the verb says the opposite.
			neg[h] |= negatedAdverb
			neg[g] |= negatedPredicate
		case negativeDeterminers.has(tok.Form):
			neg[h] |= negativeWord
		default:
			neg[h] |= negatedPredicate
		}
	}
	return neg
}

// negatedAdverbs are the adverbs that "no" makes a negation of the verb they modify, as
// "not" is: "no longer", "no more".
var negatedAdverbs = newLowerSet("longer", "more")

// isComplement reports whether a relation makes a clause the complement of its head.
func isComplement(r rel) bool { return r == relCcomp || r == relXcomp }

// isScopeArgument reports whether a dependent of relation base after its head is in the
// scope of the head's negation, so that, shown without it, it would say the opposite: an
// object or an oblique ("is not a custom within the meaning of § 1983").
func isScopeArgument(r rel) bool {
	switch r {
	case relObj, relIobj, relObl:
		return true
	}
	return false
}

// scopeBreak reports whether punctuation other than a quote lies strictly between tokens
// a and b: the scope of a negation stops there (a clause set off by a comma, a bracket or
// a dash is read apart, and is where the parser errs most), but not at the quotes of a
// quoted word ("is not a "custom" within …").
func scopeBreak(s *syntax.Sentence, k *tokens, a, b int) bool {
	for v := min(a, b) + 1; v < max(a, b); v++ {
		if k.has(v, factPunct) && !isQuote(s.Tokens[v-1].Form) {
			return true
		}
	}
	return false
}

// isQuote reports whether form is a quotation mark, single or double.
func isQuote(form string) bool {
	if _, typ := pairKind(form); typ == '"' {
		return true
	}
	switch form {
	case "'", "’", "‘", "`":
		return true
	}
	return false
}

// isRelativeOfCopula reports whether a token of relation rel is a relative clause of a
// nominal predicate, whose negation marks are marks: "a place that sells drugs" in "this is
// not a place that sells drugs".
func isRelativeOfCopula(rel string, marks uint8) bool {
	return rel == "acl:relcl" && marks&copular != 0
}

// punctBetween reports whether a punctuation token lies strictly between tokens a and b
// (1-based, either order; k holds the facts of the sentence). The scope rules of negation
// stop there: a clause set off by a comma or a bracket is read apart, and is where the
// parser errs most.
func punctBetween(k *tokens, a, b int) bool {
	for v := min(a, b) + 1; v < max(a, b); v++ {
		if k.has(v, factPunct) {
			return true
		}
	}
	return false
}

// commaBetween reports whether a comma or semicolon stands between tokens a and b
// (1-based, either order).
func commaBetween(s *syntax.Sentence, a, b int) bool {
	for v := min(a, b) + 1; v < max(a, b); v++ {
		if f := s.Tokens[v-1].Form; f == "," || f == ";" {
			return true
		}
	}
	return false
}

// barringVerbs are the verbs that bar their object from doing something: "prevent X
// from", "keep X from", "stop X from".
var barringVerbs = newLowerSet(
	"prevent", "prevents", "prevented", "preventing", "stop", "stops", "stopped", "stopping",
	"keep", "keeps", "kept", "keeping", "prohibit", "prohibits", "prohibited", "prohibiting",
	"bar", "bars", "barred", "barring", "ban", "bans", "banned", "banning",
	"deter", "deters", "deterred", "deterring", "discourage", "discourages", "discouraged",
	"discouraging", "dissuade", "dissuades", "dissuaded", "dissuading", "restrain",
	"restrains", "restrained", "restraining", "preclude", "precludes", "precluded",
	"precluding", "hinder", "hinders", "hindered", "hindering", "block", "blocks", "blocked",
	"blocking", "forbid", "forbids", "forbade", "forbidden", "forbidding")

// barredFrom returns the "from" that introduces token v as what the barring verb h, its
// head, bars its object from ("preventing the federation from collapsing"), or 0: v is a
// clause or phrase, and no punctuation stands between h and v. k and head are those of
// negations.
func barredFrom(s *syntax.Sentence, k *tokens, head []int32, v, h int) int {
	if h < 1 || h >= v {
		return 0
	}
	switch k.rel[v] {
	case relAdvcl, relObl, relXcomp, relCcomp, relAcl:
	default:
		return 0
	}
	if !barringVerbs.has(s.Tokens[h-1].Form) {
		return 0
	}
	from := 0
	for u := h + 1; u < v; u++ {
		if k.has(u, factPunct) {
			return 0
		}
		if int(head[u]) == v && strings.EqualFold(s.Tokens[u-1].Form, "from") {
			from = u
		}
	}
	return from
}

// isCoreArgument reports whether a relation (universal part) makes a subject or object.
func isCoreArgument(r rel) bool {
	switch r {
	case relNsubj, relObj, relIobj, relCsubj:
		return true
	}
	return false
}

// negativePronouns and negativeDeterminers are lowercased.
var (
	negativePronouns    = newLowerSet("nothing", "nobody", "none", "noone", "no-one")
	negativeDeterminers = newLowerSet("no")
)

// negationWords are the negations, lowercased.
var negationWords = newLowerSet("not", "n't", "never", "no", "nt")

// lowerSet is a set of short lowercase words, looked up by a form lowercased (ASCII)
// without allocating. A form of another length than the words, or with another first
// letter, is ruled out before it is lowercased: most forms are.
type lowerSet struct {
	m      map[string]bool
	shapes wordshape.Filter // each word's first byte, in either case, and length
}

// newLowerSet returns the set of words, which are lowercase and at most lowerMax bytes
// long (longer ones are never found).
func newLowerSet(words ...string) *lowerSet {
	s := &lowerSet{m: make(map[string]bool, len(words))}
	for _, w := range words {
		if w == "" || len(w) > lowerMax {
			continue
		}
		s.m[w] = true
		s.shapes.Add(w[0], len(w))
		s.shapes.Add(upper(w[0]), len(w))
	}
	return s
}

// lowerMax is the length of the longest word of a lowerSet.
const lowerMax = 16

// upper returns the ASCII upper case of b.
func upper(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// has reports whether form, lowercased (ASCII), is in s.
func (s *lowerSet) has(form string) bool {
	if !s.shapes.Maybe(form) || len(form) > lowerMax {
		return false
	}
	var buf [lowerMax]byte
	for i := 0; i < len(form); i++ {
		c := form[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return s.m[string(buf[:len(form)])]
}

// hedges are the epistemic hedges, lowercased.
var hedges = newLowerSet(
	"reportedly", "allegedly", "apparently", "supposedly",
	"purportedly", "possibly", "probably", "perhaps", "maybe",
	"presumably", "seemingly", "likely", "unlikely",
	"may", "might", "could",
)

// IsHedge reports whether a token is an epistemic hedge on its head: a hedging adverb or
// the modal may, might or could.
func IsHedge(tok *syntax.Token) bool { return isHedge(relOf(tok.Rel), tok.Form) }

// isHedge is IsHedge of a token of relation r and form form.
func isHedge(r rel, form string) bool {
	switch r { // first: most tokens are ruled out without lowercasing
	case relAdvmod, relAux, relAmod, relDiscourse, relParataxis:
		return hedges.has(form)
	}
	return false
}

// IsSymbol reports whether a token is a currency symbol or a percent sign.
func IsSymbol(tok *syntax.Token) bool {
	if tok.XPOS == "$" {
		return true
	}
	switch tok.Form {
	case "%", "$", "€", "£", "¥", "US$", "C$", "A$", "HK$", "S$", "NZ$", "percent":
		return tok.Form != "percent" || tok.XPOS == "NN"
	}
	return false
}

// isRangeDash reports whether token v (1-based) is a dash or slash between two numbers,
// as in "1-1", "10-20 percent" or "2010/11".
func isRangeDash(s *syntax.Sentence, v int) bool {
	if v < 2 || v >= s.Len() {
		return false
	}
	switch s.Tokens[v-1].Form {
	case "-", "–", "—", "/", "--":
	default:
		return false
	}
	return isNumber(&s.Tokens[v-2]) && isNumber(&s.Tokens[v])
}

// isRange reports whether tokens a < b are the numbers around a range dash (a, dash, b).
func isRange(s *syntax.Sentence, a, b int) bool {
	return a >= 1 && b == a+2 && isRangeDash(s, a+1)
}

// isChainRel reports whether a relation joins the parts of one name or expression.
func isChainRel(r rel) bool {
	switch r {
	case relFlat, relFixed, relGoeswith:
		return true
	}
	return false
}

// bindOf returns the binding of token v (1-based) to its tree head h and the rule that
// makes it, from the relations alone (quotes and brackets are paired separately); k holds
// the relations and facts of s (tokens.reset) and neg its negations (negations).
func bindOf(s *syntax.Sentence, k *tokens, v, h int, neg []uint8) (Binding, Category) {
	tok := &s.Tokens[v-1]
	if h == 0 {
		return Free, 0
	}
	head := &s.Tokens[h-1]
	base := k.rel[v]
	number := func(x int) bool { return k.has(x, factNumber) }
	properPair := base == relCompound && k.has(v, factProper) && k.has(h, factProper)
	switch {
	case isRangeDash(s, v) && (h == v-1 || h == v+1):
		// The dash of a range or score goes with the numbers around it.
		return WithHead, Symbol
	case base == relPunct && (isFinal(tok.Form) || isSeparator(tok.Form)):
		// A separator is free: no compression ends on one (Trim), and a snippet shows one
		// only between two kept words (wellformed.Runs).
		return Free, 0
	case base == relPunct:
		return NeedsHead, Balance
	case (isChainRel(base) || properPair) && commaBetween(s, v, h):
		// No name or fixed expression holds a comma: "Delgado" parsed as a part of
		// "Dieter" in "Dieter Schmidt, Ana-María Delgado" is another name of a list.
		return Free, 0
	case isChainRel(base):
		return WithHead, Chain
	case properPair:
		return WithHead, Chain
	case k.has(v, factNegation), neg[v]&negatedAdverb != 0:
		return WithHead, Negation
	case neg[v]&negativeWord != 0 && isCoreArgument(base) && !punctBetween(k, v, h):
		// "no nominee has been declared", "nothing happened": the predicate without its
		// negative argument would say the opposite.
		return WithHead, Negation
	case neg[h]&negatedPredicate != 0 && (isComplement(base) || isRelativeOfCopula(tok.Rel, neg[h])) && !punctBetween(k, v, h),
		neg[h]&negatedPredicate != 0 && isScopeArgument(base) && v > h && !scopeBreak(s, k, v, h):
		// "don't seem to like answering questions": the complement without the negated
		// predicate would say the opposite; so would the relative clause of a negated
		// nominal predicate ("were not in the situation where they were able to help"),
		// and an object or oblique after it ("is not a custom … within the meaning of §
		// 1983"), across the quotes of a quoted word but no other punctuation.
		return NeedsHead, Negation
	case neg[v]&barred != 0:
		// "preventing the federation from collapsing": the verb without what it prevents
		// ("preventing the federation") would say the opposite; so would the clause
		// without its "from".
		return WithHead, Negation
	case k.has(v, factHedge):
		return WithHead, Hedge
	case IsSymbol(tok) && number(h), IsSymbol(head) && number(v):
		return WithHead, Symbol
	case number(v) && number(h) && (base == relCompound || base == relNummod || base == relFlat):
		return WithHead, Symbol
	case isRange(s, v, h), isRange(s, h, v):
		// The dash of a range or score ("1-1", "2010-2012") and the number after it.
		return WithHead, Symbol
	case isFunctionRel(base):
		return NeedsHead, FunctionHead
	}
	return Free, 0
}

// pairKind classifies a token as the opening (+1) or closing (−1) half of a pair, or
// neither (0); straight quotes (±2) open or close by alternation. typ tells pairs apart:
// '"' for double quotes of every script's style (“ ”, „, « »), '(' '[' '{' for those
// brackets, 'b' for the other brackets of Unicode (「 」, 『 』, （ ）, 【 】, …). German
// „…“ closes on “, which pairs reads from the quote it closes.
func pairKind(form string) (dir int, typ byte) {
	if form != "" && form[0] < utf8.RuneSelf {
		// Most forms are words: an ASCII first byte that begins no half of a pair.
		switch form[0] {
		case '(', ')', '[', ']', '{', '}', '-', '`', '\'', '"':
		default:
			return 0, 0
		}
	}
	switch form {
	case "(", "-LRB-":
		return 1, '('
	case ")", "-RRB-":
		return -1, '('
	case "[", "-LSB-":
		return 1, '['
	case "]", "-RSB-":
		return -1, '['
	case "{", "-LCB-":
		return 1, '{'
	case "}", "-RCB-":
		return -1, '{'
	case "“", "``":
		return 1, '"'
	case "”", "''":
		return -1, '"'
	case `"`:
		return 2, '"'
	case "„", "«":
		return 1, '"'
	case "»":
		return -1, '"'
	}
	if r, size := utf8.DecodeRuneInString(form); size == len(form) && r >= 0x80 {
		switch {
		case unicode.Is(unicode.Ps, r):
			return 1, 'b'
		case unicode.Is(unicode.Pe, r):
			return -1, 'b'
		}
	}
	return 0, 0
}

// singleQuote is +1 when token i of s opens a single quote, −1 when it closes one, 0
// otherwise. A backtick or ‘ opens one. A straight ' or ’ is also an apostrophe ("the
// boys' toys"), which neither its form nor its tag (the tagger takes "people'" for a
// possessive) tells apart, so it is read by where it stands in the text, from the tokens'
// offsets: it opens before a word it is attached to, after a blank ("a 'Declaration"), and
// closes after a word it is attached to, before a blank or punctuation ("people' today");
// a closing one that no opening one comes before is left unmatched. Without offsets it is
// neither.
func singleQuote(s *syntax.Sentence, i int) int {
	t := &s.Tokens[i]
	switch t.Form {
	case "`", "‘":
		return 1
	case "'", "’":
	default:
		return 0
	}
	if t.End <= t.Start {
		return 0
	}
	after := i > 0 && s.Tokens[i-1].End == t.Start                // attached to the word before
	before := i+1 < len(s.Tokens) && s.Tokens[i+1].Start == t.End // attached to the word after
	switch {
	case after && (!before || punctForm(s.Tokens[i+1].Form)):
		return -1
	case !after && before && !punctForm(s.Tokens[i+1].Form):
		return 1
	}
	return 0
}

// punctForm reports whether form begins with punctuation.
func punctForm(form string) bool {
	r, _ := utf8.DecodeRuneInString(form)
	return unicode.IsPunct(r)
}

// maxSingleQuoted is the most tokens between the halves of a pair of single quotes.
const maxSingleQuoted = 8

// Pairs calls f for every matched pair of quotes or brackets of s (1-based open < close),
// of any script (pairKind): brackets and typographic quotes pair by nesting, a closing
// half with the nearest open one of its kind; straight double quotes alternate; single
// quotes pair as singleQuote reads them, around at most maxSingleQuoted tokens.
// Unmatched halves are ignored. It is the one pairing of qsc: the rules, the display's
// runs and the window (internal/core/window) call it.
func Pairs(s *syntax.Sentence, f func(open, close int)) {
	var b pairBuf
	b.pairs(s, f)
}

// pairBuf is the reusable memory of pairing.
type pairBuf struct {
	stack []int32 // open positions
	types []byte
}

func (b *pairBuf) pairs(s *syntax.Sentence, f func(open, close int)) {
	stack, types := b.stack[:0], b.types[:0]
	for i := range s.Tokens {
		dir, typ := pairKind(s.Tokens[i].Form)
		if dir == 0 {
			if dir = singleQuote(s, i); dir == 0 {
				continue
			}
			typ = '\''
		}
		if dir == 2 { // straight quote: closes an open straight quote on top, else opens
			if n := len(stack); n > 0 && types[n-1] == '"' && s.Tokens[stack[n-1]-1].Form == `"` {
				f(int(stack[n-1]), i+1)
				stack, types = stack[:n-1], types[:n-1]
				continue
			}
			dir = 1
		}
		if dir == 1 && s.Tokens[i].Form == "“" {
			// German „…“: a “ closes an open „ on top.
			if n := len(stack); n > 0 && s.Tokens[stack[n-1]-1].Form == "„" {
				f(int(stack[n-1]), i+1)
				stack, types = stack[:n-1], types[:n-1]
				continue
			}
		}
		if dir == 1 {
			stack, types = append(stack, int32(i+1)), append(types, typ)
			continue
		}
		// A closing half: match the nearest open one of its type. Single quotes pair only
		// around a short stretch (a name, a term, a title: 'Moore Noyce'): a long
		// quotation may show its opening quote before a cut.
		for j := len(stack) - 1; j >= 0; j-- {
			if types[j] == typ {
				if typ != '\'' || i+1-int(stack[j])-1 <= maxSingleQuoted {
					f(int(stack[j]), i+1)
				}
				stack, types = stack[:j], types[:j]
				break
			}
		}
	}
	b.stack, b.types = stack, types
}

// isFinal reports whether a form is sentence-final punctuation, which is free: a
// compression may end with it whatever it keeps.
func isFinal(form string) bool {
	switch form {
	case ".", "!", "?", "...", "…":
		return true
	}
	return false
}

// IsArticle reports whether a token is the indefinite article "a" or "an" (relation det),
// and whether it is "an", which asks for a vowel sound after it.
func IsArticle(tok *syntax.Token) (article, vowel bool) { return isArticle(relOf(tok.Rel), tok) }

// isArticle is IsArticle of tok, whose relation's code is r.
func isArticle(r rel, tok *syntax.Token) (article, vowel bool) {
	if r != relDet {
		return false, false
	}
	switch tok.Form {
	case "a", "A":
		return true, false
	case "an", "An", "AN":
		return true, true
	}
	return false, false
}

// Sound is what an article reads in the first sound of a word.
type Sound uint8

// Sounds.
const (
	SoundUnknown   Sound = iota // not a word, or a spelling that does not tell
	SoundVowel                  // "an" goes before it
	SoundConsonant              // "a" goes before it
)

// Spellings whose first sound is not what their first letter says: "a university", "a
// one-off" (consonantU), but "an unidentified" (uniVowel), and "an hour" (vowelH).
var (
	consonantU = []string{"uni", "use", "usu", "uti", "uto", "ura", "uri", "ure", "uro", "uku", "ukr", "ubiq", "eu", "ewe", "one-", "once"}
	uniVowel   = []string{"unid", "unim", "unin"} // un-: "an unidentified", "an unimportant"
	vowelH     = []string{"hour", "honest", "honor", "honour", "heir"}
)

// SoundOf returns the first sound of a word as an article hears it, by its spelling: a
// vowel for a, e, i, o and most u, "hour" and "honest", 8, 11 and 18; a consonant for the
// other letters, "uni…", "use…", "eu…" and "one…"; unknown for acronyms that may be read
// as letters ("an FBI agent", "a NASA probe") and for other symbols.
func SoundOf(form string) Sound {
	if form == "" {
		return SoundUnknown
	}
	c := form[0]
	switch {
	case c >= '0' && c <= '9':
		digits := 0
		for i := 0; i < len(form) && (form[i] >= '0' && form[i] <= '9' || form[i] == ','); i++ {
			if form[i] != ',' {
				digits++
			}
		}
		switch {
		case c == '8':
			return SoundVowel
		case (strings.HasPrefix(form, "11") || strings.HasPrefix(form, "18")) && (digits == 2 || digits == 5):
			return SoundVowel
		}
		return SoundConsonant
	case c >= 'A' && c <= 'Z' && (len(form) == 1 || form[1] == '-'):
		// A letter read as its name: "an X-ray", "an F", "a B-52".
		if strings.IndexByte("AEFHILMNORSX", c) >= 0 {
			return SoundVowel
		}
		return SoundConsonant
	case c >= 'A' && c <= 'Z' && isUpperWord(form):
		switch c {
		case 'A', 'E', 'I', 'O':
			return SoundVowel
		case 'U':
			return SoundConsonant
		case 'F', 'H', 'L', 'M', 'N', 'R', 'S', 'X':
			return SoundUnknown // "an FBI agent", "a NASA probe"
		}
		return SoundConsonant
	}
	if strings.EqualFold(form, "one") {
		return SoundConsonant
	}
	switch c | 0x20 { // lowercase, for ASCII letters
	case 'a', 'e', 'i', 'o', 'u':
		if hasPrefixFold(form, uniVowel) {
			return SoundVowel
		}
		if hasPrefixFold(form, consonantU) {
			return SoundConsonant
		}
		return SoundVowel
	case 'h':
		if hasPrefixFold(form, vowelH) {
			return SoundVowel
		}
		return SoundConsonant
	}
	if c|0x20 >= 'a' && c|0x20 <= 'z' {
		return SoundConsonant
	}
	return SoundUnknown
}

// hasPrefixFold reports whether form begins with one of the lowercase prefixes, ignoring
// case, without allocating.
func hasPrefixFold(form string, prefixes []string) bool {
	for _, p := range prefixes {
		if len(form) >= len(p) && strings.EqualFold(form[:len(p)], p) {
			return true
		}
	}
	return false
}

// isUpperWord reports whether form is all capitals and digits (an acronym).
func isUpperWord(form string) bool {
	for i := 0; i < len(form); i++ {
		if c := form[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// disagrees reports whether the article (vowel: "an") is known not to go before form.
func disagrees(vowel bool, form string) bool {
	switch SoundOf(form) {
	case SoundVowel:
		return !vowel
	case SoundConsonant:
		return vowel
	}
	return false
}
