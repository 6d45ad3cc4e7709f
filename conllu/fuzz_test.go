package conllu

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// FuzzReader checks that the reader never panics and that whatever it accepts is written
// back in a form that reads back identically (write ∘ read is idempotent).
func FuzzReader(f *testing.F) {
	if data, err := os.ReadFile("testdata/sample.conllu"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("1\ta\t_\t_\tDT\t_\t0\troot\t_\t_\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		first := readWrite(t, data)
		if first == nil {
			return
		}
		second := readWrite(t, first)
		if !bytes.Equal(first, second) {
			t.Fatalf("not idempotent:\n%q\n%q", first, second)
		}
	})
}

// readWrite reads all sentences up to the first error and writes them; nil when none.
func readWrite(t *testing.T, data []byte) []byte {
	r, err := NewReader(bytes.NewReader(data), "fuzz")
	if err != nil {
		return nil
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	n := 0
	for {
		s, err := r.Next()
		if err == io.EOF || err != nil {
			break
		}
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		n++
	}
	w.Flush()
	if n == 0 {
		return nil
	}
	return out.Bytes()
}
