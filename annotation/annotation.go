// Package annotation is qsc's stored parse of a document: its sentence boundaries, the
// byte offsets of its tokens in the text, their Penn Treebank tags, heads and dependency
// labels, and the versions of the models that produced them. A document is parsed once
// (qsc.Engine.Annotate) and compressed many times from its annotation, with no tagging or
// parsing (qsc.Engine.SnippetsAnnotated, qsc.Engine.CompressAnnotated).
//
// The text itself is not copied: an annotation is read together with the text it was
// made from, and records the text's length and CRC-32C so that it is never applied to
// another text.
//
// # Binary format (version 1)
//
//	magic       "QSCA" (4 bytes)
//	version     1 byte (Version)
//	flags       1 byte: bit 0 set when the tag and label tables are included; other bits 0
//	tagger id   8 bytes: the first 8 bytes of the SHA-256 of the tagger model file
//	parser id   8 bytes: the same for the parser model file
//	text size   uvarint: the length of the text in bytes
//	text crc    4 bytes, little endian: CRC-32C (Castagnoli) of the text
//	[tables]    when flag bit 0: uvarint count, then count × (uvarint length, bytes) for the
//	            tags, then the same for the labels
//	sentences   uvarint count, then for each: uvarint token count, then each token:
//	              offsets  uvarint (len-1)<<2 | g: g = gap (start minus the end of the
//	                       previous token of the document) when below 3, else 3 and a
//	                       uvarint gap-3 follows
//	              tag      1 byte: index in the tag table
//	              head     uvarint: 0 for the root, else zigzag(head - id) (ids 1-based
//	                       within the sentence)
//	              label    1 byte: index in the label table
//	checksum    4 bytes, little endian: CRC-32C of every byte before it
//
// A token of up to 32 bytes preceded by at most 2 bytes of space, with its head within
// 63 positions, takes 4 bytes. Tables hold at most 255 names each.
//
// # Size and speed
//
// An annotation grows with its tokens, most of which take the 4 bytes above, over a
// header and checksum of 30 bytes and the uvarints of the text size and counts. Decode
// reads it in one pass, checksum first, in time linear in its size, with no allocation
// when the Annotation is reused. docs/scale.md has the size and speed measured on news
// text; go test ./annotation -bench Decode reports them.
//
// The tags and labels are small integers. Their names are those of the models that made
// the annotation (tagger.Model.Tags, parser.Model.Labels), so an annotation identified by
// its model ids needs no tables; an annotation may carry them (Annotation.Tables) to be
// read on its own, at about 570 bytes for both with the default models' 49 tags and their labels.
//
// # Model ids
//
// The ids are prefixes of SHA-256 sums: they tell model files apart (two different files
// get the same id with probability 2⁻⁶⁴), they are not a signature. `sha256sum` of a model
// file starts with the hexadecimal id (ModelID.String).
package annotation

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/qsc-nlp/qsc/syntax"
)

// Magic starts every binary annotation.
const Magic = "QSCA"

// Version is the format version this package writes and reads.
const Version = 1

// MaxTableSize is the largest number of tags or labels: ids are one byte.
const MaxTableSize = 255

// MaxTextBytes is the largest text an annotation can describe (offsets are int32).
const MaxTextBytes = math.MaxInt32

const (
	flagTables = 1 << iota
	knownFlags = flagTables
)

// headerSize is the fixed part before the text size: magic, version, flags, model ids.
const headerSize = len(Magic) + 2 + 2*len(ModelID{})

// minTokenBytes is the fewest bytes a token takes (offsets, tag, head, label).
const minTokenBytes = 4

// Errors of Decode. Every decoding error wraps one of them.
var (
	// ErrForeign: the bytes are not a qsc annotation (bad magic header).
	ErrForeign = errors.New("not a qsc annotation (bad magic header)")
	// ErrVersion: an annotation of a format version this build does not read.
	ErrVersion = errors.New("unsupported annotation format version")
	// ErrTruncated: the annotation is shorter than its fixed header.
	ErrTruncated = errors.New("annotation is truncated")
	// ErrChecksum: the bytes do not match their checksum (a corrupt or truncated annotation).
	ErrChecksum = errors.New("annotation checksum mismatch (corrupt or truncated)")
	// ErrInvalid: a well-formed but inconsistent annotation (offsets, heads, ids, counts).
	ErrInvalid = errors.New("invalid annotation")
	// ErrText: the annotation was made from another text (length or CRC-32C differ).
	ErrText = errors.New("annotation does not belong to this text")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// TextCRC returns the CRC-32C of text, as an annotation records it. It does not copy text:
// readers check every annotation's text on the query path, where a copy would allocate the
// whole document once per check. It reads each byte of text once.
func TextCRC(text string) uint32 {
	// crc32.Update only reads its bytes, so the string's own bytes are safe to hand it.
	return crc32.Update(0, castagnoli, unsafe.Slice(unsafe.StringData(text), len(text)))
}

// ModelID identifies a model file: the first 8 bytes of its SHA-256.
type ModelID [8]byte

// NewModelID returns the id of a model file whose SHA-256 is sum.
func NewModelID(sum [32]byte) ModelID { return ModelID(sum[:8]) }

// String returns the id in hexadecimal: the first 16 digits of the file's SHA-256.
func (id ModelID) String() string { return hex.EncodeToString(id[:]) }

// Models identifies the tagger and the parser that made an annotation. qsc's Engine gives
// its tagger the id of the tagger file and of its rules of splitting text into tokens and
// sentences together (qsc.Engine.AnnotationModels).
type Models struct {
	Tagger, Parser ModelID
}

// String describes the models for error messages.
func (m Models) String() string {
	return "tagger " + m.Tagger.String() + ", parser " + m.Parser.String()
}

// Tables are the names of the tags and labels that an annotation's ids index.
type Tables struct {
	Tags   []string
	Labels []string

	tagID, labelID map[string]uint8
}

// NewTables checks tags and labels (at most MaxTableSize distinct, non-empty names each)
// and returns their Tables.
func NewTables(tags, labels []string) (*Tables, error) {
	t := &Tables{Tags: slices.Clone(tags), Labels: slices.Clone(labels)}
	var err error
	if t.tagID, err = index("tag", t.Tags); err != nil {
		return nil, err
	}
	if t.labelID, err = index("label", t.Labels); err != nil {
		return nil, err
	}
	return t, nil
}

func index(what string, names []string) (map[string]uint8, error) {
	if len(names) > MaxTableSize {
		return nil, fmt.Errorf("annotation: %d %ss, more than the maximum of %d", len(names), what, MaxTableSize)
	}
	m := make(map[string]uint8, len(names))
	for i, n := range names {
		if n == "" {
			return nil, fmt.Errorf("annotation: %s %d is empty", what, i)
		}
		if !utf8.ValidString(n) { // the JSON form could not tell it from another
			return nil, fmt.Errorf("annotation: %s %d (%q) is not valid UTF-8", what, i, n)
		}
		if _, dup := m[n]; dup {
			return nil, fmt.Errorf("annotation: %s %q is in the table twice", what, n)
		}
		m[n] = uint8(i)
	}
	return m, nil
}

// Annotation is the parse of one text. Token i (0-based over the whole text) spans
// text[Start[i]:End[i]] and has tag Tag[i], head Head[i] (1-based within its sentence, 0
// for the root) and label Label[i]. Sentence j holds the tokens [Ends[j-1], Ends[j]) (from
// 0 for j = 0).
//
// The zero value is an empty annotation; Decode fills one and reuses its memory.
type Annotation struct {
	Models  Models
	TextLen int    // length of the text in bytes
	TextCRC uint32 // CRC-32C of the text
	// Tables are the names of the ids, or nil: they are encoded when not nil.
	Tables *Tables

	Ends       []int32 // cumulative token counts: the end of each sentence
	Start, End []int32 // byte offsets of each token
	Tag        []uint8 // tag ids
	Head       []int32 // heads, 1-based within the sentence, 0 = root
	Label      []uint8 // label ids

	scratch []uint8 // cycle check
}

// Reset empties a for a new text, keeping its memory.
func (a *Annotation) Reset(models Models, text string) {
	*a = Annotation{Models: models, TextLen: len(text), TextCRC: TextCRC(text),
		Ends: a.Ends[:0], Start: a.Start[:0], End: a.End[:0], Tag: a.Tag[:0], Head: a.Head[:0],
		Label: a.Label[:0], scratch: a.scratch}
}

// AddSentence appends a tagged and parsed sentence whose token offsets point into the
// text of a; t gives the ids of its tags and labels.
func (a *Annotation) AddSentence(toks []syntax.Token, t *Tables) error {
	if len(toks) == 0 {
		return fmt.Errorf("%w: empty sentence", ErrInvalid)
	}
	n0 := len(a.Start)
	for i := range toks {
		tk := &toks[i]
		tag, ok := t.tagID[tk.XPOS]
		if !ok {
			a.truncate(n0)
			return fmt.Errorf("%w: token %d %q has tag %q, not in the table", ErrInvalid, i+1, tk.Form, tk.XPOS)
		}
		lab, ok := t.labelID[tk.Rel]
		if !ok {
			a.truncate(n0)
			return fmt.Errorf("%w: token %d %q has label %q, not in the table", ErrInvalid, i+1, tk.Form, tk.Rel)
		}
		if tk.Start < 0 || tk.End > a.TextLen || tk.Start >= tk.End || tk.Head < 0 || tk.Head > len(toks) {
			a.truncate(n0)
			return fmt.Errorf("%w: token %d %q has offsets [%d, %d) and head %d (text of %d bytes, sentence of %d tokens)",
				ErrInvalid, i+1, tk.Form, tk.Start, tk.End, tk.Head, a.TextLen, len(toks))
		}
		a.Start = append(a.Start, int32(tk.Start))
		a.End = append(a.End, int32(tk.End))
		a.Tag = append(a.Tag, tag)
		a.Head = append(a.Head, int32(tk.Head))
		a.Label = append(a.Label, lab)
	}
	a.Ends = append(a.Ends, int32(len(a.Start)))
	if err := a.checkSentence(len(a.Ends)-1, n0); err != nil {
		a.Ends = a.Ends[:len(a.Ends)-1]
		a.truncate(n0)
		return err
	}
	return nil
}

func (a *Annotation) truncate(n int) {
	a.Start, a.End, a.Tag, a.Head, a.Label = a.Start[:n], a.End[:n], a.Tag[:n], a.Head[:n], a.Label[:n]
}

// Len returns the number of sentences.
func (a *Annotation) Len() int { return len(a.Ends) }

// Tokens returns the number of tokens.
func (a *Annotation) Tokens() int { return len(a.Start) }

// Sentence returns the token range [lo, hi) of sentence j.
func (a *Annotation) Sentence(j int) (lo, hi int) {
	if j > 0 {
		lo = int(a.Ends[j-1])
	}
	return lo, int(a.Ends[j])
}

// CheckText reports whether a was made from text: an error wrapping ErrText when the
// length or the CRC-32C of text differ from those recorded.
func (a *Annotation) CheckText(text string) error {
	if len(text) != a.TextLen {
		return fmt.Errorf("%w: the text has %d bytes, the annotation was made from %d", ErrText, len(text), a.TextLen)
	}
	if c := TextCRC(text); c != a.TextCRC {
		return fmt.Errorf("%w: the text's CRC-32C is %08x, the annotation's %08x", ErrText, c, a.TextCRC)
	}
	return nil
}

// AppendSentence appends to dst the tokens of sentence j as syntax tokens of text (which
// must be the annotation's text: see CheckText), with tag and label names from t: forms
// are substrings of text, so nothing is allocated beyond dst's growth. An id beyond t's
// tables is an error wrapping ErrInvalid.
func (a *Annotation) AppendSentence(dst []syntax.Token, j int, text string, t *Tables) ([]syntax.Token, error) {
	lo, hi := a.Sentence(j)
	dst = slices.Grow(dst, hi-lo)
	for i := lo; i < hi; i++ {
		tag, lab := int(a.Tag[i]), int(a.Label[i])
		if tag >= len(t.Tags) || lab >= len(t.Labels) {
			return dst, fmt.Errorf("%w: token %d of sentence %d has tag id %d and label id %d, beyond the tables (%d tags, %d labels)",
				ErrInvalid, i-lo+1, j+1, tag, lab, len(t.Tags), len(t.Labels))
		}
		s, e := int(a.Start[i]), int(a.End[i])
		if e > len(text) {
			return dst, fmt.Errorf("%w: token %d of sentence %d ends at byte %d, beyond the text (%d bytes)", ErrText, i-lo+1, j+1, e, len(text))
		}
		// Field by field into dst's room: a composite literal would be built apart and
		// then copied, once per token shown.
		dst = dst[:len(dst)+1]
		tok := &dst[len(dst)-1]
		tok.Form, tok.Lemma, tok.UPOS, tok.XPOS, tok.Rel = text[s:e], "", "", t.Tags[tag], t.Labels[lab]
		tok.Head, tok.Start, tok.End = int(a.Head[i]), s, e
	}
	return dst, nil
}

// validate checks what the binary format cannot express wrongly by construction: array
// lengths, offsets ascending within the text, heads forming a tree in every sentence,
// ids within the tables when a has them.
func (a *Annotation) validate() error {
	n := len(a.Start)
	if len(a.End) != n || len(a.Tag) != n || len(a.Head) != n || len(a.Label) != n {
		return fmt.Errorf("%w: %d starts, %d ends, %d tags, %d heads, %d labels", ErrInvalid, n, len(a.End), len(a.Tag), len(a.Head), len(a.Label))
	}
	if a.TextLen < 0 || a.TextLen > MaxTextBytes {
		return fmt.Errorf("%w: text of %d bytes", ErrInvalid, a.TextLen)
	}
	if n > 0 && (len(a.Ends) == 0 || int(a.Ends[len(a.Ends)-1]) != n) {
		return fmt.Errorf("%w: the sentences do not cover the %d tokens", ErrInvalid, n)
	}
	if err := a.checkIDs(); err != nil {
		return err
	}
	prev := int32(0)
	for i := range n {
		if a.Start[i] < prev || a.End[i] <= a.Start[i] || int(a.End[i]) > a.TextLen {
			return fmt.Errorf("%w: token %d has offsets [%d, %d) after a token ending at %d (text of %d bytes)", ErrInvalid, i+1, a.Start[i], a.End[i], prev, a.TextLen)
		}
		prev = a.End[i]
	}
	lo := int32(0)
	for j, hi := range a.Ends {
		if hi <= lo {
			return fmt.Errorf("%w: sentence %d is empty or out of order", ErrInvalid, j+1)
		}
		if err := a.checkSentence(j, int(lo)); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// checkIDs checks that the tag and label ids are within a's tables, when it has them.
func (a *Annotation) checkIDs() error {
	t := a.Tables
	if t == nil {
		return nil
	}
	if len(t.Tags) > MaxTableSize || len(t.Labels) > MaxTableSize {
		return fmt.Errorf("%w: tables of %d tags and %d labels (at most %d each)", ErrInvalid, len(t.Tags), len(t.Labels), MaxTableSize)
	}
	nt, nl := uint8(len(t.Tags)), uint8(len(t.Labels))
	for i := range a.Tag {
		if a.Tag[i] >= nt || a.Label[i] >= nl {
			return fmt.Errorf("%w: token %d has tag id %d and label id %d, beyond the tables (%d tags, %d labels)", ErrInvalid, i+1, a.Tag[i], a.Label[i], nt, nl)
		}
	}
	return nil
}

// checkSentence checks that the heads of sentence j (tokens from lo) are in range and
// form a tree: no token is its own ancestor.
func (a *Annotation) checkSentence(j, lo int) error {
	hi := int(a.Ends[j])
	n := hi - lo
	heads := a.Head[lo:hi]
	for i, h := range heads {
		if h < 0 || int(h) > n || int(h) == i+1 {
			return fmt.Errorf("%w: sentence %d: token %d has head %d (sentence of %d tokens)", ErrInvalid, j+1, i+1, h, n)
		}
	}
	// state: 0 unvisited, 1 on the current path, 2 known to reach the root.
	state := slices.Grow(a.scratch[:0], n+1)[:n+1]
	clear(state)
	state[0] = 2
	for v := 1; v <= n; v++ {
		u := v
		for state[u] == 0 {
			state[u] = 1
			u = int(heads[u-1])
		}
		if state[u] == 1 {
			return fmt.Errorf("%w: sentence %d: the heads of token %d form a cycle", ErrInvalid, j+1, u)
		}
		for u = v; state[u] == 1; u = int(heads[u-1]) {
			state[u] = 2
		}
	}
	a.scratch = state
	return nil
}

// MarshalBinary encodes a (see AppendBinary).
func (a *Annotation) MarshalBinary() ([]byte, error) { return a.AppendBinary(nil) }

// AppendBinary appends the binary form of a to dst (the format is in the package
// documentation). The tables are included when a.Tables is not nil. An inconsistent
// annotation is an error wrapping ErrInvalid.
func (a *Annotation) AppendBinary(dst []byte) ([]byte, error) {
	if err := a.validate(); err != nil {
		return dst, err
	}
	b0 := len(dst)
	dst = slices.Grow(dst, headerSize+16+len(a.Start)*minTokenBytes+2*len(a.Ends))
	dst = append(dst, Magic...)
	var flags byte
	if a.Tables != nil {
		flags |= flagTables
	}
	dst = append(dst, Version, flags)
	dst = append(dst, a.Models.Tagger[:]...)
	dst = append(dst, a.Models.Parser[:]...)
	dst = binary.AppendUvarint(dst, uint64(a.TextLen))
	dst = binary.LittleEndian.AppendUint32(dst, a.TextCRC)
	if a.Tables != nil {
		for _, names := range [][]string{a.Tables.Tags, a.Tables.Labels} {
			dst = binary.AppendUvarint(dst, uint64(len(names)))
			for _, s := range names {
				dst = binary.AppendUvarint(dst, uint64(len(s)))
				dst = append(dst, s...)
			}
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(a.Ends)))
	prev, lo := int32(0), 0
	for _, e := range a.Ends {
		hi := int(e)
		dst = binary.AppendUvarint(dst, uint64(hi-lo))
		for i := lo; i < hi; i++ {
			gap, l := uint64(a.Start[i]-prev), uint64(a.End[i]-a.Start[i]-1)
			if gap < 3 {
				dst = binary.AppendUvarint(dst, l<<2|gap)
			} else {
				dst = binary.AppendUvarint(dst, l<<2|3)
				dst = binary.AppendUvarint(dst, gap-3)
			}
			prev = a.End[i]
			dst = append(dst, a.Tag[i])
			var h uint64
			if a.Head[i] != 0 {
				d := int64(a.Head[i]) - int64(i-lo+1)
				h = uint64(d<<1) ^ uint64(d>>63)
			}
			dst = binary.AppendUvarint(dst, h)
			dst = append(dst, a.Label[i])
		}
		lo = hi
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.Update(0, castagnoli, dst[b0:])), nil
}

// UnmarshalBinary decodes data into a (see Decode).
func (a *Annotation) UnmarshalBinary(data []byte) error { return Decode(data, a) }

// Decode decodes a binary annotation into dst, reusing dst's memory: decoding into the
// same Annotation again allocates nothing unless the annotation has more tokens or
// sentences than any before it, or carries tables (their names are new strings). A
// foreign, truncated, corrupt or inconsistent annotation is an error wrapping ErrForeign,
// ErrVersion, ErrTruncated, ErrChecksum or ErrInvalid; dst is then left in an unspecified
// state. It never panics.
func Decode(data []byte, dst *Annotation) error {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return ErrForeign
	}
	if len(data) < headerSize {
		return fmt.Errorf("%w: %d bytes, the header alone takes %d", ErrTruncated, len(data), headerSize)
	}
	if v := data[len(Magic)]; v != Version {
		return fmt.Errorf("%w %d (this build reads version %d)", ErrVersion, v, Version)
	}
	if len(data) < headerSize+1+4+4 {
		return fmt.Errorf("%w: %d bytes", ErrTruncated, len(data))
	}
	body := data[:len(data)-4]
	if crc32.Update(0, castagnoli, body) != binary.LittleEndian.Uint32(data[len(body):]) {
		return ErrChecksum
	}
	flags := data[len(Magic)+1]
	if flags&^knownFlags != 0 {
		return fmt.Errorf("%w: unknown flags %#02x", ErrInvalid, flags)
	}
	r := reader{b: body, off: len(Magic) + 2}
	dst.Reset(Models{}, "")
	copy(dst.Models.Tagger[:], r.b[r.off:])
	copy(dst.Models.Parser[:], r.b[r.off+len(ModelID{}):])
	r.off += 2 * len(ModelID{})
	textLen := r.uvarint()
	if textLen > MaxTextBytes {
		return fmt.Errorf("%w: text of %d bytes (at most %d)", ErrInvalid, textLen, MaxTextBytes)
	}
	dst.TextLen = int(textLen)
	if r.off+4 > len(r.b) {
		return r.short("text checksum")
	}
	dst.TextCRC = binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	if flags&flagTables != 0 {
		t := &Tables{}
		for _, names := range []*[]string{&t.Tags, &t.Labels} {
			k := r.uvarint()
			if k > MaxTableSize {
				return fmt.Errorf("%w: a table of %d names (at most %d)", ErrInvalid, k, MaxTableSize)
			}
			*names = make([]string, k)
			for i := range *names {
				l := r.uvarint()
				if l > uint64(len(r.b)-r.off) {
					return r.short("table name")
				}
				(*names)[i] = string(r.b[r.off : r.off+int(l)])
				r.off += int(l)
			}
		}
		if r.err != nil {
			return r.err
		}
		// The same checks as NewTables (and the JSON form): no empty or repeated name.
		vt, err := NewTables(t.Tags, t.Labels)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		dst.Tables = vt
	}
	ns := r.uvarint()
	if r.err != nil {
		return r.err
	}
	if ns > uint64(len(r.b)-r.off)/(1+minTokenBytes) { // a sentence takes at least 5 bytes
		if r.err != nil {
			return r.err
		}
		return fmt.Errorf("%w: %d sentences declared in %d bytes", ErrInvalid, ns, len(r.b)-r.off)
	}
	dst.Ends = slices.Grow(dst.Ends, int(ns))
	prev := uint64(0)
	for j := range int(ns) {
		nt := r.uvarint()
		if nt == 0 || nt > uint64(len(r.b)-r.off)/minTokenBytes {
			if r.err != nil {
				return r.err
			}
			return fmt.Errorf("%w: sentence %d declares %d tokens in %d bytes", ErrInvalid, j+1, nt, len(r.b)-r.off)
		}
		k, lo := int(nt), len(dst.Start)
		dst.Start, dst.End = slices.Grow(dst.Start, k)[:lo+k], slices.Grow(dst.End, k)[:lo+k]
		dst.Tag, dst.Head, dst.Label = slices.Grow(dst.Tag, k)[:lo+k], slices.Grow(dst.Head, k)[:lo+k], slices.Grow(dst.Label, k)[:lo+k]
		st, en, tg, hd, lb := dst.Start[lo:], dst.End[lo:], dst.Tag[lo:], dst.Head[lo:], dst.Label[lo:]
		b, off := r.b, r.off
		for i := range k {
			var c, gap, h uint64
			var tag, lab byte
			if off+4 <= len(b) && b[off] < 0x80 && b[off]&3 != 3 && b[off+2] < 0x80 { // 4 bytes
				c, tag, h, lab = uint64(b[off]), b[off+1], uint64(b[off+2]), b[off+3]
				gap = c & 3
				off += 4
			} else {
				r.off = off
				c = r.uvarint()
				if gap = c & 3; gap == 3 {
					gap += r.uvarint()
				}
				tag = r.byte()
				h = r.uvarint()
				lab = r.byte()
				if r.err != nil {
					return r.err
				}
				off = r.off
			}
			start, end := prev+gap, prev+gap+c>>2+1
			if gap > textLen || c>>2 >= textLen || end > textLen {
				return fmt.Errorf("%w: sentence %d, token %d ends beyond the text (%d bytes)", ErrInvalid, j+1, i+1, textLen)
			}
			prev = end
			head := int64(0)
			if h != 0 {
				head = int64(i+1) + (int64(h>>1) ^ -int64(h&1))
			}
			if head < 0 || head > int64(k) || (h != 0 && head == 0) { // the root is always code 0
				return fmt.Errorf("%w: sentence %d, token %d has head %d (sentence of %d tokens)", ErrInvalid, j+1, i+1, head, k)
			}
			st[i], en[i], tg[i], hd[i], lb[i] = int32(start), int32(end), tag, int32(head), lab
		}
		r.off = off
		dst.Ends = append(dst.Ends, int32(lo+k))
		if err := dst.checkSentence(j, lo); err != nil {
			return err
		}
	}
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.b) {
		return fmt.Errorf("%w: %d unexpected bytes after the last sentence", ErrInvalid, len(r.b)-r.off)
	}
	return dst.checkIDs()
}

// reader reads uvarints from b, recording the first error.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	if r.off < len(r.b) && r.b[r.off] < 0x80 { // the common one-byte case
		v := uint64(r.b[r.off])
		r.off++
		return v
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 || r.b[r.off+n-1] == 0 { // cut, overflowing, or not minimal (one encoding per value)
		r.err = fmt.Errorf("%w: bad or cut varint at byte %d", ErrInvalid, r.off)
		r.off = len(r.b)
		return 0
	}
	r.off += n
	return v
}

// byte reads one byte.
func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.err = fmt.Errorf("%w: cut at byte %d", ErrInvalid, r.off)
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) short(what string) error {
	if r.err != nil {
		return r.err
	}
	return fmt.Errorf("%w: the %s at byte %d is missing", ErrInvalid, what, r.off)
}
