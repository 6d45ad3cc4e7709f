package tagger

import (
	"slices"
)

// Tag profiles. When the unlabeled corpus of the clusters also carries XPOS tags (the
// Google compression corpus was tagged on its original, cased text before it was
// lowercased), each clustered word also gets its tag profile there: its most frequent tag
// and the set of tags with at least lexMinShare of its occurrences. They are features like
// any other: the perceptron learns how far to trust the other corpus's tagging.
const lexMinShare = 0.1

// tagCounter counts the tags of normalized words while the cluster corpus is read.
type tagCounter struct {
	tags   []string           // tag names by id, in order of first appearance
	ids    map[string]int     // tag name -> id
	counts map[uint64][]int32 // word key -> count by tag id
	extra  string             // the first tag name beyond the 64 a profile can hold
}

func newTagCounter() *tagCounter {
	return &tagCounter{ids: map[string]int{}, counts: map[uint64][]int32{}}
}

func (tc *tagCounter) add(key uint64, tag string) {
	if tag == "" || tag == "_" {
		return
	}
	id, ok := tc.ids[tag]
	if !ok {
		if len(tc.tags) == 64 { // the class is a 64-bit mask
			if tc.extra == "" {
				tc.extra = tag
			}
			return
		}
		id = len(tc.tags)
		tc.ids[tag] = id
		tc.tags = append(tc.tags, tag)
	}
	c := tc.counts[key]
	for len(c) <= id {
		c = append(c, 0)
	}
	c[id]++
	tc.counts[key] = c
}

// attach gives every clustered word of c its tag profile from the counts.
func (tc *tagCounter) attach(c *Clusters) {
	if len(tc.tags) == 0 {
		return
	}
	// Tag ids by sorted name, so that the profile does not depend on reading order.
	order := slices.Clone(tc.tags)
	slices.Sort(order)
	rank := make([]uint8, len(tc.tags))
	for i, t := range tc.tags {
		rank[i] = uint8(slices.Index(order, t))
	}
	c.lexTop = make([]uint8, len(c.keys))
	c.lexCls = make([]uint64, len(c.keys))
	for s, k := range c.keys {
		if k == 0 {
			continue
		}
		cnt := tc.counts[k]
		n, best, bestN := int32(0), -1, int32(0)
		for id, v := range cnt {
			n += v
			if v > bestN || (v == bestN && v > 0 && rank[id] < rank[best]) {
				best, bestN = id, v
			}
		}
		if best < 0 {
			continue
		}
		c.lexTop[s] = rank[best] + 1
		for id, v := range cnt {
			if float64(v) >= lexMinShare*float64(n) {
				c.lexCls[s] |= 1 << rank[id]
			}
		}
	}
	c.lexTags = order
}
