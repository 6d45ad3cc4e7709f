package wellformed

import (
	"fmt"
	"strings"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// Rules are the bindings of one sentence, for one query and budget. A method keeps a set
// C closed under them: for every kept token v, its unit is kept, and when v's unit needs
// its head, the unit of that head too (Closure). Rules reuse their memory: the zero value
// is ready, Reset costs O(n) and, once the buffers have grown, allocates nothing.
type Rules struct {
	// Off switches rules off: bit k set leaves category k unenforced (for ablations;
	// FunctionEnd switches off Trim). The zero value enforces every rule.
	Off uint16

	n       int
	head    []int32    // rule head: the tree head, or as a pair or an article needs (Head)
	bind    []Binding  // binding of v to head[v]
	why     []Category // the rule behind bind[v]
	top     []int32    // the unit of v: its highest member
	next    []int32    // the next member of v's unit (0 ends), a list from the top
	ulen    []int      // at a top: Σ (len + 1) over the unit's members
	w       []int      // len + 1 of each token
	inQ     []bool
	tok     tokens      // the relations and facts of the tokens
	neg     []uint8     // neg[v]: the negation marks of v (negations)
	tree    syntax.Tree // the rule tree (rule heads)
	heads   []int
	stack   []int32
	pb      pairBuf
	yielded bool
}

// N returns the number of tokens.
func (r *Rules) N() int { return r.n }

// Head returns the rule head of v: its tree head, except for an article that needs the
// word after it (see the package documentation, Articles) and for the halves of a pair of
// quotes or brackets. When both are leaves, the opening half's rule head is the head of
// what the pair encloses (NeedsHead), and the closing half's is the opening half
// (WithHead); otherwise the closing half takes the head of the opening half (or the
// reverse), and both are kept with it.
func (r *Rules) Head(v int) int { return int(r.head[v]) }

// Binding returns the binding of v to its rule head.
func (r *Rules) Binding(v int) Binding { return r.bind[v] }

// Why returns the rule that binds v (meaningful when Binding(v) is not Free).
func (r *Rules) Why(v int) Category { return r.why[v] }

// Top returns the unit of v: its highest member. A unit is kept all or none.
func (r *Rules) Top(v int) int { return int(r.top[v]) }

// Next returns the member of v's unit after v (0 after the last); the list starts at the
// unit's top.
func (r *Rules) Next(v int) int { return int(r.next[v]) }

// UnitWeight returns Σ (len + 1) over the members of the unit whose top is t.
func (r *Rules) UnitWeight(t int) int { return r.ulen[t] }

// Requires returns the unit that the unit with top t needs (the unit of its rule head,
// when t is bound NeedsHead: a function word, or a word an article's agreement needs),
// or 0.
func (r *Rules) Requires(t int) int {
	if r.bind[t] == NeedsHead && r.head[t] != 0 {
		return int(r.top[r.head[t]])
	}
	return 0
}

// NeedsHead reports whether v ∈ C implies Head(v) ∈ C.
func (r *Rules) NeedsHead(v int) bool { return r.bind[v] != Free && r.head[v] != 0 }

// WithHead reports whether Head(v) ∈ C implies v ∈ C (and the reverse).
func (r *Rules) WithHead(v int) bool { return r.bind[v] == WithHead && r.head[v] != 0 }

// Punct reports whether token v is punctuation (its relation is punct, or its UPOS
// PUNCT).
func (r *Rules) Punct(v int) bool { return r.tok.has(v, factPunct) }

// Hedge reports whether token v is an epistemic hedge on its head (IsHedge).
func (r *Rules) Hedge(v int) bool { return r.tok.has(v, factHedge) }

// Tree returns the rule tree: the parse with each token under its rule head. It is valid
// until the next Reset.
func (r *Rules) Tree() *syntax.Tree { return &r.tree }

// ParseOff returns the Off mask of the named categories (comma-separated, as
// Category.String gives them).
func ParseOff(names string) (uint16, error) {
	var m uint16
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		found := false
		for _, k := range Categories() {
			if k.String() == name {
				m |= 1 << k
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("wellformed: unknown rule %q (want one of %v)", name, categoryNames)
		}
	}
	return m, nil
}

// Yielded reports whether the closure of the query did not fit the budget, so that the
// query tokens were freed of their bindings for this request.
func (r *Rules) Yielded() bool { return r.yielded }

// MarkYielded records that a decoder let rules of its own (the display rules of Runs)
// yield to the query for this request, so that Yielded reports it too.
func (r *Rules) MarkYielded() { r.yielded = true }

// Reset computes the rules of s (parsed, with tree t and token lengths lens) for the
// query and budget. It fails only on inconsistent input.
func (r *Rules) Reset(s *syntax.Sentence, t *syntax.Tree, lens []int, query []int, budget int) error {
	n := t.N()
	if s == nil || s.Len() != n || len(lens) != n {
		return fmt.Errorf("wellformed: sentence, tree and lengths disagree")
	}
	r.n, r.yielded = n, false
	r.head = reuse.Resize(r.head, n+1)
	r.bind = reuse.Resize(r.bind, n+1)
	r.why = reuse.Resize(r.why, n+1)
	r.inQ = reuse.Resize(r.inQ, n+1)
	clear(r.inQ)
	r.head[0], r.bind[0] = 0, Free
	r.w = reuse.Resize(r.w, n+1)
	r.tok.reset(s)
	for v := 1; v <= n; v++ {
		r.head[v] = int32(t.Head(v))
	}
	r.neg = negations(s, &r.tok, r.head, r.neg)
	for v := 1; v <= n; v++ {
		r.w[v] = lens[v-1] + 1
		r.bind[v], r.why[v] = bindOf(s, &r.tok, v, int(r.head[v]), r.neg)
		if r.Off&(1<<r.why[v]) != 0 && r.bind[v] != Free {
			r.bind[v] = Free
		}
	}
	if r.Off&(1<<Symbol) == 0 {
		for v := 1; v < n; v++ {
			form := s.Tokens[v-1].Form
			switch {
			case isRangeDash(s, v):
				// "the 2013–2016 epidemic": the dash and both years, however parsed
				r.bindToValue(t, v)
				r.joinRange(t, v-1, v+1)
			case isPlusMinus(form) && v > 1 && r.tok.has(v-1, factNumber) && r.tok.has(v+1, factNumber),
				isRelation(form) && r.tok.has(v+1, factNumber):
				// "38.2 ± 4.1%", "T_c ≈ 294 K", "p < 0.05": the sign with its value
				r.bindToValue(t, v)
			}
		}
	}
	if r.Off&(1<<Article) == 0 {
		for v := 1; v < n; v++ {
			if a, vowel := isArticle(r.tok.rel[v], &s.Tokens[v-1]); a {
				r.bindArticle(s, t, v, vowel)
			}
		}
	}
	if r.Off&(1<<Balance) == 0 {
		r.pb.pairs(s, func(o, c int) { r.bindPair(s, t, o, c) })
	}
	if err := r.ruleTree(t); err != nil {
		return err
	}
	for _, q := range query {
		if q >= 1 && q <= n {
			r.inQ[q] = true
		}
	}
	r.units(lens)
	if r.closureLen(query) > budget {
		// Yield: free the query tokens, and let their WithHead dependents merely need them.
		r.yielded = true
		for _, q := range query {
			if q < 1 || q > n {
				continue
			}
			r.bind[q] = Free
		}
		for v := 1; v <= n; v++ {
			if h := r.head[v]; h != 0 && r.inQ[h] && r.bind[v] == WithHead {
				r.bind[v] = NeedsHead
			}
		}
		r.units(lens)
	}
	return nil
}

// ruleTree builds the rule tree from the rule heads: a copy of the parse t, which costs
// less than a rebuild, when no rule re-headed a token. It fails only on heads that make no
// tree.
func (r *Rules) ruleTree(t *syntax.Tree) error {
	n := r.n
	same := true
	for v := 1; v <= n && same; v++ {
		same = int(r.head[v]) == t.Head(v)
	}
	if same {
		r.tree.CopyFrom(t)
		return nil
	}
	r.heads = reuse.Resize(r.heads, n)
	for v := 1; v <= n; v++ {
		r.heads[v-1] = int(r.head[v])
	}
	if err := r.tree.Reset(r.heads); err != nil {
		return fmt.Errorf("wellformed: rule tree: %w", err)
	}
	return nil
}

// units computes the units from the bindings: top, the member lists and their weights.
func (r *Rules) units(lens []int) {
	n := r.n
	r.top = reuse.Resize(r.top, n+1)
	r.next = reuse.Resize(r.next, n+1)
	r.ulen = reuse.Resize(r.ulen, n+1)
	clear(r.top)
	clear(r.next)
	clear(r.ulen)
	for v := 1; v <= n; v++ {
		// Follow WithHead bindings up to the first token whose top is known or that is a
		// top itself, then set the path.
		r.stack = r.stack[:0]
		u := int32(v)
		for r.top[u] == 0 {
			r.stack = append(r.stack, u)
			if r.bind[u] != WithHead || r.head[u] == 0 {
				r.top[u] = u
				break
			}
			u = r.head[u]
		}
		t := r.top[u]
		for _, w := range r.stack {
			r.top[w] = t
		}
	}
	for v := n; v >= 1; v-- { // lists in ascending order after the top
		t := r.top[v]
		r.ulen[t] += lens[v-1] + 1
		if int(t) != v {
			r.next[v] = r.next[t]
			r.next[t] = int32(v)
		}
	}
}

// closureLen returns ℓ of the closure of the query.
func (r *Rules) closureLen(query []int) int {
	w := 0
	r.stack = r.stack[:0]
	seen := func(t int32) bool {
		for _, x := range r.stack {
			if x == t {
				return true
			}
		}
		return false
	}
	for _, q := range query {
		if q < 1 || q > r.n {
			continue
		}
		for t := r.top[q]; t != 0 && !seen(t); t = int32(r.Requires(int(t))) {
			r.stack = append(r.stack, t)
			w += r.ulen[t]
		}
	}
	return syntax.Length(w)
}

// Closure calls add for every token that keeping v brings into C: the members of v's
// unit, then of the unit it requires, and so on, stopping at a unit for which inC
// reports true for its top (C holds a unit whole once it holds its top). Members that C
// already holds are skipped: a query token can be in C before the rest of its unit. It
// returns the added weight Σ (len + 1). With add nil it only measures.
func (r *Rules) Closure(v int, inC func(int) bool, add func(int)) int {
	w := 0
	for t := r.Top(v); t != 0 && !inC(t); t = r.Requires(t) {
		w += r.unit(t, inC, add)
	}
	return w
}

// unit returns the weight of the members of the unit with top t that C does not hold
// (inC), and calls add, when not nil, for each of them.
func (r *Rules) unit(t int, inC func(int) bool, add func(int)) int {
	w := 0
	for u := t; u != 0; u = int(r.next[u]) {
		if !inC(u) {
			w += r.w[u]
			if add != nil {
				add(u)
			}
		}
	}
	return w
}

// QueryClosure calls add for every token that the query brings into C, beyond the query
// tokens themselves: the other members of their units, and the units those need (inC
// tells what C already holds; add must make inC true). It returns the weight added,
// Σ (len + 1) over the tokens added.
func (r *Rules) QueryClosure(query []int, inC func(int) bool, add func(int)) int {
	w := 0
	for _, q := range query {
		if q < 1 || q > r.n {
			continue
		}
		t := r.Top(q)
		w += r.unit(t, inC, add)
		if req := r.Requires(t); req != 0 {
			w += r.Closure(req, inC, add)
		}
	}
	return w
}

// Trim drops trailing function words and separators (comma, colon, semicolon, dash)
// from kept (ascending token ids), with their units, so that the compression does not
// end on one: the last kept token must not be a separator, and the last kept word
// (trailing punctuation aside) must not be a function word, unless it is a query token or
// something kept needs it. It returns the shortened slice (sharing kept's memory).
func (r *Rules) Trim(s *syntax.Sentence, kept []int) []int {
	for len(kept) > 0 && r.Off&(1<<FunctionEnd) == 0 {
		// The last word, after the trailing punctuation; a separator in that
		// punctuation goes first.
		i := len(kept) - 1
		v := 0
		for ; i >= 0 && r.Punct(kept[i]); i-- {
			if v == 0 && isSeparator(s.Tokens[kept[i]-1].Form) {
				v = kept[i]
			}
		}
		if v == 0 {
			if i < 0 || !isFunctionRel(r.tok.rel[kept[i]]) {
				return kept
			}
			v = kept[i]
		}
		t := r.Top(v)
		// The unit must hold no query token, and nothing kept outside it may need it.
		for u := t; u != 0; u = int(r.next[u]) {
			if r.inQ[u] {
				return kept
			}
		}
		for _, x := range kept {
			if r.top[x] != int32(t) && r.NeedsHead(x) && r.top[r.head[x]] == int32(t) {
				return kept
			}
		}
		out := kept[:0]
		for _, x := range kept {
			if r.top[x] != int32(t) {
				out = append(out, x)
			}
		}
		if len(out) == len(kept) {
			return kept
		}
		kept = out
	}
	return kept
}

// isSeparator reports whether a form is punctuation that cannot end a compression.
func isSeparator(form string) bool {
	switch form {
	case ",", ";", ":", "-", "--", "–", "—":
		return true
	}
	return false
}

// enclosedRoot returns the first token between the halves o < c of a pair, neither of
// them with children, that is not punctuation and whose head is outside the pair: the
// head of what the pair encloses. It returns 0 when there is none, or when a half has
// children.
func enclosedRoot(s *syntax.Sentence, t *syntax.Tree, o, c int) int {
	if t.NumChildren(o) != 0 || t.NumChildren(c) != 0 {
		return 0
	}
	for v := o + 1; v < c; v++ {
		if h := t.Head(v); (h < o || h > c) && relOf(s.Tokens[v-1].Rel) != relPunct {
			if dir, _ := pairKind(s.Tokens[v-1].Form); dir == 0 {
				return v
			}
		}
	}
	return 0
}

// bindPair binds the halves o < c of a pair of quotes or brackets so that they are kept
// together (see Head); of a pair of single quotes, only the closing half to the opening.
// bindToValue binds the sign v ("±", "≈", "<", a range's dash) to the value after it,
// token v+1, so that no display shows the sign without its value ("T_c ≈ …") nor the
// numbers around it without the sign ("38.2 4.1%", another number): a sign the parse
// left a leaf is re-headed to the value; one the parse made the value's head (or its
// head's) keeps the tokens on the value's path to it, when that path stays within the
// next three tokens.
func (r *Rules) bindToValue(t *syntax.Tree, v int) {
	if t.NumChildren(v) == 0 {
		r.head[v], r.bind[v], r.why[v] = int32(v+1), WithHead, Symbol
		return
	}
	hi := min(v+3, t.N())
	for x := v + 1; x != v; x = t.Head(x) {
		if x <= v || x > hi {
			return // the value is not under the sign nearby
		}
	}
	for x := v + 1; x != v; x = t.Head(x) {
		r.bind[x], r.why[x] = WithHead, Symbol
	}
}

// joinRange binds the numbers a and b of a range ("2013–2016") as one unit with its dash
// (bindToValue has bound the dash to b): a number the parse left a leaf goes with the
// other one. When neither is a leaf, their parse binds them or nothing does.
func (r *Rules) joinRange(t *syntax.Tree, a, b int) {
	switch {
	case t.Head(a) == b || t.Head(b) == a:
		// bindOf's isRange binds them
	case t.NumChildren(b) == 0:
		r.head[b], r.bind[b], r.why[b] = int32(a), WithHead, Symbol
	case t.NumChildren(a) == 0:
		r.head[a], r.bind[a], r.why[a] = int32(b), WithHead, Symbol
	}
}

// isRelation reports whether form compares a quantity with the value after it.
func isRelation(form string) bool {
	switch form {
	case "≈", "~", "<", ">", "≤", "≥", "=", "≃", "≅", "∼", "<=", ">=":
		return true
	}
	return false
}

// isPlusMinus reports whether form is a plus-minus sign, between a value and its error.
func isPlusMinus(form string) bool {
	switch form {
	case "±", "∓", "+/-", "+/−", "+-":
		return true
	}
	return false
}

func (r *Rules) bindPair(s *syntax.Sentence, t *syntax.Tree, o, c int) {
	if dir, _ := pairKind(s.Tokens[o-1].Form); dir == 0 {
		// A pair of single quotes (singleQuote): the closing half needs the opening one,
		// so "Moore Noyce' but" never shows, but the opening half may show before a cut
		// ("a movie 'Bhootnath 2 …"), as a long quotation's does, rather than cost the
		// snippet the name it opens.
		r.head[c], r.bind[c], r.why[c] = int32(o), NeedsHead, Balance
		return
	}
	if root := enclosedRoot(s, t, o, c); root != 0 {
		// Both halves leaves: they go together, and only with what they enclose;
		// brackets also whenever it is kept.
		bind := NeedsHead
		if _, typ := pairKind(s.Tokens[o-1].Form); typ != '"' {
			bind = WithHead
		}
		r.head[o], r.bind[o], r.why[o] = int32(root), bind, Balance
		r.head[c], r.bind[c], r.why[c] = int32(o), WithHead, Balance
		return
	}
	ho, hc := r.head[o], r.head[c]
	switch {
	case ho == hc && ho != 0:
	case t.NumChildren(c) == 0 && ho != 0 && int(ho) != c:
		r.head[c] = ho
	case t.NumChildren(o) == 0 && hc != 0 && int(hc) != o:
		r.head[o] = hc
	case t.NumChildren(c) == 0:
		// No head to share (a half is the root of the parse): the closing half goes
		// with the opening one.
		r.head[c], r.bind[c], r.why[c] = int32(o), WithHead, Balance
		return
	case t.NumChildren(o) == 0:
		r.head[o], r.bind[o], r.why[o] = int32(c), WithHead, Balance
		return
	default:
		return // neither half is a leaf, and they share no head: rare
	}
	// Both now share a head other than the root.
	r.bind[o], r.why[o] = WithHead, Balance
	r.bind[c], r.why[c] = WithHead, Balance
}

// bindArticle binds the article v (a leaf, bound to its head h after it) so that it is
// kept only with the words that make it agree. Let w be the first word after v (quotes
// and other punctuation skipped). When a word in (w, h] starts with the other sound ("a
// long investigation", an "unnatural, sudden" death), and the tokens from w up the
// parse to h all lie between v and h and are words, v needs w instead of h, and each
// token on that path needs its head. The rule tree stays a tree: v has no children.
// vowel is the sound the article asks for, as IsArticle reports it.
func (r *Rules) bindArticle(s *syntax.Sentence, t *syntax.Tree, v int, vowel bool) {
	h := t.Head(v)
	if h <= v+1 || r.bind[v] != NeedsHead || t.NumChildren(v) != 0 {
		return
	}
	w := v + 1
	for w < h && r.Punct(w) {
		w++
	}
	clash := false
	for u := w + 1; u <= h && !clash; u++ {
		clash = !r.Punct(u) && disagrees(vowel, s.Tokens[u-1].Form)
	}
	if !clash {
		return
	}
	for u := w; u != h; u = t.Head(u) {
		if u <= v || u > h || r.Punct(u) {
			return // the path leaves the phrase
		}
	}
	for u := w; u != h; u = t.Head(u) {
		if r.bind[u] == Free {
			r.bind[u], r.why[u] = NeedsHead, Article
		}
	}
	r.head[v], r.why[v] = int32(w), Article
}
