// Package markdown reads a Markdown document as the text its rendering shows, for
// searching and snippets: what `qsc serve --docs` indexes of a folder's .md files and what
// `qsc snippets` reads of one. A program that indexes Markdown itself (with package
// highlight, say) indexes and annotates Text(src) or Doc's body rather than src, so that
// no snippet shows "##", a table's pipes or a code fence, each heading, list item and
// table row is a paragraph of its own, and a snippet does not repeat the title.
package markdown

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/qsc-nlp/qsc/htmltext"
	"github.com/qsc-nlp/qsc/internal/core/tablerow"
)

// IsFile reports whether a file is Markdown by its name: it ends in .md, .markdown or
// .mdx (MDX, Markdown with components: its leading import and export lines are left out,
// and its components are raw HTML to the reading) in any letter case.
func IsFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

// markdown parses CommonMark with GitHub's tables, strikethrough and footnotes. A
// goldmark.Markdown is safe for concurrent use.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Footnote))

// Text returns the text a reader of the rendered Markdown src sees, for searching and
// snippets: front matter (YAML between "---" lines, TOML between "+++" lines) left out;
// emphasis, code and link markup left out (a link is its text, an image its
// alternative text, an autolink its address), escapes and character references resolved;
// each heading, paragraph, list item, quoted paragraph, table row (its cells joined by
// " · ", or by a space after a cell that ends a sentence, each after its column's label
// when the header row gives short labels, which it then is not: "Plan: Team · Price:
// $50"; package tablerow) and line of a code block a paragraph of its own, blocks
// separated by a blank line so that no sentence runs from one into the next; the lines
// of a wrapped paragraph joined by a space, a hard line break kept; raw HTML, thematic breaks and footnote marks left out, the footnotes'
// text last; TeX math between dollars kept as typed (literalMath). It costs one parse of
// src, O(len(src)).
func Text(src []byte) string {
	_, body := markdownDoc(src, false)
	return body
}

// Doc returns the title and the text of a Markdown document: the title of its front
// matter, if it has one; else, when its first block is a heading with text and other
// blocks follow, the heading, and the text is Text of the rest, so that a snippet does
// not repeat the title (a first heading that repeats the front matter's title is left out
// too); otherwise the title is "" and the text is Text(src).
func Doc(src []byte) (title, body string) {
	return markdownDoc(src, true)
}

// markdownDoc is Doc, or Text (title "") when split is false.
func markdownDoc(src []byte, split bool) (title, body string) {
	fm, src := frontMatter(src)
	fmTitle := fm.title
	src = literalMath(markupLines(mdxPreamble(src)))
	doc := markdown.Parser().Parse(text.NewReader(src))
	var b strings.Builder
	w := mdWriter{b: &b, src: src}
	if h, ok := doc.FirstChild().(*ast.Heading); split && ok && h.NextSibling() != nil {
		w.inline(h)
		title = strings.Join(strings.Fields(b.String()), " ")
		b.Reset()
		if title != "" && (fmTitle == "" || title == fmTitle) {
			doc.RemoveChild(doc, h)
		}
	}
	if split && fmTitle != "" {
		title = fmTitle
	}
	w.block(doc)
	return title, strings.TrimSpace(b.String())
}

// URL returns the address that the front matter of the Markdown document src gives it:
// the value of its top-level "url" field, else of its "permalink" field (Hugo's and
// Jekyll's names), without quotes, as written: absolute ("https://…") or from the site's
// root ("/billing/refunds/"); "" when it has none. It reads the front matter alone.
func URL(src []byte) string {
	fm, _ := frontMatter(src)
	return cmp.Or(fm.url, fm.permalink)
}

// Slug returns the slug of the front matter of the Markdown document src (Docusaurus's
// name for where a document is published): from the root of the site's documents when
// it begins with "/" ("/refunds"), else in place of the file's name, in its folder
// ("refunds"); without quotes, as written; "" when it has none. It reads the front
// matter alone.
func Slug(src []byte) string {
	fm, _ := frontMatter(src)
	return fm.slug
}

// meta is what frontMatter reads of a front matter: the values of its top-level title,
// url, permalink and slug fields, without quotes, white space collapsed ("" when
// absent).
type meta struct{ title, url, permalink, slug string }

// frontMatter returns src without the front matter it begins with, if any: a block of
// YAML between two lines of "---" (the last may be "..."), or of TOML between two lines
// of "+++", as static site generators (Hugo, Jekyll, Docusaurus) read it; and the values
// of its fields that meta holds ("title: …" or "title = …"). It is metadata, not text a
// reader sees.
func frontMatter(src []byte) (m meta, rest []byte) {
	fence := fenceOf(src)
	if fence == "" {
		return meta{}, src
	}
	i := bytes.IndexByte(src, '\n') + 1
	for i < len(src) {
		end := bytes.IndexByte(src[i:], '\n')
		next := len(src)
		if end >= 0 {
			next = i + end + 1
		}
		line := strings.TrimRight(string(src[i:next]), " \t\r\n")
		if line == fence || fence == "---" && line == "..." {
			return m, src[next:]
		}
		if name, value, ok := cutField(line, fence); ok {
			var field *string
			switch strings.ToLower(name) {
			case "title":
				field = &m.title
			case "url":
				field = &m.url
			case "permalink":
				field = &m.permalink
			case "slug":
				field = &m.slug
			}
			if field != nil && *field == "" {
				*field = strings.Join(strings.Fields(strings.Trim(strings.TrimSpace(value), `"'`)), " ")
			}
		}
		i = next
	}
	return meta{}, src // never closed: not front matter
}

// CheckFrontMatter returns what is wrong with the front matter that the Markdown document
// src begins with, for its author to mend, and the line it is on (1-based); "" and 0 when
// nothing is, or src has none. It finds a front matter that opens and never closes (all
// of src is then read as text, the fence line and the fields too), and a top-level field
// whose value opens a quote or a bracket that the line does not close (`title: "Data
// residency`), which a YAML or TOML reader refuses, where Doc, URL and Slug read the
// value as it stands. It is no YAML or TOML parser: other mistakes pass.
func CheckFrontMatter(src []byte) (problem string, line int) {
	fence := fenceOf(src)
	if fence == "" {
		return "", 0
	}
	first, firstLine := "", 0
	open, openName, openLine := "", "", 0 // a value whose quote or bracket is not closed yet
	rest := src[bytes.IndexByte(src, '\n')+1:]
	for n := 2; len(rest) > 0; n++ {
		raw, after, _ := bytes.Cut(rest, []byte("\n"))
		rest = after
		l := strings.TrimRight(string(raw), " \t\r")
		closing := l == fence || fence == "---" && l == "..."
		if open != "" && !closing && (l == "" || l[0] == ' ' || l[0] == '\t') {
			if strings.ContainsAny(l, closerOf(open)) {
				open = "" // a value continued on an indented line, as YAML allows, and closed
			}
			continue
		}
		if open != "" && first == "" {
			first, firstLine = fmt.Sprintf("the value of %q opens %s that is not closed before the next field", openName, open), openLine
		}
		open = ""
		if closing {
			return first, firstLine
		}
		if name, value, ok := cutField(l, fence); ok {
			open, openName, openLine = unclosed(strings.TrimSpace(value)), name, n
		}
	}
	return fmt.Sprintf("the front matter that opens here with %q is never closed: the whole file is read as text, its fields too", fence), 1
}

// unclosed names the quote or bracket that a front matter's value v opens and does not
// close on its line ("a quote", "a bracket", "a brace"), or "".
func unclosed(v string) string {
	switch {
	case v == "":
	case v[0] == '"' && (len(v) == 1 || !strings.HasSuffix(v, `"`)):
		return "a quote"
	case v[0] == '\'' && (len(v) == 1 || !strings.HasSuffix(v, "'")):
		return "a quote"
	case v[0] == '[' && !strings.HasSuffix(v, "]"):
		return "a bracket"
	case v[0] == '{' && !strings.HasSuffix(v, "}"):
		return "a brace"
	}
	return ""
}

// closerOf returns the characters that close what unclosed names.
func closerOf(open string) string {
	switch open {
	case "a bracket":
		return "]"
	case "a brace":
		return "}"
	}
	return `"'`
}

// fenceOf returns the fence of the front matter that src opens with, "---" (YAML) or
// "+++" (TOML) on a line of its own, or "" when src opens with none.
func fenceOf(src []byte) string {
	for _, f := range [...]string{"---", "+++"} {
		if rest, ok := bytes.CutPrefix(src, []byte(f)); ok && (bytes.HasPrefix(rest, []byte("\n")) || bytes.HasPrefix(rest, []byte("\r\n"))) {
			return f
		}
	}
	return ""
}

// mdxPreamble returns src without the import and export lines it begins with (blank
// lines between them), which an MDX document opens with ("import Tabs from
// '@theme/Tabs';"): they are code, not text a reader sees. A Markdown document does not
// begin with such a line.
func mdxPreamble(src []byte) []byte {
	rest := src
	for len(rest) > 0 {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		t := bytes.TrimSpace(line)
		if len(t) != 0 && !bytes.HasPrefix(t, []byte("import ")) && !bytes.HasPrefix(t, []byte("export ")) {
			break
		}
		rest = after
	}
	return rest
}

// markupLines returns src with the lines that are markup and no text made blank lines:
// the fences of admonitions (Docusaurus's ":::note", ":::tip[Title]", ":::caution
// Title", "::::", Pandoc's "::: warning" and "::: {.note}", and the closing ":::"), so
// that their content reads as the paragraphs it is and no snippet shows ":::" or a bare
// "tip" (a title is kept as a paragraph of its own); and a line that is one JSX element of
// MDX, a component ("<SignatureDemo secret={prefix + 'x'} />", "</Tabs>"), which
// CommonMark does not take for HTML when its attributes hold braces. Lines in fenced
// code are left as they are. It returns src itself when it has no such line, and costs
// one pass of it.
func markupLines(src []byte) []byte {
	if !bytes.Contains(src, []byte(":::")) && !bytes.Contains(src, []byte("<")) {
		return src
	}
	var out []byte
	fence := ""
	changed := false
	for line := range bytes.Lines(src) {
		t := strings.TrimSpace(string(line))
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		case isComponent(t):
			out = append(out, '\n')
			changed = true
			continue
		case strings.HasPrefix(t, ":::") && len(line)-len(bytes.TrimLeft(line, " ")) <= 3:
			rest := strings.TrimSpace(strings.TrimLeft(t, ":"))
			kind := strings.TrimLeftFunc(rest, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })
			if strings.HasPrefix(rest, "{") && strings.HasSuffix(rest, "}") {
				kind = "" // Pandoc's "::: {.note}"
			} else if len(kind) == len(rest) && rest != "" {
				break // ":::" before something other than a kind: no fence
			}
			title := strings.TrimSpace(kind)
			if strings.HasPrefix(title, "[") && strings.HasSuffix(title, "]") {
				title = strings.TrimSpace(title[1 : len(title)-1])
			}
			out = append(out, '\n')
			if title != "" {
				out = append(out, title...)
				out = append(out, "\n\n"...)
			}
			changed = true
			continue
		}
		out = append(out, line...)
	}
	if !changed {
		return src
	}
	return out
}

// isComponent reports whether a trimmed line is one JSX element of a component, which
// React names with a capital: "<Tabs>", "</Tabs>", "<Demo x={1} />", "<Foo.Bar/>".
func isComponent(t string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(t, "<"), "/")
	if len(name) == len(t) || name == "" || name[0] < 'A' || name[0] > 'Z' || !strings.HasSuffix(t, ">") {
		return false
	}
	end := strings.IndexAny(name, " \t/>")
	if end < 0 {
		return false
	}
	for _, r := range name[:end] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_') {
			return false
		}
	}
	return strings.Count(t, "<") == 1 // one element, not "<A> and <B>" text
}

// cutField splits a front matter's line "name: value" (YAML) or "name = value" (TOML) at
// the top level (no indentation).
func cutField(line, fence string) (name, value string, ok bool) {
	if line == "" || line[0] == ' ' || line[0] == '\t' {
		return "", "", false
	}
	sep := ":"
	if fence == "+++" {
		sep = "="
	}
	name, value, ok = strings.Cut(line, sep)
	return strings.TrimSpace(name), value, ok
}

// mdWriter writes the text of a Markdown tree.
type mdWriter struct {
	b   *strings.Builder
	src []byte
}

// paragraph ends the block written before, if any, with a blank line.
func (w *mdWriter) paragraph() {
	s := w.b.String()
	switch {
	case s == "" || strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		w.b.WriteByte('\n')
	default:
		w.b.WriteString("\n\n")
	}
}

// block writes the blocks under n, each as a paragraph.
func (w *mdWriter) block(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Heading, *ast.Paragraph, *ast.TextBlock:
			w.paragraph()
			w.inline(c)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			// Each line of code a paragraph: the sentence splitter would join a block's
			// lines as a wrapped paragraph's, and a snippet read "install.sh | sh sudo mv".
			lines := c.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				if line := strings.TrimRight(string(seg.Value(w.src)), " \t\r\n"); strings.TrimSpace(line) != "" {
					w.paragraph()
					w.b.WriteString(line)
				}
			}
		case *east.Table:
			w.table(c)
		case *ast.HTMLBlock:
			// What a browser shows of it: a <details>' summary, a <div>'s words (an
			// MDX component, no HTML, shows nothing).
			var hb []byte
			lines := c.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				hb = append(hb, seg.Value(w.src)...)
			}
			if c.HasClosure() {
				seg := c.ClosureLine
				hb = append(hb, seg.Value(w.src)...)
			}
			if t := htmltext.Text(hb); t != "" {
				w.paragraph()
				w.b.WriteString(t)
			}
		case *ast.ThematicBreak:
		default: // lists, list items, block quotes: their blocks
			w.block(c)
		}
	}
}

// table writes the rows of table t as package tablerow reads them: each a paragraph, its
// cells after their columns' labels when the header row gives labels and other rows
// follow (the header row then left out), an empty cell adding nothing.
func (w *mdWriter) table(t *east.Table) {
	var rows [][]string
	header := false
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			var cb strings.Builder
			cw := mdWriter{b: &cb, src: w.src}
			cw.inline(cell)
			cells = append(cells, strings.TrimSpace(cb.String()))
		}
		if _, ok := row.(*east.TableHeader); ok && rows == nil {
			header = true
		}
		rows = append(rows, cells)
	}
	var labels []string
	if header && len(rows) > 1 {
		labels = tablerow.Labels(rows[0])
	}
	for i, cells := range rows {
		if i == 0 && labels != nil {
			continue // its words are every other row's labels
		}
		w.paragraph()
		sep := ""
		for k, t := range cells {
			if t == "" {
				continue
			}
			if i > 0 && k < len(labels) {
				t = tablerow.Cell(labels[k], t)
			}
			w.b.WriteString(sep)
			w.b.WriteString(t)
			sep = tablerow.SepAfter(t)
		}
	}
}

// inline writes the text of the inline nodes under n.
func (w *mdWriter) inline(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			w.text(c.Segment.Value(w.src))
			switch {
			case c.HardLineBreak():
				w.b.WriteByte('\n')
			case c.SoftLineBreak():
				w.b.WriteByte(' ')
			}
		case *ast.String:
			w.text(c.Value)
		case *ast.AutoLink:
			w.b.Write(c.URL(w.src))
		case *ast.RawHTML, *east.FootnoteLink, *east.FootnoteBacklink:
			// A footnote's mark is left out ("by 2023.[^1] The rise" reads "by 2023. The
			// rise"); its text is a paragraph at the end, as the rendering lists it.
		default: // emphasis, code spans, links, images, strikethrough: their text
			w.inline(c)
		}
	}
}

// text writes Markdown text as it reads: backslash escapes and character references
// (&amp;, &#233;) resolved.
func (w *mdWriter) text(v []byte) {
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	w.b.Write(util.ResolveEntityNames(v))
}

// literalMath returns src with the Markdown syntax inside its TeX math escaped, so that
// the math reads as typed: "$0.42\,\Delta$" keeps its "\," (an escaped comma to
// Markdown) and "$x_i$ and $y_i$" no emphasis. Math is "$…$" on one line, opened by a
// "$" before a non-space and closed by one after a non-space that no digit follows
// (pandoc's rule: "$5 and $10" is no math), or "$$…$$"; code spans and fenced code are
// left alone. src is returned itself when it has no math.
func literalMath(src []byte) []byte {
	if !bytes.ContainsRune(src, '$') {
		return src
	}
	var out []byte
	fenced := false
	for line := range bytes.Lines(src) {
		t := bytes.TrimLeft(line, " ")
		if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
			fenced = !fenced
		}
		if fenced || !bytes.ContainsRune(line, '$') {
			out = append(out, line...)
			continue
		}
		out = appendMathLine(out, line)
	}
	return out
}

// appendMathLine appends line to out with its math spans escaped (literalMath).
func appendMathLine(out, line []byte) []byte {
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '`': // a code span: as it is, to its closing run of backticks
			j := i
			for j < len(line) && line[j] == '`' {
				j++
			}
			end := bytes.Index(line[j:], line[i:j])
			if end < 0 {
				out = append(out, line[i:]...)
				return out
			}
			out = append(out, line[i:j+end+(j-i)]...)
			i = j + end + (j - i)
			continue
		case c == '\\' && i+1 < len(line):
			out = append(out, line[i:i+2]...)
			i += 2
			continue
		case c == '$':
			if end := mathEnd(line, i); end > 0 {
				for _, m := range line[i:end] {
					if strings.IndexByte("\\_*`[]<>~&", m) >= 0 {
						out = append(out, '\\')
					}
					out = append(out, m)
				}
				i = end
				continue
			}
		}
		out = append(out, c)
		i++
	}
	return out
}

// mathEnd returns the end of the math span that opens at line[i] ("$" or "$$"), or 0.
func mathEnd(line []byte, i int) int {
	delim := 1
	if i+1 < len(line) && line[i+1] == '$' {
		delim = 2
	}
	start := i + delim
	if start >= len(line) || line[start] == ' ' || line[start] == '\n' || line[start] == '$' {
		return 0
	}
	for j := start + 1; j+delim <= len(line); j++ {
		if line[j] != '$' || line[j-1] == '\\' {
			continue
		}
		if delim == 2 && (j+1 >= len(line) || line[j+1] != '$') {
			continue
		}
		if line[j-1] == ' ' || delim == 1 && j+1 < len(line) && line[j+1] >= '0' && line[j+1] <= '9' {
			return 0
		}
		return j + delim
	}
	return 0
}
