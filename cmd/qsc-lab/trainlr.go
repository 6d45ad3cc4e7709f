package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/cputime"
	"github.com/qsc-nlp/qsc/internal/core/features"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/ablated"
	"github.com/qsc-nlp/qsc/method/lr"
)

func init() {
	prog.Register(&cli.Command{Name: "train lr", Summary: "train the VERTEX ADDITION logistic regression (lr or ablated features)", Run: runTrainLR})
}

func runTrainLR(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("train lr", "", stderr)
	out := fs.String("out", "", "model file to write (default: the embedded default's path, method/lr/"+lr.FileName+" or method/ablated/"+ablated.FileName+")")
	feats := fs.String("features", "lr", "feature set: lr (edge+stateful+interaction) or ablated (edge/local only)")
	cs := fs.String("c", "0.01,0.1,1,10", "inverse regularisation strengths to try, comma-separated (best validation F1 wins)")
	tf := addTupleFlags(fs, tupleSpec{seed: "seed of the query sampling and validation split"})
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers (the model does not depend on it)")
	maxIter := fs.Int("max-iter", 1000, "L-BFGS iteration limit per C (scikit-learn's max_iter in the authors' code)")
	thresholds := fs.String("thresholds", "-0.5,-0.4,-0.3,-0.2,-0.1,0,0.1,0.2,0.3,0.4,0.5", "decision thresholds (logits) tried on validation at the chosen C, comma-separated (0: p > 0.5, the authors')")
	maxCRGap := fs.Float64("max-cr-gap", 0.015, "choose only among thresholds whose validation compression ratio is within this of the gold ratio at 95% confidence (0: no constraint)")
	tol := fs.Float64("tol", lr.DefaultTol, "convergence tolerance: the largest |gradient component| of the mean objective (scikit-learn's tol)")
	skipped := fs.Bool("skipped", true, "train also on the candidates the runtime skips as over budget")
	def := lr.Features()
	gov := fs.String("gov", [...]string{"incoming", "child"}[def.GovEdge], "edge of a GOVERNOR decision: incoming (v's own edge, the authors' code) or child (the edge to its child in C, the paper)")
	discEdge := fs.Bool("disconnected-edge", def.DisconnectedEdge, "give DISCONNECTED decisions the edge features of v's incoming edge (the authors: type and label only)")
	crossAll := fs.Bool("cross-all", def.CrossAll, "cross every stateful feature with type and label (the paper), not only position and history (the authors)")
	numeric := fs.String("numeric", [...]string{"raw", "binned", "both"}[def.Edge.Numeric], "numeric features: raw (unscaled, the authors), binned or both")
	bits := fs.Uint("bits", uint(def.Edge.Bits), "log2 of the number of hashed feature buckets")
	verbose := fs.Bool("v", false, "log the objective every 10 iterations (always on when stderr is a terminal)")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	var cfg lr.FeatureSet
	defaultOut := filepath.Join("method", "lr", lr.FileName)
	switch *feats {
	case method.NameLR:
		cfg = lr.Features()
	case method.NameAblated:
		cfg, defaultOut = lr.AblatedFeatures(), filepath.Join("method", "ablated", ablated.FileName)
	default:
		return cli.Usagef("--features %q: want lr or ablated", *feats)
	}
	switch *gov {
	case "incoming":
		cfg.GovEdge = lr.GovIncoming
	case "child":
		cfg.GovEdge = lr.GovChild
	default:
		return cli.Usagef("--gov %q: want incoming or child", *gov)
	}
	switch *numeric {
	case "raw":
		cfg.Edge.Numeric = features.NumRaw
	case "binned":
		cfg.Edge.Numeric = features.NumBinned
	case "both":
		cfg.Edge.Numeric = features.NumBoth
	default:
		return cli.Usagef("--numeric %q: want raw, binned or both", *numeric)
	}
	cfg.DisconnectedEdge, cfg.CrossAll, cfg.Edge.Bits = *discEdge, *crossAll, uint8(min(*bits, 255))
	if err := cfg.Validate(); err != nil {
		return cli.Usagef("%v", err)
	}
	var grid []float64
	for _, f := range strings.Split(*cs, ",") {
		c, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(c > 0) {
			return cli.Usagef("--c %q: want positive numbers separated by commas", *cs)
		}
		grid = append(grid, c)
	}
	var ths []float64
	for _, f := range strings.Split(*thresholds, ",") {
		t, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(t) || math.IsInf(t, 0) {
			return cli.Usagef("--thresholds %q: want logits separated by commas", *thresholds)
		}
		ths = append(ths, t)
	}
	if *out == "" {
		*out = defaultOut
	}
	if math.IsNaN(*maxCRGap) || *maxCRGap < 0 {
		return cli.Usagef("--max-cr-gap %v: want a ratio ≥ 0", *maxCRGap)
	}
	start := time.Now()
	train, valid, err := tf.load(stderr)
	if err != nil {
		return err
	}
	res, err := lr.Train(train, valid, lr.TrainConfig{Name: *feats, Features: cfg, Cs: grid, UseSkipped: *skipped,
		MaxIter: *maxIter, Tol: *tol, Thresholds: ths, MaxCRGap: *maxCRGap, Workers: *workers, Log: stderr, Verbose: *verbose || progress.Enabled(),
		Score: evaluate.Scorer(*workers)})
	if err != nil {
		return err
	}
	size, err := writeModel(*out, res.Model)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "features: %s (%s)\n", *feats, cfg)
	fmt.Fprintf(stdout, "training decisions: %d (skipped candidates included: %t; %d tuples, %d dropped), marginal p(y=1) = %.4f; within budget (RANDOM's) %.4f\n",
		res.Decisions, *skipped, len(train), res.Dropped, res.Model.Info.Marginal, res.Model.Info.MarginalAsked)
	fmt.Fprintf(stdout, "| C | validation F1 | validation CR | iterations | converged (‖∇‖∞ ≤ %g) | ‖∇‖∞ of the mean objective | fit time |\n|--:|--:|--:|--:|:-:|--:|--:|\n", *tol)
	for _, g := range res.Grid {
		fmt.Fprintf(stdout, "| %g | %.4f | %.4f | %d | %t | %.3g | %s |\n", g.C, g.F1, g.CR, g.Iterations, g.Converged, g.GradMax, g.Elapsed.Round(time.Second))
	}
	if len(res.Thresholds) > 0 {
		if *maxCRGap > 0 {
			fmt.Fprintf(stdout, "\ngold compression ratio on validation: %.4f; eligible thresholds give a ratio within %g of it at 95%% confidence (|gap| + 1.96 SE)\n", res.GoldCR, *maxCRGap)
		}
		fmt.Fprintf(stdout, "\n| threshold (logit) | p > | validation F1 | validation CR | gap | SE of the gap | eligible |\n|--:|--:|--:|--:|--:|--:|:-:|\n")
		for _, p := range res.Thresholds {
			fmt.Fprintf(stdout, "| %+.2f | %.3f | %.4f | %.4f | %+.4f | %.4f | %t |\n", p.Threshold, 1/(1+math.Exp(-p.Threshold)), p.F1, p.CR, p.CR-res.GoldCR, p.GapSE, p.Eligible)
		}
		fmt.Fprintf(stdout, "\nchosen threshold %+.2f\n", res.Model.Info.Threshold)
	}
	fmt.Fprintf(stdout, "chosen C = %g (validation F1 %.4f at threshold 0 on %d tuples); %d non-zero weights; wrote %s (%d bytes); total time %s wall, %s CPU\n",
		res.Grid[res.Best].C, res.Grid[res.Best].F1, res.Validation, res.Model.NonZero(), *out, size, time.Since(start).Round(time.Second), cputime.Used().Round(time.Second))
	return nil
}

// parsedTrainFile returns path, or when it is empty the parse cache's copy of the Google
// train file (written by qsc-lab data parse with the default models).
func parsedTrainFile(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	in := shared.Path(shared.GoogleTrain)
	if in == "" {
		return "", cli.Usagef("no Google train file under the data directory: pass --train FILE")
	}
	dir, err := parsecache.Dir()
	if err != nil {
		return "", err
	}
	p, err := pipeline.Default()
	if err != nil {
		return "", err
	}
	cached, err := parsecache.Path(dir, in, p, parsecache.Given)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(cached); err != nil {
		return "", fmt.Errorf("no parsed train file %s: run qsc-lab data parse, or pass --train FILE", cached)
	}
	return cached, nil
}

// firstN returns the first n tuples, or all of them when n ≤ 0.
func firstN(ts []*dataset.Tuple, n int) []*dataset.Tuple {
	if n > 0 && n < len(ts) {
		return ts[:n]
	}
	return ts
}
