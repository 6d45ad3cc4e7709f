// Package pipeline runs the built-in English pipeline: tokenizer and sentence splitter,
// Penn Treebank tagger and UD dependency parser. The CLI, the HTTP service and the library
// all analyse text through it, so they produce the same trees.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/parser"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tagger"
	"github.com/qsc-nlp/qsc/tokenize"
)

// Pipeline holds the read-only models. It is safe for concurrent use; each goroutine
// analyses text with its own Worker.
type Pipeline struct {
	Tagger *tagger.Model
	Parser *parser.Model
	// TaggerSum and ParserSum are the SHA-256 of each model file (stored annotations
	// record their prefixes: package annotation).
	TaggerSum, ParserSum [sha256.Size]byte
}

// Load decodes a tagger and a parser model file. The two models are decoded, and the
// files hashed, on three goroutines.
func Load(taggerData, parserData []byte) (*Pipeline, error) {
	var (
		wg         sync.WaitGroup
		p          Pipeline
		tErr, pErr error
	)
	wg.Go(func() { p.Tagger, tErr = tagger.Load(taggerData) })
	wg.Go(func() { p.Parser, pErr = parser.Load(parserData) })
	wg.Go(func() { p.TaggerSum, p.ParserSum = modelfile.Sum(taggerData), modelfile.Sum(parserData) })
	wg.Wait()
	if tErr != nil {
		return nil, fmt.Errorf("tagger model: %w", tErr)
	}
	if pErr != nil {
		return nil, fmt.Errorf("parser model: %w", pErr)
	}
	return &p, nil
}

// Version is the version of how a Pipeline reads a sentence besides its models: 2 since
// the tagger and parser read typographic quotes as ASCII ones (Worker.Sentence).
const Version = 2

// ID identifies the pair of model files and Version (a prefix of the SHA-256 of the two
// sums and the version), so that results computed with them can be cached under it.
func (p *Pipeline) ID() string {
	id := sha256.Sum256(append(append(p.TaggerSum[:], p.ParserSum[:]...), byte(Version)))
	return hex.EncodeToString(id[:])[:12]
}

// Options control how a sentence is analysed.
type Options struct {
	// KeepXPOS keeps the tokens' XPOS tags instead of tagging; every token must have one.
	KeepXPOS bool
}

// Worker analyses sentences with scratch memory of its own. It is not safe for
// concurrent use.
type Worker struct {
	tg *tagger.Tagger
	ps *parser.Parser
	// typed holds the forms that Sentence gave the tagger and parser in ASCII quotes,
	// with their tokens' indexes, to put back after.
	typed []typedForm
}

// typedForm is a token's form as written, with typographic quotes (tokenize.ASCIIQuotes).
type typedForm struct {
	i    int
	form string
}

// NewWorker returns a Worker for one goroutine.
func (p *Pipeline) NewWorker() *Worker {
	return &Worker{tg: p.Tagger.NewTagger(), ps: p.Parser.NewParser()}
}

// ErrMissingXPOS is returned with KeepXPOS when a token has no tag.
var ErrMissingXPOS = errors.New("token has no XPOS to keep")

// Sentence tags (unless opts.KeepXPOS) and parses s in place.
func (w *Worker) Sentence(s *syntax.Sentence, opts Options) error {
	if len(s.Tokens) == 0 {
		return parser.ErrEmpty
	}
	if opts.KeepXPOS {
		for i := range s.Tokens {
			if s.Tokens[i].XPOS == "" {
				return fmt.Errorf("%w: token %d %q", ErrMissingXPOS, i+1, s.Tokens[i].Form)
			}
		}
	}
	// The tagger and parser read typographic quotes as ASCII ones, as their treebank
	// writes them 30 times more often (tokenize.ASCIIQuotes); the forms as written are put
	// back after.
	w.typed = w.typed[:0]
	for i := range s.Tokens {
		if f := s.Tokens[i].Form; tokenize.HasTypographicQuote(f) {
			w.typed = append(w.typed, typedForm{i, f})
			s.Tokens[i].Form = tokenize.ASCIIQuotes(f)
		}
	}
	if !opts.KeepXPOS {
		w.tg.Tag(s)
	}
	err := w.ps.Parse(s)
	for _, t := range w.typed {
		s.Tokens[t.i].Form = t.form
	}
	clear(w.typed) // the forms are a document's words
	return err
}

// Text splits text into sentences, tokenizes, tags and parses them. Token offsets point
// into text. Text with no tokens yields no sentences.
func (w *Worker) Text(text string) ([]syntax.Sentence, error) {
	sents := tokenize.Sentences(text)
	for i := range sents {
		if err := w.Sentence(&sents[i], Options{}); err != nil {
			return nil, fmt.Errorf("sentence %d: %w", i+1, err)
		}
	}
	return sents, nil
}

// CoNLLUStats counts what ParseCoNLLU did.
type CoNLLUStats struct {
	Sentences int // sentences read and written
	Tokens    int // words parsed
}

// ParseCoNLLU re-parses every sentence read from r and writes it to w with the same
// comments, forms and other columns: HEAD and DEPREL (and XPOS unless opts.KeepXPOS) are
// replaced; LEMMA, UPOS, FEATS, DEPS and MISC are kept; multiword tokens and empty nodes are
// carried through. Input HEAD and DEPREL are ignored. Sentences are analysed by workers
// goroutines (0 means GOMAXPROCS) and written in input order. A sentence that cannot be
// parsed stops the run with an error naming it.
func (p *Pipeline) ParseCoNLLU(ctx context.Context, r *conllu.Reader, w *conllu.Writer, opts Options, workers int, bar *progress.Bar) (CoNLLUStats, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type batch struct {
		seq   int
		sents []*conllu.Sentence
		err   error
	}
	const batchSize = 256
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan *batch, workers)
	done := make(chan *batch, workers)
	var readErr error
	go func() {
		defer close(jobs)
		for seq := 0; ; seq++ {
			b := &batch{seq: seq}
			for len(b.sents) < batchSize {
				s, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					readErr = err
					break
				}
				b.sents = append(b.sents, s)
			}
			if len(b.sents) > 0 {
				select {
				case jobs <- b:
				case <-ctx.Done():
					return
				}
			}
			if len(b.sents) < batchSize {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := p.NewWorker()
			var s syntax.Sentence
			for b := range jobs {
				for _, cs := range b.sents {
					if b.err = wk.conllu(cs, &s, opts); b.err != nil {
						break
					}
				}
				select {
				case done <- b:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	var st CoNLLUStats
	pending := map[int]*batch{}
	next := 0
	var firstErr error
	for b := range done {
		pending[b.seq] = b
		for pb, ok := pending[next]; ok && firstErr == nil; pb, ok = pending[next] {
			delete(pending, next)
			next++
			if pb.err != nil {
				firstErr = pb.err
				cancel()
				break
			}
			for _, cs := range pb.sents {
				if err := w.Write(cs); err != nil {
					firstErr = err
					cancel()
					break
				}
				st.Sentences++
				st.Tokens += len(cs.Words)
			}
			bar.Add(len(pb.sents))
		}
	}
	if firstErr != nil {
		return st, firstErr
	}
	if readErr != nil {
		return st, readErr
	}
	return st, ctx.Err()
}

// conllu analyses one CoNLL-U sentence in place, using s as scratch.
func (w *Worker) conllu(cs *conllu.Sentence, s *syntax.Sentence, opts Options) error {
	s.Tokens = s.Tokens[:0]
	for _, wd := range cs.Words {
		t := syntax.Token{Form: wd.Form, Head: syntax.NoHead, Start: -1, End: -1}
		if opts.KeepXPOS && wd.XPOS != "_" {
			t.XPOS = wd.XPOS
		}
		s.Tokens = append(s.Tokens, t)
	}
	if err := w.Sentence(s, opts); err != nil {
		id, _ := cs.Meta("sent_id")
		if id == "" {
			id = "(no sent_id)"
		}
		return fmt.Errorf("sentence %s: %w", id, err)
	}
	for i := range cs.Words {
		t := &s.Tokens[i]
		wd := &cs.Words[i]
		wd.XPOS = t.XPOS
		wd.Head = t.Head
		wd.DepRel = t.Rel
	}
	return nil
}

var (
	defaultP  = sync.OnceValues(func() (*Pipeline, error) { return embedded(ParserName) })
	accurateP = sync.OnceValues(func() (*Pipeline, error) { return embedded(ParserBeamName) })
)

// Default returns the pipeline of the models embedded in the binary, decoded once: the
// tagger and the greedy parser.
func Default() (*Pipeline, error) { return defaultP() }

// Accurate returns the pipeline of the embedded tagger and beam-search parser
// (ParserBeamName), decoded once: better trees, about 6 times slower parsing. The
// parser's file is linked only by a program that imports its package (AccurateImport).
func Accurate() (*Pipeline, error) { return accurateP() }

// Embedded returns Accurate() when accurate is set, else Default().
func Embedded(accurate bool) (*Pipeline, error) {
	if accurate {
		return Accurate()
	}
	return Default()
}

// inPlace reports whether a tagger or parser model file is of the format that a loaded
// model reads in place (version 3 of both).
func inPlace(data []byte) bool {
	_, v, err := modelfile.Header(data)
	return err == nil && v >= 3
}

// embedded loads the embedded tagger and the embedded parser named parserName.
func embedded(parserName string) (*Pipeline, error) {
	td, err := modelfile.Embedded(TaggerName)
	if err != nil {
		return nil, err
	}
	pd, err := modelfile.Embedded(parserName)
	if parserName == ParserBeamName && err != nil {
		return nil, fmt.Errorf("the accurate parser %s is not linked in this program: import _ %q", ParserBeamName, AccurateImport)
	}
	if err != nil {
		return nil, err
	}
	// A model in the current format reads its weights in place from its file, which
	// must then stay mapped; a file of an older format is decoded into memory, and its
	// pages can go once it is (the accurate parser's, parser format 2).
	if !inPlace(td) {
		defer modelfile.Release(TaggerName)
	}
	if !inPlace(pd) {
		defer modelfile.Release(parserName)
	}
	return Load(td, pd)
}
