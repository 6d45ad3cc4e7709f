package textenc

import "testing"

func TestWindows1252(t *testing.T) {
	for _, c := range []struct {
		in, want string
		read     int
	}{
		{"\x93It sounds like a tin can,\x94 admitted Jos\xe9 \x96 the engineer.", "“It sounds like a tin can,” admitted José – the engineer.", 4},
		{"caf\xc3\xa9 and na\xefve", "café and naïve", 1}, // UTF-8 kept, the stray byte read
		{"plain", "plain", 0},
		{"\x81", "\uFFFD", 1}, // undefined in Windows-1252
	} {
		got, read := Windows1252([]byte(c.in))
		if string(got) != c.want || read != c.read {
			t.Errorf("Windows1252(%q) = %q, %d; want %q, %d", c.in, got, read, c.want, c.read)
		}
	}
}

func TestWestern(t *testing.T) {
	for in, want := range map[string]bool{
		"An interview with Jos\xe9 Mart\xednez, \x93on the record\x94, in 1998.": true,
		"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0":                                 false, // Cyrillic words in Windows-1251
		"\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd":                               false, // Shift_JIS
		"plain ASCII": false,
	} {
		if got := Western([]byte(in)); got != want {
			t.Errorf("Western(%q) = %v, want %v", in, got, want)
		}
	}
}
