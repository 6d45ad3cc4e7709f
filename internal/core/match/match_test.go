package match

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/stem"
	"github.com/qsc-nlp/qsc/internal/core/stem/stemtest"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

func TestKey(t *testing.T) {
	same := [][]string{
		{"appeal", "appeals", "Appealed", "APPEAL"},
		{"Zurich", "Zürich", "ZÜRICH", "zu\u0308rich"},
		{"Sao", "São"}, {"Orsted", "Ørsted"}, {"strasse", "Straße"}, {"Encyclopaedia", "Encyclopædia"},
		{"U.S", "U.S.", "u.s."}, {"police", "police.", "Police!"},
		{"go", "went", "gone"}, {"eat", "ate"}, {"don't", "don’t"}, {"strike", "str\u00adike", "Str\u00adikes"},
		{"email", "e-mail", "E-Mails"}, {"COVID-19", "covid19"}, {"co-operate", "cooperate"},
	}
	for _, g := range same {
		for _, w := range g[1:] {
			if Key(w) != Key(g[0]) {
				t.Errorf("Key(%q) = %q, Key(%q) = %q: want equal", w, Key(w), g[0], Key(g[0]))
			}
		}
	}
	for _, p := range [][2]string{{"art", "party"}, {"U.S", "us"}, {".", ""}, {"...", "."}, {"Zürich", "Zürch"}, {"-", ""}, {"--", "-"}, {"-based", "based"}} {
		if Key(p[0]) == Key(p[1]) {
			t.Errorf("Key(%q) = Key(%q) = %q: want different", p[0], p[1], Key(p[0]))
		}
	}
	if Key("...") != "..." || Key("?!") != "?!" {
		t.Errorf("punctuation alone: Key(...) = %q, Key(?!) = %q", Key("..."), Key("?!"))
	}
}

// TestFold checks both folds on what they share (accents and spelled letters of the
// Latin script) and on where they differ (the marks of other scripts, tatweel, NFC).
func TestFold(t *testing.T) {
	for _, c := range []struct{ in, fold, accents string }{
		{"Zürich", "Zurich", "Zurich"},
		{"São", "Sao", "Sao"},
		{"Ørsted", "orsted", "orsted"},
		{"straße", "strasse", "strasse"},
		{"ascii", "ascii", "ascii"},
		{"\u0301", "\u0301", "\u0301"},       // marks alone stay
		{"ёж", "еж", "еж"},                   // Cyrillic
		{"ά", "α", "α"},                      // Greek
		{"हिंदी", "हिदी", "हिंदी"},           // a Devanagari mark is a letter there
		{"الحُكُومَة", "الحكومة", "الحكومة"}, // Arabic vowel marks
		{"الحكـومة", "الحكـومة", "الحكومة"},  // tatweel
		{"가", "\u1100\u1161", "가"},           // Hangul: decomposed; FoldAccents composes it again
		{"str\u00adike", "strike", "strike"}, // a soft hyphen (a hyphenation point)
		{"Bundes\u00adregierung", "Bundesregierung", "Bundesregierung"},
		{"می\u200cخواهم", "میخواهم", "میخواهم"},                                        // a zero-width non-joiner
		{"\U0001F468\u200d\U0001F469", "\U0001F468\U0001F469", "\U0001F468\U0001F469"}, // an emoji sequence
		{"\u00ad", "\u00ad", "\u00ad"},                                                 // alone: a key is never empty
		{"CO₂", "CO2", "CO₂"},                                                          // compatibility forms (FoldAccents' callers have made them NFKC)
		{"µK", "μK", "µK"},                                                             // the micro sign is Greek mu
	} {
		if got := Fold(c.in); got != c.fold {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.fold)
		}
		if got := FoldAccents(c.in); got != c.accents {
			t.Errorf("FoldAccents(%q) = %q, want %q", c.in, got, c.accents)
		}
	}
}

func TestWords(t *testing.T) {
	for term, want := range map[string][]string{
		"U.S.": {"U.S."}, "police.": {"police"}, "(New York)": {"New", "York"}, "...": {"..."},
		"transformer-based": {"transformer-based"}, "rock , roll": {"rock", ",", "roll"}, " ": {},
		"Wednesday's": {"Wednesday"}, "O'Brien’s.": {"O'Brien"}, "the king's speech": {"the", "king", "'s", "speech"}, "'s": {"'s"},
	} {
		if got := Words(term); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", term, got, want)
		}
	}
}

// hits returns the hits of terms in text as "term:start-end" (token indexes). It scans
// with a Scanner that may have the memory of one released before (of other terms and
// sentences), releases it, and checks that a new Scanner finds the same hits.
func hits(t *testing.T, terms []string, text string) []string {
	t.Helper()
	q, err := Compile(terms, 16)
	if err != nil {
		t.Fatal(err)
	}
	toks := tokenize.Tokens(text)
	sc := q.NewScanner()
	found := slices.Clone(sc.Scan(toks))
	sc.Release()
	if fresh := (&Scanner{q: q}).Scan(toks); !slices.Equal(found, fresh) {
		t.Errorf("%q in %q: %v with a released Scanner's memory, %v with a new one", terms, text, found, fresh)
	}
	var out []string
	for _, h := range found {
		first := slices.IndexFunc(terms, func(s string) bool { return q.Term(slices.Index(terms, s)) == h.Term })
		out = append(out, fmt.Sprintf("%s:%02d-%02d", terms[first], h.Start, h.End))
	}
	return out
}

func TestScan(t *testing.T) {
	cases := []struct {
		terms []string
		text  string
		want  []string
	}{
		{[]string{"court", "appeal"}, "The appeals court ruled.", []string{"appeal:01-02", "court:02-03"}},
		{[]string{"Zurich"}, "She flew to Zürich.", []string{"Zurich:03-04"}},
		{[]string{"Sao Paulo"}, "Rain in São Paulo and in Sao Paulo.", []string{"Sao Paulo:02-04", "Sao Paulo:06-08"}},
		{[]string{"transformer"}, "A transformer-based model and transformers.", []string{"transformer:01-02", "transformer:04-05"}},
		{[]string{"based model"}, "A transformer-based model.", []string{"based model:01-03"}},
		{[]string{"U.S"}, "Troops of the U.S. left the U.S.", []string{"U.S:03-04", "U.S:06-07"}},
		{[]string{"U.S."}, "Troops of the U.S left.", []string{"U.S.:03-04"}},
		{[]string{"new york", "york"}, "New York, newly york.", []string{"new york:00-02", "york:01-02", "york:04-05"}},
		{[]string{"art"}, "The party was for art lovers.", []string{"art:04-05"}},
		{[]string{"go", "eat"}, "They went out and ate.", []string{"go:01-02", "eat:04-05"}},
		{[]string{"went", "ate"}, "We go and eat.", []string{"went:01-02", "ate:03-04"}},
		{[]string{"police", "POLICE"}, "Police.", []string{"police:00-01"}},
		{[]string{"don't"}, "I don’t know.", []string{"don't:01-03"}}, // both are "do n't"
		{[]string{"strike", "Bundesregierung"}, "The str\u00adike of the Bundes\u00adregierung.", []string{"strike:01-02", "Bundesregierung:04-05"}},
		// Hyphens: "email" and "e-mail" are one word; a phrase matches a hyphenated token
		// whose parts are its words, and a hyphenated word the words of its parts.
		{[]string{"email"}, "Send an e-mail or an email.", []string{"email:02-03", "email:05-06"}},
		{[]string{"e-mail"}, "Send an e-mail or an email.", []string{"e-mail:02-03", "e-mail:05-06"}},
		{[]string{"mail"}, "Send an e-mail.", []string{"mail:02-03"}},
		{[]string{"boil water"}, "A boil-water notice, then boil water.", []string{"boil water:01-02", "boil water:05-07"}},
		{[]string{"boil-water notice"}, "A boil water notice and a boil-water notice.", []string{"boil-water notice:01-04", "boil-water notice:06-08"}},
		{[]string{"well known"}, "A well-known name.", []string{"well known:01-02"}},
		// A phrase passes over the text's punctuation between its words, as a search's
		// phrase does; punctuation the term has must be there.
		{[]string{"not to be"}, "To be, or not to be, that is it.", []string{"not to be:04-07"}},
		{[]string{"to be or not to be"}, "To be, or not to be, that is it.", []string{"to be or not to be:00-07"}},
		{[]string{"to be, or"}, "To be, or not; to be or not.", []string{"to be, or:00-04"}},
		{[]string{"police station"}, "The police (station) closed.", []string{"police station:01-04"}},
		// A word of a script without spaces inside a token of an English sentence; a Latin
		// word never matches inside one.
		{[]string{"東京", "事務所"}, "The office (東京事務所) moved.", []string{"東京:03-04", "事務所:03-04"}},
		{[]string{"การคลัง", "cat"}, "The ministry (กระทรวงการคลัง) has a category.", []string{"การคลัง:03-04"}},
		{[]string{"東京 office"}, "東京事務所 office", []string{"東京 office:00-02"}},
		// The parts of a web address.
		{[]string{"proxy.example.com", "3128", "example.com"}, "Use http://proxy.example.com:3128 now.", []string{"proxy.example.com:01-02", "3128:01-02", "example.com:01-02"}},
		{[]string{"example"}, "See www.example.org/docs or an example.", []string{"example:01-02", "example:04-05"}},
		{[]string{"example.com", "jane"}, "Write to jane.doe@example.com today.", []string{"example.com:02-03", "jane:02-03"}},
		// The labels of a host or file name, which is no web address; not of a number or
		// an abbreviation.
		{[]string{"pg-main-01", "internal"}, "The primary pg-main-01.db.internal stops.", []string{"pg-main-01:02-03", "internal:02-03"}},
		{[]string{"config"}, "Edit config.yaml and the config.", []string{"config:01-02", "config:04-05"}},
		{[]string{"5"}, "It rose 1.5 points.", nil},
		{[]string{"s"}, "In the U.S. today.", nil},
		// A host and port as logs write them: the address and the port, not its numbers.
		{[]string{"10.0.3.17", "5432"}, "Seeing ETIMEDOUT 10.0.3.17:5432 again.", []string{"10.0.3.17:02-03", "5432:02-03"}},
		{[]string{"17", "0.3.17"}, "Seeing ETIMEDOUT 10.0.3.17:5432 again.", nil},
		{[]string{"pg-main-01", "5432"}, "It hit pg-main-01.db.internal:5432 twice.", []string{"pg-main-01:02-03", "5432:04-05"}}, // the tokenizer cuts the port off a name
	}
	for _, c := range cases {
		if got := hits(t, c.terms, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%q in %q: %q, want %q", c.terms, c.text, got, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct {
		terms []string
		msg   string
	}{
		{[]string{"a", " "}, `empty query term 2 (" ")`},
		{[]string{"a b c"}, "query term 1 has 3 words, more than the maximum of 2"},
		{[]string{"a", "!!!"}, `query term 2 ("!!!") has no letter or digit`},
	} {
		if _, err := Compile(c.terms, 2); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: %v, want %q", c.terms, err, c.msg)
		}
	}
	q, err := Compile([]string{"arrest", "Arrests", "police"}, 2)
	if err != nil || q.Len() != 2 || q.Term(1) != 0 || q.Term(2) != 1 {
		t.Errorf("identical terms: %v, %d terms", err, q.Len())
	}
}

// slowScan is Scan without the token filter: every token is keyed, with the parts of a
// hyphenated word and of a web address or host name.
func slowScan(q *Query, toks []syntax.Token) []Hit {
	var out []Hit
	run := func(i int, keys []string) int { // the end of a match of keys from i, or -1
		if i+len(keys) > len(toks) {
			return -1
		}
		for j, w := range keys {
			f := toks[i+j].Form
			if f == "" || Key(f) != w && !slices.ContainsFunc(strings.Split(f, "-"), func(p string) bool {
				return p != "" && p != f && strings.IndexByte(f, '-') > 0 && Key(p) == w
			}) && !(len(f) >= 6 && (tokenize.IsURL(f) || isHostName(f) || isHostPort(f)) && slices.ContainsFunc(addressParts(f), func(p string) bool {
				return p != f && Key(p) == w
			})) {
				return -1
			}
		}
		return i + len(keys)
	}
	for i := range toks {
		for t, words := range q.terms {
			// The spellings of the term: its words; written as one, a token whose key is
			// theirs joined; with its hyphenated words cut into their parts. The longest.
			end := run(i, words)
			if ws := q.words[t]; len(ws) >= 2 && toks[i].Form != "" && Key(toks[i].Form) == Key(strings.Join(ws, "")) {
				end = max(end, i+1)
			}
			var parts []string
			for _, w := range q.words[t] {
				for _, p := range HyphenParts(w) {
					parts = append(parts, Key(p))
				}
			}
			if len(parts) > len(words) {
				end = max(end, run(i, parts))
			}
			if end >= 0 {
				out = append(out, Hit{Term: t, Start: i, End: end})
			}
		}
	}
	return out
}

// FuzzScan checks that the token filter of Scan never drops a hit: Scan finds what keying
// every token finds, for any term and sentence.
func FuzzScan(f *testing.F) {
	for _, s := range [][2]string{
		{"eat", "The children ATe."}, {"go", "Everyone went home."}, {"Zurich", "ZÜRICH’s banks"},
		{"transformer", "transformer-based-models"}, {"U.S.", "the U.S left"}, {"’tis", "'tis"},
		{"new york", "New York-based firms in New York."}, {"\u0301a", "a \u0301a"},
		{"email", "an e-mail"}, {"boil water", "boil-water water"}, {"boil-water", "boil water"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, term, text string) {
		q, err := Compile([]string{term}, 16)
		if err != nil {
			return
		}
		toks := tokenize.Tokens(text)
		got, want := q.NewScanner().Scan(toks), slowScan(q, toks)
		if !slices.Equal(got, want) {
			t.Errorf("term %q in %q: Scan %v, keying every token %v", term, text, got, want)
		}
	})
}

// TestFilterAdmitsItsKeysWords checks the token filter of Scan: a word is admitted by the
// filter of its own key (so by that of any query word with its key), on a million random
// words made of letters, apostrophes, hyphens and inflectional endings (stemtest.Words),
// as they come, in upper case, and with an accent or trailing punctuation, and on the
// irregular and exceptional forms of a few keys. The filter must also turn some words away,
// or it saves nothing. FuzzScan checks the hits of Scan against keying every token.
func TestFilterAdmitsItsKeysWords(t *testing.T) {
	refused := 0
	check := func(w string) {
		t.Helper()
		if w == "" || w[0] >= utf8.RuneSelf || w[0] == '\'' {
			return // always keyed
		}
		var q Query
		q.admitKey(Key(w))
		if hyphen, _ := marks(w); !q.keyable(w, hyphen) {
			t.Errorf("%q is refused by the filter of its key %q (anchors %q)", w, Key(w), stem.Anchors(Key(w)))
		}
		var other Query
		other.admitKey("police")
		if !other.admits(w) {
			refused++
		}
	}
	for _, base := range []string{"go", "be", "have", "eat", "child", "mouse", "die", "lie", "tie", "sky", "ski", "news", "proceed", "succeed"} {
		k := Key(base)
		for _, f := range append(stem.Anchors(k), stem.IrregularForms(k)...) {
			check(f)
			check(strings.ToUpper(f))
		}
	}
	n := 1000000
	if testing.Short() {
		n = 50000
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for w := range stemtest.Words(rng, n) {
		check(w)
		check(strings.ToUpper(w))
		check(w + [...]string{".", "!", "\u0301"}[rng.IntN(3)])
	}
	if refused == 0 {
		t.Error("the filter of police refused no word")
	}
}

// TestMarks checks the byte marks of Scan: that the test before tokenize.IsURL lets
// every address through (addresses of every form, the tokens of texts holding them, and
// random strings of their pieces) and rules out words, and that a hyphen is one whose
// first is after the first byte.
func TestMarks(t *testing.T) {
	texts := []string{"http://proxy.example.com:3128", "https://x.io/a?b=c", "www.example.org", "mailto:jo@example.com",
		"jo.smith@mail.example.co.uk", "ftp://files.example.net/pub", "See www.bbc.co.uk/news, or write to desk@bbc.co.uk."}
	var cands []string
	for _, s := range texts {
		cands = append(cands, s)
		for _, tk := range tokenize.Tokens(s) {
			cands = append(cands, tk.Form)
		}
	}
	// Random strings, some made of the pieces of addresses.
	rng := rand.New(rand.NewPCG(3, 128))
	const alphabet = "abwWxz09.:/@-_?=#%+()"
	pieces := []string{"http://", "HTTPS://", "www.", "mailto:", "@", ".", ":", "/", "a", "bc", "x1", "-", ")", "("}
	for range 100000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			if rng.IntN(2) == 0 {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			} else {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
		}
		cands = append(cands, b.String())
	}
	urls := 0
	for _, s := range cands {
		hyphen, url := marks(s)
		if tokenize.IsURL(s) {
			urls++
			if !url {
				t.Errorf("%q is an address, but marks rules it out", s)
			}
		}
		if want := strings.IndexByte(s, '-') > 0; hyphen != want {
			t.Errorf("marks(%q) finds a hyphen %v, want %v", s, hyphen, want)
		}
	}
	if urls < 100 {
		t.Errorf("only %d addresses among the candidates: the check is weak", urls)
	}
	for _, w := range []string{"police", "arrested", "U.S.", "don't", "well-known"} {
		if _, url := marks(w); url {
			t.Errorf("marks(%q) takes it for an address", w)
		}
	}
}

// TestPick checks the occurrence a query keeps: the first spelled as the term was given,
// up to case and trailing punctuation, else the first that matches; for several terms,
// those that lie closest together.
func TestPick(t *testing.T) {
	toks := tokenize.Tokens("You will find that they are willing, and Willing too; the wills went.")
	for _, c := range []struct {
		term string
		want string // the form of the token kept
		at   int    // its index
	}{
		{"willing", "willing", 6}, // not the earlier "will", an inflection of it
		{"WILLING", "willing", 6}, // case aside
		{"wills", "wills", 13},    // the first spelled so, not "will"
		{"will", "will", 1},       // the first, spelled so
		{"went", "went", 14},      // only one occurrence
		{"goes", "went", 14},      // none spelled so: the first that matches ("go")
	} {
		q, err := Compile([]string{c.term}, 4)
		if err != nil {
			t.Fatal(err)
		}
		hits := q.NewScanner().Scan(toks)
		pick := make([]int, q.Len())
		if n := q.Pick(hits, toks, pick); n != 1 || pick[0] < 0 {
			t.Fatalf("%q: %d terms found, pick %v", c.term, n, pick)
		}
		h := hits[pick[0]]
		if h.Start != c.at || toks[h.Start].Form != c.want {
			t.Errorf("%q keeps token %d %q, want %d %q", c.term, h.Start, toks[h.Start].Form, c.at, c.want)
		}
	}
	// Several terms: the occurrences that lie closest together, the earliest of the
	// shortest, among those spelled as given.
	police := tokenize.Tokens("Police said the police report on the road closure reached the police chief.")
	for _, c := range []struct {
		toks  []syntax.Token
		terms []string
		at    []int // the token index kept for each term
	}{
		{police, []string{"police", "road"}, []int{3, 7}}, // 3 and 11 as near: the earlier
		{police, []string{"police", "chief"}, []int{11, 12}},
		{police, []string{"chief", "said"}, []int{12, 1}},
		{toks, []string{"went", "willing"}, []int{14, 9}}, // "Willing too; the wills went": not "wills", not spelled so
	} {
		q, err := Compile(c.terms, 4)
		if err != nil {
			t.Fatal(err)
		}
		hits := q.NewScanner().Scan(c.toks)
		pick := make([]int, q.Len())
		if n := q.Pick(hits, c.toks, pick); n != len(c.at) {
			t.Fatalf("%q: %d terms found", c.terms, n)
		}
		for d, want := range c.at {
			if pick[d] < 0 || hits[pick[d]].Start != want {
				t.Errorf("%q: term %q keeps hit %v of %v, want token %d", c.terms, c.terms[d], pick, hits, want)
			}
		}
	}
	q, _ := Compile([]string{"absent", "willing"}, 4)
	hits := q.NewScanner().Scan(toks)
	pick := make([]int, q.Len())
	if n := q.Pick(hits, toks, pick); n != 1 || pick[0] != -1 || pick[1] < 0 {
		t.Errorf("absent and willing: %d found, pick %v; want 1, [-1, ≥0]", n, pick)
	}
}
