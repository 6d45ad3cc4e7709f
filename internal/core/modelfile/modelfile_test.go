package modelfile

import (
	"crypto/sha256"
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

// TestEmbeddedTrusted checks that Decode leaves the checksum of a registered embedded file
// to CheckEmbedded, which finds a bad one, while a copy of the same bytes is checked; and
// that Sum returns a declared sum for a registered file and hashes any other.
func TestEmbeddedTrusted(t *testing.T) {
	good, err := Encode("test", 1, []byte("payload"))
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), good...)
	bad[len(bad)-1] ^= 1 // its checksum no longer matches
	RegisterSum("test-trusted-bad.qsm", bad, strings.Repeat("ab", 32))
	defer func() {
		embeddedMu.Lock()
		delete(embedded, "test-trusted-bad.qsm")
		delete(trusted, &bad[0])
		embeddedMu.Unlock()
	}()
	if _, _, err := Decode(bad, "test", 1); err != nil {
		t.Errorf("Decode of the registered file: %v, want its checksum left to CheckEmbedded", err)
	}
	if _, _, err := Decode(append([]byte(nil), bad...), "test", 1); !errors.Is(err, ErrChecksum) {
		t.Errorf("Decode of a copy: %v, want ErrChecksum", err)
	}
	if err := CheckEmbedded(); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "test-trusted-bad.qsm") {
		t.Errorf("CheckEmbedded: %v, want the bad file named", err)
	}
	if got := Sum(bad); got[0] != 0xab || got[31] != 0xab {
		t.Errorf("Sum of the registered file %x, want the declared sum", got)
	}
	if got, want := Sum(good), sha256.Sum256(good); got != want {
		t.Errorf("Sum of another file %x, want its hash %x", got, want)
	}
}
