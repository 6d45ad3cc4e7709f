package lr

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/va"
)

// TrainConfig controls Train.
type TrainConfig struct {
	// Name is method.NameLR or method.NameAblated; it is stored in the model.
	Name string
	// Features is the feature set. Features() and AblatedFeatures() are the defaults.
	Features FeatureSet
	// Cs is the grid of inverse regularisation strengths; the one with the best validation
	// F1 wins (the first on ties). The grid is fitted in ascending order, each fit starting
	// from the previous solution.
	Cs []float64
	// UseSkipped keeps the candidates that the runtime skips as over budget among the
	// training decisions (the authors kept them).
	UseSkipped bool
	// MaxIter bounds the L-BFGS iterations per C (0: 1000, scikit-learn's max_iter in
	// the authors' code).
	MaxIter int
	// Tol is the convergence tolerance on the largest component of the gradient of the
	// mean per-decision objective (0: DefaultTol, scikit-learn's).
	Tol float64
	// Thresholds are the decision thresholds (logits) tried on validation at the chosen C
	// (nil: only 0, p > 0.5, as the authors' predict). The best validation F1 wins; 0 on
	// ties.
	Thresholds []float64
	// MaxCRGap, when positive, restricts the thresholds that can be chosen to those whose
	// validation compression ratio is within MaxCRGap of the gold compressions' ratio on
	// validation: methods are compared at the same compression rate (Napoles et al. 2011),
	// and a threshold that buys F1 by compressing more than the gold is not taken. When no
	// threshold qualifies, the one with the closest ratio is chosen. A threshold qualifies
	// when the 95% confidence interval of its gap, paired per validation tuple, lies
	// within MaxCRGap: |CR − gold CR| + 1.96·SE ≤ MaxCRGap, so that a ratio at the edge on
	// validation does not fall outside on other data by sampling error alone.
	MaxCRGap float64
	// Workers is the number of goroutines of the oracle decisions and the fits (0: 1). The
	// result does not depend on it.
	Workers int
	// Score scores a model on the validation inputs; it is required (Train returns
	// ErrNoScorer without it). Train calls it with the Paper decoding once per C of the
	// grid, once per threshold other than 0 (and for 0 too under MaxCRGap), and once on the
	// gold compressions (baseline.Oracle) under MaxCRGap, which needs Score.PerCR. Its
	// parallelism is the caller's.
	Score method.Scorer
	// Log receives a line per C of the grid and a summary; nil for none.
	Log io.Writer
	// Verbose adds to Log a line every 10 optimiser iterations.
	Verbose bool
}

// Features returns the VA_LR feature set chosen on validation (docs/features.md):
// the GOVERNOR edge to the child in C, edge features for DISCONNECTED decisions, every
// stateful feature crossed, numeric features binned, 2^22 buckets.
func Features() FeatureSet {
	return FeatureSet{Stateful: true, GovEdge: GovChild, DisconnectedEdge: true, CrossAll: true,
		Edge: features.Config{Numeric: features.NumBinned, Bits: 22}}
}

// AblatedFeatures returns the ABLATED feature set: Features() without the stateful and
// interaction features.
func AblatedFeatures() FeatureSet {
	c := Features()
	c.Stateful = false
	return c
}

// GridPoint is the outcome of one C of the grid.
type GridPoint struct {
	C          float64
	F1, CR     float64       // mean validation token F1 and compression ratio
	Iterations int           // L-BFGS iterations
	Converged  bool          // the gradient tolerance was met
	Stalled    bool          // the objective stopped decreasing before convergence
	Loss       float64       // final objective
	GradNorm   float64       // final ‖∇‖₂
	GradMax    float64       // final ‖∇‖∞ of the mean objective (converged when ≤ Tol)
	Elapsed    time.Duration // fit time
}

// ThresholdPoint is the validation outcome of one decision threshold at the chosen C.
type ThresholdPoint struct {
	Threshold float64 // logit
	F1, CR    float64
	// GapSE is the standard error of the gap CR − gold CR, paired per validation tuple
	// (0 without TrainConfig.MaxCRGap).
	GapSE    float64
	Eligible bool // |CR − gold CR| + 1.96·GapSE ≤ TrainConfig.MaxCRGap (always, without a gap)
}

// TrainResult is what Train returns.
type TrainResult struct {
	Model      *LR
	Grid       []GridPoint
	Thresholds []ThresholdPoint // at the chosen C; empty when only 0 was tried
	GoldCR     float64          // compression ratio of the gold compressions on validation
	Best       int              // index in Grid of the chosen C
	Decisions  int              // training decisions used
	Features   int              // stored feature occurrences
	Dropped    int              // training inputs the oracle could not follow (errors)
	Collect    time.Duration
	Elapsed    time.Duration
	Validation int // validation inputs
}

// ErrNoData is returned when there is nothing to train on or validate with.
var ErrNoData = errors.New("lr: no training or validation data")

// ErrNoScorer is returned when TrainConfig.Score is nil: Train cannot choose a C.
var ErrNoScorer = errors.New("lr: no validation scorer (TrainConfig.Score)")

// Train extracts the oracle decisions of the training inputs, fits a logistic regression
// for every C of the grid, and keeps the one with the best mean F1 on the validation
// inputs (scored by TrainConfig.Score). It is deterministic: the same inputs and configuration give the same model.
func Train(train, valid []method.Input, cfg TrainConfig) (*TrainResult, error) {
	start := time.Now()
	if len(train) == 0 || len(valid) == 0 || len(cfg.Cs) == 0 {
		return nil, ErrNoData
	}
	if cfg.Name != method.NameLR && cfg.Name != method.NameAblated {
		return nil, fmt.Errorf("%w %q: train %q or %q", method.ErrUnknownMethod, cfg.Name, method.NameLR, method.NameAblated)
	}
	if cfg.Score == nil {
		return nil, ErrNoScorer
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
	ext, err := newExtractor(cfg.Features, vocab)
	if err != nil {
		return nil, err
	}
	workers := max(cfg.Workers, 1)
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	data, dropped := collect(ext, train, cfg.UseSkipped, workers)
	res := &TrainResult{Decisions: data.Len(), Features: data.NNZ(), Dropped: dropped, Collect: time.Since(start), Validation: len(valid)}
	if data.Len() == 0 {
		return nil, ErrNoData
	}
	marginal := float64(data.pos) / float64(data.Len())
	asked := float64(data.askedPos) / float64(max(data.asked, 1))
	logf("%s: vocabulary of %d words", cfg.Name, vocab.Len())
	logf("%s: %d training decisions (%.1f%% positive; %d within budget, %.1f%% positive) from %d inputs (%d dropped), %d feature occurrences, in %s",
		cfg.Name, data.Len(), 100*marginal, data.asked, 100*asked, len(train), dropped, data.NNZ(), res.Collect.Round(time.Millisecond))

	cs := slices.Clone(cfg.Cs)
	slices.Sort(cs)
	dim := cfg.Features.Size()
	theta := make([]float64, dim+1)
	maxIter := cfg.MaxIter
	if maxIter <= 0 {
		maxIter = 1000
	}
	var best *LR
	for _, c := range cs {
		if !(c > 0) {
			return nil, fmt.Errorf("lr: C = %v must be positive", c)
		}
		t0 := time.Now()
		n := float64(data.Len())
		fit, err := fitLR(data, dim, theta, fitOptions{C: c, MaxIter: maxIter, Tol: cfg.Tol, Workers: workers,
			OnIter: func(it int, f, g float64) {
				if cfg.Verbose && it%10 == 0 {
					logf("  C=%g iteration %d: mean objective %.8g, max |∇| %.3g (%s)", c, it, f/n, g/n, time.Since(t0).Round(time.Second))
				}
			}})
		if err != nil && !errors.Is(err, errLineSearch) {
			return nil, err
		}
		m, err := newLR(Info{Name: cfg.Name, Features: cfg.Features, C: c, Decisions: data.Len(), Marginal: marginal, MarginalAsked: asked, SkipUsed: cfg.UseSkipped}, theta, vocab)
		if err != nil {
			return nil, err
		}
		gp := GridPoint{C: c, Iterations: fit.Iterations, Converged: fit.Converged, Stalled: fit.Stalled, Loss: fit.F,
			GradNorm: fit.GradNorm, GradMax: fit.GradMax / n, Elapsed: time.Since(t0)}
		ev, err := cfg.Score(m, method.Paper, valid)
		if err != nil {
			return nil, err
		}
		gp.F1, gp.CR = ev.F1, ev.CR
		logf("%s C=%g: validation F1 %.4f CR %.4f (%d iterations, converged %t, max |∇| %.3g, %s)", cfg.Name, c, gp.F1, gp.CR,
			gp.Iterations, gp.Converged, gp.GradMax, gp.Elapsed.Round(time.Second))
		res.Grid = append(res.Grid, gp)
		if best == nil || gp.F1 > res.Grid[res.Best].F1 {
			best, res.Best = m, len(res.Grid)-1
		}
	}
	res.Model = best
	if err := tuneThreshold(res, valid, cfg, logf); err != nil {
		return nil, err
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// tuneThreshold evaluates the decision thresholds of cfg (and 0) on validation with the
// chosen model and keeps the best F1 among the eligible ones (0 on ties): with
// cfg.MaxCRGap > 0, those whose compression ratio is within the gap of the gold ratio.
func tuneThreshold(res *TrainResult, valid []method.Input, cfg TrainConfig, logf func(string, ...any)) error {
	ts := slices.Clone(cfg.Thresholds)
	if len(ts) == 0 || (len(ts) == 1 && ts[0] == 0) {
		return nil
	}
	if !slices.Contains(ts, 0) {
		ts = append(ts, 0)
	}
	slices.Sort(ts)
	// score is cfg.Score with the Paper decoding; under MaxCRGap, with a ratio per input.
	score := func(m method.Method) (method.Score, error) {
		s, err := cfg.Score(m, method.Paper, valid)
		if err == nil && cfg.MaxCRGap > 0 && len(s.PerCR) != len(valid) {
			err = fmt.Errorf("lr: the validation scorer gave %d compression ratios for %d inputs; MaxCRGap needs one per input", len(s.PerCR), len(valid))
		}
		return s, err
	}
	var goldCR []float64
	if cfg.MaxCRGap > 0 {
		gold, err := score(baseline.Oracle{})
		if err != nil {
			return err
		}
		res.GoldCR, goldCR = gold.CR, gold.PerCR
		logf("gold compression ratio on validation %.4f: thresholds whose ratio is within %g of it (95%% confidence) are eligible", gold.CR, cfg.MaxCRGap)
	}
	g := res.Grid[res.Best]
	best, closest := -1, -1
	for _, t := range ts {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("lr: threshold %v is not a finite logit", t)
		}
		p := ThresholdPoint{Threshold: t, F1: g.F1, CR: g.CR}
		if t != 0 || goldCR != nil {
			ev, err := score(res.Model.WithThreshold(t))
			if err != nil {
				return err
			}
			p.F1, p.CR = ev.F1, ev.CR
			if goldCR != nil {
				p.GapSE = metrics.PairedSE(ev.PerCR, goldCR)
			}
		}
		gap := math.Abs(p.CR - res.GoldCR)
		p.Eligible = cfg.MaxCRGap <= 0 || gap+crZ*p.GapSE <= cfg.MaxCRGap
		logf("%s C=%g threshold %+.2f (p > %.3f): validation F1 %.4f CR %.4f (gap SE %.4f) eligible %t", cfg.Name, g.C, t, sigmoid(t), p.F1, p.CR, p.GapSE, p.Eligible)
		res.Thresholds = append(res.Thresholds, p)
		i := len(res.Thresholds) - 1
		if closest < 0 || gap < math.Abs(res.Thresholds[closest].CR-res.GoldCR) {
			closest = i
		}
		if p.Eligible && (best < 0 || p.F1 > res.Thresholds[best].F1 || (p.F1 == res.Thresholds[best].F1 && t == 0)) {
			best = i
		}
	}
	if best < 0 {
		best = closest
		logf("%s: no threshold gives a validation ratio within %g of the gold %.4f; the closest (%+.2f, ratio %.4f) is chosen",
			cfg.Name, cfg.MaxCRGap, res.GoldCR, res.Thresholds[best].Threshold, res.Thresholds[best].CR)
	}
	res.Model = res.Model.WithThreshold(res.Thresholds[best].Threshold)
	return nil
}

// crZ is the normal quantile of a two-sided 95% confidence interval.
const crZ = 1.96

// collect runs the oracle over the inputs and extracts the features of every decision,
// in input order, with workers goroutines over fixed chunks.
func collect(ext *extractor, inputs []method.Input, useSkipped bool, workers int) (*examples, int) {
	const chunk = 512
	nChunks := (len(inputs) + chunk - 1) / chunk
	bar := progress.New("oracle decisions", len(inputs))
	defer bar.Done()
	parts := make([]*examples, nChunks)
	drops := make([]int, nChunks)
	var wg sync.WaitGroup
	next := make(chan int, nChunks)
	for i := range nChunks {
		next <- i
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c va.Compressor
			for k := range next {
				part := newExamples()
				for _, in := range inputs[k*chunk : min((k+1)*chunk, len(inputs))] {
					err := in.Decisions(&c, ext, func(s *va.State, v int, y, skipped bool) {
						if !skipped {
							part.asked++
							if y {
								part.askedPos++
							}
						} else if !useSkipped {
							return
						}
						part.add(ext.Features(s, v), y)
					})
					if err != nil {
						drops[k]++
					}
				}
				parts[k] = part
				bar.Add(min((k+1)*chunk, len(inputs)) - k*chunk)
			}
		}()
	}
	wg.Wait()
	var nIDs, nVals, nEx int
	for _, p := range parts {
		nIDs, nVals, nEx = nIDs+len(p.ids), nVals+len(p.vals), nEx+p.Len()
	}
	all := &examples{off: make([]int64, 1, nEx+1), voff: make([]int64, 1, nEx+1),
		ids: make([]uint32, 0, nIDs), vals: make([]float32, 0, nVals), y: make([]bool, 0, nEx)}
	dropped := 0
	for k, p := range parts {
		all.appendAll(p)
		parts[k] = nil
		dropped += drops[k]
	}
	return all, dropped
}
