package tagger

import (
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	mbits "math/bits"
)

// table maps 64-bit keys to rows of (tag, weight) entries. It is kept in the byte layout
// of the model file (format version 3, see io.go), so that Load uses the file's bytes in
// place: nothing is decoded or inserted per row. The keys are split into 2^bits buckets
// by their top bits; a bucket's rows follow one another in data, in ascending key order,
// each one
//
//	key      the key's low 64−bits bits, in kb = (71−bits)/8 bytes, little endian
//	count    uint8: the number of entries minus 1 (1 to 256 entries)
//	entries  count+1 of 3 bytes: tag uint8, weight int16 little endian
//
// Bucket b's rows are data[off(b):off(b+1)], where off(b) = base[b>>block] + delta[b]:
// base holds a uint32 offset for each run of 2^block buckets, delta a uint16 offset from
// it for each bucket (half the size of a uint32 by bucket, and it stays in cache better).
// A lookup reads the offsets then scans the bucket's rows, 2 to 4 on average. The stored
// bits and the bucket give the whole key (the 6 bytes kept with 2^18 buckets hold 46
// bits and 2 spare ones), so a lookup is exact: it never takes one key for another.
//
// The zero table is empty. A table is read-only once built or loaded; a loaded table's
// slices point into the model file's bytes.
type table struct {
	bits    uint8  // 2^bits buckets
	block   uint8  // 2^block buckets share an entry of base
	shift   uint8  // 64 - bits: key >> shift is the bucket
	kb      int    // bytes of a stored key
	lowMask uint64 // the key bits stored in a row
	keyMask uint64 // the bits of kb bytes: a stored key read as a uint64
	n       int    // number of rows
	base    []byte // uint32 LE by run of buckets, then the end (len(data))
	delta   []byte // uint16 LE by bucket, then 0 for the end
	data    []byte // the rows
}

// Limits of the layout: at most 2^24 buckets, at most 256 entries in a row.
const (
	maxBucketBits = 24
	maxBlockBits  = 8
	maxRowEnts    = 256
)

// setBits sets the fields that follow from the number of bucket bits.
func (t *table) setBits(bits, block uint8) {
	t.bits, t.block, t.shift = bits, block, 64-bits
	t.kb = (64 - int(bits) + 7) / 8
	t.lowMask = math.MaxUint64 >> bits
	t.keyMask = math.MaxUint64 >> (64 - 8*t.kb)
}

// bucketBits returns the number of bucket bits for n rows: 2 to 4 rows per bucket on
// average, and at least 2 buckets.
func bucketBits(n int) uint8 {
	return uint8(min(maxBucketBits, max(1, mbits.Len(uint(n))-2)))
}

// off returns the offset in t.data of bucket b's first row (b ≤ 2^bits).
func (t *table) off(b int) int {
	return int(binary.LittleEndian.Uint32(t.base[4*(b>>t.block):])) + int(binary.LittleEndian.Uint16(t.delta[2*b:]))
}

// lookup returns the range of key's entries in t.data, empty when t does not hold key.
// t must not be the zero table.
func (t *table) lookup(key uint64) (lo, hi int) {
	p, end := t.bucket(key)
	return t.scan(key, p, end)
}

// bucket returns the range of the rows of key's bucket in t.data.
func (t *table) bucket(key uint64) (p, end int) {
	b := int(key >> t.shift)
	return t.off(b), t.off(b + 1)
}

// scan returns the range in t.data of key's entries among the rows of t.data[p:end],
// empty when they do not hold key.
func (t *table) scan(key uint64, p, end int) (lo, hi int) {
	low, kb := key&t.lowMask, t.kb
	for p < end {
		k := binary.LittleEndian.Uint64(t.data[p:]) & t.keyMask
		next := p + kb + 4 + 3*int(t.data[p+kb])
		if k >= low {
			if k == low {
				return p + kb + 1, next
			}
			break
		}
		p = next
	}
	return 0, 0
}

// find returns the entries of key (3 bytes each, see entry), or nil.
func (t *table) find(key uint64) []byte {
	if t.n == 0 {
		return nil
	}
	lo, hi := t.lookup(key)
	if lo == hi {
		return nil
	}
	return t.data[lo:hi:hi]
}

// entry returns the tag and weight of the j-th entry of a row.
func entry(e []byte, j int) (tag int, w int16) {
	return int(e[3*j]), int16(binary.LittleEndian.Uint16(e[3*j+1:]))
}

// all yields the keys of t in ascending order with their entries.
func (t *table) all() iter.Seq2[uint64, []byte] {
	return func(yield func(uint64, []byte) bool) {
		if t.base == nil {
			return
		}
		for b := range 1 << t.bits {
			p, end := t.off(b), t.off(b+1)
			for p < end {
				k := binary.LittleEndian.Uint64(t.data[p:])&t.keyMask | uint64(b)<<t.shift
				next := p + t.kb + 4 + 3*int(t.data[p+t.kb])
				if !yield(k, t.data[p+t.kb+1:next:next]) {
					return
				}
				p = next
			}
		}
	}
}

// check validates a table read from a file in one pass over its rows: the offsets
// ascend within data, every row lies within its bucket with its stored key bits below
// the bucket's and in ascending order, every tag is below nTags, and there are n rows.
// base, delta and data must have the sizes of bits and block, and bits must be ≥ 1.
//
// The pass avoids branches that depend on the data, which the processor would mispredict
// at about every bucket boundary: for each run of buckets it lists the starts of its
// non-empty buckets, then walks the run's rows, and a row that starts the next bucket of
// the list resets the key order and moves on in the list by arithmetic, not by a branch.
func (t *table) check(nTags, n int) error {
	le := binary.LittleEndian
	kb, data, keyMask, lowMask := t.kb, t.data, t.keyMask, t.lowMask
	per := 1 << t.block // buckets per run
	var seen [256]bool  // the tags of all entries
	var starts [1<<maxBlockBits + 1]int
	rows, p := 0, 0
	errOffsets := fmt.Errorf("%w: table offsets", errCorrupt)
	if le.Uint32(t.base) != 0 {
		return errOffsets
	}
	for r := range 1 << (t.bits - t.block) {
		base, next := int(le.Uint32(t.base[4*r:])), int(le.Uint32(t.base[4*r+4:]))
		ds := t.delta[2*r*per : 2*(r+1)*per+2] // the run's deltas and the next one
		if le.Uint16(ds) != 0 || le.Uint16(ds[2*per:]) != 0 || base != p || next > len(data) {
			return errOffsets
		}
		// The starts of the non-empty buckets, then next.
		k, o := 0, base
		for i := 1; i < per; i++ {
			end := base + int(le.Uint16(ds[2*i:]))
			if end < o {
				return errOffsets
			}
			starts[k] = o
			k += b2i(end != o)
			o = end
		}
		if next < o {
			return errOffsets
		}
		starts[k] = o
		k += b2i(next != o)
		starts[k] = next
		// The rows. starts[k] is the first start after the current row.
		k = 0
		var prev uint64
		for p < next {
			first := b2i(p == starts[k])
			k += first
			if starts[k]-p < kb+4 { // a key, a count and an entry
				return fmt.Errorf("%w: table row", errCorrupt)
			}
			key := le.Uint64(data[p:]) & keyMask
			// The key must be above the previous one of its bucket, if any; with bits ≥ 1
			// the stored bits are below 2^63 and prev+1 does not overflow.
			if key&^lowMask != 0 || key < (prev+1)&(uint64(first)-1) {
				return fmt.Errorf("%w: table keys", errCorrupt)
			}
			e := p + kb + 1
			c := int(data[e-1])
			nx := e + 3 + 3*c
			if nx > starts[k] {
				return fmt.Errorf("%w: table row", errCorrupt)
			}
			// The tags of the first four entries (repeating the last one when there are
			// fewer), without a branch, then the rest.
			seen[data[e]] = true
			seen[data[e+3*min(c, 1)]] = true
			seen[data[e+3*min(c, 2)]] = true
			seen[data[e+3*min(c, 3)]] = true
			for j := e + 12; j < nx; j += 3 {
				seen[data[j]] = true
			}
			prev, p = key, nx
			rows++
		}
	}
	if p != len(data) || rows != n {
		return fmt.Errorf("%w: table size", errCorrupt)
	}
	for tag := nTags; tag < len(seen); tag++ {
		if seen[tag] {
			return fmt.Errorf("%w: tag %d of %d", errCorrupt, tag, nTags)
		}
	}
	return nil
}

// b2i returns 1 for true and 0 for false (compiled without a branch).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tableBuilder builds a table from rows added in ascending key order.
type tableBuilder struct {
	t    table
	offs []int // offset of each bucket's first row, up to the current bucket
	prev uint64
	err  error
}

// newTableBuilder returns a builder for n rows with ents entries in all.
func newTableBuilder(n, ents int) *tableBuilder {
	tb := &tableBuilder{}
	bits := bucketBits(n)
	tb.t.setBits(bits, 0)
	tb.t.data = make([]byte, 0, n*(tb.t.kb+1)+3*ents)
	tb.offs = make([]int, 1, 1<<bits+1)
	return tb
}

var errRowOrder = errors.New("tagger: table keys not distinct and ascending")

// add adds a row: key, above those of the rows added before, and its entries (packed
// tag and weight, see pack), which must number at most maxRowEnts. A row without entries
// is left out.
func (tb *tableBuilder) add(key uint64, ents []uint32) {
	if len(ents) == 0 || tb.err != nil {
		return
	}
	t := &tb.t
	if t.n > 0 && key <= tb.prev {
		tb.err = errRowOrder
		return
	}
	if len(ents) > maxRowEnts {
		tb.err = fmt.Errorf("tagger: a table row has %d entries (at most %d)", len(ents), maxRowEnts)
		return
	}
	b := int(key >> t.shift)
	for len(tb.offs) <= b {
		tb.offs = append(tb.offs, len(t.data))
	}
	le := binary.LittleEndian
	t.data = le.AppendUint64(t.data, key&t.lowMask)[:len(t.data)+t.kb]
	t.data = append(t.data, byte(len(ents)-1))
	for _, e := range ents {
		if entTag(e) > math.MaxUint8 {
			tb.err = fmt.Errorf("tagger: tag %d in a table (at most %d)", entTag(e), math.MaxUint8)
			return
		}
		t.data = append(t.data, byte(entTag(e)))
		t.data = le.AppendUint16(t.data, uint16(entWeight(e)))
	}
	tb.prev = key
	t.n++
}

// finish returns the table. It picks the largest run of buckets (up to 2^maxBlockBits)
// whose offsets fit in uint16 from the run's base.
func (tb *tableBuilder) finish() (table, error) {
	if tb.err != nil {
		return table{}, tb.err
	}
	t := tb.t
	if len(t.data) > math.MaxUint32 {
		return table{}, errors.New("tagger: table too large")
	}
	nb := 1 << t.bits
	offs := tb.offs
	for len(offs) <= nb {
		offs = append(offs, len(t.data))
	}
	block := min(t.bits, maxBlockBits)
	for ; block > 0; block-- {
		runMask := 1<<block - 1
		ok := true
		for b, o := range offs {
			if o-offs[b&^runMask] > math.MaxUint16 {
				ok = false
				break
			}
		}
		if ok {
			break
		}
	}
	t.setBits(t.bits, block)
	le := binary.LittleEndian
	t.base = make([]byte, 0, 4*(nb>>block+1))
	t.delta = make([]byte, 0, 2*(nb+1))
	runMask := 1<<block - 1
	for b, o := range offs {
		if b&runMask == 0 {
			t.base = le.AppendUint32(t.base, uint32(o))
		}
		t.delta = le.AppendUint16(t.delta, uint16(o-offs[b&^runMask]))
	}
	return t, nil
}

// buildTable builds a table from rows with distinct keys in ascending order.
func buildTable(rows []row) (table, error) {
	total := 0
	for _, r := range rows {
		total += len(r.ents)
	}
	tb := newTableBuilder(len(rows), total)
	for _, r := range rows {
		tb.add(r.key, r.ents)
	}
	return tb.finish()
}

// appendTable writes t in the layout of format version 3 (see io.go).
func appendTable(b []byte, t *table) []byte {
	if t.base == nil { // the zero table: build the empty one
		e, _ := newTableBuilder(0, 0).finish()
		t = &e
	}
	le := binary.LittleEndian
	b = append(b, t.bits, t.block)
	b = le.AppendUint32(b, uint32(t.n))
	b = le.AppendUint32(b, uint32(len(t.data)))
	b = append(b, t.base...)
	b = append(b, t.delta...)
	return append(b, t.data...)
}

// table3 reads a table of format version 3, in place, whose entries must name tags below
// nTags.
func (d *decoder) table3(nTags int) table {
	var t table
	bits, block := d.u8(), d.u8()
	n, size := int(d.u32()), int(d.u32())
	if d.err != nil || bits < 1 || bits > maxBucketBits || block > min(bits, maxBlockBits) {
		d.fail(fmt.Errorf("%w: table header", errCorrupt))
		return table{}
	}
	t.setBits(bits, block)
	t.base = d.take(4 * (1<<(bits-block) + 1))
	t.delta = d.take(2 * (1<<bits + 1))
	t.data = d.take(size)
	t.n = n
	if d.err != nil {
		return table{}
	}
	if err := t.check(nTags, n); err != nil {
		d.fail(err)
		return table{}
	}
	return t
}
