package cputime

import "testing"

func TestUsedGrows(t *testing.T) {
	a := Used()
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	if b := Used(); a != 0 && b < a {
		t.Fatalf("CPU time went back: %v then %v (%d)", a, b, x)
	}
}
