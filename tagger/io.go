package tagger

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/qsc-nlp/qsc/internal/modelfile"
)

// MarshalBinary encodes the model in the modelfile container (kind "tagger", version 2:
// version 1 plus the tag profiles of the clustered words). The encoding is
// deterministic: the same model gives the same bytes.
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

// appendTable writes the rows of t sorted by key: count, then key, entry count, entries.
func appendTable(b []byte, t *table) []byte {
	keys := t.sortedKeys()
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, k := range keys {
		e := t.find(k)
		b = binary.LittleEndian.AppendUint64(b, k)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(e)))
		for _, v := range e {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	return b
}

var errCorrupt = errors.New("tagger: malformed model payload")

type decoder struct {
	b   []byte
	err error
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

// table reads a table whose entries must name tags below nTags. A first pass checks the
// rows and counts their entries, so that the second decodes them straight into the table,
// with no allocation per row.
func (d *decoder) table(nTags int) table {
	n := int(d.u32())
	if d.err != nil || n > len(d.b)/10 {
		d.err = errCorrupt
		return table{}
	}
	le := binary.LittleEndian
	b, total, prev := d.b, 0, uint64(0)
	for range n {
		if len(b) < 10 {
			d.err = errCorrupt
			return table{}
		}
		k, c := le.Uint64(b), int(le.Uint16(b[8:]))
		if k <= prev || len(b) < 10+4*c { // keys are non-zero and ascending
			d.err = errCorrupt
			return table{}
		}
		prev, total, b = k, total+c, b[10+4*c:]
	}
	t := newTable(n, total)
	var ents []uint32
	for range n {
		k := d.u64()
		p := d.take(4 * int(d.u16()))
		ents = ents[:0]
		for j := 0; j < len(p); j += 4 {
			e := le.Uint32(p[j:])
			if entTag(e) >= nTags {
				d.err = errCorrupt
				return table{}
			}
			ents = append(ents, e)
		}
		t.add(k, ents)
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
// version, checksum) and the payload, and returns an error for any fault.
func Load(data []byte) (*Model, error) {
	payload, version, err := modelfile.Decode(data, Kind, 1, Version)
	if err != nil {
		return nil, err
	}
	d := &decoder{b: payload}
	m := &Model{}
	nt := int(d.u16())
	for i := 0; i < nt && d.err == nil; i++ {
		m.tags = append(m.tags, string(d.take(int(d.u8()))))
	}
	m.dict = d.table(nt)
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
	m.feats = d.table(nt)
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
