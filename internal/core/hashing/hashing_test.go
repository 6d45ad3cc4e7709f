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
	// The incremental forms hash the same bytes as the standard library.
	h := fnv.New64a()
	h.Write([]byte("ab\x00\x01\x02\x03\x04\x05\x06\x07\x08"))
	if got := AddUint64(Add(AddString(FNVOffset, "ab"), 0), 0x0807060504030201); got != h.Sum64() {
		t.Errorf("AddString, Add, AddUint64 = %x, want %x", got, h.Sum64())
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
