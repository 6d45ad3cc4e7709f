package parser

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
)

// lexKeyLen is the longest normalized form a lexTable holds (longer ones stay in a map).
const lexKeyLen = 23

// lexKey is a normalized form of at most lexKeyLen bytes as three little-endian words:
// the bytes, zero-padded, with the length in the last byte. Distinct forms have distinct
// keys.
type lexKey [3]uint64

// makeLexKey returns the key of form; ok is false when form is longer than lexKeyLen.
func makeLexKey(form []byte) (k lexKey, ok bool) {
	if len(form) > lexKeyLen {
		return k, false
	}
	var b [lexKeyLen + 1]byte
	copy(b[:], form)
	b[lexKeyLen] = byte(len(form))
	le := binary.LittleEndian
	return lexKey{le.Uint64(b[:]), le.Uint64(b[8:]), le.Uint64(b[16:])}, true
}

// hash mixes the three words of k.
func (k *lexKey) hash() uint64 {
	return hashing.Fmix(k[0]*0x9E3779B97F4A7C15 ^ k[1]*0xC2B2AE3D27D4EB4F ^ k[2])
}

// lexTable maps the normalized forms of the lexicon (word ids and clusters, see
// Model.buildLex) to their lex entries, for Parser.encode: an open-addressing table with
// linear probing, at most half full, whose slots hold the form's bytes themselves, so that
// a lookup reads one slot (half a cache line) where a Go map reads a control word, a slot
// and the string's bytes. Forms longer than lexKeyLen bytes, rare, are in long. A lexTable
// is read-only once built.
type lexTable struct {
	n       int       // entries, long ones included
	slots   []lexSlot // a power of two of them
	shift   uint8     // 64 − log2(len(slots)): hash >> shift is a key's first slot
	long    map[string]uint64
	faulted chan struct{} // closed when prefault is done; nil without prefault
}

// lexSlot is one slot of a lexTable; lex 0 marks an empty slot (a lex entry holds a word
// id ≥ idUnk).
type lexSlot struct {
	key lexKey
	lex uint64
}

// newLexTable returns an empty table with room for n entries (at most half full); put
// grows it when more come.
func newLexTable(n int) *lexTable {
	b := max(bits.Len(uint(2*n)), 1)
	return &lexTable{slots: make([]lexSlot, 1<<b), shift: uint8(64 - b), long: map[string]uint64{}}
}

// prefault writes one slot of each page of t's memory on a goroutine of its own, so that
// the operating system maps the pages while the caller does other work: at a program's
// start the pages of a fresh table cost more than the entries written to them (the
// EWT parser's 4 MB, some 14 ms on a virtual machine). Call wait before any other method.
func (t *lexTable) prefault() {
	t.faulted = make(chan struct{})
	go func() {
		const perPage = 4096 / int(unsafe.Sizeof(lexSlot{}))
		for i := 0; i < len(t.slots); i += perPage {
			t.slots[i].lex = 0
		}
		close(t.faulted)
	}()
}

// wait returns when prefault is done, at once without one.
func (t *lexTable) wait() {
	if t.faulted != nil {
		<-t.faulted
		t.faulted = nil
	}
}

// put stores the entry lex (not 0, which marks an empty slot) of form w, in place of the
// one w had, and reports whether it had one. The table doubles when it would be more than
// half full.
func (t *lexTable) put(w string, lex uint64) (had bool) {
	k, ok := makeLexKey([]byte(w))
	if !ok {
		_, had = t.long[w]
		t.long[w] = lex
	} else {
		if 2*(t.n+1) > len(t.slots) {
			t.grow()
		}
		mask := uint64(len(t.slots) - 1)
		i := k.hash() >> t.shift
		for ; t.slots[i].lex != 0 && t.slots[i].key != k; i = (i + 1) & mask {
		}
		had = t.slots[i].lex != 0
		t.slots[i] = lexSlot{k, lex}
	}
	if !had {
		t.n++
	}
	return had
}

// grow doubles the slots of t and places its entries again.
func (t *lexTable) grow() {
	old := t.slots
	t.slots, t.shift = make([]lexSlot, 2*len(old)), t.shift-1
	mask := uint64(len(t.slots) - 1)
	for _, sl := range old {
		if sl.lex == 0 {
			continue
		}
		i := sl.key.hash() >> t.shift
		for t.slots[i].lex != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}

// get returns the entry of form w, or false.
func (t *lexTable) get(w string) (uint64, bool) {
	k, ok := makeLexKey([]byte(w))
	if !ok {
		lex, found := t.long[w]
		return lex, found
	}
	return t.find(&k, t.first(&k))
}

// noSlot stands for the first slot of a form too long for the table.
const noSlot = ^uint64(0)

// first returns the first slot to probe for k.
func (t *lexTable) first(k *lexKey) uint64 { return k.hash() >> t.shift }

// touch reads slot i and returns a byte of it, so that its cache line is fetched.
func (t *lexTable) touch(i uint64) byte { return byte(t.slots[i].lex) }

// find returns the lex entry of key k, probing from slot i (first), or false.
func (t *lexTable) find(k *lexKey, i uint64) (uint64, bool) {
	mask := uint64(len(t.slots) - 1)
	for ; t.slots[i].lex != 0; i = (i + 1) & mask {
		if t.slots[i].key == *k {
			return t.slots[i].lex, true
		}
	}
	return 0, false
}
