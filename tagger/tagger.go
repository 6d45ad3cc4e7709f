// Package tagger assigns Penn Treebank part-of-speech tags (with the OntoNotes extras HYPH,
// NFP, ADD, AFX, GW and XX) to tokenized sentences.
//
// The model is a two-pass averaged perceptron: a greedy right-to-left pass that sees the
// tags it has already assigned on the right, then a greedy left-to-right pass that sees
// its own tags on the left and the first pass's tags on the right (tokens the first pass
// is sure of keep their tag). Features are hashed into a compact bucketed table whose
// rows hold the weights of all tags for one feature (quantized to int16, tiny weights
// pruned); Load uses the table in place in the model file's bytes, and tagging needs no
// string building and no allocations once a Tagger has warmed up. Frequent unambiguous words are tagged from a dictionary, and each Tagger
// caches, by word form, the summed scores of the features that depend on one word alone:
// the word's own and those it gives its left and right neighbours (more than half of the
// lookups), up to 16,384 entries (about 3 MB); when full, it keeps the most used half.
//
// Optional word clusters learned from unlabeled text (see LearnClusters) help with words
// unseen in the labeled training data. When that text also carries tags of its own, as the
// Google compression corpus does, LearnClustersFile keeps each clustered word's tag
// profile there (its most frequent tag and its frequent tags), which become features too.
// Train can also learn from that corpus's sentences directly, as silver training data
// whose lowercased forms lose the features that see letter case (TrainOptions.Silver),
// and can average the weights of several perceptrons trained with different seeds
// (TrainOptions.Mix).
//
// A Model is read-only after Train or Load and safe for concurrent use; each goroutine
// tags with its own Tagger from Model.NewTagger.
package tagger

import (
	"errors"
	"time"

	"github.com/qsc-nlp/qsc/syntax"
)

// Kind and Version identify tagger model files in the modelfile container.
const (
	Kind    = "tagger"
	Version = 3
)

// TrainOptions controls Train. The zero value is usable: it means the defaults below.
type TrainOptions struct {
	// Epochs is the number of passes over the training data (default 10). When dev
	// sentences are given the weights of the best dev epoch are kept.
	Epochs int
	// Seed seeds the shuffling of the training sentences between epochs (default 1 when
	// 0). Train is deterministic: the same data, options and seed give the same model.
	Seed int64
	// Mix is the number of perceptrons trained with seeds Seed, Seed+1, … whose weights
	// are averaged into the model (default 1). Each costs one training run
	// (docs/pipeline.md has what mixing gains).
	Mix int
	// Clusters are optional word clusters (from LearnClusters); nil means none. They are
	// copied into the model.
	Clusters *Clusters
	// Silver are extra training sentences tagged by another tagger, with caseless forms:
	// the lowercased, digit-masked Google compression train split, whose XPOS column came
	// from a tagger run on the original text. Their features that see letter case (the
	// exact form and the word shape) are left out, so that lowercased proper nouns do not
	// teach the model that lowercase words are NNP. They do not enter the tag set or the
	// tag dictionary, and a tag outside the gold tag set is skipped.
	Silver []*syntax.Sentence
	// GoldCopies is how many times each train sentence is seen per epoch (default 1), to
	// weigh the gold sentences against Silver.
	GoldCopies int
	// Prune is the smallest weight magnitude kept in the model, in 1/64 units (default
	// 48, that is 0.75). Weights trained with Silver sentences grow larger and take a
	// larger threshold (docs/pipeline.md, MODELS.md).
	Prune int
	// Quiet turns off the progress report on stderr.
	Quiet bool
	// OnEpoch, when not nil, is called after each epoch.
	OnEpoch func(EpochReport)
}

// EpochReport describes one training epoch.
type EpochReport struct {
	Run      int           // 1-based index of the perceptron (see TrainOptions.Mix)
	Epoch    int           // 1-based
	TrainAcc float64       // accuracy of the second pass on the training data while learning
	DevAcc   float64       // accuracy of the averaged model on dev, or 0 without dev data
	Duration time.Duration // time of the epoch including the dev evaluation
}

// TrainReport summarizes a Train run.
type TrainReport struct {
	Epochs     []EpochReport // every epoch of every run
	BestEpochs []int         // the epoch kept from each run (1-based)
	DevAcc     float64       // dev accuracy of the returned model, or 0 without dev data
	Tags       int           // number of distinct tags
	Features   int           // number of feature rows in the model
	Duration   time.Duration // total training time
}

// ErrNoData is returned by Train when there are no tagged training tokens.
var ErrNoData = errors.New("tagger: no tagged training tokens")

// Accuracy tags a copy of every gold sentence with m and returns the fraction of all
// tokens (punctuation included) whose predicted tag equals the gold XPOS, with the number
// of correct and of all tokens. A token with an empty gold XPOS counts as wrong. gold is
// not modified.
func Accuracy(m *Model, gold []*syntax.Sentence) (acc float64, correct, total int) {
	t := m.NewTagger()
	var buf syntax.Sentence
	for _, s := range gold {
		buf.Tokens = append(buf.Tokens[:0], s.Tokens...)
		t.Tag(&buf)
		for i := range buf.Tokens {
			if buf.Tokens[i].XPOS == s.Tokens[i].XPOS {
				correct++
			}
		}
		total += len(s.Tokens)
	}
	if total == 0 {
		return 0, 0, 0
	}
	return float64(correct) / float64(total), correct, total
}
