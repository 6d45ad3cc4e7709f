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

func TestSame(t *testing.T) {
	type box struct{ v any }
	type empty struct{}
	p, q := new(int), new(int)
	f := func() {}
	for _, c := range []struct {
		name string
		a, b any
		want bool
	}{
		{"one pointer", p, p, true},
		{"two pointers", p, q, false},
		{"pointers of two types", p, new(float64), false},
		{"zero-size values", empty{}, empty{}, true},
		{"zero-size values of two types", empty{}, struct{}{}, false},
		{"nil", nil, nil, false},
		{"nil and a pointer", nil, p, false},
		{"a func", f, f, false},                       // == would panic
		{"a func in a struct", box{f}, box{f}, false}, // == would panic
		{"ints", 1, 1, false},                         // not a pointer nor of size zero
	} {
		if got := Same(c.a, c.b); got != c.want {
			t.Errorf("%s: Same = %v, want %v", c.name, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Same(p, p) }); n != 0 {
		t.Fatalf("Same allocates %.0f times", n)
	}
}
