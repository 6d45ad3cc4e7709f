package main

import (
	"fmt"
	"io"
	"time"

	"github.com/qsc-nlp/qsc/internal/dataset"
	"github.com/qsc-nlp/qsc/internal/evaluate"
	"github.com/qsc-nlp/qsc/model"
)

// trainingInputs loads the parsed Google train file (trainPath, or the parse cache of qsc
// data parse when empty) and returns the training and validation tuples of seed as model
// inputs, the first trainN and validN of each (0: all). Every trainer (lr, ilp, nn) reads
// its data here, so all use the same split.
func trainingInputs(trainPath string, seed uint64, trainN, validN int, stderr io.Writer) (train, valid []model.Input, err error) {
	path, err := parsedTrainFile(trainPath)
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	d, err := dataset.Load(path, dataset.Train, dataset.Options{Seed: seed})
	if err != nil {
		return nil, nil, err
	}
	if train, err = evaluate.Inputs(firstN(d.Split(dataset.Train), trainN)); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if valid, err = evaluate.Inputs(firstN(d.Split(dataset.Validation), validN)); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stderr, "loaded %d training and %d validation tuples from %s in %s\n", len(train), len(valid), path, time.Since(start).Round(time.Millisecond))
	return train, valid, nil
}
