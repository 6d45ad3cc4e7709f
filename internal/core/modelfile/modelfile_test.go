package modelfile

import (
	"errors"
	"strings"
	"testing"
)

func TestRoundTripAndCorruption(t *testing.T) {
	data, err := Encode("tagger", 3, []byte("weights"))
	if err != nil {
		t.Fatal(err)
	}
	p, v, err := Decode(data, "tagger", 3)
	if err != nil || string(p) != "weights" || v != 3 {
		t.Fatalf("Decode = %q, %d, %v", p, v, err)
	}
	if _, _, err := Decode(data, "parser"); err == nil || !strings.Contains(err.Error(), `"tagger"`) {
		t.Errorf("wrong kind: err = %v", err)
	}
	if _, _, err := Decode(data, "tagger", 1, 2); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Errorf("wrong version: err = %v", err)
	}
	for n := 0; n < len(data); n++ {
		if _, _, err := Decode(data[:n], "tagger"); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
	}
	if _, _, err := Decode(data[:len(data)-1], "tagger"); !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated: err = %v, want ErrTruncated", err)
	}
	bad := append([]byte(nil), data...)
	bad[len(data)-33] ^= 1 // last payload byte
	if _, _, err := Decode(bad, "tagger"); !errors.Is(err, ErrChecksum) {
		t.Errorf("corrupt: err = %v, want ErrChecksum", err)
	}
	if _, _, err := Decode([]byte("hello world, not a model"), "tagger"); !errors.Is(err, ErrMagic) {
		t.Errorf("garbage: err = %v, want ErrMagic", err)
	}
}

// TestHeader reads the kind and version of a file, and refuses what is not one, at any
// truncation.
func TestHeader(t *testing.T) {
	data, err := Encode("parser", 3, []byte("payload"))
	if err != nil {
		t.Fatal(err)
	}
	if kind, v, err := Header(data); kind != "parser" || v != 3 || err != nil {
		t.Fatalf("Header = %q, %d, %v", kind, v, err)
	}
	for n := range len(Magic) + 1 + len("parser") + 2 {
		if _, _, err := Header(data[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	if _, _, err := Header([]byte("QSCMODEX rest")); err != ErrMagic {
		t.Errorf("bad magic: %v", err)
	}
}
