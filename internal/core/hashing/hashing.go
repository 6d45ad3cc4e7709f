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

// String returns the 64-bit FNV-1a hash of the bytes of s.
func String(s string) uint64 {
	h := uint64(FNVOffset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= FNVPrime
	}
	return h
}

// Runes returns the 64-bit FNV-1a hash of rs, one rune at a time.
func Runes(rs []rune) uint64 {
	h := uint64(FNVOffset)
	for _, r := range rs {
		h ^= uint64(r)
		h *= FNVPrime
	}
	return h
}
