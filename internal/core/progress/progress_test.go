package progress

import (
	"bytes"
	"strings"
	"testing"
)

func TestBar(t *testing.T) {
	var nilBar *Bar
	nilBar.Add(3) // a disabled bar does nothing
	nilBar.Done()

	var buf bytes.Buffer
	b := NewTo(&buf, "parse", 10)
	b.Add(4)
	b.Done()
	b.Done() // idempotent
	out := buf.String()
	if !strings.Contains(out, "parse: 4/10 (40.0%)") || strings.Count(out, "done in") != 1 {
		t.Fatalf("output %q", out)
	}
}

func TestDisabledInCI(t *testing.T) {
	t.Setenv("CI", "true")
	if Enabled() || New("x", 1) != nil {
		t.Fatal("progress must be off when CI=true")
	}
}
