package tagger

import (
	"fmt"
	"iter"
	"unicode"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/clusters"
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
func (c *Clusters) NumClusters() (fine, coarse int) { return clusters.Count(c.coarse) }

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
// whose centroids are grouped again into Coarse clusters (internal/core/clusters). The
// result is deterministic.
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
	keyed := func(yield func([]uint64) bool) {
		var keys []uint64
		var buf []rune
		for sent := range corpus {
			keys = keys[:0]
			for _, w := range sent {
				var k uint64
				k, buf = normalizeKey(w, buf)
				keys = append(keys, k)
			}
			if !yield(keys) {
				return
			}
		}
	}
	r, err := clusters.Learn(keyed, clusters.Options{
		MinCount: opts.MinCount, Contexts: opts.Contexts, Fine: opts.Fine, Coarse: opts.Coarse, Iterations: opts.Iterations,
		SpreadSeeds: true, BoundariesLast: true, ScaleByInverse: true,
	})
	if err != nil {
		return nil, fmt.Errorf("tagger: %w", err)
	}
	return newClusters(r.Words, r.Fine, r.Coarse), nil
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
	tc := newTagCounter()
	var buf []rune
	corpus, readErr := clusters.Forms(r, func(w *conllu.Word) {
		var k uint64
		k, buf = normalizeKey(w.Form, buf)
		tc.add(k, w.XPOS)
	})
	c, err := LearnClusters(corpus, opts)
	if err := readErr(); err != nil {
		return nil, err
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
