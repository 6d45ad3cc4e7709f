package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
)

func init() {
	prog.Register(&cli.Command{Name: "data parse", Summary: "parse the Google compression corpus into the cache that training and evaluation use", Run: runDataParse})
}

func runDataParse(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("data parse", "", stderr)
	dir := fs.String("data", "", "data directory (default: ../shared/data beside the repository, or $QSC_DATA)")
	cache := fs.String("cache", "", "cache directory (default: $QSC_CACHE or the user cache directory)")
	force := fs.Bool("force", false, "parse again even when a cached file exists")
	workers := fs.Int("workers", 0, "parallel workers (0 = all cores)")
	mf := cli.AddModelFlags(fs)
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		if *dir = shared.DataDir(); *dir == "" {
			return cli.Usagef("no data directory: pass --data DIR or set QSC_DATA")
		}
	}
	if *cache == "" {
		d, err := parsecache.Dir()
		if err != nil {
			return err
		}
		*cache = d
	}
	p, err := mf.Pipeline()
	if err != nil {
		return err
	}
	jobs := []struct {
		file string
		v    parsecache.Variant
	}{
		{shared.GoogleTrain, parsecache.Given},
		{shared.GoogleTest, parsecache.Given},
		{shared.GoogleTest, parsecache.Tagged},
	}
	fmt.Fprintf(stdout, "| file | xpos | sentences | words | time | sentences/s | cache file |\n|---|---|--:|--:|--:|--:|---|\n")
	var total time.Duration
	sents := 0
	for _, j := range jobs {
		res, err := parsecache.Ensure(context.Background(), *cache, filepath.Join(*dir, j.file), p, j.v, *force, *workers)
		if err != nil {
			return err
		}
		if !res.Built {
			fmt.Fprintf(stdout, "| %s | %s | cached | | | | %s |\n", j.file, j.v.Name, res.Path)
			continue
		}
		total += res.Elapsed
		sents += res.Sentences
		fmt.Fprintf(stdout, "| %s | %s | %d | %d | %.1fs | %.0f | %s |\n", j.file, j.v.Name, res.Sentences, res.Tokens,
			res.Elapsed.Seconds(), float64(res.Sentences)/res.Elapsed.Seconds(), res.Path)
	}
	if sents > 0 {
		fmt.Fprintf(stdout, "\nParsed %d sentences in %.1fs (goal: train and test in ≤ 120 s).\n", sents, total.Seconds())
	}
	return nil
}
