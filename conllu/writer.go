package conllu

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"strconv"
	"strings"
)

// Writer writes sentences as CoNLL-U.
type Writer struct {
	w   *bufio.Writer
	gz  *gzip.Writer
	f   *os.File
	err error
}

// NewWriter returns a Writer to w. Call Flush (or Close) when done.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 1<<16)}
}

// Create creates path and returns a Writer to it; a name ending in ".gz" is gzip-compressed.
// Close the Writer when done.
func Create(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	wr := &Writer{f: f}
	if strings.HasSuffix(path, ".gz") {
		wr.gz = gzip.NewWriter(f)
		wr.w = bufio.NewWriterSize(wr.gz, 1<<16)
	} else {
		wr.w = bufio.NewWriterSize(f, 1<<16)
	}
	return wr, nil
}

// Write writes one sentence followed by a blank line. Ranges are written before their
// first word and empty nodes after word Major, as CoNLL-U requires.
func (wr *Writer) Write(s *Sentence) error {
	if wr.err != nil {
		return wr.err
	}
	w := wr.w
	for _, c := range s.Comments {
		w.WriteString(c)
		w.WriteByte('\n')
	}
	ri, ei := 0, 0
	writeEmpty := func(major int) {
		for ei < len(s.Empty) && s.Empty[ei].Major == major {
			e := &s.Empty[ei]
			w.WriteString(strconv.Itoa(e.Major))
			w.WriteByte('.')
			w.WriteString(strconv.Itoa(e.Minor))
			writeCols(w, e.Cols[:])
			ei++
		}
	}
	writeEmpty(0)
	for i := range s.Words {
		wd := &s.Words[i]
		for ri < len(s.Ranges) && s.Ranges[ri].Start == wd.ID {
			rg := &s.Ranges[ri]
			w.WriteString(strconv.Itoa(rg.Start))
			w.WriteByte('-')
			w.WriteString(strconv.Itoa(rg.End))
			writeCols(w, rg.Cols[:])
			ri++
		}
		w.WriteString(strconv.Itoa(wd.ID))
		head := "_"
		if wd.Head != NoHead {
			head = strconv.Itoa(wd.Head)
		}
		writeCols(w, []string{wd.Form, wd.Lemma, wd.UPOS, wd.XPOS, wd.Feats, head, wd.DepRel, wd.Deps, wd.Misc})
		writeEmpty(wd.ID)
	}
	// Ranges or empty nodes that did not fit (malformed in-memory sentences) are still
	// written rather than silently dropped.
	for ; ri < len(s.Ranges); ri++ {
		rg := &s.Ranges[ri]
		w.WriteString(strconv.Itoa(rg.Start) + "-" + strconv.Itoa(rg.End))
		writeCols(w, rg.Cols[:])
	}
	for ; ei < len(s.Empty); ei++ {
		e := &s.Empty[ei]
		w.WriteString(strconv.Itoa(e.Major) + "." + strconv.Itoa(e.Minor))
		writeCols(w, e.Cols[:])
	}
	_, wr.err = w.WriteString("\n")
	return wr.err
}

func writeCols(w *bufio.Writer, cols []string) {
	for _, c := range cols {
		w.WriteByte('\t')
		if c == "" {
			c = "_"
		}
		w.WriteString(c)
	}
	w.WriteByte('\n')
}

// Flush writes buffered data to the underlying writer.
func (wr *Writer) Flush() error {
	if err := wr.w.Flush(); err != nil && wr.err == nil {
		wr.err = err
	}
	return wr.err
}

// Close flushes and, for a Writer made by Create, closes the file.
func (wr *Writer) Close() error {
	err := wr.Flush()
	if wr.gz != nil {
		if e := wr.gz.Close(); err == nil {
			err = e
		}
	}
	if wr.f != nil {
		if e := wr.f.Close(); err == nil {
			err = e
		}
	}
	return err
}
