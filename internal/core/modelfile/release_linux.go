package modelfile

import (
	"os"
	"syscall"
	"unsafe"
)

// madvPageout is MADV_PAGEOUT (Linux 5.4): reclaim the pages now, keeping their content.
const madvPageout = 21

// release asks the kernel to reclaim the whole pages of b. Their content is kept: a later
// read faults them back in (from the binary, for an embedded file). On a kernel without
// MADV_PAGEOUT the call fails and the pages stay; nothing else changes.
func release(b []byte) {
	if len(b) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return
	}
	syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), lo-start)), hi-lo), madvPageout)
}
