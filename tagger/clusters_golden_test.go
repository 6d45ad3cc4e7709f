package tagger

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

// clustersDigest hashes everything a Clusters holds: each slot's word key, fine and
// coarse cluster and tag profile, and the tag names.
func clustersDigest(c *Clusters) string {
	h := sha256.New()
	for s, k := range c.keys {
		if k == 0 {
			continue
		}
		f := c.fine[s]
		fmt.Fprintf(h, "%d %x %d %d", s, k, f, c.coarse[f])
		if c.lexTop != nil {
			fmt.Fprintf(h, " %d %x", c.lexTop[s], c.lexCls[s])
		}
		fmt.Fprintln(h)
	}
	fmt.Fprintln(h, c.lexTags, len(c.coarse))
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestClustersGolden pins the clusters learned from the fixture with the package's
// defaults for the contexts and iterations (and two sizes that fit the fixture) to the
// values the tagger's own learner gave before it moved to internal/core/clusters.
func TestClustersGolden(t *testing.T) {
	for _, tc := range []struct {
		opts ClusterOptions
		want string
	}{
		{ClusterOptions{MinCount: 2, Fine: 32, Coarse: 8}, "9f5d7e02354a779654d9fed924d76a53f0ebce44e15d4827c61422223b234258"},
		{ClusterOptions{Fine: 16, Coarse: 4}, "c9c0e70a25f1c6d4532f6994740e791570597536c97e193f99c1bbb76e3a4904"},
		{ClusterOptions{MinCount: 2, Contexts: 50, Fine: 16, Coarse: 4, Iterations: 5}, "7914c15b23b2a672e3bde62fff2f1d988a3cfb1fbb5d6392ec289d78b9590bdf"},
	} {
		c, err := LearnClustersFile(fixture, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := clustersDigest(c); got != tc.want {
			t.Errorf("%+v: digest %s, want %s", tc.opts, got, tc.want)
		}
	}
}
