package wellformed

import "testing"

// TestRelOf checks that relOf gives every relation a rule names its own code, with or
// without a subtype, and any other relation none.
func TestRelOf(t *testing.T) {
	names := map[string]rel{
		"acl": relAcl, "advcl": relAdvcl, "advmod": relAdvmod, "amod": relAmod, "aux": relAux,
		"case": relCase, "cc": relCc, "ccomp": relCcomp, "clf": relClf, "compound": relCompound,
		"conj": relConj, "cop": relCop, "csubj": relCsubj, "det": relDet, "discourse": relDiscourse,
		"expl": relExpl, "fixed": relFixed, "flat": relFlat, "goeswith": relGoeswith, "iobj": relIobj,
		"mark": relMark, "neg": relNeg, "nmod": relNmod, "nsubj": relNsubj, "nummod": relNummod,
		"obj": relObj, "obl": relObl, "parataxis": relParataxis, "punct": relPunct, "xcomp": relXcomp,
	}
	seen := map[rel]bool{}
	for name, want := range names {
		for _, label := range []string{name, name + ":sub"} {
			if got := relOf(label); got != want {
				t.Errorf("relOf(%q) = %d, want %d", label, got, want)
			}
		}
		seen[want] = true
	}
	if len(seen) != int(relXcomp) {
		t.Errorf("%d codes named, want %d", len(seen), relXcomp)
	}
	for _, label := range []string{"", "root", "dep", "appos", "list", ":case", "nsubj2", "Nsubj"} {
		if got := relOf(label); got != relOther {
			t.Errorf("relOf(%q) = %d, want relOther", label, got)
		}
	}
}
