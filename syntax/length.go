package syntax

import "unicode/utf8"

// Lengths. Budgets and compressions are measured in one unit, ℓ: the characters of the
// token forms joined by single spaces, counted as Unicode code points (runes). The length
// of a token is TokenLen of its form, and its weight that length plus one, its share of
// the spaces; the length of a set of tokens is its weight less one,
// ℓ(C) = Σ_{v∈C} TokenLen(v) + |C| − 1, and ℓ(∅) = 0.

// TokenLen returns the length of a token form: its number of runes.
func TokenLen(form string) int { return utf8.RuneCountInString(form) }

// Length returns ℓ of a set of tokens from its weight w = Σ (TokenLen + 1) over the set:
// w − 1, and 0 for the empty set (w = 0). It is the one definition of ℓ; every length in
// the unit of the budget goes through it.
func Length(w int) int { return max(w-1, 0) }

// Length returns ℓ of the tokens ids (1-based, in any order; not checked) of s. It costs
// O(Σ of their byte lengths) and allocates nothing.
func (s *Sentence) Length(ids []int) int {
	w := 0
	for _, id := range ids {
		w += TokenLen(s.Tokens[id-1].Form) + 1
	}
	return Length(w)
}

// AppendLens appends the length (TokenLen) of every token of s, in order, to dst.
func (s *Sentence) AppendLens(dst []int) []int {
	for i := range s.Tokens {
		dst = append(dst, TokenLen(s.Tokens[i].Form))
	}
	return dst
}
