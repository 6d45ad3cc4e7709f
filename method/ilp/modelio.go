package ilp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
)

// Model file: the modelfile container, kind "ilp", version 2, payload
//
//	version     uint16: features.Version of the feature definitions
//	numeric     uint8 (0 raw, 1 binned, 2 both)
//	bits        uint8
//	epochs      uint32
//	sentences   uint64
//	seed        uint64
//	flags       uint8 (version 3): bit 0 the conjoined edge features, bit 1 the query features
//	nonzero     uint64
//	weights     bfloat16 (modelfile.AppendBF16): a bitmap of the non-zero weights, then
//	            their values
//	vocabulary  uvarint count, then count × uvarint gaps between ascending word hashes
//	            (the first gap from 0)
//
// All numbers little endian. Version 2 is the same without flags, and Load still reads
// it. Version 1 is the same, with the weights as float32
// (modelfile.AppendSparse: the count, then each as its uvarint gap and float32); Load
// still reads it. Training rounds the weights to bfloat16, so a trained model and its
// file agree.
// Kind identifies ILP model files in the modelfile container.
const Kind = "ilp"

const fileVersion = 3

// ErrFormat is wrapped by the error of a malformed model payload.
var ErrFormat = errors.New("ilp: malformed model file")

// MarshalBinary encodes m as a model file.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b []byte
	le := binary.LittleEndian
	b = le.AppendUint16(b, features.Version)
	b = append(b, byte(m.cfg.Numeric), m.cfg.Bits)
	b = le.AppendUint32(b, uint32(m.Info.Epochs))
	b = le.AppendUint64(b, uint64(m.Info.Sentences))
	b = le.AppendUint64(b, m.Info.Seed)
	var flags byte
	if m.cfg.Conjoined {
		flags |= 1
	}
	if m.cfg.Query {
		flags |= 2
	}
	b = append(b, flags)
	var hs []uint64
	if m.vocab != nil {
		hs = m.vocab.Hashes()
	}
	b = modelfile.AppendWeights(b, m.w, hs, modelfile.BFloat16)
	return modelfile.Encode(Kind, fileVersion, b)
}

// Load decodes a model file written by MarshalBinary. The model uses the default backend,
// DP. A corrupt, truncated or foreign file gives an error (wrapping a modelfile error or
// ErrFormat).
func Load(data []byte) (*Model, error) {
	payload, version, err := modelfile.Decode(data, Kind, 1, 2, fileVersion)
	if err != nil {
		return nil, fmt.Errorf("ilp: %w", err)
	}
	r := bytes.NewReader(payload)
	le := binary.LittleEndian
	fail := func(what string) (*Model, error) { return nil, fmt.Errorf("%w: %s", ErrFormat, what) }
	var head [2 + 2 + 4 + 8 + 8]byte
	if n, _ := r.Read(head[:]); n != len(head) {
		return fail("short header")
	}
	if v := le.Uint16(head[0:]); v != features.Version {
		return nil, fmt.Errorf("%w: features version %d, this build computes version %d (retrain the model)", ErrFormat, v, features.Version)
	}
	if head[2] >= byte(len(numericNames)) {
		return fail(fmt.Sprintf("numeric representation %d", head[2]))
	}
	info := Info{Numeric: numericNames[head[2]], Bits: int(head[3]), Epochs: int(le.Uint32(head[4:])),
		Sentences: int(le.Uint64(head[8:])), Seed: le.Uint64(head[16:])}
	if version >= 3 {
		flags, err := r.ReadByte()
		if err != nil {
			return fail("short header")
		}
		if flags&^3 != 0 {
			return fail(fmt.Sprintf("unknown flags %#x", flags))
		}
		info.Conjoined, info.Query = flags&1 != 0, flags&2 != 0
	}
	cfg, err := edgeConfig(info.Bits, info.Numeric, info.Conjoined, info.Query)
	if err != nil {
		return fail(err.Error())
	}
	w := make([]float32, cfg.Size())
	prec := modelfile.BFloat16
	if version == 1 {
		prec = modelfile.Float32
	}
	hs, err := modelfile.ReadWeights(r, w, prec)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	m := &Model{w: w, cfg: cfg, backend: DP, Info: info}
	if len(hs) > 0 {
		m.vocab = features.VocabOf(hs)
	}
	return m, nil
}
