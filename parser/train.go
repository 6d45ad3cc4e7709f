package parser

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/syntax"
)

// TrainOptions configures Train. The zero value gives the defaults.
type TrainOptions struct {
	// Seed makes training deterministic: the same data, options and seed give the same
	// model bytes. 0 means 1.
	Seed uint64
	// Epochs is the number of passes over the training data (default 15). When dev
	// sentences are given, the model of the epoch with the best dev LAS is returned.
	Epochs int
	// ExploreFrom is the first epoch (1-based) that explores: from then on the trainer
	// follows the model's own prediction, right or wrong, with probability ExploreProb
	// (defaults 2 and 0.9). A negative ExploreFrom disables exploration.
	ExploreFrom int
	ExploreProb float64
	// MinWordCount is how often a normalized form must occur in the training data to get
	// its own word features (default 2); rarer words share the unknown-word features.
	MinWordCount int
	// Runs is the number of training runs, each from zero weights with its own stream of
	// the seed; the returned weights are the mean of the runs' (parameter averaging,
	// default 1). Parsing costs the same; accuracy usually improves.
	Runs int
	// ActionBits and LabelBits are log2 of the rows of the hashed weight tables
	// (defaults 20 and 16).
	ActionBits, LabelBits uint
	// Clusters, when not nil, adds word-cluster features (see LearnClusters); the model
	// keeps them (Clusters are immutable).
	Clusters *Clusters
	// Beam is the beam width (default 1: greedy, trained with the dynamic oracle). A
	// width above 1 trains globally with early update and the model parses with that
	// width; exploration does not apply.
	Beam int
	// Log, when not nil, receives one line per epoch.
	Log io.Writer
}

func (o *TrainOptions) defaults() {
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Epochs <= 0 {
		o.Epochs = 15
	}
	if o.ExploreFrom == 0 {
		o.ExploreFrom = 2
	}
	if o.ExploreProb == 0 {
		o.ExploreProb = 0.9
	}
	if o.Runs <= 0 {
		o.Runs = 1
	}
	if o.MinWordCount <= 0 {
		o.MinWordCount = 2
	}
	if o.ActionBits == 0 {
		o.ActionBits = 20
	}
	if o.LabelBits == 0 {
		o.LabelBits = 16
	}
	if o.Beam <= 0 {
		o.Beam = 1
	}
}

// EpochReport describes one training epoch.
type EpochReport struct {
	Run      int   // 1-based
	Epoch    int   // 1-based
	Dev      Score // zero when no dev data was given
	Duration time.Duration
}

// TrainReport describes a training run.
type TrainReport struct {
	Sentences, Words int // training data used
	// NonProjective is the number of training sentences whose tree was not projective and
	// Lifted the number of arcs lifted to make them projective.
	NonProjective, Lifted int
	Skipped               int           // training sentences left out (empty, untagged or invalid tree)
	Epochs                []EpochReport // every epoch of every run
	BestEpochs            []int         // the epoch kept from each run
	Dev                   Score         // dev score of the returned model (zero without dev)
	Duration              time.Duration
}

// instance is an encoded training sentence.
type instance struct {
	ws, ps, cs []uint32
	gold       []int32 // projectivized gold heads, gold[0] = -1
	glab       []int32 // gold label classes
	seq        []int32 // static oracle transitions, for beam training (action | label<<2)
}

// Train trains a parser on train (gold heads and labels, XPOS tags as they should be seen
// at parsing time) and, when dev is not empty, evaluates every epoch on dev and keeps the
// best. It is deterministic given opts.Seed.
func Train(train, dev []*syntax.Sentence, opts TrainOptions) (*Model, TrainReport, error) {
	start := time.Now()
	opts.defaults()
	var rep TrainReport
	if opts.ActionBits < 10 || opts.ActionBits > 26 || opts.LabelBits < 8 || opts.LabelBits > 24 {
		return nil, rep, fmt.Errorf("parser: table sizes out of range (ActionBits %d, LabelBits %d)", opts.ActionBits, opts.LabelBits)
	}
	if opts.Beam > MaxBeam {
		return nil, rep, fmt.Errorf("parser: beam width %d (at most %d)", opts.Beam, MaxBeam)
	}
	var usable []*syntax.Sentence
	for _, s := range train {
		if usableForTraining(s) {
			usable = append(usable, s)
		} else {
			rep.Skipped++
		}
	}
	if len(usable) == 0 {
		return nil, rep, errors.New("parser: no usable training sentences (need tags, heads and labels)")
	}
	m, err := newModel(usable, opts)
	if err != nil {
		return nil, rep, err
	}
	insts := make([]instance, len(usable))
	for i, s := range usable {
		insts[i], rep.Lifted = m.instance(s, rep.Lifted)
		if !slices.Equal(insts[i].gold[1:], headsOf(s)) {
			rep.NonProjective++
		}
		rep.Words += len(s.Tokens)
	}
	rep.Sentences = len(usable)
	m.beam = opts.Beam
	if opts.Beam > 1 {
		p := m.NewParser()
		for i := range insts {
			g := &insts[i]
			p.ws, p.ps, p.cs = g.ws, g.ps, g.cs
			var ok bool
			if g.seq, ok = p.oracleSequence(g); !ok {
				return nil, rep, fmt.Errorf("parser: the static oracle does not rebuild training tree %d", i+1)
			}
		}
	}

	final := m.withWeights()
	for run := 1; run <= opts.Runs; run++ {
		best, err := trainRun(m, insts, dev, opts, run, &rep)
		if err != nil {
			return nil, rep, err
		}
		for i, v := range best.act {
			final.act[i] += v / float32(opts.Runs)
		}
		for i, v := range best.lab {
			final.lab[i] += v / float32(opts.Runs)
		}
	}
	final.compress()
	final.act, final.lab = nil, nil
	if len(dev) > 0 {
		if rep.Dev, err = final.evaluate(dev); err != nil {
			return nil, rep, err
		}
		if opts.Log != nil && opts.Runs > 1 {
			fmt.Fprintf(opts.Log, "mean of %d runs: dev %v\n", opts.Runs, rep.Dev)
		}
	}
	rep.Duration = time.Since(start)
	return final, rep, nil
}

// withWeights returns a model sharing m's vocabularies with zero weight tables.
func (m *Model) withWeights() *Model {
	c := *m
	c.actQ, c.labQ = nil, nil
	c.act = make([]float32, len(m.act))
	c.lab = make([]float32, len(m.lab))
	return &c
}

// trainRun trains the weights of m from zero with the seed stream of run and returns the
// averaged weights of the epoch with the best dev LAS (the last epoch without dev).
func trainRun(m *Model, insts []instance, dev []*syntax.Sentence, opts TrainOptions, run int, rep *TrainReport) (*Model, error) {
	clear(m.act)
	clear(m.lab)
	tr := &trainer{
		m:      m,
		actAcc: make([]float64, len(m.act)),
		labAcc: make([]float64, len(m.lab)),
		rng:    rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15+uint64(run))),
		prob:   opts.ExploreProb,
	}
	p := m.NewParser()
	avg, best := m.withWeights(), m.withWeights()
	bestLAS := -1.0
	bestEpoch := 0
	order := make([]int, len(insts))
	for i := range order {
		order[i] = i
	}
	for ep := 1; ep <= opts.Epochs; ep++ {
		t0 := time.Now()
		tr.explore = opts.ExploreFrom > 0 && ep >= opts.ExploreFrom
		tr.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		bar := progress.New(fmt.Sprintf("parser run %d/%d epoch %d/%d", run, opts.Runs, ep, opts.Epochs), len(order))
		for k, i := range order {
			g := &insts[i]
			p.ws, p.ps, p.cs = g.ws, g.ps, g.cs
			if opts.Beam > 1 {
				tr.beamStep(p, g, opts.Beam)
			} else {
				p.run(tr, g)
			}
			if k%256 == 255 {
				bar.Add(256)
			}
		}
		bar.Done()
		tr.average(avg)
		avg.compress()
		er := EpochReport{Run: run, Epoch: ep}
		if len(dev) > 0 {
			var err error
			if er.Dev, err = avg.evaluate(dev); err != nil {
				return nil, err
			}
		}
		er.Duration = time.Since(t0)
		rep.Epochs = append(rep.Epochs, er)
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "run %d epoch %2d  dev UAS %.2f LAS %.2f  (%s)\n", run, ep, er.Dev.UAS(), er.Dev.LAS(), er.Duration.Round(time.Millisecond))
		}
		if len(dev) == 0 || er.Dev.LAS() > bestLAS {
			bestLAS, bestEpoch = er.Dev.LAS(), ep
			copy(best.act, avg.act)
			copy(best.lab, avg.lab)
		}
	}
	rep.BestEpochs = append(rep.BestEpochs, bestEpoch)
	return best, nil
}

func usableForTraining(s *syntax.Sentence) bool {
	if len(s.Tokens) == 0 {
		return false
	}
	for i := range s.Tokens {
		if s.Tokens[i].XPOS == "" || s.Tokens[i].Rel == "" {
			return false
		}
	}
	_, err := syntax.NewTree(s.Heads())
	return err == nil
}

func headsOf(s *syntax.Sentence) []int32 {
	h := make([]int32, len(s.Tokens))
	for i := range s.Tokens {
		h[i] = int32(s.Tokens[i].Head)
	}
	return h
}

// newModel builds the vocabularies and empty weight tables.
func newModel(train []*syntax.Sentence, opts TrainOptions) (*Model, error) {
	wc := map[string]int{}
	tagSet := map[string]bool{}
	labCount := map[string]int{"root": 0}
	var buf []byte
	for _, s := range train {
		for i := range s.Tokens {
			t := &s.Tokens[i]
			buf = wordform.Append(buf[:0], t.Form)
			wc[string(buf)]++
			tagSet[t.XPOS] = true
			labCount[t.Rel]++
		}
	}
	var words []string
	for w, c := range wc {
		if c >= opts.MinWordCount {
			words = append(words, w)
		}
	}
	slices.Sort(words)
	tags := sortedKeys(tagSet)
	// Label classes by decreasing frequency, so that the weights of the likely labels
	// share the first cache lines of a row.
	labels := make([]string, 0, len(labCount))
	for l := range labCount {
		labels = append(labels, l)
	}
	slices.SortFunc(labels, func(a, b string) int {
		return cmp.Or(cmp.Compare(labCount[b], labCount[a]), cmp.Compare(a, b))
	})
	if len(words) > maxWords-idMin || len(tags) > maxTags-idMin || len(labels) > 63 {
		return nil, fmt.Errorf("parser: too many words (%d), tags (%d) or labels (%d)", len(words), len(tags), len(labels))
	}
	m := &Model{words: words, tags: map[string]uint32{}, labels: labels,
		actBits: opts.ActionBits, labBits: opts.LabelBits}
	for i, t := range tags {
		m.tags[t] = uint32(i + idMin)
	}
	m.rootLab = int32(slices.Index(labels, "root"))
	m.clusters = opts.Clusters
	m.buildLex()
	seen := make([][]bool, 2*(len(tags)+idMin))
	for _, s := range train {
		for i := range s.Tokens {
			t := &s.Tokens[i]
			if t.Head == 0 {
				continue
			}
			k := 2 * int(m.tags[t.XPOS])
			if t.Head < i+1 {
				k++
			}
			if seen[k] == nil {
				seen[k] = make([]bool, len(labels))
			}
			seen[k][slices.Index(labels, t.Rel)] = true
		}
	}
	m.cands = make([][]uint8, len(seen))
	for k, ls := range seen {
		for c, ok := range ls {
			if ok && int32(c) != m.rootLab {
				m.cands[k] = append(m.cands[k], uint8(c))
			}
		}
	}
	m.buildAllCands()
	m.act = make([]float32, (1<<m.actBits)*actStride)
	m.lab = make([]float32, (1<<m.labBits)*len(labels))
	return m, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// instance encodes a training sentence and projectivizes its tree; lifted counts lifts.
func (m *Model) instance(s *syntax.Sentence, lifted int) (instance, int) {
	p := m.NewParser()
	p.encode(s)
	n := len(s.Tokens)
	heads := make([]int32, n+1)
	heads[0] = -1
	glab := make([]int32, n+1)
	glab[0] = -1
	for i := range s.Tokens {
		heads[i+1] = int32(s.Tokens[i].Head)
		glab[i+1] = int32(slices.Index(m.labels, s.Tokens[i].Rel))
	}
	proj, k := projectivize(heads)
	return instance{ws: p.ws, ps: p.ps, cs: p.cs, gold: proj, glab: glab}, lifted + k
}

// trainer holds the perceptron's averaging state. Averaging uses the usual trick: acc
// sums c·δ for every update δ made at step c, and the average is w − acc/c.
type trainer struct {
	m              *Model
	actAcc, labAcc []float64
	c              float64
	rng            *rand.Rand
	explore        bool
	prob           float64
	bt             beamTrain
}

// step takes one transition on the training sentence g, updating the weights when the
// model's choice has a higher dynamic-oracle cost than the best choice.
func (tr *trainer) step(p *Parser, g *instance) {
	st := &p.st
	m := tr.m
	tr.c++
	follow, explored := st.forced(), false
	if follow < 0 {
		st.actionFeatures(p.ws, p.ps, p.cs, &p.af)
		sc := m.scoreActsF(&p.af)
		pred := bestValid(st, &sc)
		var cost [numActs]int
		oracle, minCost := -1, 1<<30
		for a := range numActs {
			if !st.valid(a) {
				continue
			}
			cost[a] = st.cost(a, g.gold)
			if cost[a] < minCost || (cost[a] == minCost && sc[a] > sc[oracle]) {
				oracle, minCost = a, cost[a]
			}
		}
		if cost[pred] > minCost {
			tr.updateActs(&p.af, oracle, 1)
			tr.updateActs(&p.af, pred, -1)
		}
		follow = oracle
		if tr.explore && pred != oracle && tr.rng.Float64() < tr.prob {
			follow, explored = pred, true
		}
	}
	var lab int32
	if follow != actShift {
		h, d := st.arc(follow)
		if h == 0 {
			lab = m.rootLab
		} else {
			lab = p.labelOn(st, h, d, true)
			gl := g.glab[d]
			if g.gold[d] == h && gl != m.rootLab && gl >= 0 {
				if lab != gl {
					tr.updateLabels(&p.lf, gl, 1)
					tr.updateLabels(&p.lf, lab, -1)
				}
				if !explored {
					lab = gl
				}
			}
		}
	}
	st.apply(follow, lab)
}

func (tr *trainer) updateActs(f *[numActFeats]uint64, a int, delta float32) {
	m := tr.m
	mask := uint64(1)<<m.actBits - 1
	cd := tr.c * float64(delta)
	for _, k := range f {
		r := (hashing.Fmix(k)&mask)*actStride + uint64(a)
		m.act[r] += delta
		tr.actAcc[r] += cd
	}
}

func (tr *trainer) updateLabels(f *[numLabFeats]uint64, l int32, delta float32) {
	m := tr.m
	nl := uint64(len(m.labels))
	mask := uint64(1)<<m.labBits - 1
	cd := tr.c * float64(delta)
	for _, k := range f {
		r := (hashing.Fmix(k)&mask)*nl + uint64(l)
		m.lab[r] += delta
		tr.labAcc[r] += cd
	}
}

// average writes the averaged weights into avg.
func (tr *trainer) average(avg *Model) {
	c := tr.c + 1
	for i, w := range tr.m.act {
		avg.act[i] = float32(float64(w) - tr.actAcc[i]/c)
	}
	for i, w := range tr.m.lab {
		avg.lab[i] = float32(float64(w) - tr.labAcc[i]/c)
	}
}

// evaluate parses copies of gold with m and scores them.
func (m *Model) evaluate(gold []*syntax.Sentence) (Score, error) {
	p := m.NewParser()
	var sc Score
	pred := &syntax.Sentence{}
	for _, g := range gold {
		pred.Tokens = append(pred.Tokens[:0], g.Tokens...)
		if err := p.Parse(pred); err != nil {
			return sc, err
		}
		sc.add(g, pred)
	}
	return sc, nil
}
