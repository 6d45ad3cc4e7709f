package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/method"
)

// tupleFlags are the flags with which train lr, ilp and nn choose their data: the parsed
// train file, the seed of the split, and how many training and validation tuples to use.
type tupleFlags struct {
	train  *string
	seed   *uint64
	trainN *int
	validN *int
	sample bool
}

// tupleSpec is what differs between the trainers' tuple flags.
type tupleSpec struct {
	seed       string // the usage of --seed: what the seed drives beyond the split
	sample     bool   // --train-n draws a seeded random sample, not the first N tuples
	validN     int    // the default of --valid-n
	validUsage string // the usage of --valid-n; "" for "use only the first N validation tuples (0: all)"
}

// addTupleFlags defines --train, --seed, --train-n and --valid-n on fs, as spec says.
func addTupleFlags(fs *flag.FlagSet, spec tupleSpec) *tupleFlags {
	trainNUsage := "use only the first N training tuples (0: all)"
	if spec.sample {
		trainNUsage = "train on a seeded random sample of N training tuples (0: all)"
	}
	return &tupleFlags{
		train:  fs.String("train", "", "parsed Google train file, CoNLL-U with HEAD/DEPREL (default: the parse cache of qsc-lab data parse)"),
		seed:   fs.Uint64("seed", 1, spec.seed),
		trainN: fs.Int("train-n", 0, trainNUsage),
		validN: fs.Int("valid-n", spec.validN, cmp.Or(spec.validUsage, "use only the first N validation tuples (0: all)")),
		sample: spec.sample,
	}
}

// load returns the training and validation tuples that the flags choose (trainingInputs),
// logging to stderr.
func (f *tupleFlags) load(stderr io.Writer) (train, valid []method.Input, err error) {
	return trainingInputs(*f.train, *f.seed, *f.trainN, *f.validN, f.sample, stderr)
}

// trainingInputs loads the parsed Google train file (trainPath, or the parse cache of qsc
// data parse when empty) and returns the training and validation tuples of seed as model
// inputs, the first trainN and validN of each (0: all); with sampleTrain, a seeded random
// sample of trainN training tuples, kept in corpus order, instead of the first. Every
// trainer (lr, ilp, nn) reads its data here, so all use the same split.
func trainingInputs(trainPath string, seed uint64, trainN, validN int, sampleTrain bool, stderr io.Writer) (train, valid []method.Input, err error) {
	path, err := parsedTrainFile(trainPath)
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	d, err := dataset.Load(path, dataset.Train, dataset.Options{Seed: seed})
	if err != nil {
		return nil, nil, err
	}
	tr := firstN(d.Split(dataset.Train), trainN)
	if sampleTrain {
		tr = sampleN(d.Split(dataset.Train), trainN, seed)
	}
	if train, err = evaluate.Inputs(tr); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if valid, err = evaluate.Inputs(firstN(d.Split(dataset.Validation), validN)); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stderr, "loaded %d training and %d validation tuples from %s in %s\n", len(train), len(valid), path, time.Since(start).Round(time.Millisecond))
	return train, valid, nil
}

// sampleN returns a seeded random sample of n of the tuples, in their order (all when n is
// 0 or not below their number).
func sampleN(tuples []*dataset.Tuple, n int, seed uint64) []*dataset.Tuple {
	if n <= 0 || n >= len(tuples) {
		return tuples
	}
	keep := make([]bool, len(tuples))
	for _, i := range rand.New(rand.NewPCG(seed, 0x7375)).Perm(len(tuples))[:n] {
		keep[i] = true
	}
	sub := make([]*dataset.Tuple, 0, n)
	for i, t := range tuples {
		if keep[i] {
			sub = append(sub, t)
		}
	}
	return sub
}
