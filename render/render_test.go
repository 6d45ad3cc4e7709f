package render

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
)

// spans returns the spans of the given substrings of doc, each searched after the
// previous one.
func spans(t *testing.T, doc string, parts ...string) []qsc.Span {
	t.Helper()
	var out []qsc.Span
	from := 0
	for _, p := range parts {
		i := strings.Index(doc[from:], p)
		if i < 0 {
			t.Fatalf("%q not in %q after %d", p, doc, from)
		}
		out = append(out, qsc.Span{Start: from + i, End: from + i + len(p)})
		from += i + len(p)
	}
	return out
}

func TestRender(t *testing.T) {
	doc := "Intro. Police in  Syracuse, N.Y.,\narrested two men on Tuesday after a <long> investigation. Outro."
	sent := spans(t, doc, "Police in  Syracuse, N.Y.,\narrested two men on Tuesday after a <long> investigation.")[0]
	cases := []struct {
		name                    string
		kept, hits              []string
		plain, ellipsis, markup string
		markupPlain             string // HTML without ellipsis
	}{
		{
			name:        "cut inside and at the end",
			kept:        []string{"Police in  Syracuse", "arrested two men"},
			hits:        []string{"Police", "arrested"},
			plain:       "Police in Syracuse arrested two men",
			ellipsis:    "Police in Syracuse … arrested two men …",
			markup:      "<mark>Police</mark> in Syracuse … <mark>arrested</mark> two men …",
			markupPlain: "<mark>Police</mark> in Syracuse <mark>arrested</mark> two men",
		},
		{
			name:        "punctuation-only gap and dropped final period",
			kept:        []string{"Police in  Syracuse, N.Y.", "arrested two men on Tuesday after a <long> investigation"},
			hits:        []string{"Syracuse"},
			plain:       "Police in Syracuse, N.Y. arrested two men on Tuesday after a <long> investigation",
			ellipsis:    "Police in Syracuse, N.Y., arrested two men on Tuesday after a <long> investigation",
			markup:      "Police in <mark>Syracuse</mark>, N.Y., arrested two men on Tuesday after a &lt;long&gt; investigation",
			markupPlain: "Police in <mark>Syracuse</mark>, N.Y. arrested two men on Tuesday after a &lt;long&gt; investigation",
		},
		{
			name:        "cut at the start, lone period after a cut, phrase hit",
			kept:        []string{"two men", "Tuesday", "."},
			hits:        []string{"two", "men"},
			plain:       "two men Tuesday.",
			ellipsis:    "… two men … Tuesday …",
			markup:      "… <mark>two men</mark> … Tuesday …",
			markupPlain: "<mark>two men</mark> Tuesday.",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := qsc.Snippet{Sentence: sent, Kept: spans(t, doc, c.kept...), Hits: spans(t, doc, c.hits...)}
			if got := Plain(doc, s); got != c.plain {
				t.Errorf("Plain = %q, want %q", got, c.plain)
			}
			if got := Ellipsis(doc, s); got != c.ellipsis {
				t.Errorf("Ellipsis = %q, want %q", got, c.ellipsis)
			}
			if got := HTML(doc, s, true); got != c.markup {
				t.Errorf("HTML = %q, want %q", got, c.markup)
			}
			if got := HTML(doc, s, false); got != c.markupPlain {
				t.Errorf("HTML without ellipsis = %q, want %q", got, c.markupPlain)
			}
		})
	}
}

func TestRenderBadSpans(t *testing.T) {
	doc := "Caf\u00e9 <b>bold</b> & done."
	bad := []qsc.Snippet{
		{},
		{Kept: []qsc.Span{{Start: -5, End: 1000}}, Hits: []qsc.Span{{Start: 3, End: 4}}},
		{Kept: []qsc.Span{{Start: 10, End: 2}, {Start: 4, End: 12}, {Start: 0, End: 6}}},
		{Sentence: qsc.Span{Start: 50, End: -1}, Kept: []qsc.Span{{Start: 4, End: 5}}, Hits: []qsc.Span{{Start: 0, End: 100}}},
	}
	for _, s := range bad {
		for _, out := range []string{Plain(doc, s), Ellipsis(doc, s), HTML(doc, s, true)} {
			if !utf8.ValidString(out) {
				t.Errorf("%+v: invalid UTF-8 %q", s, out)
			}
		}
		checkHTML(t, HTML(doc, s, true))
	}
}

// checkHTML fails unless the only tags in out are balanced <mark> and </mark>.
func checkHTML(t *testing.T, out string) {
	t.Helper()
	open := false
	for rest := out; ; {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		rest = rest[i:]
		switch {
		case strings.HasPrefix(rest, "<mark>") && !open:
			open = true
		case strings.HasPrefix(rest, "</mark>") && open:
			open = false
		default:
			t.Fatalf("unexpected markup in %q", out)
		}
		rest = rest[1:]
	}
	if open || strings.ContainsAny(strings.NewReplacer("<mark>", "", "</mark>", "").Replace(out), "<>\"") {
		t.Fatalf("unbalanced or unescaped markup in %q", out)
	}
}

func FuzzHTML(f *testing.F) {
	f.Add("A <script>alert(1)</script> & \"x\" \xff\xfe done.", 0, 10, 2, 8, 3, 20)
	f.Add("Caf\u00e9 \u2028 ok", 1, 4, 3, 4, 0, 9)
	f.Fuzz(func(t *testing.T, doc string, k1, k2, h1, h2, s1, s2 int) {
		s := qsc.Snippet{Sentence: qsc.Span{Start: s1, End: s2},
			Kept: []qsc.Span{{Start: k1, End: k2}, {Start: k2 + 1, End: k2 + 4}},
			Hits: []qsc.Span{{Start: h1, End: h2}}}
		for _, e := range []bool{false, true} {
			out := HTML(doc, s, e)
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 %q", out)
			}
			checkHTML(t, out)
		}
		if !utf8.ValidString(Plain(doc, s)) || !utf8.ValidString(Ellipsis(doc, s)) {
			t.Fatal("invalid UTF-8")
		}
	})
}

// TestBudgetCounts checks the mapping of BudgetCounts and the contract it stands for: a
// snippet asked for with BudgetCounts(false) fits the budget as Plain shows it, one asked
// for with BudgetCounts(true) fits it as Ellipsis shows it, and the token budget holds a
// longer plain text than the display budget at some budget, or the plain renderings
// would lose nothing by counting the display.
func TestBudgetCounts(t *testing.T) {
	if got := BudgetCounts(false); got != qsc.BudgetTokens {
		t.Errorf("BudgetCounts(false) = %q, want %q", got, qsc.BudgetTokens)
	}
	if got := BudgetCounts(true); got != qsc.BudgetDisplay {
		t.Errorf("BudgetCounts(true) = %q, want %q", got, qsc.BudgetDisplay)
	}
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	doc := "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries that had troubled the north side of the city for months."
	query := []string{"arrested", "city"}
	longer := 0
	for budget := 30; budget <= 120; budget += 2 {
		var plain [2]string
		for i, ellipsis := range []bool{false, true} {
			sn, err := eng.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: doc, Query: query, Budget: budget,
				BudgetCounts: BudgetCounts(ellipsis), N: 1})
			if err != nil || len(sn) == 0 {
				continue // the terms do not fit this budget
			}
			shown := Plain(doc, sn[0])
			if ellipsis {
				shown = Ellipsis(doc, sn[0])
			}
			if n := utf8.RuneCountInString(shown); n > budget {
				t.Errorf("budget %d counting %s: %q has %d characters", budget, BudgetCounts(ellipsis), shown, n)
			}
			plain[i] = Plain(doc, sn[0])
		}
		if utf8.RuneCountInString(plain[0]) > utf8.RuneCountInString(plain[1]) {
			longer++
		}
	}
	if longer == 0 {
		t.Error("the token budget never holds more plain text than the display budget: the mapping changes nothing")
	}
}

// TestRenderLabel checks that every rendering shows a snippet's turn label before its
// kept runs, with a "…" where the turn's words before the sentence were cut.
func TestRenderLabel(t *testing.T) {
	doc := "[00:03:31] LEFÈVRE: No. Every new medium starts as somebody's hobby."
	sp := spans(t, doc, "[00:03:31] LEFÈVRE:", "Every new medium starts as somebody's hobby.")
	s := qsc.Snippet{Sentence: sp[1], Kept: spans(t, doc, "Every new medium", "hobby."), Hits: spans(t, doc, "hobby"), Label: &sp[0]}
	for _, c := range []struct{ got, want string }{
		{Plain(doc, s), "[00:03:31] LEFÈVRE: Every new medium hobby."},
		{Ellipsis(doc, s), "[00:03:31] LEFÈVRE: … Every new medium … hobby."},
		{HTML(doc, s, true), "[00:03:31] LEFÈVRE: … Every new medium … <mark>hobby</mark>."},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
