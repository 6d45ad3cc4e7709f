package parser

import (
	"cmp"
	"fmt"
	"iter"
	"slices"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/clusters"
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
func (c *Clusters) NumClusters() (fine, coarse int) { return clusters.Count(c.coarse) }

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
	corpus, readErr := clusters.Forms(r, nil)
	c, err := LearnClusters(corpus, opts)
	if err := readErr(); err != nil {
		return nil, err
	}
	return c, err
}

// LearnClusters clusters the words of unlabeled text (one slice of forms per sentence,
// normalized with NormalizeForm) by their neighbours: each word seen MinCount times is a
// vector of positive pointwise mutual information with the Contexts most frequent words
// (and the sentence boundary) on its left and on its right; spherical k-means, started
// from the most frequent words, groups the vectors into Fine clusters, and their
// centroids into Coarse clusters (internal/core/clusters). The result is deterministic.
func LearnClusters(sents iter.Seq[[]string], opts ClusterOptions) (*Clusters, error) {
	opts.MinCount = cmp.Or(opts.MinCount, 5)
	opts.Contexts = cmp.Or(opts.Contexts, 500)
	opts.Fine = cmp.Or(opts.Fine, 256)
	opts.Coarse = cmp.Or(opts.Coarse, 32)
	opts.Iterations = cmp.Or(opts.Iterations, 10)
	if opts.Fine > 511 || opts.Coarse > 63 || opts.Coarse > opts.Fine || opts.MinCount < 1 || opts.Contexts < 1 {
		return nil, fmt.Errorf("parser: bad cluster options %+v", opts)
	}
	normalized := func(yield func([]string) bool) {
		var forms []string
		for s := range sents {
			forms = forms[:0]
			for _, f := range s {
				forms = append(forms, NormalizeForm(f))
			}
			if !yield(forms) {
				return
			}
		}
	}
	r, err := clusters.Learn(normalized, clusters.Options{
		MinCount: opts.MinCount, Contexts: opts.Contexts, Fine: opts.Fine, Coarse: opts.Coarse, Iterations: opts.Iterations,
	})
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	// Words sorted by form, for Lookup's binary search.
	order := make([]int, len(r.Words))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(r.Words[a], r.Words[b]) })
	out := &Clusters{coarse: r.Coarse}
	for _, i := range order {
		out.words = append(out.words, r.Words[i])
		out.fine = append(out.fine, r.Fine[i])
	}
	return out, nil
}
