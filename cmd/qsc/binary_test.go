package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// TestMain removes the binary that qscBinary built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// qscBinary builds the qsc command once for the package's tests and returns its path.
func qscBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "qsc-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "qsc")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// runBinary runs the built qsc with args and stdin, and returns its exit status, stdout
// and stderr.
func runBinary(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(qscBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// TestBinaryMatcher: the compress command matches query terms as the snippets do
// (inflection, accents, hyphenated words, trailing punctuation), and an absent term is
// still an error.
func TestBinaryMatcher(t *testing.T) {
	for _, c := range []struct{ query, text, want string }{
		{"court,appeal", "The court rejected the appeals of both men on Monday.", "appeals"},
		{"Zurich", "Banks in Zürich raised their fees on Monday.", "Zürich"},
		{"Sao Paulo", "Heavy rain fell on São Paulo for a week.", "São Paulo"},
		{"transformer", "A transformer-based model won the prize.", "transformer-based"},
		{"U.S", "Troops of the U.S. left the base.", "U.S."},
	} {
		code, out, errs := runBinary(t, "", "compress", "-q", c.query, "-b", "60", c.text)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("compress -q %q %q: exit %d, %q %q; want %q kept", c.query, c.text, code, out, errs, c.want)
		}
	}
	code, _, errs := runBinary(t, "", "compress", "-q", "court,judge", "-b", "60", "The court rejected the appeals.")
	if code != 1 || !strings.Contains(errs, `query term "judge" is not in the sentence`) {
		t.Errorf("absent term: exit %d, %q", code, errs)
	}
}
