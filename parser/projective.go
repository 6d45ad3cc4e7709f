package parser

// projectivize returns a projective tree close to heads (heads[k] for k in 1..n, 0 = root;
// heads[0] unused) by lifting (Nivre & Nilsson 2005, without label encoding): while some
// arc is non-projective, the shortest such arc h → d is replaced by head(h) → d. Labels
// are kept. It returns the new heads and the number of lifts. The input must be a tree.
func projectivize(heads []int32) ([]int32, int) {
	h := append([]int32(nil), heads...)
	lifts := 0
	for {
		best, bestLen := int32(-1), int32(1<<30)
		for d := int32(1); d < int32(len(h)); d++ {
			if l := abs32(h[d] - d); l < bestLen && !projectiveArc(h, h[d], d) {
				best, bestLen = d, l
			}
		}
		if best < 0 {
			return h, lifts
		}
		h[best] = h[h[best]]
		lifts++
	}
}

// projectiveArc reports whether every token strictly between head and dep descends from head.
func projectiveArc(h []int32, head, dep int32) bool {
	lo, hi := min(head, dep), max(head, dep)
	for k := lo + 1; k < hi; k++ {
		a := k
		for a != head && a != 0 {
			a = h[a]
		}
		if a != head {
			return false
		}
	}
	return true
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
