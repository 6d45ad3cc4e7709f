package wellformed

import (
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/internal/lab/handparse"
	"github.com/qsc-nlp/qsc/syntax"
)

// handRuns returns the display rules of a sentence parsed by hand (forms, tags, heads and
// relations) for the query, under the rules for a budget of 1000.
func handRuns(t *testing.T, forms, xpos []string, heads []int, rels []string, query []int) *Runs {
	t.Helper()
	r := new(Rules)
	s, tr, _ := handparse.Parsed(t, r, forms, xpos, heads, rels, query, 1000)
	u := new(Runs)
	u.Reset(s, tr, r, query)
	u.ResetCuts(s, tr)
	return u
}

// TestRuns checks the display rules on "The duped client 's lawyer sued Saks Fifth Avenue
// , AP writer Philip Rivers said .", parsed by hand.
func TestRuns(t *testing.T) {
	forms := []string{"The", "duped", "client", "'s", "lawyer", "sued", "Saks", "Fifth", "Avenue", ",", "AP", "writer", "Philip", "Rivers", "said", "."}
	xpos := []string{"DT", "JJ", "NN", "POS", "NN", "VBD", "NNP", "NNP", "NNP", ",", "NNP", "NNP", "NNP", "NNP", "VBD", "."}
	heads := []int{3, 3, 5, 3, 6, 15, 9, 9, 6, 15, 12, 13, 15, 13, 0, 15}
	rels := []string{"det", "amod", "nmod:poss", "case", "nsubj", "ccomp", "compound", "compound", "obj", "punct", "compound", "nmod:desc", "nsubj", "flat", "root", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{5})
	for _, c := range []struct {
		v, lo, hi int
		why       string
	}{
		// Each token names what it needs itself; a run holding "The" holds "client", so
		// it must also meet the needs of "client" (the run check is transitive).
		{1, 1, 3, `"The" shares a run with "client": no "The … client"`},
		{2, 2, 3, `"duped" with "client"`},
		{3, 3, 5, `"client" with its possessive and "lawyer"`},
		{4, 3, 4, `"'s" with "client"`},
		{7, 7, 9, `"Saks Fifth Avenue" whole`},
		{9, 7, 9, `"Saks Fifth Avenue" whole`},
		{11, 11, 12, `"AP writer", a name of its own`},
		{13, 13, 14, `"Philip Rivers", not "AP writer Philip Rivers"`},
		{10, 10, 10, "a comma is free"},
	} {
		if u.Lo(c.v) != c.lo || u.Hi(c.v) != c.hi {
			t.Errorf("token %d %q: run must span [%d, %d], want [%d, %d]: %s", c.v, forms[c.v-1], u.Lo(c.v), u.Hi(c.v), c.lo, c.hi, c.why)
		}
	}
	if !u.CanStart(1) || u.CanStart(4) || u.CanStart(10) {
		t.Errorf("starts: The %v, 's %v, comma %v; want true, false, false", u.CanStart(1), u.CanStart(4), u.CanStart(10))
	}
	if u.CanEnd(1) || u.CanEnd(10) || !u.CanEnd(9) || !u.CanEnd(16) {
		t.Errorf("ends: The %v, comma %v, Avenue %v, final period %v; want false, false, true, true", u.CanEnd(1), u.CanEnd(10), u.CanEnd(9), u.CanEnd(16))
	}
	// A single run may leave out "The" and "duped" before "client", never the possessive
	// or a part of a name.
	checkLead(t, u, forms, map[int]bool{1: true, 2: true, 4: false, 7: false, 9: false, 11: false, 13: false})
	// "sued" leans on its object after it, "Rivers" (flat) on nothing, "Philip" on "said".
	if !u.Dangles(6) || u.Dangles(9) || !u.Dangles(14) && !u.Dangles(13) {
		t.Errorf("dangles: sued %v, Avenue %v, Philip %v", u.Dangles(6), u.Dangles(9), u.Dangles(13))
	}
	if u.Dangles(5) {
		t.Errorf("the query term %q dangles", forms[4])
	}
	// A query term that heads an object after it dangles all the same: "… sued …" with
	// the query "sued" leaves out what was sued.
	if q := handRuns(t, forms, xpos, heads, rels, []int{6}); !q.Dangles(6) {
		t.Errorf("the query term %q does not dangle before its object", forms[5])
	}
	if got := u.Names(); len(got) != 3 {
		t.Errorf("names %v, want Saks Fifth Avenue, AP writer, Philip Rivers", got)
	}
}

// TestRunsDate checks that a date is one name: "on May 5 , 2019 ."
func TestRunsDate(t *testing.T) {
	forms := []string{"Sales", "fell", "on", "May", "5", ",", "2019", "."}
	xpos := []string{"NNS", "VBD", "IN", "NNP", "CD", ",", "CD", "."}
	heads := []int{2, 0, 4, 2, 4, 4, 4, 2}
	rels := []string{"nsubj", "root", "case", "obl", "nummod", "punct", "nummod", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{1})
	if u.Lo(5) != 3 && u.Lo(5) != 4 || u.Hi(4) != 7 {
		t.Errorf("May 5, 2019: month spans [%d, %d], day from %d; want the date whole", u.Lo(4), u.Hi(4), u.Lo(5))
	}
}

// TestRunsShortMonth checks that a month's short name without its period is a date with
// its day, as the dateline of "Yangon, Sep 12 Myanmar is …" writes it, parsed as EWT does
// ("Sep" under "12"): no run shows "12" without "Sep".
func TestRunsShortMonth(t *testing.T) {
	forms := []string{"Yangon", ",", "Sep", "12", "Myanmar", "is", "coordinating", "."}
	xpos := []string{"NNP", ",", "NNP", "CD", "NNP", "VBZ", "VBG", "."}
	heads := []int{7, 1, 4, 1, 7, 7, 0, 7}
	rels := []string{"obl", "punct", "nmod:unmarked", "appos", "nsubj", "aux", "root", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{5})
	if u.Lo(4) > 3 || u.Hi(3) < 4 {
		t.Errorf("Sep 12: month spans [%d, %d], day [%d, %d]; want the date whole", u.Lo(3), u.Hi(3), u.Lo(4), u.Hi(4))
	}
}

// TestRunsQuantityAndGloss checks that a noun is shown with its number and a short bracket
// with the nominal before it, on "The car weighs 1,200 kg ( 2,646 lb ) , WHO said ." where
// the parse attaches the bracket to the verb, as parsers often do, and on "[ ... ]".
func TestRunsQuantityAndGloss(t *testing.T) {
	forms := []string{"The", "car", "weighs", "1,200", "kg", "(", "2,646", "lb", ")", ",", "WHO", "said", "[", "...", "]", "."}
	xpos := []string{"DT", "NN", "VBZ", "CD", "NN", "-LRB-", "CD", "NN", "-RRB-", ",", "NNP", "VBD", "-LRB-", ":", "-RRB-", "."}
	heads := []int{2, 3, 12, 5, 3, 3, 8, 3, 3, 12, 12, 0, 12, 12, 12, 12}
	rels := []string{"det", "nsubj", "ccomp", "nummod", "obj", "punct", "nummod", "dep", "punct", "punct", "nsubj", "root", "punct", "punct", "punct", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{2})
	if u.Lo(5) > 4 {
		t.Errorf(`"kg" may be shown without "1,200": its run starts at %d`, u.Lo(5))
	}
	for v := 6; v <= 9; v++ {
		if u.Lo(v) > 5 {
			t.Errorf(`%q may be shown without "kg" before the bracket: its run starts at %d`, forms[v-1], u.Lo(v))
		}
	}
	if u.Lo(14) < 13 {
		t.Errorf(`the editorial "[...]" is bound to %q before it`, forms[u.Lo(14)-1])
	}
}

// TestRunsExponent checks that a unit with an exponent is shown with the quantity before
// it, however the parse attaches it: "about 400 W m⁻¹ K⁻¹ at room temperature".
func TestRunsExponent(t *testing.T) {
	forms := []string{"about", "400", "W", "m⁻¹", "K⁻¹", "at", "room", "temperature"}
	xpos := []string{"RB", "CD", "CD", "NNP", "NNP", "IN", "NN", "NN"}
	heads := []int{2, 3, 0, 3, 4, 8, 8, 3}
	rels := []string{"advmod", "compound", "root", "nmod:unmarked", "flat", "case", "compound", "nmod"}
	u := handRuns(t, forms, xpos, heads, rels, []int{8})
	if u.Hi(3) < 4 || u.Lo(4) > 3 || u.Hi(4) < 5 || u.Lo(5) > 4 {
		t.Errorf("W [%d, %d], m⁻¹ [%d, %d], K⁻¹ [%d, %d]: want each bound to its neighbours in the unit",
			u.Lo(3), u.Hi(3), u.Lo(4), u.Hi(4), u.Lo(5), u.Hi(5))
	}
	if u.Hi(7) > 8 || u.Lo(6) < 6 {
		t.Errorf("the phrase after the unit is bound to it: at [%d, %d]", u.Lo(6), u.Hi(6))
	}
}

// TestRunsInstitutionOf checks that an institution's name with "of" inside is one name
// when the parse attaches the part after "of" elsewhere: "a Yale School of Medicine study".
func TestRunsInstitutionOf(t *testing.T) {
	forms := []string{"according", "to", "a", "Yale", "School", "of", "Medicine", "study"}
	xpos := []string{"VBG", "IN", "DT", "NNP", "NNP", "IN", "NNP", "NN"}
	heads := []int{5, 1, 5, 5, 0, 8, 8, 5}
	rels := []string{"case", "fixed", "det", "compound", "root", "case", "compound", "nmod"}
	u := handRuns(t, forms, xpos, heads, rels, []int{1})
	if u.Hi(5) < 7 || u.Lo(7) > 4 {
		t.Errorf("School [%d, %d], Medicine [%d, %d]: want Yale School of Medicine whole", u.Lo(5), u.Hi(5), u.Lo(7), u.Hi(7))
	}
}

// TestRunsProperAmod checks that a proper noun the parse makes an adjective of the next
// one is part of the name: "Daniel Okrent of The New York Times demonstrates", where
// "New" is amod of "York"; not "Okrent … York Times".
func TestRunsProperAmod(t *testing.T) {
	forms := []string{"Daniel", "Okrent", "of", "The", "New", "York", "Times", "demonstrates", "."}
	xpos := []string{"NNP", "NNP", "IN", "DT", "NNP", "NNP", "NNP", "VBZ", "."}
	heads := []int{8, 1, 7, 7, 6, 7, 1, 0, 8}
	rels := []string{"nsubj", "flat", "case", "det", "amod", "compound", "nmod", "root", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{1})
	if u.Lo(6) > 5 || u.Lo(7) > 5 || u.Hi(5) < 7 {
		t.Errorf("New [%d, %d], York [%d, %d], Times [%d, %d]: want New York Times whole", u.Lo(5), u.Hi(5), u.Lo(6), u.Hi(6), u.Lo(7), u.Hi(7))
	}
	// An adjective that is not a proper noun stays free of the name: "the red Times".
	xpos[4], forms[4] = "JJ", "red"
	u = handRuns(t, forms, xpos, heads, rels, []int{1})
	if u.Lo(7) < 6 {
		t.Errorf("red [%d, %d], Times [%d, %d]: want York Times shown without the adjective", u.Lo(5), u.Hi(5), u.Lo(7), u.Hi(7))
	}
}

// TestRunsOfComplementDangles checks that a run ending on a noun whose "of" phrase comes
// next dangles: "remained a member …" (of the Church).
func TestRunsOfComplementDangles(t *testing.T) {
	forms := []string{"He", "remained", "a", "member", "of", "the", "Church", "."}
	xpos := []string{"PRP", "VBD", "DT", "NN", "IN", "DT", "NNP", "."}
	heads := []int{2, 0, 4, 2, 7, 7, 4, 2}
	rels := []string{"nsubj", "root", "det", "xcomp", "case", "det", "nmod", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{1})
	if !u.Dangles(4) {
		t.Errorf(`a run ending on "member" before "of the Church" does not dangle`)
	}
	if u.Dangles(7) {
		t.Errorf(`a run ending on "Church" dangles`)
	}
}

// TestRunsObliqueDangles checks that a run ending on a verb or an adjective whose oblique
// phrase comes next, with its case marker, dangles ("value derived …" from their efforts,
// "looked …" at her, "comfortable …" with it), and that neither a verb before an oblique
// without one ("it rained …" all night) nor a participle read as a noun after a number
// ("arrested 135 accused …" from the city) does.
func TestRunsObliqueDangles(t *testing.T) {
	forms := []string{"They", "kept", "value", "derived", "from", "efforts", "."}
	xpos := []string{"PRP", "VBD", "NN", "VBN", "IN", "NNS", "."}
	heads := []int{2, 0, 2, 3, 6, 4, 2}
	rels := []string{"nsubj", "root", "obj", "acl", "case", "obl", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{1})
	if !u.Dangles(4) {
		t.Errorf(`a run ending on "derived" before "from efforts" does not dangle`)
	}
	forms = []string{"Carolyn", "looked", "at", "her", "."}
	xpos = []string{"NNP", "VBD", "IN", "PRP", "."}
	heads = []int{2, 0, 4, 2, 2}
	rels = []string{"nsubj", "root", "case", "obl", "punct"}
	u = handRuns(t, forms, xpos, heads, rels, []int{1})
	if !u.Dangles(2) {
		t.Errorf(`a run ending on "looked" before "at her" does not dangle`)
	}
	forms = []string{"It", "rained", "all", "night", "in", "May", "."}
	xpos = []string{"PRP", "VBD", "DT", "NN", "IN", "NNP", "."}
	heads = []int{2, 0, 4, 2, 6, 2, 2}
	rels = []string{"nsubj", "root", "det", "obl:tmod", "case", "obl", "punct"}
	u = handRuns(t, forms, xpos, heads, rels, []int{1})
	if u.Dangles(2) {
		t.Errorf(`a run ending on "rained" before "all night", an oblique with no case marker, dangles`)
	}
	forms = []string{"Police", "arrested", "135", "accused", "from", "the", "city", "."}
	xpos = []string{"NNS", "VBD", "CD", "VBN", "IN", "DT", "NN", "."}
	heads = []int{2, 0, 2, 2, 7, 7, 4, 2}
	rels = []string{"nsubj", "root", "obj", "xcomp", "case", "det", "obl", "punct"}
	u = handRuns(t, forms, xpos, heads, rels, []int{1})
	if u.Dangles(4) {
		t.Errorf(`a run ending on "135 accused" before "from the city" dangles`)
	}
	forms = []string{"You", "need", "to", "be", "comfortable", "with", "it", "."}
	xpos = []string{"PRP", "VBP", "TO", "VB", "JJ", "IN", "PRP", "."}
	heads = []int{2, 0, 5, 5, 2, 7, 5, 2}
	rels = []string{"nsubj", "root", "mark", "cop", "xcomp", "case", "obl", "punct"}
	u = handRuns(t, forms, xpos, heads, rels, []int{1})
	if !u.Dangles(5) {
		t.Errorf(`a run ending on "comfortable" before "with it" does not dangle`)
	}
}

// TestRunsLoose checks that Loose drops the list and question-mark bindings alone: "They
// acquired Urchin , Picasa and Keyhole , asking whether it mattered ."
func TestRunsLoose(t *testing.T) {
	forms := []string{"They", "acquired", "Urchin", ",", "Picasa", "and", "Keyhole", ",", "asking", "whether", "it", "mattered", "."}
	xpos := []string{"PRP", "VBD", "NNP", ",", "NNP", "CC", "NNP", ",", "VBG", "IN", "PRP", "VBD", "."}
	heads := []int{2, 0, 2, 5, 3, 7, 3, 9, 2, 12, 12, 9, 2}
	rels := []string{"nsubj", "root", "obj", "punct", "conj", "cc", "conj", "punct", "advcl", "mark", "nsubj", "ccomp", "punct"}
	r := new(Rules)
	s, tr, _ := handparse.Parsed(t, r, forms, xpos, heads, rels, []int{7}, 1000)
	var u Runs
	u.Reset(s, tr, r, []int{7})
	if u.Lo(7) != 3 || u.Lo(12) != 10 {
		t.Fatalf("full rules: Keyhole from %d, mattered from %d; want 3 and 10", u.Lo(7), u.Lo(12))
	}
	u.Loose = true
	u.Reset(s, tr, r, []int{7})
	if u.Lo(7) != 7 || u.Lo(12) != 12 || u.Hi(10) != 12 || u.Hi(6) != 7 {
		t.Errorf("Loose: Keyhole from %d, mattered from %d, whether to %d, and to %d; want 7, 12, 12, 7", u.Lo(7), u.Lo(12), u.Hi(10), u.Hi(6))
	}
}

// TestRunsEndOnConjunctionTag checks that a run cannot end on a coordinating conjunction
// or an article that the parse gave another relation: "training , and in another study",
// "and" parsed as a conjunct of the comma.
func TestRunsEndOnConjunctionTag(t *testing.T) {
	forms := []string{"training", ",", "and", "in", "the", "study"}
	xpos := []string{"NN", ",", "CC", "IN", "DT", "NN"}
	heads := []int{0, 1, 2, 6, 6, 3}
	rels := []string{"root", "punct", "conj", "case", "dep", "nmod"}
	u := handRuns(t, forms, xpos, heads, rels, []int{1})
	if u.CanEnd(3) || u.CanEnd(5) || !u.CanEnd(1) || !u.CanEnd(6) {
		t.Errorf("ends: and %v, the %v, training %v, study %v; want false, false, true, true", u.CanEnd(3), u.CanEnd(5), u.CanEnd(1), u.CanEnd(6))
	}
}

// TestRunsEndOnPrepositionTag checks that a run cannot end on a preposition that the parse
// gave another relation ("named the man as Tariq", "as" parsed as an adverb), but may
// where it is stranded before punctuation or at the end ("more time at.").
func TestRunsEndOnPrepositionTag(t *testing.T) {
	forms := []string{"named", "the", "man", "as", "Tariq", ",", "time", "at", "."}
	xpos := []string{"VBD", "DT", "NN", "IN", "NNP", ",", "NN", "IN", "."}
	heads := []int{0, 3, 1, 3, 4, 7, 1, 7, 1}
	rels := []string{"root", "det", "obj", "advmod", "punct", "punct", "obj", "advmod", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{3})
	if u.CanEnd(4) || !u.CanEnd(8) || !u.CanEnd(3) {
		t.Errorf("ends: as %v, stranded at %v, man %v; want false, true, true", u.CanEnd(4), u.CanEnd(8), u.CanEnd(3))
	}
}

// TestRunsParticle checks that a verb and its particle share a run both ways: "the first
// things to wear out on your overalls", never "to wear …".
func TestRunsParticle(t *testing.T) {
	forms := []string{"things", "to", "wear", "out", "on", "overalls"}
	xpos := []string{"NNS", "TO", "VB", "RP", "IN", "NNS"}
	heads := []int{0, 3, 1, 3, 6, 3}
	rels := []string{"root", "mark", "acl", "compound:prt", "case", "obl"}
	u := handRuns(t, forms, xpos, heads, rels, []int{3})
	if u.Hi(3) != 4 || u.Lo(4) != 3 {
		t.Errorf("wear needs up to %d, out from %d; want 4 and 3", u.Hi(3), u.Lo(4))
	}
}

// TestRunsEtAl checks that a name and its "et al." share a run whatever the parse:
// "( Hartsell-Gundy et al. , 2015 )", "et" parsed as a noun and "al." as its conjunct;
// and that a token that cannot be a name, a comma or a verb, does not.
func TestRunsEtAl(t *testing.T) {
	for _, c := range []struct {
		name  string
		forms []string
		xpos  []string
		heads []int
		rels  []string
		prev  int  // the token before "et"
		bound bool // whether prev shares a run with "et al."
	}{
		{
			name:  "name",
			forms: []string{"entails", "(", "Hartsell-Gundy", "et", "al.", ",", "2015", ")"},
			xpos:  []string{"VBZ", "-LRB-", "NNP", "NN", "FW", ",", "CD", "-RRB-"},
			heads: []int{0, 4, 4, 1, 4, 7, 4, 4},
			rels:  []string{"root", "punct", "compound", "appos", "conj", "punct", "nmod:unmarked", "punct"},
			prev:  3, bound: true,
		},
		{
			name:  "capitalised, mistagged",
			forms: []string{"entails", "(", "Smith", "et", "al.", ",", "2015", ")"},
			xpos:  []string{"VBZ", "-LRB-", "JJ", "NN", "FW", ",", "CD", "-RRB-"},
			heads: []int{0, 4, 1, 1, 4, 7, 4, 4},
			rels:  []string{"root", "punct", "dep", "appos", "conj", "punct", "nmod:unmarked", "punct"},
			prev:  3, bound: true,
		},
		{
			name:  "comma",
			forms: []string{"entails", "(", "Smith", ",", "et", "al.", ",", "2015", ")"},
			xpos:  []string{"VBZ", "-LRB-", "NNP", ",", "NN", "FW", ",", "CD", "-RRB-"},
			heads: []int{0, 3, 1, 5, 3, 5, 8, 5, 3},
			rels:  []string{"root", "punct", "obj", "punct", "appos", "conj", "punct", "nmod:unmarked", "punct"},
			prev:  4, bound: false,
		},
		{
			name:  "verb",
			forms: []string{"as", "reported", "et", "al.", "2015"},
			xpos:  []string{"IN", "VBN", "NN", "FW", "CD"},
			heads: []int{2, 0, 2, 3, 3},
			rels:  []string{"mark", "root", "obl", "conj", "nmod:unmarked"},
			prev:  2, bound: false,
		},
	} {
		u := handRuns(t, c.forms, c.xpos, c.heads, c.rels, []int{1})
		p, et, al := c.prev, c.prev+1, c.prev+2
		if c.bound {
			for v := p; v <= al; v++ {
				if u.Lo(v) > p || u.Hi(v) < al {
					t.Errorf("%s: token %d %q spans [%d, %d]; want at least [%d, %d]", c.name, v, c.forms[v-1], u.Lo(v), u.Hi(v), p, al)
				}
			}
			continue
		}
		if u.Hi(p) >= et || u.Lo(et) <= p || u.Lo(al) <= p {
			t.Errorf("%s: %q spans [%d, %d], %q from %d, %q from %d; want %q apart from \"et al.\"",
				c.name, c.forms[p-1], u.Lo(p), u.Hi(p), c.forms[et-1], u.Lo(et), c.forms[al-1], u.Lo(al), c.forms[p-1])
		}
	}
}

// TestRunsEndOnWhWord checks that a run cannot end on a wh-word that opens a clause,
// whatever its relation: "the Institute , which makes masks".
func TestRunsEndOnWhWord(t *testing.T) {
	forms := []string{"the", "Institute", ",", "which", "makes", "masks"}
	xpos := []string{"DT", "NNP", ",", "WDT", "VBZ", "NNS"}
	heads := []int{2, 0, 5, 5, 2, 5}
	rels := []string{"det", "root", "punct", "nsubj", "acl:relcl", "obj"}
	u := handRuns(t, forms, xpos, heads, rels, []int{2})
	if u.CanEnd(4) || !u.CanEnd(2) || !u.CanEnd(6) {
		t.Errorf("ends: which %v, Institute %v, masks %v; want false, true, true", u.CanEnd(4), u.CanEnd(2), u.CanEnd(6))
	}
}

// TestRunsEndOnClosingWhWord checks that a wh-word that ends its clause, its head before
// it, may end a run, and so may the sentence's period after it: "Nobody knows why ."
func TestRunsEndOnClosingWhWord(t *testing.T) {
	forms := []string{"Nobody", "knows", "why", "."}
	xpos := []string{"NN", "VBZ", "WRB", "."}
	heads := []int{2, 0, 2, 2}
	rels := []string{"nsubj", "root", "advmod", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{3})
	if !u.CanEnd(3) || !u.CanEnd(4) {
		t.Errorf("ends: why %v, period %v; want true, true", u.CanEnd(3), u.CanEnd(4))
	}
}

// TestRunsLead checks the words a single run may leave out before it on "He did not see
// the 3 dogs .": the auxiliary and the article, not the negation or the number.
func TestRunsLead(t *testing.T) {
	forms := []string{"He", "did", "not", "see", "the", "3", "dogs", "."}
	xpos := []string{"PRP", "VBD", "RB", "VB", "DT", "CD", "NNS", "."}
	heads := []int{4, 4, 4, 0, 7, 7, 4, 4}
	rels := []string{"nsubj", "aux", "advmod", "root", "det", "nummod", "obj", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{7})
	checkLead(t, u, forms, map[int]bool{2: true, 3: false, 4: false, 5: true, 6: false})
}

// checkLead checks u.Lead against want, token by token.
func checkLead(t *testing.T, u *Runs, forms []string, want map[int]bool) {
	t.Helper()
	for v, w := range want {
		if u.Lead(v) != w {
			t.Errorf("lead %q: %v, want %v", forms[v-1], u.Lead(v), w)
		}
	}
}

// TestRunsTitledNames checks that a stretch of capitalized words that the tags do not
// call proper nouns is one name where the parse joins it ("the Joint Comprehensive Plan
// of Action", tagged JJ JJ NN IN NN), that two such names side by side stay two, and that
// the capitals of a sentence's first word or of a headline make none.
func TestRunsTitledNames(t *testing.T) {
	forms := []string{"It", "preserves", "the", "Joint", "Comprehensive", "Plan", "of", "Action", "."}
	xpos := []string{"PRP", "VBZ", "DT", "JJ", "JJ", "NN", "IN", "NN", "."}
	heads := []int{2, 0, 6, 6, 6, 2, 8, 6, 2}
	rels := []string{"nsubj", "root", "det", "amod", "amod", "obj", "case", "nmod", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{4})
	for v := 4; v <= 8; v++ {
		if u.Hi(v) < 8 {
			t.Errorf("token %d (%s): a run holding it may end at %d, inside the name 4..8", v, forms[v-1], u.Hi(v))
		}
	}
	if u.Lo(8) != 8 {
		t.Errorf(`a run holding "Action" must hold from %d: a run may start inside a name`, u.Lo(8))
	}
	// "Homeland Security" and "US" are side by side; the parse makes them two
	// modifiers of "plants", so they are two names, and "US" alone is none.
	forms = []string{"They", "named", "Homeland", "Security", "US", "chemical", "plants", "."}
	xpos = []string{"PRP", "VBD", "NN", "NN", "NNP", "JJ", "NNS", "."}
	heads = []int{2, 0, 4, 7, 7, 7, 2, 2}
	rels = []string{"nsubj", "root", "compound", "compound", "compound", "amod", "obj", "punct"}
	u = handRuns(t, forms, xpos, heads, rels, []int{7})
	if u.Hi(3) != 4 {
		t.Errorf(`"Homeland Security" is not one name: Hi(3) = %d`, u.Hi(3))
	}
	if u.Lo(5) != 5 || u.Hi(5) != 7 {
		t.Errorf(`"US" is joined to "Homeland Security": Lo(5) = %d, Hi(5) = %d`, u.Lo(5), u.Hi(5))
	}
	// A sentence's first word is capitalized as the sentence's: "Diagnostic Manual" at
	// the start is no name ("Diagnostic" needs "Manual" as any adjective does).
	forms = []string{"Diagnostic", "Manual", "lists", "it", "."}
	xpos = []string{"JJ", "NN", "VBZ", "PRP", "."}
	heads = []int{2, 3, 0, 3, 3}
	rels = []string{"amod", "nsubj", "root", "obj", "punct"}
	u = handRuns(t, forms, xpos, heads, rels, []int{3})
	if u.Lo(2) != 2 {
		t.Errorf("the first word and the next are a name: Lo(2) = %d", u.Lo(2))
	}
	// A list item's first word is capitalized as the item's: "60 - Percentage of
	// Americans who …" holds no name.
	forms = []string{"60", "-", "Percentage", "of", "Americans", "who", "agree"}
	xpos = []string{"CD", ":", "NN", "IN", "NNPS", "WP", "VBP"}
	heads = []int{0, 1, 1, 5, 3, 7, 5}
	rels = []string{"root", "punct", "appos", "case", "nmod", "nsubj", "acl:relcl"}
	u = handRuns(t, forms, xpos, heads, rels, []int{7})
	if u.Hi(3) != 3 {
		t.Errorf(`"Percentage of Americans" is a name: Hi(3) = %d`, u.Hi(3))
	}
	// A headline: most words capitalized, so capitals make no name.
	forms = []string{"Leaders", "Back", "Plan", "of", "Action"}
	xpos = []string{"NNS", "VBP", "NN", "IN", "NN"}
	heads = []int{2, 0, 2, 5, 3}
	rels = []string{"nsubj", "root", "obj", "case", "nmod"}
	u = handRuns(t, forms, xpos, heads, rels, []int{2})
	if u.Hi(3) != 3 {
		t.Errorf(`a headline's "Plan of Action" is bound as a name: Hi(3) = %d`, u.Hi(3))
	}
}

// TestRunDangles checks that a run ends dangling before the complement of a word it holds,
// however far the complement comes after it: "The rules require people who create models
// to declare data", where "to declare data" is what "require" needs.
func TestRunDangles(t *testing.T) {
	forms := []string{"The", "rules", "require", "people", "who", "create", "models", "to", "declare", "data", "."}
	xpos := []string{"DT", "NNS", "VBP", "NNS", "WP", "VBP", "NNS", "TO", "VB", "NNS", "."}
	heads := []int{2, 3, 0, 3, 6, 4, 6, 9, 3, 9, 3}
	rels := []string{"det", "nsubj", "root", "obj", "nsubj", "acl:relcl", "obj", "mark", "xcomp", "obj", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{4})
	for _, c := range []struct {
		s, e int
		want bool
		why  string
	}{
		{1, 7, true, `"… require people who create models …" leaves what they require to come`},
		{4, 7, false, `"… people who create models …" holds no word whose complement is cut`},
		{1, 3, true, `"… require …" ends on the head itself`},
		{1, 10, false, `"… to declare data" holds every complement`},
		{5, 6, true, `"… who create …" ends before "models"`},
	} {
		if got := u.RunDangles(c.s, c.e); got != c.want {
			t.Errorf("RunDangles(%d, %d) = %v, want %v: %s", c.s, c.e, got, c.want, c.why)
		}
	}
}

// TestRunsObjectPronounStart checks that no run starts on an object pronoun whose verb
// comes before it ("… him, and he's noodling"), and that a subject pronoun may start one.
func TestRunsObjectPronounStart(t *testing.T) {
	forms := []string{"I", "met", "him", ",", "and", "he", "smiled", "."}
	xpos := []string{"PRP", "VBD", "PRP", ",", "CC", "PRP", "VBD", "."}
	heads := []int{2, 0, 2, 7, 7, 7, 2, 2}
	rels := []string{"nsubj", "root", "obj", "punct", "cc", "nsubj", "conj", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{7})
	if u.CanStart(3) {
		t.Errorf(`a run may start on "him", the object of "met" before it`)
	}
	if !u.CanStart(6) {
		t.Errorf(`a run may not start on "he", a subject`)
	}
}

// TestRunsSubjectPronounEnd checks that no run ends on a subject pronoun whose verb comes
// after it ("… whatever the agony it …"), and that an object pronoun may end one.
func TestRunsSubjectPronounEnd(t *testing.T) {
	forms := []string{"I", "saw", "him", "when", "they", "left", "."}
	xpos := []string{"PRP", "VBD", "PRP", "WRB", "PRP", "VBD", "."}
	heads := []int{2, 0, 2, 6, 6, 2, 2}
	rels := []string{"nsubj", "root", "obj", "mark", "nsubj", "advcl", "punct"}
	u := handRuns(t, forms, xpos, heads, rels, []int{2})
	if u.CanEnd(5) {
		t.Errorf(`a run may end on "they", the subject of "left" after it`)
	}
	if u.CanEnd(1) {
		t.Errorf(`a run may end on "I", the subject of "saw" after it`)
	}
	if !u.CanEnd(3) {
		t.Errorf(`a run may not end on "him", an object`)
	}
}

// TestRunsResetAllocs checks that Runs.Reset allocates nothing once its memory has grown,
// on a sentence whose pronouns are capitalized, which the word tests must read without
// lowercasing into a new string.
func TestRunsResetAllocs(t *testing.T) {
	forms := []string{"They", "met", "Him", ",", "and", "He", "smiled", "at", "the", "Joint", "Plan", "."}
	xpos := []string{"PRP", "VBD", "PRP", ",", "CC", "PRP", "VBD", "IN", "DT", "JJ", "NN", "."}
	heads := []int{2, 0, 2, 7, 7, 7, 2, 11, 11, 11, 7, 2}
	rels := []string{"nsubj", "root", "obj", "punct", "cc", "nsubj", "conj", "case", "det", "amod", "obl", "punct"}
	r := new(Rules)
	query := []int{7}
	s, tr, _ := handparse.Parsed(t, r, forms, xpos, heads, rels, query, 1000)
	u := new(Runs)
	u.Reset(s, tr, r, query)
	if a := testing.AllocsPerRun(20, func() { u.Reset(s, tr, r, query) }); a != 0 {
		t.Errorf("Runs.Reset: %.0f allocations, want 0", a)
	}
}

// TestQuotation checks the quotations that Runs.Quotation reads: the innermost pair of
// double quotes of any style around a token (a bracket inside one is in it), none for the
// marks of the outermost pair, none for an unmatched mark, and none for a treebank's
// quotes (two backticks, two apostrophes).
func TestQuotation(t *testing.T) {
	s, tr, _ := sent(t, strings.Join([]string{"He/PRP/2/nsubj", "said/VBD/0/root", "“/``/5/punct", "it/PRP/5/nsubj", "is/VBZ/2/ccomp",
		"\"/``/8/punct", "a/DT/8/det", "game/NN/5/xcomp", "\"/''/8/punct", "(/-LRB-/11/punct", "really/RB/5/advmod", ")/-RRB-/11/punct",
		"”/''/5/punct", "././2/punct", "„/``/2/punct", "``/``/17/punct", "no/DT/2/obj", "''/''/17/punct"}, " "))
	var u Runs
	u.Reset(s, tr, nil, nil)
	for _, c := range []struct{ v, o, c int }{
		{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, // before and at the first mark
		{4, 3, 13}, {5, 3, 13}, // inside “…”
		{6, 3, 13},           // the inner pair's mark lies inside the outer one
		{7, 6, 9}, {8, 6, 9}, // inside the inner "…"
		{10, 3, 13}, {11, 3, 13}, // inside a bracket inside the quotation
		{13, 0, 0}, {14, 0, 0}, {15, 0, 0}, // after it, and an unmatched „
		{17, 0, 0},            // a treebank's `` and '' are not written quotes
		{0, 0, 0}, {19, 0, 0}, // out of range
	} {
		if o, cl := u.Quotation(s, c.v); o != c.o || cl != c.c {
			t.Errorf("Quotation(%d %q) = %d, %d, want %d, %d", c.v, formOf(s, c.v), o, cl, c.o, c.c)
		}
	}
}

// formOf returns the form of token v of s, or "" out of range.
func formOf(s *syntax.Sentence, v int) string {
	if v < 1 || v > s.Len() {
		return ""
	}
	return s.Tokens[v-1].Form
}
