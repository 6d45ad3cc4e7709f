package parser

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
)

// Clusters maps normalized word forms (see NormalizeForm) to distributional word clusters
// at two granularities, fine and coarse. Words missing from it take the clusters of
// "<unk>" when it has one (the convention of the Google compression train split).
type Clusters struct {
	words  []string // normalized forms, sorted
	fine   []uint16 // fine cluster of words[i], 0-based
	coarse []uint8  // coarse cluster of each fine cluster
}

// Len returns the number of words with a cluster.
func (c *Clusters) Len() int { return len(c.words) }

// NumClusters returns the number of fine and coarse clusters.
func (c *Clusters) NumClusters() (fine, coarse int) {
	n := 0
	for _, v := range c.coarse {
		n = max(n, int(v)+1)
	}
	return len(c.coarse), n
}

// Lookup returns the fine and coarse cluster of a normalized form.
func (c *Clusters) Lookup(norm string) (fine, coarse int, ok bool) {
	i, ok := slices.BinarySearch(c.words, norm)
	if !ok {
		return 0, 0, false
	}
	f := c.fine[i]
	return int(f), int(c.coarse[f]), true
}

// ClusterOptions configures LearnClusters; zero fields take the defaults.
type ClusterOptions struct {
	MinCount   int // occurrences a word needs to get a cluster (default 5)
	Contexts   int // most frequent words used as left and right contexts (default 500)
	Fine       int // fine clusters (default 256, at most 511)
	Coarse     int // coarse clusters (default 32, at most 63)
	Iterations int // k-means iterations (default 10)
}

// LearnClustersFile learns word clusters from the forms of a CoNLL-U file (plain or gzip)
// with LearnClusters, reading it once.
func LearnClustersFile(path string, opts ClusterOptions) (*Clusters, error) {
	r, err := conllu.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var readErr error
	corpus := func(yield func([]string) bool) {
		var forms []string
		for {
			s, err := r.Next()
			if err != nil {
				if err != io.EOF {
					readErr = err
				}
				return
			}
			forms = forms[:0]
			for i := range s.Words {
				forms = append(forms, s.Words[i].Form)
			}
			if !yield(forms) {
				return
			}
		}
	}
	c, err := LearnClusters(corpus, opts)
	if readErr != nil {
		return nil, readErr
	}
	return c, err
}

// LearnClusters clusters the words of unlabeled text (one slice of forms per sentence,
// normalized with NormalizeForm) by their neighbours: each word seen MinCount times is a
// vector of positive pointwise mutual information with the Contexts most frequent words
// (and the sentence boundary) on its left and on its right; spherical k-means, started
// from the most frequent words, groups the vectors into Fine clusters, and their
// centroids into Coarse clusters. The result is deterministic.
func LearnClusters(sents iter.Seq[[]string], opts ClusterOptions) (*Clusters, error) {
	opts.MinCount = cmp.Or(opts.MinCount, 5)
	opts.Contexts = cmp.Or(opts.Contexts, 500)
	opts.Fine = cmp.Or(opts.Fine, 256)
	opts.Coarse = cmp.Or(opts.Coarse, 32)
	opts.Iterations = cmp.Or(opts.Iterations, 10)
	if opts.Fine > 511 || opts.Coarse > 63 || opts.Coarse > opts.Fine || opts.MinCount < 1 || opts.Contexts < 1 {
		return nil, fmt.Errorf("parser: bad cluster options %+v", opts)
	}
	// Integer corpus: word ids in first-seen order, -1 between sentences.
	ids := map[string]int32{}
	var forms []string
	var count []int
	corpus := []int32{-1}
	var buf []byte
	for s := range sents {
		for _, f := range s {
			buf = wordform.Append(buf[:0], f)
			id, ok := ids[string(buf)]
			if !ok {
				id = int32(len(forms))
				ids[string(buf)] = id
				forms = append(forms, string(buf))
				count = append(count, 0)
			}
			count[id]++
			corpus = append(corpus, id)
		}
		corpus = append(corpus, -1)
	}
	// Words by decreasing frequency, ties by form.
	byFreq := make([]int32, len(forms))
	for i := range byFreq {
		byFreq[i] = int32(i)
	}
	slices.SortFunc(byFreq, func(a, b int32) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(forms[a], forms[b]))
	})
	V := 0
	for V < len(byFreq) && count[byFreq[V]] >= opts.MinCount {
		V++
	}
	if V < opts.Fine {
		return nil, fmt.Errorf("parser: only %d words occur %d times, fewer than %d clusters", V, opts.MinCount, opts.Fine)
	}
	row := make([]int32, len(forms)) // vocabulary row of a word, or -1
	for i := range row {
		row[i] = -1
	}
	for r, id := range byFreq[:V] {
		row[id] = int32(r)
	}
	K := min(opts.Contexts, V)
	D := 2*K + 2                  // left contexts, left boundary, right contexts, right boundary
	ctx := func(id int32) int32 { // context index of a neighbour, K for the boundary
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
		if c := ctx(corpus[i-1]); c >= 0 {
			pairs = append(pairs, r<<32|uint64(c))
		}
		if c := ctx(corpus[i+1]); c >= 0 {
			pairs = append(pairs, r<<32|uint64(int32(K)+1+c))
		}
	}
	if len(pairs) == 0 {
		return nil, errors.New("parser: no context pairs to cluster")
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
		for k := start[c]; k < start[c+1]; k++ {
			cent[int(dims[k])*F+c] = vals[k]
		}
	}
	assign := make([]uint16, V)
	scores := make([]float32, F)
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
		norms := make([]float64, F)
		for i, w := range cent {
			norms[i%F] += float64(w) * float64(w)
		}
		for i := range cent {
			if n := norms[i%F]; n > 0 {
				cent[i] = float32(float64(cent[i]) / math.Sqrt(n))
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
	// Coarse clusters: k-means over the fine centroids, started from the largest ones.
	C := opts.Coarse
	coarse := kmeansDense(rows, F, D, C, opts.Iterations)
	out := &Clusters{coarse: coarse}
	order := slices.Clone(byFreq[:V])
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(forms[a], forms[b]) })
	for _, id := range order {
		out.words = append(out.words, forms[id])
		out.fine = append(out.fine, assign[row[id]])
	}
	return out, nil
}

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
