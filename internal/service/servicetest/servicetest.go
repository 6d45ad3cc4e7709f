// Package servicetest holds what the service packages' tests share: one default engine
// per test binary.
package servicetest

import (
	"sync"
	"testing"

	"github.com/qsc-nlp/qsc"
)

var (
	once sync.Once
	eng  *qsc.Engine
	err  error
)

// Engine returns the default engine (qsc.New), made once per test binary and shared by
// its tests; it stops the test if the engine cannot be made. The engine is safe for
// concurrent use, so parallel tests may share it.
func Engine(t testing.TB) *qsc.Engine {
	t.Helper()
	once.Do(func() { eng, err = qsc.New() })
	if err != nil {
		t.Fatal(err)
	}
	return eng
}
