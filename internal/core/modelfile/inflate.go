package modelfile

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"sync"
)

// inflateChunk is the size of the pieces an Inflater hands over, and inflateAhead how many
// it may hold decompressed ahead of its reader.
const (
	inflateChunk = 64 << 10
	inflateAhead = 32
)

// Inflater reads a DEFLATE stream that a goroutine of its own decompresses ahead of the
// reader, at most 2 MB ahead. A loader that parses a compressed section (a model's
// vocabulary) then parses while the rest is decompressed, on another core: at a program's
// start that halves the wall time of the two, whose sum is the load's critical path. The
// stream is cut after limit bytes, as io.LimitReader cuts it. Read and ReadByte are not
// safe for concurrent use; Close must be called when reading ends, at whatever point.
type Inflater struct {
	chunks chan []byte
	done   chan struct{}
	stop   sync.Once
	cur    []byte
	err    error // the decompression's error, set before chunks is closed
}

// NewInflater starts decompressing compressed.
func NewInflater(compressed []byte, limit int64) *Inflater {
	f := &Inflater{chunks: make(chan []byte, inflateAhead), done: make(chan struct{})}
	go f.run(io.LimitReader(flate.NewReader(bytes.NewReader(compressed)), limit))
	return f
}

// run decompresses r into chunks until its end, an error or Close.
func (f *Inflater) run(r io.Reader) {
	defer close(f.chunks)
	for {
		buf := make([]byte, inflateChunk)
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			select {
			case f.chunks <- buf[:n]:
			case <-f.done:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				f.err = err
			}
			return
		}
	}
}

// next makes cur non-empty, or reports false at the end of the stream.
func (f *Inflater) next() bool {
	for len(f.cur) == 0 {
		c, ok := <-f.chunks
		if !ok {
			return false
		}
		f.cur = c
	}
	return true
}

// end returns the error of a read past the end: the decompression's, or io.EOF.
func (f *Inflater) end() error {
	if f.err != nil {
		return f.err
	}
	return io.EOF
}

// Read implements io.Reader.
func (f *Inflater) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if !f.next() {
		return 0, f.end()
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	return n, nil
}

// ReadByte implements io.ByteReader.
func (f *Inflater) ReadByte() (byte, error) {
	if !f.next() {
		return 0, f.end()
	}
	b := f.cur[0]
	f.cur = f.cur[1:]
	return b, nil
}

// Close stops the decompression; the reads after it may end early. It may be called more
// than once.
func (f *Inflater) Close() { f.stop.Do(func() { close(f.done) }) }
