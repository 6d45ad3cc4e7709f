package conllu

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/shared"
)

func roundTrip(t *testing.T, name string, data []byte) (n int) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), name)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), data) {
		a, b := strings.Split(string(data), "\n"), strings.Split(out.String(), "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("%s: round trip differs at line %d:\n in: %q\nout: %q", name, i+1, a[i], b[i])
			}
		}
		t.Fatalf("%s: round trip differs in length: %d vs %d lines", name, len(a), len(b))
	}
	return n
}

func TestFixture(t *testing.T) {
	data, err := os.ReadFile("testdata/sample.conllu")
	if err != nil {
		t.Fatal(err)
	}
	if n := roundTrip(t, "sample", data); n != 3 {
		t.Fatalf("read %d sentences, want 3", n)
	}
	sents, err := ReadAll("testdata/sample.conllu")
	if err != nil {
		t.Fatal(err)
	}
	s1, s2, s3 := sents[0], sents[1], sents[2]
	if len(s1.Words) != 5 || len(s1.Ranges) != 1 || s1.Ranges[0].Start != 2 || s1.Ranges[0].End != 3 || s1.Ranges[0].Form() != "don't" {
		t.Errorf("s1: words %d ranges %+v", len(s1.Words), s1.Ranges)
	}
	if txt, ok := s1.Meta("text"); !ok || txt != "I don't know." {
		t.Errorf("s1 text = %q, %v", txt, ok)
	}
	if id, _ := s1.Meta("newdoc id"); id != "doc1" {
		t.Errorf("newdoc id = %q", id)
	}
	if s1.Words[3].Head != 0 || s1.Words[0].Head != 4 || !s1.Parsed() {
		t.Errorf("s1 heads wrong: %+v", s1.Words)
	}
	if len(s2.Empty) != 1 || s2.Empty[0].Major != 5 || s2.Empty[0].Minor != 1 || s2.Empty[0].Cols[0] != "likes" {
		t.Errorf("s2 empty nodes = %+v", s2.Empty)
	}
	if s3.Parsed() || s3.Words[0].Head != NoHead || s3.Words[0].DepRel != "_" {
		t.Errorf("s3 should be unparsed: %+v", s3.Words[0])
	}
	if MiscValue(s3.Words[0].Misc, "Keep") != "Yes" || MiscValue(s3.Words[0].Misc, "GDep") != "advmod" || MiscValue("_", "Keep") != "" {
		t.Errorf("MiscValue wrong")
	}
	if got := s3.Text(); got != "first ##" {
		t.Errorf("Text() without comment = %q", got)
	}
	s3.SetMeta("text", "first ##")
	s3.SetMeta("text", "x")
	if v, _ := s3.Meta("text"); v != "x" || len(s3.Comments) != 2 {
		t.Errorf("SetMeta: %q %v", v, s3.Comments)
	}
}

func TestGzipAndCreate(t *testing.T) {
	sents, err := ReadAll("testdata/sample.conllu")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.conllu.gz")
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sents {
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("output is not gzip: %v", err)
	}
	got, _ := io.ReadAll(zr)
	want, _ := os.ReadFile("testdata/sample.conllu")
	if !bytes.Equal(got, want) {
		t.Fatalf("gzip round trip differs")
	}
	back, err := ReadAll(path)
	if err != nil || len(back) != 3 {
		t.Fatalf("reading gz: %d sentences, %v", len(back), err)
	}
}

func TestMalformed(t *testing.T) {
	line := func(cols ...string) string { return strings.Join(cols, "\t") + "\n" }
	ok1 := line("1", "a", "_", "_", "DT", "_", "0", "root", "_", "_")
	cases := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"nine columns", "1\ta\t_\t_\tDT\t_\t0\troot\t_\n", 1, "expected 10 tab-separated columns, found 9"},
		{"eleven columns", "1\ta\t_\t_\tDT\t_\t0\troot\t_\t_\t_\n", 1, "found 11"},
		{"empty column", "1\t\t_\t_\tDT\t_\t0\troot\t_\t_\n", 1, "column 2 (FORM) is empty"},
		{"bad id", line("x", "a", "_", "_", "DT", "_", "0", "root", "_", "_"), 1, `bad word id "x"`},
		{"id gap", ok1 + line("3", "b", "_", "_", "DT", "_", "1", "dep", "_", "_"), 2, "out of sequence: expected 2"},
		{"bad head", line("1", "a", "_", "_", "DT", "_", "z", "root", "_", "_"), 1, `bad HEAD "z"`},
		{"head beyond", line("1", "a", "_", "_", "DT", "_", "5", "root", "_", "_") + "\n", 2, "HEAD 5 beyond the sentence"},
		{"self head", line("1", "a", "_", "_", "DT", "_", "1", "root", "_", "_") + "\n", 2, "its own head"},
		{"mixed heads", ok1 + line("2", "b", "_", "_", "DT", "_", "_", "_", "_", "_") + "\n", 3, "mixes parsed and unparsed"},
		{"bad range", line("2-1", "ab", "_", "_", "_", "_", "_", "_", "_", "_"), 1, `bad multiword token range "2-1"`},
		{"range past end", line("1-3", "ab", "_", "_", "_", "_", "_", "_", "_", "_") + ok1 + "\n", 3, "goes beyond the last word"},
		{"empty node misplaced", line("2.1", "x", "_", "_", "_", "_", "_", "_", "_", "_"), 1, "is not after word 2"},
		{"comment inside", ok1 + "# late\n", 2, "comment line after the first token line"},
		{"invalid utf8", "1\ta\xff\t_\t_\tDT\t_\t0\troot\t_\t_\n", 1, "invalid UTF-8"},
		{"comments only", "# sent_id = 1\n\n", 2, "has no words"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(c.in), "bad.conllu")
			if err != nil {
				t.Fatal(err)
			}
			var perr *ParseError
			_, err = r.Next()
			for err == nil {
				_, err = r.Next()
			}
			if !errors.As(err, &perr) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if perr.File != "bad.conllu" || perr.Line != c.line || !strings.Contains(perr.Msg, c.msg) {
				t.Fatalf("err = %q, want line %d and %q", err, c.line, c.msg)
			}
			if _, err2 := r.Next(); err2 != err {
				t.Errorf("error not sticky: %v", err2)
			}
		})
	}
}

func TestCRLF(t *testing.T) {
	r, _ := NewReader(strings.NewReader("# c\r\n1\ta\t_\t_\tDT\t_\t0\troot\t_\t_\r\n\r\n"), "")
	s, err := r.Next()
	if err != nil || s.Words[0].Misc != "_" || s.Comments[0] != "# c" {
		t.Fatalf("CRLF input: %+v, %v", s, err)
	}
}

func TestNoTrailingBlankLine(t *testing.T) {
	r, _ := NewReader(strings.NewReader("1\ta\t_\t_\tDT\t_\t_\t_\t_\t_"), "")
	s, err := r.Next()
	if err != nil || len(s.Words) != 1 {
		t.Fatalf("got %v, %v", s, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

// TestRealTreebanks checks an exact round trip of the UD files and the Google corpus test file.
func TestRealTreebanks(t *testing.T) {
	files := []string{shared.EWTTrain, shared.EWTDev, shared.EWTTest, shared.GUMTest, shared.PUDTest, shared.GoogleTest}
	for _, rel := range files {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			p := shared.Require(t, rel)
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			n := roundTrip(t, p, data)
			t.Logf("%s: %d sentences round-tripped exactly", rel, n)
		})
	}
}

func BenchmarkRead(b *testing.B) {
	p := shared.Require(b, shared.EWTDev)
	f, _ := os.Open(p)
	zr, _ := gzip.NewReader(f)
	data, _ := io.ReadAll(zr)
	f.Close()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r, _ := NewReader(bytes.NewReader(data), "dev")
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}
