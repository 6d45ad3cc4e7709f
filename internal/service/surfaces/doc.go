// Package surfaces holds only tests: they check the library's behaviour through the HTTP
// service (internal/service/server on httptest) that wraps it, the same request on each surface.
// The CLI binary's tests are in cmd/qsc; the library's own in the root package.
package surfaces
