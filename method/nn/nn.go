// Package nn is VERTEX ADDITION_NN (Handler & O'Connor, EMNLP 2019, §4 and the appendix):
// the inclusion decision of VERTEX ADDITION made by a bidirectional LSTM over the tokens
// of the sentence, in pure Go.
//
// At a decision about candidate v, every token of S is in one of four states: in C (the
// query and the accepted tokens), rejected (refused by the model or skipped as over
// budget), remaining in the priority queue P, or the candidate v itself. A token enters
// the network as the embedding of its word in the table of its state (four tables, one
// per state); a one-layer BiLSTM reads the sequence, its hidden states are max-pooled over
// time, and a linear layer with a softmax over {reject, accept} gives p(y = 1). The
// network sees only words and states: no tags, no tree.
//
// Training (Train) minimises the cross-entropy of the static oracle's decisions with
// AdaGrad, with a hand-written forward and backward pass (checked against finite
// differences in the tests), and keeps the checkpoint (by default, the epoch) with the best validation accuracy. It is
// deterministic: the same data, configuration and seed give the same model bytes whatever
// the number of workers.
//
// At run time a Model is a va.Decider and va.Tracker. The input projection Wx·e of each
// (word, state) pair is computed once and cached in the model, and the per-run Scratch
// keeps the LSTM states of the previous decision: consecutive decisions of a sentence
// change the state of only a few tokens, so the forward LSTM is recomputed only from the
// first changed token on and the backward LSTM only from the last changed token back.
//
// The package embeds its model file (FileName, 15.8 MB) and registers the method "nn"
// with package method, so a program links it only when it imports the package:
//
//	import _ "github.com/qsc-nlp/qsc/method/nn"
package nn

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// Name is the method name of the model ("nn").
const Name = "nn"

// Token states: the four embedding tables.
const (
	StateC         = iota // in C (query or accepted)
	StateRejected         // rejected by the model, or skipped as over budget
	StateRemaining        // still in P
	StateCandidate        // the candidate v
	NumStates
)

// Unknown is the word of index 0: every word outside the vocabulary.
const Unknown = "<unk>"

// Sizes are the dimensions of the network.
type Sizes struct {
	Embed  int // embedding size E, per table
	Hidden int // LSTM hidden size H per direction; the pooled vector has 2H
}

// Validate checks that the sizes are usable.
func (s Sizes) Validate() error {
	if s.Embed < 1 || s.Embed > 4096 || s.Hidden < 1 || s.Hidden > 4096 {
		return fmt.Errorf("nn: sizes embed %d, hidden %d: want 1 to 4096", s.Embed, s.Hidden)
	}
	return nil
}

// Info describes how a model was trained; it is stored in the model file.
type Info struct {
	Decisions     int     // training decisions (per epoch)
	Sentences     int     // training tuples they came from
	Checkpoints   int     // checkpoints run (see TrainConfig.CheckEvery)
	BestCheck     int     // the checkpoint kept (1-based)
	BestSentences int     // training sentences processed at BestCheck
	ValidAcc      float64 // validation accuracy of the oracle decisions at BestCheck
	Marginal      float64 // fraction of training decisions with y = 1
	Seed          uint64  // the initialisation and shuffling seed
	LearnRate     float64 // AdaGrad learning rate
	BatchSize     int     // decisions per update (at least; whole sentences)
	MinCount      int     // minimum training count of a vocabulary word
	SkipUsed      bool    // over-budget candidates were among the training decisions
	Sizes         Sizes
	VocabWords    int // vocabulary size including Unknown
	// Labels is the number of dependency-label rows (including Unknown) that are added to
	// each token's input: 0 for a model of words and states only (the paper's).
	Labels int
}

// params are the trainable weights.
type params struct {
	Sizes
	V   int       // vocabulary size
	emb []float32 // NumStates × V × E: table s, word w at ((s·V)+w)·E
	// embH holds the embeddings of a loaded model as the file stores them, in bfloat16
	// (half the memory of emb, which is then nil). A row is widened when a run first needs
	// its projection (Model.proj caches the projection), so it costs nothing per decision.
	embH []uint16
	dir  [2]dirParams // forward (left to right) and backward
	wo   []float32    // 2 × 2H: class 0 (reject), class 1 (accept)
	bo   []float32    // 2
}

func newParams(sz Sizes, v int) *params {
	p := &params{Sizes: sz, V: v, emb: make([]float32, NumStates*v*sz.Embed),
		wo: make([]float32, 2*2*sz.Hidden), bo: make([]float32, 2)}
	for d := range p.dir {
		p.dir[d] = dirParams{wx: make([]float32, 4*sz.Hidden*sz.Embed), u: make([]float32, 4*sz.Hidden*sz.Hidden), b: make([]float32, 4*sz.Hidden)}
	}
	return p
}

// tensors lists every weight slice in a fixed order (file layout, optimiser, tests).
func (p *params) tensors() [][]float32 {
	return [][]float32{p.emb, p.dir[0].wx, p.dir[0].u, p.dir[0].b, p.dir[1].wx, p.dir[1].u, p.dir[1].b, p.wo, p.bo}
}

// embRow returns the embedding of word in the table of state: a slice of emb, or, for a
// loaded model, a new slice widened from embH.
func (p *params) embRow(state, word int) []float32 {
	o := (state*p.V + word) * p.Embed
	if p.emb == nil {
		e := make([]float32, p.Embed)
		for i, h := range p.embH[o : o+p.Embed] {
			e[i] = fromBF16(h)
		}
		return e
	}
	return p.emb[o : o+p.Embed]
}

// project sets out (8H) to [Wx_f·e; Wx_b·e] for the embedding e.
func (p *params) project(e, out []float32) {
	G := 4 * p.Hidden
	matVec(p.dir[0].wx, e, out[:G])
	matVec(p.dir[1].wx, e, out[G:2*G])
}

// output returns the logits of the pooled vector.
func (p *params) output(pooled []float32) (z0, z1 float32) {
	k := len(pooled)
	return dot(p.wo[:k], pooled) + p.bo[0], dot(p.wo[k:2*k], pooled) + p.bo[1]
}

// pAccept is the softmax probability of class 1 from the logits.
func pAccept(z0, z1 float32) float64 { return 1 / (1 + math.Exp(float64(z0)-float64(z1))) }

// Model is a trained VERTEX ADDITION_NN: a va.Decider and va.Tracker, safe for concurrent
// use. Load it from a model file with Load.
type Model struct {
	p      *params
	words  []string // vocabulary; words[0] = Unknown
	labels []string // dependency labels (universal); labels[0] = Unknown; none for a words-only model
	lex    lexicon
	cache  []atomic.Pointer[[]float32]
	// Info describes how the model was trained.
	Info Info
}

func newModel(p *params, words, labels []string, info Info) (*Model, error) {
	if len(words) == 0 || words[0] != Unknown || len(words)+len(labels) != p.V {
		return nil, fmt.Errorf("%w: vocabulary of %d words and %d labels for %d embedding rows", ErrFormat, len(words), len(labels), p.V)
	}
	if len(labels) > 0 && labels[0] != Unknown {
		return nil, fmt.Errorf("%w: label 0 is %q, want %q", ErrFormat, labels[0], Unknown)
	}
	lex, err := newLexicon(words, labels)
	if err != nil {
		return nil, err
	}
	m := &Model{p: p, words: words, labels: labels, lex: lex, Info: info,
		cache: make([]atomic.Pointer[[]float32], NumStates*p.V)}
	m.Info.Sizes, m.Info.VocabWords, m.Info.Labels = p.Sizes, len(words), len(labels)
	return m, nil
}

// lexicon maps the words and the dependency labels of a sentence to embedding rows.
type lexicon struct {
	words  map[string]int32 // normalized form → row (0: Unknown)
	labels map[string]int32 // universal label → row (after the words); nil: no label input
	unkRel int32            // row of an unknown label
}

// newLexicon indexes words (rows 0…) and labels (rows len(words)…).
func newLexicon(words, labels []string) (lexicon, error) {
	lex := lexicon{words: make(map[string]int32, len(words))}
	for i, w := range words {
		if _, dup := lex.words[w]; dup {
			return lexicon{}, fmt.Errorf("%w: word %q listed twice", ErrFormat, w)
		}
		lex.words[w] = int32(i)
	}
	if len(labels) > 0 {
		lex.labels = make(map[string]int32, len(labels))
		lex.unkRel = int32(len(words))
		for i, l := range labels {
			if _, dup := lex.labels[l]; dup {
				return lexicon{}, fmt.Errorf("%w: label %q listed twice", ErrFormat, l)
			}
			lex.labels[l] = int32(len(words) + i)
		}
	}
	return lex, nil
}

// word returns the row of a word form, normalizing it into buf (wordform.Append), and
// buf, grown when it lacked room, for the next call: with a reused buf it allocates
// nothing, since the map lookup on string(buf) does not copy the key.
func (x *lexicon) word(buf []byte, form string) ([]byte, int32) {
	buf = wordform.Append(buf[:0], form)
	return buf, x.words[string(buf)]
}

// label returns the row of a dependency label, or -1 for a words-only model.
func (x *lexicon) label(rel string) int32 {
	if x.labels == nil {
		return -1
	}
	if r, ok := x.labels[syntax.Universal(rel)]; ok {
		return r
	}
	return x.unkRel
}

// ErrFormat is wrapped by the error of a malformed model file.
var ErrFormat = errors.New("nn: malformed model file")

// Name returns "nn".
func (m *Model) Name() string { return Name }

// Sizes returns the dimensions of the network.
func (m *Model) Sizes() Sizes { return m.p.Sizes }

// Word returns the id of a word form after normalization (lowercased, "##" for a token
// with a digit, as parser.NormalizeForm); 0 is Unknown. It allocates only for a form
// whose normalization is longer than 64 bytes.
func (m *Model) Word(form string) int {
	var a [64]byte // on the stack
	_, w := m.lex.word(a[:0], form)
	return int(w)
}

// proj returns the cached input projection [Wx_f·e; Wx_b·e] of the embedding row (a word
// or a label) in the table of state.
func (m *Model) proj(word int32, state uint8) []float32 {
	slot := &m.cache[int(state)*m.p.V+int(word)]
	if v := slot.Load(); v != nil {
		return *v
	}
	out := make([]float32, 8*m.p.Hidden)
	m.p.project(m.p.embRow(int(state), int(word)), out)
	if !slot.CompareAndSwap(nil, &out) {
		return *slot.Load()
	}
	return out
}

// run is a Model's per-run data (va.State.Scratch).
type run struct {
	m      *Model
	n      int
	valid  bool // hf… hold the states of prev
	words  []int32
	rels   []int32 // label rows, or -1 (words-only model)
	norm   []byte  // the normalized form of a word (lexicon.word)
	xp     []float32
	prev   []uint8
	cur    []uint8
	h, c   [2][]float32 // n × H per direction, by position
	act    []float32
	tc     []float32
	pooled []float32
}

func (m *Model) scratch(s *va.State) *run {
	r, ok := s.Scratch.(*run)
	if !ok || r.m != m {
		r = &run{m: m}
		s.Scratch = r
	}
	return r
}

// Start reads the words of the sentence (va.Tracker).
func (m *Model) Start(s *va.State) {
	r := m.scratch(s)
	n := s.N()
	H := m.p.Hidden
	r.n, r.valid = n, false
	r.words, r.rels = reuse.Resize(r.words, n), reuse.Resize(r.rels, n)
	r.xp = reuse.Resize(r.xp, 4*H)
	r.prev, r.cur = reuse.Resize(r.prev, n), reuse.Resize(r.cur, n)
	for d := range 2 {
		r.h[d], r.c[d] = reuse.Resize(r.h[d], n*H), reuse.Resize(r.c[d], n*H)
	}
	r.act, r.tc, r.pooled = reuse.Resize(r.act, 4*H), reuse.Resize(r.tc, H), reuse.Resize(r.pooled, 2*H)
	sent := s.Sentence()
	for i := range n {
		r.words[i], r.rels[i] = 0, m.lex.label("")
		if sent != nil && i < len(sent.Tokens) {
			r.norm, r.words[i] = m.lex.word(r.norm, sent.Tokens[i].Form)
			r.rels[i] = m.lex.label(sent.Tokens[i].Rel)
		}
	}
}

// Added does nothing: Decide reads the states from the va.State (va.Tracker).
func (m *Model) Added(*va.State, int) {}

// States writes the state of every token at the decision about v into out (len N).
func States(s *va.State, v int, out []uint8) {
	for i := range out {
		u := i + 1
		switch {
		case u == v:
			out[i] = StateCandidate
		case s.InC(u):
			out[i] = StateC
		case s.Remaining(u):
			out[i] = StateRemaining
		default:
			out[i] = StateRejected
		}
	}
}

// Decide returns p(y = 1) for candidate v and accepts v when it exceeds 0.5 (the softmax
// argmax).
func (m *Model) Decide(s *va.State, v int) va.Decision {
	r, ok := s.Scratch.(*run)
	if !ok || r.m != m || r.n != s.N() {
		m.Start(s)
		r = s.Scratch.(*run)
	}
	States(s, v, r.cur)
	p := r.eval()
	return va.Decision{Accept: p > 0.5, P: p}
}

// eval runs the network on r.cur, reusing the LSTM states of r.prev where the states agree.
func (r *run) eval() float64 {
	n, H, p := r.n, r.m.p.Hidden, r.m.p
	first, last := 0, n-1
	if r.valid {
		for first < n && r.cur[first] == r.prev[first] {
			first++
		}
		for last >= 0 && r.cur[last] == r.prev[last] {
			last--
		}
	}
	// Forward direction, positions first … n−1.
	for t := first; t < n; t++ {
		var hp, cp []float32
		if t > 0 {
			hp, cp = r.h[0][(t-1)*H:t*H], r.c[0][(t-1)*H:t*H]
		}
		xp := r.input(t, 0)
		p.dir[0].step(xp, hp, cp, r.act, r.c[0][t*H:(t+1)*H], r.tc, r.h[0][t*H:(t+1)*H])
	}
	// Backward direction, positions last … 0.
	for t := last; t >= 0; t-- {
		var hp, cp []float32
		if t < n-1 {
			hp, cp = r.h[1][(t+1)*H:(t+2)*H], r.c[1][(t+1)*H:(t+2)*H]
		}
		xp := r.input(t, 1)
		p.dir[1].step(xp, hp, cp, r.act, r.c[1][t*H:(t+1)*H], r.tc, r.h[1][t*H:(t+1)*H])
	}
	r.prev, r.cur = r.cur, r.prev
	r.valid = true
	pool(r.h, n, H, r.pooled, nil)
	return pAccept(p.output(r.pooled))
}

// input returns the input projection of position t for direction dir (4H): the word's,
// plus the label's for a model with label input, added as in training (work.project).
func (r *run) input(t, dir int) []float32 {
	G := 4 * r.m.p.Hidden
	xw := r.m.proj(r.words[t], r.cur[t])[dir*G : (dir+1)*G]
	if r.rels[t] < 0 {
		return xw
	}
	xl := r.m.proj(r.rels[t], r.cur[t])[dir*G : (dir+1)*G]
	for i := range r.xp {
		r.xp[i] = xw[i] + xl[i]
	}
	return r.xp
}

// pool sets pooled (2H) to the maximum over positions of [h_f; h_b]; arg, when not nil,
// receives the position of each maximum (the first on ties).
func pool(h [2][]float32, n, H int, pooled []float32, arg []int32) {
	for d := range 2 {
		out := pooled[d*H : (d+1)*H]
		copy(out, h[d][:H])
		if arg != nil {
			for j := range H {
				arg[d*H+j] = 0
			}
		}
		for t := 1; t < n; t++ {
			row := h[d][t*H : (t+1)*H]
			for j, x := range row {
				if x > out[j] {
					out[j] = x
					if arg != nil {
						arg[d*H+j] = int32(t)
					}
				}
			}
		}
	}
}
