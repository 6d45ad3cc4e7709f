package modelfile

import (
	"fmt"
	"slices"
	"sync"
)

// The model files embedded in the program. Each package that embeds one (the default
// pipeline, each method's package, parser/accurate) registers it from init, so that a
// program holds only the files of the packages it imports.
var (
	embeddedMu sync.RWMutex
	embedded   = map[string][]byte{}
)

// Register records the embedded model file name with its bytes, which must not be
// modified. It is meant to be called from init, and panics when name is registered twice.
func Register(name string, data []byte) {
	embeddedMu.Lock()
	defer embeddedMu.Unlock()
	if _, dup := embedded[name]; dup {
		panic(fmt.Sprintf("modelfile: Register called twice for %s", name))
	}
	embedded[name] = data
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
