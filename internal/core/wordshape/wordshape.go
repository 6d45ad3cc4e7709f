// Package wordshape rules words out of a word list by their first byte and length, before
// the list's map is hashed: most words of a text are in no such list, and a table lookup
// is cheaper than a hash.
package wordshape

// MaxLen is the length below which a word's shape is recorded; a word of MaxLen bytes or
// more is never in a Filter.
const MaxLen = 64

// Filter holds, for each first byte, the set of lengths of the words added (bit n: a word
// of n bytes). Its zero value holds none; it is 2 KiB, and Maybe costs one load.
type Filter [256]uint64

// Add records a word whose first byte is first and whose length is n bytes; a length
// outside 1..MaxLen−1 is not recorded.
func (f *Filter) Add(first byte, n int) {
	if n > 0 && n < MaxLen {
		f[first] |= 1 << n
	}
}

// AddWord records the shape of w (Add(w[0], len(w))).
func (f *Filter) AddWord(w string) {
	if w != "" {
		f.Add(w[0], len(w))
	}
}

// Maybe reports whether some word added has w's first byte and length: false means w is
// none of them.
func (f *Filter) Maybe(w string) bool {
	return w != "" && len(w) < MaxLen && f[w[0]]&(1<<len(w)) != 0
}
