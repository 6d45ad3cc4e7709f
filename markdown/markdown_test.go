package markdown

import (
	"strings"
	"testing"
)

// TestText checks the text of a Markdown file as its rendering reads: markup left
// out, each block a paragraph, wrapped lines joined, hard breaks and code lines kept.
func TestText(t *testing.T) {
	src := "# Snippets that read well\n\n" +
		"**Why F1 and nesting fall short.** The Google compressions are choppy where the display\n" +
		"is not: 1.73 inner gaps in\n18.5% of them.\n\n" +
		"- A list item without a period\n" +
		"- Another with `code`, a [link](https://example.org) and ![an image](x.png)\n  that wraps\n\n" +
		"> A quote\n> on two lines.\n\n" +
		"| method | F1 |\n|---|--:|\n| ilp | 0.855 |\n| It rose. | \"Then\" it fell. |\n| | done |\n\n" +
		"```sh\ngo run ./cmd/qsc serve\nqsc help\n```\n\n" +
		"<div>raw html</div>\n\n---\n\n" +
		"Visit <https://example.org/x> now, a \\*star\\* and AT&amp;T &copy;.  \nA hard break above.\n"
	want := "Snippets that read well\n\n" +
		"Why F1 and nesting fall short. The Google compressions are choppy where the display is not: 1.73 inner gaps in 18.5% of them.\n\n" +
		"A list item without a period\n\n" +
		"Another with code, a link and an image that wraps\n\n" +
		"A quote on two lines.\n\n" +
		"method: ilp · F1: 0.855\n\nmethod: It rose. F1: \"Then\" it fell.\n\nF1: done\n\n" + // each cell after its column's label
		"go run ./cmd/qsc serve\n\nqsc help\n\n" + // each line of code a paragraph
		"raw html\n\n" + // what a browser shows of a block of HTML
		"Visit https://example.org/x now, a *star* and AT&T ©.\nA hard break above."
	if got := Text([]byte(src)); got != want {
		t.Errorf("Text:\n got %q\nwant %q", got, want)
	}
	// A footnote's mark is left out, and its text is a paragraph at the end.
	fn := "Rents rose to 57% by 2023.[^1] The rise was concentrated.\n\n[^1]: Source: the census.\n"
	if got, want := Text([]byte(fn)), "Rents rose to 57% by 2023. The rise was concentrated.\n\nSource: the census."; got != want {
		t.Errorf("Text with a footnote:\n got %q\nwant %q", got, want)
	}
	if got := Text([]byte("<!-- a comment -->\n\n<script>x()</script>\n\n***\n")); got != "" {
		t.Errorf("Text of markup alone = %q, want nothing", got)
	}
	// A <details>' summary shows, and so does the Markdown inside it; an MDX
	// component shows nothing.
	details := "<details>\n<summary>Node.js</summary>\n\nRun `npm install`.\n\n</details>\n\n<SignatureDemo showTimestamp />\n\n" +
		"<SignatureDemo secret={secretPrefix + 'example'} showTimestamp />\n\n<Tabs>\n<TabItem value=\"a\">\n\n</TabItem>\n</Tabs>\n\nUse <Kbd>Ctrl</Kbd> to copy.\n"
	if got, want := Text([]byte(details)), "Node.js\n\nRun npm install.\n\nUse Ctrl to copy."; got != want {
		t.Errorf("Text of details:\n got %q\nwant %q", got, want)
	}
}

// TestDoc checks that a first heading followed by more is the title and not the
// text, and that a file without one, or with nothing after it, keeps all its text.
func TestDoc(t *testing.T) {
	for _, c := range []struct{ src, title, body string }{
		{"# Trip to *Zürich*\n\nWe took the train.\n", "Trip to Zürich", "We took the train."},
		{"Trip notes\n==========\n\nWe took the train.\n", "Trip notes", "We took the train."},
		{"# Only a heading\n", "", "Only a heading"},
		{"We took the train.\n\n# Later\n\nMore.\n", "", "We took the train.\n\nLater\n\nMore."},
		{"#\n\nWe took the train.\n", "", "We took the train."},
		// Front matter is metadata: its title is the title, the rest is left out.
		{"---\ntitle: \"Create your account\"\nslug: create-account\ntags: [onboarding, account]\n---\n\nOpen the app.\n", "Create your account", "Open the app."},
		{"---\r\ntitle: Refunds\r\n---\r\n# Refunds\r\n\r\nWe refund in 5 days.\r\n", "Refunds", "We refund in 5 days."},
		{"---\ntitle: Refunds\n---\n# How to ask\n\nWrite to us.\n", "Refunds", "How to ask\n\nWrite to us."},
		{"+++\ntitle = 'Release 3.3.0'\ndate = 2026-05-19\n+++\nReleased today.\n", "Release 3.3.0", "Released today."},
		{"---\nlayout: post\n---\n# Notes\n\nText.\n", "Notes", "Text."},
		{"---\nnot closed\n\nText.\n", "", "not closed\n\nText."},
		// MDX: the imports and exports it opens with are code; its components raw HTML.
		{"---\ntitle: QuickBooks\n---\nimport Tabs from '@theme/Tabs';\nexport const meta = {};\n\n# QuickBooks\n\n<Tabs>\n\nConnect your books.\n\n</Tabs>\n", "QuickBooks", "Connect your books."},
	} {
		title, body := Doc([]byte(c.src))
		if title != c.title || body != c.body {
			t.Errorf("Doc(%q) = %q, %q; want %q, %q", c.src, title, body, c.title, c.body)
		}
	}
}

// TestTable checks a table's rows: each cell after its column's label, the header row
// then left out; a header that is no row of labels (a sentence, one cell, a table of
// the header alone) is a row as the others.
func TestTable(t *testing.T) {
	checkEach(t, "Text", Text, map[string]string{
		"| Plan | Price | Users |\n|---|---|---|\n| Team | $50 | 10 |\n| Solo | $10 | |\n": "Plan: Team · Price: $50 · Users: 10\n\nPlan: Solo · Price: $10",
		"| | Q1 | Q2 |\n|---|---|---|\n| Revenue | 4.1 | 4.6 |\n":                          "Revenue · Q1: 4.1 · Q2: 4.6",
		"| Plan | Price |\n|---|---|\n":                                                    "Plan · Price",
		"| Plan | |\n|---|---|\n| Team | $50 |\n":                                          "Plan\n\nTeam · $50",
		"| This is what we offer. | Price |\n|---|---|\n| Team | $50 |\n":                  "This is what we offer. Price\n\nTeam · $50",
	})
}

// checkEach checks that f (named name) gives each source its text.
func checkEach(t *testing.T, name string, f func([]byte) string, cases map[string]string) {
	t.Helper()
	for src, want := range cases {
		if got := f([]byte(src)); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, src, got, want)
		}
	}
}

// TestURL checks the address a front matter gives: url before permalink, quotes off,
// nothing from the text or from a block that is not front matter.
func TestURL(t *testing.T) {
	checkEach(t, "URL", URL, map[string]string{
		"---\ntitle: Refunds\nurl: /billing/refunds/\n---\nText.\n":                         "/billing/refunds/",
		"---\npermalink: \"/billing/refunds.html\"\nurl: https://help.example.com/r\n---\n": "https://help.example.com/r",
		"+++\ntitle = 'Release'\nurl = '/releases/3.3/'\n+++\nReleased.\n":                  "/releases/3.3/",
		"---\npermalink: /faq/\n---\n":                                                      "/faq/",
		"---\ntitle: x\n  url: /nested/\n---\n":                                             "",
		"# Title\n\nurl: /not/front/matter\n":                                               "",
		"---\nurl: /never/closed\n":                                                         "",
	})
}

// TestAdmonitions checks that an admonition's fences are no text: its content reads as
// paragraphs, its title as one; ":::" in code or inside a line stays.
func TestAdmonitions(t *testing.T) {
	checkEach(t, "Text", Text, map[string]string{
		":::note\nError RBX-4290 is returned per token.\n:::\n\nNext.\n":          "Error RBX-4290 is returned per token.\n\nNext.",
		":::caution Rotate keys\nIf server.tls.cert_file is set, restart.\n:::\n": "Rotate keys\n\nIf server.tls.cert_file is set, restart.",
		"::::tip[Faster builds]\nUse the cache.\n\n:::info\nInner.\n:::\n::::\n":  "Faster builds\n\nUse the cache.\n\nInner.",
		"::: warning\nPandoc's.\n:::\n\n::: {.note}\nAlso.\n:::\n":                "Pandoc's.\n\nAlso.",
		"```\n:::note\n```\n\nThe ratio a:::b stays.\n":                           ":::note\n\nThe ratio a:::b stays.",
	})
}

// TestSlug checks the slug a front matter gives, and that it is no URL.
func TestSlug(t *testing.T) {
	src := []byte("---\ntitle: Refunds\nslug: '/refunds'\n---\nText.\n")
	if got := Slug(src); got != "/refunds" {
		t.Errorf("Slug = %q", got)
	}
	if got := URL(src); got != "" {
		t.Errorf("URL of a slug = %q", got)
	}
}

// TestMath checks that TeX math between dollars reads as typed: Markdown's escapes and
// emphasis do not apply inside it ("\," is no escaped comma, "_" no emphasis), while
// dollar amounts, code spans and fenced code are not math.
func TestMath(t *testing.T) {
	for src, want := range map[string]string{
		`a peak near $k_B T \approx 0.42\,\Delta$, not a rise.`: `a peak near $k_B T \approx 0.42\,\Delta$, not a rise.`,
		`With $x_i$ and $y_i$ the energies.`:                    `With $x_i$ and $y_i$ the energies.`,
		`$$Z = \sum_i e^{-\beta E_i}$$ holds.`:                  `$$Z = \sum_i e^{-\beta E_i}$$ holds.`,
		`It cost $5 and $10, with *emphasis*.`:                  `It cost $5 and $10, with emphasis.`,
		"See `a $b_c$ d` here.":                                 "See a $b_c$ d here.",
		"```\necho $HOME $x_1\n```":                             "echo $HOME $x_1",
		`An escaped \$ and a $ alone.`:                          `An escaped $ and a $ alone.`,
	} {
		if got := Text([]byte(src)); got != want {
			t.Errorf("Text(%q) = %q, want %q", src, got, want)
		}
	}
}

// FuzzMath checks that literalMath never panics, changes no line without a "$", and
// only adds backslashes (so the text is the same with them removed).
func FuzzMath(f *testing.F) {
	for _, s := range []string{"$a_b$", "$$x$$ and $", "`$a$` $b\\,c$", "```\n$x$\n```\n$y_1$", "$5 and $10", "\\$a$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := literalMath([]byte(s))
		if !strings.Contains(s, "$") && string(out) != s {
			t.Fatalf("changed %q without math: %q", s, out)
		}
		if strings.ReplaceAll(string(out), "\\", "") != strings.ReplaceAll(s, "\\", "") {
			t.Fatalf("literalMath(%q) = %q: more than backslashes added", s, out)
		}
		_ = Text([]byte(s))
	})
}

// TestCheckFrontMatter checks the front matter mistakes reported to a file's author, with
// their lines, and that valid front matter, multi-line values among it, passes.
func TestCheckFrontMatter(t *testing.T) {
	for _, c := range []struct {
		src, want string
		line      int
	}{
		{"---\ntitle: \"Data residency\nslug: /data-residency\ntags: [compliance, gdpr\n---\n# Data\n", `the value of "title" opens a quote`, 2},
		{"---\ntitle: Fine\ntags: [compliance, gdpr\n---\n", `the value of "tags" opens a bracket`, 3},
		{"---\ntitle: Status page subscriptions\nslug: /status\n\n# Status\n\nText.\n", "never closed", 1},
		{"+++\ntitle = \"Open\n+++\n", `the value of "title" opens a quote`, 2},
		{"---\ntitle: \"Fine\"\ndescription: \"A long\n  description\"\ntags: [a,\n  b]\n---\nText.\n", "", 0},
		{"---\ntitle: It's fine\n---\n", "", 0},
		{"# No front matter\n", "", 0},
	} {
		got, line := CheckFrontMatter([]byte(c.src))
		if !strings.Contains(got, c.want) || (c.want == "") != (got == "") || line != c.line {
			t.Errorf("CheckFrontMatter(%q) = %q, %d; want %q, %d", c.src, got, line, c.want, c.line)
		}
	}
}
