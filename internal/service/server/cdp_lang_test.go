package server

import (
	"context"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// languageDocs are documents in Arabic, Japanese, German and English: the first sentences
// of the PUD fixtures (testdata/languages, CC BY-SA 3.0) and one English story.
func languageDocs(t *testing.T) []docfile.Doc {
	t.Helper()
	read := func(lang string) string {
		b, err := os.ReadFile("../../../testdata/languages/" + lang + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	return []docfile.Doc{
		{ID: "ar", Title: "الانتقال الرقمي في الولايات المتحدة", Text: read("ar")},
		{ID: "ja", Title: "デジタルへの移行と移民", Text: read("ja")},
		{ID: "de", Title: "Der digitale Übergang", Text: read("de")},
		{ID: "en", Title: "Immigration policy", Text: "The nominee said he would accept a large number of legal immigrants. Immigration was the subject of the debate on Tuesday."},
	}
}

// langShown is what the search page shows of each result, by document id.
const langShown = `(() => Array.from(document.querySelectorAll("#results .result")).map(r => {
  const sn = r.querySelector(".snippet");
  const text = sn ? sn.querySelector(".text") : null;
  return {
    id: r.querySelector(".meta").textContent.split(" ")[0],
    titleDir: getComputedStyle(r.querySelector("h2")).direction,
    dirAttr: sn ? sn.getAttribute("dir") : "",
    dir: sn ? getComputedStyle(sn).direction : "",
    countDir: sn ? getComputedStyle(sn.querySelector(".chars")).direction : "",
    text: text ? text.textContent : "",
    marks: text ? Array.from(text.querySelectorAll("mark")).map(m => m.textContent) : [],
    // the characters around each mark, for whole words
    around: text ? Array.from(text.querySelectorAll("mark")).map(m => [
      (m.previousSibling && m.previousSibling.textContent || "").slice(-1),
      (m.nextSibling && m.nextSibling.textContent || "").slice(0, 1)]) : [],
  };
}))()`

type langResult struct {
	ID, TitleDir, DirAttr, Dir, CountDir, Text string
	Marks                                      []string
	Around                                     [][]string
}

// TestBrowserLanguages: the search page over documents in Arabic, Japanese, German and
// English (issue 35, point 4). A query with a word of each finds each document by its
// language's words (Übergang finds Übergangs, 移民 a run of kanji); the Arabic snippet
// (dir="rtl", from its language) and title (dir="auto") are shown right to left and the
// others left to right; every mark is
// a whole word (no letter of a spaced script touches it); the document page of the Arabic
// text reads right to left. With $QSC_SCREENSHOTS set it saves page-languages.png and
// document-arabic.png (Japanese shows with a CJK font installed: fonts-ipafont-gothic).
func TestBrowserLanguages(t *testing.T) {
	b := startBrowser(t)
	idx, err := docindex.FromDocs(context.Background(), servicetest.Engine(t), languageDocs(t))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	s, err := New(Config{Engine: servicetest.Engine(t), Index: idx})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	q := "الانتقال 移民 Übergang immigrants"
	p, err := b.open(ctx, ts.URL+"/?budget=110&q="+url.QueryEscape(q))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": 1200, "height": 1250, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.settle(ctx, `document.querySelectorAll("#results .result").length >= 4 && document.getElementById("status").textContent.includes("round trip")`); err != nil {
		t.Fatal(err)
	}
	var shown []langResult
	if err := p.eval(ctx, langShown, &shown); err != nil {
		t.Fatal(err)
	}
	byID := map[string]langResult{}
	for _, r := range shown {
		byID[r.ID] = r
	}
	for _, id := range []string{"ar", "ja", "de", "en"} {
		r, ok := byID[id]
		want := "ltr"
		if id == "ar" {
			want = "rtl"
		}
		switch {
		case !ok:
			t.Errorf("%s: not found by %q: %+v", id, q, shown)
			continue
		case r.DirAttr != map[string]string{"ltr": "auto", "rtl": "rtl"}[want] || r.Dir != want || r.TitleDir != want || r.CountDir != "ltr":
			t.Errorf("%s: snippet dir=%q shown %s, title %s, count %s; want %s (rtl by its language, else auto), %s, %s, ltr",
				id, r.DirAttr, r.Dir, r.TitleDir, r.CountDir, map[string]string{"ltr": "auto", "rtl": "rtl"}[want], want, want)
		case len(r.Marks) == 0:
			t.Errorf("%s: no mark in %q", id, r.Text)
		}
		for i, m := range r.Marks {
			if id == "ja" {
				if m != "移民" {
					t.Errorf("ja: mark %q, want 移民", m)
				}
				continue
			}
			for _, c := range r.Around[i] {
				if c != "" && strings.IndexFunc(c, isLetter) >= 0 {
					t.Errorf("%s: the mark %q touches the letter %q: %q", id, m, c, r.Text)
				}
			}
		}
	}
	if de := byID["de"]; len(de.Marks) > 0 && !strings.HasPrefix(de.Marks[0], "Übergang") {
		t.Errorf("de: marks %q, want forms of Übergang", de.Marks)
	}
	p.screenshot(ctx, t, "page-languages.png")

	// The Arabic document's own page reads right to left.
	p2, err := b.open(ctx, ts.URL+"/doc/ar")
	if err != nil {
		t.Fatal(err)
	}
	if err := p2.settle(ctx, `document.readyState === "complete" && !!document.getElementById("doc-title")`); err != nil {
		t.Fatal(err)
	}
	var dirs struct{ Title, Text string }
	if err := p2.eval(ctx, `({title: getComputedStyle(document.getElementById("doc-title")).direction,
		text: getComputedStyle(document.querySelector("#doc-text p")).direction})`, &dirs); err != nil {
		t.Fatal(err)
	}
	if dirs.Title != "rtl" || dirs.Text != "rtl" {
		t.Errorf("the Arabic document's page: title %s, text %s; want rtl", dirs.Title, dirs.Text)
	}
	p2.screenshot(ctx, t, "document-arabic.png")
}

// isLetter reports whether r is a letter or a mark.
func isLetter(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }
