package wordshape

import "testing"

func TestFilter(t *testing.T) {
	var f Filter
	for _, w := range []string{"no", "not", "never", ""} {
		f.AddWord(w)
	}
	f.Add('N', 3)
	for w, want := range map[string]bool{
		"no": true, "not": true, "nor": true, "never": true, "Not": true,
		"No": false, "n": false, "noun": false, "yes": false, "": false,
		string(make([]byte, MaxLen)): false,
	} {
		if got := f.Maybe(w); got != want {
			t.Errorf("Maybe(%q) = %v, want %v", w, got, want)
		}
	}
}
