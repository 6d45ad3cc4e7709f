package analyzers

import (
	"testing"

	"github.com/qsc-nlp/qsc/internal/core/segment"
)

// TestTerms checks that a query word and an inflected form of it share a key in the
// languages of the issue, through bleve's analyzers, and that a stop word keeps its form.
func TestTerms(t *testing.T) {
	for _, c := range []struct{ lang, a, b string }{
		{"de", "Steuer", "Steuern"},
		{"de", "Übergang", "Übergänge"},
		{"fr", "gouvernements", "gouvernement"},
		{"fr", "État", "l'État"},
		{"es", "impuestos", "impuesto"},
		{"ru", "налоги", "налогов"},
		{"ar", "الحكومة", "حكومة"},
		{"hi", "सरकारों", "सरकार"},
		{"it", "governi", "governo"},
		{"pt", "governos", "governo"},
		{"sv", "regeringen", "regering"},
		{"nl", "belastingen", "belasting"},
	} {
		q, err := segment.Compile([]string{c.a}, c.lang, 16)
		if err != nil {
			t.Fatal(err)
		}
		toks := segment.Tokens(c.b)
		if hits := q.NewScanner().Scan(toks); len(hits) != 1 {
			t.Errorf("%s: %q does not find %q (keys %q, %q)", c.lang, c.a, c.b, segment.Key(c.a, c.lang), segment.Key(c.b, c.lang))
		}
	}
	if got := segment.Key("die", "de"); got != "die" {
		t.Errorf("the stop word die has the key %q", got)
	}
	if !segment.Analyzed("de") || segment.Analyzed("ja") {
		t.Errorf("analyzed languages: %v", segment.Languages())
	}
}
