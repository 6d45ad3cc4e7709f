//go:build !linux

package modelfile

// release does nothing outside Linux: the pages of the embedded files stay resident.
func release([]byte) {}
