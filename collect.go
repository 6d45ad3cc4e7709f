package qsc

import (
	"cmp"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/prefilter"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

// chunkBytes is the size from which collect cuts a document at its next blank line, so that
// the tokens of a long document are never all in memory at once.
const chunkBytes = 64 << 10

// maxWindowTokens is the longest English sentence that collect shows by its window when
// it is over the method's limit (MaxSentenceTokens, or the method's own): the window's
// time grows faster than the sentence, and a sentence of a megabyte (a hostile one, or a
// dump with no sentence end) is refused as before.
const maxWindowTokens = 8 * MaxSentenceTokens

// readBytes is the size from which collect, with the prefilter, ends a chunk of
// consecutive paragraphs that may match: small enough that it stops soon after the
// candidates it needs, large enough that short paragraphs are tokenized together.
const readBytes = 4 << 10

// collect finds the sentences of doc that contain query terms and returns the first n, in
// rank order (terms, then position), whose query fits in budget (shown by their window
// when they have more than q.maxTokens tokens) and that have at most maxWindowTokens
// tokens, each sentence text once (a repeat of a kept sentence, such as a title repeated
// in the body, would show the same snippet twice); the number of sentences read that
// contain a term; and the length of the shortest query over budget (0 when none is). It
// counts the sentences that contain a term but are over maxWindowTokens in q.long. The
// steps are those of a collector.
//
// Paragraphs first. Blank lines always end a sentence, so collect cuts doc into its
// paragraphs and, unless it reads an annotation, asks a raw-text prefilter
// (internal/core/prefilter, termQuery.bound) whether each may hold a term: a search of its
// skeleton (lower case, accents off) for anchors of the query words that every matching
// word holds, hundreds of MB/s. Only the paragraphs that may match are tokenized, in
// chunks of consecutive ones of up to chunkBytes; the prefilter never drops a sentence
// the matcher would find (FuzzPrefilter). A paragraph where a sentence may take another
// language than the document's (termQuery.override) is always tokenized. An English
// paragraph that may match is weighed again in parts, cut at the line breaks that surely
// end a sentence (tokenize.LineBreak), and a part that may match is cut again, at the
// full stops, question and exclamation marks that surely end one (tokenize.SentenceEnd);
// only the parts that may still add a candidate are tokenized: in a paragraph whose terms
// are in different sentences, on different lines or not, few are. A unit (paragraph or
// part) whose text was weighed before is skipped: read, it would repeat its outcomes; not
// worth reading then, it is not now.
//
// Early end. Candidates are kept in levels by number of terms, at most n per level and
// none once n sentences with more terms are kept, besides the first sentence with a term
// no candidate holds (for choose, which shows every term it can); a paragraph that cannot
// rank is still read when the prefilter finds such a term's anchors in it
// (collector.mayCover). Once n are kept at the most terms a sentence may have
// (termQuery.top), no later sentence can rank before them, and collect stops reading. Its time is that of the prefilter over doc plus the tokenization of the
// paragraphs that may match up to that point, and its memory that of one chunk.
//
// Languages. An English document is tokenized, split and matched by the English tokenizer
// and matcher (or read from its annotation); any other by package segment, with the
// query compiled for its language. A sentence may take its own language
// (termQuery.override: another script, or another Latin-script language in the cases it
// lists) and is then split and matched as that language is; a chunk of English text
// without a byte outside ASCII has no such sentence and is not looked at. The error wraps
// ErrBadRequest when the query cannot be compiled for a language.
func (q *termQuery) collect(doc string, n, budget int) (best []candidate, matched, shortest int, err error) {
	c := collector{
		q: q, doc: doc, n: n, budget: budget,
		levels: make([][]candidate, max(q.q.Len(), len(q.terms))+1),
		top:    q.top(),
		all:    ^uint64(0) >> (64 - min(len(q.terms), 64)),
	}
	if err := c.run(); err != nil {
		return nil, 0, 0, err
	}
	return choose(c.levels, n), c.matched, c.shortest, nil
}

// choose returns the n candidates that the snippets show, from levels (candidate
// lists by number of terms, each in document order), in rank order (more terms first,
// then earlier): one at a time, the best-ranked one that holds a term none chosen holds,
// else the best-ranked one left. So a document's snippets show every term it has, where
// n allows, rather than the same term n times (a query "negligence, damages" whose
// sentences hold one each). It costs O(n·candidates).
func choose(levels [][]candidate, n int) []candidate {
	var covered uint64
	var chosen []candidate
	taken := func(k *candidate) bool {
		return slices.ContainsFunc(chosen, func(o candidate) bool { return o.start() == k.start() })
	}
	// best returns the best-ranked candidate left that is bare as asked, and the best one
	// of them that holds a term none chosen holds.
	best := func(bare bool) (first, adds *candidate) {
		for t := len(levels) - 1; t > 0 && adds == nil; t-- {
			for i := range levels[t] {
				k := &levels[t][i]
				if k.bare != bare || taken(k) {
					continue
				}
				if first == nil {
					first = k
				}
				if k.mask&^covered != 0 {
					adds = k
					break
				}
			}
		}
		return first, adds
	}
	for len(chosen) < n {
		first, adds := best(false)
		bareFirst, bareAdds := best(true)
		k := cmp.Or(adds, bareAdds, first, bareFirst)
		if k == nil {
			break
		}
		chosen = append(chosen, *k)
		covered |= k.mask
	}
	// The rank order: more terms first, then earlier. A bare sentence chosen keeps its
	// place in the document: readers preferred the document's order (docs/reading/bare).
	slices.SortStableFunc(chosen, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.terms, a.terms), cmp.Compare(a.start(), b.start()))
	})
	return chosen
}

// bareSentence reports whether every word of toks is a hit (0-based indexes, ascending):
// the sentence is the query's words and punctuation alone.
func bareSentence(toks []syntax.Token, hits []int32) bool {
	h := 0
	for i := range toks {
		for h < len(hits) && int(hits[h]) < i {
			h++
		}
		if (h == len(hits) || int(hits[h]) != i) && display.HasWord(toks[i].Form) {
			return false
		}
	}
	return true
}

// collector is the state of one termQuery.collect: the candidates kept so far and where
// the reading of the document stands. Its methods are the steps of collect; it lives on
// collect's stack, and its memory (levels, the maps) is allocated once per call.
type collector struct {
	q         *termQuery
	doc       string
	n, budget int
	top       int // q.top(): the most distinct terms a sentence may match
	// levels[t] holds the candidates with t terms, in document order: at most n, and
	// none once n candidates have more terms, besides those kept for a term no other
	// candidate held (consider).
	levels [][]candidate
	// covered holds the terms given that some candidate holds (candidate.mask), and all
	// is the mask of every term given.
	covered, all uint64
	// bareCovered holds the terms that bare candidates hold (candidate.bare).
	bareCovered uint64
	cur         candidate // the sentence being ranked; its memory is reused
	// pick is the scratch of termQuery.match, of which the first q.q.Len() (at most
	// MaxQueryTerms: compileQuery checks it) are used. It is an array, not a slice of
	// memory of its own, which would be allocated on the heap: the content of a
	// collector escapes (through cur).
	pick [MaxQueryTerms]int
	// lent counts the candidates that borrow the tokens of the chunk read last (own).
	lent int
	// matched counts the sentences read that contain a term, and shortest is the
	// length of the shortest query over the budget (0 when none is).
	matched, shortest int

	// pf is the query's prefilter, nil when every paragraph is read in chunks.
	pf *prefilter.Filter
	// seen holds the paragraphs read with the prefilter, and lines the parts of
	// paragraphs weighed (unit), read or not; skipped is the last unit not worth reading.
	// A unit worth reading (read, or cut into parts each read or not worth reading) gives
	// the outcomes of its repeats, and one not worth reading stays so (candidates are only
	// ever added). A paragraph not worth reading is not kept in seen: hashing every
	// paragraph would cost more than it saves where no paragraph repeats, and the
	// comparison with skipped finds the repeats of filler.
	seen, lines map[string]bool
	skipped     string
	// para is the end of the paragraph unit is cutting, [from, line) the part of it being
	// cut at its marks, and marks the finder of those.
	para, from, line int
	marks            markEnds

	// hits, when not nil, is given every sentence that holds a term, with the 0-based
	// indexes of its matching tokens, instead of ranking it (Engine.Hits): toks have
	// their offsets from start, and are valid during the call only. Every unit that may
	// hold a term is read, repeats included, and nothing is kept (n is 0).
	hits func(start int, toks []syntax.Token, hits []int32)
}

// mayCover reports whether the text the prefilter read last (termQuery.bound) may hold
// a term given that no candidate holds.
func (c *collector) mayCover() bool {
	return c.pf != nil && c.covered&c.all != c.all && c.pf.Mask(c.q.skel)&^c.covered != 0
}

// full reports whether n candidates have the most terms a sentence may have: no later
// sentence can rank before them (never with q.readAll).
func (c *collector) full() bool {
	return c.n > 0 && len(c.levels[c.top]) >= c.n && !c.q.readAll
}

// run reads doc from its start until the end or until full, weighing its units with the
// prefilter when the query has one, and keeps the candidates in c.levels. It stops at
// the first error: a query that cannot be compiled for a sentence's language. An
// annotation that cannot be read stops it too, its error left in q.ann.err.
func (c *collector) run() error {
	q, doc := c.q, c.doc
	c.pf = q.prefilter()
	if c.pf != nil {
		q.skel = skeletons.Get().(*prefilter.Scratch)
		defer func() {
			if q.skel.Cap() <= chunkBytes { // not the memory of a megabyte paragraph
				skeletons.Put(q.skel)
			}
			q.skel = nil
		}()
	}
	for start := 0; start < len(doc) && !c.full(); {
		if c.pf == nil {
			end := chunkEnd(doc, start, chunkBytes)
			if err := c.read(start, end); err != nil {
				return err
			}
			if d := q.ann; d != nil && d.err != nil {
				break
			}
			start = end
			continue
		}
		// Skip the units not worth reading; read a chunk of those that are, up to
		// readBytes, ended by the next that is not (skipped too).
		end, ok := c.unit(start)
		if !ok {
			start = end
			continue
		}
		next := end
		for end < len(doc) && end-start < readBytes {
			if next, ok = c.unit(end); !ok {
				break
			}
			end = next
		}
		if err := c.read(start, end); err != nil {
			return err
		}
		start = max(end, next)
	}
	return nil
}

// unit returns where the unit of doc that begins at start ends, and whether it is worth
// reading. Units nest. A paragraph is weighed whole; when it is worth reading and
// English, it is cut at the line breaks that surely end a sentence (lineEnd), and each
// part is weighed; a part worth reading is cut again at the marks that surely end a
// sentence (markEnds), and each of those parts is weighed too. So in a paragraph whose
// terms are in different sentences, on different lines or not, only the sentences that
// may hold the most terms are tokenized, and the marks are looked for only in the lines
// worth reading. A part that is all of the unit it was cut from is not weighed again.
// The starts asked on must increase, each the end of the unit before.
func (c *collector) unit(start int) (int, bool) {
	doc := c.doc
	whole := false // doc[start:c.para] is the paragraph, weighed
	if start >= c.para {
		end := chunkEnd(doc, start, 0)
		if !c.worth(doc[start:end], &c.seen, false) {
			return end, false
		}
		if !english(c.q.lang) {
			return end, true
		}
		c.para, whole = end, true
		c.marks.reset(doc, start, end)
	}
	if start >= c.line {
		e := lineEnd(doc, start, c.para)
		if !(whole && e == c.para) && !c.worth(doc[start:e], &c.lines, true) {
			return e, false
		}
		c.from, c.line = start, e
	}
	e, _ := c.marks.part(doc, start, c.line)
	if start == c.from && e == c.line {
		return e, true // the line part, weighed
	}
	return e, c.worth(doc[start:e], &c.lines, true)
}

// worth reports whether the unit p (a paragraph, or lines of one) may add a candidate: it
// may hold sentences with as many terms as fewer than n candidates have, and it is not
// the text of a unit weighed before (whose sentences, read again, would repeat their
// outcomes), unless c.hits is set, which wants the repeats' hits too. It records p in
// *weighed when it is worth reading, or always when all is true, and in c.skipped when
// it is not worth reading.
func (c *collector) worth(p string, weighed *map[string]bool, all bool) bool {
	if p == c.skipped || (c.hits == nil && (*weighed)[p]) {
		return false
	}
	b := min(c.q.bound(c.pf, p), c.top)
	ok := b > 0 && (c.n == 0 || ranked(c.levels[b:]) < c.n || c.mayCover())
	if !ok {
		c.skipped = p
	}
	if ok || all {
		if *weighed == nil {
			*weighed = map[string]bool{}
		}
		(*weighed)[p] = true
	}
	return ok
}

// own gives the candidates that borrow the tokens of the chunk read last copies of their
// own, before that memory is read into again: a chunk's tokens are the tokenizer's or the
// annotation's reused memory (termQuery.sentences). The candidates of the last chunk of a
// document keep borrowing them, which outlive the compressions (doSnippets); a document
// read in one chunk copies none.
func (c *collector) own() {
	for t := range c.levels {
		if c.lent == 0 {
			return
		}
		for i := range c.levels[t] {
			if k := &c.levels[t][i]; k.lent {
				k.s.Tokens, k.lent = slices.Clone(k.s.Tokens), false
				c.lent--
			}
		}
	}
}

// read ranks the sentences of the chunk doc[start:end], which begins and ends at
// paragraph boundaries, in order until full: English ones with the English tokenizer (or
// the annotation), the others with package segment, each sentence in the language
// termQuery.override gives it when the document's language was not given. It returns
// consider's first error.
func (c *collector) read(start, end int) error {
	c.own()
	q, doc := c.q, c.doc
	chunk := doc[start:end]
	if english(q.lang) {
		mixed := !q.fixed && hasNonASCII(chunk)
		for _, sent := range q.sentences(doc, start, end) {
			if c.full() {
				return nil
			}
			toks := sent.Tokens
			if mixed {
				a, b := toks[0].Start, toks[len(toks)-1].End
				if lang, ok := q.override(chunk[a:b]); ok && !english(lang) {
					for _, fs := range segment.Sentences(chunk[a:b], a) {
						if err := c.consider(start, end, lang, fs.Tokens); err != nil {
							return err
						}
					}
					continue
				}
			}
			if err := c.consider(start, end, q.lang, toks); err != nil {
				return err
			}
		}
		return nil
	}
	q.toks, q.sents = segment.AppendSentences(q.toks[:0], q.sents[:0], chunk, 0)
	for _, sent := range q.sents {
		if c.full() {
			return nil
		}
		toks := sent.Tokens
		lang := q.lang
		a, b := toks[0].Start, toks[len(toks)-1].End
		if l, ok := q.override(chunk[a:b]); ok {
			lang = l
			if english(lang) {
				toks = tokenize.Tokens(chunk[a:b])
				for i := range toks {
					toks[i].Start += a
					toks[i].End += a
				}
				if len(toks) == 0 {
					continue
				}
			}
		}
		if err := c.consider(start, end, lang, toks); err != nil {
			return err
		}
	}
	return nil
}

// consider ranks the sentence toks of language lang, with offsets from start, in the
// chunk doc[start:end]: when it holds a term it counts in c.matched, and it is kept as a
// candidate when its level has room, fewer than n candidates have more terms, its query
// (or, shown by its window, its shortest hit) fits the budget and no candidate of its
// level has its text; with room, it counts in q.long (over maxWindowTokens) or
// c.shortest (over the budget) instead. An English sentence over q.maxTokens (the
// method's limit) is shown by its window. A candidate owns copies of the query and hits;
// it borrows toks, whose offsets it moves in place to be from the start of doc, until the
// next chunk (own). The error
// wraps ErrBadRequest when the query cannot be compiled for lang.
func (c *collector) consider(start, end int, lang string, toks []syntax.Token) error {
	q, doc := c.q, c.doc
	var ok bool
	windowed := false
	if english(lang) {
		ok = q.match(toks, c.pick[:q.q.Len()], &c.cur)
	} else {
		f, err := q.foreignOf(lang)
		if err != nil {
			return err
		}
		hits := f.sc.Scan(toks)
		ok = len(hits) > 0 && record(hits, toks, &f.q.Terms, f.pick, &c.cur)
		windowed = q.window
		if ok && windowed {
			q.spans = append(q.spans[:0], windowHits(hits)...)
		}
	}
	if !ok {
		return nil
	}
	c.matched++
	if c.hits != nil {
		c.hits(start, toks, c.cur.hits)
		return nil
	}
	cur := &c.cur
	lv := &c.levels[cur.terms]
	room := len(*lv) < c.n && ranked(c.levels[cur.terms+1:]) < c.n
	// A sentence with a term that no candidate holds is kept beyond n, so that the
	// snippets may show every term the document has (collect's choice): at most one
	// per term given.
	// A bare sentence (candidate.bare) covers its terms only for the bare: a later
	// sentence that says something of them is kept all the same.
	bare, covered := bareSentence(toks, cur.hits), c.covered
	if bare {
		covered |= c.bareCovered
	}
	room = room || c.n > 0 && cur.mask&^covered != 0
	if !room && c.n > 0 {
		// n ≥ 1 candidates rank before it or with it: there will be no error, which
		// is all that q.long and c.shortest are for.
		return nil
	}
	if !windowed && len(toks) > q.maxTokens && len(toks) <= maxWindowTokens {
		// Too long for the method (a list or a table with no sentence end): shown by its
		// window, which needs no parse, as a sentence of another language is. Beyond
		// maxWindowTokens it counts in q.long.
		windowed = true
		q.spans = append(q.spans[:0], windowHits(q.sc.Scan(toks))...)
	}
	// l is the length of the least that shows the sentence's query: its query alone, or
	// for a window its shortest hit.
	l := -1
	switch {
	case windowed:
		for _, h := range q.spans {
			if k := q.hitLength(doc[start:end], toks, match.Hit(h)); l < 0 || k < l {
				l = k
			}
		}
	case len(toks) <= q.maxTokens:
		l = q.queryLength(doc[start:end], &syntax.Sentence{Tokens: toks}, c.cur.query)
	}
	switch {
	case l < 0:
		q.long++
	case l > c.budget:
		if c.shortest == 0 || l < c.shortest {
			c.shortest = l
		}
	default:
		if room && !repeated(*lv, doc, start, toks) {
			k := candidate{terms: cur.terms, mask: cur.mask, query: slices.Clone(cur.query), hits: slices.Clone(cur.hits), bare: bare}
			if bare {
				c.bareCovered |= cur.mask
			} else {
				c.covered |= cur.mask
			}
			if windowed || lang != q.lang {
				k.other = &otherLang{lang: lang, window: windowed}
				if windowed {
					k.other.spans = slices.Clone(q.spans)
				}
			}
			// The candidate borrows the tokens from the chunk's memory, their offsets
			// moved in place (the sentence is not read again); own copies them before
			// that memory is read into again.
			for i := range toks {
				toks[i].Start += start
				toks[i].End += start
			}
			k.s.Tokens, k.lent = toks, true
			c.lent++
			*lv = append(*lv, k)
		}
	}
	return nil
}

// skeletons are the memory of the prefilter, kept from one request to the next: a
// paragraph's skeleton is as long as the paragraph.
var skeletons = sync.Pool{New: func() any { return new(prefilter.Scratch) }}

// maxPartBytes is the longest stretch of an English paragraph without a sure sentence end
// (markEnds, lineEnd) that is tokenized as one: longer (minified JSON, a log line, a table
// with no full stop), it is cut into pieces at pieceEnd, each split into sentences alone,
// so that a piece with a hit is shown by its window instead of the whole being tokenized
// and then refused as one sentence over maxWindowTokens. A sentence of prose has rarely
// more than a few hundred bytes; a piece this long holds at most about maxWindowTokens
// tokens. Every path that splits English text into sentences makes the same cuts
// (appendSentences, collector.unit), so that snippets from an annotation and from the
// text are the same.
const maxPartBytes = 16 << 10

// part returns where the part of the paragraph that begins at start ends (next), or the
// piece of it that begins there when it is over maxPartBytes (pieceEnd), and whether that
// end is a piece's cut: the one step of collector.unit and pieceCuts, so that they cut
// alike.
func (m *markEnds) part(doc string, start, limit int) (end int, piece bool) {
	end = m.next(start, limit)
	if end-start > maxPartBytes {
		return pieceEnd(doc, start, start+maxPartBytes), true
	}
	return end, false
}

// pieceEnd returns where a piece of doc that begins at start and may not pass limit (<
// len(doc)) ends: after the last white space before limit, else after the last comma,
// semicolon or closing bracket that no digit follows, else at the last rune boundary; no
// piece is shorter than half the limit's distance.
func pieceEnd(doc string, start, limit int) int {
	lo := start + (limit-start)/2
	for i := limit; i > lo; i-- {
		if c := doc[i-1]; c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			return i
		}
	}
	for i := limit; i > lo; i-- {
		switch doc[i-1] {
		case ',', ';', '}', ']', ')':
			if c := doc[i]; c < '0' || c > '9' {
				return i
			}
		}
	}
	for i := limit; i > lo; i-- {
		if utf8.RuneStart(doc[i]) {
			return i
		}
	}
	return limit
}

// pieceCuts calls cut with each place in doc[start:end] where a stretch without a sure
// sentence end is cut into pieces (maxPartBytes), in order. start is where a paragraph,
// a part of one or a piece begins, and end where a paragraph or a part ends: the cuts
// are those collector.unit makes from the paragraph's start.
func pieceCuts(doc string, start, end int, cut func(int)) {
	var m markEnds
	for para := start; para < end; {
		pe := min(chunkEnd(doc, para, 0), end)
		m.reset(doc, para, pe)
		for line := para; line < pe; {
			le := lineEnd(doc, line, pe)
			for s := line; s < le; {
				e, piece := m.part(doc, s, le)
				if piece {
					cut(e)
				}
				s = e
			}
			line = le
		}
		para = pe
	}
}

// appendSentences appends to toks and sents the English sentences of doc[start:end],
// their offsets from start, as tokenize.AppendSentences does, each piece of a long
// stretch without a sure sentence end split alone (pieceCuts).
func appendSentences(toks []syntax.Token, sents []syntax.Sentence, doc string, start, end int) ([]syntax.Token, []syntax.Sentence) {
	if end-start <= maxPartBytes {
		return tokenize.AppendSentences(toks, sents, doc[start:end])
	}
	a := start
	piece := func(b int) {
		n0 := len(toks)
		toks, sents = tokenize.AppendSentences(toks, sents, doc[a:b])
		for i := n0; i < len(toks); i++ {
			toks[i].Start += a - start
			toks[i].End += a - start
		}
		a = b
	}
	pieceCuts(doc, start, end, piece)
	piece(end)
	return toks, sents
}
