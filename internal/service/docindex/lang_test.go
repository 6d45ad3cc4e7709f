package docindex

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// languageDocs are documents in English, German, Japanese, Arabic, French and Chinese.
var languageDocs = []docfile.Doc{
	{ID: "en", Title: "Taxes", Text: "The government will cut taxes for small businesses next year, the minister said on Wednesday."},
	{ID: "de", Title: "Steuern", Text: "Die Regierung will die Steuern für kleine Unternehmen im nächsten Jahr deutlich senken, sagte der Finanzminister am Mittwoch in Berlin."},
	{ID: "ja", Title: "税金", Text: "政府は水曜日、中小企業の税金を引き下げると決めた。財務大臣が東京で発表した。"},
	{ID: "ar", Title: "الضرائب", Text: "قالت الحكومة يوم الأربعاء إنها ستخفض الضرائب على الشركات الصغيرة في العام المقبل."},
	{ID: "fr", Title: "Impôts", Text: "Le gouvernement a annoncé mercredi une baisse des impôts pour les petites entreprises, qui attendaient cette mesure depuis des années."},
	{ID: "zh", Title: "税收", Text: "政府星期三宣布，明年将降低小企业的税收，财政部长在北京表示。"},
}

// TestLanguages checks that documents in any language are found by their words as the
// snippets match them (issue 35, point 4): an inflected form through the language's
// stemmer, a run of characters inside a longer one, with or without a field, phrases,
// +must and -not; that English is found as before; and that each hit gets snippets with
// a mark in its language.
func TestLanguages(t *testing.T) {
	x, err := FromDocs(context.Background(), servicetest.Engine(t), languageDocs)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"Steuer", []string{"de"}},
		{"steuern", []string{"de"}},
		{"Unternehmens", []string{"de"}},
		{"text:Steuer", []string{"de"}},
		{"title:Steuer", []string{"de"}},
		{`"kleine Unternehmen"`, []string{"de"}},
		{"+Steuer -Berlin", nil},
		{"+lang:de Regierung government", []string{"de"}},
		{"lang:de", nil}, // no word to look for
		{"税金", []string{"ja"}},
		{"税", []string{"ja", "zh"}},
		{"政府", []string{"ja", "zh"}},
		{"税收", []string{"zh"}},
		{"财政部", []string{"zh"}},
		{"حكومة", []string{"ar"}},
		{"الضريبة", nil},
		{"impôt", []string{"fr"}},
		{"gouvernements", []string{"fr"}},
		{"taxes", []string{"en"}},
		{"tax", []string{"en"}},
		{"governments", []string{"en"}},
	} {
		res := search(t, x, c.q, 0, 10)
		if got := sorted(ids(res)); !slices.Equal(got, sorted(slices.Clone(c.want))) {
			t.Errorf("%s: found %v, want %v", c.q, got, c.want)
		}
		for i := range res.Hits {
			h := &res.Hits[i]
			sn, err := x.Snippets(context.Background(), servicetest.Engine(t), h, qsc.SnippetRequest{Query: res.Terms, Budget: 80})
			if err != nil || len(sn) == 0 || len(sn[0].Hits) == 0 {
				t.Errorf("%s: the snippets of %s for %q: %+v, %v; want a mark", c.q, h.Doc.ID, res.Terms, sn, err)
				continue
			}
			if want := map[string]string{"zh": "zh", "ja": "ja", "de": "de", "fr": "fr", "ar": "ar", "en": "en"}[h.Doc.ID]; sn[0].Lang != want {
				t.Errorf("%s: snippet of %s in %q, want %q", c.q, h.Doc.ID, sn[0].Lang, want)
			}
		}
	}
	// The annotation, the English pipeline's reading, is made only for English documents.
	for _, h := range search(t, x, "Regierung government", 0, 10).Hits {
		if (h.annotation != nil) != (h.Doc.ID == "en") {
			t.Errorf("%s: annotation stored: %v", h.Doc.ID, h.annotation != nil)
		}
	}
}

// TestLanguagesPersist checks that an index on disk remembers the languages it holds: a
// German document is found by "Steuer" after the index is opened again.
func TestLanguagesPersist(t *testing.T) {
	dir := t.TempDir() + "/idx"
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Add(context.Background(), "docs", languageDocs[:2], IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	x.Close()
	if x, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := ids(search(t, x, "Steuer", 0, 10)); !slices.Equal(got, []string{"de"}) {
		t.Errorf("after reopening: Steuer found %v", got)
	}
	b, err := os.ReadFile(dir + "/index_meta.json")
	if err != nil || !strings.Contains(string(b), "scorch") {
		t.Errorf("index_meta.json: %s, %v", b, err)
	}
}

// TestSpacelessWithoutEnglishTokens: a word of Thai (or Lao, Khmer, Myanmar), which the
// English analyzer drops entirely, is still a term of the query: the fields of the
// languages find its document, as a word and as a phrase, and its snippet marks it.
func TestSpacelessWithoutEnglishTokens(t *testing.T) {
	docs := []docfile.Doc{
		{ID: "th", Title: "เงินอุดหนุน", Text: "รัฐบาลตัดสินใจเมื่อวันพุธที่จะขยายเงินอุดหนุนสำหรับรถยนต์ไฟฟ้าจนถึงสิ้นปี นักวิจารณ์กล่าวว่าเงินอุดหนุนเป็นประโยชน์ต่อครัวเรือนที่ร่ำรวย"},
		{ID: "en", Title: "Subsidies", Text: "The government extended the subsidies for electric cars until the end of the year."},
	}
	x, err := FromDocs(context.Background(), servicetest.Engine(t), docs)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, q := range []string{"เงินอุดหนุน", `"เงินอุดหนุน"`, "รัฐบาล subsidies"} {
		res := search(t, x, q, 0, 10)
		if !slices.Contains(ids(res), "th") || len(res.Terms) == 0 {
			t.Errorf("%s: found %v with terms %q, want th", q, ids(res), res.Terms)
			continue
		}
		for i := range res.Hits {
			if h := &res.Hits[i]; h.Doc.ID == "th" {
				sn, err := x.Snippets(context.Background(), servicetest.Engine(t), h, qsc.SnippetRequest{Query: res.Terms, Budget: 60})
				if err != nil || len(sn) == 0 || len(sn[0].Hits) == 0 {
					t.Errorf("%s: the snippets of th for %q: %+v, %v; want a mark", q, res.Terms, sn, err)
				}
			}
		}
	}
}

// TestForeignStopWords checks that a stop word of a language finds and marks nothing in
// that language's documents ("die Kinder" finds the German document with "Kinder", not
// every German one by its article), while the same word still finds an English document
// where it is a word ("die" the verb).
func TestForeignStopWords(t *testing.T) {
	docs := []docfile.Doc{
		{ID: "kinder", Title: "Bericht", Text: "Im vergangenen Jahr wurden 1.300 Kinder in Abschiebungshaft genommen, sagte die Sprecherin am Mittwoch in Berlin."},
		{ID: "karte", Title: "Interview", Text: "Die Landesregierung sagt, die Bezahlkarte verhindere Missbrauch, aber dafür gibt es keinen einzigen Beleg."},
		{ID: "verb", Title: "Report", Text: "Without clean water, many more children will die of cholera this summer, the aid agencies warned."},
		{ID: "fr", Title: "Rapport", Text: "Le taux de protection de la Cour nationale du droit d'asile s'est établi à 33 % l'an dernier."},
	}
	x, err := FromDocs(context.Background(), servicetest.Engine(t), docs)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for q, want := range map[string][]string{
		"die Kinder": {"kinder", "verb"},
		"die":        {"verb"},
		"de la Cour": {"fr"},
		"es Beleg":   {"karte"},
	} {
		res := search(t, x, q, 0, 10)
		if got := sorted(ids(res)); !slices.Equal(got, want) {
			t.Errorf("%s: ids %v, want %v", q, got, want)
		}
		for i := range res.Hits {
			h := &res.Hits[i]
			sn, err := x.Snippets(context.Background(), servicetest.Engine(t), h, qsc.SnippetRequest{Query: res.Terms, Budget: 100, N: 3})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range sn {
				for _, m := range s.Hits {
					w := strings.ToLower(h.Doc.Text[m.Start:m.End])
					if h.Doc.ID != "verb" && slices.Contains([]string{"die", "de", "la", "es"}, w) {
						t.Errorf("%s: %s marks the stop word %q: %s", q, h.Doc.ID, w, s.Text)
					}
				}
			}
		}
	}
}
