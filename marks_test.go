package qsc_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clipperhouse/uax29/v2/graphemes"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/render"
)

// TestMarksOnGraphemes checks that the marks and the kept runs of snippets fall on whole
// characters (grapheme clusters: never inside a UTF-8 sequence, between a letter and its
// combining marks, inside an emoji sequence, a Hangul syllable written in jamo or a
// Devanagari conjunct) and on whole words, in every script of the fixtures and in text
// written with combining marks, in plain and HTML renderings (issue 35, point 4).
func TestMarksOnGraphemes(t *testing.T) {
	e := newAnnotatingEngine(t)
	cases := []struct{ doc, term string }{
		{"The cafe\u0301 in Zu\u0308rich reopened on Monday after the cafe\u0301 owners paid.", "cafe"},
		{"The cafe\u0301 in Zu\u0308rich reopened on Monday.", "Zürich"},
		{"Police said the 👩‍👩‍👧 family left 🇫🇷 France on Monday, police said.", "police"},
		{"Die Regierung will die Steuern senken, sagte der Minister.", "Steuer"},
		{"\u1100\u1161\u11a8\u1100\u1161 대통령이 \u1100\u1161\u11a8 말했다.", "대통령"},
		{"\u1100\u1161\u11a8\u1100\u1161 대통령이 말했다.", "\u1100\u1161"},
		{"सरकार ने संक्रमण की घोषणा की। संक्रमण फैल रहा है।", "संक्रमण"},
		{"รัฐบาลประกาศการเปลี่ยนผ่านวันนี้", "การเปลี่ยนผ่าน"},
		{"قالت الحكومةُ إنَّ النفقات سترتفع.", "حكومة"},
		{"政府は水曜日、中小企業の税金を引き下げると決めた。", "税金"},
	}
	for _, l := range []string{"de", "fr", "es", "ru", "ar", "hi", "zh", "ja", "ko", "th"} {
		doc := fixture(t, l)
		for _, c := range languageCases {
			if c.lang == l {
				cases = append(cases, struct{ doc, term string }{doc, c.query})
			}
		}
	}
	checked := 0
	for _, c := range cases {
		bounds := map[int]bool{len(c.doc): true}
		g := graphemes.FromString(c.doc)
		for g.Next() {
			bounds[g.Start()] = true
		}
		for _, budget := range []int{12, 30, 80} {
			sn, err := e.Snippets(context.Background(), c.doc, []string{c.term}, budget, 3)
			if err != nil {
				continue // a budget under the term is refused
			}
			for _, s := range sn {
				for _, sp := range append(append([]qsc.Span{s.Sentence}, s.Kept...), s.Hits...) {
					if !bounds[sp.Start] || !bounds[sp.End] {
						t.Errorf("%q in %q, budget %d: span [%d, %d) %q cuts a character", c.term, c.doc, budget, sp.Start, sp.End, c.doc[sp.Start:sp.End])
					}
				}
				checked++
				if len(s.Hits) == 0 {
					t.Errorf("%q in %q: a snippet without a mark", c.term, c.doc)
				}
				for _, ellipsis := range []bool{false, true} {
					checkMarkup(t, render.HTML(c.doc, s, ellipsis))
				}
			}
		}
	}
	if checked < len(cases) {
		t.Errorf("%d snippets checked for %d cases", checked, len(cases))
	}
}

// checkMarkup checks that the <mark> tags of html fall between grapheme clusters of its
// text (the markup taken out).
func checkMarkup(t *testing.T, html string) {
	t.Helper()
	var plain strings.Builder
	var at []int // offsets in plain of the tags
	for rest := html; rest != ""; {
		i := strings.Index(rest, "<")
		if i < 0 {
			plain.WriteString(rest)
			break
		}
		plain.WriteString(rest[:i])
		j := strings.Index(rest[i:], ">")
		if j < 0 {
			t.Fatalf("unclosed tag in %q", html)
		}
		at = append(at, plain.Len())
		rest = rest[i+j+1:]
	}
	text := plain.String()
	bounds := map[int]bool{len(text): true}
	g := graphemes.FromString(text)
	for g.Next() {
		bounds[g.Start()] = true
	}
	for _, i := range at {
		if !bounds[i] {
			t.Errorf("a tag inside a character of %q: %q", text, html)
		}
	}
}
