package va

import (
	"math/bits"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

// minSet is a set of integers in [0, size) with insert, delete and find-min in
// O(log₆₄ size) word operations: a 64-ary tree of bitsets ("van Emde Boas lite"). Level 0
// has one bit per element; bit i of level l+1 is set iff word i of level l is non-zero; the
// top level is a single word. Sentences up to 64 tokens need one level,
// up to 4096 two.
type minSet struct {
	lv [][]uint64
}

// reset empties s and sizes it for elements in [0, size), reusing its memory.
func (s *minSet) reset(size int) {
	s.lv = s.lv[:0]
	for {
		w := max(1, (size+63)>>6)
		l := len(s.lv)
		if l < cap(s.lv) {
			s.lv = s.lv[:l+1]
		} else {
			s.lv = append(s.lv, nil)
		}
		s.lv[l] = reuse.Resize(s.lv[l], w)
		clear(s.lv[l])
		if w == 1 {
			return
		}
		size = w
	}
}

// add inserts x. Inserting a member again is a no-op.
func (s *minSet) add(x int) {
	for _, words := range s.lv {
		w := &words[x>>6]
		was := *w
		*w |= 1 << (x & 63)
		if was != 0 { // the levels above already record this word
			return
		}
		x >>= 6
	}
}

// remove deletes x. Removing a non-member is a no-op.
func (s *minSet) remove(x int) {
	for _, words := range s.lv {
		w := &words[x>>6]
		*w &^= 1 << (x & 63)
		if *w != 0 {
			return
		}
		x >>= 6
	}
}

// min returns the smallest member, or -1 when s is empty.
func (s *minSet) min() int {
	top := len(s.lv) - 1
	w := s.lv[top][0]
	if w == 0 {
		return -1
	}
	x := bits.TrailingZeros64(w)
	for l := top - 1; l >= 0; l-- {
		x = x<<6 | bits.TrailingZeros64(s.lv[l][x])
	}
	return x
}
