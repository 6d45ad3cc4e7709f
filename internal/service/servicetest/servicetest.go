// Package servicetest holds what the service packages' tests share: one default engine
// per test binary.
package servicetest

import (
	"sync"
	"testing"

	"github.com/qsc-nlp/qsc"
)

// engine makes the default engine once per test binary.
var engine = sync.OnceValues(qsc.New)

// Engine returns the default engine (qsc.New), made once per test binary and shared by
// its tests; it stops the test if the engine cannot be made. The engine is safe for
// concurrent use, so parallel tests may share it.
func Engine(t testing.TB) *qsc.Engine {
	t.Helper()
	eng, err := engine()
	if err != nil {
		t.Fatal(err)
	}
	return eng
}
