package modelfile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"unsafe"
)

// The model files embedded in the program. Each package that embeds one (the default
// pipeline, each method's package, parser/accurate) registers it from init, so that a
// program holds only the files of the packages it imports.
var (
	embeddedMu sync.RWMutex
	embedded   = map[string][]byte{}
	// trusted maps the first byte of each registered file to what is known of it: Decode
	// does not check the checksum of these bytes again (TestEmbeddedFiles checks every one).
	trusted = map[*byte]trustedFile{}
)

// trustedFile is a registered embedded file: its length, and the SHA-256 its package
// declared (RegisterSum), when it did.
type trustedFile struct {
	n      int
	sum    [sha256.Size]byte
	hasSum bool
}

// Register records the embedded model file name with its bytes, which must not be
// modified. It is meant to be called from init, and panics when name is registered twice.
// The bytes are part of the program, so Decode does not check their checksum at every
// start; the tests of the packages that embed them do (CheckEmbedded).
func Register(name string, data []byte) { RegisterSum(name, data, "") }

// RegisterSum is Register with the SHA-256 of the whole file, in hexadecimal, as the
// package declares it, so that Sum need not hash the file at every start ("": not
// declared). CheckEmbedded checks the declaration; it panics when sum is not 64
// hexadecimal digits.
func RegisterSum(name string, data []byte, sum string) {
	embeddedMu.Lock()
	defer embeddedMu.Unlock()
	if _, dup := embedded[name]; dup {
		panic(fmt.Sprintf("modelfile: Register called twice for %s", name))
	}
	embedded[name] = data
	if len(data) == 0 {
		return
	}
	f := trustedFile{n: len(data), hasSum: sum != ""}
	if f.hasSum {
		if n, err := hex.Decode(f.sum[:], []byte(sum)); err != nil || n != sha256.Size {
			panic(fmt.Sprintf("modelfile: the SHA-256 of %s is not 64 hexadecimal digits: %q", name, sum))
		}
	}
	trusted[unsafe.SliceData(data)] = f
}

// trustedOf returns what is known of data when it is the whole of a registered embedded
// file.
func trustedOf(data []byte) (trustedFile, bool) {
	if len(data) == 0 {
		return trustedFile{}, false
	}
	embeddedMu.RLock()
	defer embeddedMu.RUnlock()
	f, ok := trusted[unsafe.SliceData(data)]
	return f, ok && f.n == len(data)
}

// isTrusted reports whether data is the whole of a registered embedded file.
func isTrusted(data []byte) bool {
	_, ok := trustedOf(data)
	return ok
}

// Sum returns the SHA-256 of the model file data: the sum its package declared when data
// is a registered embedded file (RegisterSum), else the hash of data.
func Sum(data []byte) [sha256.Size]byte {
	if f, ok := trustedOf(data); ok && f.hasSum {
		return f.sum
	}
	return sha256.Sum256(data)
}

// CheckEmbedded checks every registered embedded file as Decode checks a file that is
// not embedded (its checksum), and the SHA-256 its package declared, if any: the check
// that Decode and Sum leave to the tests. The error names the file and the sum to declare.
func CheckEmbedded() error {
	embeddedMu.RLock()
	defer embeddedMu.RUnlock()
	for name, data := range embedded {
		if err := verify(data); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if len(data) == 0 {
			continue
		}
		if f := trusted[unsafe.SliceData(data)]; f.hasSum {
			if got := sha256.Sum256(data); got != f.sum {
				return fmt.Errorf("%s: declared SHA-256 %x, the file's is %x (declare it in its package's RegisterSum)", name, f.sum, got)
			}
		}
	}
	return nil
}

// Embedded returns the bytes of the registered model file name, without a copy: the
// caller must not modify them.
func Embedded(name string) ([]byte, error) {
	embeddedMu.RLock()
	defer embeddedMu.RUnlock()
	b, ok := embedded[name]
	if !ok {
		return nil, fmt.Errorf("model %s is not embedded in this build (not linked; import _ \"github.com/qsc-nlp/qsc/all\" links every model)", name)
	}
	return b, nil
}

// EmbeddedNames lists the registered model files, sorted.
func EmbeddedNames() []string {
	embeddedMu.RLock()
	defer embeddedMu.RUnlock()
	return slices.Sorted(func(yield func(string) bool) {
		for n := range embedded {
			if !yield(n) {
				return
			}
		}
	})
}

// Release tells the operating system that the program has decoded the registered model
// file name and no longer needs its bytes in memory. The bytes of an embedded file are
// part of the binary's image: reading them (to check and decode the file) makes their
// pages resident, and they would stay so for the life of the process, next to the decoded
// model. On Linux, Release asks the kernel to reclaim those pages (madvise MADV_PAGEOUT);
// their content is kept, and a later Embedded reads them back in from the binary.
// Elsewhere it does nothing. Unknown names are ignored.
func Release(name string) {
	embeddedMu.RLock()
	b := embedded[name]
	embeddedMu.RUnlock()
	release(b)
}
