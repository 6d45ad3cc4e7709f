// Package shared locates the project's data directory (../shared/data beside the
// repository, or $QSC_DATA), which holds the corpora used for training and evaluation.
package shared

import (
	"os"
	"path/filepath"
)

// DataDir returns the data directory: $QSC_DATA if set, else shared/data next to the
// directory holding go.mod, found by walking up from the working directory. It returns ""
// when there is none.
func DataDir() string {
	if d := os.Getenv("QSC_DATA"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(filepath.Dir(dir), "shared", "data")
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path returns the path of a file under the data directory, or "" when the data directory
// or the file is absent.
func Path(rel string) string {
	d := DataDir()
	if d == "" {
		return ""
	}
	p := filepath.Join(d, rel)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TB is what Require asks of its test: the methods of testing.TB it calls, named here so
// that shared, which the binaries link, does not import package testing (they would link
// the test framework). A *testing.T or *testing.B is one.
type TB interface {
	Helper()
	Skipf(format string, args ...any)
}

// Require returns the path of a data file, or skips the test with a clear message when
// the shared data is not available (as on a fresh clone without ../shared).
func Require(tb TB, rel string) string {
	tb.Helper()
	p := Path(rel)
	if p == "" {
		tb.Skipf("shared data %s not found (looked in $QSC_DATA and ../shared/data beside the repository); skipping", rel)
	}
	return p
}

// Well-known data files, relative to DataDir.
const (
	EWTTrain    = "ud-english/UD_English-EWT/en_ewt-ud-train.conllu.gz"
	EWTDev      = "ud-english/UD_English-EWT/en_ewt-ud-dev.conllu.gz"
	EWTTest     = "ud-english/UD_English-EWT/en_ewt-ud-test.conllu.gz"
	GUMTrain    = "ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz"
	GUMDev      = "ud-english/UD_English-GUM/en_gum-ud-dev.conllu.gz"
	GUMTest     = "ud-english/UD_English-GUM/en_gum-ud-test.conllu.gz"
	PUDTest     = "ud-english/UD_English-PUD/en_pud-ud-test.conllu.gz"
	GoogleTrain = "google-compression/train.conllu.gz"
	GoogleTest  = "google-compression/test.conllu.gz"
)
