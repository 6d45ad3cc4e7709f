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
