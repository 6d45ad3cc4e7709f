package wellformed

import (
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

// sent builds a parsed sentence from "form/XPOS/head/rel" words.
func sent(t testing.TB, words string) (*syntax.Sentence, *syntax.Tree, []int) {
	t.Helper()
	s := &syntax.Sentence{}
	var lens []int
	for _, w := range strings.Fields(words) {
		f := strings.Split(w, "/")
		if len(f) == 5 && f[0] == "." { // "./././4/punct"
			f = []string{".", ".", f[3], f[4]}
		}
		if len(f) != 4 {
			t.Fatalf("bad word %q", w)
		}
		h := 0
		for _, c := range f[2] {
			h = 10*h + int(c-'0')
		}
		s.Tokens = append(s.Tokens, syntax.Token{Form: f[0], XPOS: f[1], Head: h, Rel: f[3]})
		lens = append(lens, len([]rune(f[0])))
	}
	tree, err := syntax.NewTree(s.Heads())
	if err != nil {
		t.Fatal(err)
	}
	return s, tree, lens
}

// textSent returns text tokenized (with its offsets), parsed by hand with heads, rels and,
// when not nil, xpos, its tree and its token lengths.
func textSent(t *testing.T, text string, heads []int, rels, xpos []string) (*syntax.Sentence, *syntax.Tree, []int) {
	t.Helper()
	toks := tokenize.Tokens(text)
	if len(toks) != len(heads) {
		t.Fatalf("%d tokens: %v", len(toks), toks)
	}
	s := &syntax.Sentence{Tokens: toks}
	var lens []int
	for i := range s.Tokens {
		s.Tokens[i].Head, s.Tokens[i].Rel = heads[i], rels[i]
		if xpos != nil {
			s.Tokens[i].XPOS = xpos[i]
		}
		lens = append(lens, len([]rune(s.Tokens[i].Form)))
	}
	tree, err := syntax.NewTree(s.Heads())
	if err != nil {
		t.Fatal(err)
	}
	return s, tree, lens
}

// Police did not arrest the "Aung San Suu Kyi" supporters in New York , reportedly .
const example = `Police/NNS/4/nsubj did/VBD/4/aux not/RB/4/advmod arrest/VB/0/root the/DT/12/det
"/''/7/punct Aung/NNP/12/compound San/NNP/7/flat Suu/NNP/7/flat Kyi/NNP/7/flat "/''/7/punct
supporters/NNS/4/obj in/IN/15/case New/NNP/15/compound York/NNP/12/nmod ,/,/17/punct
reportedly/RB/4/advmod ./././4/punct`

func TestRules(t *testing.T) {
	s, tree, lens := sent(t, example)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{12}, 200); err != nil {
		t.Fatal(err)
	}
	if r.Yielded() {
		t.Fatal("yielded with a large budget")
	}
	for _, c := range []struct {
		v    int
		bind Binding
		why  Category
	}{
		{2, NeedsHead, FunctionHead}, {3, WithHead, Negation}, {5, NeedsHead, FunctionHead},
		{6, NeedsHead, Balance}, {8, WithHead, Chain}, {11, WithHead, Balance}, {13, NeedsHead, FunctionHead},
		{14, WithHead, Chain}, {16, Free, 0}, {17, WithHead, Hedge}, {18, Free, 0}, {1, Free, 0},
	} {
		if r.Binding(c.v) != c.bind || (c.bind != Free && r.Why(c.v) != c.why) {
			t.Errorf("token %d (%s): binding %d (%s), want %d (%s)", c.v, s.Tokens[c.v-1].Form, r.Binding(c.v), r.Why(c.v), c.bind, c.why)
		}
	}
	// The name and its head "Aung" form one unit; the quotes another, which needs the
	// name: a snippet may drop the quotes (as the Google compressions do), but not one of
	// them, nor keep them around nothing.
	unitOf := func(v int) []int {
		var unit []int
		for u := r.Top(v); u != 0; u = r.Next(u) {
			unit = append(unit, u)
		}
		return unit
	}
	if got, want := unitOf(8), []int{7, 8, 9, 10}; !slices.Equal(got, want) {
		t.Errorf("unit of San = %v, want %v", got, want)
	}
	if w := r.UnitWeight(7); w != 5+4+4+4 {
		t.Errorf("unit weight %d", w)
	}
	if got, want := unitOf(11), []int{6, 11}; !slices.Equal(got, want) {
		t.Errorf("unit of the closing quote = %v, want %v", got, want)
	}
	quotes := map[int]bool{}
	r.Closure(11, func(v int) bool { return quotes[v] }, func(v int) { quotes[v] = true })
	if !quotes[6] || !quotes[7] || !quotes[10] || quotes[12] {
		t.Errorf("closure of the closing quote = %v", quotes)
	}
	// Keeping "the" brings its head, "supporters", and that head's unit.
	in := map[int]bool{}
	r.Closure(5, func(v int) bool { return in[v] }, func(v int) { in[v] = true })
	if !in[5] || !in[12] || in[7] {
		t.Errorf("closure of 'the' = %v", in)
	}
}

func TestRulesYield(t *testing.T) {
	s, tree, lens := sent(t, example)
	var r Rules
	// Q = San: its unit is the whole quoted name (21 characters); a budget of 5 cannot hold it.
	if err := r.Reset(s, tree, lens, []int{8}, 5); err != nil {
		t.Fatal(err)
	}
	if !r.Yielded() || r.Top(8) != 8 {
		t.Fatalf("yielded %v, top of San %d", r.Yielded(), r.Top(8))
	}
	if err := r.Reset(s, tree, lens, []int{8}, 30); err != nil {
		t.Fatal(err)
	}
	if r.Yielded() {
		t.Fatal("yielded with room for the name")
	}
}

func TestTrim(t *testing.T) {
	// He looked at the house they lived in , .
	s, tree, lens := sent(t, `He/PRP/2/nsubj looked/VBD/0/root at/IN/5/case the/DT/5/det house/NN/2/obl
they/PRP/7/nsubj lived/VBD/5/acl:relcl in/IN/5/case ,/,/7/punct ./././2/punct`)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{1}, 100); err != nil {
		t.Fatal(err)
	}
	got := r.Trim(s, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	if want := []int{1, 2, 3, 4, 5, 6, 7, 10}; !slices.Equal(got, want) {
		t.Errorf("Trim = %v, want %v", got, want)
	}
	// A query token is never trimmed.
	if err := r.Reset(s, tree, lens, []int{8}, 100); err != nil {
		t.Fatal(err)
	}
	if got := r.Trim(s, []int{5, 8}); !slices.Equal(got, []int{5, 8}) {
		t.Errorf("Trim dropped the query: %v", got)
	}
}

func TestCheck(t *testing.T) {
	s, _, _ := sent(t, example)
	var k Checker
	for _, c := range []struct {
		kept []int
		want map[Category]int
	}{
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}, nil},
		// "Police arrest the" : negation and hedge dropped, ends on "the", which lacks its head.
		{[]int{1, 4, 5}, map[Category]int{Negation: 1, Hedge: 1, FunctionEnd: 1, FunctionHead: 1}},
		// Half a name and one quote.
		{[]int{1, 2, 3, 4, 6, 7, 8, 12, 17}, map[Category]int{Chain: 2, Balance: 1}},
	} {
		got := k.Check(s, c.kept, []int{1})
		for _, cat := range Categories() {
			if got.Total[cat] != c.want[cat] {
				t.Errorf("Check(%v): %s = %d, want %d", c.kept, cat, got.Total[cat], c.want[cat])
			}
		}
	}
	// A violation that involves a query token is counted as forced.
	got := k.Check(s, []int{1, 4, 8}, []int{8})
	if got.Forced[Chain] != 1 || got.Unforced(Chain) != 0 {
		t.Errorf("forced chain = %d of %d", got.Forced[Chain], got.Total[Chain])
	}
}

func TestPairs(t *testing.T) {
	s := &syntax.Sentence{}
	for _, f := range strings.Fields(`( a " b " ) “ c ” [ d`) {
		s.Tokens = append(s.Tokens, syntax.Token{Form: f})
	}
	var got [][2]int
	Pairs(s, func(o, c int) { got = append(got, [2]int{o, c}) })
	want := [][2]int{{3, 5}, {1, 6}, {7, 9}}
	if !slices.Equal(got, want) {
		t.Errorf("Pairs = %v, want %v", got, want)
	}
	// Other scripts' quotes and brackets, German „…“ closing on “, and a closing half
	// of another kind than the one open (】 after 「) left alone.
	for _, c := range []struct {
		forms string
		want  [][2]int
	}{
		{`„ a “ b`, [][2]int{{1, 3}}},
		{`“ a „ b “ ”`, [][2]int{{3, 5}, {1, 6}}},
		{`« a ( b ) »`, [][2]int{{3, 5}, {1, 6}}},
		{`「 a 」 （ b ）`, [][2]int{{1, 3}, {4, 6}}},
		{`( a 」 b )`, [][2]int{{1, 5}}},
	} {
		s := &syntax.Sentence{}
		for _, f := range strings.Fields(c.forms) {
			s.Tokens = append(s.Tokens, syntax.Token{Form: f})
		}
		var got [][2]int
		Pairs(s, func(o, cl int) { got = append(got, [2]int{o, cl}) })
		if !slices.Equal(got, c.want) {
			t.Errorf("Pairs(%q) = %v, want %v", c.forms, got, c.want)
		}
	}
}

// TestPairsSingleQuotes checks single quotes read by where they stand in the text: a pair
// around a short stretch, an apostrophe left alone, and no pair around a long quotation.
func TestPairsSingleQuotes(t *testing.T) {
	for _, c := range []struct {
		text string
		want [][2]int
	}{
		{"a 'Declaration by the people' condemning", [][2]int{{2, 7}}},
		{"the boys' toys and 'posix mode'.", [][2]int{{6, 9}}},
		{"the `declare' builtin", [][2]int{{2, 4}}},
		{"the ‘repair initiator’ here", [][2]int{{2, 5}}},
		{"the boys' toys", nil},
		{"he said, 'Frank, I have never bothered you during the game, but thanks'", nil},
	} {
		s := &syntax.Sentence{Tokens: tokenize.Tokens(c.text)}
		var got [][2]int
		Pairs(s, func(o, cl int) { got = append(got, [2]int{o, cl}) })
		if !slices.Equal(got, c.want) {
			t.Errorf("Pairs(%q) = %v, want %v (tokens %v)", c.text, got, c.want, s.Forms())
		}
	}
}

func TestParseOff(t *testing.T) {
	m, err := ParseOff("balance, hedge")
	if err != nil || m != 1<<Balance|1<<Hedge {
		t.Errorf("ParseOff = %b, %v", m, err)
	}
	if _, err := ParseOff("commas"); err == nil {
		t.Error("ParseOff accepted an unknown rule")
	}
}

// TestRangeDash: the dash of a score or range, and the number after it, are kept with
// the number before it ("a 1-1 draw", never "a 1 … 1 draw").
func TestRangeDash(t *testing.T) {
	// with a 1 - 1 draw (as qsc's parser parses it)
	s, tree, lens := sent(t, `with/IN/6/case a/DT/6/det 1/CD/6/compound -/SYM/5/case 1/CD/3/nmod draw/NN/0/root`)
	var r Rules
	if err := r.Reset(s, tree, lens, nil, 100); err != nil {
		t.Fatal(err)
	}
	var unit []int
	for u := r.Top(4); u != 0; u = r.Next(u) {
		unit = append(unit, u)
	}
	slices.Sort(unit)
	if want := []int{3, 4, 5}; !slices.Equal(unit, want) {
		t.Errorf("unit of the dash = %v, want %v", unit, want)
	}
	// A dash that does not join two numbers stays a function word or punctuation.
	s, tree, lens = sent(t, `grew/VBD/0/root 10/CD/1/obj -/:/5/punct the/DT/5/det most/JJS/1/obl`)
	if err := r.Reset(s, tree, lens, nil, 100); err != nil {
		t.Fatal(err)
	}
	if r.Binding(3) == WithHead {
		t.Errorf("dash after a number but before a word: binding %d (%s)", r.Binding(3), r.Why(3))
	}
}

// TestPairAtRoot: when a parse makes the opening quote its root, the closing quote still
// goes with it (a Google test sentence where the ILP kept the closing quote alone).
func TestPairAtRoot(t *testing.T) {
	// `` No. 66 did his thing . ''
	s, tree, lens := sent(t, "``/``/0/root No./NNP/5/nsubj 66/CD/2/flat definitely/RB/5/advmod did/VBD/1/acl:relcl "+
		"his/PRP$/7/nmod:poss thing/NN/5/obj ././1/punct ''/''/1/punct")
	var r Rules
	if err := r.Reset(s, tree, lens, []int{2, 7}, 23); err != nil {
		t.Fatal(err)
	}
	if r.Top(9) != r.Top(1) {
		t.Errorf("closing quote in unit %d, opening quote in unit %d", r.Top(9), r.Top(1))
	}
}

func TestSoundOf(t *testing.T) {
	for _, c := range []struct {
		form string
		want Sound
	}{
		{"investigation", SoundVowel}, {"apple", SoundVowel}, {"umbrella", SoundVowel}, {"unidentified", SoundVowel},
		{"hour", SoundVowel}, {"honest", SoundVowel}, {"8-year-old", SoundVowel}, {"80", SoundVowel},
		{"11", SoundVowel}, {"18th", SoundVowel}, {"11,000", SoundVowel}, {"X-ray", SoundVowel}, {"F", SoundVowel},
		{"AIDS", SoundVowel}, {"onerous", SoundVowel}, {"Investigation", SoundVowel}, {"Hour", SoundVowel},
		{"University", SoundConsonant}, {"One", SoundConsonant}, {"Ümlaut", SoundUnknown},
		{"long", SoundConsonant}, {"university", SoundConsonant}, {"unit", SoundConsonant}, {"useful", SoundConsonant},
		{"European", SoundConsonant}, {"one", SoundConsonant}, {"one-off", SoundConsonant}, {"house", SoundConsonant},
		{"year", SoundConsonant}, {"U.S.", SoundConsonant}, {"UN", SoundConsonant}, {"110", SoundConsonant},
		{"1,800", SoundConsonant}, {"B-52", SoundConsonant},
		{"FBI", SoundUnknown}, {"NASA", SoundUnknown}, {"$", SoundUnknown}, {"", SoundUnknown},
	} {
		if got := SoundOf(c.form); got != c.want {
			t.Errorf("SoundOf(%q) = %d, want %d", c.form, got, c.want)
		}
	}
}

// after a long investigation into an old case .
const articles = `after/IN/4/case a/DT/4/det long/JJ/4/amod investigation/NN/0/root into/IN/8/case
an/DT/8/det old/JJ/8/amod case/NN/4/nmod ./././4/punct`

// TestArticle checks that an article is kept only with the word that makes it agree: "a
// long investigation" may become "investigation" or "a long investigation", never "a
// investigation"; "an old case" never "an case"; and that the checker counts the break in
// outputs made without the rule.
func TestArticle(t *testing.T) {
	s, tree, lens := sent(t, articles)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{4}, 200); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ v, head int }{{2, 3}, {3, 4}, {6, 7}, {7, 8}} {
		if !r.NeedsHead(c.v) || r.Head(c.v) != c.head || r.Why(c.v) != Article {
			t.Errorf("token %d (%s): needs head %t, head %d, why %s; want head %d, article", c.v, s.Tokens[c.v-1].Form,
				r.NeedsHead(c.v), r.Head(c.v), r.Why(c.v), c.head)
		}
	}
	var added []int
	in := func(v int) bool { return slices.Contains(added, v) }
	r.Closure(2, in, func(v int) { added = append(added, v) })
	if slices.Sort(added); !slices.Equal(added, []int{2, 3, 4}) {
		t.Errorf("closure of a = %v, want [2 3 4]", added)
	}
	var k Checker
	for _, c := range []struct {
		kept []int
		want int
	}{
		{[]int{1, 2, 3, 4, 9}, 0}, {[]int{1, 2, 4, 9}, 1}, {[]int{4, 5, 6, 8}, 1}, {[]int{4, 5, 6, 7, 8}, 0},
		{[]int{4, 5, 8}, 0}, {[]int{1, 2, 4, 5, 6, 8, 9}, 2},
	} {
		if got := k.Check(s, c.kept, []int{4}).Total[Article]; got != c.want {
			t.Errorf("check %v: %d article breaks, want %d", c.kept, got, c.want)
		}
	}
	// A quote after the article: "an `` unnatural '' death" needs "unnatural".
	s3, tree3, lens3 := sent(t, "died/VBD/0/root an/DT/6/det ``/``/4/punct unnatural/JJ/6/amod ''/''/4/punct death/NN/1/obj")
	if err := r.Reset(s3, tree3, lens3, []int{6}, 200); err != nil {
		t.Fatal(err)
	}
	if r.Head(2) != 4 || r.Why(2) != Article || !r.NeedsHead(4) {
		t.Errorf("an `` unnatural death: head %d, why %s, unnatural needs its head %t; want 4, article, true", r.Head(2), r.Why(2), r.NeedsHead(4))
	}
	if got := k.Check(s3, []int{1, 2, 3, 5, 6}, []int{6}).Total[Article]; got != 1 {
		t.Errorf("an `` '' death: %d article breaks, want 1", got)
	}
	// The rules allocate nothing once grown, capitalised words included.
	s4, tree4, lens4 := sent(t, "an/DT/3/det Unusual/JJ/3/amod Hotel/NN/0/root")
	if n := testing.AllocsPerRun(20, func() { _ = r.Reset(s4, tree4, lens4, []int{3}, 200) }); n != 0 {
		t.Errorf("Reset allocates %v times", n)
	}
	// "a long tree" agrees whatever is dropped: no binding.
	s2, tree2, lens2 := sent(t, "a/DT/3/det long/JJ/3/amod tree/NN/0/root")
	if err := r.Reset(s2, tree2, lens2, []int{3}, 200); err != nil {
		t.Fatal(err)
	}
	if r.Head(1) != 3 || r.Why(1) != FunctionHead || r.Binding(2) != Free {
		t.Errorf("a long tree: head %d, why %s, long %d; want 3, function-head, free", r.Head(1), r.Why(1), r.Binding(2))
	}
}

// TestNegationScope checks that the scope of a negation goes with it: a negative subject
// or object is kept whenever its predicate is, the complement of a negated predicate only
// with it, and neither across punctuation.
func TestNegationScope(t *testing.T) {
	// staff do n't seem to like answering questions , and no nominee was named ( nothing ,
	// said Lee ) .
	s, tree, lens := sent(t, `staff/NNS/4/nsubj do/VBP/4/aux n't/RB/4/advmod seem/VB/0/root
to/TO/6/mark like/VB/4/xcomp answering/VBG/6/xcomp questions/NNS/7/obj ,/,/14/punct
and/CC/14/cc no/DT/12/det nominee/NN/14/nsubj:pass was/VBD/14/aux:pass named/VBN/4/conj
(/-LRB-/18/punct nothing/NN/18/nsubj ,/,/18/punct said/VBD/14/parataxis Lee/NNP/18/obl
)/-RRB-/18/punct ./././4/punct`)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{8}, 500); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    int
		bind Binding
		why  Category
	}{
		{3, WithHead, Negation},  // n't
		{6, NeedsHead, Negation}, // like: the complement of "do n't seem"
		{7, Free, 0},             // answering: a complement of "like", which is not negated
		{11, WithHead, Negation}, // no
		{12, WithHead, Negation}, // nominee: "named" is kept only with "no nominee"
		{16, Free, 0},            // nothing: a comma stands between it and "said"
	} {
		if r.Binding(c.v) != c.bind || (c.bind != Free && r.Why(c.v) != c.why) {
			t.Errorf("token %d (%s): binding %d (%s), want %d (%s)", c.v, s.Tokens[c.v-1].Form, r.Binding(c.v), r.Why(c.v), c.bind, c.why)
		}
	}
	var k Checker
	// "staff … to like answering questions": the complement without the negated verb.
	if got := k.Check(s, []int{1, 5, 6, 7, 8}, []int{8}); got.Total[Negation] != 1 {
		t.Errorf("complement without its negated head: %d negation violations, want 1", got.Total[Negation])
	}
	// "was named" without "no nominee".
	if got := k.Check(s, []int{13, 14}, nil); got.Total[Negation] != 1 {
		t.Errorf("predicate without its negative subject: %d negation violations, want 1", got.Total[Negation])
	}
}

// TestNoLonger checks that "no longer" is a negation of the verb: "longer" goes with the
// verb, "no" with "longer", and the verb's object after it with the negated verb, so that
// "the app … shows ERR_TLS_HANDSHAKE" cannot say the opposite of "the app no longer shows
// ERR_TLS_HANDSHAKE".
func TestNoLonger(t *testing.T) {
	s, tree, lens := sent(t, `the/DT/2/det app/NN/5/nsubj no/RB/4/advmod longer/RBR/5/advmod shows/VBZ/0/root
ERR_TLS_HANDSHAKE/NN/5/obj ./././5/punct`)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{6}, 500); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    int
		bind Binding
	}{{3, WithHead}, {4, WithHead}, {6, NeedsHead}} {
		if r.Binding(c.v) != c.bind || r.Why(c.v) != Negation {
			t.Errorf("token %d (%s): binding %d (%s), want %d (negation)", c.v, s.Tokens[c.v-1].Form, r.Binding(c.v), r.Why(c.v), c.bind)
		}
	}
	var k Checker
	if got := k.Check(s, []int{1, 2, 5, 6}, []int{6}); got.Total[Negation] == 0 {
		t.Errorf(`"the app shows ERR_TLS_HANDSHAKE" without "no longer": no negation violation`)
	}
}

// TestNegationScopeClause checks that the relative clause of a negated nominal predicate
// is kept only with it: "were not in the situation where they were able to help" never shows
// "they were able to help" alone, while the clause of a noun that is not negated stays free.
func TestNegationScopeClause(t *testing.T) {
	s, tree, lens := sent(t, `they/PRP/5/nsubj were/VBD/5/cop not/RB/5/advmod in/IN/5/case situation/NN/0/root
where/WRB/9/advmod they/PRP/9/nsubj were/VBD/9/cop able/JJ/5/acl:relcl to/TO/11/mark help/VB/9/xcomp
the/DT/13/det man/NN/11/obj who/WP/15/nsubj left/VBD/13/acl:relcl ./././5/punct`)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{9}, 500); err != nil {
		t.Fatal(err)
	}
	if r.Binding(9) != NeedsHead || r.Why(9) != Negation || r.Head(9) != 5 {
		t.Errorf("able: binding %d (%s) to %d, want needs-head (negation) to 5", r.Binding(9), r.Why(9), r.Head(9))
	}
	if r.Binding(15) != Free {
		t.Errorf("left, the clause of a noun that is not negated: binding %d, want free", r.Binding(15))
	}
	// A relative clause that the parse hangs on a negated verb is not in its scope:
	// "HANO has not provided residents a preference", "residents" parsed acl:relcl.
	s2, tree2, lens2 := sent(t, `HANO/NNP/4/nsubj has/VBZ/4/aux not/RB/4/advmod provided/VBN/0/root
residents/NNS/4/acl:relcl a/DT/7/det preference/NN/5/obj ./././4/punct`)
	if err := r.Reset(s2, tree2, lens2, []int{7}, 500); err != nil {
		t.Fatal(err)
	}
	if r.Binding(5) != Free {
		t.Errorf("residents, a clause of a negated verb: binding %d, want free", r.Binding(5))
	}
}

// TestBarredFrom checks that what a barring verb bars is kept with it, "from" included:
// "preventing the federation from collapsing" never shows "preventing the federation"
// alone, while "came from Paris" stays free.
func TestBarredFrom(t *testing.T) {
	s, tree, lens := sent(t, `they/PRP/2/nsubj prevented/VBD/0/root the/DT/4/det federation/NN/2/obj
from/IN/6/mark collapsing/VBG/2/advcl ./././2/punct`)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{4}, 500); err != nil {
		t.Fatal(err)
	}
	if r.Binding(6) != WithHead || r.Why(6) != Negation || r.Head(6) != 2 {
		t.Errorf("collapsing: binding %d (%s) to %d, want with-head (negation) to 2", r.Binding(6), r.Why(6), r.Head(6))
	}
	if r.Binding(5) != WithHead || r.Head(5) != 6 {
		t.Errorf("from: binding %d to %d, want with-head to 6", r.Binding(5), r.Head(5))
	}
	s2, tree2, lens2 := sent(t, `she/PRP/2/nsubj came/VBD/0/root from/IN/4/case Paris/NNP/2/obl ./././2/punct`)
	if err := r.Reset(s2, tree2, lens2, []int{4}, 500); err != nil {
		t.Fatal(err)
	}
	if r.Binding(4) != Free || r.Binding(3) == WithHead {
		t.Errorf("came from Paris: Paris binding %d, from %d; want free and not with-head", r.Binding(4), r.Binding(3))
	}
}

// TestSingleQuoteBinding checks that the closing half of a pair of single quotes needs the
// opening one, while the opening one may stand before a cut: "a movie 'Bhootnath 2 …".
func TestSingleQuoteBinding(t *testing.T) {
	text := "He saw a movie 'Bhootnath 2' today ."
	// He saw a movie ' Bhootnath 2 ' today .
	heads := []int{2, 0, 4, 2, 6, 4, 6, 6, 2, 2}
	rels := []string{"nsubj", "root", "det", "obj", "punct", "appos", "nummod", "punct", "obl:tmod", "punct"}
	s, tree, lens := textSent(t, text, heads, rels, nil)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{6}, 30); err != nil {
		t.Fatal(err)
	}
	if r.Head(8) != 5 || r.Binding(8) != NeedsHead || r.Why(8) != Balance {
		t.Errorf("closing quote: head %d, binding %v, why %v; want the opening quote (5), NeedsHead, Balance", r.Head(8), r.Binding(8), r.Why(8))
	}
	if r.Head(5) == 8 {
		t.Error("the opening quote needs the closing one")
	}
}

// TestPlusMinus checks that a plus-minus sign between two numbers goes with the
// deviation after it, so that no compression shows the two numbers without it ("38.2
// 4.1%", another number), as the parser attached it: a leaf of the mean, or the head of
// both numbers; that a range's years go together with its dash; and that a relation
// ("≈") goes with its value.
func TestPlusMinus(t *testing.T) {
	text := "Time was 38.2 ± 4.1 % ."
	// Time was 38.2 ± 4.1 % . — the parse of the trial: ± a leaf of the mean, the
	// deviation under its unit, the unit an apposition of the mean
	heads := []int{3, 3, 0, 3, 6, 3, 3}
	rels := []string{"nsubj", "cop", "root", "nmod:unmarked", "nummod", "appos", "punct"}
	xpos := []string{"NN", "VBD", "CD", "NN", "CD", "NN", "."}
	s, tree, lens := textSent(t, text, heads, rels, xpos)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{1}, 100); err != nil {
		t.Fatal(err)
	}
	if r.Top(4) != r.Top(5) || r.Binding(4) != WithHead {
		t.Errorf("± (a leaf): top %d, the deviation's %d, binding %v; want one unit", r.Top(4), r.Top(5), r.Binding(4))
	}
	heads = []int{3, 3, 0, 3, 4, 5, 3} // ± the head of the deviation
	rels = []string{"nsubj", "cop", "root", "nmod", "nummod", "nmod", "punct"}
	s, tree, lens = textSent(t, text, heads, rels, xpos)
	if err := r.Reset(s, tree, lens, []int{1}, 100); err != nil {
		t.Fatal(err)
	}
	if r.Top(4) != r.Top(5) {
		t.Errorf("± (a head): top %d, the deviation's %d; want one unit", r.Top(4), r.Top(5))
	}

	// A range of years, the parse of the trial: the first year an oblique, the dash and
	// the second year leaves under the noun.
	text = "It arose in 2013 – 2016 epidemics ."
	heads = []int{2, 0, 4, 2, 7, 7, 4, 2}
	rels = []string{"nsubj", "root", "case", "obl", "punct", "nummod", "nmod", "punct"}
	xpos = []string{"PRP", "VBD", "IN", "CD", ",", "CD", "NNS", "."}
	s, tree, lens = textSent(t, text, heads, rels, xpos)
	if err := r.Reset(s, tree, lens, []int{1}, 100); err != nil {
		t.Fatal(err)
	}
	if r.Top(4) != r.Top(5) || r.Top(5) != r.Top(6) {
		t.Errorf("2013 – 2016: tops %d, %d, %d; want one unit", r.Top(4), r.Top(5), r.Top(6))
	}

	// A relation and its value: "T ≈ 294 K", the sign the head of the value's unit.
	text = "With T ≈ 294 K ."
	heads = []int{3, 3, 0, 5, 3, 3}
	rels = []string{"case", "compound", "root", "compound", "appos", "punct"}
	xpos = []string{"IN", "NNP", "NN", "CD", "CD", "."}
	s, tree, lens = textSent(t, text, heads, rels, xpos)
	if err := r.Reset(s, tree, lens, []int{2}, 100); err != nil {
		t.Fatal(err)
	}
	if r.Top(3) != r.Top(4) || r.Top(4) != r.Top(5) {
		t.Errorf("≈ 294 K: tops %d, %d, %d; want one unit", r.Top(3), r.Top(4), r.Top(5))
	}
}

// TestExampleEnds checks that no run ends on a word that opens an example or a gloss
// ("residual confounding, e.g. …"), unless it ends the sentence.
func TestExampleEnds(t *testing.T) {
	text := "It varies , e.g. by diet ."
	// It varies , e.g. by diet .
	heads := []int{2, 0, 6, 6, 6, 2, 2}
	rels := []string{"nsubj", "root", "punct", "advmod", "case", "obl", "punct"}
	s, tree, lens := textSent(t, text, heads, rels, nil)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{2}, 100); err != nil {
		t.Fatal(err)
	}
	var u Runs
	u.Reset(s, tree, &r, []int{2})
	if u.CanEnd(4) {
		t.Error(`a run may end on "e.g."`)
	}
	if !u.CanEnd(2) {
		t.Error(`no run may end on "varies"`)
	}
}

// TestStraightQuoteRuns checks that a run may start on a straight double quote that opens
// a quotation, read from where it stands in the text or, without offsets, by pairing, and
// that no run starts on one that closes it nor ends on one that opens it: before, no run
// could start on a straight quote, so a sentence that opens with a quotation never showed
// its quotes ("I opened the envelope …, said Dolores Pike").
func TestStraightQuoteRuns(t *testing.T) {
	text := `"It was a mistake," said Pike.`
	// " It was a mistake , " said Pike .
	heads := []int{5, 5, 5, 5, 0, 5, 5, 5, 8, 5}
	rels := []string{"punct", "nsubj", "cop", "det", "root", "punct", "punct", "parataxis", "nsubj", "punct"}
	xpos := []string{"``", "NN", "NN", "NN", "NN", ",", "''", "NN", "NN", "."}
	for _, offsets := range []bool{true, false} {
		s, tree, lens := textSent(t, text, heads, rels, xpos)
		if !offsets {
			for i := range s.Tokens {
				s.Tokens[i].Start, s.Tokens[i].End = -1, -1
			}
		}
		var r Rules
		if err := r.Reset(s, tree, lens, []int{5}, 100); err != nil {
			t.Fatal(err)
		}
		var u Runs
		u.Reset(s, tree, &r, []int{5})
		if !u.CanStart(1) || u.CanEnd(1) {
			t.Errorf("offsets %v: the opening quote: start %v, end %v; want true, false", offsets, u.CanStart(1), u.CanEnd(1))
		}
		if u.CanStart(7) || !u.CanEnd(7) {
			t.Errorf("offsets %v: the closing quote: start %v, end %v; want false, true", offsets, u.CanStart(7), u.CanEnd(7))
		}
	}
}

// TestNamesInAList checks a list of names that the parser joined wrongly, "Dieter Schmidt,
// Ana-María Delgado, …" with "Delgado" a flat part of "Dieter": no name holds a comma, so
// "Delgado" is bound neither to "Dieter" by the rules nor to its run by the display rules,
// and a given name with a hyphen shares a run with the name after it, whatever the parse.
func TestNamesInAList(t *testing.T) {
	text := "Councillors Dieter Schmidt, Ana-María Delgado and Priya Raman came."
	// Councillors Dieter Schmidt , Ana-María Delgado and Priya Raman came .
	heads := []int{10, 1, 2, 5, 2, 2, 8, 2, 8, 0, 10}
	rels := []string{"nsubj", "appos", "flat", "punct", "appos", "flat", "cc", "conj", "flat", "root", "punct"}
	xpos := []string{"NNS", "NNP", "NNP", ",", "NNP", "NNP", "CC", "NNP", "NNP", "VBD", "."}
	s, tree, lens := textSent(t, text, heads, rels, xpos)
	var r Rules
	if err := r.Reset(s, tree, lens, []int{6}, 100); err != nil {
		t.Fatal(err)
	}
	if r.Binding(6) != Free {
		t.Errorf("Delgado: binding %v (%v) to %d, want free: no name holds a comma", r.Binding(6), r.Why(6), r.Head(6))
	}
	if r.Binding(3) != WithHead || r.Why(3) != Chain {
		t.Errorf("Schmidt: binding %v (%v), want WithHead (chain)", r.Binding(3), r.Why(3))
	}
	var u Runs
	u.Reset(s, tree, &r, []int{6})
	if u.Lo(6) != 5 || u.Hi(5) != 6 {
		t.Errorf("Ana-María Delgado: a run holding Delgado starts at %d, one holding Ana-María ends at %d; want 5 and 6", u.Lo(6), u.Hi(5))
	}
	if u.Lo(6) < 5 {
		t.Errorf("Delgado shares a run with Dieter (from %d)", u.Lo(6))
	}
	for _, c := range []struct {
		form string
		want bool
	}{{"Ana-María", true}, {"Jean-Luc", true}, {"E-Mail", false}, {"Covid-19", false}, {"Anglo-", false}, {"well-known", false}} {
		if got := isHyphenatedName(c.form); got != c.want {
			t.Errorf("isHyphenatedName(%q) = %v", c.form, got)
		}
	}
}

// TestNegatedPredicateArguments checks that the object or oblique of a negated predicate
// is kept only with it, across the quotes of a quoted word but not
// across a comma: "A pattern … is not a "custom" within the meaning of § 1983" never shows
// "A pattern … the meaning of § 1983".
func TestNegatedPredicateArguments(t *testing.T) {
	// pattern is not a " custom " within the meaning , as said .
	s, tree, lens := sent(t, "pattern/NN/6/nsubj is/VBZ/6/cop not/RB/6/advmod a/DT/6/det \"/\x60\x60/6/punct "+
		"custom/NN/0/root \"/''/6/punct within/IN/10/case the/DT/10/det meaning/NN/6/obl ,/,/13/punct "+
		"as/IN/13/mark said/VBN/6/advcl ./././6/punct")
	var r Rules
	if err := r.Reset(s, tree, lens, []int{10}, 500); err != nil {
		t.Fatal(err)
	}
	if r.Binding(10) != NeedsHead || r.Why(10) != Negation || r.Head(10) != 6 {
		t.Errorf("meaning: binding %d (%s) to %d, want needs-head (negation) to 6", r.Binding(10), r.Why(10), r.Head(10))
	}
	if r.Binding(13) != Free {
		t.Errorf("said, an adverbial clause after a comma: binding %d (%s), want free", r.Binding(13), r.Why(13))
	}
	if r.Binding(1) != Free {
		t.Errorf("pattern, the subject: binding %d (%s), want free", r.Binding(1), r.Why(1))
	}
}
