package nn

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/internal/core/wordform"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// TrainConfig controls Train.
type TrainConfig struct {
	Sizes Sizes
	// Epochs is the number of passes over the training decisions; the epoch with the best
	// validation accuracy is kept.
	Epochs int
	// LearnRate is AdaGrad's learning rate (the authors: 0.025).
	LearnRate float64
	// BatchSize is the number of decisions per update: whole sentences are added until
	// the batch holds at least this many (the authors: 135).
	BatchSize int
	// Clip bounds every gradient component to [−Clip, Clip] (the authors: 5); 0 for none.
	Clip float64
	// MinCount is the minimum number of training occurrences of a vocabulary word.
	MinCount int
	// MaxVocab caps the vocabulary (the most frequent words, ties by form), including
	// Unknown; 0 for no cap.
	MaxVocab int
	// UseSkipped keeps the candidates that the runtime skips as over budget among the
	// training decisions (the authors kept them).
	UseSkipped bool
	// Labels adds to each token's input an embedding of its dependency label (universal
	// part, one table per state, like the words'): beyond the paper, whose network sees
	// words and states only.
	Labels bool
	// Seed seeds the initialisation and the order of the training sentences.
	Seed uint64
	// CheckEvery, when positive, adds a checkpoint every CheckEvery training sentences
	// within an epoch (at the first batch boundary past it); there is always one at the end
	// of each epoch. Each checkpoint measures the validation accuracy, and the best
	// checkpoint is kept.
	CheckEvery int
	// MaxChecks, when positive, stops training after that many checkpoints.
	MaxChecks int
	// MaxTime, when positive, stops training at the checkpoint past which another
	// interval (as long as the last one) would exceed it. The checkpoints run are
	// recorded; training again with MaxChecks set to their number gives the same model.
	MaxTime time.Duration
	// Stop, when closed, ends training at the next checkpoint, which keeps the best so far
	// (an interrupt of qsc-lab train nn). As with MaxTime, training again with MaxChecks set to
	// the number of checkpoints run gives the same model.
	Stop <-chan struct{}
	// Workers is the number of goroutines (0: 1). The model does not depend on it.
	Workers int
	// Log receives a line per epoch; nil for none.
	Log io.Writer
}

// Checkpoint is the state of training at a checkpoint.
type Checkpoint struct {
	Epoch     int           // 1-based epoch of the checkpoint
	Sentences int           // training sentences processed since the start
	Loss      float64       // mean training cross-entropy since the previous checkpoint
	TrainAcc  float64       // training accuracy since the previous checkpoint
	ValidAcc  float64       // validation accuracy of the oracle decisions
	Elapsed   time.Duration // time since the previous checkpoint
}

// TrainResult is what Train returns.
type TrainResult struct {
	Model          *Model
	Checks         []Checkpoint
	Best           int // index in Checks of the kept checkpoint
	Decisions      int // training decisions per epoch
	ValidDecisions int
	Dropped        int // inputs the oracle could not follow
	Elapsed        time.Duration
}

// ErrNoData is returned when there is nothing to train on or validate with.
var ErrNoData = errors.New("nn: no training or validation data")

// example holds the oracle decisions of one sentence.
type example struct {
	words  []int32 // word rows, by position
	rels   []int32 // label rows, by position; nil for a words-only model
	states []uint8 // D × n token states
	v      []int32 // D candidate positions (0-based)
	y      []bool  // D labels
}

func (e *example) n() int { return len(e.words) }

// Decisions runs the static oracle over the inputs and calls f with the token states
// (valid during the call) of every training decision, in input order. It returns the
// number of inputs the oracle could not follow.
func Decisions(inputs []method.Input, useSkipped bool, f func(i int, states []uint8, v int, y bool)) int {
	var c va.Compressor
	var st []uint8
	dropped := 0
	for i, in := range inputs {
		err := in.Decisions(&c, nil, func(s *va.State, v int, y, skipped bool) {
			if skipped && !useSkipped {
				return
			}
			st = reuse.Resize(st, s.N())
			States(s, v, st)
			f(i, st, v, y)
		})
		if err != nil {
			dropped++
		}
	}
	return dropped
}

// examples collects the oracle decisions of the inputs with the rows of lex.
func examples(inputs []method.Input, lex *lexicon, useSkipped bool) ([]*example, int, int) {
	out := make([]*example, len(inputs))
	total := 0
	var norm []byte
	dropped := Decisions(inputs, useSkipped, func(i int, st []uint8, v int, y bool) {
		e := out[i]
		if e == nil {
			e = &example{words: make([]int32, len(st))}
			if lex.labels != nil {
				e.rels = make([]int32, len(st))
			}
			for j, t := range inputs[i].Sentence.Tokens {
				norm, e.words[j] = lex.word(norm, t.Form)
				if e.rels != nil {
					e.rels[j] = lex.label(t.Rel)
				}
			}
			out[i] = e
		}
		e.states = append(e.states, st...)
		e.v = append(e.v, int32(v-1))
		e.y = append(e.y, y)
		total++
	})
	kept := out[:0]
	for _, e := range out {
		if e != nil {
			kept = append(kept, e)
		}
	}
	return kept, total, dropped
}

// buildVocab returns the vocabulary of the training forms: Unknown, then the words seen
// at least minCount times, most frequent first (ties by form), at most maxVocab in all.
func buildVocab(inputs []method.Input, minCount, maxVocab int) []string {
	counts := map[string]int{}
	for _, in := range inputs {
		if in.Sentence == nil {
			continue
		}
		for _, t := range in.Sentence.Tokens {
			counts[wordform.Normalize(t.Form)]++
		}
	}
	var ws []string
	for w, c := range counts {
		if c >= max(minCount, 1) && w != Unknown {
			ws = append(ws, w)
		}
	}
	slices.SortFunc(ws, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		if a < b {
			return -1
		}
		return 1
	})
	if maxVocab > 0 && len(ws) > maxVocab-1 {
		ws = ws[:maxVocab-1]
	}
	return append([]string{Unknown}, ws...)
}

// buildLabels returns the universal dependency labels of the training trees: Unknown,
// then the labels in sorted order.
func buildLabels(inputs []method.Input) []string {
	seen := map[string]bool{}
	for _, in := range inputs {
		if in.Sentence == nil {
			continue
		}
		for _, t := range in.Sentence.Tokens {
			if l := syntax.Universal(t.Rel); l != "" && l != Unknown {
				seen[l] = true
			}
		}
	}
	ls := slices.Sorted(maps.Keys(seen))
	return append([]string{Unknown}, ls...)
}

// Train learns a model from the oracle decisions of train and keeps the epoch with the
// best accuracy on the oracle decisions of valid.
func Train(train, valid []method.Input, cfg TrainConfig) (*TrainResult, error) {
	start := time.Now()
	if err := cfg.Sizes.Validate(); err != nil {
		return nil, err
	}
	if cfg.Epochs < 1 || !(cfg.LearnRate > 0) || cfg.BatchSize < 1 {
		return nil, fmt.Errorf("nn: epochs %d, learning rate %v, batch %d: want positive values", cfg.Epochs, cfg.LearnRate, cfg.BatchSize)
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	words := buildVocab(train, cfg.MinCount, cfg.MaxVocab)
	var labels []string
	if cfg.Labels {
		labels = buildLabels(train)
	}
	lex, err := newLexicon(words, labels)
	if err != nil {
		return nil, err
	}
	tr, nTrain, dropped := examples(train, &lex, cfg.UseSkipped)
	vd, nValid, _ := examples(valid, &lex, cfg.UseSkipped)
	if nTrain == 0 || nValid == 0 {
		return nil, ErrNoData
	}
	pos := 0
	for _, e := range tr {
		for _, y := range e.y {
			if y {
				pos++
			}
		}
	}
	res := &TrainResult{Decisions: nTrain, ValidDecisions: nValid, Dropped: dropped}
	logf("nn: vocabulary of %d words and %d labels; %d training decisions (%.1f%% positive) from %d sentences (%d dropped); %d validation decisions",
		len(words), len(labels), nTrain, 100*float64(pos)/float64(nTrain), len(tr), dropped, nValid)

	p := newParams(cfg.Sizes, len(words)+len(labels))
	initParams(p, cfg.Seed)
	opt := newAdagrad(p, cfg.LearnRate)
	workers := max(cfg.Workers, 1)
	info := Info{Decisions: nTrain, Sentences: len(tr), Marginal: float64(pos) / float64(nTrain),
		Seed: cfg.Seed, LearnRate: cfg.LearnRate, BatchSize: cfg.BatchSize, MinCount: cfg.MinCount, SkipUsed: cfg.UseSkipped}
	var best *params
	order := make([]int, len(tr))
	for i := range order {
		order[i] = i
	}
	pool := newGradPool(p)
	var loss float64
	correct, seen, decided, since := 0, 0, 0, 0
	tCheck := time.Now()
	// checkpoint validates the current weights and says whether to stop.
	checkpoint := func(ep int) (bool, error) {
		snap := quantized(p)
		acc := accuracy(snap, vd, workers)
		cp := Checkpoint{Epoch: ep + 1, Sentences: seen, Loss: loss / float64(max(decided, 1)),
			TrainAcc: float64(correct) / float64(max(decided, 1)), ValidAcc: acc, Elapsed: time.Since(tCheck)}
		res.Checks = append(res.Checks, cp)
		logf("nn: checkpoint %d (epoch %d, %d sentences): training loss %.4f, training accuracy %.4f, validation accuracy %.4f (%s)",
			len(res.Checks), ep+1, seen, cp.Loss, cp.TrainAcc, acc, cp.Elapsed.Round(time.Second))
		if math.IsNaN(cp.Loss) {
			return true, errors.New("nn: training diverged (NaN loss)")
		}
		if best == nil || acc > res.Checks[res.Best].ValidAcc {
			best, res.Best = snap, len(res.Checks)-1
		}
		loss, correct, decided, since = 0, 0, 0, 0
		tCheck = time.Now()
		if cfg.MaxChecks > 0 && len(res.Checks) >= cfg.MaxChecks {
			return true, nil
		}
		if cfg.MaxTime > 0 && time.Since(start)+cp.Elapsed > cfg.MaxTime {
			logf("nn: stopping at checkpoint %d: another interval would pass the time limit of %s", len(res.Checks), cfg.MaxTime)
			return true, nil
		}
		select {
		case <-cfg.Stop:
			logf("nn: stopping at checkpoint %d: interrupted", len(res.Checks))
			return true, nil
		default:
		}
		return false, nil
	}
	stop := false
	for ep := 0; ep < cfg.Epochs && !stop; ep++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(ep)+1))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		bar := progress.New(fmt.Sprintf("epoch %d", ep+1), len(order))
		for b := 0; b < len(order) && !stop; {
			e := b
			nd := 0
			for e < len(order) && nd < cfg.BatchSize {
				nd += len(tr[order[e]].y)
				e++
			}
			batch := make([]*example, 0, e-b)
			for _, k := range order[b:e] {
				batch = append(batch, tr[k])
			}
			l, c := pool.compute(p, batch, workers)
			loss += l
			correct += c
			decided += nd
			seen += e - b
			since += e - b
			opt.update(p, pool, float32(1/float64(nd)), float32(cfg.Clip))
			bar.Add(e - b)
			b = e
			if cfg.CheckEvery > 0 && since >= cfg.CheckEvery && b < len(order) {
				var err error
				if stop, err = checkpoint(ep); err != nil {
					return nil, err
				}
			}
		}
		bar.Done()
		if !stop {
			var err error
			if stop, err = checkpoint(ep); err != nil {
				return nil, err
			}
		}
	}
	info.Checkpoints = len(res.Checks)
	info.BestCheck, info.BestSentences = res.Best+1, res.Checks[res.Best].Sentences
	info.ValidAcc = res.Checks[res.Best].ValidAcc
	m, err := newModel(best, words, labels, info)
	if err != nil {
		return nil, err
	}
	res.Model = m
	res.Elapsed = time.Since(start)
	return res, nil
}

// initParams draws the initial weights as PyTorch does: embeddings N(0, 1), LSTM and
// output weights U(−1/√fan, 1/√fan) with fan = H for the LSTM and 2H for the output.
func initParams(p *params, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6e6e))
	for i := range p.emb {
		p.emb[i] = float32(rng.NormFloat64())
	}
	uni := func(w []float32, k float64) {
		for i := range w {
			w[i] = float32((2*rng.Float64() - 1) * k)
		}
	}
	k := 1 / math.Sqrt(float64(p.Hidden))
	for d := range p.dir {
		uni(p.dir[d].wx, k)
		uni(p.dir[d].u, k)
		uni(p.dir[d].b, k)
	}
	ko := 1 / math.Sqrt(float64(2*p.Hidden))
	uni(p.wo, ko)
	uni(p.bo, ko)
}

// quantized returns a copy of p with the embeddings rounded to bfloat16, as the model
// file stores them.
func quantized(p *params) *params {
	q := newParams(p.Sizes, p.V)
	for i, t := range p.tensors() {
		copy(q.tensors()[i], t)
	}
	for i, x := range q.emb {
		q.emb[i] = fromBF16(toBF16(x))
	}
	return q
}

// accuracy returns the fraction of the decisions that the network gets right.
func accuracy(p *params, exs []*example, workers int) float64 {
	var next, correct, total atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWork(p)
			for {
				k := int(next.Add(1) - 1)
				if k >= len(exs) {
					return
				}
				_, c := w.sentence(p, exs[k], nil)
				correct.Add(int64(c))
				total.Add(int64(len(exs[k].y)))
			}
		}()
	}
	wg.Wait()
	if total.Load() == 0 {
		return 0
	}
	return float64(correct.Load()) / float64(total.Load())
}
