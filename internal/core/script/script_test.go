package script

import (
	"testing"
	"unicode"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want Script
	}{
		{'a', Latin}, {'Z', Latin}, {'é', Latin}, {'ẞ', Latin}, {'Ａ', Latin},
		{'я', Cyrillic}, {'λ', Greek}, {'ب', Arabic}, {'\u064e', Other}, {'ש', Hebrew}, {'क', Devanagari},
		{'政', Han}, {'々', Han}, {'は', Hiragana}, {'カ', Katakana}, {'ー', Katakana},
		{'정', Hangul}, {'ก', Thai}, {'๑', Thai}, {'ສ', Lao}, {'ក', Khmer}, {'។', Khmer}, {'က', Myanmar},
		{'ა', Other}, {'\u0301', Other}, {'ৌ', Other},
		{'1', None}, {' ', None}, {'、', None}, {'€', None}, {'\u200b', None}, {-1, None}, {0x110000, None},
	} {
		if got := Of(c.r); got != c.want {
			t.Errorf("Of(%q) = %v, want %v", c.r, got, c.want)
		}
	}
}

// TestDisjoint checks what Of's first match relies on: no rune is in two of the tables,
// and ー is in none.
func TestDisjoint(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		n := 0
		for _, e := range &table {
			if unicode.Is(e.tab, r) {
				n++
			}
		}
		if n > 1 || n > 0 && r == 'ー' {
			t.Fatalf("%U is in %d script tables", r, n)
		}
	}
}

func TestSpaceless(t *testing.T) {
	var got []Script
	for s := None; s <= Other; s++ {
		if s.Spaceless() {
			got = append(got, s)
		}
	}
	want := []Script{Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar}
	if len(got) != len(want) {
		t.Fatalf("spaceless scripts %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("spaceless scripts %v, want %v", got, want)
		}
	}
	if Other.String() != "other" || Script(200).String() != "invalid" {
		t.Errorf("names: %v, %v", Other, Script(200))
	}
}

func BenchmarkOf(b *testing.B) {
	text := []rune("Zürich São 政府は水曜日 대통령 การเปลี่ยนผ่าน передача الانتقال संक्रमण ქართული")
	n := 0
	for b.Loop() {
		for _, r := range text {
			n += int(Of(r))
		}
	}
	_ = n
}
