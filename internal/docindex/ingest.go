package docindex

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/highlight"
	"github.com/qsc-nlp/qsc/internal/docfile"
	"github.com/qsc-nlp/qsc/internal/progress"
)

// IngestOptions configure Ingest and Add.
type IngestOptions struct {
	// Engine annotates each new or changed text (stored for the snippets); nil stores no
	// annotation, and snippets parse the text at search time.
	Engine *qsc.Engine
	// Reject is called with each rejected record, in input order; nil ignores them (they
	// are counted in Summary.Rejected).
	Reject func(*docfile.RecordError)
	// Progress, when not nil, counts the records read.
	Progress *progress.Bar
	// Workers annotate in parallel (0: GOMAXPROCS).
	Workers int
}

// Summary counts what an ingestion did with its records.
type Summary struct {
	// Added are new ids; Updated ids whose content (or annotating models) changed;
	// Unchanged ids already in the index with the same content hash, skipped; Rejected
	// records were reported and skipped.
	Added, Updated, Unchanged, Rejected int
}

// String is the summary line: "12 added, 0 updated, 3 unchanged, 1 rejected".
func (s Summary) String() string {
	return fmt.Sprintf("%d added, %d updated, %d unchanged, %d rejected", s.Added, s.Updated, s.Unchanged, s.Rejected)
}

// Ingest adds the documents of path to the index: a JSON-lines file (.jsonl, or .jsonl.gz;
// one {"id", "title", "text", "url"} object a line, title and url optional) or a folder
// of .txt and .md files (searched recursively, hidden names skipped; the id is the file's
// path relative to the folder, with "/", the title its first non-empty line, or its name).
// A document whose id is in the index with the same content is skipped; one with other
// content replaces it. A bad record (malformed JSON, a missing id or text, an unreadable
// or non-UTF-8 file, a duplicate id…) is reported to opts.Reject and skipped; the error is
// for faults that stop the whole ingestion (an unreadable input, a failing index).
func (x *Index) Ingest(ctx context.Context, path string, opts IngestOptions) (Summary, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Summary{}, err
	}
	g := x.newIngester(opts)
	if fi.IsDir() {
		err = docfile.ScanDir(path, g.take(ctx))
	} else {
		err = docfile.ScanFile(path, g.take(ctx))
	}
	if err == nil {
		err = g.flush(ctx)
	}
	return g.sum, err
}

// Add adds docs to the index as Ingest adds the records of a file ("name:i" for the i-th
// document in errors).
func (x *Index) Add(ctx context.Context, name string, docs []docfile.Doc, opts IngestOptions) (Summary, error) {
	g := x.newIngester(opts)
	take := g.take(ctx)
	for i, d := range docs {
		if err := take(docfile.Record{Doc: d, Where: fmt.Sprintf("%s:%d", name, i+1)}); err != nil {
			return g.sum, err
		}
	}
	err := g.flush(ctx)
	return g.sum, err
}

// chunk is the number of documents annotated in parallel and indexed in one batch.
const chunk = 128

type ingester struct {
	x       *Index
	opts    IngestOptions
	models  string            // of opts.Engine, in the content hash
	seen    map[string]string // id → where it was first read
	pending []docfile.Record
	sum     Summary
}

func (x *Index) newIngester(opts IngestOptions) *ingester {
	g := &ingester{x: x, opts: opts, seen: map[string]string{}, models: "none"}
	if opts.Engine != nil {
		g.models = opts.Engine.AnnotationModels().String()
	}
	if g.opts.Workers <= 0 {
		g.opts.Workers = runtime.GOMAXPROCS(0)
	}
	return g
}

func (g *ingester) reject(where string, err error) {
	g.sum.Rejected++
	if g.opts.Reject != nil {
		g.opts.Reject(&docfile.RecordError{Where: where, Err: err})
	}
}

// take returns the function that takes each record of a source.
func (g *ingester) take(ctx context.Context) func(docfile.Record) error {
	return func(r docfile.Record) error {
		g.opts.Progress.Add(1)
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.Err == nil {
			r.Err = docfile.Check(&r.Doc)
		}
		if r.Err == nil {
			if first, dup := g.seen[r.Doc.ID]; dup {
				r.Err = fmt.Errorf("duplicate id %q (first at %s)", r.Doc.ID, first)
			}
		}
		if r.Err != nil {
			g.reject(r.Where, r.Err)
			return nil
		}
		g.seen[r.Doc.ID] = r.Where
		g.pending = append(g.pending, r)
		if len(g.pending) >= chunk {
			return g.flush(ctx)
		}
		return nil
	}
}

// hashKey is the internal key of a document's content hash.
func hashKey(id string) []byte { return []byte("hash\x00" + id) }

// hash is the content hash of d as indexed with models: it changes when any field or the
// annotating models change.
func hash(d *docfile.Doc, models string) string {
	h := sha256.New()
	for _, s := range []string{d.Title, d.Text, d.URL, models} {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// flush annotates and indexes the pending records that are new or changed, in one batch.
func (g *ingester) flush(ctx context.Context) error {
	if len(g.pending) == 0 {
		return nil
	}
	type job struct {
		r      docfile.Record
		hash   string
		update bool
		fields map[string]any
		err    error
	}
	var jobs []*job
	for _, r := range g.pending {
		h := hash(&r.Doc, g.models)
		old, err := g.x.idx.GetInternal(hashKey(r.Doc.ID))
		if err != nil {
			return fmt.Errorf("document index: %w", err)
		}
		if string(old) == h {
			g.sum.Unchanged++
			continue
		}
		fields := map[string]any{fieldTitle: r.Doc.Title, fieldText: r.Doc.Text}
		if r.Doc.URL != "" {
			fields[fieldURL] = r.Doc.URL
		}
		jobs = append(jobs, &job{r: r, hash: h, update: old != nil, fields: fields})
	}
	g.pending = g.pending[:0]
	if g.opts.Engine != nil {
		eg, ectx := errgroup.WithContext(ctx)
		eg.SetLimit(g.opts.Workers)
		for _, j := range jobs {
			eg.Go(func() error {
				j.err = highlight.AddAnnotations(ectx, g.opts.Engine, j.fields, fieldText)
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return nil
			})
		}
		if err := eg.Wait(); err != nil {
			return err
		}
	}
	b := g.x.idx.NewBatch()
	for _, j := range jobs {
		if j.err != nil {
			g.reject(j.r.Where, fmt.Errorf("annotating the text: %w", j.err))
			continue
		}
		if err := b.Index(j.r.Doc.ID, j.fields); err != nil {
			g.reject(j.r.Where, err)
			continue
		}
		b.SetInternal(hashKey(j.r.Doc.ID), []byte(j.hash))
		if j.update {
			g.sum.Updated++
		} else {
			g.sum.Added++
		}
	}
	if err := g.x.idx.Batch(b); err != nil {
		return fmt.Errorf("document index: %w", err)
	}
	return nil
}

// FromDocs returns an index in memory of docs, annotated by eng (nil: no annotations, and
// snippets parse the texts at search time). A bad document (docfile.Check), or an id seen
// twice, is an error.
func FromDocs(ctx context.Context, eng *qsc.Engine, docs []docfile.Doc) (*Index, error) {
	x, err := NewMemory()
	if err != nil {
		return nil, err
	}
	var bad error
	_, err = x.Add(ctx, "document", docs, IngestOptions{Engine: eng, Reject: func(e *docfile.RecordError) {
		if bad == nil {
			bad = e
		}
	}})
	if err == nil {
		err = bad
	}
	if err != nil {
		x.Close()
		return nil, fmt.Errorf("document index: %w", err)
	}
	return x, nil
}
