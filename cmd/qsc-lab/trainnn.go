package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/method/nn"
)

func init() {
	prog.Register(&cli.Command{Name: "train nn", Summary: "train the VERTEX ADDITION_NN BiLSTM decision model", Run: runTrainNN})
}

func runTrainNN(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("train nn", "", stderr)
	tf := addTupleFlags(fs, tupleSpec{seed: "seed of the query sampling, validation split, subsample, initialisation and order", sample: true,
		validN: 2000, validUsage: "validate on the first N validation tuples (0: all)"})
	out := fs.String("out", filepath.Join("method", "nn", nn.FileName), "model file to write")
	embed := fs.Int("embed", 128, "embedding size per state table (the paper: 315)")
	hidden := fs.Int("hidden", 48, "LSTM hidden size per direction; the pooled vector has twice as many (the paper: 158 in all)")
	epochs := fs.Int("epochs", 15, "training epochs (the paper: 15); the best checkpoint by validation accuracy is kept")
	lr := fs.Float64("lr", 0.1, "AdaGrad learning rate (the authors: 0.025)")
	batch := fs.Int("batch", 135, "decisions per update, in whole sentences (the authors: 135)")
	clip := fs.Float64("clip", 5, "gradient clipping per component (the authors: 5; 0 for none)")
	minCount := fs.Int("min-count", 2, "minimum training count of a vocabulary word")
	maxVocab := fs.Int("max-vocab", 15000, "vocabulary cap including <unk> (bounds the model file: 4 tables × words × embed × 2 bytes)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers (the model does not depend on it)")
	checkEvery := fs.Int("check-every", 0, "also validate every N training sentences within an epoch (0: at the end of each epoch only); the best checkpoint is kept")
	maxChecks := fs.Int("max-checks", 0, "stop after N checkpoints (0: no limit)")
	maxTime := fs.Duration("max-time", 0, "stop at the checkpoint past which another interval would exceed this time (0: no limit); --max-checks with the number run reproduces the model")
	skipped := fs.Bool("skipped", false, "train also on the candidates the runtime skips as over budget (the authors did; they are never asked at run time)")
	labels := fs.Bool("labels", true, "add each token's dependency label to its input (beyond the paper; --labels=false is the paper's words-and-states network)")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	sizes := nn.Sizes{Embed: *embed, Hidden: *hidden}
	if err := sizes.Validate(); err != nil {
		return cli.Usagef("%v", err)
	}
	start := time.Now()
	train, valid, err := tf.load(stderr)
	if err != nil {
		return err
	}

	// An interrupt ends training at the next checkpoint, which writes the best model so
	// far; a second interrupt aborts (the default action, restored by signal.Stop).
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	interrupted, finished := make(chan struct{}), make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-sigs:
			signal.Stop(sigs)
			fmt.Fprintln(stderr, "qsc-lab train nn: interrupted: training stops at the next checkpoint and writes the best model so far; interrupt again to abort")
			close(interrupted)
		case <-finished:
		}
	}()
	res, err := nn.Train(train, valid, nn.TrainConfig{Sizes: sizes, Epochs: *epochs, LearnRate: *lr, BatchSize: *batch, Clip: *clip,
		MinCount: *minCount, MaxVocab: *maxVocab, UseSkipped: *skipped, Labels: *labels, Seed: *tf.seed, CheckEvery: *checkEvery, MaxChecks: *maxChecks, MaxTime: *maxTime, Stop: interrupted, Workers: *workers, Log: stderr})
	if err != nil {
		return err
	}
	size, err := writeModel(*out, res.Model)
	if err != nil {
		return err
	}
	ev, err := evaluate.Evaluate(res.Model, valid, *workers)
	if err != nil {
		return err
	}
	info := res.Model.Info
	fmt.Fprintf(stdout, "sizes: embed %d, hidden %d per direction; vocabulary %d words (min count %d), %d dependency labels; batch %d, AdaGrad lr %g, clip %g, seed %d\n",
		sizes.Embed, sizes.Hidden, info.VocabWords, *minCount, info.Labels, *batch, *lr, *clip, *tf.seed)
	fmt.Fprintf(stdout, "training decisions: %d per epoch (skipped candidates included: %t) from %d tuples (%d dropped), marginal p(y=1) = %.4f; validation decisions: %d\n",
		res.Decisions, *skipped, len(train), res.Dropped, info.Marginal, res.ValidDecisions)
	fmt.Fprintf(stdout, "checkpoints run: %d (reproduce with --max-checks %d)\n", info.Checkpoints, info.Checkpoints)
	fmt.Fprintf(stdout, "| checkpoint | epoch | sentences | training loss | training accuracy | validation accuracy | time |\n|--:|--:|--:|--:|--:|--:|--:|\n")
	for i, e := range res.Checks {
		fmt.Fprintf(stdout, "| %d | %d | %d | %.4f | %.4f | %.4f | %s |\n", i+1, e.Epoch, e.Sentences, e.Loss, e.TrainAcc, e.ValidAcc, e.Elapsed.Round(time.Second))
	}
	fmt.Fprintf(stdout, "chosen checkpoint %d after %d sentences (validation accuracy %.4f); validation F1 %.4f, CR %.4f on %d tuples; wrote %s (%d bytes); total time %s\n",
		info.BestCheck, info.BestSentences, info.ValidAcc, ev.F1, ev.CR, len(valid), *out, size, time.Since(start).Round(time.Second))
	return nil
}
