package tagger

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
)

// The payload of a tagger model file, format version 3 (little endian throughout):
//
//	tags      uint16 count, then each tag: uint8 length + bytes
//	dict      a table (below): the tag dictionary, one entry (the tag, weight 0) per form
//	clusters  uint8 0 (none) or 1, then
//	            uint16 fine-cluster count + one uint8 coarse cluster per fine cluster,
//	            uint32 word count + per word (by ascending key) uint64 key, uint16 fine cluster,
//	            uint8 profile tag count (≤ 64) + each tag: uint8 length + bytes, then,
//	            when that count is not 0, per word (same order) uint8 top tag + 1,
//	            uint64 bit set of its frequent tags
//	feats     a table: the feature weights
//
// A table is used in place by Load (see table in table.go):
//
//	bits    uint8 (≤ 24): 2^bits buckets, a key's bucket is key >> (64-bits)
//	block   uint8 (≤ min(bits, 8)): runs of 2^block buckets share a base offset
//	rows    uint32: number of rows
//	size    uint32: bytes of data
//	base    2^(bits-block) + 1 uint32: offset in data of the first row of each run of
//	        buckets, then size
//	delta   2^bits + 1 uint16: offset of each bucket's first row from its run's base (0 for
//	        the first bucket of a run, and for the end)
//	data    the rows of bucket 0, then bucket 1, …; within a bucket by ascending key:
//	          the key's low 64-bits bits in (71-bits)/8 bytes, uint8 entry count - 1,
//	          then the entries, 3 bytes each: uint8 tag, int16 weight
//
// The key bits stored in a row and the bucket give the whole key: lookups are exact.
// Versions 1 and 2 stored the tables as uint32 count, then per row by ascending key:
// uint64 key (not 0), uint16 entry count, entries as uint32 tag<<16 | uint16(weight);
// version 1 had no tag profiles in the clusters. Load still reads them, building the
// version-3 layout in memory.

// MarshalBinary encodes the model in the modelfile container (kind "tagger", version 3).
// The encoding is deterministic: the same model gives the same bytes, and a loaded
// version-3 file re-encodes to its own bytes.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b []byte
	b = binary.LittleEndian.AppendUint16(b, uint16(len(m.tags)))
	for _, t := range m.tags {
		if len(t) > 255 {
			return nil, fmt.Errorf("tagger: tag %q is too long", t)
		}
		b = append(b, byte(len(t)))
		b = append(b, t...)
	}
	b = appendTable(b, &m.dict)
	if c := m.clust; c != nil {
		b = append(b, 1)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(c.coarse)))
		b = append(b, c.coarse...)
		var slots []int
		for s, k := range c.keys {
			if k != 0 {
				slots = append(slots, s)
			}
		}
		slices.SortFunc(slots, func(x, y int) int { return cmp.Compare(c.keys[x], c.keys[y]) })
		b = binary.LittleEndian.AppendUint32(b, uint32(len(slots)))
		for _, s := range slots {
			b = binary.LittleEndian.AppendUint64(b, c.keys[s])
			b = binary.LittleEndian.AppendUint16(b, c.fine[s])
		}
		// Version 2: the tag profiles (lexicon.go), in the same word order.
		if len(c.lexTags) > 64 {
			return nil, fmt.Errorf("tagger: %d lexicon tags (at most 64)", len(c.lexTags))
		}
		b = append(b, byte(len(c.lexTags)))
		for _, t := range c.lexTags {
			if len(t) > 255 {
				return nil, fmt.Errorf("tagger: lexicon tag %q is too long", t)
			}
			b = append(b, byte(len(t)))
			b = append(b, t...)
		}
		if len(c.lexTags) > 0 {
			for _, s := range slots {
				b = append(b, c.lexTop[s])
				b = binary.LittleEndian.AppendUint64(b, c.lexCls[s])
			}
		}
	} else {
		b = append(b, 0)
	}
	b = appendTable(b, &m.feats)
	return modelfile.Encode(Kind, Version, b)
}

var errCorrupt = errors.New("tagger: malformed model payload")

type decoder struct {
	b   []byte
	err error
}

// fail records err unless an error is already recorded.
func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n < 0 || len(d.b) < n {
		d.err = errCorrupt
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u8() uint8 {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if p := d.take(2); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if p := d.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// table2 reads a table of format version 1 or 2, whose entries must name tags below
// nTags, into the version-3 layout. A first pass checks the rows and counts their
// entries, so that the second builds the table with no allocation per row.
func (d *decoder) table2(nTags int) table {
	n := int(d.u32())
	if d.err != nil || n > len(d.b)/10 {
		d.fail(errCorrupt)
		return table{}
	}
	le := binary.LittleEndian
	b, rows, total, prev := d.b, 0, 0, uint64(0)
	for range n {
		if len(b) < 10 {
			d.fail(errCorrupt)
			return table{}
		}
		k, c := le.Uint64(b), int(le.Uint16(b[8:]))
		if k <= prev || len(b) < 10+4*c { // keys are non-zero and ascending
			d.fail(errCorrupt)
			return table{}
		}
		if c > 0 {
			rows++
		}
		prev, total, b = k, total+c, b[10+4*c:]
	}
	tb := newTableBuilder(rows, total)
	var ents []uint32
	for range n {
		k := d.u64()
		p := d.take(4 * int(d.u16()))
		ents = ents[:0]
		for j := 0; j < len(p); j += 4 {
			e := le.Uint32(p[j:])
			if entTag(e) >= nTags {
				d.fail(errCorrupt)
				return table{}
			}
			ents = append(ents, e)
		}
		tb.add(k, ents)
	}
	t, err := tb.finish()
	if err != nil {
		d.fail(fmt.Errorf("%w: %v", errCorrupt, err))
		return table{}
	}
	return t
}

// lexicon reads the tag profiles of the clustered words, keys in file order.
func (d *decoder) lexicon(c *Clusters, keys []uint64) {
	nt := int(d.u8())
	if nt > 64 {
		d.err = errCorrupt
	}
	for i := 0; i < nt && d.err == nil; i++ {
		c.lexTags = append(c.lexTags, string(d.take(int(d.u8()))))
	}
	if nt == 0 || d.err != nil {
		return
	}
	if len(keys) > len(d.b)/9 {
		d.err = errCorrupt
		return
	}
	c.lexTop = make([]uint8, len(c.keys))
	c.lexCls = make([]uint64, len(c.keys))
	for _, k := range keys {
		top, cls := d.u8(), d.u64()
		if int(top) > nt || cls>>nt != 0 && nt < 64 {
			d.err = errCorrupt
			return
		}
		s, _ := c.slot(max(k, 1))
		c.lexTop[s], c.lexCls[s] = top, cls
	}
}

// Load decodes a model written by MarshalBinary. It checks the container (magic, kind,
// version, checksum) and the payload, and returns an error for any fault. A file of the
// current version is used in place: the model keeps referring to data, which must not be
// modified afterwards. Files of versions 1 and 2 are decoded into memory of their own.
func Load(data []byte) (*Model, error) {
	payload, version, err := modelfile.Decode(data, Kind, 1, 2, Version)
	if err != nil {
		return nil, err
	}
	d := &decoder{b: payload}
	m := &Model{}
	nt := int(d.u16())
	for i := 0; i < nt && d.err == nil; i++ {
		m.tags = append(m.tags, string(d.take(int(d.u8()))))
	}
	readTable := d.table3
	if version < 3 {
		readTable = d.table2
	}
	m.dict = readTable(nt)
	switch d.u8() {
	case 0:
	case 1:
		nf := int(d.u16())
		coarse := slices.Clone(d.take(nf))
		nw := int(d.u32())
		if d.err == nil && nw > len(d.b)/10 {
			d.err = errCorrupt
		}
		keys := make([]uint64, 0, max(0, nw))
		fine := make([]uint16, 0, max(0, nw))
		for i := 0; i < nw && d.err == nil; i++ {
			keys = append(keys, d.u64())
			f := d.u16()
			if int(f) >= nf {
				d.err = errCorrupt
			}
			fine = append(fine, f)
		}
		if d.err == nil {
			m.clust = newClusters(keys, fine, coarse)
		}
		if version >= 2 && d.err == nil {
			d.lexicon(m.clust, keys)
		}
	default:
		d.err = errCorrupt
	}
	m.feats = readTable(nt)
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	if d.err == nil && (nt == 0 || nt > maxTags) {
		d.err = fmt.Errorf("%w: no tags", errCorrupt)
	}
	if d.err != nil {
		return nil, d.err
	}
	return m, nil
}
