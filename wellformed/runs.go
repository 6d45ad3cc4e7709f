package wellformed

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// A run is a maximal stretch of kept tokens between two cuts: what a reader sees between
// two "…" marks. Runs holds the display rules of one sentence, stated over runs, which the
// display-aware snippet decoding obeys and which Chop measures on any output:
//
//   - Phrases are not cut inside: a function word (case, mark, det, cc, aux, cop), a
//     modifier that is an adjective, a number, a possessive or a compound (amod, nummod,
//     nmod:poss, compound), and a conjunct of a list of nominals share a run with their
//     head, and so does every token the well-formedness rules bind to its rule head
//     (punctuation, negation, hedges, the parts of a number). So "the … client" (the
//     adjective between dropped) and "some of … advisers" cannot be shown.
//   - A complementizer that makes a clause a question ("whether", "if") shares a run with
//     the clause it opens, both ways: the clause is not shown as a claim. So does a
//     possessive 's with the name it follows, a verb with its particle ("wear out"), and a
//     number with the unit it measures ("1,200 kg", "2900 kilowatts").
//   - A name and its "et al." share a run ("Hartsell-Gundy et al.").
//   - A short bracket after a nominal shares a run with it: "(WHO)" is shown after
//     "World Health Organization", never alone (bindGlosses).
//   - Names are shown whole: the proper nouns of a stretch that the parse joins by
//     compound or flat, or by "of", "for", "de", "the" or "&" ("Bank of England", "Saks
//     Fifth Avenue"; "AP writer Philip Rivers" holds two names), and an institution or
//     title with "of" and a proper noun after it whatever the parse ("Yale School of
//     Medicine"), with a month's day and year ("May 5, 2019"), lie inside one run or
//     outside every run.
//   - A run does not start on punctuation that attaches to the word before it (a comma,
//     a closing quote, "'s") and does not end on a function word or "to" (its last word,
//     whatever punctuation follows it), or on a comma, colon, semicolon, dash or opening
//     quote.
//   - A run holds a word; a run of one word is a query term (no one-word islands).
//
// Each token v carries the span [Lo(v), Hi(v)] that a run holding v must cover, so a run
// [s, e] is allowed iff s may start a run, e may end one, and every token in it has its
// span inside [s, e]: a check that is local to the run.
//
// Runs reuses its memory: the zero value is ready, and once grown Reset allocates nothing.
type Runs struct {
	// Loose drops two rules that can make a long stretch one run: a conjunct of a list
	// shares a run with the first one, and a head with its "whether" or "if" (which still
	// needs the head). A decoder that finds no display under the full rules tries again
	// with Loose before the rules yield to the query, so that a query term late in a long
	// list ("… satellite imaging company Keyhole") is still shown under the other rules.
	Loose bool

	n           int
	lo, hi      []int32
	start, end  []bool
	word        []bool
	top         []int32 // scratch: the head of v's name
	spans       [][2]int32
	inQ, dangle []bool
	alone       []bool
	lead        []bool
	subLo       []int32 // the first and last token of v's subtree
	subHi       []int32
	needed      []bool
	order       []int32 // scratch: the tokens in preorder (ResetCuts), a stack (pendingHeads)
	farComp     []int32 // farComp[h]: the last complement after h (needsRight), 0 if none
	pending     []int32 // pending[e]: the last head h ≤ e whose complement comes after e
	dquote      []int8  // dquote[i]: +1, −1 for a straight double quote paired as it opens or closes (straightQuote)
	quoteO      []int32 // quoteO[v], quoteC[v]: the innermost double quotes around v (Quotation), computed once per Reset
	quoteC      []int32
	pairs       pairBuf
	tok         tokens // the relations and facts of the tokens (Reset), which ResetCuts reads too
}

// Lo returns the first token a run holding v must hold.
func (u *Runs) Lo(v int) int { return int(u.lo[v]) }

// Hi returns the last token a run holding v must hold.
func (u *Runs) Hi(v int) int { return int(u.hi[v]) }

// CanStart reports whether a run may start at token v.
func (u *Runs) CanStart(v int) bool { return u.start[v] }

// CanEnd reports whether a run may end at token v.
func (u *Runs) CanEnd(v int) bool { return u.end[v] }

// Dangles reports whether a run that ends on token v leaves it leaning on a word that is
// cut: a dependent whose head comes after it (unless v is a query term), or a head whose
// object, complement or particle comes after it, or a verb or adjective whose oblique
// phrase does (a query term too). It is a preference, not a rule: the snippet decoding
// pays for it (runs.Params.Dangle, through RunDangles).
func (u *Runs) Dangles(v int) bool { return u.dangle[v] }

// Lead reports whether token v may be left out before the only run of a display although
// a word of the run needs it: a function word or a modifier whose loss leaves the point
// intact ("error of …" without "the common"), not a proper noun or a part of a name, a
// number, a possessive, a complementizer that makes a clause a question, or a token that
// the well-formedness rules keep all or none with another (a negation, a hedge, half of
// a pair of quotes). A decoder that finds no display with clean cuts under a token
// budget may show one run that starts after such words (runs.Params.Clean). It is
// computed by ResetCuts.
func (u *Runs) Lead(v int) bool { return u.lead[v] }

// Alone reports whether token v reads as a run of its own word: a noun, a proper noun or
// a number names something ("… Babstock …"), where a lone verb, adjective or adverb says
// nothing ("… lazy …"). It is a preference, not a rule: the snippet decoding pays Short
// for a one-word run of a query term that does not read alone.
func (u *Runs) Alone(v int) bool { return u.alone[v] }

// Word reports whether token v is a word: not punctuation.
func (u *Runs) Word(v int) bool { return u.word[v] }

// Query reports whether token v is a query token.
func (u *Runs) Query(v int) bool { return u.inQ[v] }

// Needed reports whether token v is a part its head cannot lose and still read as a
// sentence when nothing marks the cut: a subject, object or complement, a function word
// (case, mark, det, cc, aux, cop), a possessive, a particle, an expletive, a classifier
// or a part of a fixed, flat or broken word. It reads what ResetCuts computed.
func (u *Runs) Needed(v int) bool { return u.needed[v] }

// Cuts finds the clean cuts that end at one token: the stretches [s, t] of dropped tokens
// that a plain rendering may leave out between two runs and still read as a sentence
// (runs.Params.Clean). A stretch is clean when it holds no query token, every token of it
// has its whole subtree inside it (no kept word loses its head), and none of its tokens
// whose head lies outside it is Needed (no kept word loses its subject, object or function
// word). Begin starts a scan; Next returns the starts s of the clean cuts [s, t], nearest
// first, down to 2 (a run holds token s − 1). A scan stops at the first token that is a
// query token or has a dependent after t, since no longer stretch is clean; it costs
// O(t) steps and the children of each token it passes at most, and allocates nothing.
type Cuts struct {
	u                       *Runs
	t                       *syntax.Tree
	end, s, lo, hi, missing int
}

// Begin starts a scan of the clean cuts of u (after Reset and ResetCuts with tree t)
// that end at token end.
func (c *Cuts) Begin(u *Runs, t *syntax.Tree, end int) {
	*c = Cuts{u: u, t: t, end: end, s: end + 1, lo: end + 1}
}

// Next returns the start of the next clean cut, or 0 when there is none.
func (c *Cuts) Next() int {
	u := c.u
	for c.s > 2 {
		c.s--
		s := c.s
		if u.inQ[s] {
			c.s = 0
			return 0
		}
		c.lo, c.hi = min(c.lo, int(u.subLo[s])), max(c.hi, int(u.subHi[s]))
		if c.hi > c.end {
			// A token of the stretch has a dependent after it: so has every longer one.
			c.s = 0
			return 0
		}
		if h := c.t.Head(s); u.needed[s] && (h < s || h > c.end) {
			c.missing++
		}
		for _, x := range c.t.Children(s) {
			// A child inside the stretch was counted with its head outside it.
			if int(x) > s && int(x) <= c.end && u.needed[x] {
				c.missing--
			}
		}
		if c.lo >= s && c.hi <= c.end && c.missing == 0 {
			return s
		}
	}
	return 0
}

// Clean reports whether [s, end] is a clean cut (Cuts; after ResetCuts). It costs
// O(end − s) steps.
func (u *Runs) Clean(t *syntax.Tree, s, end int) bool {
	var c Cuts
	c.Begin(u, t, end)
	for x := c.Next(); x >= s; x = c.Next() {
		if x == s {
			return true
		}
	}
	return false
}

// ResetCuts computes what Cuts, Clean, Needed and Lead read for s, parsed with tree t:
// the extent of each token's subtree, which tokens are Needed and which may Lead. Call it
// after Reset, with the same sentence and tree, before the first of them; Reset leaves
// them as they were, so that a display that allows any cut does not pay for them. When t
// and s differ in length, every token is taken as its own subtree and Needed, so no cut is
// clean, and none may Lead. It costs O(n) and allocates nothing once grown.
func (u *Runs) ResetCuts(s *syntax.Sentence, t *syntax.Tree) {
	n := s.Len()
	u.subLo, u.subHi = reuse.Resize(u.subLo, n+1), reuse.Resize(u.subHi, n+1)
	u.needed = reuse.Resize(u.needed, n+1)
	for v := 0; v <= n; v++ {
		u.subLo[v], u.subHi[v] = int32(v), int32(v)
	}
	if t == nil || t.N() != n || u.n != n {
		for v := 1; v <= n; v++ {
			u.needed[v] = true
		}
		u.needed[0] = false
		clear(u.lead)
		return
	}
	order := append(u.order[:0], 0)
	for i := 0; i < len(order); i++ {
		order = append(order, t.Children(int(order[i]))...)
	}
	u.order = order
	for i := len(order) - 1; i >= 1; i-- {
		v := order[i]
		h := t.Head(int(v))
		u.subLo[h], u.subHi[h] = min(u.subLo[h], u.subLo[v]), max(u.subHi[h], u.subHi[v])
	}
	u.needed[0] = false
	const notLead = factProper | factNumber | factNegation | factHedge
	for v := 1; v <= n; v++ {
		tok := &s.Tokens[v-1]
		base := u.tok.rel[v]
		u.needed[v] = isCoreArgument(base) || isNeeded(base) || tok.Rel == "nmod:poss" || isParticle(base, tok.Rel)
		// Lead, beside what Reset ruled out (names, what the rules keep all or none):
		// a negation or a hedge even when the rules free it (a query that yields).
		u.lead[v] = u.lead[v] && !u.tok.has(v, notLead) && !isPossessive(base, tok) && !isQuestionMark(base, tok)
	}
}

// isNeeded reports whether a relation (universal part), besides a core argument, makes a
// dependent that its head cannot lose in a plain rendering (Runs.Needed).
func isNeeded(r rel) bool {
	switch r {
	case relCcomp, relXcomp, relExpl, relCop, relAux, relMark, relCase, relDet, relCc, relFixed, relFlat, relGoeswith, relClf:
		return true
	}
	return false
}

// Names returns the name spans, as 1-based [first, last] token ids.
func (u *Runs) Names() [][2]int32 { return u.spans }

// Reset computes the display rules of s (parsed, with tree t) for the query, with the
// bindings of the well-formedness rules r (Reset for s), or without them when r is nil
// (Chop). A query token keeps its spans: a decoder that cannot meet them lets the rules
// yield.
func (u *Runs) Reset(s *syntax.Sentence, t *syntax.Tree, r *Rules, query []int) {
	n := s.Len()
	u.n = n
	if r != nil && r.N() == n {
		u.tok.copyFrom(&r.tok) // the tokens of s, as r read them
	} else {
		u.tok.reset(s)
	}
	u.dquote = u.dquote[:0] // straightQuote pairs the sentence's quotes when it needs to
	u.quoteO = u.quoteO[:0] // and Quotation when it is asked
	u.lo = reuse.Resize(u.lo, n+1)
	u.hi = reuse.Resize(u.hi, n+1)
	u.start = reuse.Resize(u.start, n+1)
	u.end = reuse.Resize(u.end, n+1)
	u.word = reuse.Resize(u.word, n+1)
	u.top = reuse.Resize(u.top, n+1)
	u.inQ = reuse.Resize(u.inQ, n+1)
	u.dangle = reuse.Resize(u.dangle, n+1)
	u.alone = reuse.Resize(u.alone, n+1)
	u.lead = reuse.Resize(u.lead, n+1)
	u.farComp = reuse.Resize(u.farComp, n+1)
	clear(u.farComp)
	for v := range u.lead {
		u.lead[v] = v > 0
	}
	clear(u.inQ)
	for _, q := range query {
		if q >= 1 && q <= n {
			u.inQ[q] = true
		}
	}
	for v := 0; v <= n; v++ {
		u.lo[v], u.hi[v] = int32(v), int32(v)
	}
	u.start[0], u.end[0], u.word[0] = false, false, false
	clear(u.dangle)
	lastWord := 0 // the last word before v
	final := n    // the sentence's last word, 0 if none
	for final >= 1 && u.tok.has(final, factPunct) {
		final--
	}
	for v := 1; v <= n; v++ {
		tok := &s.Tokens[v-1]
		base := u.tok.rel[v]
		punct := u.tok.has(v, factPunct)
		open := u.tok.pairOpen(v)
		start, end := !attachesLeft(tok, open), !endsBadly(base, tok, open)
		if tok.Form == `"` {
			open = u.straightQuote(s, v-1)
		}
		u.word[v] = !punct
		u.alone[v] = readsAlone(tok)
		// A run may start on an opening quote or bracket, never on other punctuation; it
		// never ends on an opening one (… said " …).
		u.start[v] = start && !(punct && open <= 0)
		u.end[v] = end && open <= 0
		h := t.Head(v) // 0 for the root or a head outside the sentence
		if h < 1 || h > n {
			h = 0
		}
		if h >= 1 && h < v && isObjectPronoun(tok) {
			// "… him, and he's noodling around": an object pronoun reads as the start
			// of nothing when the verb before it is cut.
			u.start[v] = false
		} else if h > v && isSubjectPronoun(tok) {
			// "… whatever the personal agony it …": a subject pronoun reads as the end
			// of nothing when its verb after it is cut.
			u.end[v] = false
		}
		if isWh(tok) && v != final {
			// A wh-word opens the clause after it ("which …"), unless it ends the
			// sentence ("nobody knows why.").
			u.end[v] = false
		}
		if tok.XPOS == "IN" && v != final && v < n && !punctForm(s.Tokens[v].Form) {
			// A preposition or subordinating conjunction leans on what follows it,
			// whatever relation the parse gave it ("… named the man as …", where "as"
			// was parsed as an adverb); stranded before punctuation or at the end, it
			// ends its clause ("more time at.").
			u.end[v] = false
		}
		if v != final && introducesExample(tok.Form) {
			u.end[v] = false // "residual confounding, e.g. …": the example it opens is cut
		}
		if punct && lastWord != 0 && !u.end[lastWord] {
			u.end[v] = false // "the city a." ends on "a" as shown
		}
		if !punct {
			lastWord = v
		}
		if v < n && isHyphenatedName(tok.Form) && u.tok.has(v+1, factProper) && s.Tokens[v].Start == tok.End+1 {
			// "Ana-María Delgado", "Jean-Luc Godard": a given name with a hyphen and the
			// name after it are one, whatever the parse (which may join the second to a
			// name before a comma).
			u.bind(v, v+1)
			u.bind(v+1, v)
		}
		if v > 1 && v < n && isEtAl(tok, &s.Tokens[v]) && !u.tok.has(v-1, factPunct) && canBeAuthor(&s.Tokens[v-2]) {
			// "Hartsell-Gundy et al.": the name and its "et al." are one, whatever the
			// parse; never "… al., 2015". Only a word that can be a name takes it: not
			// the comma of "Smith, et al." nor a verb.
			u.bind(v-1, v+1)
			u.bind(v, v-1)
			u.bind(v, v+1)
			u.bind(v+1, v-1)
		}
		if v > 1 && hasExponent(tok.Form) && isQuantityPart(&s.Tokens[v-2]) {
			u.bind(v, v-1) // "W m⁻¹ K⁻¹", "5 m²": the unit's parts, whatever the parse
			u.bind(v-1, v)
		}
		if h == 0 {
			continue
		}
		// A word dangles at the end of a run when it leans on one after it: a dependent
		// whose head comes later ("for which they …"), or a head whose object or
		// complement comes later ("a place that sells …"), or a verb or adjective whose
		// oblique phrase follows it ("value derived …"), a query term too ("eventually
		// appointed …" for the query "appointed"). A query term that leans on its head
		// does not dangle: it is what the reader asked for.
		if h > v && !u.inQ[v] && !punct {
			u.dangle[v] = true
		}
		if h < v {
			complement := needsRight(base, tok.Rel)
			if complement || isOfComplement(s, t, base, v, h) || u.isOblique(s, t, base, v, h) {
				u.dangle[h] = true
			}
			if complement {
				u.farComp[h] = int32(v) // the last one: v ascends
			}
		}
		// Bindings: a dependent shares a run with its head; WithHead both ways.
		if u.protected(s, base, v, h) {
			u.bind(v, h)
			if (isQuestionMark(base, tok) && !u.Loose) || isPossessive(base, tok) || isParticle(base, tok.Rel) || isMeasure(base, u.tok.has(v, factNumber), &s.Tokens[h-1], v, h) {
				u.bind(h, v)
			}
		}
		if r != nil && r.N() == n && r.Binding(v) != Free {
			if rh := r.Head(v); rh != 0 {
				u.bind(v, rh)
				if why := r.Why(v); r.Binding(v) == WithHead || why == Negation || why == Hedge || why == Balance {
					// Kept all or none (a negation, a hedge, a pair, even when the
					// query frees them): neither may be left out before a run.
					u.lead[v], u.lead[rh] = false, false
				}
				if r.Binding(v) == WithHead {
					u.bind(rh, v)
				}
			}
		}
	}
	u.bindGlosses(s)
	u.pendingHeads()
	// Names, whole.
	u.spans = u.spans[:0]
	for v := 1; v <= n; {
		if !u.tok.has(v, factProper) {
			v++
			continue
		}
		e := stretchEnd(n, v, func(x int) bool { return u.tok.has(x, factProper) },
			func(x int) bool { return isNameJoin(&s.Tokens[x-1]) }, nil)
		// The names in the stretch are the parts the parse joins (compound, flat, a name
		// with "of" inside): "AP sports writer Philip Rivers" holds two.
		u.climb(t, v, e, func(x int) bool { return u.isNameRel(s, x) })
		// "Yale School of Medicine", "Bank of England": an institution's name with "of"
		// inside is one name whatever the parse says of the part after it.
		for j := v + 1; j < e; j++ {
			if !isOfJoin(&s.Tokens[j-1]) || !institutions.has(s.Tokens[j-2].Form) || !u.tok.has(j+1, factProper) {
				continue
			}
			t1, t2 := u.top[j-1], u.top[j+1]
			u.top[j] = t1
			for x := v; x <= e; x++ {
				if u.top[x] == t2 {
					u.top[x] = t1
				}
			}
		}
		for x := v; x <= e; x++ {
			if int(u.top[x]) != x {
				continue
			}
			a, b := x, x
			for y := v; y <= e; y++ {
				if int(u.top[y]) == x {
					a, b = min(a, y), max(b, y)
				}
			}
			u.addName(s, a, b)
		}
		v = e + 1
	}
	u.titledNames(s, t)
}

// titledNames binds as names the stretches of capitalized words that the tags do not call
// proper nouns, which a reader still takes for a name or a title: "the Joint
// Comprehensive Plan of Action" (JJ JJ NN IN NN), "the Diagnostic and Statistical Manual
// of Mental Disorders", "Bath and Body Works". A stretch is two or more capitalized words
// (isTitled), joined directly or by "of", "for", "and" or "&" ("of the" and "for the"
// too; not "and the", which joins two names), at least one of them not tagged a proper
// noun; the parse splits it into its names (titledGroups). A stretch of proper nouns alone
// is left to the rules of Reset. A sentence with more than two thirds of its words
// capitalized, the starts of the sentence and its parts aside, is a headline or a title,
// where capitals say nothing, and has none.
func (u *Runs) titledNames(s *syntax.Sentence, t *syntax.Tree) {
	n := u.n
	words, caps, missed := 0, 0, false
	for v := 2; v <= n; v++ {
		if u.word[v] && !isSentenceStart(s, v) {
			words++
			if isCapitalized(s.Tokens[v-1].Form) {
				caps++
				missed = missed || !u.tok.has(v, factProper)
			}
		}
	}
	if !missed || 3*caps > 2*words {
		return // no name the tags miss (most sentences), or a headline
	}
	for v := 1; v <= n; {
		if !isTitled(s, v) {
			v++
			continue
		}
		e := stretchEnd(n, v, func(x int) bool { return isTitled(s, x) },
			func(x int) bool { return isTitleJoin(&s.Tokens[x-1]) },
			func(x int) bool { return isOfJoin(&s.Tokens[x-1]) && s.Tokens[x].Form == "the" })
		if e > v {
			u.titledGroups(s, t, v, e)
		}
		v = e + 1
	}
}

// stretchEnd returns the last token of the stretch that starts at token v (1-based, of n),
// for which part holds: tokens for which part holds, side by side, with one token between
// them for which join holds, or, when join2 is not nil, with two for whose first join2
// holds ("of the"). Each predicate reads the token it is given, join2 also the next.
func stretchEnd(n, v int, part, join, join2 func(int) bool) int {
	e := v
	for {
		switch {
		case e+1 <= n && part(e+1):
			e++
		case e+2 <= n && join(e+1) && part(e+2):
			e += 2
		case join2 != nil && e+3 <= n && join2(e+1) && part(e+3):
			e += 3
		default:
			return e
		}
	}
}

// titledGroups binds the names of the stretch [a, b] of capitalized words that
// titledNames found: the parse's subtrees within it, each token joined to the head it
// reaches without leaving the stretch, so that two names side by side ("the Homeland
// Security US plants") stay two. A subtree with two capitalized words or more, one of them
// not tagged a proper noun, is a name, from its first capitalized word to its last (never
// from a join: "and Direct …"). A run that holds a word of it holds the rest of it, so
// that no run ends inside it ("the Joint Comprehensive Plan …"); a run may start inside
// it, after a cut, as the reader sees it cut ("… Restaurant in the West Valley"): judges
// preferred the words such a start leaves room for to the whole name (docs/reading.md,
// "Capitalized names").
func (u *Runs) titledGroups(s *syntax.Sentence, t *syntax.Tree, a, b int) {
	u.climb(t, a, b, nil)
	for x := a; x <= b; x++ {
		if int(u.top[x]) != x {
			continue
		}
		lo, hi, caps, untagged := b+1, a-1, 0, false
		for y := a; y <= b; y++ {
			if int(u.top[y]) == x && isTitled(s, y) {
				lo, hi = min(lo, y), max(hi, y)
				caps++
				untagged = untagged || !isProper(&s.Tokens[y-1])
			}
		}
		if caps >= 2 && untagged {
			for x := lo; x <= hi; x++ {
				u.hi[x] = max(u.hi[x], int32(hi))
			}
		}
	}
}

// climb sets top[x], for each token x of the stretch [a, b], to the head that x reaches
// by climbing the parse without leaving the stretch, over the arcs x → head(x) for which
// joined(x) holds (every arc when joined is nil): the head of x's name within the
// stretch. It takes at most b − a steps from each token, so a cycle cannot hold it.
func (u *Runs) climb(t *syntax.Tree, a, b int, joined func(int) bool) {
	for x := a; x <= b; x++ {
		top := x
		for steps := 0; steps <= b-a; steps++ {
			h := t.Head(top)
			if h < a || h > b || joined != nil && !joined(top) {
				break
			}
			top = h
		}
		u.top[x] = int32(top)
	}
}

// isTitled reports whether token v (1-based) is a capitalized word that may be part of a
// name: a proper noun, or a capitalized noun or adjective that does not start the sentence
// or a part of it (isSentenceStart), where capitals are the sentence's.
// A capitalized verb ("we do hereby Order and Direct") or pronoun ("I") is not.
func isTitled(s *syntax.Sentence, v int) bool {
	tok := &s.Tokens[v-1]
	if !isCapitalized(tok.Form) {
		return false
	}
	if isProper(tok) {
		return true
	}
	if !strings.HasPrefix(tok.XPOS, "NN") && !strings.HasPrefix(tok.XPOS, "JJ") {
		return false
	}
	return !isSentenceStart(s, v)
}

// isSentenceStart reports whether token v (1-based) starts the sentence or follows a
// sentence's end, a colon or a dash, where a capital is the sentence's or a list item's
// ("60 - Percentage of Americans who …").
func isSentenceStart(s *syntax.Sentence, v int) bool {
	if v == 1 {
		return true
	}
	switch s.Tokens[v-2].Form {
	case ".", "!", "?", ":", "-", "–", "—", "--":
		return true
	}
	return false
}

// isCapitalized reports whether a word starts with an upper-case letter and has another
// letter ("Plan", "OER", "Sci-Fi"; not "A", "3D" or "é").
func isCapitalized(form string) bool {
	if form == "" || form[0] >= 'a' && form[0] <= 'z' || form[0] >= '0' && form[0] <= '9' {
		return false // the common cases, without decoding a rune
	}
	r, size := utf8.DecodeRuneInString(form)
	if !unicode.IsUpper(r) {
		return false
	}
	for _, c := range form[size:] {
		if unicode.IsLetter(c) {
			return true
		}
	}
	return false
}

// isObjectPronoun reports whether a token is a personal pronoun in the object case
// (objectPronouns).
func isObjectPronoun(tok *syntax.Token) bool {
	return tok.XPOS == "PRP" && objectPronouns.has(tok.Form)
}

// objectPronouns are the personal pronouns in the object case: not "her", which is also a
// possessive, nor "you" or "it", which are also subjects.
var objectPronouns = newLowerSet("me", "him", "us", "them")

// isSubjectPronoun reports whether a token is existential "there" or a personal pronoun
// that is a subject when its head comes after it (subjectPronouns).
func isSubjectPronoun(tok *syntax.Token) bool {
	return tok.XPOS == "EX" || tok.XPOS == "PRP" && subjectPronouns.has(tok.Form)
}

// subjectPronouns are the personal pronouns that can only be subjects, and "it" and "you"
// (subjects too before their head).
var subjectPronouns = newLowerSet("i", "he", "she", "we", "they", "it", "you")

// isTitleJoin reports whether a token may join two capitalized words into one title or
// name: "Plan of Action", "Statistical Manual", "Bath and Body Works".
func isTitleJoin(tok *syntax.Token) bool {
	switch tok.Form {
	case "of", "for", "and", "&":
		return true
	}
	return false
}

// pendingHeads sets pending[e], for every token e, to the last head h ≤ e whose object,
// complement or particle comes after e (farComp), 0 if none: a run that holds h and ends
// at e leaves the reader waiting for what h needs ("… require people who create LLMs …",
// where what they require follows). One sweep with a stack of the heads whose complement
// is still to come: each head is pushed and popped once, so it is linear.
func (u *Runs) pendingHeads() {
	n := u.n
	u.pending = reuse.Resize(u.pending, n+1)
	stack := u.order[:0]
	for e := 0; e <= n; e++ {
		if u.farComp[e] > int32(e) {
			stack = append(stack, int32(e))
		}
		for len(stack) > 0 && u.farComp[stack[len(stack)-1]] <= int32(e) {
			stack = stack[:len(stack)-1]
		}
		u.pending[e] = 0
		if len(stack) > 0 {
			u.pending[e] = stack[len(stack)-1]
		}
	}
	u.order = stack[:0]
}

// RunDangles reports whether a run [s, e] ends dangling: on a word that leans on a cut one
// (Dangles), or before the object, complement or particle of a word it holds, which comes
// after e ("… require people who create LLMs …"). Like Dangles, it is a preference that
// the snippet decoding pays for (runs.Params.Dangle).
func (u *Runs) RunDangles(s, e int) bool {
	return u.dangle[e] || int(u.pending[e]) >= s
}

// maxGloss is the most tokens a bracket may enclose for bindGlosses.
const maxGloss = 5

// bindGlosses binds a short bracket that follows a nominal to it: every token from the
// opening to the closing half, at most maxGloss tokens apart inside, is shown only with the
// word before it. "(WHO)" is shown after "World Health Organization" and "(2,646 lb)"
// after "1,200 kg", never alone. It reads the tokens, not the parse, which often attaches
// a bracket elsewhere.
func (u *Runs) bindGlosses(s *syntax.Sentence) {
	n := u.n
	for o := 2; o < n; o++ {
		if u.tok.pairOpen(o) <= 0 || !isNominal(&s.Tokens[o-2]) {
			continue
		}
		c := 0
		for x := o + 1; x <= min(n, o+maxGloss+1); x++ {
			if d := u.tok.pairOpen(x); d > 0 {
				break
			} else if d < 0 {
				c = x
				break
			}
		}
		if c == 0 || !slices.ContainsFunc(s.Tokens[o:c-1], func(tok syntax.Token) bool { return display.HasWord(tok.Form) }) {
			continue // no bracket, or an editorial "[...]"
		}
		for x := o; x <= c; x++ {
			u.bind(x, o-1)
		}
	}
}

// addName adds the name [a, b] (a proper noun alone when a = b, kept whole only as a
// date), extended to a date's day and year: "May 5, 2019" and "5 May 2019".
func (u *Runs) addName(s *syntax.Sentence, a, b int) {
	n := u.n
	if isMonth(&s.Tokens[a-1]) && a > 1 && isNumber(&s.Tokens[a-2]) {
		a--
	}
	if isMonth(&s.Tokens[b-1]) && b+1 <= n && isNumber(&s.Tokens[b]) {
		b++
	}
	if b+2 <= n && isNumber(&s.Tokens[b-1]) && isMonth(&s.Tokens[b-2]) && s.Tokens[b].Form == "," && IsYear(s.Tokens[b+1].Form) {
		b += 2
	}
	if a == b {
		return
	}
	u.spans = append(u.spans, [2]int32{int32(a), int32(b)})
	for x := a; x <= b; x++ {
		u.lead[x] = false // "of", "the" and "," inside a name too
		u.lo[x] = min(u.lo[x], int32(a))
		u.hi[x] = max(u.hi[x], int32(b))
	}
}

// isNameRel reports whether token v (1-based) of s joins its head in one name: by
// compound, flat, fixed or goeswith, as a proper noun that modifies it ("New York", which
// parsers often make amod), or as the "of"/"for" of a name with one inside ("Bank of
// England": the case word and the nmod after it).
func (u *Runs) isNameRel(s *syntax.Sentence, v int) bool {
	tok := &s.Tokens[v-1]
	switch u.tok.rel[v] {
	case relCompound, relFlat, relFixed, relGoeswith:
		return true
	case relAmod:
		return u.tok.has(v, factProper)
	case relCase, relDet:
		return isNameJoin(tok)
	case relNmod:
		return tok.Rel == "nmod" && v > 1 && isNameJoin(&s.Tokens[v-2])
	}
	return false
}

// bind makes a run holding v hold w.
func (u *Runs) bind(v, w int) {
	u.lo[v] = min(u.lo[v], int32(w))
	u.hi[v] = max(u.hi[v], int32(w))
}

// protected reports whether the arc h → v (v's universal relation base) is inside a
// phrase that a cut must not split.
func (u *Runs) protected(s *syntax.Sentence, base rel, v, h int) bool {
	switch base {
	case relCase, relMark, relDet, relCc, relAux, relCop, relAmod, relNummod:
		return true
	case relCompound, relFlat, relFixed, relGoeswith:
		return !commaBetween(s, v, h) // no name holds a comma (bindOf)
	case relNmod:
		return strings.HasSuffix(s.Tokens[v-1].Rel, ":poss")
	case relConj:
		return !u.Loose && isNominal(&s.Tokens[v-1]) && isNominal(&s.Tokens[h-1])
	}
	return false
}

// isNameCut reports whether a name span [a, b] is kept in part by the membership in.
func isNameCut(span [2]int32, in func(int) bool) bool {
	kept, dropped := false, false
	for v := int(span[0]); v <= int(span[1]); v++ {
		if in(v) {
			kept = true
		} else {
			dropped = true
		}
	}
	return kept && dropped
}

// isHyphenatedName reports whether form is capitalized words joined by hyphens, each of
// two letters or more: "Ana-María", "Jean-Luc", not "E-Mail" nor "Covid-19".
func isHyphenatedName(form string) bool {
	if !strings.Contains(form, "-") {
		return false
	}
	for part := range strings.SplitSeq(form, "-") {
		r, _ := utf8.DecodeRuneInString(part)
		if utf8.RuneCountInString(part) < 2 || !unicode.IsUpper(r) || strings.IndexFunc(part, func(c rune) bool { return !unicode.IsLetter(c) }) >= 0 {
			return false
		}
	}
	return true
}

// isNameJoin reports whether a token may join two proper nouns into one name.
func isNameJoin(tok *syntax.Token) bool {
	switch tok.Form {
	case "of", "for", "de", "du", "la", "von", "van", "der", "the", "&":
		return true
	}
	return false
}

// isOfJoin reports whether a token joins an institution's name to what it is of: "of",
// "for", "de".
func isOfJoin(tok *syntax.Token) bool {
	switch tok.Form {
	case "of", "for", "de", "du":
		return true
	}
	return false
}

// institutions are the words that head a name with "of" inside ("University of Texas",
// "Secretary of State", "Duke of York"), lowercased.
var institutions = newLowerSet(
	"school", "schools", "university", "college", "institute", "academy", "bank", "department",
	"ministry", "museum", "church", "court", "council", "society", "association", "federation",
	"board", "commission", "committee", "office", "bureau", "agency", "secretary", "minister",
	"duke", "duchess", "earl", "king", "queen", "prince", "princess", "bishop", "archbishop",
	"republic", "kingdom", "union", "league", "order", "house", "chamber", "party", "city",
	"state", "states", "province", "county", "gulf", "bay", "isle", "cape", "lake", "sea",
	"center", "centre", "hospital", "foundation", "corps", "army", "navy", "division", "band",
)

// months are the month names, lowercased.
var months = newLowerSet(
	"january", "february", "march", "april", "may", "june",
	"july", "august", "september", "october", "november",
	"december", "jan.", "feb.", "mar.", "apr.", "jun.",
	"jul.", "aug.", "sep.", "sept.", "oct.", "nov.", "dec.",
	"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
)

// isMonth reports whether a token is a month's name (capitalised, a proper noun).
func isMonth(tok *syntax.Token) bool {
	return isProper(tok) && months.has(tok.Form)
}

// IsYear reports whether a form is a year: four digits from 1000 to 2999.
func IsYear(form string) bool {
	if len(form) != 4 || (form[0] != '1' && form[0] != '2') {
		return false
	}
	for i := 1; i < 4; i++ {
		if form[i] < '0' || form[i] > '9' {
			return false
		}
	}
	return true
}

// isNominal reports whether a token heads a noun phrase, a number or an adjective phrase:
// the conjuncts of a list.
func isNominal(tok *syntax.Token) bool {
	switch tok.UPOS {
	case "NOUN", "PROPN", "NUM", "ADJ", "PRON":
		return true
	case "":
		return strings.HasPrefix(tok.XPOS, "NN") || tok.XPOS == "CD" || strings.HasPrefix(tok.XPOS, "JJ")
	}
	return false
}

// readsAlone reports whether a token names something on its own: a noun, a proper noun,
// a number or a symbol (see Runs.Alone).
func readsAlone(tok *syntax.Token) bool {
	switch tok.UPOS {
	case "NOUN", "PROPN", "NUM", "SYM":
		return true
	case "":
		return strings.HasPrefix(tok.XPOS, "NN") || tok.XPOS == "CD"
	}
	return false
}

// isQuestionMark reports whether a token (of universal relation base) is a complementizer
// that makes its clause a question or a condition: "whether", "if".
func isQuestionMark(base rel, tok *syntax.Token) bool {
	return base == relMark && (strings.EqualFold(tok.Form, "whether") || strings.EqualFold(tok.Form, "if"))
}

// isMeasure reports whether token v (of universal relation base; number: a cardinal
// number), a dependent of head h, is the number of the unit h after it: "1,200 kg", "2900
// kilowatts". A run shows the unit with its number: "… kg (2,646 lb)" says nothing.
// Counted nouns ("four orbiters") are not bound: their number is a carrier of the snippet
// decoding, which weighs it against the rest.
func isMeasure(base rel, number bool, head *syntax.Token, v, h int) bool {
	return base == relNummod && v < h && number && units.has(head.Form)
}

// hasExponent reports whether a form ends in a superscript digit or sign: "m⁻¹", "km²".
func hasExponent(form string) bool {
	r, _ := utf8.DecodeLastRuneInString(form)
	switch {
	case r == '¹' || r == '²' || r == '³':
		return true
	case r >= '⁰' && r <= '⁾':
		return true
	}
	return false
}

// isQuantityPart reports whether a token may begin or continue a quantity that a unit with
// an exponent completes: a number, a unit, or a unit with an exponent.
func isQuantityPart(tok *syntax.Token) bool {
	return isNumber(tok) || units.has(tok.Form) || hasExponent(tok.Form)
}

// units are the units of measure, lowercased, as symbols and as words.
var units = newLowerSet(
	"mm", "cm", "m", "km", "ft", "yd", "mi", "nm",
	"mg", "g", "kg", "t", "lb", "lbs", "oz",
	"ml", "l", "gal",
	"w", "kw", "mw", "gw", "kwh", "mwh", "v", "kv", "hz", "khz", "mhz", "ghz",
	"kb", "mb", "gb", "tb",
	"mph", "kph", "km/h", "°c", "°f", "k",
	"millimetres", "millimeters", "centimetres", "centimeters", "metres", "meters", "kilometres", "kilometers",
	"inches", "feet", "yards", "miles", "acres", "hectares",
	"milligrams", "grams", "kilograms", "tonnes", "tons", "pounds", "ounces",
	"millilitres", "milliliters", "litres", "liters", "gallons", "barrels",
	"watts", "kilowatts", "megawatts", "gigawatts", "volts", "kilovolts", "amperes", "amps", "hertz",
	"kilobytes", "megabytes", "gigabytes", "terabytes", "degrees",
)

// isPossessive reports whether a token (of universal relation base) is the possessive 's
// (or ') of its head, which a run shows with the name it follows: "Del Frisco's", never
// "Del Frisco".
func isPossessive(base rel, tok *syntax.Token) bool {
	if base != relCase {
		return false
	}
	switch tok.Form {
	case "'s", "’s", "'S", "'", "’":
		return true
	}
	return false
}

// isEtAl reports whether tok and the token after it are "et al.".
func isEtAl(tok, next *syntax.Token) bool {
	return strings.EqualFold(tok.Form, "et") && (strings.EqualFold(next.Form, "al.") || strings.EqualFold(next.Form, "al"))
}

// canBeAuthor reports whether a token that is not punctuation can be the name an "et al."
// follows: a noun or a proper noun by its tags, or a word that begins with a capital
// letter whatever its tags ("Hartsell-Gundy", "Smith").
func canBeAuthor(tok *syntax.Token) bool {
	switch tok.UPOS {
	case "NOUN", "PROPN":
		return true
	}
	if strings.HasPrefix(tok.XPOS, "NN") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(tok.Form)
	return unicode.IsUpper(r)
}

// isParticle reports whether a token (of universal relation base, relation rel) is the
// particle of a phrasal verb, which a run shows with its verb both ways: "wear out", never
// "to wear …", whose meaning differs.
func isParticle(base rel, label string) bool {
	return base == relCompound && strings.HasSuffix(label, ":prt")
}

// attachesLeft reports whether a token (whose form has pairOpen open) is written against
// the word before it, so that a run cannot start on it: closing punctuation, a clitic such
// as 's or n't.
func attachesLeft(tok *syntax.Token, open int) bool {
	switch tok.Form {
	case ",", ".", ";", ":", "!", "?", "%", "'s", "'S", "’s", "'", "’", "n't", "N'T", "n’t", "'re", "'ve", "'ll", "'d", "'m", "...", "…":
		return true
	}
	return open < 0
}

// needsRight reports whether a dependent of universal relation base (relation rel)
// completes its head, so that a run does not end on the head when the dependent comes
// after it: an object, an indirect object, a clausal complement or a verb particle.
func needsRight(base rel, label string) bool {
	switch base {
	case relObj, relIobj, relCcomp, relXcomp:
		return true
	case relCompound:
		return isParticle(base, label)
	}
	return false
}

// isOfComplement reports whether token v (of universal relation base) is the "of" phrase
// that completes its head h right before it: "a member of the Protestant Church", "in
// favor of EPMI". A run that ends on h leaves the reader asking "of what?".
func isOfComplement(s *syntax.Sentence, t *syntax.Tree, base rel, v, h int) bool {
	return base == relNmod && h+1 < v && strings.EqualFold(s.Tokens[h].Form, "of") && t.Head(h+1) == v
}

// isOblique reports whether token v (of universal relation base) is the oblique phrase
// that completes the verb or adjective h right before it: "value derived from their own
// efforts", "ethnocentrism can lead to disdain", "Carolyn looked at her", "people
// different from them", "comfortable with it". A run that ends on h leaves the reader
// asking "from what?". One after a determiner, a possessive or a number is read as a noun
// or goes with one ("arrested 135 accused from …", "the accused"), which needs nothing.
func (u *Runs) isOblique(s *syntax.Sentence, t *syntax.Tree, base rel, v, h int) bool {
	if base != relObl || h+1 >= v || t.Head(h+1) != v || u.tok.rel[h+1] != relCase {
		return false
	}
	if x := s.Tokens[h-1].XPOS; !strings.HasPrefix(x, "VB") && x != "JJ" {
		return false
	}
	if h >= 2 {
		switch s.Tokens[h-2].XPOS {
		case "DT", "CD", "PRP$", "WP$":
			return false
		}
	}
	return true
}

// isFunctionRel reports whether a universal relation is that of a function word (see
// IsFunction).
func isFunctionRel(r rel) bool {
	switch r {
	case relCase, relMark, relDet, relCc, relAux, relCop:
		return true
	}
	return false
}

// isTo reports whether a token is the particle or infinitive marker "to".
func isTo(tok *syntax.Token) bool {
	return tok.XPOS == "TO" || (tok.UPOS == "PART" && strings.EqualFold(tok.Form, "to"))
}

// endsBadly reports whether a run may not end on a token of universal relation base (whose
// form has pairOpen open): a function word, "to", or a separator or opening half of a
// pair.
func endsBadly(base rel, tok *syntax.Token, open int) bool {
	return isFunctionRel(base) || isTo(tok) || isSeparator(tok.Form) || open > 0 || isFunctionTag(tok)
}

// isFunctionTag reports whether a token's tag makes it a function word that no run may end
// on, whatever relation the parse gave it: a coordinating conjunction or an article ("…
// training [24], and …", where "and" was parsed as a conjunct). A preposition may end
// one only where it is stranded, before punctuation or at the sentence's end ("more time
// at."), and a wh-word only at the end (isWh; both in Runs.Reset).
func isFunctionTag(tok *syntax.Token) bool {
	switch tok.XPOS {
	case "CC":
		return true
	case "DT":
		return articleForms.has(tok.Form)
	}
	return false
}

// isWh reports whether a token is a wh-word by its tag: "which", "who", "whose", "what",
// "where", "why". No run ends on one, which opens the clause after it ("the Institute,
// which …"), unless it is the sentence's last word ("nobody knows why.").
func isWh(tok *syntax.Token) bool {
	switch tok.XPOS {
	case "WDT", "WP", "WP$", "WRB":
		return true
	}
	return false
}

// introducesExample reports whether form opens an example or a gloss ("e.g.", "i.e.",
// "cf.", "viz."), which reads as nothing without what follows it.
func introducesExample(form string) bool {
	if len(form) < 2 || len(form) > 4 || !strings.ContainsRune("eEiIcCvV", rune(form[0])) {
		return false // most tokens, without a comparison
	}
	for _, w := range exampleForms {
		if strings.EqualFold(form, w) {
			return true
		}
	}
	return false
}

// exampleForms are the words introducesExample knows, in any case.
var exampleForms = [...]string{"e.g.", "e.g", "eg.", "i.e.", "i.e", "ie.", "cf.", "cf", "viz.", "viz"}

// articleForms are the articles, lowercased, whatever their relation (IsArticle asks for det).
var articleForms = newLowerSet("a", "an", "the")

// straightQuote is +1 when the straight double quote at token i of s opens a quotation,
// −1 when it closes one, 0 when neither is known. It is read from where the quote stands
// in the text: it opens attached to the word after it and not to the one before (said "it,
// or a sentence's first token), and closes the other way (mistake," said). Without
// offsets (a sentence given as tokens), straight quotes alternate, as Pairs pairs them.
func (u *Runs) straightQuote(s *syntax.Sentence, i int) int {
	t := &s.Tokens[i]
	if t.End > t.Start {
		after := i > 0 && s.Tokens[i-1].End == t.Start                // attached to the token before
		before := i+1 < len(s.Tokens) && s.Tokens[i+1].Start == t.End // and to the one after
		switch {
		case before && !after:
			return 1
		case after && !before:
			return -1
		}
		return 0
	}
	if len(u.dquote) != len(s.Tokens) { // the pairs of this sentence, once
		u.dquote = reuse.Resize(u.dquote, len(s.Tokens))
		clear(u.dquote)
		u.pairs.pairs(s, func(o, c int) {
			if s.Tokens[o-1].Form == `"` && s.Tokens[c-1].Form == `"` {
				u.dquote[o-1], u.dquote[c-1] = 1, -1
			}
		})
	}
	return int(u.dquote[i])
}

// Quotation returns the halves o < v < c of the innermost pair of double quotes as text
// writes them (writtenQuote, as Pairs pairs them) that encloses token v of s, the
// sentence of the last Reset; 0, 0 when none does. A snippet that shows a word of a
// quotation shows the quotation's marks, so that the quoted words do not read as the
// text's own (the run program's Show). The first call after Reset pairs the sentence's
// quotes, in O(n·d) for d the depth of their nesting; every other call costs O(1).
func (u *Runs) Quotation(s *syntax.Sentence, v int) (o, c int) {
	n := u.n
	if v < 1 || v > n || s.Len() != n {
		return 0, 0
	}
	if len(u.quoteO) != n+1 {
		u.quoteO, u.quoteC = reuse.Resize(u.quoteO, n+1), reuse.Resize(u.quoteC, n+1)
		clear(u.quoteO)
		clear(u.quoteC)
		// Pairs reports an inner pair before the pair around it: the first pair to claim
		// a token is its innermost.
		u.pairs.pairs(s, func(o, c int) {
			if !writtenQuote(s.Tokens[o-1].Form) || !writtenQuote(s.Tokens[c-1].Form) {
				return
			}
			for w := o + 1; w < c; w++ {
				if u.quoteO[w] == 0 {
					u.quoteO[w], u.quoteC[w] = int32(o), int32(c)
				}
			}
		})
	}
	return int(u.quoteO[v]), int(u.quoteC[v])
}

// writtenQuote reports whether form is a double quote as text writes it: a straight
// one, “ ”, „ or « ». A treebank's quotes, two backticks and two apostrophes, are not: no
// reader's text holds them, and a display leaves a lone one out (internal/core/display).
func writtenQuote(form string) bool {
	switch form {
	case `"`, "“", "”", "„", "«", "»":
		return true
	}
	return false
}

// pairOpen is +1 for an opening quote or bracket, −1 for a closing one, 0 otherwise (a
// straight quote counts as neither).
func pairOpen(form string) int {
	dir, _ := pairKind(form)
	if dir == 2 {
		return 0
	}
	return dir
}

// Choppiness is how choppy compressions read in the display rendering, where every cut
// that drops a word is shown as "…". Counts are over compressions.
type Choppiness struct {
	// Snippets is the number of compressions measured.
	Snippets int `json:"snippets"`
	// Gaps is the total number of inner cuts: "…" between two shown runs.
	Gaps int `json:"inner_gaps"`
	// Islands counts compressions with a shown run of one word that is not a query term.
	Islands int `json:"one_word_islands"`
	// AfterFunction counts compressions with a cut right after a function word ("the …
	// client", "in the … race").
	AfterFunction int `json:"gaps_after_function_word"`
	// NamesCut counts compressions that keep a name in part, across a cut ("Saks …
	// Avenue").
	NamesCut int `json:"names_cut"`
}

// Add adds o to c.
func (c *Choppiness) Add(o Choppiness) {
	c.Snippets += o.Snippets
	c.Gaps += o.Gaps
	c.Islands += o.Islands
	c.AfterFunction += o.AfterFunction
	c.NamesCut += o.NamesCut
}

// Chopper measures Choppiness. It reuses its memory; the zero value is ready. It is not
// safe for concurrent use.
type Chopper struct {
	runs   Runs
	in     []bool
	text   []byte         // the sentence's text, the tokens joined as written
	at     []display.Span // at[v-1]: token v's span of text
	kept   []display.Span // the runs of kept tokens
	hits   []display.Span // the query tokens
	pieces []display.Piece
	forms  []string // scratch of textOf
	sc     display.Scratch
}

// textOf sets k.text to the text of s as the product shows it (the view of package qsc):
// the tokens placed by their offsets, a space where their texts are apart, when every
// token has ascending offsets; else the tokens detokenized (display.Detokenize), as a
// sentence given as tokens is shown. k.at holds each token's span of it.
func (k *Chopper) textOf(s *syntax.Sentence) {
	k.text, k.at = k.text[:0], k.at[:0]
	end := 0
	for i := range s.Tokens {
		if t := &s.Tokens[i]; t.Start < end || t.End <= t.Start {
			k.forms = k.forms[:0]
			for i := range s.Tokens {
				k.forms = append(k.forms, s.Tokens[i].Form)
			}
			k.text, k.at = display.AppendDetokenized(k.text, k.at, k.forms)
			return
		}
		end = s.Tokens[i].End
	}
	for i := range s.Tokens {
		tok := &s.Tokens[i]
		if i > 0 && tok.Start > s.Tokens[i-1].End {
			k.text = append(k.text, ' ')
		}
		st := len(k.text)
		k.text = append(k.text, tok.Form...)
		k.at = append(k.at, display.Span{Start: st, End: len(k.text)})
	}
}

// Chop measures one compression kept (1-based token ids of s, any order) with the query
// tokens query, as the ellipsis rendering shows it: the runs and cuts are the
// rendering's own (display.Scratch.Pieces), over the text the product shows (textOf).
// So a gap is a stretch of dropped text that holds a word (a dropped comma alone is not
// shown as a cut), and a kept run of punctuation alone after a cut (a final period) is
// not shown. It allocates the
// sentence's text once per call.
func (k *Chopper) Chop(s *syntax.Sentence, t *syntax.Tree, kept, query []int) Choppiness {
	c := Choppiness{Snippets: 1}
	n := s.Len()
	k.runs.Reset(s, t, nil, query)
	u := &k.runs
	k.in = reuse.Resize(k.in, n+2)
	clear(k.in)
	nk := 0
	for _, v := range kept {
		if v >= 1 && v <= n && !k.in[v] {
			k.in[v] = true
			nk++
		}
	}
	if nk == 0 {
		return c
	}
	k.textOf(s)
	text := string(k.text)
	k.kept, k.hits = k.kept[:0], k.hits[:0]
	for v := 1; v <= n; v++ {
		if !k.in[v] {
			continue
		}
		if v > 1 && k.in[v-1] {
			k.kept[len(k.kept)-1].End = k.at[v-1].End
		} else {
			k.kept = append(k.kept, k.at[v-1])
		}
		if u.inQ[v] {
			k.hits = append(k.hits, k.at[v-1])
		}
	}
	pieces, trail := k.sc.Pieces(k.pieces[:0], text, display.Span{End: len(text)}, k.kept, k.hits)
	k.pieces = pieces
	// Walk the shown runs: pieces joined where no "…" comes between them.
	island, after := false, false
	words, lastWord, nq := 0, 0, 0
	flush := func(cut bool) {
		if words == 1 && nq == 0 {
			island = true
		}
		if cut && lastWord != 0 && endsBadly(u.tok.rel[lastWord], &s.Tokens[lastWord-1], u.tok.pairOpen(lastWord)) {
			after = true
		}
	}
	cutAny := trail
	v := 1
	for i, p := range pieces {
		if p.Cut {
			cutAny = true
			if i > 0 {
				flush(true)
				c.Gaps++
				words, lastWord, nq = 0, 0, 0
			}
		}
		for v <= n && k.at[v-1].Start < p.Start {
			v++
		}
		for ; v <= n && k.at[v-1].End <= p.End; v++ {
			if !k.in[v] || !u.word[v] {
				continue
			}
			words++
			lastWord = v
			if u.inQ[v] {
				nq++
			}
		}
	}
	if !cutAny {
		return Choppiness{Snippets: 1}
	}
	flush(trail)
	if island {
		c.Islands = 1
	}
	if after {
		c.AfterFunction = 1
	}
	in := func(v int) bool { return k.in[v] }
	for _, sp := range u.spans {
		if isNameCut(sp, in) {
			c.NamesCut = 1
			break
		}
	}
	return c
}
