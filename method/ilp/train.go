package ilp

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// TrainConfig controls Train.
type TrainConfig struct {
	// Epochs is the number of passes over the training inputs (0: DefaultEpochs). The
	// averaged weights after each epoch are scored on the validation inputs; the best
	// epoch is kept.
	Epochs int
	// Seed drives the order of the training inputs in each epoch.
	Seed uint64
	// Bits is log2 of the number of hashed feature buckets (0: DefaultBits).
	Bits int
	// Numeric is the representation of numeric edge features: "raw" (the authors'),
	// "binned" or "both" ("": DefaultNumeric).
	Numeric string
	// Score scores the averaged weights of each epoch on the validation inputs; it is
	// required (Train returns ErrNoScorer without it). Train calls it twice per epoch: with
	// the decoding it chooses the epoch on (Paper, or Snippet under Snippet or Target) and
	// with Paper on the unconstrained model (Q = ∅). Its parallelism is the caller's;
	// training itself is sequential, so the model depends on Score's values only.
	Score method.Scorer
	// Log receives a line per epoch; nil for none.
	Log io.Writer
	// Snippet trains for the Snippet decoding: each training input is solved as a
	// snippet is, with its query and under the well-formedness rules (package
	// wellformed), and the epoch is chosen on the validation F1 of the Snippet decoding.
	// Without it, training is the authors' (Q = ∅, no rules).
	Snippet bool
	// Conjoined adds the conjoined edge features (features.Config.Conjoined).
	Conjoined bool
	// Keep, if positive, keeps only the Keep weights of largest magnitude in the averaged
	// weights of each epoch (those tied with the Keep-th are kept too), before they are
	// validated: a smaller model file.
	Keep int
	// Slack, if positive, trains each input with a budget longer than its gold by 0 to
	// Slack characters (drawn from Seed, per epoch), so that the weights, not the budget,
	// tell where a compression ends: the exact optimum then stays the same when the budget
	// grows past it, as a snippet that grows needs (docs/snippets-history.md, "Training
	// with slack").
	Slack int
	// Query adds the query features (features.Config.Query) and solves each training
	// input with its query (Q ⊆ C; without Snippet, without the rules), so that the
	// weights learn what the query tells about the rest of the compression.
	Query bool
	// Target, when not nil, trains for what the snippet decoding shows (docs/snippets.md,
	// "Training for the display"): the target of each input is the best display of its
	// gold, the run program of the snippet decoding (package runs) with C* := the gold under
	// these weights, the input's query and the budget it is trained with (slack included;
	// the tokens joined by spaces, Display false), instead of the gold itself; the gold
	// when no display exists. Its arcs are built from that token set as they are from the
	// gold. The epoch is chosen on the validation F1 of the Snippet decoding. It costs a
	// run program per input.
	Target *runs.Params
	// ShowPrediction, with Target, compares the target with what the snippet decoding
	// shows instead of with the optimum: the tree program's optimum under the
	// well-formedness rules (trimmed, as the decoding computes C*), then its best display
	// under Target's weights, both as arcs built from their token sets. It costs a run
	// program per input more.
	ShowPrediction bool
	// TargetAtGold, with Target, computes the target's display under the gold's own
	// length, b = ℓ(gold), whatever the slack: the slack then widens what the prediction
	// may keep but not the target.
	TargetAtGold bool
	// TargetUnion, with Target, keeps the gold's own tokens in the target too: the target
	// is the gold and its best display together, so the display adds the words that join
	// the gold's runs and drops none.
	TargetUnion bool
}

// Defaults of TrainConfig.
const (
	DefaultEpochs  = 10
	DefaultBits    = 20
	DefaultNumeric = "binned"
	// DefaultSlack is the slack of qsc-lab train ilp (TrainConfig.Slack), 28 characters: the
	// perceptron learns to stop where the gold stops although the budget would take more,
	// so that the exact optimum does not change with the budget once it fits, and the
	// snippet decoding fills the rest around it (runs.Params.Fill). The model selection is
	// in docs/snippets-history.md ("Training with slack").
	DefaultSlack = 28
)

// Epoch is the outcome of one training epoch.
type Epoch struct {
	Epoch int // 1-based
	// Mistakes is the number of training inputs whose predicted arcs differed from the
	// gold arcs (each gave an update).
	Mistakes int
	// F1 and CR are the mean validation token F1 and compression ratio of the averaged
	// weights with the query constraint (Q, b); FreeF1 and FreeCR without it (Q = ∅).
	F1, CR, FreeF1, FreeCR float64
	Elapsed                time.Duration // training and validation time of the epoch
}

// TrainResult is what Train returns.
type TrainResult struct {
	Model   *Model // the averaged weights of the best epoch
	Epochs  []Epoch
	Best    int // index in Epochs of the chosen epoch (best constrained validation F1)
	Dropped int // training inputs left out (no sentence, or the solver failed), per epoch
	Elapsed time.Duration
}

// ErrNoData is returned when there is nothing to train on or validate with.
var ErrNoData = errors.New("ilp: no training or validation data")

// ErrNoScorer is returned when TrainConfig.Score is nil: Train cannot choose an epoch.
var ErrNoScorer = errors.New("ilp: no validation scorer (TrainConfig.Score)")

// Train learns the arc weights with the averaged structured perceptron of the authors'
// fillipova_altun_learning.py: weights start at 0; each training input, visited in a
// seeded random order per epoch, is solved without its query (Q = ∅; with it under
// TrainConfig.Query or Snippet) under b = its budget (the gold length; plus a random
// slack under TrainConfig.Slack); the gold arcs are the parse edges into the gold tokens
// whose head is a gold token or the root, and ROOT → t for the other gold tokens t (under
// TrainConfig.Target, the same arcs of the gold's best display); when the predicted arcs
// differ, w += φ(gold arcs) − φ(predicted arcs) over the arcs that differ.
// The model is the average of the weights after every input seen so far. After each
// epoch the averaged weights are scored on the validation inputs (with their queries) by
// TrainConfig.Score, and the epoch with the best validation F1 is returned (the first on ties). Train is
// deterministic: the same inputs and configuration give the same model.
func Train(train, valid []method.Input, cfg TrainConfig) (*TrainResult, error) {
	start := time.Now()
	if len(train) == 0 || len(valid) == 0 {
		return nil, ErrNoData
	}
	if cfg.Score == nil {
		return nil, ErrNoScorer
	}
	if cfg.Epochs <= 0 {
		cfg.Epochs = DefaultEpochs
	}
	if cfg.Bits == 0 {
		cfg.Bits = DefaultBits
	}
	if cfg.Numeric == "" {
		cfg.Numeric = DefaultNumeric
	}
	fcfg, err := edgeConfig(cfg.Bits, cfg.Numeric, cfg.Conjoined, cfg.Query)
	if err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	vocab := features.NewVocab(func(yield func(string) bool) {
		for _, in := range train {
			if in.Sentence == nil {
				continue
			}
			for _, t := range in.Sentence.Tokens {
				if !yield(t.Form) {
					return
				}
			}
		}
	})
	dim := fcfg.Size()
	if cfg.ShowPrediction && cfg.Target == nil {
		return nil, fmt.Errorf("%w: ShowPrediction needs Target", features.ErrConfig)
	}
	p := &perceptron{cfg: fcfg, vocab: vocab, w: make([]float64, dim), acc: make([]float64, dim), snippet: cfg.Snippet,
		target: cfg.Target, show: cfg.ShowPrediction, atGold: cfg.TargetAtGold, union: cfg.TargetUnion}
	p.trim = func(kept []int) []int { return p.rules.Trim(p.sentence, kept) }
	dec := method.Paper
	if cfg.Snippet || cfg.Target != nil {
		dec = method.Snippet
	}
	res := &TrainResult{}
	var best []float32
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	for e := 1; e <= cfg.Epochs; e++ {
		t0 := time.Now()
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(e)))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		slack := rand.New(rand.NewPCG(cfg.Seed^slackStream, uint64(e)))
		bar := progress.New(fmt.Sprintf("ilp epoch %d/%d", e, cfg.Epochs), len(order))
		ep := Epoch{Epoch: e}
		dropped := 0
		for k, i := range order {
			extra := 0
			if cfg.Slack > 0 {
				extra = slack.IntN(cfg.Slack + 1)
			}
			mistake, err := p.step(train[i], extra)
			switch {
			case err != nil:
				dropped++
			case mistake:
				ep.Mistakes++
			}
			if k%1024 == 1023 {
				bar.Add(1024)
			}
		}
		bar.Done()
		res.Dropped = dropped
		if dropped == len(train) {
			return nil, ErrNoData
		}
		m := &Model{w: keepLargest(p.average(), cfg.Keep), cfg: fcfg, vocab: vocab, backend: DP,
			Info: Info{Epochs: e, Sentences: len(train), Seed: cfg.Seed, Bits: cfg.Bits, Numeric: cfg.Numeric, Conjoined: cfg.Conjoined, Query: cfg.Query}}
		ev, err := cfg.Score(m, dec, valid)
		if err != nil {
			return nil, err
		}
		free, err := cfg.Score(m.Unconstrained(), method.Paper, valid)
		if err != nil {
			return nil, err
		}
		ep.F1, ep.CR, ep.FreeF1, ep.FreeCR = ev.F1, ev.CR, free.F1, free.CR
		ep.Elapsed = time.Since(t0)
		res.Epochs = append(res.Epochs, ep)
		logf("ilp epoch %d: %d mistakes on %d inputs (%d dropped); validation F1 %.4f CR %.4f, unconstrained F1 %.4f CR %.4f (%s)",
			e, ep.Mistakes, len(train), dropped, ep.F1, ep.CR, ep.FreeF1, ep.FreeCR, ep.Elapsed.Round(time.Second))
		if res.Model == nil || ep.F1 > res.Epochs[res.Best].F1 {
			res.Model, res.Best, best = m, len(res.Epochs)-1, m.w
		}
	}
	res.Model.w = best
	res.Elapsed = time.Since(start)
	return res, nil
}

// perceptron is the state of training: the current weights w, the sum acc of t·Δ over
// the updates Δ made at input t, and the number t of inputs seen.
type perceptron struct {
	cfg    features.Config
	vocab  *features.Vocab
	w, acc []float64
	t      int

	x      features.Sentence
	arcs   features.Vector // the features of every arc of the input, one after another
	off    []int           // arcs of token v: [off[2(v−1)], off[2v−1]) edge, [off[2v−1], off[2v]) root
	gold   []bool
	parent []int // gold arcs
	p      Problem
	dp     TreeDP
	sol    Solution

	snippet bool             // decode as a snippet: with Q, under the rules
	rules   wellformed.Rules // the rules of the input, when snippet, target or show

	target   *runs.Params       // the display of the gold is the target (TrainConfig.Target)
	show     bool               // the display of the optimum is the prediction (ShowPrediction)
	atGold   bool               // the target's budget is the gold's length (TargetAtGold)
	union    bool               // the gold stays in the target (TargetUnion)
	disp     method.DisplayStep // what the snippet decoding shows, for target and show
	sentence *syntax.Sentence   // the input being trained on, for trim
	trim     func([]int) []int  // p.rules.Trim of sentence
	in       []bool             // the predicted token set, when show
	pred     []int              // its arcs
}

// shown returns what the snippet decoding shows of opt (C*) for the problem p.p of
// sentence s, under the target's weights, the budget counting the tokens joined by
// spaces (method.DisplayStep.Show). The slice is p's memory or opt.
func (p *perceptron) shown(s *syntax.Sentence, opt []int) []int {
	in := method.Input{Sentence: s, Tree: p.p.Tree, Query: p.p.Query, Budget: p.p.Budget, Rules: p.p.Rules}
	return p.disp.Show(&in, p.p.Lens, *p.target, opt)
}

// slackStream separates the random stream of Slack from that of the order.
const slackStream = 0x51ac

// step trains on one input, solved with extra characters of budget beyond its own, and
// reports whether it updated the weights.
func (p *perceptron) step(in method.Input, extra int) (bool, error) {
	if in.Sentence == nil || in.Tree == nil {
		return false, method.ErrNoSentence
	}
	if err := p.x.Reset(in.Sentence, in.Tree, p.vocab); err != nil {
		return false, err
	}
	p.t++
	t := in.Tree
	n := t.N()
	setLens(&p.p, in)
	p.p.Query, p.p.Budget = nil, in.Budget+extra
	if p.cfg.Query || p.snippet {
		p.p.Query = in.Query
	}
	if p.cfg.Query {
		p.x.SetQuery(in.Query)
	}
	p.arcs.Reset()
	p.off = reuse.Resize(p.off, 2*n+1)
	p.off[0] = 0
	for v := 1; v <= n; v++ {
		p.cfg.Edge(&p.x, v, &p.arcs)
		p.off[2*v-1] = p.arcs.Len()
		if t.Head(v) != 0 {
			p.cfg.Arc(&p.x, 0, v, features.RootLabel, &p.arcs)
		}
		p.off[2*v] = p.arcs.Len()
		p.p.Edge[v-1] = p.score(2*v - 2)
		p.p.Root[v-1] = p.score(2*v - 1)
	}
	// The gold arcs.
	p.gold = reuse.Resize(p.gold, n+1)
	clear(p.gold)
	for _, g := range in.Gold {
		if g < 1 || g > n {
			return false, fmt.Errorf("ilp: gold token %d outside 1..%d", g, n)
		}
		p.gold[g] = true
	}
	p.p.Rules = nil
	if p.target != nil {
		// The target: the best display of the gold (the run program reads no scores),
		// under the rules of its budget.
		b := p.p.Budget
		if p.atGold {
			p.p.Budget = in.Budget
		}
		if err := p.rules.Reset(in.Sentence, t, p.p.Lens, in.Query, p.p.Budget); err != nil {
			return false, err
		}
		p.p.Rules = &p.rules
		if !p.union {
			clear(p.gold)
		}
		for _, v := range p.shown(in.Sentence, in.Gold) {
			p.gold[v] = true
		}
		p.p.Rules, p.p.Budget = nil, b
	}
	if p.snippet || p.show {
		// The rules are those of the budget the tuple is solved under (slack included):
		// whether they yield to the query depends on it.
		if err := p.rules.Reset(in.Sentence, t, p.p.Lens, in.Query, p.p.Budget); err != nil {
			return false, err
		}
		p.p.Rules = &p.rules
	}
	var pred []int // the predicted arcs
	if p.show {
		// The prediction: what the snippet decoding shows, C* under the rules, then its
		// best display.
		p.sentence = in.Sentence
		opt, _, err := p.dp.OptimizeFit(&p.p, &p.sol, p.trim, nil)
		p.sentence = nil
		if err != nil {
			return false, err
		}
		p.in = reuse.Resize(p.in, n+1)
		clear(p.in)
		for _, v := range p.shown(in.Sentence, opt) {
			p.in[v] = true
		}
		p.pred = arcsOf(t, p.in, p.pred)
		pred = p.pred
	} else if err := p.dp.Optimize(&p.p, &p.sol); err != nil {
		return false, err
	} else {
		pred = p.sol.Parent
	}
	p.parent = arcsOf(t, p.gold, p.parent)
	mistake := false
	for v := 1; v <= n; v++ {
		g, s := p.parent[v], pred[v]
		if g == s {
			continue
		}
		mistake = true
		if g >= 0 {
			p.update(p.arcOf(v, g), 1)
		}
		if s >= 0 {
			p.update(p.arcOf(v, s), -1)
		}
	}
	return mistake, nil
}

// arcsOf returns in parent (resized to t.N() + 1) the arcs of the token set in (indexed
// by token id, in[0] unused), as the perceptron builds them from a gold compression:
// parent[v] is v's head when both are in the set or the head is the root, 0 (the arc
// ROOT → v) for the other tokens in the set, and −1 for the tokens outside it.
func arcsOf(t *syntax.Tree, in []bool, parent []int) []int {
	n := t.N()
	parent = reuse.Resize(parent, n+1)
	for v := range parent {
		parent[v] = -1
		if v > 0 && in[v] {
			h := t.Head(v)
			parent[v] = 0
			if h == 0 || in[h] {
				parent[v] = h
			}
		}
	}
	return parent
}

// arcOf returns the index of the arc from tail into v: 2(v−1) for the parse edge, 2v−1
// for ROOT → v.
func (p *perceptron) arcOf(v, tail int) int {
	if tail == p.p.Tree.Head(v) {
		return 2*v - 2
	}
	return 2*v - 1
}

// score returns w · φ(arc a).
func (p *perceptron) score(a int) float64 {
	var z float64
	for i := p.off[a]; i < p.off[a+1]; i++ {
		z += p.w[p.arcs.IDs[i]] * float64(p.arcs.Vals[i])
	}
	return z
}

// update adds sign·φ(arc a) to w, at input t.
func (p *perceptron) update(a int, sign float64) {
	for i := p.off[a]; i < p.off[a+1]; i++ {
		id, d := p.arcs.IDs[i], sign*float64(p.arcs.Vals[i])
		p.w[id] += d
		p.acc[id] += float64(p.t) * d
	}
}

// average returns the mean of the weights after each of the t inputs seen:
// (1/t) Σ_{s≤t} w_s = ((t+1)·w − acc)/t.
func (p *perceptron) average() []float32 {
	avg := make([]float32, len(p.w))
	if p.t == 0 {
		return avg
	}
	T := float64(p.t)
	for i, w := range p.w {
		if w != 0 || p.acc[i] != 0 {
			avg[i] = modelfile.RoundBF16(float32(((T+1)*w - p.acc[i]) / T)) // as the file stores it
		}
	}
	return avg
}

// keepLargest zeroes the weights of w smaller in magnitude than its keep-th largest, if
// keep is positive and w has more non-zero weights, and returns w.
func keepLargest(w []float32, keep int) []float32 {
	if keep <= 0 {
		return w
	}
	var mags []float32
	for _, v := range w {
		if v != 0 {
			mags = append(mags, float32(math.Abs(float64(v))))
		}
	}
	if len(mags) <= keep {
		return w
	}
	slices.Sort(mags)
	floor := mags[len(mags)-keep]
	for i, v := range w {
		if float32(math.Abs(float64(v))) < floor {
			w[i] = 0
		}
	}
	return w
}
