package wordform

import (
	"strings"
	"testing"
	"unicode"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Hello": "hello", "IBM": "ibm", "3.5": "##", "B52s": "##", "<unk>": "<unk>", "<UNK>": "<unk>",
		"Ärger": "ärger", "٣": "##", "Ｘ３": "##", "##": "##", "": "", "e-mail": "e-mail",
		"ǅemal": "ǆemal", "a\xffB": "a\uFFFDb", "ΣΑΣ": "σασ",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
		if got := string(Append([]byte("x"), in)); got != "x"+want {
			t.Errorf("Append(x, %q) = %q", in, got)
		}
	}
}

func TestHasDigit(t *testing.T) {
	for _, s := range []string{"", "abc", "Ärger", "a\xff", "٣", "x9", "Ｘ３", "²"} {
		want := strings.IndexFunc(s, unicode.IsDigit) >= 0
		if got := HasDigit(s); got != want {
			t.Errorf("HasDigit(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestAppendAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = Append(buf[:0], "Ärger") }); n != 0 {
		t.Fatalf("Append allocates %.0f times with room in buf", n)
	}
}
