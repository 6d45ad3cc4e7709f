package lr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/method"
)

// Model file: the modelfile container, kind "va-lr", version 3 (version 2 lacks the
// threshold, version 1 also the asked marginal), payload
//
//	name        uint8 length + bytes ("lr" or "ablated")
//	version     uint16: features.Version of the feature definitions
//	features    6 bytes: stateful, gov edge, disconnected edge, cross all, numeric, bits
//	C           float64
//	decisions   uint64
//	marginal    float64
//	asked marg. float64 (version ≥ 2)
//	threshold   float64 (version 3)
//	skip used   uint8
//	bias        float32
//	nonzero     uint64
//	weights     nonzero × (uvarint gap to the previous id + 1, float32), ids ascending
//	vocabulary  uvarint count, then count × uvarint gaps between ascending word hashes
//	            (the first gap from 0)
//
// All numbers little endian. Only non-zero weights are stored.
const (
	fileKind    = "va-lr"
	fileVersion = 3
)

// ErrFormat is wrapped by the error of a malformed model payload.
var ErrFormat = errors.New("lr: malformed model file")

// MarshalBinary encodes m as a model file.
func (m *LR) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteByte(byte(len(m.Info.Name)))
	b.WriteString(m.Info.Name)
	b.Write(le.AppendUint16(nil, features.Version))
	f := m.Info.Features
	b.Write([]byte{b2u(f.Stateful), byte(f.GovEdge), b2u(f.DisconnectedEdge), b2u(f.CrossAll), byte(f.Edge.Numeric), f.Edge.Bits})
	b.Write(le.AppendUint64(nil, math.Float64bits(m.Info.C)))
	b.Write(le.AppendUint64(nil, uint64(m.Info.Decisions)))
	b.Write(le.AppendUint64(nil, math.Float64bits(m.Info.Marginal)))
	b.Write(le.AppendUint64(nil, math.Float64bits(m.Info.MarginalAsked)))
	b.Write(le.AppendUint64(nil, math.Float64bits(m.Info.Threshold)))
	b.WriteByte(b2u(m.Info.SkipUsed))
	b.Write(le.AppendUint32(nil, math.Float32bits(m.bias)))
	var hs []uint64
	if v := m.ext.vocab; v != nil {
		hs = v.Hashes()
	}
	b.Write(modelfile.AppendWeights(nil, m.w, hs, modelfile.Float32))
	return modelfile.Encode(fileKind, fileVersion, b.Bytes())
}

func b2u(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// Load decodes a model file written by MarshalBinary. A corrupt, truncated or foreign
// file gives an error (wrapping a modelfile error or ErrFormat).
func Load(data []byte) (*LR, error) {
	info, bias, r, err := header(data)
	if err != nil {
		return nil, err
	}
	w := make([]float32, info.Features.Size())
	hs, err := modelfile.ReadWeights(r, w, modelfile.Float32)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	var vocab *features.Vocab
	if len(hs) > 0 {
		vocab = features.VocabOf(hs)
	}
	return newLRWeights(info, w, bias, vocab)
}

// LoadInfo decodes what a model file says about its training (Info), without decoding
// its weights. RANDOM reads its marginal this way.
func LoadInfo(data []byte) (Info, error) {
	info, _, _, err := header(data)
	return info, err
}

// header checks the container of a model file and decodes the fields before the weights;
// r reads the rest of the payload.
func header(data []byte) (info Info, bias float32, r *bytes.Reader, err error) {
	payload, version, err := modelfile.Decode(data, fileKind, 1, 2, fileVersion)
	if err != nil {
		return info, 0, nil, fmt.Errorf("lr: %w", err)
	}
	r = bytes.NewReader(payload)
	le := binary.LittleEndian
	fail := func(what string) (Info, float32, *bytes.Reader, error) {
		return Info{}, 0, nil, fmt.Errorf("%w: %s", ErrFormat, what)
	}
	nl, err := r.ReadByte()
	if err != nil {
		return fail("no name")
	}
	name := make([]byte, nl)
	var fb [6]byte
	var head [8 + 8 + 8 + 8 + 1 + 4]byte
	if _, err := r.Read(name); err != nil && nl > 0 {
		return fail("short name")
	}
	info.Name = string(name)
	if info.Name != method.NameLR && info.Name != method.NameAblated {
		return fail(fmt.Sprintf("unknown model name %q", info.Name))
	}
	var vb [2]byte
	if n, _ := r.Read(vb[:]); n != 2 {
		return fail("no feature version")
	}
	if v := le.Uint16(vb[:]); v != features.Version {
		return Info{}, 0, nil, fmt.Errorf("%w: features version %d, this build computes version %d (retrain the model)", ErrFormat, v, features.Version)
	}
	if n, _ := r.Read(fb[:]); n != len(fb) {
		return fail("short feature configuration")
	}
	info.Features = FeatureSet{Stateful: fb[0] == 1, GovEdge: GovEdge(fb[1]), DisconnectedEdge: fb[2] == 1,
		CrossAll: fb[3] == 1, Edge: features.Config{Numeric: features.Numeric(fb[4]), Bits: fb[5]}}
	if err := info.Features.Validate(); err != nil {
		return fail(err.Error())
	}
	// The fields after the marginal that a version lacks read as NaN (asked marginal)
	// and 0 (threshold).
	extra := 0 // float64 fields after the marginal
	switch version {
	case 2:
		extra = 1
	case fileVersion:
		extra = 2
	}
	fixed := make([]byte, 24+8*extra)
	if n, _ := r.Read(fixed); n != len(fixed) {
		return fail("short header")
	}
	copy(head[:24], fixed[:24])
	info.C = math.Float64frombits(le.Uint64(head[0:]))
	info.Decisions = int(le.Uint64(head[8:]))
	info.Marginal = math.Float64frombits(le.Uint64(head[16:]))
	info.MarginalAsked = math.NaN()
	if extra >= 1 {
		info.MarginalAsked = math.Float64frombits(le.Uint64(fixed[24:]))
	}
	if extra >= 2 {
		info.Threshold = math.Float64frombits(le.Uint64(fixed[32:]))
	}
	if n, _ := r.Read(head[32:]); n != len(head)-32 {
		return fail("short header")
	}
	info.SkipUsed = head[32] == 1
	return info, math.Float32frombits(le.Uint32(head[33:])), r, nil
}
