// Package reuse sizes the buffers that hot paths reuse from one sentence to the next.
package reuse

// Resize returns a slice of length n. It reuses s's array when its capacity is at least n,
// without allocating; the elements are then what s's array held (unspecified to the
// caller). Otherwise it allocates a zeroed array with room for n + n/2 elements, so that
// slightly longer inputs later reuse it.
func Resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, n+n/2)
}
