package htmltext

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// pages are realistic pages and what Doc reads of them: each case is also read by the
// tokens (readTokens), which must read the same of a page whose tags are closed.
var pages = []struct {
	name, src, title, body string
	unclosed               bool // tags left open: the tokens read it otherwise
}{
	{
		name:  "help-center article with nav, header, footer and a cookie banner",
		src:   "testdata/help-article.html",
		title: "Reset your password", // the first heading: the title less the site's name
		body: "Updated 3 days ago\n\n" +
			"If you forgot your password, reset it from the sign-in page. It takes about two minutes & needs your e-mail.\n\n" +
			"Steps\n\n" +
			"Open the sign-in page.\n\n" +
			"Click Forgot password?\n\n" +
			"Check your e-mail\nand follow the link.\n\n" +
			"Note: the link expires after an hour.",
	},
	{
		name: "scripts, styles, templates, noscript, an SVG icon and comments",
		src: `<html><head><title>Release notes</title><script>var title = "<h1>not this</h1>";</script></head>
<body><!-- a comment --><div id="app">
<h1>Release notes</h1>
<p><svg viewBox="0 0 10 10"><title>Info icon</title><text>svg text</text></svg>Version 3.3 is out.</p>
<script>document.write("<p>written by script</p>")</script>
<noscript><p>Please enable JavaScript.</p></noscript>
<template><p>A template row</p></template>
<style>p { margin: 0 }</style>
<p onclick="track()">It reads HTML.</p>
<iframe src="https://example.com/video">Your browser cannot show frames.</iframe>
<video src="demo.mp4">Your browser does not support video.</video>
</div></body></html>`,
		title: "Release notes",
		body:  "Version 3.3 is out.\n\nIt reads HTML.",
	},
	{
		name: "an old page's furniture, named by class and id, without HTML5's elements",
		src: `<html><head><title>KZRM turns 75</title></head><body class="single has-sidebar">
<div id="cookie-banner">We use cookies. <a href="#">Accept</a></div>
<div id="header"><ul class="breadcrumbs"><li>Home</li><li>Radio</li></ul></div>
<div class="content with-sidebar"><h1>KZRM turns 75</h1>
<p>The station first went on the air in 1949.</p>
<div class="share-buttons">Share on Digg</div>
<div class="ad-slot">Low mortgage rates!</div></div>
<div id="sidebar"><h3>Blogroll</h3><p>Instapundit</p></div>
<div class="comments"><p>Salam Pax is a hoax, mark my words.</p></div>
<div id="footer">© Harbor City Courier</div></body></html>`,
		title: "KZRM turns 75",
		body:  "The station first went on the air in 1949.",
	},
	{
		name: "an inline element named as furniture is text: a highlighter's comment",
		src: `<title>Retry</title><div class="content"><p>Retry as follows.</p><pre><code><span class="hljs-comment"># back off</span>
sleep 2</code></pre></div>`,
		title: "Retry",
		body:  "Retry as follows.\n\n# back off\n\nsleep 2",
	},
	{
		name: "tables: labels across spans, row headers, a nested table, a table without a header, a header alone",
		src: `<p>Limits.</p><table>
<tr><th>Plan</th><th colspan="2">Seats and storage</th><th>Support</th></tr>
<tr><th>Team</th><td>10</td><td>1 TB</td><td>Email</td></tr>
<tr><th>Enterprise</th><td colspan="2">Unlimited</td><td>Phone<table><tr><th>Hours</th><th>Days</th></tr><tr><td>9-17</td><td>Mon-Fri</td></tr></table></td></tr>
</table>
<table><tr><td>Region</td><td>EU</td></tr><tr><td>Status</td><td>Up</td></tr></table>
<table><tr><th>Name</th><th>Role</th></tr></table>
<table><tr><th>Zone</th><th>Owner</th></tr><tr><td rowspan="2">A</td><td>Ana</td></tr><tr><td>Ben</td></tr></table>`,
		body: "Limits.\n\nPlan: Team · Seats and storage: 10 · 1 TB · Support: Email\n\n" +
			"Plan: Enterprise · Seats and storage: Unlimited · Support: Phone\n\nHours: 9-17 · Days: Mon-Fri\n\n" +
			"Region · EU\n\nStatus · Up\n\nName · Role\n\nZone: A · Owner: Ana\n\nBen",
	},
	{
		name: "tables: a header row, empty cells, cells that end sentences, a caption, a cell of paragraphs",
		src: `<title>Plans</title><h1>Plans</h1><p>Compare them.</p><table>
<caption>Prices in 2026</caption>
<thead><tr><th>Plan</th><th>Price</th><th>Note</th></tr></thead>
<tbody>
<tr><td>Free</td><td>$0</td><td></td></tr>
<tr><td>Pro</td><td></td><td>It renews. Cancel any time.</td></tr>
<tr><td>It rose.</td><td>"Then" it fell.</td></tr>
<tr><td><p>First paragraph.</p><p>Second paragraph.</p></td></tr>
</tbody></table>`,
		title: "Plans",
		// Each cell after its column's label (package tablerow), the header row then left
		// out; a row cut into paragraphs by its cell's blocks is read without labels.
		body: "Compare them.\n\nPrices in 2026\n\nPlan: Free · Price: $0\n\n" +
			"Plan: Pro · Note: It renews. Cancel any time.\n\nPlan: It rose. Price: \"Then\" it fell.\n\nFirst paragraph.\n\nSecond paragraph.",
	},
	{
		name: "lists, nested, and a definition list",
		src: `<title>Glossary</title><body><h2>Terms</h2><ul>
<li>Budget
  <ul><li>characters of a snippet</li><li>counted as shown</li></ul>
</li>
<li><p>Query</p></li>
</ul>
<dl><dt>Token</dt><dd>A word or a mark.</dd><dt>Sentence</dt><dd>Tokens that end with a period.</dd></dl>
<blockquote><p>Quoted words.</p></blockquote><figure><img src="a.png" alt="a chart"><figcaption>Figure 1: the chart.</figcaption></figure>
</body>`,
		title: "Glossary",
		body: "Terms\n\nBudget\n\ncharacters of a snippet\n\ncounted as shown\n\nQuery\n\nToken\n\nA word or a mark.\n\n" +
			"Sentence\n\nTokens that end with a period.\n\nQuoted words.\n\nFigure 1: the chart.",
	},
	{
		name: "each line of pre a paragraph; code spans, entities and blank lines inside",
		src: "<title>Install</title><p>Run:</p><pre>\n<code><span class=k>go</span> install ./cmd/qsc   \n\n\n" +
			"echo &quot;a &lt;b&gt;&quot;\n\tindented</code>\n</pre><p>Done.</p>",
		title: "Install",
		body:  "Run:\n\ngo install ./cmd/qsc\n\necho \"a <b>\"\n\n\tindented\n\nDone.",
	},
	{
		name: "entities and white space as a browser shows them",
		src: "<title>Caf&eacute; &amp; bar</title><p>AT&amp;T&nbsp;&nbsp;and\n\t  caf&eacute; &#8220;quoted&#8221; &lt;tag&gt; inter&shy;national</p>" +
			"<p>one<b>two</b> three <i> four </i>five</p><p>   </p><p>a<br>b<br><br>c<br><br><br>d</p>",
		title: "Café & bar",
		body:  "AT&T and café “quoted” <tag> international\n\nonetwo three four five\n\na\nb\n\nc\n\nd",
	},
	{
		name:  "no title element: the first h1 is the title, and leaves the text",
		src:   `<body><nav>Home · Docs</nav><h1>Webhooks</h1><p>Every request is signed.</p><h2>Retries</h2><p>We retry for a day.</p></body>`,
		title: "Webhooks",
		body:  "Every request is signed.\n\nRetries\n\nWe retry for a day.",
	},
	{
		name:  "no title and no h1",
		src:   `<div><h2>Notes</h2><p>Taken on Tuesday.</p></div>`,
		title: "",
		body:  "Notes\n\nTaken on Tuesday.",
	},
	{
		name:  "a heading that is all the text stays",
		src:   `<title>Only a heading</title><h1>Only a heading</h1>`,
		title: "Only a heading",
		body:  "Only a heading",
	},
	{
		name:  "a first heading that is not the title stays",
		src:   `<title>Tidewater</title><h1>Refunds</h1><p>We refund in 5 days.</p>`,
		title: "Tidewater",
		body:  "Refunds\n\nWe refund in 5 days.",
	},
	{
		name:  "the site's name before the title",
		src:   `<title>Tidewater Help » Refunds</title><h2>refunds</h2><p>We refund in 5 days.</p>`,
		title: "Refunds",
		body:  "We refund in 5 days.",
	},
	{
		name: "articles without main: each read, an aside's teaser not",
		src: `<title>Blog</title><header><h1>The blog</h1></header>
<article><h2>First post</h2><p>Hello.</p></article>
<aside><article><h2>Popular</h2><p>Teaser.</p></article></aside>
<article><header><h2>Second post</h2><p>By Ana</p></header><p>Again.</p><footer>3 comments</footer></article>`,
		title: "Blog",
		body:  "First post\n\nHello.\n\nSecond post\n\nBy Ana\n\nAgain.",
	},
	{
		name: "hidden, aria-hidden and display: none left out; hidden=until-found and details read",
		src: `<title>FAQ</title><main><p hidden>Hidden.</p><p aria-hidden="TRUE">Icon.</p><p style="color: red; DISPLAY : none !important">Styled away.</p>
<p style="visibility:hidden">Invisible.</p><div hidden="until-found"><p>Found by search.</p></div>
<details><summary>Can I pay by invoice?</summary><p>Yes, on the Pro plan.</p></details>
<dialog><p>A modal.</p></dialog><p role="navigation">Prev · Next</p><p>Shown.</p></main>`,
		title: "FAQ",
		body:  "Found by search.\n\nCan I pay by invoice?\n\nYes, on the Pro plan.\n\nShown.",
	},
	{
		name: "a page wrapped in a form (ASP.NET) is read; a search form is not",
		src: `<title>Intranet</title><body><form id="aspnetForm" method="post"><input type="hidden" name="__VIEWSTATE" value="x">
<div role="search"><input name="q"><button>Go</button></div>
<h1>Holidays</h1><p>The office closes on 24 December.</p><select><option>English</option></select></form></body>`,
		title: "Intranet",
		body:  "Holidays\n\nThe office closes on 24 December.",
	},
	{
		name:  "a page of a menu alone is read, menu and all",
		src:   `<title>Sitemap</title><nav><ul><li><a href="/a">Pricing</a></li><li><a href="/b">Docs</a></li></ul></nav>`,
		title: "Sitemap",
		body:  "Pricing\n\nDocs",
	},
	{
		name:  "role=main, ruby annotations and MathML",
		src:   `<div role="banner">Site</div><div role="main"><p><ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を読む。</p><p>Area <math><mi>r</mi><annotation encoding="TeX">r</annotation></math>.</p></div><div>Outside.</div>`,
		title: "",
		body:  "漢字を読む。\n\nArea r.",
	},
	{
		name:     "unclosed tags, as a browser closes them",
		src:      `<title>Old page</title><body><p>One<p>Two<ul><li>Three<li>Four</ul><table><tr><td>a<td>b<tr><td>c</table>`,
		title:    "Old page",
		body:     "One\n\nTwo\n\nThree\n\nFour\n\na · b\n\nc",
		unclosed: false, // the tokens read this the same: each tag begins its block
	},
	{
		name:     "an unclosed element in a hidden one ends with its parent",
		src:      `<article><div hidden>Hidden.</article><p>After.</p>`,
		body:     "After.",
		unclosed: true,
	},
}

// TestDoc checks the title and text of realistic pages, and that the tokens of each
// (readTokens, for pages too large or too deep for the tree) read the same.
func TestDoc(t *testing.T) {
	for _, c := range pages {
		src := []byte(c.src)
		if strings.HasPrefix(c.src, "testdata/") {
			var err error
			if src, err = os.ReadFile(c.src); err != nil {
				t.Fatal(err)
			}
		}
		title, body := Doc(src)
		if title != c.title || body != c.body {
			t.Errorf("%s:\nDoc = %q,\n%q\nwant %q,\n%q", c.name, title, body, c.title, c.body)
		}
		if c.unclosed {
			continue
		}
		if tt, tb := readTokens(src, true); tt != title || tb != body {
			t.Errorf("%s: the tokens read %q,\n%q\nthe tree %q,\n%q", c.name, tt, tb, title, body)
		}
		if _, tb := readTokens(src, false); tb != Text(src) {
			t.Errorf("%s: the tokens' text %q, the tree's %q", c.name, tb, Text(src))
		}
	}
}

// TestText checks that Text is the text a browser shows, its first heading and all,
// without the title element.
func TestText(t *testing.T) {
	src := []byte(`<html><head><title>Refunds</title></head><body><h1>Refunds</h1><p>We refund <a href="/x">in 5 days</a>.</p></body></html>`)
	if got, want := Text(src), "Refunds\n\nWe refund in 5 days."; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	for _, src := range []string{"", "   ", "<html></html>", "<script>x()</script>", "<!-- only a comment -->", "<img src=a.png alt=Alt>"} {
		if got := Text([]byte(src)); got != "" {
			t.Errorf("Text(%q) = %q, want nothing", src, got)
		}
	}
	if got := Text([]byte("\ufeff<p>After a byte order mark.</p>")); got != "After a byte order mark." {
		t.Errorf("Text with a byte order mark = %q", got)
	}
}

// TestDeepAndLarge checks that a page the parser refuses, nested deeper than 512
// elements, and one over maxTreeBytes are read from their tokens: main alone, its text
// whole.
func TestDeepAndLarge(t *testing.T) {
	deep := "<title>Deep</title><nav>Menu</nav><main>" + strings.Repeat("<div><font>", 400) + "<h1>Deep</h1><p>Nested text &amp; more.</p>" +
		strings.Repeat("</font></div>", 400) + "</main><footer>Footer</footer>"
	title, body := Doc([]byte(deep))
	if title != "Deep" || body != "Nested text & more." {
		t.Errorf("a deep page: %q, %q", title, body)
	}
	if testing.Short() {
		return
	}
	var b strings.Builder
	b.WriteString("<title>Large</title><nav>Menu</nav><main>")
	para := "<p>A paragraph of the large page, with a <a href=/x>link</a>.</p>\n"
	n := maxTreeBytes/len(para) + 1
	for range n {
		b.WriteString(para)
	}
	b.WriteString("</main><footer>Footer</footer>")
	title, body = Doc([]byte(b.String()))
	if title != "Large" || strings.Count(body, "\n\n") != n-1 || strings.Contains(body, "Menu") || strings.Contains(body, "Footer") {
		t.Errorf("a large page: %q, %d paragraphs, %q…", title, strings.Count(body, "\n\n")+1, body[:min(len(body), 200)])
	}
}

// TestIsFile checks the names of HTML files.
func TestIsFile(t *testing.T) {
	for name, want := range map[string]bool{"a.html": true, "b.HTM": true, "dir/c.Html": true, "d.xhtml": true, "e.shtml": true, "e.md": false, "html": false, "f.html.bak": false} {
		if IsFile(name) != want {
			t.Errorf("IsFile(%q) = %v", name, !want)
		}
	}
}

// FuzzText checks that no input makes Text or Doc panic, that the text is valid UTF-8
// (of valid input), has no white space at its ends and no more than one blank line in a
// row, and that a text without markup reads as its words.
func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", "plain text", "<p>a<p>b", "<title>T</title><h1>T</h1><p>x", "<table><tr><td>a<td>b</table>",
		"<pre>\n a\n\n\n b</pre>", "<main><div hidden><p>x</main>", "<b><div>x</b>" + strings.Repeat("<a><div>", 300),
		"a&nbsp;b&shy;c &amp; &lt;", "<svg><title>x</title></svg><math><annotation>y</annotation></math>", "<br><br>a<br><br>",
		"<td>a</td><td></td><td>b.</td>", "<form><h1>x</h1></form>", "<plaintext>a<b>", "<xmp><p></xmp>", "<select><option>a",
		"\ufeff<p>bom</p>", "<p style=\"display:none\">x</p><p hidden=until-found>y</p>", "<frameset><frame></frameset>",
		"<title>A | B</title><header><h1>A</h1></header><article><h1>A</h1>b</article>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text := Text([]byte(s))
		title, body := Doc([]byte(s))
		_, _ = readTokens([]byte(s), true)
		for _, out := range []string{text, body, title} {
			if utf8.ValidString(s) && !utf8.ValidString(out) {
				t.Fatalf("%q: invalid UTF-8 %q", s, out)
			}
			if strings.Trim(out, "\n") != out || strings.TrimSpace(title) != title {
				t.Fatalf("%q: white space at the ends of %q", s, out)
			}
		}
		if strings.Contains(text, "\n\n\n") {
			t.Fatalf("%q: more than a blank line in %q", s, text)
		}
		if strings.ContainsAny(s, "<&\x00") || !utf8.ValidString(s) {
			return
		}
		words := strings.Fields(strings.ReplaceAll(strings.TrimPrefix(s, "\ufeff"), "\u00ad", ""))
		if got := strings.Fields(strings.ReplaceAll(text, "\u00a0", " ")); strings.Join(got, " ") != strings.Join(words, " ") {
			t.Fatalf("%q without markup reads %q", s, text)
		}
	})
}

// TestURL checks the address a page gives as its own: a canonical link first, else
// og:url, never a link of the body or another rel.
func TestURL(t *testing.T) {
	for src, want := range map[string]string{
		`<html><head><link rel="stylesheet" href="/a.css"><link rel="canonical" href="https://help.example.com/billing/refunds"></head><body>x</body></html>`: "https://help.example.com/billing/refunds",
		`<head><meta property="og:url" content="https://news.example.org/2026/11/story"><LINK REL="Canonical" HREF=" /story "></head>`:                        "/story",
		`<head><meta property="og:url" content="https://news.example.org/s"></head><body><link rel="canonical" href="/late"></body>`:                          "https://news.example.org/s",
		`<head><title>No address</title></head><body><a rel="canonical" href="/x">x</a></body>`:                                                               "",
		`<p>A fragment <link rel="canonical" href="/in-body">`:                                                                                                "/in-body",
		"<!-- saved from url=(0047)http://www.harborcourier.example/1998/online.html -->\n<html><head><title>x</title></head>":                                "http://www.harborcourier.example/1998/online.html",
		`<!-- saved from url=(0014)about:internet --><html><head><meta property="og:url" content="https://a.example/s"></head>`:                               "https://a.example/s",
		``: "",
	} {
		if got := URL([]byte(src)); got != want {
			t.Errorf("URL(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestUTF8 checks that a page in another encoding is decoded as a browser decodes it,
// and that one which says UTF-8 but is not keeps its UTF-8 and has its other bytes read
// as windows-1252, under a name that says so.
func TestUTF8(t *testing.T) {
	for _, c := range []struct{ src, want, name string }{
		{"<p>Café</p>", "<p>Café</p>", "utf-8"},
		{"<meta charset=\"windows-1252\"><p>Caf\xe9 cr\xe8me \x93quoted\x94</p>", "<meta charset=\"windows-1252\"><p>Café crème “quoted”</p>", "windows-1252"},
		{"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><p>Gr\xfc\xdfe</p>", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><p>Grüße</p>", "windows-1252"},
		{"<p>na\xefve</p>", "<p>naïve</p>", "windows-1252"},
		{"<meta charset=\"shift_jis\"><p>\x93\x8c\x8b\x9e</p>", "<meta charset=\"shift_jis\"><p>東京</p>", "shift_jis"},
		{"<meta charset=\"utf-8\"><p>Caf\xe9</p>", "<meta charset=\"utf-8\"><p>Café</p>", MixedEncoding},
		{"<meta charset=\"utf-8\"><p>Crème \x93br\xfbl\xe9e\x94</p>", "<meta charset=\"utf-8\"><p>Crème “brûlée”</p>", MixedEncoding},
	} {
		out, name := UTF8([]byte(c.src))
		if string(out) != c.want || name != c.name {
			t.Errorf("UTF8(%q) = %q, %q; want %q, %q", c.src, out, name, c.want, c.name)
		}
	}
	if got := Text([]byte("<meta charset=windows-1252><p>Caf\xe9</p>")); got != "Café" {
		t.Errorf("Text of a windows-1252 page: %q", got)
	}
	if got := Text([]byte("<meta charset=utf-8><p>Caf\xe9</p>")); got != "Café" {
		t.Errorf("Text of a page that says UTF-8 and is not: %q", got)
	}
}
