// Package parser is a fast greedy transition-based dependency parser for English that
// produces Universal Dependencies v2 trees with full labels (nmod:poss, obl:tmod, ...).
//
// It uses the arc-hybrid transition system with the root at the bottom of the stack,
// trained as an averaged perceptron with Goldberg & Nivre's dynamic oracle and error
// exploration. The next transition is scored with the Zhang & Nivre (2011) rich feature
// templates (plus word-cluster features, see LearnClusters); the label of an arc is
// chosen only when an arc transition is taken, with a smaller feature set, among the
// labels seen in training for the dependent's tag and the arc direction. Features are
// hashed into flat tables of 8-bit weights with an exponent per row, whose class weights
// are contiguous, so scoring costs one memory access per feature; a loaded model reads
// them in place from its file. Several training runs can be averaged into one
// model (TrainOptions.Runs) at no cost in parsing speed.
//
// A model trained with TrainOptions.Beam > 1 parses with beam search instead: it keeps the
// Beam best partial parses at every step, ranked by the sum of their transition scores,
// and is trained globally (structured perceptron with early update along the static
// oracle's transitions). It is more accurate and several times slower; Model.Beam tells
// which kind a model is, and Parse uses it either way.
//
// Non-projective training trees are projectivized by lifting (the shortest
// non-projective arc is re-attached to its head's head until none is left; labels are
// kept), and the dynamic oracle is trained against that projective tree, which arc-hybrid
// can reach exactly (its costs are then exact, as arc-hybrid is arc-decomposable for
// projective trees). The parser therefore only outputs projective trees; in EWT train 288
// of 12,544 trees are non-projective and 392 arcs are lifted.
//
// The parser reads Token.Form and Token.XPOS (Penn Treebank tags) and sets Token.Head and
// Token.Rel. Word forms enter the model only through NormalizeForm, so text normalized
// like the Google compression train split parses exactly as its original (given the same
// tags).
package parser

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/syntax"
)

// NormalizeForm returns the form under which a word enters the model: lowercased, and "##"
// for any token that contains a digit (wordform.Normalize). This is the normalization of
// the training split of the Google compression corpus (which also writes rare words as
// "<unk>", a form that NormalizeForm keeps), so that one model serves raw text and that
// corpus alike.
func NormalizeForm(form string) string { return wordform.Normalize(form) }

// Model is a trained parser. It is read-only once built and safe to share between
// goroutines; each goroutine parses with its own Parser from NewParser.
type Model struct {
	words    []string  // normalized forms by word id − idMin
	clusters *Clusters // word clusters, or nil
	lex      *lexTable // normalized form → word id | cluster<<32 (see buildLex)
	unkLex   uint64    // lex entry of a form missing from lex
	// cands[2*tag+dir] lists the label classes seen in training for a dependent with that
	// tag id to the left (dir 0) or right (dir 1) of its head; allCands is every class
	// but root, used for tags without candidates.
	cands    [][]uint8
	allCands []uint8
	tags     map[string]uint32 // XPOS → tag id (≥ idMin)
	labels   []string          // label classes
	rootLab  int32             // class of "root"

	actBits, labBits uint // log2 of the number of rows of each table
	beam             int  // beam width for parsing (≤ 1: greedy)
	// Parsing uses 8-bit weights with an exponent per row (quant.go), a quarter of the
	// memory of float32 and so fewer cache misses: actQ has (1<<actBits) rows of
	// actStride bytes (the exponent, then the three action weights), labQ (1<<labBits)
	// rows of 1+len(labels) bytes (the exponent, then the label weights). A loaded model reads
	// them in place from its file. act and lab are the float32 weights, only present
	// while training.
	actQ, labQ []byte
	act, lab   []float32
}

const actStride = 4 // numActs padded (float32 weights being trained; bytes of a quantized row)

// Errors returned by Parse.
var (
	ErrEmpty   = errors.New("parser: empty sentence")
	ErrNoTag   = errors.New("parser: token has no XPOS tag")
	ErrNoModel = errors.New("parser: no model (use Train or Load)")
)

// Parser parses sentences with a Model. It holds scratch memory, so a Parser must not be
// used by several goroutines at once; after warm-up, Parse does not allocate.
type Parser struct {
	m   *Model
	st  state
	ws  []uint32
	cs  []uint32 // fine+1 | (coarse+1)<<10 cluster atoms, 0 when none
	ps  []uint32
	buf []byte
	// The lexicon keys of the tokens and the first slot each probes (noSlot: a long form).
	keys  []lexKey
	slots []uint64
	// touched keeps the bytes read only to start their memory loads early (encode).
	touched byte
	af      [numActFeats]uint64
	lf      [numLabFeats]uint64
	lsc     []float32
	// Beam search (beam.go): 2 × width items, the front half the current beam.
	beam  []*beamItem
	cands []beamCand
}

// NewParser returns a Parser that uses m.
func (m *Model) NewParser() *Parser {
	return &Parser{m: m, lsc: make([]float32, len(m.labels))}
}

// Labels returns the dependency labels the model can assign, in class order.
func (m *Model) Labels() []string { return append([]string(nil), m.labels...) }

// Parse sets Head and Rel of every token of s from their Form and XPOS. The result is
// always a projective tree with exactly one token attached to the root (0). It returns an
// error, leaving s unchanged, when s is empty or a token has no XPOS.
func (p *Parser) Parse(s *syntax.Sentence) error {
	if p == nil || p.m == nil || len(p.m.actQ) == 0 || len(p.m.labQ) == 0 {
		return ErrNoModel
	}
	if s == nil || len(s.Tokens) == 0 {
		return ErrEmpty
	}
	n := len(s.Tokens)
	for i := range s.Tokens {
		if s.Tokens[i].XPOS == "" {
			return fmt.Errorf("%w (token %d %q)", ErrNoTag, i+1, s.Tokens[i].Form)
		}
	}
	p.encode(s)
	if p.m.beam > 1 {
		p.runBeam(p.m.beam, nil)
	} else {
		p.run(nil, nil)
	}
	for k := 1; k <= n; k++ {
		t := &s.Tokens[k-1]
		t.Head = int(p.st.head[k])
		t.Rel = p.m.labels[p.st.label[k]]
	}
	return nil
}

// encode fills the word and tag ids of s (index 0 is the root). The lexicon slots of all
// tokens are read before any is probed, so that their cache misses overlap.
func (p *Parser) encode(s *syntax.Sentence) {
	n := len(s.Tokens)
	p.ws = reuse.Resize(p.ws, n+1)
	p.ps = reuse.Resize(p.ps, n+1)
	p.cs = reuse.Resize(p.cs, n+1)
	p.keys = reuse.Resize(p.keys, n)
	p.slots = reuse.Resize(p.slots, n)
	p.ws[0], p.ps[0], p.cs[0] = idRoot, idRoot, 0
	lt := p.m.lex
	var touched byte
	for i := range s.Tokens {
		t := &s.Tokens[i]
		p.buf = wordform.Append(p.buf[:0], t.Form)
		k, ok := makeLexKey(p.buf)
		if ok {
			p.keys[i], p.slots[i] = k, lt.first(&k)
			touched ^= lt.touch(p.slots[i])
		} else {
			lx, ok := lt.long[string(p.buf)]
			if !ok {
				lx = p.m.unkLex
			}
			p.ws[i+1], p.cs[i+1], p.slots[i] = uint32(lx), uint32(lx>>32), noSlot
		}
		g, ok := p.m.tags[t.XPOS]
		if !ok {
			g = idUnk
		}
		p.ps[i+1] = g
	}
	p.touched = touched
	for i, j := range p.slots {
		if j == noSlot {
			continue
		}
		lx, ok := lt.find(&p.keys[i], j)
		if !ok {
			lx = p.m.unkLex
		}
		p.ws[i+1], p.cs[i+1] = uint32(lx), uint32(lx>>32)
	}
}

// buildAllCands lists every label class but root.
func (m *Model) buildAllCands() {
	m.allCands = m.allCands[:0]
	for c := range m.labels {
		if int32(c) != m.rootLab {
			m.allCands = append(m.allCands, uint8(c))
		}
	}
	if len(m.allCands) == 0 { // only "root" was seen: label everything root
		m.allCands = append(m.allCands, uint8(m.rootLab))
	}
}

// buildLex merges the word ids and the clusters into lex. It reports false when a word is
// in m.words twice.
func (m *Model) buildLex() bool {
	n := len(m.words)
	if m.clusters != nil {
		n = max(n, len(m.clusters.words)) // the clusters' words are mostly among the words
	}
	if !m.lexWords(newLexTable(n)) {
		return false
	}
	m.lexClusters()
	return true
}

// lexWords makes t, empty, the lexicon and puts the word ids in it. It reports false when
// a word is in m.words twice. Load calls it before it reads the clusters, which
// lexClusters then adds.
func (m *Model) lexWords(t *lexTable) bool {
	t.wait()
	m.unkLex = idUnk
	for i, w := range m.words {
		if t.put(w, uint64(i+idMin)) {
			return false // a word twice
		}
	}
	m.lex = t
	return true
}

// lexClusters adds the clusters to lex, built by lexWords.
func (m *Model) lexClusters() {
	if m.clusters == nil {
		return
	}
	t := m.lex
	for i, w := range m.clusters.words {
		f := uint64(m.clusters.fine[i])
		c := uint64(f+1) | uint64(m.clusters.coarse[f]+1)<<10
		lx, ok := t.get(w)
		if !ok {
			lx = idUnk
		}
		t.put(w, lx|c<<32)
		if w == "<unk>" {
			m.unkLex = idUnk | c<<32
		}
	}
}

// run parses the encoded sentence greedily. With a trainer, it learns from the gold tree
// on the way (see trainer.step).
func (p *Parser) run(tr *trainer, g *instance) {
	st := &p.st
	st.reset(len(p.ws) - 1)
	for !st.terminal() {
		if tr != nil {
			tr.step(p, g)
			continue
		}
		a := st.forced()
		if a < 0 {
			st.actionFeatures(p.ws, p.ps, p.cs, &p.af)
			sc := p.m.scoreActs(&p.af)
			a = bestValid(st, &sc)
		}
		var lab int32
		if a != actShift {
			h, d := st.arc(a)
			lab = p.labelOn(st, h, d, false)
		}
		st.apply(a, lab)
	}
}

// bestValid returns the highest-scoring valid action (ties go to the lower action).
func bestValid(st *state, sc *[numActs]float32) int {
	best := -1
	for a := range numActs {
		if st.valid(a) && (best < 0 || sc[a] > sc[best]) {
			best = a
		}
	}
	return best
}

// scoreActs scores the transitions with the 8-bit weights of a finished model. The row
// offsets are computed first, then the rows read in a loop that does nothing else, one
// 4-byte load each, so that as many of their cache misses as the processor can track
// overlap; then the rows are summed in feature order (the order of the float32 sums is
// part of the result).
func (m *Model) scoreActs(f *[numActFeats]uint64) [numActs]float32 {
	var offs, rows [numActFeats]uint32
	mask := uint64(1)<<m.actBits - 1
	for i, k := range f {
		offs[i] = uint32((hashing.Fmix(k) & mask) * actStride)
	}
	w := m.actQ
	for i := range offs { // by index: ranging over the array would copy it
		r := offs[i]
		rows[i] = binary.LittleEndian.Uint32(w[r : r+actStride : r+actStride])
	}
	var s0, s1, s2 float32
	for i := range rows {
		r := rows[i] // exponent, then the three weights
		e := expScale[uint8(r)]
		s0 += float32(int8(r>>8)) * e
		s1 += float32(int8(r>>16)) * e
		s2 += float32(int8(r>>24)) * e
	}
	return [numActs]float32{s0, s1, s2}
}

// scoreActsF scores the transitions with the float32 weights being trained.
func (m *Model) scoreActsF(f *[numActFeats]uint64) [numActs]float32 {
	var s0, s1, s2 float32
	mask := uint64(1)<<m.actBits - 1
	w := m.act
	for _, k := range f {
		r := (hashing.Fmix(k) & mask) * actStride
		row := w[r : r+3 : r+3]
		s0 += row[0]
		s1 += row[1]
		s2 += row[2]
	}
	return [numActs]float32{s0, s1, s2}
}

// compress sets the 8-bit weights used for parsing from the float32 ones.
func (m *Model) compress() {
	m.actQ = quantizeRows(m.actQ, m.act, actStride, numActs)
	m.labQ = quantizeRows(m.labQ, m.lab, len(m.labels), len(m.labels))
}

// labelOn returns the label class of the arc h → d in state st, leaving the label
// features in p.lf; the root's dependent is "root". float selects the float32 weights
// being trained.
func (p *Parser) labelOn(st *state, h, d int32, float bool) int32 {
	if h == 0 {
		return p.m.rootLab
	}
	st.labelFeatures(p.ws, p.ps, p.cs, h, d, &p.lf)
	cands := p.m.labelCands(p.ps[d], h < d)
	if float {
		return p.m.scoreLabelsF(&p.lf, cands, p.lsc)
	}
	return p.m.scoreLabels(&p.lf, cands, p.lsc)
}

// labelCands returns the label classes seen in training on arcs whose dependent has tag
// id tag, to the right of its head when right is true.
func (m *Model) labelCands(tag uint32, right bool) []uint8 {
	k := 2 * int(tag)
	if right {
		k++
	}
	if k >= len(m.cands) || len(m.cands[k]) == 0 {
		return m.allCands
	}
	return m.cands[k]
}

// scoreLabels scores the candidate classes into sc with the 8-bit weights and returns
// the best one. The rows are located and their exponents read first, so that their memory
// loads overlap; then each candidate's score is summed over the rows in feature order (the
// order of the float32 sums is part of the result) in a register, four candidates at a
// time, whose sums do not wait for one another.
func (m *Model) scoreLabels(f *[numLabFeats]uint64, cands []uint8, sc []float32) int32 {
	stride := uint64(1 + len(m.labels))
	sc = sc[:len(cands)]
	mask := uint64(1)<<m.labBits - 1
	var rows [numLabFeats]uint64 // offset of each row's first weight
	var es [numLabFeats]float32  // scale of each row
	q := m.labQ
	for i, k := range f {
		r := (hashing.Fmix(k) & mask) * stride
		rows[i] = r + 1
		es[i] = expScale[q[r]]
	}
	i := 0
	for ; i+4 <= len(cands); i += 4 {
		c0, c1, c2, c3 := cands[i], cands[i+1], cands[i+2], cands[i+3]
		var s0, s1, s2, s3 float32
		for j := range rows { // by index, as in scoreActs
			w, e := q[rows[j]:], es[j]
			s0 += float32(int8(w[c0])) * e
			s1 += float32(int8(w[c1])) * e
			s2 += float32(int8(w[c2])) * e
			s3 += float32(int8(w[c3])) * e
		}
		sc[i], sc[i+1], sc[i+2], sc[i+3] = s0, s1, s2, s3
	}
	for ; i < len(cands); i++ {
		c := uint64(cands[i])
		var s float32
		for j := range rows {
			s += float32(int8(q[rows[j]+c])) * es[j]
		}
		sc[i] = s
	}
	return int32(cands[argmax(sc)])
}

// scoreLabelsF is scoreLabels with the float32 weights being trained.
func (m *Model) scoreLabelsF(f *[numLabFeats]uint64, cands []uint8, sc []float32) int32 {
	nl := uint64(len(m.labels))
	sc = sc[:len(cands)]
	clear(sc)
	mask := uint64(1)<<m.labBits - 1
	for _, k := range f {
		r := (hashing.Fmix(k) & mask) * nl
		row := m.lab[r : r+nl : r+nl]
		for i, c := range cands {
			sc[i] += row[c]
		}
	}
	return int32(cands[argmax(sc)])
}

func argmax(sc []float32) int {
	best := 0
	for i := 1; i < len(sc); i++ {
		if sc[i] > sc[best] {
			best = i
		}
	}
	return best
}

// Beam returns the beam width the model parses with (1: greedy).
func (m *Model) Beam() int { return max(m.beam, 1) }
