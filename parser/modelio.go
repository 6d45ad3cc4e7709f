package parser

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/qsc-nlp/qsc/internal/modelfile"
)

// Model file: a modelfile container of kind "parser", version 1 (greedy models) or 2
// (beam models), whose payload is DEFLATE-compressed:
//
//	uvarint actBits, labBits
//	uvarint beam width (version 2 only)
//	uvarint count, then count × (uvarint length, bytes): words in id order, then tags,
//	        then labels
//	uvarint root label class
//	uvarint number of clustered words W (0: no clusters), then W × (uvarint length, bytes)
//	        sorted words, W × uvarint fine cluster, uvarint F, F × uvarint coarse cluster
//	uvarint number of candidate lists L, then L × (uvarint length, label classes as bytes)
//	bfloat16 LE action weights, numActs per row (the row padding is not stored)
//	bfloat16 LE label weights, len(labels) per row
const (
	modelKind    = "parser"
	modelVersion = 2 // the newest version; greedy models are still written as version 1
	maxStrings   = 1 << 21
)

// MarshalBinary encodes the model as a qsc model file.
func (m *Model) MarshalBinary() ([]byte, error) {
	return encodeModel(m.payload(), m.version())
}

// version is the oldest format version that holds m: 1 unless it parses with a beam.
func (m *Model) version() uint16 {
	if m.beam > 1 {
		return 2
	}
	return 1
}

// encodeModel compresses a payload and wraps it in the container.
func encodeModel(raw []byte, version uint16) ([]byte, error) {
	var z bytes.Buffer
	zw, err := flate.NewWriter(&z, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return modelfile.Encode(modelKind, version, z.Bytes())
}

// payload returns the uncompressed payload.
func (m *Model) payload() []byte {
	var raw bytes.Buffer
	putU := func(v uint64) { raw.Write(binary.AppendUvarint(nil, v)) }
	putStrings := func(ss []string) {
		putU(uint64(len(ss)))
		for _, s := range ss {
			putU(uint64(len(s)))
			raw.WriteString(s)
		}
	}
	putU(uint64(m.actBits))
	putU(uint64(m.labBits))
	if m.version() >= 2 {
		putU(uint64(m.beam))
	}
	putStrings(byID(m.words))
	putStrings(byID(m.tags))
	putStrings(m.labels)
	putU(uint64(m.rootLab))
	if c := m.clusters; c == nil {
		putU(0)
	} else {
		putStrings(c.words)
		for _, f := range c.fine {
			putU(uint64(f))
		}
		putU(uint64(len(c.coarse)))
		for _, k := range c.coarse {
			putU(uint64(k))
		}
	}
	putU(uint64(len(m.cands)))
	for _, c := range m.cands {
		putU(uint64(len(c)))
		raw.Write(c)
	}
	b := make([]byte, 0, 2*(len(m.actH)+len(m.labH)))
	for r := 0; r < len(m.actH); r += actStride {
		for _, v := range m.actH[r : r+numActs] {
			b = binary.LittleEndian.AppendUint16(b, v)
		}
	}
	for _, v := range m.labH {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	raw.Write(b)
	return raw.Bytes()
}

// byID lists the keys of an id map in id order (ids start at idMin).
func byID(m map[string]uint32) []string {
	out := make([]string, len(m))
	for s, id := range m {
		out[id-idMin] = s
	}
	return out
}

var errFormat = errors.New("parser: malformed model payload")

// maxString bounds the length of a word, tag or label in a model file.
const maxString = 1 << 16

// Load decodes a model written by MarshalBinary. A truncated, corrupt or foreign file gives
// an error saying so. The payload is decompressed as it is read, straight into the
// model's tables: the whole uncompressed payload is never held in memory.
func Load(data []byte) (*Model, error) {
	payload, version, err := modelfile.Decode(data, modelKind, 1, modelVersion)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	r := bufio.NewReaderSize(io.LimitReader(flate.NewReader(bytes.NewReader(payload)), modelfile.MaxPayload), 1<<16)
	getU := func() uint64 {
		v, e := binary.ReadUvarint(r)
		if e != nil && err == nil {
			err = errFormat
		}
		return v
	}
	getStrings := func() []string {
		n := getU()
		if err != nil || n > maxStrings {
			err = errFormat
			return nil
		}
		ss := make([]string, 0, min(n, 1<<16))
		for range n {
			l := getU()
			if err != nil || l > maxString {
				err = errFormat
				return nil
			}
			b := make([]byte, l)
			if _, e := io.ReadFull(r, b); e != nil {
				err = errFormat
				return nil
			}
			ss = append(ss, string(b))
		}
		return ss
	}
	m := &Model{}
	ab, lb := getU(), getU()
	beam := uint64(1)
	if version >= 2 {
		beam = getU()
	}
	words, tags, labels := getStrings(), getStrings(), getStrings()
	root := getU()
	cwords := getStrings()
	var fine []uint16
	var coarse []uint8
	if len(cwords) > 0 {
		for range cwords {
			fine = append(fine, uint16(getU()))
		}
		nf := getU()
		if nf > 511 {
			err = errFormat
		}
		for i := uint64(0); i < nf && err == nil; i++ {
			coarse = append(coarse, uint8(getU()))
		}
		for _, f := range fine {
			if int(f) >= len(coarse) {
				err = errFormat
			}
		}
		for _, k := range coarse {
			if k > 62 {
				err = errFormat
			}
		}
		if !slices.IsSorted(cwords) {
			err = errFormat
		}
		m.clusters = &Clusters{words: cwords, fine: fine, coarse: coarse}
	}
	nc := getU()
	if err == nil && nc > 2*maxTags {
		err = errFormat
	}
	for i := uint64(0); i < nc && err == nil; i++ {
		l := getU()
		if l > uint64(len(labels)) {
			err = errFormat
			break
		}
		c := make([]uint8, l)
		if _, e := io.ReadFull(r, c); e != nil {
			err = errFormat
			break
		}
		for _, v := range c {
			if int(v) >= len(labels) {
				err = errFormat
			}
		}
		m.cands = append(m.cands, c)
	}
	if err != nil {
		return nil, err
	}
	if ab < 1 || ab > 26 || lb < 1 || lb > 24 || len(words) > maxWords-idMin || len(tags) > maxTags-idMin ||
		len(labels) == 0 || len(labels) > 63 || root >= uint64(len(labels)) || labels[root] != "root" ||
		beam < 1 || beam > MaxBeam || version >= 2 && beam == 1 {
		return nil, fmt.Errorf("%w: bad header", errFormat)
	}
	m.actBits, m.labBits, m.labels, m.rootLab, m.beam = uint(ab), uint(lb), labels, int32(root), int(beam)
	m.words = make(map[string]uint32, len(words))
	for i, w := range words {
		m.words[w] = uint32(i + idMin)
	}
	m.tags = make(map[string]uint32, len(tags))
	for i, t := range tags {
		m.tags[t] = uint32(i + idMin)
	}
	if len(m.words) != len(words) || len(m.tags) != len(tags) || len(slices.Compact(slices.Sorted(slices.Values(labels)))) != len(labels) {
		return nil, fmt.Errorf("%w: duplicate vocabulary entries", errFormat)
	}
	m.buildLex()
	m.buildAllCands()
	rows, lrows := 1<<m.actBits, 1<<m.labBits
	m.actH = make([]uint16, rows*actStride)
	m.labH = make([]uint16, lrows*len(labels))
	short := fmt.Errorf("%w: fewer bytes of weights than the %d the header implies", errFormat, 2*(rows*numActs+len(m.labH)))
	var buf [2 * numActs * 1024]byte
	for i := 0; i < rows; i += 1024 { // rows is a power of 2 ≥ 2
		n := min(rows-i, 1024)
		if _, err := io.ReadFull(r, buf[:2*numActs*n]); err != nil {
			return nil, short
		}
		for j := range n {
			for a := range numActs {
				m.actH[(i+j)*actStride+a] = binary.LittleEndian.Uint16(buf[2*(j*numActs+a):])
			}
		}
	}
	for i := 0; i < len(m.labH); i += len(buf) / 2 {
		n := min(len(m.labH)-i, len(buf)/2)
		if _, err := io.ReadFull(r, buf[:2*n]); err != nil {
			return nil, short
		}
		for j := range n {
			m.labH[i+j] = binary.LittleEndian.Uint16(buf[2*j:])
		}
	}
	switch _, err := r.ReadByte(); err {
	case io.EOF:
	case nil:
		return nil, fmt.Errorf("%w: bytes after the weights", errFormat)
	default:
		return nil, fmt.Errorf("%w: %v", errFormat, err)
	}
	return m, nil
}
