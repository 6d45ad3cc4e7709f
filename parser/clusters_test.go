package parser

import (
	"bytes"
	"slices"
	"testing"
)

// toyCorpus has two kinds of words in the same slots: days and cities.
func toyCorpus() [][]string {
	var out [][]string
	days := []string{"Monday", "Tuesday", "Friday"}
	cities := []string{"Paris", "London", "Rome"}
	for i := range 60 {
		d, c := days[i%3], cities[(i/3)%3]
		out = append(out, []string{"we", "met", "on", d, "in", c, "."})
		out = append(out, []string{"they", "left", c, "on", d, "."})
		out = append(out, []string{"it", "cost", "12", "dollars", "."})
	}
	return out
}

func TestLearnClusters(t *testing.T) {
	opts := ClusterOptions{MinCount: 2, Contexts: 20, Fine: 6, Coarse: 3}
	c, err := LearnClusters(slices.Values(toyCorpus()), opts)
	if err != nil {
		t.Fatal(err)
	}
	f1, _, ok1 := c.Lookup("monday")
	f2, _, ok2 := c.Lookup("friday")
	if !ok1 || !ok2 || f1 != f2 {
		t.Errorf("monday and friday not clustered together: %d %v, %d %v", f1, ok1, f2, ok2)
	}
	if _, _, ok := c.Lookup("##"); !ok {
		t.Error("numbers should be normalized to ## and clustered")
	}
	if _, _, ok := c.Lookup("Monday"); ok {
		t.Error("Lookup takes normalized forms")
	}
	if f, k := c.NumClusters(); f != 6 || k > 3 {
		t.Errorf("NumClusters = %d, %d", f, k)
	}
	c2, err := LearnClusters(slices.Values(toyCorpus()), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.words, c2.words) || !slices.Equal(c.fine, c2.fine) || !slices.Equal(c.coarse, c2.coarse) {
		t.Error("clustering is not deterministic")
	}
	if _, err := LearnClusters(slices.Values(toyCorpus()), ClusterOptions{Fine: 1000}); err == nil {
		t.Error("too many clusters: no error")
	}
}

func TestRoundTripWithClusters(t *testing.T) {
	c, err := LearnClusters(slices.Values(toyCorpus()), ClusterOptions{MinCount: 2, Contexts: 20, Fine: 6, Coarse: 3})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := Train(fixture(t), nil, TrainOptions{Epochs: 3, ActionBits: 12, LabelBits: 10, Clusters: c})
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if m2.clusters == nil || !slices.Equal(m2.clusters.words, c.words) || m2.unkLex != m.unkLex || m2.lex.n != m.lex.n {
		t.Fatal("clusters lost in the round trip")
	}
	data2, _ := m2.MarshalBinary()
	if !bytes.Equal(data, data2) {
		t.Error("model bytes changed after a round trip")
	}
}
