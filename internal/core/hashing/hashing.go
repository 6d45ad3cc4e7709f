// Package hashing holds the hash functions behind qsc's hashed feature tables (tagger,
// parser, compression features). Their output is part of the model files: changing any
// of them changes every trained model, so they are frozen.
package hashing

// FNV-1a parameters (64-bit).
const (
	FNVOffset = 14695981039346656037
	FNVPrime  = 1099511628211
)

// Fmix is the 64-bit finalizer of MurmurHash3: it scrambles all bits of x.
func Fmix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Add returns the FNV-1a hash h extended by one unit v: a byte, or a whole rune as Runes
// hashes them. A hash starts at FNVOffset.
func Add(h, v uint64) uint64 { return (h ^ v) * FNVPrime }

// AddString returns the FNV-1a hash h extended by the bytes of s.
func AddString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = Add(h, uint64(s[i]))
	}
	return h
}

// AddUint64 returns the FNV-1a hash h extended by the eight bytes of v, least
// significant first.
func AddUint64(h, v uint64) uint64 {
	for i := range 8 {
		h = Add(h, uint64(byte(v>>(8*i))))
	}
	return h
}

// String returns the 64-bit FNV-1a hash of the bytes of s.
func String(s string) uint64 { return AddString(FNVOffset, s) }

// Runes returns the 64-bit FNV-1a hash of rs, one rune at a time.
func Runes(rs []rune) uint64 {
	h := uint64(FNVOffset)
	for _, r := range rs {
		h = Add(h, uint64(r))
	}
	return h
}
