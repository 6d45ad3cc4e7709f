// Package htmltext reads an HTML document as the text a browser shows of it, for
// searching and snippets: what `qsc serve --docs` indexes of a folder's .html files and
// what `qsc snippets` reads of one, as package markdown reads Markdown. A program that
// indexes HTML itself (with package highlight, say) indexes and annotates Text(src) or
// Doc's body rather than src, so that no snippet shows a tag, an entity or a script, each
// heading, paragraph, list item and table row is a paragraph of its own, no snippet runs
// from a page's menu into its article, and a snippet does not repeat the title.
//
// What is read:
//
//   - The text a browser shows: tags left out, character references decoded (&amp; is
//     "&", a no-break space a space, a soft hyphen nothing), white space collapsed as a
//     browser collapses it; link text kept, an image's alternative text left out.
//   - Each block (p, div, li, h1–h6, tr, blockquote, pre, section, article, dt, dd,
//     figcaption, and the other elements a browser shows as blocks) a paragraph of its
//     own, paragraphs separated by a blank line; a table row's cells joined by " · " (by a
//     space after a cell that ends a sentence), each after its column's label when the
//     table's first row is a header of short labels (th cells), which is then left out
//     ("Plan: Team · Price: $50"; package tablerow, as Markdown's tables read); br a line
//     break, two or more in a row a paragraph break; each line of pre, listing and xmp is a
//     paragraph (a sentence splitter would join a block of code's lines).
//   - Left out as what the page shows around its content, not content: nav, header,
//     footer, aside, form, button and dialog elements, and those whose ARIA role is one of
//     theirs (navigation, banner, contentinfo, complementary, search), and, on pages
//     older than those elements, those whose class or id names such a part
//     ("cookie-banner", "breadcrumbs", "sidebar", "comments", "share-buttons",
//     "article-votes", "ad-slot": furniture) unless they hold the page's h1, main or
//     article. A header inside main or article is that content's own (its heading,
//     its byline) and is read; a form
//     that holds a heading, main or article wraps the page (ASP.NET pages do) and is read.
//   - Never read, as a browser does not show it: head, title, script, style, template,
//     noscript, svg, iframe, object, embed, canvas, audio, video, select, textarea, the
//     ruby annotations rt and rp, comments; elements with the hidden attribute (not
//     hidden="until-found", which a browser's find in page reveals), aria-hidden="true",
//     or an inline style of display: none or visibility: hidden.
//   - When the page has a main element (or role="main"), the first of them alone; else,
//     when it has article elements, those alone; else the body. When that has no text,
//     the body; when the body has none either, the body with the boilerplate elements
//     read too (a page that is all menu, or all form).
//
// A page in another encoding than UTF-8 is decoded as a browser decodes it, by its meta
// charset, else as windows-1252 (UTF8); one that declares UTF-8 but is not keeps its
// valid UTF-8 and has its other bytes read as windows-1252, the commonest such mistake,
// where a browser shows U+FFFD. Invalid HTML is read as a browser reads it (the HTML5 parsing
// algorithm of golang.org/x/net/html), and no input makes it panic.
package htmltext

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/qsc-nlp/qsc/internal/core/tablerow"
	"github.com/qsc-nlp/qsc/internal/core/textenc"
)

// IsFile reports whether a file is HTML by its name: it ends in .html, .htm, .shtml (a
// page with server-side includes, as a site serves it) or .xhtml, in any letter case.
func IsFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm", ".shtml", ".xhtml":
		return true
	}
	return false
}

// Text returns the text a reader of the HTML document src sees in a browser, for
// searching and snippets, as the package documentation describes: its content's blocks,
// each a paragraph, separated by blank lines; the title element is not part of it.
//
// It costs one parse of src with golang.org/x/net/html, O(len(src)) in time (some 10 MB
// a second) and a tree of some 15 times len(src) in memory while it runs, then one walk
// of the tree (two or three when the content reads empty). A page over 16 MiB, or
// nested deeper than the parser's 512 elements (which it refuses), is read from its
// tokens instead, in one to three passes of O(len(src)) and memory of the size of its
// text: the same text for a page whose tags are closed (readTokens says where it
// differs).
func Text(src []byte) string {
	_, body := read(src, false)
	return body
}

// Doc returns the title and the text of an HTML document: the title is the text of its
// title element, else that of the first h1 of the text read; the text is Text(src),
// less its first heading (h1–h6) when that heading is the title, or the title is the
// heading and the site's name after or before a separator ("Refunds | Tidewater Help"
// for "Refunds"), and other text follows, so that a snippet does not repeat the title
// (as markdown.Doc leaves out a first heading); the title is then the heading, without
// the site's name that every page of the site repeats. The title is "" when the page
// has neither. It costs what Text does.
func Doc(src []byte) (title, body string) {
	return read(src, true)
}

// read is Doc, or Text (title "") when split is false.
func read(src []byte, split bool) (title, body string) {
	src, _ = UTF8(src) // valid UTF-8, whatever src was
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	if len(src) > maxTreeBytes {
		return readTokens(src, split)
	}
	doc, err := html.Parse(bytes.NewReader(src))
	if err != nil { // nested deeper than the parser's limit: read the tokens
		return readTokens(src, split)
	}
	top := bodyOf(doc)
	type try struct {
		roots   []*html.Node
		lenient bool
	}
	tries := []try{{contentRoots(top), false}, {[]*html.Node{top}, false}, {[]*html.Node{top}, true}}
	if tries[0].roots[0] == top {
		tries = tries[1:] // no main, no article: the body is the content
	}
	var r *reader
	for _, t := range tries {
		r = &reader{lenient: t.lenient}
		for _, root := range t.roots {
			r.node(root, root.DataAtom == atom.Main || root.DataAtom == atom.Article || role(root) == "main")
			r.w.flush()
		}
		if r.w.out.Len() > 0 {
			break
		}
	}
	if !split {
		return "", r.w.out.String()
	}
	return r.split(titleOf(doc))
}

// bodyOf returns the body element of a parsed document (the parser always makes one,
// unless the page is a frameset), or the document itself.
func bodyOf(doc *html.Node) *html.Node {
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Namespace == "" && (n.DataAtom == atom.Body || n.DataAtom == atom.Frameset) {
			return n
		}
	}
	return doc
}

// titleOf returns the text of a document's first title element (not an SVG drawing's),
// its white space collapsed, or "".
func titleOf(doc *html.Node) string {
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Title && n.Namespace == "" {
			var b strings.Builder
			for c := range n.Descendants() {
				if c.Type == html.TextNode {
					b.WriteString(c.Data)
				}
			}
			return collapse(b.String())
		}
	}
	return ""
}

// contentRoots returns the elements whose text is the page's content: its first main
// element (or element of role main), else its article elements (not those inside
// another), else body alone. Elements left out (leftOut) and their descendants are not
// looked in: an article teaser in an aside is not the page's content.
func contentRoots(body *html.Node) []*html.Node {
	var main *html.Node
	var articles []*html.Node
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil && main == nil; c = c.NextSibling {
			if c.Type != html.ElementNode || leftOut(c, false, false) {
				continue
			}
			switch {
			case c.DataAtom == atom.Main && c.Namespace == "" || role(c) == "main":
				main = c
			case c.DataAtom == atom.Article && c.Namespace == "":
				articles = append(articles, c)
			default:
				visit(c)
			}
		}
	}
	visit(body)
	switch {
	case main != nil:
		return []*html.Node{main}
	case len(articles) > 0:
		return articles
	}
	return []*html.Node{body}
}

// leftOut reports whether the element n and all it holds are left out of the text:
// what a browser does not show, and unless lenient, the page's boilerplate (nav,
// header, footer, aside, form, button, dialog and their ARIA roles; a header inside
// main or article, inArticle, is read).
func leftOut(n *html.Node, inArticle, lenient bool) bool {
	if n.Namespace == "svg" {
		return true
	}
	switch n.DataAtom {
	case atom.Head, atom.Title, atom.Script, atom.Style, atom.Template, atom.Noscript,
		atom.Iframe, atom.Object, atom.Embed, atom.Canvas, atom.Audio, atom.Video,
		atom.Select, atom.Textarea, atom.Datalist, atom.Rt, atom.Rp, atom.Noembed, atom.Noframes,
		atom.Svg, atom.Annotation, atom.AnnotationXml:
		// An <svg> read from the tokens (readTokens) has no namespace; MathML's
		// annotations are the TeX source behind a formula.
		return true
	case atom.Nav, atom.Footer, atom.Aside, atom.Button, atom.Dialog:
		if !lenient {
			return true
		}
	case atom.Header:
		if !lenient && !inArticle {
			return true
		}
	case atom.Form:
		if !lenient && !holdsContent(n) {
			return true
		}
	}
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "hidden":
			if !strings.EqualFold(strings.TrimSpace(a.Val), "until-found") {
				return true
			}
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			if styleHides(a.Val) {
				return true
			}
		case "role":
			if lenient {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(a.Val)) {
			case "navigation", "banner", "contentinfo", "complementary", "search":
				return true
			}
		case "class", "id":
			if !lenient && block(n.DataAtom) && n.DataAtom != atom.Body && n.DataAtom != atom.Html && furniture(a.Val) && !wraps(n) {
				return true
			}
		}
	}
	return false
}

// furniture reports whether a class or id attribute's value names what a page shows
// around its content on pages older than HTML5's nav, aside and footer elements: a word
// of one of its names (split at anything but letters and digits, any case) is one of
// furnitureWords ("cookie-banner", "breadcrumbs", "sidebar", "comments", "share-buttons",
// "ad-slot"), and the name is no state of a wrapper ("has-sidebar", "with-comments",
// "no-ads", "is-menu-open"). Only a block is asked (a div, a section, a list…): an
// inline element so named is a part of the text, as a code highlighter's
// `<span class="hljs-comment">` is; and an element so named that wraps the content
// (wraps) is read.
func furniture(v string) bool {
	for name := range strings.FieldsSeq(strings.ToLower(v)) {
		if strings.HasPrefix(name, "has-") || strings.HasPrefix(name, "with-") || strings.HasPrefix(name, "no-") || strings.HasPrefix(name, "is-") {
			continue
		}
		for w := range strings.FieldsFuncSeq(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if furnitureWords[w] {
				return true
			}
		}
	}
	return false
}

// wraps reports whether n holds the page's content: an h1, a main or an article, as a
// wrapper named for a part of the page ("content-with-sidebar") does. It walks n's
// descendants; an element read from the tokens has none.
func wraps(n *html.Node) bool {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Namespace == "" && (d.DataAtom == atom.H1 || d.DataAtom == atom.Main || d.DataAtom == atom.Article) {
			return true
		}
	}
	return false
}

// furnitureWords are the words of class and id values that name a page's furniture.
var furnitureWords = map[string]bool{
	"cookie": true, "cookies": true, "consent": true, "gdpr": true,
	"nav": true, "navigation": true, "breadcrumb": true, "breadcrumbs": true, "sidebar": true, "sidenav": true, "navbar": true, "menu": true, "topnav": true,
	"share": true, "sharing": true, "social": true,
	"related": true, "comments": true, "comment": true, "disqus": true,
	"newsletter": true, "subscribe": true, "signup": true, "promo": true,
	"ad": true, "ads": true, "advert": true, "advertisement": true, "sponsored": true, "banner": true,
	"feedback": true, "helpful": true, "vote": true, "votes": true, "rating": true, "ratings": true,
	"pagination": true, "pager": true, "skip": true,
	"footer": true, "masthead": true, "toolbar": true, "wm": true, "blogroll": true,
}

// styleHides reports whether an inline style hides its element: display: none or
// visibility: hidden (or collapse), in any letter case and spacing.
func styleHides(style string) bool {
	for decl := range strings.SplitSeq(style, ";") {
		name, value, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		name = strings.ToLower(strings.TrimSpace(name))
		value = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "!important")))
		if name == "display" && value == "none" || name == "visibility" && (value == "hidden" || value == "collapse") {
			return true
		}
	}
	return false
}

// role returns an element's ARIA role attribute, trimmed and lowercased, or "".
func role(n *html.Node) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == "role" {
			return strings.ToLower(strings.TrimSpace(a.Val))
		}
	}
	return ""
}

// holdsContent reports whether a form holds a heading, a main or an article: then it is
// no search box or sign-up form but a wrapper of the page's content.
func holdsContent(form *html.Node) bool {
	for n := range form.Descendants() {
		if n.Type == html.ElementNode && n.Namespace == "" && (heading(n.DataAtom) || n.DataAtom == atom.Main || n.DataAtom == atom.Article) {
			return true
		}
	}
	return false
}

// heading reports whether a is a heading element, h1 to h6.
func heading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// block reports whether a browser shows the element a as a block, a paragraph of its own
// (table cells aside: they are joined in their row).
func block(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body, atom.Caption,
		atom.Center, atom.Dd, atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Dt,
		atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.Frameset,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Hr,
		atom.Html, atom.Legend, atom.Li, atom.Listing, atom.Main, atom.Menu, atom.Nav, atom.Ol,
		atom.Optgroup, atom.Option, atom.P, atom.Plaintext, atom.Pre, atom.Search, atom.Section,
		atom.Summary, atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr, atom.Ul, atom.Xmp:
		return true
	}
	return false
}

// preformatted reports whether the element a keeps its lines and spaces.
func preformatted(a atom.Atom) bool {
	return a == atom.Pre || a == atom.Listing || a == atom.Xmp || a == atom.Plaintext
}

// reader writes the text of a parsed document.
type reader struct {
	w       writer
	lenient bool // the boilerplate elements are read
}

// node writes the text of n and what it holds; inArticle is whether n is in a main or
// an article element.
func (r *reader) node(n *html.Node, inArticle bool) {
	switch n.Type {
	case html.TextNode:
		r.w.text(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
		r.children(n, inArticle)
		return
	default: // comments, doctypes
		return
	}
	if leftOut(n, inArticle, r.lenient) {
		return
	}
	if n.Namespace != "" { // MathML: its text, inline
		r.children(n, inArticle)
		return
	}
	inArticle = inArticle || n.DataAtom == atom.Main || n.DataAtom == atom.Article || role(n) == "main"
	switch a := n.DataAtom; {
	case a == atom.Br:
		r.w.lineBreak()
	case preformatted(a):
		var b []byte
		r.raw(n, &b, inArticle)
		r.w.pre(b)
	case a == atom.Table:
		r.w.tableStart()
		r.children(n, inArticle)
		r.w.tableEnd()
	case a == atom.Tr:
		r.w.rowStart()
		r.children(n, inArticle)
		r.w.rowEnd()
	case a == atom.Td || a == atom.Th:
		r.w.cellStart(a == atom.Th, spanOf(n, "colspan"), spanOf(n, "rowspan"))
		r.children(n, inArticle)
	case heading(a):
		r.w.flush()
		start := len(r.w.starts)
		r.children(n, inArticle)
		r.w.flush()
		r.w.heading(a, start)
	case block(a):
		r.w.flush()
		r.children(n, inArticle)
		r.w.flush()
	default: // inline: links, emphasis, spans, labels…
		r.children(n, inArticle)
	}
}

// spanOf returns the columns or rows (attribute key, colspan or rowspan) that the cell n
// spans: at least 1.
func spanOf(n *html.Node, key string) int {
	for _, a := range n.Attr {
		if a.Key == key {
			if v, err := strconv.Atoi(strings.TrimSpace(a.Val)); err == nil && v > 1 {
				return min(v, 1000) // a browser's bound
			}
		}
	}
	return 1
}

// children writes the text of n's children.
func (r *reader) children(n *html.Node, inArticle bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		r.node(c, inArticle)
	}
}

// raw appends the text under a preformatted element n to b as it is, a br a line break,
// what is left out left out.
func (r *reader) raw(n *html.Node, b *[]byte, inArticle bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			*b = append(*b, c.Data...)
		case c.Type != html.ElementNode || leftOut(c, inArticle, r.lenient):
		case c.DataAtom == atom.Br && c.Namespace == "":
			*b = append(*b, '\n')
		default:
			r.raw(c, b, inArticle)
		}
	}
}

// split returns the title of a read document, title (its title element's text) or
// else its first h1's, and its text less the first heading when that heading is the
// title and other text follows.
func (r *reader) split(title string) (string, string) {
	w := &r.w
	if title == "" && w.h1.ok {
		title = collapse(w.out.String()[w.starts[w.h1.start]:w.end(w.h1.end)])
	}
	out := w.out.String()
	h := w.first
	if !h.ok || title == "" {
		return title, out
	}
	name, ok := sameTitle(collapse(out[w.starts[h.start]:w.end(h.end)]), title)
	if !ok {
		return title, out
	}
	title = name // without the site's name, which every page's title repeats
	before, after := out[:w.starts[h.start]], out[w.end(h.end):]
	if before == "" && after == "" {
		return title, out // the heading is all the text
	}
	return title, strings.Trim(before+strings.TrimPrefix(after, "\n\n"), "\n")
}

// sameTitle reports whether a heading is the title: the same words (in any letter
// case), or the title is the heading and a site's name after or before a separator; and
// returns the title's words that are the heading ("Refunds" of "Tidewater Help »
// Refunds"), as the title spells them.
func sameTitle(heading, title string) (string, bool) {
	if strings.EqualFold(heading, title) {
		return title, true
	}
	if len(title) <= len(heading) {
		return "", false
	}
	for _, sep := range []string{" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " • "} {
		if len(title) <= len(heading)+len(sep) {
			continue
		}
		if strings.EqualFold(title[:len(heading)], heading) && strings.HasPrefix(title[len(heading):], sep) {
			return title[:len(heading)], true
		}
		if strings.EqualFold(title[len(title)-len(heading):], heading) && strings.HasSuffix(title[:len(title)-len(heading)], sep) {
			return title[len(title)-len(heading):], true
		}
	}
	return "", false
}

// collapse returns s with its runs of white space made single spaces, and trimmed.
func collapse(s string) string {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	s = strings.ReplaceAll(s, "\u00ad", "")
	return strings.Join(strings.Fields(s), " ")
}

// span is a run of the paragraphs written, from start to end (indexes in
// writer.starts), when ok.
type span struct {
	start, end int
	ok         bool
}

// writer writes the text of a document, a paragraph at a time, collapsing white space as
// a browser does.
type writer struct {
	out    strings.Builder // the paragraphs written, separated by blank lines
	starts []int           // where each paragraph of out begins
	par    []byte          // the paragraph being written: no white space at its ends
	space  bool            // white space came after par's last character
	sep    string          // a table cell's separator, written before the next text
	breaks int             // the br elements at par's end
	first  span            // the first heading written
	h1     span            // the first h1 written
	tables []table         // the tables open, innermost last
	// cellNext is 1 + the column of the cell whose first text is to come, 0 when none
	// is: text notes where the cell's text begins, and writes its column's label first.
	cellNext int
}

// table is what the writer keeps of an open table, to label the cells of its rows with
// its header row (package tablerow).
type table struct {
	rows   int        // the rows ended
	col    int        // the column of the row's next cell
	inRow  bool       // a row is open
	allTH  bool       // the open row's cells are all th so far
	cells  []cellSpan // the open row's cells with text, where their text is in par
	labels []string   // the columns' labels, once the header row gave them
	stash  []byte     // the header row's text, written at the table's end if no row follows
	// plain is set when the rows cannot be labelled: a cell spanned rows (the columns
	// of the rows below it are not known), or a block inside a row cut it into
	// paragraphs. spans says that a cell of the open row spans rows.
	plain, spans bool
}

// cellSpan is where the text of a row's cell of column col is in the writer's par.
type cellSpan struct{ col, start, end int }

// end returns the offset in out where the paragraphs before paragraph i end (all of
// out, for i past the last).
func (w *writer) end(i int) int {
	if i < len(w.starts) {
		return w.starts[i] - 2 // the blank line before paragraph i
	}
	return w.out.Len()
}

// heading records that the paragraphs from start to those written now are a heading a.
func (w *writer) heading(a atom.Atom, start int) {
	if start == len(w.starts) {
		return // no text
	}
	s := span{start, len(w.starts), true}
	if !w.first.ok {
		w.first = s
	}
	if a == atom.H1 && !w.h1.ok {
		w.h1 = s
	}
}

// isSpace reports whether c is HTML's white space (space, tab, line feed, form feed,
// carriage return), which a browser collapses.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// text writes the text s, its runs of white space (a no-break space among them) made
// one space, soft hyphens left out.
func (w *writer) text(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isSpace(c):
			w.space = true
			i++
			continue
		case c == 0xc2 && i+1 < len(s) && s[i+1] == 0xa0: // U+00A0, a no-break space
			w.space = true
			i += 2
			continue
		case c == 0xc2 && i+1 < len(s) && s[i+1] == 0xad: // U+00AD, a soft hyphen
			i += 2
			continue
		}
		switch {
		case w.sep != "":
			w.par = append(w.par, w.sep...)
		case w.space && len(w.par) > 0 && w.par[len(w.par)-1] != '\n':
			w.par = append(w.par, ' ')
		}
		w.space, w.sep, w.breaks = false, "", 0
		if w.cellNext > 0 {
			w.cellText()
		}
		j := i + 1
		for j < len(s) && !isSpace(s[j]) && s[j] != 0xc2 {
			j++
		}
		w.par = append(w.par, s[i:j]...)
		i = j
	}
}

// lineBreak writes a br: a line break, or after another, a paragraph break. A br at
// the start of a paragraph or of a table cell adds nothing.
func (w *writer) lineBreak() {
	w.space = false
	if len(w.par) == 0 || w.sep != "" {
		return
	}
	if w.breaks++; w.breaks == 1 {
		w.par = append(w.par, '\n')
		return
	}
	w.flush()
}

// cell begins a table cell: after the text of the row's cells before, a " · ", or a
// space after one that ends a sentence, is written before the cell's text (an empty
// cell adds nothing).
func (w *writer) cell() {
	w.space, w.breaks = false, 0
	for len(w.par) > 0 && w.par[len(w.par)-1] == '\n' {
		w.par = w.par[:len(w.par)-1]
	}
	if len(w.par) > 0 && w.sep == "" {
		w.sep = tablerow.SepAfter(string(w.par[max(0, len(w.par)-32):]))
	}
}

// tableStart begins a table.
func (w *writer) tableStart() {
	w.flush()
	w.tables = append(w.tables, table{})
}

// tableEnd ends the innermost table: its open row, and its header row when no row
// followed it (a table of its header alone reads as that row).
func (w *writer) tableEnd() {
	n := len(w.tables)
	if n == 0 {
		return
	}
	w.rowEnd()
	if t := &w.tables[n-1]; t.stash != nil {
		w.paragraph(t.stash)
	}
	w.tables = w.tables[:n-1]
}

// rowStart begins a row of the innermost table (ending the open one): a paragraph of its
// own. A row after the header row drops the header's text, which its labels carry.
func (w *writer) rowStart() {
	n := len(w.tables)
	if n == 0 {
		return
	}
	w.rowEnd()
	t := &w.tables[n-1]
	t.stash = nil
	t.inRow, t.col, t.allTH, t.spans, t.cells = true, 0, true, false, t.cells[:0]
}

// rowEnd ends the open row of the innermost table, if any. The table's first row, when
// its cells are all th and their texts are labels (tablerow.Labels), gives the columns
// their labels and is kept aside (tableEnd, rowStart); any other row is a paragraph.
func (w *writer) rowEnd() {
	n := len(w.tables)
	w.cellNext = 0
	if n == 0 || !w.tables[n-1].inRow {
		return
	}
	t := &w.tables[n-1]
	t.inRow = false
	w.endCell(t)
	first, spans := t.rows == 0, t.spans
	t.rows++
	if spans {
		t.plain, t.spans = true, false
	}
	if first && t.allTH && !t.plain && t.col > 0 {
		head := make([]string, t.col)
		for _, c := range t.cells {
			if c.col < len(head) {
				head[c.col] = string(bytes.TrimSpace(w.par[c.start:c.end]))
			}
		}
		if t.labels = tablerow.Labels(head); t.labels != nil {
			t.stash = append([]byte(nil), bytes.TrimRight(w.par, "\n")...)
			w.par, w.space, w.sep, w.breaks = w.par[:0], false, "", 0
			return
		}
	}
	w.flushPar()
}

// cellStart begins a cell of the open row, th or td, spanning colspan columns and rowspan
// rows: after the separator of the cell before (cell), its text is noted, and follows
// its column's label when the table has labels. A cell outside a row begins one, as a
// browser's parse does.
func (w *writer) cellStart(th bool, colspan, rowspan int) {
	w.cell()
	n := len(w.tables)
	if n == 0 {
		return
	}
	if !w.tables[n-1].inRow {
		w.rowStart()
	}
	t := &w.tables[n-1]
	w.endCell(t)
	t.allTH = t.allTH && th
	if rowspan > 1 {
		t.spans = true // the columns of the rows below are not known (rowEnd)
	}
	w.cellNext = t.col + 1
	t.col += max(1, colspan)
}

// endCell notes where the text of the open row's last cell ends, par's end.
func (w *writer) endCell(t *table) {
	if k := len(t.cells) - 1; k >= 0 && t.cells[k].end < 0 {
		t.cells[k].end = len(bytes.TrimRight(w.par, "\n"))
	}
}

// cellText is text's, at the first text of the cell that w.cellNext names: it notes
// where the cell's text begins, and writes its column's label before it when the table
// has labels.
func (w *writer) cellText() {
	col := w.cellNext - 1
	w.cellNext = 0
	n := len(w.tables)
	if n == 0 {
		return
	}
	t := &w.tables[n-1]
	t.cells = append(t.cells, cellSpan{col: col, start: len(w.par), end: -1})
	if t.rows > 0 && !t.plain && col < len(t.labels) && t.labels[col] != "" {
		w.par = append(w.par, t.labels[col]...)
		w.par = append(w.par, ": "...)
	}
}

// flush ends the paragraph being written, if it has text. Inside a table's row, the row
// is then no longer one paragraph, and the table is read without labels.
func (w *writer) flush() {
	if n := len(w.tables); n > 0 && w.tables[n-1].inRow {
		w.tables[n-1].plain = true
	}
	w.flushPar()
}

// flushPar ends the paragraph being written, if it has text.
func (w *writer) flushPar() {
	p := bytes.TrimRight(w.par, "\n")
	if len(p) > 0 {
		w.paragraph(p)
	}
	w.par, w.space, w.sep, w.breaks = w.par[:0], false, "", 0
}

// paragraph writes p, which has text, as a paragraph of out.
func (w *writer) paragraph(p []byte) {
	if w.out.Len() > 0 {
		w.out.WriteString("\n\n")
	}
	w.starts = append(w.starts, w.out.Len())
	w.out.Write(p)
}

// pre writes the text of a preformatted element, each line that is not blank a paragraph
// of its own (a block of code's lines read as one wrapped paragraph would run into a
// sentence: "install.sh | sh sudo mv"), white space at their ends left out, no-break
// spaces made spaces and soft hyphens left out.
func (w *writer) pre(b []byte) {
	w.flush()
	b = bytes.ReplaceAll(b, []byte("\u00a0"), []byte(" "))
	b = bytes.ReplaceAll(b, []byte("\u00ad"), nil)
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	for line := range bytes.Lines(b) {
		if line = bytes.TrimRight(line, " \t\r\n\f"); len(bytes.TrimLeft(line, " \t\f")) > 0 {
			w.paragraph(line)
		}
	}
}

// URL returns the address an HTML document gives as its own, as written: the href of
// its first link element whose rel is "canonical", else the content of a meta element
// whose property is "og:url", else the address in the "saved from url=" comment a
// browser writes at the top of a page it saved; "" when it has none. A page saved from the web keeps
// them, so its search result can link to where it was published. It reads src's tokens
// up to the head's end or the body's start tag (the whole page when it has neither).
func URL(src []byte) string {
	z := html.NewTokenizer(bytes.NewReader(src))
	og := ""
	for {
		switch z.Next() {
		case html.ErrorToken:
			return og
		case html.CommentToken:
			if u := savedFrom(string(z.Text())); u != "" && og == "" {
				og = u
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); atom.Lookup(name) == atom.Head {
				return og
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch a := atom.Lookup(name); {
			case a == atom.Body:
				return og
			case !hasAttr || a != atom.Link && a != atom.Meta:
				continue
			case a == atom.Link:
				rel, href := attrs(z, "rel", "href")
				if href != "" && slices.Contains(strings.Fields(strings.ToLower(rel)), "canonical") {
					return href
				}
			case og == "":
				if prop, content := attrs(z, "property", "content"); strings.EqualFold(prop, "og:url") {
					og = content
				}
			}
		}
	}
}

// savedFrom returns the address in a comment that a browser writes at the top of a page
// it saved ("saved from url=(0041)http://www.example.com/1998/story.html"), or "".
func savedFrom(comment string) string {
	_, rest, ok := strings.Cut(strings.TrimSpace(comment), "saved from url=")
	if !ok {
		return ""
	}
	if strings.HasPrefix(rest, "(") {
		if i := strings.IndexByte(rest, ')'); i > 0 {
			rest = rest[i+1:]
		}
	}
	u, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return ""
	}
	return u
}

// attrs returns the values of the attributes named a and b of the tag z is at (its
// attributes are read, so once a tag), trimmed of white space.
func attrs(z *html.Tokenizer, a, b string) (va, vb string) {
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case a:
			va = strings.TrimSpace(string(v))
		case b:
			vb = strings.TrimSpace(string(v))
		}
		if !more {
			return va, vb
		}
	}
}

// UTF8 returns src in UTF-8, the encoding Doc and Text read, with the name of the
// encoding it was in: src itself, "utf-8", when it is valid UTF-8; else decoded from the
// encoding a browser reads it in, from a byte order mark or the charset its meta
// elements declare, else windows-1252 (golang.org/x/net/html/charset's
// DetermineEncoding, which reads the first 1024 bytes), as pages saved from the web
// before UTF-8 often are. A page that declares UTF-8 but is not (a page moved between
// systems), or that its encoding cannot decode, has its valid UTF-8 kept and its other
// bytes read as windows-1252, the commonest such mistake (textenc.Windows1252), with the
// name "utf-8+windows-1252", so that a caller can say so. It costs one pass of src, and
// a copy when it decodes.
func UTF8(src []byte) (out []byte, name string) {
	if utf8.Valid(src) {
		return src, "utf-8"
	}
	enc, name, _ := charset.DetermineEncoding(src, "text/html")
	if name != "utf-8" {
		if out, err := enc.NewDecoder().Bytes(src); err == nil && utf8.Valid(out) {
			return out, name
		}
	}
	out, _ = textenc.Windows1252(src)
	return out, MixedEncoding
}

// MixedEncoding is UTF8's name of a page that is not valid in the encoding it declares:
// its valid UTF-8 kept, its other bytes read as windows-1252.
const MixedEncoding = "utf-8+windows-1252"
