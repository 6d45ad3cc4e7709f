package qsc

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	"github.com/qsc-nlp/qsc/annotation"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

// ErrModels is wrapped (with ErrBadRequest) by the error of an annotated call given an
// annotation made by other models than the Engine's, unless AnnotationOptions.Reparse.
var ErrModels = errors.New("annotation made by other models (or another qsc's sentence splitting)")

// AnnotationOptions say what the annotated calls do with an annotation.
type AnnotationOptions struct {
	// Reparse analyses the text again, as the raw-text calls do, when the annotation was
	// made by other models (another tagger or parser file) than the Engine's. When false,
	// such an annotation is refused with an error wrapping ErrModels and ErrBadRequest.
	Reparse bool
}

// annotationTables are the tag and label tables of each pipeline (there is one pipeline
// per parser: default and accurate).
var annotationTables sync.Map // *pipeline.Pipeline → *annotation.Tables

// tables returns the Engine's tag and label tables.
func (e *Engine) tables() (*annotation.Tables, error) {
	if e.pipe == nil {
		return nil, errNoModels
	}
	if t, ok := annotationTables.Load(e.pipe); ok {
		return t.(*annotation.Tables), nil
	}
	t, err := annotation.NewTables(e.pipe.Tagger.Tags(), e.pipe.Parser.Labels())
	if err != nil {
		return nil, err
	}
	v, _ := annotationTables.LoadOrStore(e.pipe, t)
	return v.(*annotation.Tables), nil
}

// AnnotationModels returns the ids of the Engine's tagger and parser, as its annotations
// record them: the tagger's also identifies the rules that split text into tokens and
// sentences (tokenize.Version), so that an annotation of another build's splitting is one
// of other models (ErrModels), and is made again rather than read with the wrong
// sentences.
func (e *Engine) AnnotationModels() annotation.Models {
	if e.pipe == nil {
		return annotation.Models{} // the zero Engine has no models
	}
	return annotation.Models{Tagger: splitModelID(e.pipe.TaggerSum), Parser: annotation.NewModelID(e.pipe.ParserSum)}
}

// splitModelID is the id of an annotation's tagger: of the tagger file whose SHA-256 is
// sum, and of the rules that split the text into the tokens and sentences it tagged
// (tokenize.Version, and collect's pieces of maxPartBytes), since an annotation's
// sentences are theirs: one split by other rules is an annotation of other models.
func splitModelID(sum [32]byte) annotation.ModelID {
	h := sha256.New()
	h.Write(sum[:])
	fmt.Fprintf(h, "split %d %d", tokenize.Version, maxPartBytes)
	var s [32]byte
	h.Sum(s[:0])
	return annotation.NewModelID(s)
}

// AnnotationTables returns the names of the tag and label ids of the Engine's annotations:
// set them as Annotation.Tables to encode a self-contained annotation or to see names in
// its JSON form.
func (e *Engine) AnnotationTables() (*annotation.Tables, error) { return e.tables() }

// Annotate tokenizes, splits, tags and parses a document, as DoSnippets does, and returns
// its annotation, for SnippetsAnnotated. The text has the limits of DoSnippets (valid
// UTF-8, at most MaxDocumentBytes; errors wrap ErrBadRequest); a text with no words has an
// annotation with no sentences. Every sentence is parsed, however long (the snippet calls
// skip those over the method's limit). It runs on one goroutine: annotate documents in
// parallel for throughput.
func (e *Engine) Annotate(ctx context.Context, text string) (*annotation.Annotation, error) {
	var a annotation.Annotation
	if err := e.AnnotateTo(ctx, text, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// poolSentenceTokens is the longest sentence after which a worker goes back to the
// Engine's pool: four times the longest that any call compresses (MaxSentenceTokens).
const poolSentenceTokens = 4 * MaxSentenceTokens

// AnnotateTo is Annotate into a, reusing its memory.
func (e *Engine) AnnotateTo(ctx context.Context, text string, a *annotation.Annotation) error {
	if err := checkDocument(text); err != nil {
		return err
	}
	t, err := e.tables()
	if err != nil {
		return err
	}
	a.Reset(e.AnnotationModels(), text)
	w := e.pool.Get().(*worker)
	longest := 0
	defer func() {
		// A worker whose memory grew to a sentence far longer than any a snippet reads is
		// left to the garbage collector: kept in the pool, it would hold that memory (a
		// few hundred bytes a token) until two collections had passed.
		if longest <= poolSentenceTokens {
			e.pool.Put(w)
		}
	}()
	// The chunks and sentences of collect, which DoSnippets matches and compresses.
	for start := 0; start < len(text); {
		end := chunkEnd(text, start, chunkBytes)
		_, sents := appendSentences(nil, nil, text, start, end)
		for _, s := range sents {
			if err := ctx.Err(); err != nil {
				return err
			}
			longest = max(longest, len(s.Tokens))
			if err := e.annotateSentence(w, a, &s, start, t); err != nil {
				return fmt.Errorf("sentence %d: %w", a.Len()+1, err)
			}
		}
		start = end
	}
	return nil
}

// AnnotateSentence analyses text as one sentence, as Do and Compress take raw text, and
// returns its annotation (of one sentence), for CompressAnnotated. Its errors are those of
// Do for the text.
func (e *Engine) AnnotateSentence(ctx context.Context, text string) (*annotation.Annotation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.pipe == nil {
		return nil, errNoModels
	}
	s, err := sentenceOf(&Request{Text: text})
	if err != nil {
		return nil, err
	}
	t, err := e.tables()
	if err != nil {
		return nil, err
	}
	a := &annotation.Annotation{}
	a.Reset(e.AnnotationModels(), text)
	w := e.pool.Get().(*worker)
	defer e.pool.Put(w)
	if err := e.annotateSentence(w, a, s, 0, t); err != nil {
		return nil, err
	}
	return a, nil
}

// annotateSentence tags and parses s, whose offsets are relative to base, and adds it to a.
func (e *Engine) annotateSentence(w *worker, a *annotation.Annotation, s *syntax.Sentence, base int, t *annotation.Tables) error {
	if err := w.pw.Sentence(s, pipeline.Options{}); err != nil {
		return fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	for i := range s.Tokens {
		s.Tokens[i].Start += base
		s.Tokens[i].End += base
	}
	return a.AddSentence(s.Tokens, t)
}

// usable checks that ann can stand for text with this Engine: it reports false (and no
// error) when ann was made by other models and opts.Reparse asks to analyse the text
// again; the errors wrap ErrBadRequest.
func (e *Engine) usable(ann *annotation.Annotation, text string, opts AnnotationOptions) (bool, error) {
	if ann == nil {
		return false, fmt.Errorf("%w: no annotation", ErrBadRequest)
	}
	if err := ann.CheckText(text); err != nil {
		return false, fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	if m := e.AnnotationModels(); ann.Models != m {
		if opts.Reparse {
			return false, nil
		}
		return false, fmt.Errorf("%w: %w (%s; this engine has %s): annotate the text again, or ask to re-parse it",
			ErrBadRequest, ErrModels, ann.Models, m)
	}
	return true, nil
}

// SnippetsAnnotated is DoSnippets on req.Document with its annotation ann (from Annotate
// of the same text), with no tokenizing, tagging or parsing: byte for byte the snippets
// of DoSnippets when ann was made by the Engine's models. An annotation of another text
// (its length or CRC-32C differ) is an error wrapping ErrBadRequest and annotation.ErrText;
// one of other models is re-parsed or refused as opts says.
//
// Cost: a CRC-32C of the document (tens of GB/s), the materialization of its tokens as
// syntax.Tokens (substrings of the document, no copy), matching, and n compressions.
func (e *Engine) SnippetsAnnotated(ctx context.Context, req *SnippetRequest, ann *annotation.Annotation, opts AnnotationOptions) ([]Snippet, error) {
	if req == nil {
		return nil, errNilRequest
	}
	if e.pipe == nil {
		return nil, errNoModels
	}
	ok, err := e.usable(ann, req.Document, opts)
	if err != nil {
		return nil, err
	}
	if !ok {
		return e.DoSnippets(ctx, req)
	}
	t, err := e.tables()
	if err != nil {
		return nil, err
	}
	d := docPool.Get().(*annotatedDoc)
	*d = annotatedDoc{ann: ann, tables: t, toks: d.toks[:0], sents: d.sents[:0]}
	defer func() {
		clear(d.toks[:d.held]) // the forms would keep the document alive in the pool
		*d = annotatedDoc{toks: d.toks[:0], sents: d.sents[:0]}
		docPool.Put(d)
	}()
	sn, err := e.doSnippets(ctx, req, d)
	if d.err != nil {
		return nil, d.err
	}
	return sn, err
}

// docPool recycles the scratch memory of SnippetsAnnotated.
var docPool = sync.Pool{New: func() any { return new(annotatedDoc) }}

// CompressAnnotated is Do on req.Text with its annotation ann (from AnnotateSentence of
// the same text), with no tokenizing, tagging or parsing: the result of Do when ann was made
// by the Engine's models. The request gives its sentence as Text, with no Tokens or XPOS,
// and ann must have one sentence. An annotation of another text is an error wrapping
// ErrBadRequest and annotation.ErrText; one of other models is re-parsed or refused as
// opts says.
func (e *Engine) CompressAnnotated(ctx context.Context, req *Request, ann *annotation.Annotation, opts AnnotationOptions, explain bool) (*Result, error) {
	if req == nil {
		return nil, errNilRequest
	}
	if e.pipe == nil {
		return nil, errNoModels
	}
	if req.Tokens != nil || req.XPOS != nil {
		return nil, fmt.Errorf("%w: an annotated request gives its sentence as text, with no tokens or xpos", ErrBadRequest)
	}
	ok, err := e.usable(ann, req.Text, opts)
	if err != nil {
		return nil, err
	}
	if !ok {
		return e.Do(ctx, req, explain)
	}
	if ann.Len() != 1 {
		return nil, fmt.Errorf("%w: the annotation has %d sentences; a compression takes one (AnnotateSentence)", ErrBadRequest, ann.Len())
	}
	t, err := e.tables()
	if err != nil {
		return nil, err
	}
	var s syntax.Sentence
	if s.Tokens, err = ann.AppendSentence(nil, 0, req.Text, t); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	return e.do(ctx, req, &s, explain, nil)
}

// annotatedDoc is a document's annotation, the source of DoSnippets' sentences in place of
// the tokenizer, tagger and parser.
type annotatedDoc struct {
	ann    *annotation.Annotation
	tables *annotation.Tables
	next   int               // the first sentence not yet returned
	toks   []syntax.Token    // scratch: the tokens of one chunk
	held   int               // the most tokens toks has held for this document
	sents  []syntax.Sentence // scratch
	err    error             // the first error reading ann
}

// sentences returns the sentences of doc[start:end], one chunk of collect, with offsets
// relative to start: tokenized (not tagged or parsed) when q has no annotation, else
// tagged and parsed from it. The result is valid until the next call. An annotation that
// cannot be read stops the sentences and records its error in q.ann.err.
func (q *termQuery) sentences(doc string, start, end int) []syntax.Sentence {
	d := q.ann
	if d == nil {
		q.toks, q.sents = appendSentences(q.toks[:0], q.sents[:0], doc, start, end)
		return q.sents
	}
	d.toks, d.sents = d.toks[:0], d.sents[:0]
	for ; d.next < d.ann.Len() && d.err == nil; d.next++ {
		lo, _ := d.ann.Sentence(d.next)
		if int(d.ann.Start[lo]) >= end {
			break
		}
		n0 := len(d.toks)
		d.toks, d.err = d.ann.AppendSentence(d.toks, d.next, doc, d.tables)
		d.held = max(d.held, len(d.toks))
		if d.err != nil {
			d.err = fmt.Errorf("%w: %w", ErrBadRequest, d.err)
			return nil
		}
		for i := n0; i < len(d.toks); i++ {
			d.toks[i].Start -= start
			d.toks[i].End -= start
		}
		d.sents = append(d.sents, syntax.Sentence{Tokens: d.toks[n0:len(d.toks):len(d.toks)]})
	}
	return d.sents
}

// parsed reports whether s was tagged and parsed (from an annotation).
func parsed(s *syntax.Sentence) bool { return len(s.Tokens) > 0 && s.Tokens[0].Head != syntax.NoHead }
