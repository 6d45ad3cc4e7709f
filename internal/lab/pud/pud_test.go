package pud

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"de.txt": "Ein Satz.\nNoch einer.\n", "ja.txt": "政府は水曜日。", "notes.md": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Code != "de" || !slices.Equal(files[0].Sentences, []string{"Ein Satz.", "Noch einer."}) ||
		files[1].Code != "ja" || !slices.Equal(files[1].Sentences, []string{"政府は水曜日。"}) {
		t.Errorf("files %q", files)
	}
	if _, err := Read(t.TempDir()); err == nil {
		t.Error("an empty folder read without an error")
	}
	long := filepath.Join(t.TempDir(), "xx.txt")
	if err := os.WriteFile(long, []byte(strings.Repeat("a", maxLine+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(filepath.Dir(long)); err == nil {
		t.Error("a line over the maximum read without an error")
	}
}

func TestPrefix(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"one two three four five six", 5, "one two three four five"},
		{"one two three", 5, "one two three"},
		{"政府は水曜日、中小企業の税金を引き下げると決めた。", 2, "政府は水曜日、中"},
		{"短い", 2, "短い"},
	} {
		if got := Prefix(c.s, c.n); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestMeasure(t *testing.T) {
	files := []File{{"de", []string{"a", "b", "c"}}, {"fr", []string{"x y z w", "v"}}}
	detect := func(s string) string {
		switch {
		case s == "x y z":
			return "fr"
		case strings.Contains(s, "b"):
			return "nl"
		}
		return "de"
	}
	r := Measure(files, detect, 3, 1)
	want := "de\t3\t0.667\tnl:1\nfr\t2\t0.500\tde:1\nall\t5\t0.6000\t"
	if got := r.String(); !strings.HasPrefix(got, want) || r.Texts != 5 || r.Right != 3 {
		t.Errorf("Measure: %q, want %q…", got, want)
	}
	r = Measure(files, detect, 0, 2) // runs of 2: "a b", "x y z w v"; "c" is left out
	if want := "de\t1\t0.000\tnl:1\nfr\t1\t0.000\tde:1\nall\t2\t0.0000\t"; !strings.HasPrefix(r.String(), want) {
		t.Errorf("Measure, join 2: %q, want %q…", r.String(), want)
	}
}
