// Package modelfile is the container format of every qsc model file:
//
//	magic   "QSCMODEL" (8 bytes)
//	kind    uint8 length + ASCII name, e.g. "tagger"
//	version uint16, little endian: the format version of the payload
//	length  uint64, little endian: payload bytes
//	payload
//	sha256  32 bytes over everything before it
//
// A truncated, corrupt or mismatched file gives an error that says which.
package modelfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Magic starts every model file.
const Magic = "QSCMODEL"

// MaxPayload bounds the payload size a reader accepts (the committed models are ≤ 20 MB).
const MaxPayload = 1 << 30

// Errors returned by Decode.
var (
	ErrMagic     = errors.New("not a qsc model file (bad magic header)")
	ErrTruncated = errors.New("model file is truncated")
	ErrChecksum  = errors.New("model file checksum mismatch (corrupt file)")
)

// Encode wraps payload in the container.
func Encode(kind string, version uint16, payload []byte) ([]byte, error) {
	if len(kind) == 0 || len(kind) > 255 {
		return nil, fmt.Errorf("modelfile: kind %q must be 1 to 255 bytes", kind)
	}
	var b bytes.Buffer
	b.WriteString(Magic)
	b.WriteByte(byte(len(kind)))
	b.WriteString(kind)
	binary.Write(&b, binary.LittleEndian, version)
	binary.Write(&b, binary.LittleEndian, uint64(len(payload)))
	b.Write(payload)
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes(), nil
}

// Write writes payload to w in the container.
func Write(w io.Writer, kind string, version uint16, payload []byte) error {
	data, err := Encode(kind, version, payload)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// Decode checks data and returns the payload and its version. kind must match the file's
// kind; version must be one of the accepted versions. The checksum of a registered
// embedded file (Register), part of the program, is left to CheckEmbedded.
func Decode(data []byte, kind string, accepted ...uint16) (payload []byte, version uint16, err error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, 0, ErrMagic
	}
	p := data[len(Magic):]
	if len(p) < 1 {
		return nil, 0, ErrTruncated
	}
	kl := int(p[0])
	p = p[1:]
	if len(p) < kl+2+8 {
		return nil, 0, ErrTruncated
	}
	fileKind := string(p[:kl])
	p = p[kl:]
	version = binary.LittleEndian.Uint16(p)
	n := binary.LittleEndian.Uint64(p[2:])
	p = p[10:]
	if fileKind != kind {
		return nil, 0, fmt.Errorf("model file holds a %q model, want %q", fileKind, kind)
	}
	if n > MaxPayload || uint64(len(p)) < n+sha256.Size {
		return nil, 0, fmt.Errorf("%w: payload of %d bytes declared, %d bytes present", ErrTruncated, n, max(0, len(p)-sha256.Size))
	}
	if uint64(len(p)) > n+sha256.Size {
		return nil, 0, fmt.Errorf("model file has %d unexpected trailing bytes", uint64(len(p))-n-sha256.Size)
	}
	if !isTrusted(data) { // an embedded file's checksum is checked by the tests (CheckEmbedded)
		if err := verify(data); err != nil {
			return nil, 0, err
		}
	}
	ok := len(accepted) == 0
	for _, v := range accepted {
		ok = ok || v == version
	}
	if !ok {
		return nil, 0, fmt.Errorf("%s model format version %d is not supported (supported: %v)", kind, version, accepted)
	}
	return p[:n], version, nil
}

// verify checks the checksum at the end of data, a model file at least sha256.Size bytes
// long.
func verify(data []byte) error {
	if len(data) < sha256.Size {
		return ErrTruncated
	}
	sum := sha256.Sum256(data[:len(data)-sha256.Size])
	if !bytes.Equal(sum[:], data[len(data)-sha256.Size:]) {
		return ErrChecksum
	}
	return nil
}

// Header returns the kind and the format version of a model file without checking the
// rest of it (Decode does).
func Header(data []byte) (kind string, version uint16, err error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return "", 0, ErrMagic
	}
	p := data[len(Magic):]
	if len(p) < 1 || len(p) < 1+int(p[0])+2 {
		return "", 0, ErrTruncated
	}
	kl := int(p[0])
	return string(p[1 : 1+kl]), binary.LittleEndian.Uint16(p[1+kl:]), nil
}

// Read reads a whole container from r and decodes it.
func Read(r io.Reader, kind string, accepted ...uint16) ([]byte, uint16, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxPayload+1<<16))
	if err != nil {
		return nil, 0, err
	}
	return Decode(data, kind, accepted...)
}
