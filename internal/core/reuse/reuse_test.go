package reuse

import "testing"

func TestResize(t *testing.T) {
	s := Resize([]int(nil), 10)
	if len(s) != 10 || cap(s) != 15 {
		t.Fatalf("len %d cap %d, want 10 15", len(s), cap(s))
	}
	s[3] = 7
	r := Resize(s, 14)
	if len(r) != 14 || &r[0] != &s[0] || r[3] != 7 {
		t.Fatal("Resize within capacity does not reuse the array")
	}
	if n := testing.AllocsPerRun(10, func() { r = Resize(r, 12) }); n != 0 {
		t.Fatalf("Resize within capacity allocates %.0f times", n)
	}
	if r = Resize(r, 16); len(r) != 16 || &r[0] == &s[0] {
		t.Fatal("Resize beyond capacity reuses the array")
	}
}
