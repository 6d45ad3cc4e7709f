package parsecache

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
)

func TestEnsure(t *testing.T) {
	p, err := pipeline.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	input := "../dataset/testdata/fixture.conllu"
	res, err := Ensure(context.Background(), dir, input, p, Given, false, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Built || res.Sentences == 0 || !strings.HasSuffix(res.Path, ".conllu.gz") {
		t.Fatalf("first Ensure: %+v", res)
	}
	again, err := Ensure(context.Background(), dir, input, p, Given, false, 2)
	if err != nil || again.Built || again.Path != res.Path {
		t.Fatalf("second Ensure should hit the cache: %+v, %v", again, err)
	}
	tagged, err := Path(dir, input, p, Tagged)
	if err != nil || tagged == res.Path {
		t.Fatalf("variants must not share a file: %q", tagged)
	}
	got, err := conllu.ReadAll(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := conllu.ReadAll(input)
	if len(got) != len(want) {
		t.Fatalf("%d sentences cached, input has %d", len(got), len(want))
	}
	for i := range got {
		if !got[i].Parsed() {
			t.Fatalf("sentence %d not parsed", i)
		}
		for j := range got[i].Words {
			if got[i].Words[j].Misc != want[i].Words[j].Misc || got[i].Words[j].XPOS != want[i].Words[j].XPOS {
				t.Fatalf("sentence %d word %d: MISC or XPOS changed", i, j)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "partial") {
			t.Errorf("partial file left behind: %s", e.Name())
		}
	}
}

func TestEnsureBadInput(t *testing.T) {
	p, err := pipeline.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(t.TempDir(), "bad.conllu")
	os.WriteFile(bad, []byte("1\tdogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n1\tx\n"), 0o644)
	if _, err := Ensure(context.Background(), dir, bad, p, Given, false, 1); err == nil || !strings.Contains(err.Error(), "bad.conllu:3") {
		t.Fatalf("err = %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("failed parse left files: %v", entries)
	}
	if _, err := Ensure(context.Background(), dir, filepath.Join(dir, "missing.conllu"), p, Given, false, 1); err == nil {
		t.Error("missing input: no error")
	}
}
