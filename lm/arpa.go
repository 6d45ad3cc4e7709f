package lm

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// WriteARPA writes the model in the ARPA text format: the \data\ header with the n-gram
// counts, then each order's n-grams, one a line, "log10 p<TAB>words<TAB>log10 backoff"
// (no backoff on the highest order), and \end\. Unigrams come in id order (<unk>, <s>,
// </s>, then the words as training first saw them, as lmplz writes them), higher orders
// by ascending word ids, so the same model always gives the same bytes.
func (m *Model) WriteARPA(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "\\data\\\n")
	for n, c := range m.Counts() {
		fmt.Fprintf(bw, "ngram %d=%d\n", n+1, c)
	}
	var buf []byte
	line := func(e Entry, words []uint32, backoff bool) {
		buf = buf[:0]
		buf = strconv.AppendFloat(buf, float64(e.LogProb), 'g', -1, 32)
		for i, id := range words {
			if i == 0 {
				buf = append(buf, '\t')
			} else {
				buf = append(buf, ' ')
			}
			buf = append(buf, m.words[id]...)
		}
		if backoff {
			buf = append(buf, '\t')
			buf = strconv.AppendFloat(buf, float64(e.Backoff), 'g', -1, 32)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	fmt.Fprintf(bw, "\n\\1-grams:\n")
	for id, e := range m.uni {
		line(e, []uint32{uint32(id)}, m.order > 1)
	}
	var ids [MaxOrder]uint32
	for n := 2; n <= m.order; n++ {
		fmt.Fprintf(bw, "\n\\%d-grams:\n", n)
		t := &m.grams[n]
		for i, k := range t.keys {
			for j := n - 1; j >= 0; j-- {
				ids[j] = uint32(k) & wordMask
				k >>= wordBits
			}
			line(t.vals[i], ids[:n], n < m.order)
		}
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
}

// WriteARPAFile writes the model to path in ARPA format, gzip-compressed when path ends
// in ".gz". The file is written under a temporary name and renamed when complete.
func (m *Model) WriteARPAFile(path string) (err error) {
	tmp := path + ".partial"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	if err = m.WriteARPA(w); err != nil {
		return err
	}
	if zw != nil {
		if err = zw.Close(); err != nil {
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadARPAFile reads a model from an ARPA file, plain or gzip-compressed (recognized by
// its content). Errors name the file and line.
func ReadARPAFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readARPA(f, path)
}

// ReadARPA reads a model in the ARPA text format, plain or gzip-compressed, of order 1 to
// MaxOrder with at most MaxVocab words. It accepts what lmplz, SRILM and IRSTLM write:
// text before \data\, header counts padded with spaces ("ngram  1=   2806"), fields
// separated by tabs or spaces, n-grams in any order, a backoff on any line. A model
// without <unk> gets one with log10 p = −100, as KenLM does; <s> and </s> must be there.
// Errors give the line ("arpa:12: ...").
func ReadARPA(r io.Reader) (*Model, error) { return readARPA(r, "arpa") }

func readARPA(r io.Reader, name string) (*Model, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	lineNo := 0
	errf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, lineNo, fmt.Sprintf(format, args...))
	}
	next := func() (string, bool) {
		for sc.Scan() {
			lineNo++
			if s := strings.TrimSpace(sc.Text()); s != "" {
				return s, true
			}
		}
		return "", false
	}

	// Header.
	var s string
	var ok bool
	for {
		if s, ok = next(); !ok {
			if err := sc.Err(); err != nil {
				return nil, errf("%v", err)
			}
			return nil, errf("no \\data\\ header")
		}
		if s == `\data\` {
			break
		}
	}
	var counts []int
	for {
		if s, ok = next(); !ok {
			return nil, errf("end of file in the \\data\\ header")
		}
		if !strings.HasPrefix(s, "ngram") {
			break
		}
		lhs, rhs, found := strings.Cut(strings.TrimSpace(strings.TrimPrefix(s, "ngram")), "=")
		n, err1 := strconv.Atoi(strings.TrimSpace(lhs))
		c, err2 := strconv.Atoi(strings.TrimSpace(rhs))
		if !found || err1 != nil || err2 != nil || c < 0 {
			return nil, errf("bad header line %q: want \"ngram N=COUNT\"", s)
		}
		if n != len(counts)+1 {
			return nil, errf("header gives order %d after order %d", n, len(counts))
		}
		counts = append(counts, c)
	}
	order := len(counts)
	if order == 0 {
		return nil, errf("the \\data\\ header gives no n-gram counts")
	}
	if order > MaxOrder {
		return nil, errf("order %d: this package holds models up to order %d", order, MaxOrder)
	}
	if counts[0] > MaxVocab {
		return nil, errf("%d unigrams: at most %d", counts[0], MaxVocab)
	}

	m := &Model{order: order, ids: make(map[string]uint32, counts[0])}
	var fields []string
	for n := 1; n <= order; n++ {
		if s != fmt.Sprintf(`\%d-grams:`, n) {
			return nil, errf("got %q, want \\%d-grams:", truncate(s), n)
		}
		var keys []uint64
		var vals []Entry
		if n > 1 {
			keys = make([]uint64, 0, counts[n-1])
			vals = make([]Entry, 0, counts[n-1])
		}
		for {
			if s, ok = next(); !ok {
				if err := sc.Err(); err != nil {
					return nil, errf("%v", err)
				}
				return nil, errf("end of file in the %d-grams (no \\end\\)", n)
			}
			if strings.HasPrefix(s, `\`) {
				break
			}
			fields = appendFields(fields[:0], s)
			if len(fields) != n+1 && len(fields) != n+2 {
				return nil, errf("%d-gram line %q: want log10 p, %d words and an optional backoff", n, truncate(s), n)
			}
			var e Entry
			p, err := strconv.ParseFloat(fields[0], 32)
			if err != nil {
				return nil, errf("bad log10 probability %q", fields[0])
			}
			e.LogProb = float32(p)
			if len(fields) == n+2 {
				b, err := strconv.ParseFloat(fields[n+1], 32)
				if err != nil {
					return nil, errf("bad log10 backoff %q", fields[n+1])
				}
				e.Backoff = float32(b)
			}
			if n == 1 {
				w := fields[1]
				if _, dup := m.ids[w]; dup {
					return nil, errf("unigram %q repeated", w)
				}
				if len(m.words) >= counts[0] {
					return nil, errf("more 1-grams than the header's %d", counts[0])
				}
				m.ids[w] = uint32(len(m.words))
				m.words = append(m.words, w)
				m.uni = append(m.uni, e)
				continue
			}
			var key uint64
			for _, w := range fields[1 : n+1] {
				id, known := m.ids[w]
				if !known {
					return nil, errf("word %q of a %d-gram is not among the 1-grams", w, n)
				}
				key = key<<wordBits | uint64(id)
			}
			if len(keys) >= counts[n-1] {
				return nil, errf("more %d-grams than the header's %d", n, counts[n-1])
			}
			keys = append(keys, key)
			vals = append(vals, e)
		}
		got := len(m.uni)
		if n > 1 {
			got = len(keys)
			if err := sortUnique(keys, vals); err != nil {
				return nil, errf("%d-grams: %v", n, err)
			}
			m.grams[n] = newTable(keys, vals)
		}
		if got != counts[n-1] {
			return nil, errf("%d %d-grams, but the header says %d", got, n, counts[n-1])
		}
	}
	if s != `\end\` {
		return nil, errf("got %q, want \\end\\", truncate(s))
	}
	var missing []string
	for _, w := range []string{BOSWord, EOSWord} {
		if _, ok := m.ids[w]; !ok {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: no 1-gram for %s", name, strings.Join(missing, " or "))
	}
	if _, ok := m.ids[UnkWord]; !ok {
		if len(m.words) >= MaxVocab {
			return nil, fmt.Errorf("%s: no room for <unk>: %d words", name, len(m.words))
		}
		m.ids[UnkWord] = uint32(len(m.words))
		m.words = append(m.words, UnkWord)
		m.uni = append(m.uni, Entry{LogProb: -100})
	}
	m.unk, m.bos, m.eos = m.ids[UnkWord], m.ids[BOSWord], m.ids[EOSWord]
	return m, nil
}

// appendFields appends the white-space separated fields of s to dst.
func appendFields(dst []string, s string) []string {
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return dst
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return append(dst, s)
		}
		dst = append(dst, s[:i])
		s = s[i:]
	}
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// sortUnique sorts keys ascending, with vals alongside, and rejects repeated keys.
func sortUnique(keys []uint64, vals []Entry) error {
	if !sort.SliceIsSorted(keys, func(i, j int) bool { return keys[i] < keys[j] }) {
		sort.Sort(byKey{keys, vals})
	}
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			return fmt.Errorf("an n-gram is repeated")
		}
	}
	return nil
}

type byKey struct {
	keys []uint64
	vals []Entry
}

func (b byKey) Len() int           { return len(b.keys) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.vals[i], b.vals[j] = b.vals[j], b.vals[i]
}
