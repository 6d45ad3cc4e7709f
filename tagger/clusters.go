package tagger

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"unicode"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
)

// Clusters maps lowercased word forms to distributional word clusters at two levels of
// granularity (fine and coarse). Words containing a digit share the cluster of "##" and
// unknown words that of "<unk>", following the normalization of the unlabeled corpus.
type Clusters struct {
	mask   uint64
	keys   []uint64 // hash of the normalized word, 0 = empty slot
	fine   []uint16 // fine cluster by slot
	coarse []uint8  // coarse cluster by fine cluster
	words  int
	// Tag profile by slot (see lexicon.go); nil when the corpus had no tags.
	lexTop  []uint8  // most frequent tag + 1 (0: none)
	lexCls  []uint64 // bit set of the frequent tags
	lexTags []string // tag names of the bits, sorted
}

// Len returns the number of words with a cluster.
func (c *Clusters) Len() int { return c.words }

// NumClusters returns the number of fine and coarse clusters.
func (c *Clusters) NumClusters() (fine, coarse int) {
	n := 0
	for _, v := range c.coarse {
		n = max(n, int(v)+1)
	}
	return len(c.coarse), n
}

// slot returns the slot of word key k.
func (c *Clusters) slot(k uint64) (uint64, bool) {
	if len(c.keys) == 0 {
		return 0, false
	}
	for s := k & c.mask; ; s = (s + 1) & c.mask {
		switch c.keys[s] {
		case k:
			return s, true
		case 0:
			return 0, false
		}
	}
}

// newClusters builds Clusters from word hashes and their fine clusters.
func newClusters(keys []uint64, fine []uint16, coarse []uint8) *Clusters {
	size := 16
	for size < 2*len(keys) {
		size *= 2
	}
	c := &Clusters{mask: uint64(size - 1), keys: make([]uint64, size), fine: make([]uint16, size), coarse: coarse}
	for i, k := range keys {
		if k == 0 {
			k = 1
		}
		s := k & c.mask
		for c.keys[s] != 0 && c.keys[s] != k {
			s = (s + 1) & c.mask
		}
		if c.keys[s] == 0 {
			c.words++
		}
		c.keys[s] = k
		c.fine[s] = fine[i]
	}
	return c
}

// ClusterOptions controls LearnClusters. Zero fields mean the defaults.
type ClusterOptions struct {
	MinCount   int // words seen fewer times get no cluster of their own (default 5)
	Contexts   int // number of most frequent words used as left/right contexts (default 1000)
	Fine       int // number of fine clusters (default 256, at most 65535)
	Coarse     int // number of coarse clusters (default 32, at most 255)
	Iterations int // k-means iterations (default 12)
}

// normalizeKey returns the hash of the cluster-corpus form of a word (lowercased, or "##"
// when it contains a digit), hashed like attr.lower; buf is scratch memory.
func normalizeKey(w string, buf []rune) (uint64, []rune) {
	if wordform.HasDigit(w) {
		return numHash, buf
	}
	buf = buf[:0]
	for _, r := range w {
		buf = append(buf, unicode.ToLower(r))
	}
	return hashing.Runes(buf), buf
}

// LearnClusters clusters the words of an unlabeled corpus (one []string of forms per
// sentence) by their left and right neighbours: each word with at least MinCount
// occurrences is a vector of positive pointwise mutual information with the Contexts
// most frequent words on either side; spherical k-means groups them into Fine clusters,
// whose centroids are grouped again into Coarse clusters. The result is deterministic.
func LearnClusters(corpus iter.Seq[[]string], opts ClusterOptions) (*Clusters, error) {
	if opts.MinCount <= 0 {
		opts.MinCount = 5
	}
	if opts.Contexts <= 0 {
		opts.Contexts = 1000
	}
	if opts.Fine <= 0 {
		opts.Fine = 256
	}
	if opts.Coarse <= 0 {
		opts.Coarse = 32
	}
	if opts.Iterations <= 0 {
		opts.Iterations = 12
	}
	if opts.Fine > 65535 || opts.Coarse > 255 {
		return nil, fmt.Errorf("tagger: too many clusters (%d fine, %d coarse)", opts.Fine, opts.Coarse)
	}
	// Word ids in order of first appearance, and the corpus as ids (-1 between sentences).
	ids := map[uint64]int32{}
	var count []int
	var keys []uint64
	text := []int32{-1}
	var buf []rune
	for sent := range corpus {
		for _, w := range sent {
			var k uint64
			k, buf = normalizeKey(w, buf)
			id, ok := ids[k]
			if !ok {
				id = int32(len(keys))
				ids[k] = id
				keys = append(keys, k)
				count = append(count, 0)
			}
			count[id]++
			text = append(text, id)
		}
		text = append(text, -1)
	}
	// Vocabulary by decreasing count (ties: by key), so every later step is deterministic.
	order := make([]int32, len(keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(keys[a], keys[b])
	})
	rank := make([]int32, len(keys))
	for r, id := range order {
		rank[id] = int32(r)
	}
	V := 0
	for V < len(order) && count[order[V]] >= opts.MinCount {
		V++
	}
	if V < opts.Fine {
		return nil, fmt.Errorf("tagger: %d words occur at least %d times, too few for %d clusters", V, opts.MinCount, opts.Fine)
	}
	K := min(opts.Contexts, V)
	D := 2*K + 2 // left contexts, right contexts, sentence boundary on either side
	ctx := func(id int32, right bool) int {
		c := 2 * K
		if id >= 0 && int(rank[id]) < K {
			c = int(rank[id])
		} else if id >= 0 {
			return -1
		}
		if right {
			if c == 2*K {
				return 2*K + 1
			}
			return K + c
		}
		return c
	}
	// (word rank, context) pairs, sorted and counted into sparse rows.
	var pairs []uint64
	for p := 1; p+1 < len(text); p++ {
		id := text[p]
		if id < 0 || int(rank[id]) >= V {
			continue
		}
		r := uint64(rank[id]) * uint64(D)
		if c := ctx(text[p-1], false); c >= 0 {
			pairs = append(pairs, r+uint64(c))
		}
		if c := ctx(text[p+1], true); c >= 0 {
			pairs = append(pairs, r+uint64(c))
		}
	}
	slices.Sort(pairs)
	rowStart := make([]int, V+1)
	var cols []int32
	var vals []float32
	ctxTotal := make([]float64, D)
	rowTotal := make([]float64, V)
	total := 0.0
	for i := 0; i < len(pairs); {
		j := i
		for j < len(pairs) && pairs[j] == pairs[i] {
			j++
		}
		w, c := int(pairs[i]/uint64(D)), int(pairs[i]%uint64(D))
		rowStart[w+1]++
		cols = append(cols, int32(c))
		vals = append(vals, float32(j-i))
		ctxTotal[c] += float64(j - i)
		rowTotal[w] += float64(j - i)
		total += float64(j - i)
		i = j
	}
	for w := 1; w <= V; w++ {
		rowStart[w] += rowStart[w-1]
	}
	// PPMI, then unit length.
	for w := range V {
		norm := 0.0
		for p := rowStart[w]; p < rowStart[w+1]; p++ {
			pmi := math.Log(float64(vals[p]) * total / (rowTotal[w] * ctxTotal[cols[p]]))
			v := max(0, pmi)
			vals[p] = float32(v)
			norm += v * v
		}
		if norm > 0 {
			s := float32(1 / math.Sqrt(norm))
			for p := rowStart[w]; p < rowStart[w+1]; p++ {
				vals[p] *= s
			}
		}
	}
	// Spherical k-means; seeds are words at evenly spaced frequency ranks.
	F := opts.Fine
	cent := make([]float32, F*D)
	for f := range F {
		w := f * V / F
		for p := rowStart[w]; p < rowStart[w+1]; p++ {
			cent[f*D+int(cols[p])] = vals[p]
		}
	}
	assign := make([]int, V)
	sims := make([]float32, F)
	for it := 0; it < opts.Iterations; it++ {
		for w := range V {
			clear(sims)
			for p := rowStart[w]; p < rowStart[w+1]; p++ {
				c, v := int(cols[p]), vals[p]
				for f := range F {
					sims[f] += v * cent[f*D+c]
				}
			}
			best := 0
			for f := 1; f < F; f++ {
				if sims[f] > sims[best] {
					best = f
				}
			}
			assign[w] = best
		}
		clear(cent)
		for w := range V {
			f := assign[w]
			for p := rowStart[w]; p < rowStart[w+1]; p++ {
				cent[f*D+int(cols[p])] += vals[p]
			}
		}
		normalizeRows(cent, D)
	}
	// Coarse clusters: k-means over the fine centroids, seeded by the first ones.
	C := min(opts.Coarse, F)
	cc := make([]float32, C*D)
	copy(cc, cent[:C*D])
	coarse := make([]uint8, F)
	for it := 0; it < opts.Iterations; it++ {
		for f := range F {
			best, bestSim := 0, float32(-1)
			for c := range C {
				s := float32(0)
				for d := range D {
					s += cent[f*D+d] * cc[c*D+d]
				}
				if s > bestSim {
					best, bestSim = c, s
				}
			}
			coarse[f] = uint8(best)
		}
		clear(cc)
		for f := range F {
			c := int(coarse[f])
			for d := range D {
				cc[c*D+d] += cent[f*D+d]
			}
		}
		normalizeRows(cc, D)
	}
	wk := make([]uint64, V)
	fine := make([]uint16, V)
	for w := range V {
		wk[w] = keys[order[w]]
		fine[w] = uint16(assign[w])
	}
	return newClusters(wk, fine, coarse), nil
}

func normalizeRows(m []float32, D int) {
	for r := 0; r < len(m); r += D {
		n := 0.0
		for _, v := range m[r : r+D] {
			n += float64(v) * float64(v)
		}
		if n > 0 {
			s := float32(1 / math.Sqrt(n))
			for d := r; d < r+D; d++ {
				m[d] *= s
			}
		}
	}
}

// LearnClustersFile runs LearnClusters on the forms of a plain or gzip-compressed
// CoNLL-U file, such as the Google compression corpus. When the file has XPOS tags, each
// clustered word also gets its tag profile in the file: its most frequent tag and the
// tags of at least 10% of its occurrences (features of models trained with the clusters).
func LearnClustersFile(path string, opts ClusterOptions) (*Clusters, error) {
	r, err := conllu.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var readErr error
	tc := newTagCounter()
	var buf []rune
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
			for _, w := range s.Words {
				forms = append(forms, w.Form)
				var k uint64
				k, buf = normalizeKey(w.Form, buf)
				tc.add(k, w.XPOS)
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
	if tc.extra != "" {
		return nil, fmt.Errorf("tagger: %s has more than 64 distinct XPOS tags (%q is the 65th): tag profiles hold at most 64", path, tc.extra)
	}
	if err != nil {
		return nil, err
	}
	tc.attach(c)
	return c, nil
}
