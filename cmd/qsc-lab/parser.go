package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/parser"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tagger"
)

func init() {
	prog.Register(&cli.Command{Name: "train parser", Summary: "train the dependency parser", Run: runTrainParser})
	prog.Register(&cli.Command{Name: "eval parser", Summary: "evaluate the dependency parser (UAS/LAS)", Run: runEvalParser})
}

func runTrainParser(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("train parser", "", stderr)
	trainPath := fs.String("train", shared.Path(shared.EWTTrain), "training CoNLL-U file (EWT train when found)")
	devPath := fs.String("dev", shared.Path(shared.EWTDev), "dev CoNLL-U file for model selection (EWT dev when found; \"\" for none)")
	out := fs.String("out", defaultModel(pipeline.ParserName), "output model file")
	seed := fs.Uint64("seed", 1, "random seed")
	epochs := fs.Int("epochs", 12, "training epochs per run")
	runs := fs.Int("runs", 3, "training runs whose weights are averaged")
	taggerPath := fs.String("tagger", "", "tagger model: train on predicted tags (jackknifed over --folds folds with tagger.Train) and tag dev with this model; without it, gold tags")
	folds := fs.Int("folds", 10, "jackknifing folds (with --tagger)")
	clusterPath := fs.String("clusters", shared.Path(shared.GoogleTrain), "unlabeled CoNLL-U file to learn word clusters from (the Google compression train split when found; \"\" for none)")
	actBits := fs.Uint("action-bits", 0, "log2 rows of the action weight table (0: default)")
	labBits := fs.Uint("label-bits", 0, "log2 rows of the label weight table (0: default)")
	sf := addSilverFlags(fs, "extra training trees used as they are, not jackknifed (CoNLL-U with XPOS, HEAD and DEPREL; for example the Google corpus parsed by the accurate parser)")
	beam := fs.Int("beam", 1, fmt.Sprintf("beam width: 1 parses greedily (dynamic oracle); 2 to %d trains globally and the model parses with that beam", parser.MaxBeam))
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *trainPath == "" {
		return cli.Usagef("no --train file and the shared EWT data was not found")
	}
	if *out == "" {
		return cli.Usagef("no --out file")
	}
	if *beam < 1 || *beam > parser.MaxBeam {
		return cli.Usagef("--beam %d: want 1 to %d", *beam, parser.MaxBeam)
	}
	if err := sf.check(); err != nil {
		return err
	}
	start := time.Now()
	train, dev, err := readTrainDev(*trainPath, *devPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "train: %s (%d sentences); dev: %s (%d sentences)\n", *trainPath, len(train), *devPath, len(dev))
	if *taggerPath != "" {
		if err := jackknifeTags(train, dev, *taggerPath, *folds, *seed, stderr); err != nil {
			return err
		}
	}
	silver, err := sf.read()
	if err != nil {
		return err
	}
	if silver != nil {
		fmt.Fprintf(stderr, "silver: %s (%d sentences)\n", *sf.path, len(silver))
		gold := train
		for range *sf.goldCopies - 1 {
			train = append(train, gold...)
		}
		train = append(train, silver...)
	}
	opts := parser.TrainOptions{Seed: *seed, Epochs: *epochs, Runs: *runs, ActionBits: *actBits, LabelBits: *labBits, Beam: *beam, Log: stderr}
	if opts.Clusters, err = learnClusters(*clusterPath, parser.LearnClustersFile, stderr, "word clusters"); err != nil {
		return err
	}
	m, rep, err := parser.Train(train, dev, opts)
	if err != nil {
		return err
	}
	size, err := writeModel(*out, m)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%d sentences, %d words; %d non-projective trees (%d arcs lifted); %d skipped\n",
		rep.Sentences, rep.Words, rep.NonProjective, rep.Lifted, rep.Skipped)
	fmt.Fprintf(stdout, "wrote %s (%d bytes): mean of %d runs (epochs %v)", *out, size, len(rep.BestEpochs), rep.BestEpochs)
	if len(dev) > 0 {
		fmt.Fprintf(stdout, ", dev %v", rep.Dev)
	}
	fmt.Fprintf(stdout, "; total time %s\n", time.Since(start).Round(time.Second))
	return nil
}

func runEvalParser(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("eval parser", "FILE...", stderr)
	modelPath := fs.String("model", "", "parser model file (default: the embedded "+pipeline.ParserName+")")
	taggerPath := fs.String("tagger", "", "tagger model file for predicted tags (default: the embedded "+pipeline.TaggerName+")")
	goldTags := fs.Bool("gold-tags", false, "parse with the gold XPOS tags of the files instead of tagging")
	normalize := fs.Bool("normalize", false, "first normalize the forms as in the Google compression train split (parser.NormalizeForm)")
	accurate := fs.Bool("accurate", false, "evaluate the embedded beam-search parser "+pipeline.ParserBeamName)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	name, err := cli.EmbeddedParser(*accurate, *modelPath, "--model")
	if err != nil {
		return err
	}
	files := fs.Args()
	if len(files) == 0 {
		for _, rel := range []string{shared.EWTDev, shared.EWTTest} {
			if p := shared.Path(rel); p != "" {
				files = append(files, p)
			}
		}
		if len(files) == 0 {
			return cli.Usagef("no files given and the shared EWT data was not found")
		}
	}
	m, err := loadModel(*modelPath, name, parser.Load)
	if err != nil {
		return err
	}
	var tag func(*syntax.Sentence) error
	if !*goldTags {
		if tag, err = loadTagger(*taggerPath); err != nil {
			return err
		}
	}
	p := m.NewParser()
	tagMode := "predicted tags"
	if *goldTags {
		tagMode = "gold tags"
	}
	if *normalize {
		tagMode += ", normalized forms"
	}
	var total parser.Score
	for _, f := range files {
		gold, err := readTreebank(f)
		if err != nil {
			return err
		}
		pred := make([]*syntax.Sentence, len(gold))
		var parseTime time.Duration
		for i, g := range gold {
			s := &syntax.Sentence{Tokens: append([]syntax.Token(nil), g.Tokens...)}
			for j := range s.Tokens {
				t := &s.Tokens[j]
				if *normalize {
					t.Form = parser.NormalizeForm(t.Form)
				}
				t.Head, t.Rel = syntax.NoHead, ""
				if tag != nil {
					t.XPOS = ""
				}
			}
			if tag != nil {
				if err := tag(s); err != nil {
					return fmt.Errorf("%s: sentence %d: %w", f, i+1, err)
				}
			}
			t0 := time.Now()
			if err := p.Parse(s); err != nil {
				return fmt.Errorf("%s: sentence %d: %w", f, i+1, err)
			}
			parseTime += time.Since(t0)
			pred[i] = s
		}
		sc, err := parser.Evaluate(gold, pred)
		if err != nil {
			return err
		}
		total = total.Add(sc)
		fmt.Fprintf(stdout, "%s\t%d sentences\t%s\t[%s; parsing %.0f sentences/s]\n", filepath.Base(f), len(gold), sc, tagMode,
			float64(len(gold))/parseTime.Seconds())
	}
	if len(files) > 1 {
		fmt.Fprintf(stdout, "all\t%s\n", total)
	}
	return nil
}

// defaultModel returns the path of a model file of the default pipeline, under
// internal/core/pipeline/ in the repository that holds the working directory, or
// internal/core/pipeline/name when there is none.
func defaultModel(name string) string {
	dir, err := os.Getwd()
	for err == nil {
		if _, e := os.Stat(filepath.Join(dir, "go.mod")); e == nil {
			return filepath.Join(dir, "internal", "core", "pipeline", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return filepath.Join("internal", "core", "pipeline", name)
}

// loadTagger returns a function that tags a sentence with the tagger model at path.
func loadTagger(path string) (func(*syntax.Sentence) error, error) {
	data, err := cli.ModelBytes(path, pipeline.TaggerName)
	if err != nil {
		return nil, fmt.Errorf("tagger model: %w (use --gold-tags to parse with gold tags)", err)
	}
	m, err := tagger.Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t := m.NewTagger()
	return func(s *syntax.Sentence) error {
		t.Tag(s)
		return nil
	}, nil
}

// jackknifeTags replaces the gold XPOS of train by tags predicted by taggers trained on
// the other folds (fold k holds sentences k, k+folds, ...), so that the parser learns from
// tags as noisy as at parsing time, and tags dev with the tagger model at taggerPath.
// The fold taggers are trained like "train tagger" (default options, the given seed and
// word clusters learnt from the Google compression train split when it is present).
func jackknifeTags(train, dev []*syntax.Sentence, taggerPath string, folds int, seed uint64, stderr io.Writer) error {
	tag, err := loadTagger(taggerPath)
	if err != nil {
		return err
	}
	if folds < 2 {
		return cli.Usagef("--folds must be at least 2")
	}
	opts := tagger.TrainOptions{Seed: int64(seed), Quiet: true}
	if p := shared.Path(shared.GoogleTrain); p != "" {
		t0 := time.Now()
		if opts.Clusters, err = tagger.LearnClustersFile(p, tagger.ClusterOptions{}); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "jackknife: word clusters from %s in %s\n", p, time.Since(t0).Round(time.Millisecond))
	}
	pred := make([][]string, len(train))
	for k := range folds {
		t0 := time.Now()
		var rest, held []*syntax.Sentence
		var idx []int
		for i, s := range train {
			if i%folds == k {
				held = append(held, s)
				idx = append(idx, i)
			} else {
				rest = append(rest, s)
			}
		}
		m, _, err := tagger.Train(rest, nil, opts)
		if err != nil {
			return fmt.Errorf("jackknife fold %d: %w", k+1, err)
		}
		t := m.NewTagger()
		correct, total := 0, 0
		for j, s := range held {
			c := &syntax.Sentence{Tokens: append([]syntax.Token(nil), s.Tokens...)}
			t.Tag(c)
			tags := make([]string, len(c.Tokens))
			for i := range c.Tokens {
				tags[i] = c.Tokens[i].XPOS
				if tags[i] == s.Tokens[i].XPOS {
					correct++
				}
				total++
			}
			pred[idx[j]] = tags
		}
		fmt.Fprintf(stderr, "jackknife fold %d/%d: %d sentences tagged, accuracy %.2f%% (%s)\n", k+1, folds, len(held),
			100*float64(correct)/float64(max(total, 1)), time.Since(t0).Round(time.Millisecond))
	}
	for i, s := range train {
		for j := range s.Tokens {
			s.Tokens[j].XPOS = pred[i][j]
		}
	}
	correct, total := 0, 0
	for _, s := range dev {
		gold := make([]string, len(s.Tokens))
		for j := range s.Tokens {
			gold[j] = s.Tokens[j].XPOS
		}
		if err := tag(s); err != nil {
			return err
		}
		for j := range s.Tokens {
			if s.Tokens[j].XPOS == gold[j] {
				correct++
			}
			total++
		}
	}
	fmt.Fprintf(stderr, "dev tagged with %s: accuracy %.2f%%\n", taggerPath, 100*float64(correct)/float64(max(total, 1)))
	return nil
}
