package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/lm"
)

func init() {
	prog.Register(&cli.Command{Name: "train lm", Summary: "build the 3-gram Kneser–Ney language model for SLOR from the Google train split (ARPA)", Run: runTrainLM})
}

// lmFormat versions what qsc-lab train lm writes: change it when the training text or the
// estimation changes, so that a cached model is never stale.
const lmFormat = "qsc-lm-v1"

// lmCachePath returns where qsc-lab train lm writes, by default, the model of order order
// built from the Google train file trainFile with seed and validation (which decide the
// validation split; see dataset.Options): in cacheDir, under a name keyed by the file's
// content, those settings and lmFormat. The evaluation looks for the model here, with
// dataset.DefaultValidation and order 3.
func lmCachePath(cacheDir, trainFile string, seed uint64, validation, order int) (string, error) {
	f, err := os.Open(trainFile)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", trainFile, err)
	}
	fmt.Fprintf(h, "\x00%s\x00seed=%d\x00validation=%d\x00order=%d", lmFormat, seed, validation, order)
	return filepath.Join(cacheDir, fmt.Sprintf("lm-google-train.%dgram.%s.arpa.gz", order, hex.EncodeToString(h.Sum(nil))[:16])), nil
}

// loadEvalLM reads the language model SLOR is computed with: the one qsc-lab train lm builds
// by default from the Google train file under dataDir with seed, found in cacheDir by
// lmCachePath. It returns the model and its path, or an error saying how to build it.
func loadEvalLM(dataDir, cacheDir string, seed uint64) (*lm.Model, string, error) {
	train := filepath.Join(dataDir, shared.GoogleTrain)
	path, err := lmCachePath(cacheDir, train, seed, dataset.DefaultValidation, 3)
	if err != nil {
		return nil, "", err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, "", fmt.Errorf("no language model for SLOR at %s: run qsc-lab train lm --seed %d (about 1.5 minutes)", path, seed)
	}
	m, err := lm.ReadARPAFile(path)
	return m, path, err
}

// lmTrainText adds to tr the text the authors trained their SLOR model on: the source
// sentence of each training tuple (the validation tuples left out), lowercased and
// normalized as the corpus (lm.Normalize), without its final token. It returns the
// number of sentences skipped for an error, each reported on log.
func lmTrainText(tr *lm.Trainer, tuples []*dataset.Tuple, log io.Writer) int {
	bar := progress.New("count n-grams", len(tuples))
	defer bar.Done()
	skipped := 0
	var words []string
	for _, t := range tuples {
		forms := t.Forms()
		if len(forms) > 0 {
			forms = forms[:len(forms)-1]
		}
		words = words[:0]
		for _, f := range forms {
			words = append(words, strings.Fields(lm.Normalize(f))...)
		}
		if err := tr.Add(words); err != nil {
			fmt.Fprintf(log, "sentence %s: %v (skipped)\n", t.ID, err)
			skipped++
		}
		bar.Add(1)
	}
	return skipped
}

func runTrainLM(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("train lm", "", stderr)
	trainPath := fs.String("train", "", "Google train file, CoNLL-U (default: google-compression/train.conllu.gz under the data directory)")
	cache := fs.String("cache", "", "cache directory for the default output (default: $QSC_CACHE or the user cache directory)")
	out := fs.String("out", "", "ARPA file to write, gzip-compressed if it ends in .gz (default: in the cache, keyed by the train file's content, seed and order)")
	seed := fs.Uint64("seed", 1, "seed of the validation split: the same as qsc-lab train lr's, so that the same 25,000 tuples are left out")
	validation := fs.Int("validation", dataset.DefaultValidation, "training tuples held out for validation, as in qsc-lab train lr (negative: none)")
	order := fs.Int("order", 3, "n-gram order (1 to 3)")
	fallback := fs.Bool("fallback", false, "use lmplz's fallback discounts (0.5, 1, 1.5) for an order whose count-of-counts cannot give them (tiny corpora)")
	force := fs.Bool("force", false, "build the model even when the output file exists")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *order < 1 || *order > lm.MaxOrder {
		return cli.Usagef("--order %d: want 1 to %d", *order, lm.MaxOrder)
	}
	if *trainPath == "" {
		if *trainPath = shared.Path(shared.GoogleTrain); *trainPath == "" {
			return cli.Usagef("no Google train file under the data directory: pass --train FILE")
		}
	}
	if *out == "" {
		dir := *cache
		if dir == "" {
			d, err := parsecache.Dir()
			if err != nil {
				return err
			}
			dir = d
		}
		p, err := lmCachePath(dir, *trainPath, *seed, *validation, *order)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		*out = p
	}
	if _, err := os.Stat(*out); err == nil && !*force {
		fmt.Fprintf(stdout, "%s exists (use --force to build it again)\n", *out)
		return nil
	}

	start := time.Now()
	d, err := dataset.Load(*trainPath, dataset.Train, dataset.Options{Seed: *seed, Validation: *validation})
	if err != nil {
		return err
	}
	tuples := d.Split(dataset.Train)
	loaded := time.Since(start)
	opts := lm.Options{Order: *order}
	if *fallback {
		opts.DiscountFallback = &[3]float64{0.5, 1, 1.5}
	}
	tr, err := lm.NewTrainer(opts)
	if err != nil {
		return err
	}
	t0 := time.Now()
	skipped := lmTrainText(tr, tuples, stderr)
	counted := time.Since(t0)
	progress.Logf("estimating the model")
	t0 = time.Now()
	m, err := tr.Model()
	if err != nil {
		return err
	}
	estimated := time.Since(t0)
	t0 = time.Now()
	if err := m.WriteARPAFile(*out); err != nil {
		return err
	}
	written := time.Since(t0)
	st, err := os.Stat(*out)
	if err != nil {
		return err
	}

	fmt.Fprintf(stdout, "training text: %d training tuples of %s (seed %d, %d validation tuples left out), each source sentence lowercased and normalized without its final token; %d skipped\n",
		len(tuples), *trainPath, *seed, len(d.Split(dataset.Validation)), skipped)
	fmt.Fprintf(stdout, "%d sentences, %d tokens\n\n| order | n-grams | D1 | D2 | D3+ |\n|--:|--:|--:|--:|--:|\n", tr.Sentences(), tr.Tokens())
	for n, c := range m.Counts() {
		dd := m.Discounts()[n]
		fmt.Fprintf(stdout, "| %d | %d | %.4f | %.4f | %.4f |\n", n+1, c, dd[0], dd[1], dd[2])
	}
	fmt.Fprintf(stdout, "\nwrote %s (%.1f MB); time: load %s, count %s, estimate %s, write %s, total %s\n", *out, float64(st.Size())/1e6,
		loaded.Round(time.Millisecond), counted.Round(time.Millisecond), estimated.Round(time.Millisecond), written.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}
