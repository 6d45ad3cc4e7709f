// Package clusters learns distributional word clusters from unlabeled text, for the
// parser's and the tagger's cluster features. Each package keeps its own defaults, word
// normalization and lookup structure; the learning (Learn), the reading of the text from
// a CoNLL-U file (Forms) and the count of clusters (Count) are here, once.
package clusters

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
)

// Options configures Learn. The sizes have no defaults here: each caller sets its own.
//
// The three switches select between two ways of doing the same step that round
// differently; they exist so that the parser (all false) and the tagger (all true) learn
// exactly the clusters their models were trained with.
type Options struct {
	MinCount   int // occurrences a word needs to get a cluster (≥ 1)
	Contexts   int // most frequent words used as left and right contexts (≥ 1)
	Fine       int // fine clusters (1 to 65535)
	Coarse     int // coarse clusters (≥ 1, at most 255); more than Fine means Fine
	Iterations int // k-means iterations, at each level

	// SpreadSeeds starts fine cluster f from the word of frequency rank f·V/Fine (V: the
	// words with a cluster) rather than rank f.
	SpreadSeeds bool
	// BoundariesLast orders a word's dimensions as left contexts, right contexts, left
	// boundary, right boundary, rather than left contexts, left boundary, right contexts,
	// right boundary.
	BoundariesLast bool
	// ScaleByInverse brings a fine centroid to unit length by multiplying each element with
	// float32(1/‖c‖), rather than dividing it by ‖c‖ in float64.
	ScaleByInverse bool
}

// Result is a learned clustering: Words[i] has fine cluster Fine[i], and fine cluster f
// has coarse cluster Coarse[f]. Words holds the words seen at least MinCount times, by
// decreasing count and then increasing key.
type Result[W cmp.Ordered] struct {
	Words  []W
	Fine   []uint16
	Coarse []uint8
}

// Learn clusters the words of unlabeled text (one slice of words, already normalized, per
// sentence; the slice may be reused between sentences) by their neighbours: each word
// seen MinCount times is a vector of positive pointwise mutual information with the
// Contexts most frequent words (and the sentence boundary) on its left and on its right;
// spherical k-means groups the vectors into Fine clusters, and their centroids into
// Coarse clusters. The result depends only on the text and the options. It costs
// O(Iterations · (pairs · Fine + Fine · Coarse · dims)) time for the co-occurrence pairs
// of the text, and O(tokens + pairs + Fine · dims) memory, dims = 2·min(Contexts, V) + 2.
func Learn[W cmp.Ordered](sents iter.Seq[[]W], opts Options) (*Result[W], error) {
	if opts.Fine < 1 || opts.Fine > 65535 || opts.Coarse < 1 || opts.Coarse > 255 ||
		opts.MinCount < 1 || opts.Contexts < 1 || opts.Iterations < 0 {
		return nil, fmt.Errorf("bad cluster options %+v", opts)
	}
	// Integer corpus: word ids in first-seen order, -1 between sentences.
	ids := map[W]int32{}
	var words []W
	var count []int
	corpus := []int32{-1}
	for s := range sents {
		for _, w := range s {
			id, ok := ids[w]
			if !ok {
				id = int32(len(words))
				ids[w] = id
				words = append(words, w)
				count = append(count, 0)
			}
			count[id]++
			corpus = append(corpus, id)
		}
		corpus = append(corpus, -1)
	}
	// Words by decreasing frequency, ties by key.
	byFreq := make([]int32, len(words))
	for i := range byFreq {
		byFreq[i] = int32(i)
	}
	slices.SortFunc(byFreq, func(a, b int32) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(words[a], words[b]))
	})
	V := 0
	for V < len(byFreq) && count[byFreq[V]] >= opts.MinCount {
		V++
	}
	if V < opts.Fine {
		return nil, fmt.Errorf("only %d words occur %d times, fewer than %d clusters", V, opts.MinCount, opts.Fine)
	}
	row := make([]int32, len(words)) // vocabulary row of a word, or -1
	for i := range row {
		row[i] = -1
	}
	for r, id := range byFreq[:V] {
		row[id] = int32(r)
	}
	K := min(opts.Contexts, V)
	D := 2*K + 2 // K left contexts, K right contexts and the boundary on either side
	leftB, rightOff := int32(K), int32(K+1)
	if opts.BoundariesLast {
		leftB, rightOff = int32(2*K), int32(K)
	}
	ctx := func(id int32) int32 { // context rank of a neighbour, K for the boundary
		if id < 0 {
			return int32(K)
		}
		if r := row[id]; r >= 0 && r < int32(K) {
			return r
		}
		return -1
	}
	// Co-occurrence pairs (row, dim), sorted and counted.
	var pairs []uint64
	for i := 1; i < len(corpus)-1; i++ {
		id := corpus[i]
		if id < 0 || row[id] < 0 {
			continue
		}
		r := uint64(row[id])
		if c := ctx(corpus[i-1]); c == int32(K) {
			pairs = append(pairs, r<<32|uint64(leftB))
		} else if c >= 0 {
			pairs = append(pairs, r<<32|uint64(c))
		}
		if c := ctx(corpus[i+1]); c == int32(K) {
			pairs = append(pairs, r<<32|uint64(2*K+1))
		} else if c >= 0 {
			pairs = append(pairs, r<<32|uint64(rightOff+c))
		}
	}
	if len(pairs) == 0 {
		return nil, errors.New("no context pairs to cluster")
	}
	slices.Sort(pairs)
	// CSR matrix of counts.
	start := make([]int, V+1)
	var dims []int32
	var vals []float32
	dimTotal := make([]float64, D)
	rowTotal := make([]float64, V)
	for i := 0; i < len(pairs); {
		j := i
		for j < len(pairs) && pairs[j] == pairs[i] {
			j++
		}
		r, d := int(pairs[i]>>32), int32(pairs[i]&0xffffffff)
		dims = append(dims, d)
		vals = append(vals, float32(j-i))
		start[r+1] = len(dims)
		dimTotal[d] += float64(j - i)
		rowTotal[r] += float64(j - i)
		i = j
	}
	for r := 1; r <= V; r++ {
		start[r] = max(start[r], start[r-1])
	}
	total := float64(len(pairs))
	// PPMI, then unit rows.
	for r := range V {
		var norm float64
		for k := start[r]; k < start[r+1]; k++ {
			pmi := math.Log(float64(vals[k]) * total / (rowTotal[r] * dimTotal[dims[k]]))
			v := max(0, pmi)
			vals[k] = float32(v)
			norm += v * v
		}
		if norm > 0 {
			inv := float32(1 / math.Sqrt(norm))
			for k := start[r]; k < start[r+1]; k++ {
				vals[k] *= inv
			}
		}
	}
	// Spherical k-means over the sparse rows; centroids are stored dimension-major.
	F := opts.Fine
	cent := make([]float32, D*F)
	for c := range F {
		r := c
		if opts.SpreadSeeds {
			r = c * V / F
		}
		for k := start[r]; k < start[r+1]; k++ {
			cent[int(dims[k])*F+c] = vals[k]
		}
	}
	assign := make([]uint16, V)
	scores := make([]float32, F)
	norms := make([]float64, F)
	for range opts.Iterations {
		for r := range V {
			clear(scores)
			for k := start[r]; k < start[r+1]; k++ {
				v := vals[k]
				for c, w := range cent[int(dims[k])*F : int(dims[k]+1)*F] {
					scores[c] += v * w
				}
			}
			best := 0
			for c := 1; c < F; c++ {
				if scores[c] > scores[best] {
					best = c
				}
			}
			assign[r] = uint16(best)
		}
		clear(cent)
		for r := range V {
			c := int(assign[r])
			for k := start[r]; k < start[r+1]; k++ {
				cent[int(dims[k])*F+c] += vals[k]
			}
		}
		clear(norms)
		for i, w := range cent {
			norms[i%F] += float64(w) * float64(w)
		}
		for i := range cent {
			if n := norms[i%F]; n > 0 {
				if opts.ScaleByInverse {
					cent[i] *= float32(1 / math.Sqrt(n))
				} else {
					cent[i] = float32(float64(cent[i]) / math.Sqrt(n))
				}
			}
		}
	}
	// Row-major copy of the centroids for the coarse level.
	rows := make([]float32, F*D)
	for d := range D {
		for c := range F {
			rows[c*D+d] = cent[d*F+c]
		}
	}
	out := &Result[W]{Coarse: kmeansDense(rows, F, D, min(opts.Coarse, F), opts.Iterations)}
	out.Words = make([]W, V)
	out.Fine = assign
	for r, id := range byFreq[:V] {
		out.Words[r] = words[id]
	}
	return out, nil
}

// unit scales v to unit length (a zero vector stays zero).
func unit(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n > 0 {
		inv := float32(1 / math.Sqrt(n))
		for i := range v {
			v[i] *= inv
		}
	}
}

// kmeansDense groups the n unit rows of m (width d) into k clusters by spherical k-means
// started from the first k rows.
func kmeansDense(m []float32, n, d, k, iters int) []uint8 {
	cent := slices.Clone(m[:k*d])
	assign := make([]uint8, n)
	for range iters {
		for r := range n {
			x := m[r*d : (r+1)*d]
			best, bestS := 0, float32(math.Inf(-1))
			for c := range k {
				var s float32
				for j, v := range cent[c*d : (c+1)*d] {
					s += v * x[j]
				}
				if s > bestS {
					best, bestS = c, s
				}
			}
			assign[r] = uint8(best)
		}
		clear(cent)
		for r := range n {
			c := int(assign[r])
			for j, v := range m[r*d : (r+1)*d] {
				cent[c*d+j] += v
			}
		}
		for c := range k {
			unit(cent[c*d : (c+1)*d])
		}
	}
	return assign
}
