package internal

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// maxFileBytes is the largest file the repository may hold (DEVELOPERS.md: model files of
// at most 20 MB); git keeps every committed file forever.
const maxFileBytes = 20 << 20

// TestFileSizes fails for every file git tracks in the repository that is larger than
// maxFileBytes: a model over the limit, or a binary built in the work tree and committed
// by mistake. It needs git and a clone; without them it skips.
func TestFileSizes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the tracked files cannot be listed")
	}
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z", "--full-name").Output()
	if err != nil {
		t.Skipf("not a git clone (git ls-files: %v)", err)
	}
	top, err := exec.Command("git", "-C", "..", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("git rev-parse: %v", err)
	}
	root := strings.TrimSpace(string(top))
	n := 0
	for _, name := range bytes.Split(out, []byte{0}) {
		if len(name) == 0 {
			continue
		}
		fi, err := os.Lstat(root + "/" + string(name))
		if err != nil {
			continue // deleted in the work tree, not yet committed
		}
		n++
		if fi.Mode().IsRegular() && fi.Size() > maxFileBytes {
			t.Errorf("%s is %d bytes, over the %d-byte limit for a repository file", name, fi.Size(), maxFileBytes)
		}
	}
	if n == 0 {
		t.Fatal("git ls-files listed no file")
	}
}

// TestCIRunsTheREADMECommand checks that .ci/run runs the README's test command as it is
// written, and fails when it fails: under set -e an && list whose failing command is not
// its last does not stop the script, so .ci/run must test the list's status.
func TestCIRunsTheREADMECommand(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	run, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	var cmd string
	for _, line := range strings.Split(string(readme), "\n") {
		if c, ok := strings.CutSuffix(strings.TrimSpace(line), "# the tests, as CI runs them"); ok {
			cmd = strings.TrimSpace(c)
		}
	}
	if cmd == "" {
		t.Fatal(`README.md has no line ending "# the tests, as CI runs them"`)
	}
	if want := "if ! (" + cmd + "); then"; !strings.Contains(string(run), want) {
		t.Errorf(".ci/run does not check the status of the README's test command: want a line %q", want)
	}
}
