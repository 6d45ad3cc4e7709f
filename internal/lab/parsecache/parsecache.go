// Package parsecache keeps parsed copies of the Google compression corpus, which ships
// without dependency heads. A cached file is the corpus file with HEAD and DEPREL (and,
// for the "tagged" variant, XPOS) filled in by the built-in pipeline; everything else,
// comments and MISC (Keep=Yes|No) included, is unchanged. The file name carries a key made
// from the input file's content and the model files, so a new model or corpus never reads
// a stale parse.
package parsecache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/core/progress"
)

// Variant says how a corpus file is parsed.
type Variant struct {
	Name     string // used in the cache file name
	KeepXPOS bool   // keep the corpus's own XPOS (Google's tagger) instead of tagging
}

// The variants. Given keeps the corpus's XPOS; Tagged re-tags with the built-in tagger
// (meaningful on the test split, whose forms are not normalized).
var (
	Given  = Variant{Name: "given-xpos", KeepXPOS: true}
	Tagged = Variant{Name: "own-tagger"}
)

// Dir returns the cache directory: $QSC_CACHE, or qsc under the user cache directory.
func Dir() (string, error) {
	if d := os.Getenv("QSC_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set QSC_CACHE): %w", err)
	}
	return filepath.Join(d, "qsc"), nil
}

// Path returns the cache file for input parsed by p as v, in dir.
func Path(dir, input string, p *pipeline.Pipeline, v Variant) (string, error) {
	f, err := os.Open(input)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", input, err)
	}
	h.Write([]byte(p.ID() + "\x00" + v.Name))
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(input), ".gz"), ".conllu")
	return filepath.Join(dir, fmt.Sprintf("%s.%s.%s.conllu.gz", base, v.Name, hex.EncodeToString(h.Sum(nil))[:16])), nil
}

// Result describes one cache file.
type Result struct {
	Path      string
	Built     bool          // parsed now, rather than found in the cache
	Sentences int           // sentences parsed (0 when found)
	Tokens    int           // words parsed (0 when found)
	Elapsed   time.Duration // time to parse and write (0 when found)
}

// Ensure returns the cache file for input, parsing it first when it is not cached (or when
// force is set). The file is written under a temporary name and renamed when complete, so
// an interrupted run never leaves a partial file behind.
func Ensure(ctx context.Context, dir, input string, p *pipeline.Pipeline, v Variant, force bool, workers int) (Result, error) {
	path, err := Path(dir, input, p, v)
	if err != nil {
		return Result{}, err
	}
	res := Result{Path: path}
	if _, err := os.Stat(path); err == nil && !force {
		return res, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	start := time.Now()
	r, err := conllu.Open(input)
	if err != nil {
		return res, err
	}
	defer r.Close()
	tmp := strings.TrimSuffix(path, ".conllu.gz") + ".partial.conllu.gz" // keeps the .gz suffix, so it is compressed
	w, err := conllu.Create(tmp)
	if err != nil {
		return res, err
	}
	bar := progress.New("parse "+filepath.Base(input), 0)
	st, err := p.ParseCoNLLU(ctx, r, w, pipeline.Options{KeepXPOS: v.KeepXPOS}, workers, bar)
	bar.Done()
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return res, fmt.Errorf("parsing %s: %w", input, err)
	}
	res.Built, res.Sentences, res.Tokens, res.Elapsed = true, st.Sentences, st.Tokens, time.Since(start)
	return res, nil
}
