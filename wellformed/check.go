package wellformed

import (
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// Counts are the violations of one or more compressions, by category. A violation that
// involves a query token (the token or the head it is bound to is in Q) is counted in
// Forced as well as in Total: only the query could force it.
type Counts struct {
	Total  [NumCategories]int
	Forced [NumCategories]int
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	for i := range c.Total {
		c.Total[i] += o.Total[i]
		c.Forced[i] += o.Forced[i]
	}
}

// Unforced returns the violations of category k that the query did not force.
func (c *Counts) Unforced(k Category) int { return c.Total[k] - c.Forced[k] }

// Any reports whether c holds a violation of a rule (hedges aside).
func (c *Counts) Any() bool {
	for k := range Hedge {
		if c.Total[k] > 0 {
			return true
		}
	}
	return false
}

// Checker counts the violations of compressions. It reuses its memory; the zero value is
// ready. It is not safe for concurrent use.
type Checker struct {
	in   []bool
	q    []bool
	tok  tokens
	head []int32 // head[v]: the head of token v, as s gives it
	neg  []uint8
}

// Check counts the violations of kept (1-based token ids of s, any order) under the
// relations and heads of s, with query tokens query. A token id outside s is ignored.
func (k *Checker) Check(s *syntax.Sentence, kept, query []int) Counts {
	var c Counts
	n := s.Len()
	k.in = reuse.Resize(k.in, n+1)
	k.q = reuse.Resize(k.q, n+1)
	clear(k.in)
	clear(k.q)
	last := 0
	k.tok.reset(s)
	k.head = reuse.Resize(k.head, n+1)
	k.head[0] = 0
	for v := 1; v <= n; v++ {
		k.head[v] = int32(max(min(s.Tokens[v-1].Head, n+1), -1)) // a head outside 1..n stays outside
	}
	k.neg = negations(s, &k.tok, k.head, k.neg)
	for _, v := range kept {
		if v >= 1 && v <= n {
			k.in[v] = true
		}
	}
	for _, v := range query {
		if v >= 1 && v <= n {
			k.q[v] = true
		}
	}
	count := func(cat Category, forced bool) {
		c.Total[cat]++
		if forced {
			c.Forced[cat]++
		}
	}
	for v := 1; v <= n; v++ {
		tok := &s.Tokens[v-1]
		if k.in[v] && !k.tok.has(v, factPunct) {
			last = v
		}
		h := tok.Head
		if h < 1 || h > n {
			continue
		}
		forced := k.q[v] || k.q[h]
		b, why := bindOf(s, &k.tok, v, h, k.neg)
		switch {
		case why == Balance: // quotes and brackets are checked by pairs below
		case b == NeedsHead:
			if k.in[v] && !k.in[h] {
				if why != Negation {
					why = FunctionHead
				}
				count(why, forced)
			}
		case b == WithHead && (why == Negation || why == Hedge):
			if k.in[h] && !k.in[v] {
				count(why, forced)
			}
		case b == WithHead:
			if k.in[v] != k.in[h] {
				count(why, forced)
			}
		}
	}
	if last > 0 && isFunctionRel(k.tok.rel[last]) {
		count(FunctionEnd, k.q[last])
	}
	for v := 1; v < n; v++ {
		a, vowel := isArticle(k.tok.rel[v], &s.Tokens[v-1])
		if !a || !k.in[v] {
			continue
		}
		// The next kept word, and the word that follows the article in s.
		next, after := 0, 0
		for u := v + 1; u <= n && next == 0; u++ {
			if k.tok.has(u, factPunct) {
				continue
			}
			if after == 0 {
				after = u
			}
			if k.in[u] {
				next = u
			}
		}
		if next != 0 && next != after && disagrees(vowel, s.Tokens[next-1].Form) {
			count(Article, k.q[v] || k.q[next])
		}
	}
	Pairs(s, func(o, cl int) {
		if k.in[o] != k.in[cl] {
			count(Balance, k.q[o] || k.q[cl])
		}
	})
	return c
}
