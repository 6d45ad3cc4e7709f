package display

import (
	"slices"
	"strings"
	"testing"
)

func TestAttachesLeft(t *testing.T) {
	for _, s := range []string{",", ". Then", "%", ")", "'s", "’s new", "n't", "N'T", "'", "''", "'re", "”", "…"} {
		if !AttachesLeft(s) {
			t.Errorf("AttachesLeft(%q) = false", s)
		}
	}
	for _, s := range []string{"", "men", "(", "$", "'quoted'", "'tis", "not", "new", "“", "``", "- x"} {
		if AttachesLeft(s) {
			t.Errorf("AttachesLeft(%q) = true", s)
		}
	}
}

func TestDetokenize(t *testing.T) {
	for in, want := range map[string]string{
		`The city 's deficit grew 3.7 % to $ 89.5 billion , said Sen. Cornyn ( R-Texas ) .`: `The city's deficit grew 3.7% to $89.5 billion, said Sen. Cornyn (R-Texas).`,
		`He said " quoted " and " again " .`:                                                `He said "quoted" and "again".`,
		`I do n't know ; `:                                                                  `I don't know;`,
		"“ Yes , ” she said .":                                                              "“Yes,” she said.",
		"":                                                                                  "",
	} {
		forms := strings.Fields(in)
		got, spans := Detokenize(forms)
		if got != want {
			t.Errorf("Detokenize(%q) = %q, want %q", in, got, want)
		}
		var back []string
		for _, sp := range spans {
			back = append(back, got[sp.Start:sp.End])
		}
		if !slices.Equal(back, forms) {
			t.Errorf("Detokenize(%q): spans give %q", in, back)
		}
	}
}

func TestRenderJoins(t *testing.T) {
	doc := "Police arrested two men on Tuesday, officials said."
	sent := Span{0, len(doc)}
	at := func(s string) Span { i := strings.Index(doc, s); return Span{i, i + len(s)} }
	kept := []Span{at("Police arrested"), at("men"), at(","), at("officials said.")}
	if got := Render(doc, sent, kept, nil, false, false); got != "Police arrested men, officials said." {
		t.Errorf("plain %q", got)
	}
	if got := Render(doc, sent, kept, nil, true, false); got != "Police arrested … men … officials said." {
		t.Errorf("ellipsis %q", got)
	}
	kept = []Span{at("Police"), at("men"), at(".")}
	if got := Render(doc, sent, kept, []Span{at("men")}, false, true); got != "Police <mark>men</mark>." {
		t.Errorf("html %q", got)
	}
}
