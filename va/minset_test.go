package va

import (
	"math/rand/v2"
	"testing"
)

// TestMinSet checks the hierarchical bitset against a plain boolean slice, across one,
// two and three levels, and across reuse with different sizes.
func TestMinSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s minSet
	for _, size := range []int{1, 2, 63, 64, 65, 200, 4095, 4096, 4097, 300_000, 7} {
		s.reset(size)
		ref := make([]bool, size)
		if got := s.min(); got != -1 {
			t.Fatalf("size %d: min of empty set = %d", size, got)
		}
		for op := 0; op < 2000; op++ {
			switch x := rng.IntN(size); rng.IntN(3) {
			case 0:
				s.add(x)
				ref[x] = true
			case 1:
				s.remove(x)
				ref[x] = false
			default: // pop the minimum, so that it moves up through the levels
				if m := s.min(); m >= 0 {
					s.remove(m)
					ref[m] = false
				}
			}
			want := -1
			for i, in := range ref {
				if in {
					want = i
					break
				}
			}
			if got := s.min(); got != want {
				t.Fatalf("size %d, op %d: min = %d, want %d", size, op, got, want)
			}
		}
	}
}
