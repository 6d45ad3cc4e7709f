package tagger

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/hashing"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// Tag dictionary: an exact word form seen at least dictMinCount times in training, with
// one tag for at least dictMinShare of them, always gets that tag.
const (
	dictMinCount = 20
	dictMinShare = 0.995
)

// Train learns a model from the Form and XPOS of the train sentences. It trains
// opts.Mix perceptrons (seeds Seed, Seed+1, …) and averages their weights. When dev is
// not empty, each run keeps the weights of its epoch with the best dev accuracy;
// otherwise those of its last epoch. Training is single-threaded and deterministic
// given the data and opts.
func Train(train, dev []*syntax.Sentence, opts TrainOptions) (*Model, TrainReport, error) {
	start := time.Now()
	var rep TrainReport
	if opts.Epochs <= 0 {
		opts.Epochs = 10
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Mix <= 0 {
		opts.Mix = 1
	}
	base, err := newBase(train, opts.Clusters)
	if err != nil {
		return nil, rep, err
	}
	rep.Tags = len(base.tags)
	tr := &trainer{T: len(base.tags), base: base}
	tr.prepare(train, false)
	gold := len(tr.sents)
	tr.prepare(opts.Silver, true)
	tr.order = nil
	for range max(opts.GoldCopies, 1) {
		for i := range gold {
			tr.order = append(tr.order, i)
		}
	}
	for i := gold; i < len(tr.sents); i++ {
		tr.order = append(tr.order, i)
	}
	var runs []*Model
	for run := 1; run <= opts.Mix; run++ {
		m, err := tr.run(dev, opts, run, &rep)
		if err != nil {
			return nil, rep, err
		}
		runs = append(runs, m)
	}
	best, err := mix(runs, float64(cmp.Or(opts.Prune, pruneMin)))
	if err != nil {
		return nil, rep, err
	}
	if len(dev) > 0 {
		rep.DevAcc, _, _ = Accuracy(best, dev)
	}
	rep.Features = best.feats.n
	rep.Duration = time.Since(start)
	return best, rep, nil
}

// run trains one perceptron from scratch with seed opts.Seed+run-1 and returns the
// model of its best epoch.
func (tr *trainer) run(dev []*syntax.Sentence, opts TrainOptions, run int, rep *TrainReport) (*Model, error) {
	tr.c = 1
	tr.tab.init(1 << 16)
	tr.w, tr.u = tr.w[:0], tr.u[:0]
	order := slices.Clone(tr.order)
	rng := rand.New(rand.NewPCG(uint64(opts.Seed)+uint64(run-1), 0x7a66e5))
	var best *Model
	bestAcc, bestEp := -1.0, 0
	for ep := 1; ep <= opts.Epochs; ep++ {
		t0 := time.Now()
		var bar *progress.Bar
		if !opts.Quiet {
			bar = progress.New(fmt.Sprintf("tagger run %d/%d epoch %d/%d", run, opts.Mix, ep, opts.Epochs), len(order))
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		correct, total := 0, 0
		for k, si := range order {
			c, n := tr.learn(&tr.sents[si])
			correct += c
			total += n
			if k%256 == 255 {
				bar.Add(256)
			}
		}
		bar.Done()
		m, err := tr.model()
		if err != nil {
			return nil, err
		}
		er := EpochReport{Run: run, Epoch: ep, TrainAcc: ratio(correct, total)}
		if len(dev) > 0 {
			er.DevAcc, _, _ = Accuracy(m, dev)
		}
		er.Duration = time.Since(t0)
		rep.Epochs = append(rep.Epochs, er)
		if opts.OnEpoch != nil {
			opts.OnEpoch(er)
		}
		if len(dev) == 0 || er.DevAcc > bestAcc {
			best, bestAcc, bestEp = m, er.DevAcc, ep
		}
	}
	rep.BestEpochs = append(rep.BestEpochs, bestEp)
	return best, nil
}

// pruneMin is the default smallest weight magnitude (in quantization steps, see
// quantScale) kept in the final model. Pruning the weights below 0.75 halves the model and
// speeds up tagging, at a small cost in accuracy (docs/pipeline.md).
const pruneMin = 48

// mix returns a model whose weights are the rounded means of those of ms, which share
// the tag set, dictionary and clusters, without the weights smaller than prune.
func mix(ms []*Model, prune float64) (*Model, error) {
	T := len(ms[0].tags)
	sum := map[uint64][]int32{}
	for _, m := range ms {
		for k, e := range m.feats.all() {
			r := sum[k]
			if r == nil {
				r = make([]int32, T)
				sum[k] = r
			}
			for j := range len(e) / 3 {
				tag, w := entry(e, j)
				r[tag] += int32(w)
			}
		}
	}
	keys := make([]uint64, 0, len(sum))
	for k := range sum {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rows := make([]row, 0, len(keys))
	n := float64(len(ms))
	for _, k := range keys {
		var ents []uint32
		for j, v := range sum[k] {
			if q := math.Round(float64(v) / n); math.Abs(q) >= prune {
				ents = append(ents, pack(j, int16(q)))
			}
		}
		if len(ents) > 0 {
			rows = append(rows, row{key: k, ents: ents})
		}
	}
	m := *ms[0]
	var err error
	m.feats, err = buildTable(rows)
	return &m, err
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// newBase makes a model without feature weights: the tag set, the tag dictionary and
// the clusters.
func newBase(train []*syntax.Sentence, cl *Clusters) (*Model, error) {
	seen := map[string]bool{}
	words := map[string]map[string]int{}
	for _, s := range train {
		for _, t := range s.Tokens {
			if t.XPOS == "" {
				continue
			}
			seen[t.XPOS] = true
			if words[t.Form] == nil {
				words[t.Form] = map[string]int{}
			}
			words[t.Form][t.XPOS]++
		}
	}
	if len(seen) == 0 {
		return nil, ErrNoData
	}
	if len(seen) > maxTags {
		return nil, fmt.Errorf("tagger: %d distinct tags (at most %d supported)", len(seen), maxTags)
	}
	m := &Model{clust: cl}
	for t := range seen {
		m.tags = append(m.tags, t)
	}
	slices.Sort(m.tags)
	id := map[string]int{}
	for i, t := range m.tags {
		id[t] = i
	}
	var rows []row
	for w, tc := range words {
		n, bestN, bestT := 0, 0, ""
		for t, c := range tc {
			n += c
			if c > bestN || (c == bestN && t < bestT) {
				bestN, bestT = c, t
			}
		}
		if n >= dictMinCount && float64(bestN) >= dictMinShare*float64(n) {
			rows = append(rows, row{key: hashing.String(w), ents: []uint32{pack(id[bestT], 0)}})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(a.key, b.key) })
	var err error
	m.dict, err = buildTable(rows)
	return m, err
}

// tsent is a training sentence with precomputed attrs and static feature keys.
type tsent struct {
	attrs []attr
	gold  []int32 // -1 for an untagged token
	keys  []uint64
	off   []int32 // static keys of token i are keys[off[i]:off[i+1]]
}

// trainer holds the perceptron weights during training: rows of T weights per feature,
// with the sums for averaging (avg = w - u/c).
type trainer struct {
	T      int
	base   *Model
	sents  []tsent
	order  []int // indices into sents of one epoch, before shuffling
	tab    growTable
	w      []float32
	u      []float64
	c      float64
	scores []float32
	p1, p2 []int32
	dyn    []uint64
}

// prepare appends the training sentences of train to tr.sents; silver ones lose their
// case-sensitive attributes (see TrainOptions.Silver).
func (tr *trainer) prepare(train []*syntax.Sentence, silver bool) {
	id := map[string]int32{}
	for i, t := range tr.base.tags {
		id[t] = int32(i)
	}
	var ex extractor
	tr.sents = slices.Grow(tr.sents, len(train))
	for _, s := range train {
		if len(s.Tokens) == 0 {
			continue
		}
		ex.load(s, tr.base)
		if silver {
			for i := pad; i < len(ex.attrs)-pad; i++ {
				ex.attrs[i].form, ex.attrs[i].shape = absent, absent
			}
		}
		ts := tsent{attrs: slices.Clone(ex.attrs), gold: make([]int32, len(s.Tokens)), off: make([]int32, 1, len(s.Tokens)+1)}
		for i, t := range s.Tokens {
			g, ok := id[t.XPOS]
			if !ok {
				g = -1
			}
			ts.gold[i] = g
			if ts.attrs[i+pad].dict < 0 {
				ts.keys = appendStatic(ts.keys, ts.attrs, i)
			}
			ts.off = append(ts.off, int32(len(ts.keys)))
		}
		tr.sents = append(tr.sents, ts)
	}
	tr.scores = make([]float32, tr.T)
}

// learn tags s with both passes, then updates the weights for the mistakes of each pass,
// and returns the number of correct second-pass tags and of tagged tokens.
func (tr *trainer) learn(s *tsent) (correct, total int) {
	n := len(s.gold)
	tr.p1 = reuse.Resize(tr.p1, n)
	tr.p2 = reuse.Resize(tr.p2, n)
	tr.predict(s, 1, tr.p1)
	tr.predict(s, 2, tr.p2)
	for i, g := range s.gold {
		if g < 0 {
			continue
		}
		total++
		if tr.p2[i] == g {
			correct++
		}
		if s.attrs[i+pad].dict >= 0 {
			continue
		}
		static := s.keys[s.off[i]:s.off[i+1]]
		for pass, out := range [][]int32{tr.p1, tr.p2} {
			if p := out[i]; p != g {
				tr.dyn = tr.dynKeys(s, i, pass+1, out)
				tr.update(static, g, p)
				tr.update(tr.dyn, g, p)
			}
		}
		tr.c++
	}
	return correct, total
}

// dynKeys returns the dynamic feature keys of token i in the given pass, whose tags so
// far are in out: pass 1 runs right to left, pass 2 left to right (see Tagger.Tag).
func (tr *trainer) dynKeys(s *tsent, i, pass int, out []int32) []uint64 {
	n := len(s.gold)
	if pass == 1 {
		return appendDyn(tr.dyn[:0], s.attrs, i, noTag, noTag, ctxTag(out, i+1, n), ctxTag(out, i+2, n))
	}
	return appendDyn(tr.dyn[:0], s.attrs, i, ctxTag(out, i-1, n), ctxTag(out, i-2, n), ctxTag(tr.p1, i+1, n), ctxTag(tr.p1, i+2, n))
}

// predict tags s greedily with the current weights in the given pass into out.
func (tr *trainer) predict(s *tsent, pass int, out []int32) {
	n := len(s.gold)
	for k := range n {
		i := k
		if pass == 1 {
			i = n - 1 - k
		}
		if d := s.attrs[i+pad].dict; d >= 0 {
			out[i] = d
			continue
		}
		tr.dyn = tr.dynKeys(s, i, pass, out)
		clear(tr.scores)
		tr.score(s.keys[s.off[i]:s.off[i+1]])
		tr.score(tr.dyn)
		p := int32(0)
		for j := 1; j < tr.T; j++ {
			if tr.scores[j] > tr.scores[p] {
				p = int32(j)
			}
		}
		out[i] = p
	}
}

func (tr *trainer) score(keys []uint64) {
	T := tr.T
	for _, k := range keys {
		r := tr.tab.find(k)
		if r < 0 {
			continue
		}
		row := tr.w[r*T : r*T+T]
		for j, v := range row {
			tr.scores[j] += v
		}
	}
}

func (tr *trainer) update(keys []uint64, gold, pred int32) {
	T := tr.T
	for _, k := range keys {
		r := tr.tab.find(k)
		if r < 0 {
			r = len(tr.w) / T
			tr.tab.insert(k, r)
			tr.w = append(tr.w, make([]float32, T)...)
			tr.u = append(tr.u, make([]float64, T)...)
		}
		tr.w[r*T+int(gold)]++
		tr.u[r*T+int(gold)] += tr.c
		tr.w[r*T+int(pred)]--
		tr.u[r*T+int(pred)] -= tr.c
	}
}

// quantScale is the number of int16 steps per unit of averaged weight.
const quantScale = 64

// model returns the averaged, quantized, pruned model of the current weights.
func (tr *trainer) model() (*Model, error) {
	T := tr.T
	rows := make([]row, 0, tr.tab.n)
	var ents []uint32
	for s, k := range tr.tab.keys {
		if k == 0 {
			continue
		}
		r := int(tr.tab.rows[s])
		ents = ents[:0]
		for j := range T {
			avg := float64(tr.w[r*T+j]) - tr.u[r*T+j]/tr.c
			q := math.Round(avg * quantScale)
			q = max(-32767, min(32767, q))
			if q != 0 {
				ents = append(ents, pack(j, int16(q)))
			}
		}
		if len(ents) > 0 {
			rows = append(rows, row{key: k, ents: slices.Clone(ents)})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(a.key, b.key) })
	m := *tr.base
	var err error
	m.feats, err = buildTable(rows)
	return &m, err
}

// growTable is an open-addressing map from non-zero keys to row numbers used in training.
type growTable struct {
	keys []uint64
	rows []int32
	n    int
}

func (t *growTable) init(size int) {
	t.keys = make([]uint64, size)
	t.rows = make([]int32, size)
	t.n = 0
}

func (t *growTable) find(k uint64) int {
	mask := uint64(len(t.keys) - 1)
	for s := k & mask; ; s = (s + 1) & mask {
		switch t.keys[s] {
		case k:
			return int(t.rows[s])
		case 0:
			return -1
		}
	}
}

func (t *growTable) insert(k uint64, r int) {
	if 2*(t.n+1) > len(t.keys) {
		old, oldRows := t.keys, t.rows
		t.init(2 * len(old))
		for s, ok := range old {
			if ok != 0 {
				t.insert(ok, int(oldRows[s]))
			}
		}
	}
	mask := uint64(len(t.keys) - 1)
	s := k & mask
	for t.keys[s] != 0 {
		s = (s + 1) & mask
	}
	t.keys[s] = k
	t.rows[s] = int32(r)
	t.n++
}
