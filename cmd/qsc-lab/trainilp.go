package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/method/ilp"
	"github.com/qsc-nlp/qsc/method/runs"
)

func init() {
	prog.Register(&cli.Command{Name: "train ilp", Summary: "train the ILP baseline's arc weights (averaged structured perceptron, Filippova & Altun 2013)", Run: runTrainILP})
}

func runTrainILP(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("train ilp", "", stderr)
	tf := addTupleFlags(fs, tupleSpec{seed: "seed of the query sampling, the validation split and the order of the training sentences"})
	out := fs.String("out", filepath.Join("method", "ilp", ilp.FileName), "model file to write")
	epochs := fs.Int("epochs", ilp.DefaultEpochs, "perceptron epochs; the epoch with the best validation F1 is kept")
	bits := fs.Int("bits", ilp.DefaultBits, "log2 of the number of hashed feature buckets")
	numeric := fs.String("numeric", ilp.DefaultNumeric, "numeric edge features: raw (the authors), binned or both")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines of the validation (the model does not depend on it)")
	snippet := fs.Bool("snippet", false, "train for the snippet decoding: solve each training tuple with its query under the well-formedness rules, and choose the epoch on the snippet decoding's validation F1")
	conjoined := fs.Bool("conjoined", true, "add the conjoined edge features beyond Filippova & Altun's (docs/features.md); false: the paper's features")
	keep := fs.Int("keep", 0, "keep only the N weights of largest magnitude (0: all)")
	query := fs.Bool("query", true, "add the query features (docs/features.md) and solve each training tuple with its query; false: Q = ∅ in training, as the authors")
	slack := fs.Int("slack", ilp.DefaultSlack, "train each tuple with a budget 0 to N characters longer than its gold (drawn from --seed), so that the weights, not the budget, tell where a compression ends; 0: b = ℓ(gold), as the authors")
	displayTarget := fs.Bool("display-target", false, "train toward the best display of the gold (the snippet decoding's runs with C* := gold, the query and the training budget) instead of the gold, and choose the epoch on the snippet decoding's validation F1 (docs/snippets.md, \"Training for the display\")")
	targetFill := fs.Float64("target-fill", 0, "with --display-target: the Fill weight of the target's display (0: the gold's displayable runs; the decoding's own is 0.5); the other weights are the decoding's")
	showPrediction := fs.Bool("show-prediction", false, "with --display-target: compare the target with what the snippet decoding shows (the optimum under the rules, then its best display under the target's weights) instead of with the optimum")
	targetAtGold := fs.Bool("target-at-gold", false, "with --display-target: compute the target's display under b = ℓ(gold), not the training budget with its slack")
	targetUnion := fs.Bool("target-union", false, "with --display-target: the target is the gold and its best display together (the display adds the words that join the gold's runs and drops none)")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *epochs < 1 {
		return cli.Usagef("--epochs must be at least 1")
	}
	if *slack < 0 {
		return cli.Usagef("--slack must not be negative")
	}
	if (*showPrediction || *targetAtGold || *targetUnion) && !*displayTarget {
		return cli.Usagef("--show-prediction, --target-at-gold and --target-union need --display-target")
	}
	if *targetFill < 0 {
		return cli.Usagef("--target-fill must not be negative")
	}
	var target *runs.Params
	if *displayTarget {
		pr := runs.Default()
		pr.Fill = *targetFill
		target = &pr
	}
	start := time.Now()
	train, valid, err := tf.load(stderr)
	if err != nil {
		return err
	}
	res, err := ilp.Train(train, valid, ilp.TrainConfig{Epochs: *epochs, Seed: *tf.seed, Bits: *bits, Numeric: *numeric,
		Score: evaluate.Scorer(*workers), Log: stderr, Snippet: *snippet, Conjoined: *conjoined, Keep: *keep, Query: *query, Slack: *slack,
		Target: target, ShowPrediction: *showPrediction, TargetAtGold: *targetAtGold, TargetUnion: *targetUnion})
	if err != nil {
		return err
	}
	size, err := writeModel(*out, res.Model)
	if err != nil {
		return err
	}
	how := "Q = ∅, b = gold length"
	if *snippet || *query {
		how = "Q and b = gold length"
	}
	if *query {
		how += ", with the query features (--query)"
	}
	if *snippet {
		how += ", under the well-formedness rules (--snippet)"
	}
	if *displayTarget {
		how += fmt.Sprintf(", toward the gold's best display (fill %g; --display-target)", *targetFill)
	}
	if *targetAtGold {
		how += " at b = ℓ(gold) (--target-at-gold)"
	}
	if *targetUnion {
		how += ", with the gold's own tokens (--target-union)"
	}
	if *showPrediction {
		how += ", against the displayed prediction (--show-prediction)"
	}
	if *slack > 0 {
		how += fmt.Sprintf(", plus 0–%d characters of slack (--slack)", *slack)
	}
	fmt.Fprintf(stdout, "ILP arc weights: averaged structured perceptron, %d training tuples (%s), numeric features %s, 2^%d buckets, seed %d\n",
		len(train), how, *numeric, *bits, *tf.seed)
	fmt.Fprintf(stdout, "| epoch | mistakes | validation F1 | validation CR | unconstrained F1 | unconstrained CR | time |\n|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, e := range res.Epochs {
		fmt.Fprintf(stdout, "| %d | %d | %.4f | %.4f | %.4f | %.4f | %s |\n", e.Epoch, e.Mistakes, e.F1, e.CR, e.FreeF1, e.FreeCR, e.Elapsed.Round(time.Second))
	}
	best := res.Epochs[res.Best]
	fmt.Fprintf(stdout, "chosen: epoch %d (validation F1 %.4f on %d tuples); %d dropped training tuples; %d non-zero weights; wrote %s (%d bytes); total time %s\n",
		best.Epoch, best.F1, len(valid), res.Dropped, res.Model.NonZero(), *out, size, time.Since(start).Round(time.Second))
	return nil
}
