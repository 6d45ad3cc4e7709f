package parser

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
)

// Model file: a modelfile container of kind "parser". Version 3, written today, holds the
// vocabularies DEFLATE-compressed, then the weights uncompressed, which a loaded model
// uses in place:
//
//	uvarint length of the compressed section, then the section:
//	uvarint actBits, labBits, beam width (1: greedy)
//	uvarint count, then count × (uvarint length, bytes): words in id order, then tags,
//	        then labels
//	uvarint root label class
//	uvarint number of clustered words W (0: no clusters), then W × (uvarint length, bytes)
//	        sorted words, W × uvarint fine cluster, uvarint F, F × uvarint coarse cluster
//	uvarint number of candidate lists L, then L × (uvarint length, label classes as bytes)
//	action weights: 2^actBits rows of 4 bytes (exponent, three int8 weights: quant.go)
//	label weights: 2^labBits rows of 1+len(labels) bytes (exponent, int8 weights)
//
// Versions 1 (greedy) and 2 (with the beam width after labBits) are still read: their
// payload is DEFLATE-compressed, and the same sections end with bfloat16 weights (action
// rows of three, label rows of len(labels)), which Load quantizes to 8 bits.
// Kind identifies parser model files in the modelfile container.
const Kind = "parser"

const (
	modelVersion = 3
	maxStrings   = 1 << 21
)

// MarshalBinary encodes the model as a qsc model file (version 3).
func (m *Model) MarshalBinary() ([]byte, error) {
	return modelfile.Encode(Kind, modelVersion, m.payload())
}

// payload returns the payload of a version 3 file.
func (m *Model) payload() []byte {
	var b []byte
	putU := func(v uint64) { b = binary.AppendUvarint(b, v) }
	putStrings := func(ss []string) {
		putU(uint64(len(ss)))
		for _, s := range ss {
			putU(uint64(len(s)))
			b = append(b, s...)
		}
	}
	putU(uint64(m.actBits))
	putU(uint64(m.labBits))
	putU(uint64(m.Beam()))
	putStrings(m.words)
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
		b = append(b, c...)
	}
	z := deflate(b)
	b = binary.AppendUvarint(nil, uint64(len(z)))
	b = append(b, z...)
	b = append(b, m.actQ...)
	return append(b, m.labQ...)
}

// deflate compresses b (DEFLATE at the best compression, which is deterministic).
func deflate(b []byte) []byte {
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.BestCompression) // the level is valid
	zw.Write(b)                                         // a bytes.Buffer does not fail
	zw.Close()
	return z.Bytes()
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

// bytesPerString is the room Load reserves for each string of a vocabulary: a little more
// than the mean length of a word (7.5 bytes in the EWT parser's).
const bytesPerString = 9

// Load decodes a model written by MarshalBinary. A truncated, corrupt or foreign file gives
// an error saying so. A version 3 model reads its weights in place from data, which must
// not be modified while the model is in use; older versions are decompressed as they are
// read, straight into the model's tables.
func Load(data []byte) (*Model, error) {
	payload, version, err := modelfile.Decode(data, Kind, 1, 2, 3)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	var r interface {
		io.Reader
		io.ByteReader
	}
	var weights []byte // of a version 3 file
	if version >= 3 {
		n, k := binary.Uvarint(payload)
		if k <= 0 || n > uint64(len(payload)-k) {
			return nil, fmt.Errorf("%w: bad length of the vocabulary section", errFormat)
		}
		weights = payload[k+int(n):]
		payload = payload[k : k+int(n)]
	}
	in := modelfile.NewInflater(payload, modelfile.MaxPayload)
	defer in.Close()
	r = in
	getU := func() uint64 {
		v, e := binary.ReadUvarint(r)
		if e != nil && err == nil {
			err = errFormat
		}
		return v
	}
	readStrings := func(n uint64) []string {
		if err != nil || n > maxStrings {
			err = errFormat
			return nil
		}
		// The strings are read into one builder, then cut from its one string: a few
		// allocations, not one per string, and no copy of the whole (a fresh page costs
		// more than the bytes on it when the model is loaded at a program's start).
		ends := make([]uint32, 0, min(n, 1<<16)) // the stream holds at most MaxPayload bytes
		var all strings.Builder
		all.Grow(int(min(n*bytesPerString, 1<<22)))
		var buf []byte
		for range n {
			l := getU()
			if err != nil || l > maxString {
				err = errFormat
				return nil
			}
			buf = slices.Grow(buf[:0], int(l))[:l]
			if _, e := io.ReadFull(r, buf); e != nil {
				err = errFormat
				return nil
			}
			all.Write(buf)
			ends = append(ends, uint32(all.Len()))
		}
		s := all.String()
		ss := make([]string, len(ends))
		start := uint32(0)
		for i, e := range ends {
			ss[i], start = s[start:e], e
		}
		return ss
	}
	getStrings := func() []string { return readStrings(getU()) }
	m := &Model{}
	ab, lb := getU(), getU()
	beam := uint64(1)
	if version >= 2 {
		beam = getU()
	}
	// The lexicon's table is faulted in while the words are decompressed (Inflater) and
	// read, and the words' part of it is built while the rest is decompressed.
	nw := getU()
	var lex *lexTable
	if err == nil && nw <= maxWords-idMin {
		lex = newLexTable(int(nw))
		lex.prefault()
	}
	words := readStrings(nw)
	lexOK := false
	if err == nil && lex != nil {
		m.words = words
		lexOK = m.lexWords(lex)
	}
	tags, labels := getStrings(), getStrings()
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
		beam < 1 || beam > MaxBeam || version == 2 && beam == 1 {
		return nil, fmt.Errorf("%w: bad header", errFormat)
	}
	m.actBits, m.labBits, m.labels, m.rootLab, m.beam = uint(ab), uint(lb), labels, int32(root), int(beam)
	m.tags = make(map[string]uint32, len(tags))
	for i, t := range tags {
		m.tags[t] = uint32(i + idMin)
	}
	if lexOK {
		m.lexClusters()
	}
	if !lexOK || len(m.tags) != len(tags) || len(slices.Compact(slices.Sorted(slices.Values(labels)))) != len(labels) {
		return nil, fmt.Errorf("%w: duplicate vocabulary entries", errFormat)
	}
	m.buildAllCands()
	rows, lrows := 1<<m.actBits, 1<<m.labBits
	if version < 3 {
		if err := m.readBF16(r, rows, lrows); err != nil {
			return nil, err
		}
	}
	switch _, err := r.ReadByte(); err {
	case io.EOF:
	case nil:
		return nil, fmt.Errorf("%w: bytes after the weights", errFormat)
	default:
		return nil, fmt.Errorf("%w: %v", errFormat, err)
	}
	if version >= 3 {
		actBytes, labBytes := rows*actStride, lrows*(1+len(labels))
		if len(weights) != actBytes+labBytes {
			return nil, fmt.Errorf("%w: %d bytes of weights, the header implies %d", errFormat, len(weights), actBytes+labBytes)
		}
		m.actQ, m.labQ = weights[:actBytes:actBytes], weights[actBytes:]
	}
	return m, nil
}

// readBF16 reads the bfloat16 weights of a version 1 or 2 file and quantizes them.
func (m *Model) readBF16(r io.Reader, rows, lrows int) error {
	nl := len(m.labels)
	m.actQ = make([]byte, rows*actStride)
	m.labQ = make([]byte, lrows*(1+nl))
	short := fmt.Errorf("%w: fewer bytes of weights than the %d the header implies", errFormat, 2*(rows*numActs+lrows*nl))
	var buf [2 * numActs * 1024]byte
	row := make([]float32, max(numActs, nl))
	for i := 0; i < rows; i += 1024 { // rows is a power of 2 ≥ 2
		n := min(rows-i, 1024)
		if _, err := io.ReadFull(r, buf[:2*numActs*n]); err != nil {
			return short
		}
		for j := range n {
			for a := range numActs {
				row[a] = fromBF16(binary.LittleEndian.Uint16(buf[2*(j*numActs+a):]))
			}
			quantizeRow(m.actQ[(i+j)*actStride:], row[:numActs])
		}
	}
	for i := range lrows {
		if _, err := io.ReadFull(r, buf[:2*nl]); err != nil {
			return short
		}
		for c := range nl {
			row[c] = fromBF16(binary.LittleEndian.Uint16(buf[2*c:]))
		}
		quantizeRow(m.labQ[i*(1+nl):], row[:nl])
	}
	return nil
}

// fromBF16 widens a bfloat16 (the upper half of a float32) of a version 1 or 2 file.
func fromBF16(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
