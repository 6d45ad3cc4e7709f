package window

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/segment"
)

// choose runs Choose on text with the hits of term (no analyzer) and a display budget,
// and returns the window's ellipsis rendering, or "" when none fits.
func choose(t testing.TB, text, lang string, terms []string, budget int, stop func(string) bool) string {
	toks := segment.Tokens(text)
	q, err := segment.Compile(terms, lang, 64)
	if err != nil {
		t.Fatal(err)
	}
	var hits []Hit
	for _, h := range q.NewScanner().Scan(toks) {
		hits = append(hits, Hit(h))
	}
	if len(toks) == 0 {
		return ""
	}
	sent := display.Span{Start: toks[0].Start, End: toks[len(toks)-1].End}
	var sc display.Scratch
	fits := func(lo, hi int) bool {
		run := []display.Span{{Start: toks[lo].Start, End: toks[hi-1].End}}
		return sc.Length(text, sent, run, nil) <= budget
	}
	lo, hi, ok := Choose(Options{Doc: text, Toks: toks, Hits: hits, Budget: budget, Fits: fits, Stop: stop})
	if !ok {
		return ""
	}
	run := []display.Span{{Start: toks[lo].Start, End: toks[hi-1].End}}
	return display.Render(text, sent, run, nil, true, false)
}

// TestChoose checks windows on sentences whose best window is clear.
func TestChoose(t *testing.T) {
	fr := "Le gouvernement a annoncé mercredi une baisse des impôts pour les petites entreprises, qui attendaient cette mesure depuis des années."
	stopFr := func(w string) bool {
		switch strings.ToLower(w) {
		case "le", "la", "les", "des", "une", "pour", "qui", "a", "cette", "depuis":
			return true
		}
		return false
	}
	for _, c := range []struct {
		text, lang string
		terms      []string
		budget     int
		stop       func(string) bool
		want       string
	}{
		// The whole sentence when it fits.
		{fr, "fr", []string{"impôts"}, 200, nil, fr},
		// Never a dangling article or comma: the end moves before "les" or the comma.
		{fr, "fr", []string{"impôts"}, 50, stopFr, "… baisse des impôts pour les petites entreprises …"},
		{fr, "fr", []string{"gouvernement"}, 50, stopFr, "Le gouvernement a annoncé mercredi une baisse …"},
		// A clause boundary: the window starts after the comma.
		{fr, "fr", []string{"mesure"}, 60, stopFr, "… qui attendaient cette mesure depuis des années."},
		// Japanese: after a clause mark, not inside okurigana.
		{"政府は水曜日、中小企業の税金を引き下げると決めた。", "ja", []string{"税金"}, 12, nil, "…中小企業の税金を…"},
		// Both terms when they fit; else one, the window that fills the budget best.
		{"Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda.", "en", []string{"beta", "kappa"}, 70, nil, "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda."},
		{"Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda.", "en", []string{"beta", "kappa"}, 30, nil, "… eta theta iota kappa lambda."},
		// Nothing fits: the term alone is longer than the budget.
		{"Donaudampfschifffahrtsgesellschaft fährt.", "de", []string{"Donaudampfschifffahrtsgesellschaft"}, 20, nil, ""},
	} {
		if got := choose(t, c.text, c.lang, c.terms, c.budget, c.stop); got != c.want {
			t.Errorf("%q %v budget %d:\n got %q\nwant %q", c.text, c.terms, c.budget, got, c.want)
		}
	}
}

// TestLead checks the lead of a sentence cut to a budget: at a clean end, with "…".
func TestLead(t *testing.T) {
	fr := "Le gouvernement a annoncé mercredi une baisse des impôts pour les petites entreprises, qui attendaient cette mesure depuis des années."
	stop := func(w string) bool { return w == "les" || w == "des" || w == "une" || w == "pour" || w == "a" }
	for _, c := range []struct {
		budget int
		want   string
	}{
		{200, fr},
		{90, "Le gouvernement a annoncé mercredi une baisse des impôts pour les petites entreprises …"},
		{40, "Le gouvernement a annoncé mercredi …"},
		{3, ""},
	} {
		toks := segment.Tokens(fr)
		sent := display.Span{Start: 0, End: len(fr)}
		var sc display.Scratch
		fits := func(lo, hi int) bool {
			return sc.Length(fr, sent, []display.Span{{Start: toks[lo].Start, End: toks[hi-1].End}}, nil) <= c.budget
		}
		got := ""
		if hi, ok := Lead(Options{Doc: fr, Toks: toks, Budget: c.budget, Fits: fits, Stop: stop}); ok {
			got = display.Render(fr, sent, []display.Span{{Start: 0, End: toks[hi-1].End}}, nil, true, false)
		}
		if got != c.want {
			t.Errorf("budget %d: %q, want %q", c.budget, got, c.want)
		}
	}
}

// TestLeadPlain checks that under a token budget (Plain) the lead's words alone count: no
// room is kept for the "…" that a display budget counts.
func TestLeadPlain(t *testing.T) {
	text := "The hotel room was clean."
	toks := segment.Tokens(text)
	sent := display.Span{Start: 0, End: len(text)}
	for _, c := range []struct {
		plain bool
		want  string
	}{{true, "The hotel"}, {false, "The …"}} {
		fits := func(lo, hi int) bool {
			return utf8.RuneCountInString(display.Render(text, sent, []display.Span{{Start: toks[lo].Start, End: toks[hi-1].End}}, nil, !c.plain, false)) <= 9
		}
		got := ""
		if hi, ok := Lead(Options{Doc: text, Toks: toks, Budget: 9, Plain: c.plain, Fits: fits}); ok {
			got = display.Render(text, sent, []display.Span{{Start: 0, End: toks[hi-1].End}}, nil, !c.plain, false)
		}
		if got != c.want {
			t.Errorf("plain %v, budget 9: %q, want %q", c.plain, got, c.want)
		}
	}
}

// FuzzChoose checks Choose on any text and term: no panic, a window that holds a hit and
// fits the budget when it answers.
func FuzzChoose(f *testing.F) {
	f.Add("政府は水曜日、中小企業の税金を引き下げると決めた。", "税金", 12)
	f.Add("Le gouvernement a annoncé une baisse, qui…", "baisse", 20)
	f.Add("ก า ร\"'“「", "ร", 3)
	f.Fuzz(func(t *testing.T, text, term string, budget int) {
		toks := segment.Tokens(text)
		q, err := segment.Compile([]string{term}, "de", 64)
		if err != nil || len(toks) == 0 {
			return
		}
		var hits []Hit
		for _, h := range q.NewScanner().Scan(toks) {
			hits = append(hits, Hit(h))
		}
		sent := display.Span{Start: toks[0].Start, End: toks[len(toks)-1].End}
		var sc display.Scratch
		length := func(lo, hi int) int {
			return sc.Length(text, sent, []display.Span{{Start: toks[lo].Start, End: toks[hi-1].End}}, nil)
		}
		lo, hi, ok := Choose(Options{Doc: text, Toks: toks, Hits: hits, Budget: budget, Fits: func(lo, hi int) bool { return length(lo, hi) <= budget }})
		if !ok {
			return
		}
		if lo < 0 || hi > len(toks) || lo >= hi || length(lo, hi) > budget {
			t.Fatalf("window [%d, %d) of %d tokens, length %d, budget %d", lo, hi, len(toks), length(lo, hi), budget)
		}
		held := false
		for _, h := range hits {
			held = held || h.Start >= lo && h.End <= hi
		}
		if !held || !utf8.ValidString(text[toks[lo].Start:toks[hi-1].End]) && utf8.ValidString(text) {
			t.Fatalf("window [%d, %d) holds no hit of %v", lo, hi, hits)
		}
	})
}

// TestChooseKeepsWhole checks edges that an NGO's helper saw fall inside a word or pair:
// never inside a hyphenated word, never between a number and its unit (spaced as French
// and German write it, or not), and never with one half of a pair of brackets or quotes
// when a window that keeps both fits.
func TestChooseKeepsWhole(t *testing.T) {
	de := "Die Abschiebungshafteinrichtung in Büren (Nordrhein-Westfalen) war im Dezember zu 96 % ausgelastet, obwohl das Land weniger Abschiebungen meldete."
	fr := "Le taux de protection s'est établi à 33 %, contre 42 % devant la Cour nationale du droit d'asile (CNDA)."
	for _, c := range []struct {
		text, lang string
		terms      []string
		budget     int
		bad        []string // what the window must not show
	}{
		{de, "de", []string{"Büren"}, 60, []string{"(Nordrhein …", "… Westfalen"}},
		{de, "de", []string{"96"}, 60, []string{"… Westfalen", "… ) ", "96 …"}},
		{fr, "fr", []string{"protection"}, 60, []string{"33 …", "42 …"}},
		{"„Wir können die Welt nicht retten, aber wir können uns weigern wegzuschauen“, sagte Ingrid Møller-Haugen am Montag in Brüssel.", "de", []string{"Møller-Haugen"}, 70, []string{"wegzuschauen“", "… Haugen"}},
		// Straight quotes pair too (wellformed.Pairs): no closing half without its opening.
		{"Der Bürgermeister sagte, der Plan sei \"ein Desaster für den Haushalt der Stadt\" und versprach eine Prüfung aller Verträge im nächsten Jahr.", "de", []string{"Prüfung"}, 70, []string{`Stadt"`}},
		{"Light-saturated photosynthesis of wheat rose by 31% on average in the open-top chambers that year.", "en", []string{"wheat"}, 50, []string{"31 …", "Light …", "open …"}},
	} {
		got := choose(t, c.text, c.lang, c.terms, c.budget, nil)
		if got == "" {
			t.Errorf("%v at %d: no window", c.terms, c.budget)
		}
		for _, b := range c.bad {
			if strings.Contains(got, b) {
				t.Errorf("%v at %d: %q shows %q", c.terms, c.budget, got, b)
			}
		}
	}
}

// TestChooseNegation checks that a window of a language whose negation follows its verb
// does not stop before the clause's negation when one that holds it fits: German
// "dürfen die Menschenrechte …" would read as the opposite of "… nicht aushöhlen".
func TestChooseNegation(t *testing.T) {
	text := "Migrationsabkommen mit Drittstaaten dürfen die Menschenrechte nicht aushöhlen, sagte die Sprecherin des Auswärtigen Amtes am Mittwoch in Berlin."
	toks := segment.Tokens(text)
	q, err := segment.Compile([]string{"Drittstaaten"}, "de", 64)
	if err != nil {
		t.Fatal(err)
	}
	var hits []Hit
	for _, h := range q.NewScanner().Scan(toks) {
		hits = append(hits, Hit(h))
	}
	sent := display.Span{Start: toks[0].Start, End: toks[len(toks)-1].End}
	var sc display.Scratch
	for _, neg := range []bool{false, true} {
		stop := func(f string) bool {
			return strings.Contains(" die der das des mit am in ", " "+strings.ToLower(f)+" ")
		}
		o := Options{Doc: text, Toks: toks, Hits: hits, Budget: 60, Stop: stop}
		o.Fits = func(lo, hi int) bool {
			return sc.Length(text, sent, []display.Span{{Start: toks[lo].Start, End: toks[hi-1].End}}, nil) <= o.Budget
		}
		if neg {
			o.Negation = func(f string) bool { return strings.ToLower(f) == "nicht" }
		}
		lo, hi, ok := Choose(o)
		got := display.Render(text, sent, []display.Span{{Start: toks[lo].Start, End: toks[hi-1].End}}, nil, true, false)
		if has := strings.Contains(got, "nicht"); !ok || has != neg {
			t.Errorf("negation test %v: %q", neg, got)
		}
	}
}
