package qsc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/tokenize"
)

// prefilterPool is the text FuzzPrefilter builds documents from: the sentences of the news
// story and of the ten language fixtures, and words of each.
var prefilterPool = sync.OnceValue(func() (p struct{ sentences, words []string }) {
	add := func(text string) {
		for _, s := range segment.Sentences(text, 0) {
			p.sentences = append(p.sentences, text[s.Tokens[0].Start:s.Tokens[len(s.Tokens)-1].End])
			for _, t := range s.Tokens {
				if segment.KindOf(t.Form) != segment.Punct {
					p.words = append(p.words, t.Form)
				}
			}
		}
	}
	if b, err := os.ReadFile("testdata/news.txt"); err == nil {
		add(string(b))
	}
	for _, l := range []string{"de", "fr", "es", "ru", "ar", "hi", "zh", "ja", "ko", "th"} {
		if b, err := os.ReadFile("testdata/languages/" + l + ".txt"); err == nil {
			add(string(b))
		}
	}
	return p
})

// endings are inflections, of English and of the languages with an analyzer, that
// mutate a word of the pool.
var endings = []string{"s", "es", "ed", "ing", "ies", "'s", "’s", "e", "en", "er", "ern", "n", "aux", "x",
	"os", "as", "ces", "ов", "ами", "ы", "ات", "ة", "ों", "ें", "ler", "ların", "ów", "ami"}

// mutate returns w changed in one of a few ways a matcher must see through: case,
// accents added or composed apart, an ending, a typographic apostrophe, full-width letters,
// a hyphen, a doubled letter.
func mutate(rng *rand.Rand, w string) string {
	switch rng.IntN(10) {
	case 0:
		return strings.ToUpper(w)
	case 1:
		return strings.ToLower(w)
	case 2:
		return w + endings[rng.IntN(len(endings))]
	case 3:
		return strings.NewReplacer("e", "é", "a", "ä", "o", "ö", "u", "ü", "c", "ç").Replace(w)
	case 4:
		return strings.NewReplacer("é", "e\u0301", "ä", "a\u0308", "ü", "u\u0308").Replace(w)
	case 5:
		return strings.Map(func(r rune) rune {
			if r >= '!' && r <= '~' && rng.IntN(2) == 0 {
				return r + 0xFEE0 // full width
			}
			return r
		}, w)
	case 6:
		return w + "-" + w
	case 7:
		if r, size := utf8.DecodeRuneInString(w); size > 0 {
			return string(r) + w
		}
	case 8:
		return strings.ReplaceAll(w, "'", "’")
	}
	return w
}

// randomRequest builds a snippet request from the pool: paragraphs of sentences from any
// language, mutated words, extra (any text) as a sentence and as a term, blank lines,
// duplicated paragraphs; a query of words of the document, mutated, and phrases.
func randomRequest(rng *rand.Rand, extra string) *SnippetRequest {
	pool := prefilterPool()
	var doc strings.Builder
	var paras []string
	lead := rng.IntN(len(pool.sentences)) // documents mostly of one language
	for range 1 + rng.IntN(12) {
		var p strings.Builder
		if len(paras) > 0 && rng.IntN(6) == 0 {
			p.WriteString(paras[rng.IntN(len(paras))]) // a repeated paragraph
		} else {
			for range 1 + rng.IntN(4) {
				i := lead + rng.IntN(8) - 4
				if rng.IntN(5) == 0 {
					i = rng.IntN(len(pool.sentences))
				}
				s := pool.sentences[(i%len(pool.sentences)+len(pool.sentences))%len(pool.sentences)]
				if rng.IntN(3) == 0 {
					ws := strings.Fields(s)
					k := rng.IntN(len(ws))
					ws[k] = mutate(rng, ws[k])
					s = strings.Join(ws, " ")
				}
				if rng.IntN(8) == 0 {
					s += " " + extra
				}
				p.WriteString(s)
				// Line breaks that end a sentence or not (tokenize.LineBreak): after a
				// title, a comma, a hyphen, before a lowercase word, a quote, a bracket;
				// and marks inside a line that do or not (tokenize.SentenceEnd): after an
				// abbreviation, Yahoo!, a closing quote or bracket, a URL's bracket.
				p.WriteString([]string{" ", "\n", " ", "\r\n", " Mr.\n", ",\n", " pro-\n", "\n(", "\n\"", " \t\n ", "\nand ",
					" Inc. ", " Yahoo! ", "\" ", "?) ", " www.a(b.) ", " and"}[rng.IntN(17)])
			}
		}
		paras = append(paras, p.String())
		doc.WriteString(p.String())
		doc.WriteString([]string{"\n\n", "\n \n", "\n\n\n", "\n"}[rng.IntN(4)])
	}
	text := doc.String()
	toks := segment.Tokens(text)
	var words []string
	for _, t := range toks {
		if segment.KindOf(t.Form) != segment.Punct {
			words = append(words, t.Form)
		}
	}
	words = append(words, tokenizeWords(text)...)
	var query []string
	for range 1 + rng.IntN(3) {
		var term string
		switch k := rng.IntN(10); {
		case k == 0 && extra != "":
			term = extra
		case k == 1:
			term = pool.words[rng.IntN(len(pool.words))]
		case k == 2 && len(toks) > 1:
			i := rng.IntN(len(toks) - 1)
			term = toks[i].Form + " " + toks[i+1].Form
		case len(words) > 0:
			term = words[rng.IntN(len(words))]
		default:
			term = "police"
		}
		if rng.IntN(3) == 0 {
			term = mutate(rng, term)
		}
		query = append(query, term)
	}
	req := &SnippetRequest{Document: text, Query: query, Budget: 10 + rng.IntN(150), N: 1 + rng.IntN(4)}
	if rng.IntN(6) == 0 {
		req.Lang = []string{"en", "de", "fr", "ja", "ru", "ar", "pl", "zh"}[rng.IntN(8)]
	}
	return req
}

// tokenizeWords returns the English tokens of text.
func tokenizeWords(text string) []string {
	var out []string
	for _, t := range tokenize.Tokens(text) {
		if strings.IndexFunc(t.Form, unicode.IsLetter) >= 0 {
			out = append(out, t.Form)
		}
	}
	return out
}

// describe returns what collect's result decides: each candidate's sentence, terms,
// query, hits and language, and when there is none, whether a sentence matched, whether
// all that matched were too long, and the shortest query over the budget.
func describe(best []candidate, matched, long, shortest int) string {
	var b strings.Builder
	for _, c := range best {
		fmt.Fprintf(&b, "%d-%d t%d q%v h%v %s|", c.start(), c.s.Tokens[len(c.s.Tokens)-1].End, c.terms, c.query, c.hits, c.langOf("doc"))
	}
	if len(best) == 0 {
		fmt.Fprintf(&b, "matched %v, all long %v, shortest %d", matched > 0, long == matched, shortest)
	}
	return b.String()
}

// checkPrefilter compares collect on req with the prefilter and its early end, and
// reading every sentence: the candidates must be the same (the prefilter never drops a
// sentence the matcher would find, and the sentences after the end never rank higher).
// So must the spans of Engine.Hits, which reads with the prefilter and without the end.
func checkPrefilter(t *testing.T, e *Engine, req *SnippetRequest) {
	t.Helper()
	var got, hits [2]string
	for i, off := range []bool{false, true} {
		q, n, _, _, err := e.snippetQuery(req, nil)
		if err != nil {
			return // a request refused is refused either way
		}
		q.readAll = off
		best, matched, shortest, err := q.collect(req.Document, n, req.Budget)
		if err != nil {
			got[i] = "error: " + err.Error()
		} else {
			got[i] = describe(best, matched, q.long, shortest)
		}
		if q, _, _, _, err = e.snippetQuery(req, nil); err != nil {
			return
		}
		q.readAll = off
		spans, err := q.hits(req.Document)
		hits[i] = fmt.Sprint(spans, err)
	}
	if got[0] != got[1] {
		t.Errorf("query %q, lang %q, n %d, budget %d, document %q:\nwith the prefilter %s\nreading it all     %s",
			req.Query, req.Lang, req.N, req.Budget, req.Document, got[0], got[1])
	}
	if hits[0] != hits[1] {
		t.Errorf("Hits of %q, lang %q, document %q:\nwith the prefilter %s\nreading it all     %s",
			req.Query, req.Lang, req.Document, hits[0], hits[1])
	}
}

// FuzzPrefilter checks that the raw-text prefilter of collect never drops a sentence the
// matchers would find: random documents of the news story and the fixtures in ten
// languages (mutated words, repeated paragraphs, any extra text) and queries of their
// words (mutated, phrases), read with it and its early end and reading every sentence,
// give the same candidates. Its seeds run as tests; TestPrefilterRandom runs 600 more.
func FuzzPrefilter(f *testing.F) {
	for i, extra := range []string{"", "Zürich", "Steuern", "税金", "ﾃｽﾄ", "l’État", "e\u0301te\u0301", "İstanbul'a", "ＰＯＬＩＣＥ", "went", "حكومة", "संक्रमण"} {
		f.Add(uint64(i), extra)
	}
	e := sharedEngine(f)
	f.Fuzz(func(t *testing.T, seed uint64, extra string) {
		if !utf8.ValidString(extra) || len(extra) > 200 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, seed>>7|1))
		checkPrefilter(t, e, randomRequest(rng, extra))
	})
}

// TestPrefilterRandom runs checkPrefilter on 600 random requests (100 with -short).
func TestPrefilterRandom(t *testing.T) {
	e := sharedEngine(t)
	n := 600
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(35, 7))
	extras := []string{"", "Zürich", "税金", "went", "Übergänge", "ＰＯＬＩＣＥ"}
	for range n {
		checkPrefilter(t, e, randomRequest(rng, extras[rng.IntN(len(extras))]))
		if t.Failed() {
			return
		}
	}
}

// TestPrefilterSkips checks that the prefilter does its work: in a document whose only
// match is its last paragraph, the others are not tokenized, and the candidates are those
// of reading them all.
func TestPrefilterSkips(t *testing.T) {
	e := sharedEngine(t)
	doc := strings.Repeat("Nothing to see in this paragraph, said the clerk.\n\n", 50) + "The volcano erupted on Sunday."
	req := &SnippetRequest{Document: doc, Query: []string{"volcanoes"}, Budget: 60}
	checkPrefilter(t, e, req)
	q, n, _, _, err := e.snippetQuery(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	best, matched, _, _ := q.collect(doc, n, req.Budget)
	if len(best) != 1 || matched != 1 || best[0].start() != strings.LastIndex(doc, "The") || cap(q.toks) > 64 {
		t.Errorf("%d candidates, %d matched, token memory %d; want the last sentence, 1, at most 64", len(best), matched, cap(q.toks))
	}
}

// TestPrefilterHyphens: a query word and the text may spell a word with or without its
// hyphens ("email" and "e-mail", "boil water" and "boil-water"), which match; the
// prefilter must not skip the paragraph that holds the other spelling, and the snippet
// marks it.
func TestPrefilterHyphens(t *testing.T) {
	e := sharedEngine(t)
	filler := strings.Repeat("Nothing to see in this paragraph, said the clerk.\n\n", 20)
	for _, c := range []struct{ query, text string }{
		{"email", "Residents got an e-mail from the city."},
		{"e-mail", "Residents got an email from the city."},
		{"boil water", "The city lifted the boil-water notice."},
		{"boil-water notice", "The city lifted the boil water notice."},
		{"covid19", "Cases of COVID-19 rose."},
	} {
		for _, lines := range []bool{false, true} {
			doc := filler + c.text + "\n\n" + filler
			if lines {
				doc = strings.ReplaceAll(doc, "\n\n", "\n")
			}
			req := &SnippetRequest{Document: doc, Query: []string{c.query}, Budget: 80, N: 1}
			checkPrefilter(t, e, req)
			sn, err := e.DoSnippets(context.Background(), req)
			if err != nil || len(sn) != 1 || len(sn[0].Hits) == 0 || sn[0].Text != c.text {
				t.Errorf("%q in %q: %+v, %v", c.query, c.text, sn, err)
			}
		}
	}
}
