package htmltext

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxTreeBytes is the largest page read from its parse tree: the tree takes some 15
// times the page's size while it is read, so that a larger page (a book in one file) is
// read from its tokens (readTokens), in memory of the size of its text.
const maxTreeBytes = 16 << 20

// The parts of a page that a pass of readTokens reads.
const (
	scopeBody     = iota // the whole body
	scopeMain            // the first main element (or element of role main)
	scopeArticles        // the article elements
)

// readTokens is read for a page over maxTreeBytes, or nested deeper than the parser's
// 512 elements (hundreds of unclosed <div> or <font> tags), which the parser refuses: the
// same reading from the page's tokens, without a tree, each pass O(len(src)) in time and
// taking memory of the size of the text. A first pass reads the body and notes whether
// the page has a main element or articles; a second reads those alone; a third reads the
// body with its boilerplate when the others read nothing. Without the tree, an element
// ends at its end tag, as in a page whose tags are closed: an element left out whose
// end tag is missing leaves out the rest of the page, and a form is read unless it is a
// search (its controls are left out all the same), as which forms wrap the page is not
// known; and an element named as furniture (furniture) is left out even when it wraps
// the content (wraps), which the tokens do not show.
func readTokens(src []byte, split bool) (title, body string) {
	all := tokenPass(src, scopeBody, false)
	r := all
	switch {
	case all.hasMain:
		r = tokenPass(src, scopeMain, false)
	case all.hasArticle:
		r = tokenPass(src, scopeArticles, false)
	}
	if r.w.out.Len() == 0 {
		r = all
	}
	if r.w.out.Len() == 0 {
		r = tokenPass(src, scopeBody, true)
	}
	if !split {
		return "", r.w.out.String()
	}
	return r.split(all.title)
}

// tokenReader is one pass of readTokens.
type tokenReader struct {
	reader
	title               string // the first title element's text
	hasMain, hasArticle bool   // the page has a main element, an article (outside those left out)
}

// tokenPass reads the text of src's tokens in scope, its boilerplate too when lenient.
func tokenPass(src []byte, scope int, lenient bool) *tokenReader {
	z := html.NewTokenizer(bytes.NewReader(src))
	r := &tokenReader{reader: reader{lenient: lenient}}
	w := &r.w
	var (
		skip      []byte // the tag of the element left out that is open, or nil
		skipDepth int    // how many elements of that tag are open inside it, itself counted
		in        []byte // the tag of the main or article being read, or nil (scopeBody reads all)
		inDepth   int    // likewise
		mainDone  bool   // the main element was read
		pre       int    // preformatted elements open
		preText   []byte // their text
		articles  int    // main and article elements open
		head      = -1   // where the open heading's paragraphs begin (w.starts), or -1
		headAtom  atom.Atom
		attrs     []html.Attribute
	)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		reading := skip == nil && (scope == scopeBody || in != nil)
		if tt == html.TextToken {
			switch {
			case !reading:
			case pre > 0:
				preText = append(preText, z.Text()...)
			default:
				w.text(string(z.Text()))
			}
			continue
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken && tt != html.EndTagToken {
			continue // comments, doctypes
		}
		name, more := z.TagName()
		a := atom.Lookup(name)
		if tt == html.EndTagToken {
			switch {
			case skip != nil:
				if bytes.Equal(name, skip) {
					if skipDepth--; skipDepth == 0 {
						skip = nil
					}
				}
				continue
			case in != nil && bytes.Equal(name, in):
				if inDepth--; inDepth == 0 {
					w.flush()
					in, mainDone = nil, scope == scopeMain
				}
			}
			if !reading {
				continue
			}
			switch {
			case preformatted(a):
				if pre > 0 {
					if pre--; pre == 0 {
						w.pre(preText)
						preText = preText[:0]
					}
				}
			case a == atom.Main || a == atom.Article:
				articles = max(0, articles-1)
				w.flush()
			case heading(a) && head >= 0:
				w.flush()
				w.heading(headAtom, head)
				head = -1
			case a == atom.Tr:
				w.rowEnd()
			case a == atom.Table:
				w.tableEnd()
			case block(a):
				w.flush()
			}
			continue
		}
		opens := tt == html.StartTagToken && !void(a)
		if a == atom.Title && tt == html.StartTagToken && (skip == nil || string(skip) == "head") {
			if z.Next() == html.TextToken && r.title == "" {
				r.title = collapse(string(z.Text()))
			}
			continue // the title's end tag, or what came instead, is passed over
		}
		if skip != nil {
			if opens && bytes.Equal(name, skip) {
				skipDepth++
			}
			continue
		}
		attrs = attrs[:0]
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			attrs = append(attrs, html.Attribute{Key: string(k), Val: string(v)})
		}
		n := html.Node{Type: html.ElementNode, DataAtom: a, Data: string(name), Attr: attrs}
		if (a != atom.Form || role(&n) == "search") && leftOut(&n, articles > 0, lenient) {
			if opens {
				skip, skipDepth = append([]byte(nil), name...), 1
			}
			continue
		}
		isMain := a == atom.Main || role(&n) == "main"
		r.hasMain = r.hasMain || isMain
		r.hasArticle = r.hasArticle || a == atom.Article
		switch {
		case in != nil:
			if opens && bytes.Equal(name, in) {
				inDepth++
			}
		case opens && !mainDone && (scope == scopeMain && isMain || scope == scopeArticles && a == atom.Article):
			in, inDepth = append([]byte(nil), name...), 1
		case scope != scopeBody:
			continue
		}
		switch {
		case pre > 0:
			if a == atom.Br {
				preText = append(preText, '\n')
			} else if preformatted(a) && opens {
				pre++
			}
		case a == atom.Br:
			w.lineBreak()
		case preformatted(a):
			if opens {
				w.flush()
				pre = 1
			}
		case a == atom.Td || a == atom.Th:
			w.cellStart(a == atom.Th, spanOf(&n, "colspan"), spanOf(&n, "rowspan"))
		case a == atom.Table && opens:
			w.tableStart()
		case a == atom.Tr && opens:
			w.rowStart()
		case heading(a):
			w.flush()
			if head < 0 && opens {
				head, headAtom = len(w.starts), a
			}
		case block(a):
			w.flush()
			if opens && (a == atom.Main || a == atom.Article) {
				articles++
			}
		}
	}
	if pre > 0 {
		w.pre(preText)
	}
	for len(w.tables) > 0 {
		w.tableEnd() // tables left open at the page's end
	}
	w.flush()
	if head >= 0 {
		w.heading(headAtom, head)
	}
	return r
}

// void reports whether the element a has no end tag (br, img, input…).
func void(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Keygen, atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}
