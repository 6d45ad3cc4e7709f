package wellformed

import (
	"slices"
	"testing"
)

// TestPrefix grows C from the closure of Q along one order at every capacity, and checks
// that C is closed under the rules and fits, that a larger capacity keeps what a smaller
// one kept, and that Shrink drops whole units, last first, until its check passes.
func TestPrefix(t *testing.T) {
	s, tree, lens := sent(t, example)
	var r Rules
	q := []int{4}
	if err := r.Reset(s, tree, lens, q, 200); err != nil {
		t.Fatal(err)
	}
	order := []int32{18, 12, 8, 1, 16, 5, 2, 17, 11, 15, 13, 14, 9, 6, 3, 4, 7, 10}
	var p Prefix
	var prev []int
	for capacity := 0; capacity <= 120; capacity++ {
		in := make([]bool, s.Len()+1)
		inC := func(v int) bool { return in[v] }
		set := func(v int) { in[v] = true }
		weight := 0
		for _, v := range q {
			in[v] = true
			weight += lens[v-1] + 1
		}
		weight += r.QueryClosure(q, inC, set)
		p.Reset()
		seed := weight
		weight = p.Grow(&r, order, weight, max(capacity, seed), inC, set)
		kept := func() []int {
			var c []int
			for v := 1; v <= s.Len(); v++ {
				if in[v] {
					c = append(c, v)
				}
			}
			return c
		}
		c := kept()
		w := 0
		for _, v := range c {
			w += lens[v-1] + 1
			if r.Closure(v, inC, nil) != 0 {
				t.Fatalf("capacity %d: C = %v is not closed at %d", capacity, c, v)
			}
		}
		if w != weight || w > max(capacity, seed) {
			t.Fatalf("capacity %d: weight %d, Grow says %d", capacity, w, weight)
		}
		if !isSubset(prev, c) {
			t.Fatalf("capacity %d: C = %v drops from %v", capacity, c, prev)
		}
		prev = c
		// Shrink to at most 3 tokens more than the seed's, unit by unit.
		limit := len(kept()) - len(p.seq) + 3
		got, ok := p.Shrink(kept, func(c []int) bool { return len(c) <= limit }, func(v int) { in[v] = false })
		if len(p.seq) > 0 && !ok || ok != (len(got) <= limit) || !isSubset(got, c) {
			t.Fatalf("capacity %d: Shrink = %v, %v from %v (limit %d)", capacity, got, ok, c, limit)
		}
		if !slices.Equal(got, kept()) {
			t.Fatalf("capacity %d: Shrink returned %v, C is %v", capacity, got, kept())
		}
	}
	if len(prev) != s.Len() {
		t.Errorf("the largest capacity keeps %v, not the whole sentence", prev)
	}
}

func isSubset(a, b []int) bool {
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	return true
}
