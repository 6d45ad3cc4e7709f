package modelfile

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

func deflate(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// TestInflater reads streams of several sizes, around the chunk size and beyond what
// the inflater holds ahead, by bytes and by reads of odd sizes, and compares them with
// what was compressed; and it cuts one at a limit.
func TestInflater(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, inflateChunk - 1, inflateChunk, inflateChunk + 1, 3*inflateChunk + 7, (inflateAhead + 3) * inflateChunk} {
		want := make([]byte, n)
		for i := range want {
			want[i] = byte(rng.IntN(16)) // compressible, not trivial
		}
		c := deflate(t, want)
		in := NewInflater(c, MaxPayload)
		got, err := io.ReadAll(io.LimitReader(in, int64(n)/2))
		if err != nil {
			t.Fatal(err)
		}
		for {
			b, err := in.ReadByte()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%d bytes: %v", n, err)
			}
			got = append(got, b)
		}
		in.Close()
		if !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read %d bytes, not the ones compressed", n, len(got))
		}
		if n > 10 {
			in := NewInflater(c, 10)
			got, err := io.ReadAll(in)
			in.Close()
			if err != nil || !bytes.Equal(got, want[:10]) {
				t.Errorf("%d bytes, limit 10: got %d bytes, %v", n, len(got), err)
			}
		}
	}
}

// TestInflaterCorrupt checks that a corrupt stream gives the decompressor's error, not an
// early io.EOF, and that Close stops a decompression that its reader left.
func TestInflaterCorrupt(t *testing.T) {
	in := NewInflater([]byte{0xff, 0xff, 0xff, 0xff}, MaxPayload)
	_, err := io.ReadAll(in)
	in.Close()
	var ce flate.CorruptInputError
	if !errors.As(err, &ce) {
		t.Errorf("corrupt stream: err = %v, want a flate.CorruptInputError", err)
	}

	before := runtime.NumGoroutine()
	big := deflate(t, make([]byte, (inflateAhead+8)*inflateChunk))
	for range 20 {
		in := NewInflater(big, MaxPayload)
		in.ReadByte()
		in.Close()
		in.Close()
	}
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines after 20 closed inflaters, %d before", runtime.NumGoroutine(), before)
}
