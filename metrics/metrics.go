// Package metrics scores sentence compressions the way Handler & O'Connor (2019) do: token
// F1 against the gold compression, compression ratio, a latency summary, and the paired
// bootstrap significance test of Berg-Kirkpatrick et al. (2012).
//
// Token ids are 1-based positions in the sentence S, as in CoNLL-U. Character lengths count
// runes (Unicode code points), not bytes; on the ASCII text the authors used the two agree.
//
// Sentence-level functions return an error, never panic, on ids out of range, repeated ids
// or empty input.
package metrics

import (
	"errors"
	"fmt"

	"github.com/qsc-nlp/qsc/syntax"
)

// ErrEmpty is returned (wrapped) for empty input where a value is undefined.
var ErrEmpty = errors.New("metrics: empty input")

// checkIDs reports an error unless every id lies in 1..n and none repeats. It returns a
// membership table indexed by id (entry 0 unused).
func checkIDs(n int, ids []int, what string) ([]bool, error) {
	in := make([]bool, n+1)
	for _, id := range ids {
		if id < 1 || id > n {
			return nil, fmt.Errorf("metrics: %s id %d out of range 1..%d", what, id, n)
		}
		if in[id] {
			return nil, fmt.Errorf("metrics: %s id %d repeated", what, id)
		}
		in[id] = true
	}
	return in, nil
}

// F1 returns the binary token F1 of one sentence of n tokens: the tokens with ids in pred
// (predicted kept) are scored against those in gold (gold kept), as scikit-learn's
// f1_score on two boolean vectors of length n with the kept class as positive. With tp the
// ids in both, fp those only in pred and fn those only in gold,
//
//	F1 = 2·tp / (2·tp + fp + fn),
//
// the harmonic mean of precision tp/(tp+fp) and recall tp/(tp+fn). Degenerate cases follow
// scikit-learn (zero_division=0): when pred and gold are both empty the denominator is 0 and
// F1 is 0; when only one is empty, tp = 0 and F1 is 0.
//
// Ids may come in any order. An id outside 1..n or repeated within pred or gold is an
// error. The reported corpus figure is the mean of F1 over sentences (see Mean).
func F1(n int, pred, gold []int) (float64, error) {
	if n < 0 {
		return 0, fmt.Errorf("metrics: negative sentence length %d", n)
	}
	inGold, err := checkIDs(n, gold, "gold")
	if err != nil {
		return 0, err
	}
	if _, err := checkIDs(n, pred, "predicted"); err != nil {
		return 0, err
	}
	tp := 0
	for _, id := range pred {
		if inGold[id] {
			tp++
		}
	}
	fp := len(pred) - tp
	fn := len(gold) - tp
	den := 2*tp + fp + fn
	if den == 0 {
		return 0, nil
	}
	return float64(2*tp) / float64(den), nil
}

// CharLen returns the length in characters (runes) of the tokens ids of forms joined by
// single spaces: Σ len(form) + k − 1 for k ids, and 0 for no ids. This is the length ℓ(C)
// of a compression C and the budget b of the gold compression in Handler & O'Connor. Ids are
// 1-based and may come in any order (the length does not depend on it); an id outside
// 1..len(forms) or repeated is an error.
func CharLen(forms []string, ids []int) (int, error) {
	if _, err := checkIDs(len(forms), ids, "token"); err != nil {
		return 0, err
	}
	w := 0
	for _, id := range ids {
		w += syntax.TokenLen(forms[id-1]) + 1
	}
	return syntax.Length(w), nil
}

// CompressionRatio returns the character length of the kept tokens joined by single spaces
// divided by that of all tokens of the sentence joined by single spaces (both counted in
// runes, see CharLen). No kept tokens give 0, all tokens give 1. A sentence whose joined
// length is 0 (no tokens, or one empty token) is an error, as are bad ids.
func CompressionRatio(forms []string, kept []int) (float64, error) {
	k, err := CharLen(forms, kept)
	if err != nil {
		return 0, err
	}
	w := 0
	for _, f := range forms {
		w += syntax.TokenLen(f) + 1
	}
	total := syntax.Length(w)
	if total <= 0 {
		return 0, fmt.Errorf("metrics: compression ratio of a sentence of length 0: %w", ErrEmpty)
	}
	return float64(k) / float64(total), nil
}

// Mean returns the arithmetic mean of xs, such as per-sentence F1 scores or compression
// ratios. It returns an error wrapping ErrEmpty when xs is empty.
func Mean(xs []float64) (float64, error) {
	if len(xs) == 0 {
		return 0, fmt.Errorf("metrics: mean: %w", ErrEmpty)
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs)), nil
}
