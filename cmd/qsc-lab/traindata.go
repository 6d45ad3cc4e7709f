package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/method"
)

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
