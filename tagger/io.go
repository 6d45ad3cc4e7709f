package tagger

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/qsc-nlp/qsc/internal/modelfile"
)

// MarshalBinary encodes the model in the modelfile container (kind "tagger", version 1).
// The encoding is deterministic: the same model gives the same bytes.
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
		type kv struct {
			k uint64
			f uint16
		}
		var words []kv
		for s, k := range c.keys {
			if k != 0 {
				words = append(words, kv{k, c.fine[s]})
			}
		}
		slices.SortFunc(words, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
		b = binary.LittleEndian.AppendUint32(b, uint32(len(words)))
		for _, w := range words {
			b = binary.LittleEndian.AppendUint64(b, w.k)
			b = binary.LittleEndian.AppendUint16(b, w.f)
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

// table reads a table whose entries must name tags below nTags.
func (d *decoder) table(nTags int) table {
	n := int(d.u32())
	if d.err != nil || n > len(d.b)/10 {
		d.err = errCorrupt
		return table{}
	}
	rows := make([]row, 0, n)
	var prev uint64
	for i := 0; i < n && d.err == nil; i++ {
		k := d.u64()
		c := int(d.u16())
		p := d.take(4 * c)
		if d.err != nil || k == 0 || (i > 0 && k <= prev) {
			d.err = errCorrupt
			break
		}
		prev = k
		ents := make([]uint32, c)
		for j := range ents {
			ents[j] = binary.LittleEndian.Uint32(p[4*j:])
			if entTag(ents[j]) >= nTags {
				d.err = errCorrupt
			}
		}
		rows = append(rows, row{key: k, ents: ents})
	}
	if d.err != nil {
		return table{}
	}
	return buildTable(rows)
}

// Load decodes a model written by MarshalBinary. It checks the container (magic, kind,
// version, checksum) and the payload, and returns an error for any fault.
func Load(data []byte) (*Model, error) {
	payload, _, err := modelfile.Decode(data, Kind, Version)
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
