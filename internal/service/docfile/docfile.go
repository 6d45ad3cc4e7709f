// Package docfile reads the documents that `qsc serve --docs` indexes: JSON lines of
// {"id", "title", "text", "url"} objects (ScanJSONL, ScanFile) or a folder of .txt, .md
// and .html files (ScanDir; Markdown read as the text its rendering shows, package
// markdown, and HTML as the text a browser shows, package htmltext), one Record per
// document, with the reason when it cannot be read, and checks them (Check).
// It has no index: package docindex ingests what it reads.
package docfile

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	xunicode "golang.org/x/text/encoding/unicode"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/htmltext"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/core/textenc"
	"github.com/qsc-nlp/qsc/markdown"
	"github.com/qsc-nlp/qsc/tokenize"
)

// Doc is one document.
type Doc struct {
	// ID names the document (for a folder of files, its path relative to the folder).
	ID string `json:"id"`
	// Title is shown as the result's heading.
	Title string `json:"title"`
	// Text is what is searched and snippeted.
	Text string `json:"text"`
	// URL, optional, is where the document comes from (http or https).
	URL string `json:"url,omitempty"`
}

// Limits of a document.
const (
	// MaxIDBytes bounds a document id.
	MaxIDBytes = 1024
	// MaxTitleBytes bounds a title.
	MaxTitleBytes = 1000
	// maxLineBytes bounds a JSONL line: a text of qsc.MaxDocumentBytes with JSON escapes.
	maxLineBytes = 2*qsc.MaxDocumentBytes + 64<<10
	// titleRunes is the length of a title made from a text's first line, before "…".
	titleRunes = 100
	// MaxFileBytes bounds a document file (ScanDir, Scan; and qsc snippets' files): one
	// whose text is over qsc.MaxDocumentBytes is read as documents of its parts.
	MaxFileBytes = 256 << 20
)

// RecordError is a rejected record: where it is (file:line for JSONL, the file's path in a
// folder) and why.
type RecordError struct {
	Where string
	Err   error
}

func (e *RecordError) Error() string { return e.Where + ": " + e.Err.Error() }

func (e *RecordError) Unwrap() error { return e.Err }

// Record is one document read from a source, or why it could not be read.
type Record struct {
	Doc   Doc
	Where string // file:line, or the file's path
	Err   error  // the record is rejected
	// Ignored are the names of the record's fields that a document does not have, which
	// a JSON-lines file may hold (an export's author or date) and which were passed over.
	Ignored []string
	// Link is the address that a document file names as its own: the url or permalink
	// of a Markdown file's front matter (markdown.URL), else its slug (markdown.Slug, as
	// slugRef makes it a reference from the file's own address), or an HTML page's
	// canonical link or og:url (htmltext.URL); absolute, a path from its site's root, or
	// relative to the file's own address; "" when it names none. docindex.Ingest makes
	// it the document's URL.
	Link string
	// Note warns of how the file was read, for its author to see: decoded from another
	// encoding than UTF-8 (Text), or with front matter that does not parse
	// (markdown.CheckFrontMatter, with its line); "" for the others.
	Note string
}

// Check validates a document, and sets its title from its text when it has none: an id
// of at most MaxIDBytes with a visible character and no control characters; a text of valid UTF-8,
// not blank, without a NUL character, of at most qsc.MaxDocumentBytes; a title of at most MaxTitleBytes; a URL that
// is empty or absolute http or https.
func Check(d *Doc) error {
	switch {
	case d.ID == "":
		return errors.New(`no "id"`)
	case len(d.ID) > MaxIDBytes:
		return fmt.Errorf("the id is %d bytes, more than %d", len(d.ID), MaxIDBytes)
	case !utf8.ValidString(d.ID) || strings.IndexFunc(d.ID, unicode.IsControl) >= 0:
		return errors.New("the id is not valid UTF-8 or has control characters")
	case strings.IndexFunc(d.ID, visible) < 0:
		return errors.New("the id is blank: white space or invisible characters only")
	case strings.TrimSpace(d.Text) == "":
		return errors.New(`no "text" (or only white space)`)
	case !utf8.ValidString(d.Text):
		return errors.New("the text is not valid UTF-8")
	case strings.IndexByte(d.Text, 0) >= 0:
		return fmt.Errorf("the text holds a NUL character (at byte %d): binary data, not text", strings.IndexByte(d.Text, 0))
	case len(d.Text) > qsc.MaxDocumentBytes:
		return fmt.Errorf("the text is %d bytes, more than the maximum of %d", len(d.Text), qsc.MaxDocumentBytes)
	case len(d.Title) > MaxTitleBytes:
		return fmt.Errorf("the title is %d bytes, more than %d", len(d.Title), MaxTitleBytes)
	case !utf8.ValidString(d.Title):
		return errors.New("the title is not valid UTF-8")
	}
	if d.URL != "" {
		u, err := url.Parse(d.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("url %q is not an absolute http or https URL", d.URL)
		}
	}
	if strings.TrimSpace(d.Title) == "" {
		d.Title = TitleOf(d.Text, d.ID)
	}
	return nil
}

// visible reports whether r is shown: not white space, nor an invisible format character
// (a zero-width space, a byte order mark).
func visible(r rune) bool { return !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) }

// TitleOf returns a title for a text: its first non-blank line without Markdown heading
// marks, cut at a word boundary after about 100 characters with "…"; or fallback when
// the text has no such line.
func TitleOf(text, fallback string) string {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		if line == "" {
			continue
		}
		return Shorten(line, titleRunes)
	}
	return fallback
}

// Shorten returns s with its white space runs made single spaces, cut at the last space
// before n runes with "…" when it is longer.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut, runes := 0, 0
	for i := range s {
		if runes == n {
			cut = i
			break
		}
		runes++
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > 0 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;:-") + "…"
}

// ScanFile reads the JSON-lines file path (gzip-compressed when it ends in .gz) and calls
// fn with each record, in order, until fn returns an error. See ScanJSONL.
func ScanFile(path string, fn func(Record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r = zr
	}
	return ScanJSONL(r, path, fn)
}

// ScanJSONL reads JSON lines, one document object a line ({"id", "title", "text", "url"}:
// wrong types and trailing data are errors; other fields are passed over and named in
// Record.Ignored), and calls fn with each record, in order: a malformed line is a record
// with Err set, its Where name:line. Blank lines are skipped. A line over 2 MiB + 64 KiB
// is a bad record too. The error is fn's, or one reading r.
func ScanJSONL(r io.Reader, name string, fn func(Record) error) error {
	return scanLines(r, func(line int) string { return fmt.Sprintf("%s:%d", name, line) }, fn)
}

// ScanLines reads JSON lines as ScanJSONL does, each record's Where being where(its line
// number, from 1): the document API's bodies, read as --docs reads a file.
func ScanLines(r io.Reader, where func(line int) string, fn func(Record) error) error {
	return scanLines(r, where, fn)
}

// scanLines is ScanLines.
func scanLines(r io.Reader, where func(line int) string, fn func(Record) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for n := 1; ; n++ {
		line = line[:0]
		tooLong := false
		var err error
		for {
			var part []byte
			part, err = br.ReadSlice('\n')
			if len(line)+len(part) > maxLineBytes {
				tooLong = true
			} else {
				line = append(line, part...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: %w", where(n), err)
		}
		rec := Record{Where: where(n)}
		switch trimmed := bytes.TrimSpace(line); {
		case tooLong:
			rec.Err = fmt.Errorf("the line is longer than %d bytes", maxLineBytes)
		case len(trimmed) == 0:
			if err == io.EOF {
				return nil
			}
			continue
		case !utf8.Valid(trimmed):
			rec.Err = errors.New("the line is not valid UTF-8")
		default:
			rec.Ignored, rec.Err = DecodeDocLenient(trimmed, &rec.Doc)
		}
		if ferr := fn(rec); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

// DecodeDoc decodes one JSON document object strictly: unknown fields, wrong types and
// trailing data (on its line) are errors. It does not Check the document.
func DecodeDoc(b []byte, d *Doc) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(d); err != nil {
		return errors.New("invalid record: " + jsonx.Describe(err))
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// decodeLenient decodes one JSON document object as DecodeDoc does, but passes over the
// fields a document does not have, and returns their names, sorted, unless the record
// then has no text (its text under another name: DecodeDoc's error names the field). A
// record without such fields is decoded once.
func DecodeDocLenient(b []byte, d *Doc) (ignored []string, err error) {
	strict := DecodeDoc(b, d)
	if strict == nil || !strings.Contains(strict.Error(), "unknown field") {
		return nil, strict
	}
	*d = Doc{}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(d); err != nil {
		return nil, errors.New("invalid record: " + jsonx.Describe(err))
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, errors.New("invalid record: " + jsonx.Describe(err))
	}
	for name := range fields {
		switch strings.ToLower(name) { // encoding/json matches the fields without case
		case "id", "title", "text", "url":
		default:
			ignored = append(ignored, name)
		}
	}
	if strings.TrimSpace(d.Text) == "" {
		return nil, strict // the text under another name: say which field it needs
	}
	slices.Sort(ignored)
	return ignored, nil
}

// mailHeaders are the header lines mailDoc reads, lowercased.
var mailHeaders = map[string]bool{"from": true, "to": true, "cc": true, "bcc": true, "date": true,
	"sent": true, "subject": true, "reply-to": true}

// mailDoc reads text as an e-mail when its first paragraph is two or more header lines
// ("Name: value", of mailHeaders), From or Subject among them: the title is the
// subject's value, and the body is the other header lines, each a paragraph, then the
// rest of the text. ok is false for any other text.
func mailDoc(text string) (title, body string, ok bool) {
	rest := strings.TrimLeft(text, " \t\r\n")
	head, after, _ := strings.Cut(strings.ReplaceAll(rest, "\r\n", "\n"), "\n\n")
	var b strings.Builder
	n, named := 0, false
	for line := range strings.Lines(head) {
		line = strings.TrimSpace(line)
		name, value, found := strings.Cut(line, ":")
		key := strings.ToLower(name)
		if !found || !mailHeaders[key] {
			return "", "", false
		}
		n++
		named = named || key == "from" || key == "subject"
		if key == "subject" && title == "" {
			title = strings.TrimSpace(value)
			continue
		}
		b.WriteString(line)
		b.WriteString("\n\n")
	}
	if n < 2 || !named {
		return "", "", false
	}
	b.WriteString(strings.TrimLeft(after, " \t\r\n"))
	return title, b.String(), true
}

// IsDocFile reports whether a folder's file is a document: its name ends in .txt, .md,
// .markdown, .mdx, .html or .htm (any letter case: plain text, Markdown as
// markdown.IsFile names it, HTML as htmltext.IsFile does) and does not begin with ".".
func IsDocFile(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	return strings.EqualFold(filepath.Ext(name), ".txt") || markdown.IsFile(name) || htmltext.IsFile(name)
}

// TextDoc returns the title and the text of a plain-text document: when its first
// paragraph is one line of at most titleRunes characters that does not end a sentence
// (tokenize.EndsSentence; an abbreviation's period, as in "SYSTEMS, INC.", does not count)
// and another paragraph follows, that line is the title and the rest
// the text, so that a snippet does not repeat the title a page shows above it;
// otherwise the title is "" and the text is text as it is. An e-mail saved as text (a
// first paragraph of two or more header lines, From: or Subject: among them) is titled
// by its subject, and each other header line is a paragraph of its own, so that no
// snippet runs from "From:" into "Date:" (mailDoc).
func TextDoc(text string) (title, body string) {
	if title, body, ok := mailDoc(text); ok {
		return title, body
	}
	rest := strings.TrimLeft(text, " \t\r\n")
	line, after, ok := strings.Cut(rest, "\n")
	line = strings.TrimSpace(line)
	if !ok || line == "" || utf8.RuneCountInString(line) > titleRunes || tokenize.EndsSentence(line) && !tokenize.EndsWithAbbreviation(line) {
		return "", text
	}
	if next, _, _ := strings.Cut(after, "\n"); strings.TrimSpace(next) != "" {
		return "", text // the first paragraph goes on: no title line
	}
	if strings.TrimSpace(after) == "" {
		return "", text // nothing but the line
	}
	return line, strings.TrimLeft(after, " \t\r\n")
}

// WalkDocFiles calls fn with the path of every file under dir that IsDocFile, hidden
// folders skipped, in lexical order of path, and with the error of a path it cannot read
// (fn(path, err)), until fn returns an error, which it returns. dir itself unreadable is
// its error. It is the one walk of a folder of documents: ScanDir, CountDocFiles and qsc
// snippets read the same files.
func WalkDocFiles(dir string, fn func(path string, d fs.DirEntry, err error) error) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && path == dir:
			return err
		case err != nil:
			return fn(path, d, err)
		case d.IsDir():
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		case !IsDocFile(d.Name()):
			return nil
		}
		return fn(path, d, nil)
	})
}

// OtherFiles counts the files under dir that WalkDocFiles leaves out for their name (not
// IsDocFile: a .pdf or .docx file beside the notes), hidden files and folders
// aside, and returns the paths of the first max of them, relative to dir: what qsc serve
// --docs reports as skipped. A folder it cannot read is left out; dir not a folder has
// none.
func OtherFiles(dir string, max int) (n int, first []string) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return 0, nil
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
		case !strings.HasPrefix(d.Name(), ".") && !IsDocFile(d.Name()):
			if n++; len(first) < max {
				rel, _ := filepath.Rel(dir, path)
				first = append(first, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return n, first
}

// ScanDir reads the documents of a folder: every file under dir that IsDocFile (hidden
// folders skipped), in lexical order of path (WalkDocFiles), and calls fn with each, until
// fn returns an error. The id is the path relative to dir with "/"; the title and text
// are readDocFile's. An unreadable file is a record with Err set.
func ScanDir(dir string, fn func(Record) error) error {
	return WalkDocFiles(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fn(Record{Where: path, Err: err})
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return fn(Record{Where: path, Err: err})
		}
		return readDocFile(path, filepath.ToSlash(rel), fn)
	})
}

// Scan reads the documents of path as --docs names them, calling fn with each record: a
// folder (ScanDir); one document file (IsDocFile: .txt, .md, .html…), with its name as
// id, read as ScanDir reads each; any other file JSON lines (ScanFile).
func Scan(path string, fn func(Record) error) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return ScanDir(path, fn)
	case IsDocFile(filepath.Base(path)):
		return readDocFile(path, filepath.Base(path), fn)
	}
	return ScanFile(path, fn)
}

// readDocFile calls fn with the record of the document file at path, with id: its text,
// less a first line that is a title (TextDoc); for Markdown (markdown.IsFile) the text
// its rendering shows, less a first heading, which is the title (markdown.Doc); for HTML
// (htmltext.IsFile) the text a browser shows of its content, titled by its title element
// or first h1 (htmltext.Doc); else the title is the text's first line (TitleOf) or the
// file's name. A text over
// qsc.MaxDocumentBytes is read as the documents of its parts (qsc.DocumentParts, cut at
// blank lines), with ids "id#1", "id#2", … and titles that say "(part k of n)". An
// unreadable file, one over MaxFileBytes, or one that is no text (CheckText: a PDF, binary
// data) is a record with Err set.
func readDocFile(path, id string, fn func(Record) error) error {
	rec := Record{Where: path, Doc: Doc{ID: id}}
	name := filepath.Base(path)
	if fi, err := os.Stat(path); err == nil && fi.Size() > MaxFileBytes {
		rec.Err = fmt.Errorf("the file is %d bytes, more than the maximum of %d", fi.Size(), MaxFileBytes)
		return fn(rec)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		rec.Err = err
		return fn(rec)
	}
	if b, rec.Note, err = Text(name, b); err != nil {
		rec.Err = err
		return fn(rec)
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff")) // a byte order mark is no part of the title
	switch {
	case markdown.IsFile(name):
		rec.Doc.Title, rec.Doc.Text = markdown.Doc(b)
		rec.Link = cmp.Or(markdown.URL(b), slugRef(id, markdown.Slug(b)))
	case htmltext.IsFile(name):
		rec.Doc.Title, rec.Doc.Text = htmltext.Doc(b)
		rec.Link = htmltext.URL(b)
	default:
		rec.Doc.Title, rec.Doc.Text = TextDoc(string(b))
	}
	rec.Doc.Title = TitleOf(cmp.Or(rec.Doc.Title, rec.Doc.Text), name)
	if len(rec.Doc.Text) <= qsc.MaxDocumentBytes {
		return fn(rec)
	}
	text, parts := rec.Doc.Text, qsc.DocumentParts(rec.Doc.Text)
	for k, p := range parts {
		part := rec
		part.Doc.ID = fmt.Sprintf("%s#%d", id, k+1)
		part.Doc.Title = fmt.Sprintf("%s (part %d of %d)", rec.Doc.Title, k+1, len(parts))
		part.Doc.Text = text[p.Start:p.End]
		if err := fn(part); err != nil {
			return err
		}
	}
	return nil
}

// slugRef returns the address of the folder document id whose front matter gives the
// slug slug (markdown.Slug), as a URL reference from the address of the document
// without it (docindex's base URL followed by its path, a Markdown file's extension
// dropped): a slug from the documents' root ("/refunds") goes up one folder for each of
// id's ("../refunds" for billing/x.md), and another ("refunds") stands in place of the
// file's name. "" for no slug, or one that holds a scheme or a query (no slug).
func slugRef(id, slug string) string {
	if slug == "" || strings.ContainsAny(slug, ":?#") {
		return ""
	}
	if rest, ok := strings.CutPrefix(slug, "/"); ok {
		return cmp.Or(strings.Repeat("../", strings.Count(id, "/"))+rest, ".")
	}
	return slug
}

// Text returns the bytes of the file named name (its path, or "-" for stdin) as qsc
// reads them, or CheckText's error: an HTML file in another encoding than UTF-8 decoded
// as a browser decodes it (htmltext.UTF8: its meta charset, else windows-1252; one that
// is not valid in the encoding it declares has its other bytes read as windows-1252);
// other text that is not valid UTF-8 and reads as Western European (textenc.Western: a
// transcript or note saved in Windows-1252) decoded as Windows-1252; any other file as
// it is. note says what was decoded so, and what is wrong with a Markdown file's front
// matter (markdown.CheckFrontMatter, with its line), for the user to see; "" when
// neither is.
func Text(name string, b []byte) (text []byte, note string, err error) {
	switch {
	case htmltext.IsFile(name):
		var enc string
		if b, enc = htmltext.UTF8(b); enc == htmltext.MixedEncoding {
			note = "the page is not valid in the encoding it declares: its other bytes were read as Windows-1252"
		}
	case isUTF16(b):
		if out, err := fromUTF16(b); err == nil {
			b, note = out, "the file is UTF-16 text: read as it"
		}
	case !utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 && !bytes.HasPrefix(b, []byte("%PDF-")) && textenc.Western(b):
		var n int
		b, n = textenc.Windows1252(b)
		note = fmt.Sprintf("the file is not valid UTF-8: read as Windows-1252 (%d bytes decoded)", n)
	}
	if markdown.IsFile(name) {
		if p, line := markdown.CheckFrontMatter(b); p != "" {
			note = strings.TrimPrefix(note+fmt.Sprintf("; line %d: %s", line, p), "; ")
		}
	}
	return b, note, CheckText(name, b)
}

// CheckText returns an error wrapping qsc.ErrBadRequest for a file named name (its path,
// or "-" for stdin) that is no text: a PDF, any file with a NUL byte, or an HTML document
// in a file whose name is not .html or .htm (htmltext.IsFile: those are read as HTML),
// which would otherwise be read as words and snippets, markup and all; and for text qsc
// cannot read as it is, UTF-16 or not valid UTF-8, with how to convert it.
// It reads the bytes once, and allocates only for the error.
func CheckText(name string, b []byte) error {
	if bytes.HasPrefix(b, []byte("%PDF-")) {
		return fmt.Errorf("%w: the file is a PDF; qsc reads plain text, Markdown and HTML (convert it first, for instance with pdftotext)", qsc.ErrBadRequest)
	}
	if isUTF16(b) {
		return fmt.Errorf("%w: the file is UTF-16 text; qsc reads UTF-8 (convert it first, for instance with iconv -f UTF-16 -t UTF-8)", qsc.ErrBadRequest)
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Errorf("%w: the file holds binary data (a NUL byte at offset %d), not text", qsc.ErrBadRequest, i)
	}
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("%w: the text is not valid UTF-8 (byte offset %d): the file is in another encoding, %s (convert it first: iconv -f %s -t UTF-8)", qsc.ErrBadRequest, i, encodingGuess(b), encodingName(b))
	}
	if !htmltext.IsFile(name) && isHTML(b) {
		if name == "-" || name == "" {
			return fmt.Errorf("%w: the input is HTML; qsc reads HTML from files named .html or .htm (save it as one), and other input as plain text or Markdown", qsc.ErrBadRequest)
		}
		return fmt.Errorf("%w: the file is HTML, but its name does not end in .html; qsc reads .html and .htm files as HTML, and other files as plain text or Markdown (rename it to .html)", qsc.ErrBadRequest)
	}
	return nil
}

// encodingGuess names the encodings a text that is not UTF-8 is likely in, by its bytes
// over 0x7F (encodingName): Shift_JIS (Japanese), Windows-1251 (Cyrillic), else
// Windows-1252 or Latin-1 (Western European).
func encodingGuess(b []byte) string {
	switch encodingName(b) {
	case "SHIFT_JIS":
		return "Shift_JIS (Japanese) perhaps"
	case "WINDOWS-1251":
		return "Windows-1251 (Cyrillic) perhaps, or KOI8-R"
	}
	return "Windows-1252 or Latin-1 (Western European) perhaps"
}

// encodingName is the iconv name of encodingGuess's first guess: Shift_JIS when a
// quarter or more of the bytes over 0x7F are lead bytes 0x81–0x9F of a Shift_JIS pair
// (hiragana, katakana and most kanji) and the bytes over 0x7F are a fifth or more of
// all (Japanese text is mostly such pairs, where Windows-1252 uses 0x91–0x97 for the
// curly quotes and dashes of mostly ASCII text: an English interview in it is no
// Shift_JIS); else
// Windows-1251 when runs of three bytes of 0xC0–0xFF, words of Cyrillic letters, make up
// much of them (a Western European text has an accented letter here and there); else
// Windows-1252.
func encodingName(b []byte) string {
	var high, lead, upper, run, inRuns int
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c < 0x80 {
			run = 0
			continue
		}
		high++
		if c >= 0x81 && c <= 0x9f && i+1 < len(b) && b[i+1] >= 0x40 && b[i+1] != 0x7f {
			lead++
		}
		if c >= 0xc0 {
			upper++
			if run++; run >= 3 {
				inRuns++
			}
		} else {
			run = 0
		}
	}
	switch {
	case high > 0 && 4*lead >= high && 5*high >= len(b):
		return "SHIFT_JIS"
	case inRuns > 0 && 3*inRuns >= upper:
		return "WINDOWS-1251"
	}
	return "WINDOWS-1252"
}

// fromUTF16 returns b, UTF-16 text (isUTF16), in UTF-8: in the byte order of its byte
// order mark, else the one its first characters show (ASCII's other byte is zero), the
// mark dropped. An odd length or a lone surrogate is an error, for CheckText to refuse.
func fromUTF16(b []byte) ([]byte, error) {
	order := xunicode.LittleEndian
	if len(b) >= 2 && b[0] == 0 && b[1] != 0 || len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff {
		order = xunicode.BigEndian
	}
	if len(b)%2 != 0 {
		return nil, errors.New("odd length")
	}
	out, err := xunicode.UTF16(order, xunicode.UseBOM).NewDecoder().Bytes(b)
	if err != nil || !utf8.Valid(out) || bytes.ContainsRune(out, utf8.RuneError) {
		return nil, errors.New("not UTF-16")
	}
	return out, nil
}

// isUTF16 reports whether b begins with a UTF-16 byte order mark, or with two characters
// of UTF-16 (little or big endian) whose other byte is zero, as ASCII text in UTF-16 has.
func isUTF16(b []byte) bool {
	if len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff) {
		return true
	}
	return len(b) >= 4 && (b[1] == 0 && b[3] == 0 && b[0] != 0 && b[2] != 0 || b[0] == 0 && b[2] == 0 && b[1] != 0 && b[3] != 0)
}

// isHTML reports whether b begins, white space and a byte order mark aside, with an HTML
// document's doctype or root element.
func isHTML(b []byte) bool {
	b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\ufeff")), " \t\r\n")
	head := bytes.ToLower(b[:min(len(b), 14)])
	return bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html"))
}

// CountDocFiles returns the number of document files under dir (for a progress total).
func CountDocFiles(dir string) int {
	n := 0
	WalkDocFiles(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil {
			n++
		}
		return nil
	})
	return n
}
