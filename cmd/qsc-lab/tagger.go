package main

import (
	"fmt"
	"io"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/tagger"
)

func init() {
	prog.Register(&cli.Command{Name: "train tagger", Summary: "train the part-of-speech tagger", Run: runTrainTagger})
	prog.Register(&cli.Command{Name: "eval tagger", Summary: "measure tagger accuracy on CoNLL-U files", Run: runEvalTagger})
}

func runTrainTagger(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("train tagger", "", stderr)
	trainPath := fs.String("train", shared.Path(shared.EWTTrain), "training `file` (CoNLL-U, XPOS column)")
	devPath := fs.String("dev", shared.Path(shared.EWTDev), "dev `file` for choosing the epoch (\"\" for none)")
	clusterPath := fs.String("clusters", shared.Path(shared.GoogleTrain), "unlabeled CoNLL-U `file` to learn word clusters from (\"\" for none)")
	out := fs.String("out", "", "output model `file` (required)")
	seed := fs.Int64("seed", 1, "random seed")
	epochs := fs.Int("epochs", 10, "training epochs")
	mixN := fs.Int("mix", 3, "number of perceptrons (seeds seed, seed+1, …) whose weights are averaged")
	sf := addSilverFlags(fs, "extra training `file` tagged by another tagger, with caseless forms (CoNLL-U with XPOS; for example the Google compression train split)")
	prune := fs.Int("prune", 48, "smallest weight magnitude kept in the model, in 1/64 units (raise it with --silver, whose weights grow larger)")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("--out is required")
	}
	if *trainPath == "" {
		return cli.Usagef("--train is required (the EWT training data was not found)")
	}
	if *epochs < 1 {
		return cli.Usagef("--epochs must be at least 1")
	}
	if *mixN < 1 {
		return cli.Usagef("--mix must be at least 1")
	}
	if err := sf.check(); err != nil {
		return err
	}
	if *prune < 1 || *prune > 32767 {
		return cli.Usagef("--prune must be 1 to 32767")
	}
	start := time.Now()
	train, dev, err := readTrainDev(*trainPath, *devPath)
	if err != nil {
		return err
	}
	opts := tagger.TrainOptions{Epochs: *epochs, Seed: *seed, Mix: *mixN, GoldCopies: *sf.goldCopies, Prune: *prune}
	if opts.Silver, err = sf.read(); err != nil {
		return err
	}
	if opts.Silver != nil {
		fmt.Fprintf(stdout, "silver: %d sentences from %s, gold seen %d times per epoch\n", len(opts.Silver), *sf.path, *sf.goldCopies)
	}
	if opts.Clusters, err = learnClusters(*clusterPath, tagger.LearnClustersFile, stdout, "clusters"); err != nil {
		return err
	}
	opts.OnEpoch = func(e tagger.EpochReport) {
		if len(dev) > 0 {
			fmt.Fprintf(stdout, "run %d epoch %2d: train %.2f%%  dev %.2f%%  (%s)\n", e.Run, e.Epoch, 100*e.TrainAcc, 100*e.DevAcc, e.Duration.Round(time.Millisecond))
		} else {
			fmt.Fprintf(stdout, "run %d epoch %2d: train %.2f%%  (%s)\n", e.Run, e.Epoch, 100*e.TrainAcc, e.Duration.Round(time.Millisecond))
		}
	}
	m, rep, err := tagger.Train(train, dev, opts)
	if err != nil {
		return err
	}
	size, err := writeModel(*out, m)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "kept epochs %v, mixed model dev %.2f%%; %d tags, %d features; training %s, total %s\n",
		rep.BestEpochs, 100*rep.DevAcc, rep.Tags, rep.Features, rep.Duration.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", *out, size)
	return nil
}

func runEvalTagger(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("eval tagger", "FILE...", stderr)
	modelPath := fs.String("model", "", "tagger model `file` (default: the embedded "+pipeline.TaggerName+")")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no CoNLL-U files given")
	}
	m, err := loadModel(*modelPath, pipeline.TaggerName, tagger.Load)
	if err != nil {
		return err
	}
	for _, path := range fs.Args() {
		gold, err := readTreebank(path)
		if err != nil {
			return err
		}
		t0 := time.Now()
		acc, correct, total := tagger.Accuracy(m, gold)
		el := time.Since(t0)
		fmt.Fprintf(stdout, "%s: %d tokens, %d correct, %.2f%% (%.0f tokens/s)\n", path, total, correct, 100*acc, float64(total)/el.Seconds())
	}
	return nil
}
