package conllu

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseError reports malformed CoNLL-U input.
type ParseError struct {
	File string // file name, or "<input>"
	Line int    // 1-based line number
	Msg  string // what is wrong
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// MaxLineBytes is the longest line the reader accepts.
const MaxLineBytes = 16 << 20

// Reader streams sentences from CoNLL-U input.
type Reader struct {
	name   string
	sc     *bufio.Scanner
	line   int
	closer io.Closer
	err    error
}

// NewReader returns a Reader over r. name is used in error messages. If r starts with the
// gzip magic bytes it is decompressed transparently.
func NewReader(r io.Reader, name string) (*Reader, error) {
	if name == "" {
		name = "<input>"
	}
	br := bufio.NewReaderSize(r, 1<<16)
	var src io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		src = zr
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 1<<16), MaxLineBytes)
	return &Reader{name: name, sc: sc}, nil
}

// Open opens a plain or gzip-compressed CoNLL-U file. Close the Reader when done.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// Close closes the underlying file if the Reader was made by Open.
func (r *Reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Line returns the number of lines read so far.
func (r *Reader) Line() int { return r.line }

func (r *Reader) errorf(format string, args ...any) error {
	r.err = &ParseError{File: r.name, Line: r.line, Msg: fmt.Sprintf(format, args...)}
	return r.err
}

// Next returns the next sentence, or io.EOF when the input is exhausted. After an error
// every later call returns the same error.
func (r *Reader) Next() (*Sentence, error) {
	if r.err != nil {
		return nil, r.err
	}
	var s *Sentence
	start := 0
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		if len(b) == 0 {
			if s == nil {
				continue // tolerate extra blank lines between sentences
			}
			if len(s.Words) == 0 {
				return nil, r.errorf("sentence starting at line %d has no words", start)
			}
			if err := r.finish(s); err != nil {
				return nil, err
			}
			return s, nil
		}
		if s == nil {
			s = &Sentence{}
			start = r.line
		}
		if !utf8.Valid(b) {
			return nil, r.errorf("invalid UTF-8")
		}
		if b[0] == '#' {
			if len(s.Words) > 0 || len(s.Ranges) > 0 || len(s.Empty) > 0 {
				return nil, r.errorf("comment line after the first token line of a sentence")
			}
			s.Comments = append(s.Comments, string(b))
			continue
		}
		if err := r.parseLine(s, b); err != nil {
			return nil, err
		}
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			r.line++
			return nil, r.errorf("line longer than %d bytes", MaxLineBytes)
		}
		r.err = fmt.Errorf("%s: line %d: %w", r.name, r.line, err)
		return nil, r.err
	}
	if s != nil {
		if len(s.Words) == 0 {
			return nil, r.errorf("sentence starting at line %d has no words", start)
		}
		if err := r.finish(s); err != nil {
			return nil, err
		}
		return s, nil
	}
	r.err = io.EOF
	return nil, io.EOF
}

func (r *Reader) parseLine(s *Sentence, b []byte) error {
	var cols [10]string
	n := 0
	for i := 0; i < 9; i++ {
		j := bytes.IndexByte(b, '\t')
		if j < 0 {
			break
		}
		cols[i] = string(b[:j])
		b = b[j+1:]
		n++
	}
	if n != 9 || bytes.IndexByte(b, '\t') >= 0 {
		fields := n + 1 + bytes.Count(b, []byte{'\t'})
		return r.errorf("expected 10 tab-separated columns, found %d", fields)
	}
	cols[9] = string(b)
	for i, c := range cols {
		if c == "" {
			return r.errorf("column %d (%s) is empty; use _ for a missing value", i+1, colNames[i])
		}
	}
	id := cols[0]
	switch {
	case strings.IndexByte(id, '-') > 0:
		a, z, _ := strings.Cut(id, "-")
		start, err1 := strconv.Atoi(a)
		end, err2 := strconv.Atoi(z)
		if err1 != nil || err2 != nil || start < 1 || end <= start {
			return r.errorf("bad multiword token range %q", id)
		}
		if start != len(s.Words)+1 {
			return r.errorf("multiword token range %q does not start at the next word (%d)", id, len(s.Words)+1)
		}
		var rg Range
		rg.Start, rg.End = start, end
		copy(rg.Cols[:], cols[1:])
		s.Ranges = append(s.Ranges, rg)
	case strings.IndexByte(id, '.') > 0:
		a, z, _ := strings.Cut(id, ".")
		major, err1 := strconv.Atoi(a)
		minor, err2 := strconv.Atoi(z)
		if err1 != nil || err2 != nil || major < 0 || minor < 1 || a != itoa(major) || z != itoa(minor) {
			return r.errorf("bad empty node id %q", id)
		}
		if major != len(s.Words) {
			return r.errorf("empty node %q is not after word %d", id, major)
		}
		var en EmptyNode
		en.Major, en.Minor = major, minor
		copy(en.Cols[:], cols[1:])
		s.Empty = append(s.Empty, en)
	default:
		v, err := strconv.Atoi(id)
		if err != nil || id != itoa(v) {
			return r.errorf("bad word id %q", id)
		}
		if v != len(s.Words)+1 {
			return r.errorf("word id %d out of sequence: expected %d", v, len(s.Words)+1)
		}
		w := Word{ID: v, Form: cols[1], Lemma: cols[2], UPOS: cols[3], XPOS: cols[4], Feats: cols[5],
			DepRel: cols[7], Deps: cols[8], Misc: cols[9]}
		if cols[6] == "_" {
			w.Head = NoHead
		} else {
			h, err := strconv.Atoi(cols[6])
			if err != nil || h < 0 || cols[6] != itoa(h) {
				return r.errorf("bad HEAD %q for word %d", cols[6], v)
			}
			w.Head = h
		}
		s.Words = append(s.Words, w)
	}
	return nil
}

// finish checks sentence-level constraints.
func (r *Reader) finish(s *Sentence) error {
	n := len(s.Words)
	parsed := 0
	for _, w := range s.Words {
		if w.Head > n {
			return r.errorf("word %d has HEAD %d beyond the sentence (%d words) in the sentence ending here", w.ID, w.Head, n)
		}
		if w.Head == w.ID {
			return r.errorf("word %d is its own head in the sentence ending here", w.ID)
		}
		if w.Head != NoHead {
			parsed++
		}
	}
	if parsed != 0 && parsed != n {
		return r.errorf("sentence ending here mixes parsed and unparsed (HEAD _) words")
	}
	for _, rg := range s.Ranges {
		if rg.End > n {
			return r.errorf("multiword token %d-%d goes beyond the last word (%d)", rg.Start, rg.End, n)
		}
	}
	return nil
}

var colNames = [10]string{"ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC"}

// ReadAll reads every sentence of a plain or gzip-compressed CoNLL-U file.
func ReadAll(path string) ([]*Sentence, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadAll()
}

// ReadAll reads every sentence left in r.
func (r *Reader) ReadAll() ([]*Sentence, error) {
	var out []*Sentence
	for {
		s, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}
