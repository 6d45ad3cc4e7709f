package parser

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// clustersDigest hashes everything a Clusters holds: each word with its fine and coarse
// cluster.
func clustersDigest(c *Clusters) string {
	h := sha256.New()
	for i, w := range c.words {
		f := c.fine[i]
		fmt.Fprintf(h, "%q %d %d\n", w, f, c.coarse[f])
	}
	fmt.Fprintln(h, len(c.coarse))
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestClustersGolden pins the clusters learned from a fixture with the package's
// defaults for the contexts and iterations (and sizes that fit the fixture) to the values
// the parser's own learner gave before it moved to internal/core/clusters.
func TestClustersGolden(t *testing.T) {
	ewt := filepath.Join("..", "tagger", "testdata", "ewt-sample.conllu")
	for _, tc := range []struct {
		opts ClusterOptions
		want string
	}{
		{ClusterOptions{MinCount: 2, Fine: 32, Coarse: 8}, "217c45a3e7eb59df8071cf563bc76dc8ae3febf37706548a134ce180da7404e7"},
		{ClusterOptions{Fine: 16, Coarse: 4}, "903541b1323c2b1ae14653aafc72d1a983fcf6ae5df7270bb22c8944d3076c72"},
		{ClusterOptions{MinCount: 2, Contexts: 50, Fine: 16, Coarse: 4, Iterations: 5}, "08284703b972844575c907d49dcfef81af14459e0baf0e43d27038d2ca6f589c"},
	} {
		c, err := LearnClustersFile(ewt, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := clustersDigest(c); got != tc.want {
			t.Errorf("%+v: digest %s, want %s", tc.opts, got, tc.want)
		}
	}
	c, err := LearnClusters(slices.Values(toyCorpus()), ClusterOptions{MinCount: 2, Contexts: 20, Fine: 6, Coarse: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := clustersDigest(c), "b611b31c8c285c4e4111667532c454b22c1efca2e9c361e7b08e522af9ae3780"; got != want {
		t.Errorf("toy corpus: digest %s, want %s", got, want)
	}
}
