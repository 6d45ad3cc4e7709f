// Package reuse holds what hot paths reuse from one call to the next: buffers sized to
// the longest input seen (Resize), and what a caller resolved about the model it was
// last called with (Same).
package reuse

import "reflect"

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

// Same reports whether a and b hold one value that a cache may take as the same key: the
// same pointer, or equal values of one comparable type of size zero (such as struct{}),
// whose values are all alike. Values of any other type are never Same, not even to
// themselves, so that comparing them can never panic (== panics on a func, or on a struct
// holding one in an interface field); a cache keyed by them resolves again on every call.
// Nil is never Same. It costs O(1) and allocates nothing.
//
// A hot path that asks an interface value what else it implements on every call (a type
// assertion to another interface) keeps the answer with the value it answered for, and
// asks again only when Same reports a new value: Go's runtime allocates, now and then,
// while it fills the cache of an assertion's call site.
func Same(a, b any) bool {
	t := reflect.TypeOf(a)
	if t == nil || t != reflect.TypeOf(b) {
		return false
	}
	if t.Kind() != reflect.Pointer && (t.Size() != 0 || !t.Comparable()) {
		return false
	}
	return a == b
}
