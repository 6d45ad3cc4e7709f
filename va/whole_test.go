package va

import (
	"slices"
	"testing"
)

func TestWhole(t *testing.T) {
	lens := []int{3, 0, 5} // ℓ(S) = 3 + 0 + 5 + 2 = 10
	for _, c := range []struct {
		b  int
		ok bool
	}{{9, false}, {10, true}, {11, true}} {
		got, ok := Whole(nil, lens, c.b)
		if ok != c.ok {
			t.Errorf("Whole(b=%d) fits = %v, want %v", c.b, ok, c.ok)
		}
		if want := []int{1, 2, 3}; ok && !slices.Equal(got, want) {
			t.Errorf("Whole(b=%d) = %v, want %v", c.b, got, want)
		}
		if !ok && len(got) != 0 {
			t.Errorf("Whole(b=%d) = %v, want nothing when it does not fit", c.b, got)
		}
	}
	if got, ok := Whole(nil, nil, 1); !ok || len(got) != 0 {
		t.Errorf("Whole of the empty sentence = %v, %v; want [], true", got, ok)
	}
	dst := make([]int, 0, 8)
	if n := testing.AllocsPerRun(100, func() { dst, _ = Whole(dst[:0], lens, 10) }); n != 0 {
		t.Errorf("Whole allocates %v times", n)
	}
}
