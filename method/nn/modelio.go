package nn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
)

// Model file: the modelfile container, kind "va-nn", version 2, payload (little endian)
//
//	embed, hidden        uint32 each
//	info                 decisions, sentences uint64; checkpoints, best checkpoint uint32;
//	                     sentences at the best checkpoint uint64;
//	                     valid acc, marginal float64; seed uint64; learning rate float64;
//	                     batch, min count uint32; skip used uint8
//	vocabulary           uint32 count W, then W × (uvarint length + bytes); word 0 is "<unk>"
//	labels (version 2)   uint32 count L, then L × (uvarint length + bytes); label 0 is "<unk>"
//	                     when L > 0 (L = 0: a words-only model, as every version-1 file)
//	embeddings           4 × V × E bfloat16 (tables C, rejected, remaining, candidate),
//	                     V = W + L rows each: the words', then the labels'
//	forward LSTM         Wx (4H × E), U (4H × H), b (4H) float32, gates i, f, g, o
//	backward LSTM        the same
//	output               W (2 × 2H), b (2) float32, classes reject, accept
const (
	fileKind    = "va-nn"
	fileVersion = 2
)

// MarshalBinary encodes m as a model file.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	le := binary.LittleEndian
	u32 := func(v int) { b.Write(le.AppendUint32(nil, uint32(v))) }
	u64 := func(v uint64) { b.Write(le.AppendUint64(nil, v)) }
	f64 := func(v float64) { u64(math.Float64bits(v)) }
	p, in := m.p, m.Info
	u32(p.Embed)
	u32(p.Hidden)
	u64(uint64(in.Decisions))
	u64(uint64(in.Sentences))
	u32(in.Checkpoints)
	u32(in.BestCheck)
	u64(uint64(in.BestSentences))
	f64(in.ValidAcc)
	f64(in.Marginal)
	u64(in.Seed)
	f64(in.LearnRate)
	u32(in.BatchSize)
	u32(in.MinCount)
	if in.SkipUsed {
		b.WriteByte(1)
	} else {
		b.WriteByte(0)
	}
	for _, list := range [][]string{m.words, m.labels} {
		u32(len(list))
		for _, w := range list {
			b.Write(binary.AppendUvarint(nil, uint64(len(w))))
			b.WriteString(w)
		}
	}
	if p.emb == nil {
		for _, h := range p.embH {
			b.Write(le.AppendUint16(nil, h))
		}
	}
	for _, x := range p.emb {
		b.Write(le.AppendUint16(nil, toBF16(x)))
	}
	for _, t := range p.tensors()[1:] {
		for _, x := range t {
			b.Write(le.AppendUint32(nil, math.Float32bits(x)))
		}
	}
	return modelfile.Encode(fileKind, fileVersion, b.Bytes())
}

// Load decodes a model file written by MarshalBinary.
func Load(data []byte) (*Model, error) {
	payload, version, err := modelfile.Decode(data, fileKind, 1, fileVersion)
	if err != nil {
		return nil, err
	}
	r := reader{b: payload}
	var in Info
	sz := Sizes{Embed: int(r.u32()), Hidden: int(r.u32())}
	in.Decisions, in.Sentences = int(r.u64()), int(r.u64())
	in.Checkpoints, in.BestCheck = int(r.u32()), int(r.u32())
	in.BestSentences = int(r.u64())
	in.ValidAcc, in.Marginal = r.f64(), r.f64()
	in.Seed = r.u64()
	in.LearnRate = r.f64()
	in.BatchSize, in.MinCount = int(r.u32()), int(r.u32())
	in.SkipUsed = r.byte() == 1
	if r.err != nil {
		return nil, r.err
	}
	if err := sz.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	words, err := r.strings("word", 1)
	if err != nil {
		return nil, err
	}
	var labels []string
	if version >= 2 {
		if labels, err = r.strings("label", 0); err != nil {
			return nil, err
		}
	}
	nv := len(words) + len(labels)
	need := NumStates*nv*sz.Embed*2 + 4*(2*(4*sz.Hidden*(sz.Embed+sz.Hidden+1))+2*2*sz.Hidden+2)
	if len(r.b) != need {
		return nil, fmt.Errorf("%w: %d weight bytes for embed %d, hidden %d, %d words (want %d)", ErrFormat, len(r.b), sz.Embed, sz.Hidden, nv, need)
	}
	p := newParams(sz, 0)
	p.V, p.emb = nv, nil // the embeddings are read as embH
	le := binary.LittleEndian
	p.embH = make([]uint16, NumStates*nv*sz.Embed)
	for i := range p.embH {
		p.embH[i] = le.Uint16(r.take(2))
	}
	for _, t := range p.tensors()[1:] {
		for i := range t {
			x := math.Float32frombits(le.Uint32(r.take(4)))
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("%w: non-finite weight", ErrFormat)
			}
			t[i] = x
		}
	}
	return newModel(p, words, labels, in)
}

// reader reads little-endian numbers; the first shortfall sets err.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n > len(r.b) {
		r.err = fmt.Errorf("%w: truncated header", ErrFormat)
		return make([]byte, n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// strings reads a uint32 count (at least min) and that many uvarint-prefixed strings,
// each called what in errors.
func (r *reader) strings(what string, min int) ([]string, error) {
	n := int(r.u32())
	if r.err != nil {
		return nil, r.err
	}
	if n < min || n > len(r.b) {
		return nil, fmt.Errorf("%w: %d %ss", ErrFormat, n, what)
	}
	out := make([]string, n)
	for i := range out {
		l := r.uvarint()
		if r.err != nil || l > uint64(len(r.b)) {
			return nil, fmt.Errorf("%w: %s %d is truncated", ErrFormat, what, i)
		}
		out[i] = string(r.take(int(l)))
	}
	return out, nil
}

func (r *reader) byte() byte   { return r.take(1)[0] }
func (r *reader) u32() uint32  { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *reader) u64() uint64  { return binary.LittleEndian.Uint64(r.take(8)) }
func (r *reader) f64() float64 { return math.Float64frombits(r.u64()) }
func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("%w: bad varint", ErrFormat)
		return 0
	}
	r.b = r.b[n:]
	return v
}
