package hashing

import (
	"hash/fnv"
	"testing"
)

func TestFrozen(t *testing.T) {
	// FNV-1a must agree with the standard library.
	for _, s := range []string{"", "a", "police", "Syracuse", "ü"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if String(s) != h.Sum64() {
			t.Errorf("String(%q) = %x, want %x", s, String(s), h.Sum64())
		}
	}
	if Runes([]rune("abc")) != String("abc") {
		t.Error("Runes and String differ on ASCII")
	}
	// Pinned values: a change here changes every trained model.
	if got := Fmix(1); got != 0xb456bcfc34c2cb2c {
		t.Errorf("Fmix(1) = %#x", got)
	}
	if Fmix(0) != 0 {
		t.Error("Fmix(0) != 0")
	}
}
