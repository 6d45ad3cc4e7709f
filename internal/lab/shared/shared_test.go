package shared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDataDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x"), 0o644)
	t.Setenv("QSC_DATA", dir)
	if DataDir() != dir {
		t.Fatalf("DataDir = %q, want %q", DataDir(), dir)
	}
	if Path("f.txt") == "" || Path("missing.txt") != "" {
		t.Fatal("Path should find f.txt and not missing.txt")
	}
	if Require(t, "f.txt") != filepath.Join(dir, "f.txt") {
		t.Fatal("Require returned the wrong path")
	}
}
