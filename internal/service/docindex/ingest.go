package docindex

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"golang.org/x/sync/errgroup"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/highlight"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/markdown"
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
	// Report, when not nil, is called with the outcome of each record: at once for a
	// rejected one, after its batch is committed for the others, so that Added and
	// Updated are reported only for documents that a crash can no longer lose (for an
	// index on disk). Records come in input order within a batch; a rejection found while
	// reading (malformed JSON, a missing id) may come before the outcomes of the records
	// read earlier.
	Report func(Report)
	// Gate, when not nil, is called before each text is annotated, and the function it
	// returns after: the server gives each annotation a turn of its admission queue this
	// way, so that an ingest does not take the cores from the searches. An error stops the
	// ingestion.
	Gate func(context.Context) (release func(), err error)
	// BaseURL, for Ingest of a folder, is the address of its documents, so that a result
	// links to the page its file is published as (publishedURL). A document without a URL
	// gets BaseURL followed by its id, its path in the folder, each segment escaped and a
	// Markdown file's extension dropped, as static site generators publish it
	// (billing/refunds.md at billing/refunds; index.md, README.md and _index.md at their
	// folder's address); when BaseURL holds "{path}", that is replaced by the path as it
	// is, extension and all (a repository browser's
	// https://github.com/org/repo/blob/main/docs/{path}). A file that names its own
	// address (docfile.Record.Link: the url, permalink or slug of Markdown front matter,
	// an HTML page's canonical link) is published there, a path resolved against its
	// address under BaseURL (a repository browser's takes an absolute address only).
	// BaseURL is an absolute http or https URL: a folder's address (a "/" is added
	// when its path does not end with one), or one with "{path}".
	BaseURL string
	// Source marks the records as those of the server's own source of documents (qsc
	// serve --docs), read again at each start. The index remembers the content the
	// source gave for each id, and a record with that content is unchanged even when the
	// document API has replaced or deleted the document since: it stays as the API left
	// it (Summary.Kept), until the source's content for the id changes, which then
	// replaces it. Without Source (the document API), a record replaces a document whose
	// content differs, whoever wrote it. A Source ingestion that reads its whole input
	// also removes the documents the source gave before and no longer holds, a file
	// deleted or renamed (Summary.Removed), unless the document API has replaced them
	// since: those stay, the API's.
	Source bool
}

// Outcome is what an ingestion did with one record.
type Outcome int

// The outcomes of a record.
const (
	// Added: a new id, committed.
	Added Outcome = iota + 1
	// Updated: an id whose content (or annotating models) changed, replaced, committed.
	Updated
	// Unchanged: an id already in the index with the same content, skipped.
	Unchanged
	// Rejected: a bad record, skipped (Report.Err says why).
	Rejected
)

// String is the outcome's name: "added", "updated", "unchanged" or "rejected".
func (o Outcome) String() string {
	switch o {
	case Added:
		return "added"
	case Updated:
		return "updated"
	case Unchanged:
		return "unchanged"
	case Rejected:
		return "rejected"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Report is the outcome of one record of an ingestion.
type Report struct {
	// Seq is the record's position in the input, from 0.
	Seq int
	// Where is the record's place in the input (file:line, a path, a name:i).
	Where string
	// ID is the document's id ("" when the record has none, or could not be read).
	ID      string
	Outcome Outcome
	// Err says why a record was rejected; nil for the other outcomes.
	Err error
	// Note warns of how a file was read (docfile.Record.Note); "" for the others.
	Note string
	// Ignored names the record's fields that a document does not have, passed over
	// (docfile.Record.Ignored).
	Ignored []string
}

// Summary counts what an ingestion did with its records.
type Summary struct {
	// Added are new ids; Updated ids whose content (or annotating models) changed;
	// Unchanged ids already in the index with the same content hash, skipped; Rejected
	// records were reported and skipped.
	Added, Updated, Unchanged, Rejected int
	// Kept counts the Unchanged records of a Source ingestion whose document the
	// document API has replaced or deleted since the source gave that content: left as
	// the API left them.
	Kept int
	// Removed counts the documents of a Source ingestion's earlier input that its input
	// no longer holds (a file deleted or renamed), removed from the index; RemovedFirst
	// names the first of them by id. An input that gives no record removes nothing.
	Removed      int
	RemovedFirst string
	// Ignored names the fields of JSON-lines records that a document does not have,
	// passed over (docfile.Record.Ignored), sorted and joined by ", "; IgnoredAt is the
	// first record that had one.
	Ignored, IgnoredAt string
}

// String is the summary line: "12 added, 0 updated, 3 unchanged, 1 rejected", and ", 2
// kept as the document API left them" when Kept is not 0.
func (s Summary) String() string {
	line := fmt.Sprintf("%d added, %d updated, %d unchanged, %d rejected", s.Added, s.Updated, s.Unchanged, s.Rejected)
	if s.Kept > 0 {
		line += fmt.Sprintf(", %d kept as the document API left them", s.Kept)
	}
	if s.Removed > 0 {
		line += fmt.Sprintf(", %d removed (no longer in the source)", s.Removed)
	}
	return line
}

// Ingest adds the documents of path to the index (docfile.Scan): a JSON-lines file
// (.jsonl, or .jsonl.gz; one {"id", "title", "text", "url"} object a line, title and url
// optional), a folder of .txt, .md and .html files (docfile.IsDocFile; searched
// recursively, hidden names skipped; the id is the file's path relative to the folder,
// with "/", the title as docfile reads it, or its name), or one such file (its name the
// id).
// A document whose id is in the index with the same content is skipped; one with other
// content replaces it. A bad record (malformed JSON, a missing id or text, an unreadable
// or non-UTF-8 file, a second record of an id with other content…) is reported to
// opts.Reject and skipped, and an exact repeat of a record counts as unchanged; the error is
// for faults that stop the whole ingestion (an unreadable input, a failing index).
//
// Documents are committed in batches of 128 (each visible to searches, and on disk,
// once its batch is committed), so an ingestion that stops midway keeps the batches
// committed before, and ingesting the same input again skips them.
func (x *Index) Ingest(ctx context.Context, path string, opts IngestOptions) (Summary, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Summary{}, err
	}
	base := ""
	if fi.IsDir() {
		base = opts.BaseURL
	}
	return x.IngestScan(ctx, func(fn func(docfile.Record) error) error {
		return docfile.Scan(path, func(r docfile.Record) error {
			if r.Err == nil && r.Doc.URL == "" {
				r.Doc.URL = publishedURL(base, r.Doc.ID, r.Link)
			}
			return fn(r)
		})
	}, opts)
}

// publishedURL returns the address of the folder document id, published under base
// (IngestOptions.BaseURL), whose file names its own address link ("" when it does not):
// link resolved against the document's address under base when base is set, else link
// when it is absolute; "" when neither gives one.
func publishedURL(base, id, link string) string {
	if i := strings.LastIndexByte(id, '#'); i > 0 && isDigits(id[i+1:]) && docfile.IsDocFile(path.Base(id[:i])) {
		id = id[:i] // a part of a long file ("notes.md#2", docfile.readDocFile): the file's
	}
	if base == "" {
		if u, err := url.Parse(link); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return link
		}
		return ""
	}
	before, after, repo := strings.Cut(base, "{path}")
	if !repo && !strings.HasSuffix(base, "/") {
		base += "/" // the folder's address, as written without its slash
	}
	addr := base + sitePath(id)
	if repo {
		addr = before + urlPath(id) + after
	}
	if link == "" {
		return addr
	}
	if repo {
		// A repository browser's address: a site's path (front matter's, a slug) is not
		// one of its own, an absolute address still is.
		return cmp.Or(publishedURL("", id, link), addr)
	}
	b, errB := url.Parse(addr)
	l, errL := url.Parse(link)
	if errB != nil || errL != nil {
		return addr
	}
	if r := b.ResolveReference(l); r.Scheme == "http" || r.Scheme == "https" {
		return r.String()
	}
	return addr
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// sitePath returns the path, under a site's base address, of the page a folder document
// id is published as: urlPath(id), a Markdown file's extension dropped, and an index.md,
// README.md or _index.md its folder's path ("" at the top), as static site generators
// (Hugo, Jekyll, Docusaurus, MkDocs) publish them.
func sitePath(id string) string {
	if !markdown.IsFile(id) {
		return urlPath(id)
	}
	dir, name := path.Split(id)
	switch stem := strings.TrimSuffix(name, path.Ext(name)); strings.ToLower(stem) {
	case "index", "readme", "_index":
		return urlPath(dir)
	default:
		return urlPath(dir + stem)
	}
}

// urlPath escapes each "/"-separated segment of a folder document's id for a URL path.
func urlPath(id string) string {
	segs := strings.Split(id, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// IngestScan adds the records that scan passes to its function, as Ingest adds those of
// a file: scan is docfile.ScanFile, ScanDir or ScanLines over some input, bound to it.
func (x *Index) IngestScan(ctx context.Context, scan func(func(docfile.Record) error) error, opts IngestOptions) (Summary, error) {
	g := x.newIngester(opts)
	err := scan(g.take(ctx))
	if err == nil {
		err = g.flush(ctx)
	}
	if err == nil && opts.Source && len(g.present) > 0 {
		// A source that gave no record at all (an empty folder, a volume not mounted yet)
		// removes nothing: losing every document is never what a restart means.
		g.sum.Removed, g.sum.RemovedFirst, err = g.prune(ctx)
	}
	slices.Sort(g.ignored)
	g.sum.Ignored = strings.Join(g.ignored, ", ")
	return g.sum, err
}

// Add adds docs to the index as Ingest adds the records of a file ("name:i" for the i-th
// document in errors).
func (x *Index) Add(ctx context.Context, name string, docs []docfile.Doc, opts IngestOptions) (Summary, error) {
	return x.IngestScan(ctx, func(take func(docfile.Record) error) error {
		for i, d := range docs {
			if err := take(docfile.Record{Doc: d, Where: fmt.Sprintf("%s:%d", name, i+1)}); err != nil {
				return err
			}
		}
		return nil
	}, opts)
}

// Delete removes the document with id, and reports whether there was one. The removal is
// committed (on disk, for an index on disk) when Delete returns.
func (x *Index) Delete(id string) (bool, error) {
	x.write.Lock()
	defer x.write.Unlock()
	d, err := x.idx.Document(id)
	if err != nil {
		return false, fmt.Errorf("document %q: %w", id, err)
	}
	h, err := x.idx.GetInternal(hashKey(id))
	if err != nil {
		return false, fmt.Errorf("document %q: %w", id, err)
	}
	if d == nil && h == nil {
		return false, nil
	}
	b := x.idx.NewBatch()
	b.Delete(id)
	b.DeleteInternal(hashKey(id))
	if err := x.commit(b); err != nil {
		return false, fmt.Errorf("document index: %w", err)
	}
	return true, nil
}

// chunk is the number of documents annotated in parallel and indexed in one batch.
const chunk = 128

type ingester struct {
	x       *Index
	opts    IngestOptions
	models  string             // of opts.Engine, in the content hash
	seen    map[string]seenDoc // id → where it was first read, and its content hash
	present map[string]bool    // every id a record named, rejected or not (prune)
	pending []pending
	seq     int // records taken
	sum     Summary
	ignored []string // sum.Ignored's names
}

// pending is a record taken and not yet flushed, with its position in the input and its
// content hash (hash).
type pending struct {
	r    docfile.Record
	seq  int
	hash string
}

// seenDoc is where an id was first read in an ingestion, and its content hash then.
type seenDoc struct{ where, hash string }

func (x *Index) newIngester(opts IngestOptions) *ingester {
	g := &ingester{x: x, opts: opts, seen: map[string]seenDoc{}, present: map[string]bool{}, models: "none"}
	if opts.Engine != nil {
		g.models = opts.Engine.AnnotationModels().String()
	}
	if g.opts.Workers <= 0 {
		g.opts.Workers = runtime.GOMAXPROCS(0)
	}
	return g
}

func (g *ingester) reject(seq int, r *docfile.Record, err error) {
	g.sum.Rejected++
	if g.opts.Reject != nil {
		g.opts.Reject(&docfile.RecordError{Where: r.Where, Err: err})
	}
	g.report(Report{Seq: seq, Where: r.Where, ID: r.Doc.ID, Outcome: Rejected, Err: err})
}

// done counts the outcome o of a record that was not rejected, and reports it.
func (g *ingester) done(p *pending, o Outcome) {
	switch o {
	case Added:
		g.sum.Added++
	case Updated:
		g.sum.Updated++
	case Unchanged:
		g.sum.Unchanged++
	}
	g.report(Report{Seq: p.seq, Where: p.r.Where, ID: p.r.Doc.ID, Outcome: o, Note: p.r.Note, Ignored: p.r.Ignored})
}

func (g *ingester) report(r Report) {
	if g.opts.Report != nil {
		g.opts.Report(r)
	}
}

// take returns the function that takes each record of a source.
func (g *ingester) take(ctx context.Context) func(docfile.Record) error {
	return func(r docfile.Record) error {
		g.opts.Progress.Add(1)
		if err := ctx.Err(); err != nil {
			return err
		}
		seq := g.seq
		g.seq++
		if r.Doc.ID != "" {
			g.present[r.Doc.ID] = true
		}
		for _, f := range r.Ignored {
			if !slices.Contains(g.ignored, f) {
				if g.sum.IgnoredAt == "" {
					g.sum.IgnoredAt = r.Where
				}
				g.ignored = append(g.ignored, f)
			}
		}
		if r.Err == nil {
			r.Err = docfile.Check(&r.Doc)
		}
		var h string
		if r.Err == nil {
			h = hash(&r.Doc, g.models)
			if first, dup := g.seen[r.Doc.ID]; dup && first.hash == h {
				// An exact repeat (a line copied twice): nothing to reject or add.
				g.done(&pending{r: r, seq: seq, hash: h}, Unchanged)
				return nil
			} else if dup {
				r.Err = fmt.Errorf("duplicate id %q with other content (first at %s, which is kept)", r.Doc.ID, first.where)
			}
		}
		if r.Err != nil {
			g.reject(seq, &r, r.Err)
			return nil
		}
		g.seen[r.Doc.ID] = seenDoc{r.Where, h}
		g.pending = append(g.pending, pending{r: r, seq: seq, hash: h})
		if len(g.pending) >= chunk {
			return g.flush(ctx)
		}
		return nil
	}
}

// pruneBatch is the number of document ids prune reads in one search.
const pruneBatch = 1000

// prune removes, after a Source ingestion that read its whole input, the documents that
// an earlier one gave (their sourceKey is set) and that this input no longer names (a
// file deleted or renamed): those whose content is still the source's; one the document
// API has replaced since stays, the API's, and loses its sourceKey. It returns how many
// it removed and the first of them. It reads every id of the index, in pages of
// pruneBatch sorted by id.
func (g *ingester) prune(ctx context.Context) (removed int, first string, err error) {
	var gone []string
	after := ""
	for {
		if err := ctx.Err(); err != nil {
			return 0, "", err
		}
		req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), pruneBatch, 0, false)
		req.SortBy([]string{"_id"})
		if after != "" {
			req.SearchAfter = []string{after}
		}
		res, err := g.x.idx.SearchInContext(ctx, req)
		if err != nil {
			return 0, "", fmt.Errorf("document index: %w", err)
		}
		for _, h := range res.Hits {
			if !g.present[h.ID] {
				gone = append(gone, h.ID)
			}
		}
		if len(res.Hits) < pruneBatch {
			break
		}
		after = res.Hits[len(res.Hits)-1].ID
	}
	if len(gone) == 0 {
		return 0, "", nil
	}
	g.x.write.Lock()
	defer g.x.write.Unlock()
	b := g.x.idx.NewBatch()
	for _, id := range gone {
		src, err := g.x.idx.GetInternal(sourceKey(id))
		if err != nil {
			return 0, "", fmt.Errorf("document index: %w", err)
		}
		if src == nil {
			continue // the document API's own
		}
		h, err := g.x.idx.GetInternal(hashKey(id))
		if err != nil {
			return 0, "", fmt.Errorf("document index: %w", err)
		}
		b.DeleteInternal(sourceKey(id))
		if string(h) != string(src) {
			continue // replaced by the document API since: its document now
		}
		b.Delete(id)
		b.DeleteInternal(hashKey(id))
		if removed++; first == "" {
			first = id
		}
	}
	if b.Size() == 0 {
		return 0, "", nil
	}
	if err := g.x.commit(b); err != nil {
		return 0, "", fmt.Errorf("document index: %w", err)
	}
	return removed, first, nil
}

// hashKey is the internal key of a document's content hash.
func hashKey(id string) []byte { return []byte("hash\x00" + id) }

// sourceKey is the internal key of the content hash that a Source ingestion last gave
// an id (IngestOptions.Source). Delete leaves it: it is what keeps a document the API
// deleted from coming back at the next start.
func sourceKey(id string) []byte { return []byte("src\x00" + id) }

// state is what the index holds for a record of id with content hash h: the stored hash
// of the document (nil when none), whether the record is unchanged, and, for a Source
// ingestion, whether the source's memory of the id must be recorded (an index written
// before it had one, or a document the API wrote with the source's content).
func (g *ingester) state(id, h string) (old []byte, unchanged, remember bool, err error) {
	if old, err = g.x.idx.GetInternal(hashKey(id)); err != nil {
		return nil, false, false, fmt.Errorf("document index: %w", err)
	}
	if !g.opts.Source {
		return old, string(old) == h, false, nil
	}
	src, err := g.x.idx.GetInternal(sourceKey(id))
	if err != nil {
		return nil, false, false, fmt.Errorf("document index: %w", err)
	}
	if src != nil {
		return old, string(src) == h, false, nil
	}
	return old, string(old) == h, string(old) == h, nil
}

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
//
// The texts are annotated first, in parallel and without a lock, for the records whose
// stored hash differs from theirs. Then, holding the index's write lock, each record's
// stored hash is read again and the batch is built and committed: another writer may have
// committed the same id meanwhile, and the outcome (added, updated or unchanged) is the one
// against the index as the batch finds it. Writers commit one at a time, so two
// ingestions of the same id never interleave within a batch: the last committed wins, and
// the document and its hash always come from the same batch.
func (g *ingester) flush(ctx context.Context) error {
	if len(g.pending) == 0 {
		return nil
	}
	type job struct {
		p      *pending
		hash   string
		fields map[string]any // nil: unchanged when read, not annotated
		err    error
	}
	jobs := make([]*job, len(g.pending))
	var annotate []*job
	for i := range g.pending {
		p := &g.pending[i]
		j := &job{p: p, hash: p.hash}
		jobs[i] = j
		_, unchanged, _, err := g.state(p.r.Doc.ID, j.hash)
		if err != nil {
			return err
		}
		if !unchanged {
			j.fields = g.fields(&p.r.Doc)
			annotate = append(annotate, j)
		}
	}
	defer func() { g.pending = g.pending[:0] }()
	if g.opts.Engine != nil {
		eg, ectx := errgroup.WithContext(ctx)
		eg.SetLimit(g.opts.Workers)
		for _, j := range annotate {
			if !annotated(j.fields) {
				continue
			}
			eg.Go(func() error {
				if g.opts.Gate != nil {
					release, err := g.opts.Gate(ectx)
					if err != nil {
						return err
					}
					defer release()
				}
				j.err = highlight.AddAnnotations(ectx, g.opts.Engine, j.fields, fieldText)
				return ctx.Err()
			})
		}
		if err := eg.Wait(); err != nil {
			return err
		}
	}

	g.x.write.Lock()
	defer g.x.write.Unlock()
	outcome := make([]Outcome, len(jobs))
	b := g.x.idx.NewBatch()
	for i, j := range jobs {
		id := j.p.r.Doc.ID
		old, unchanged, remember, err := g.state(id, j.hash)
		if err != nil {
			return err
		}
		if unchanged {
			outcome[i] = Unchanged
			if remember {
				b.SetInternal(sourceKey(id), []byte(j.hash))
			}
			if string(old) != j.hash {
				g.sum.Kept++
			}
			continue
		}
		if j.fields == nil { // changed by another writer since it was read: annotate it now
			j.fields = g.fields(&j.p.r.Doc)
			if g.opts.Engine != nil && annotated(j.fields) {
				j.err = highlight.AddAnnotations(ctx, g.opts.Engine, j.fields, fieldText)
				if err := ctx.Err(); err != nil {
					return err
				}
			}
		}
		if j.err != nil {
			outcome[i] = Rejected
			j.err = fmt.Errorf("annotating the text: %w", j.err)
			continue
		}
		if err := b.Index(id, j.fields); err != nil {
			outcome[i], j.err = Rejected, err
			continue
		}
		b.SetInternal(hashKey(id), []byte(j.hash))
		if g.opts.Source {
			b.SetInternal(sourceKey(id), []byte(j.hash))
		}
		outcome[i] = Added
		if old != nil {
			outcome[i] = Updated
		}
	}
	var added []string
	for i, j := range jobs {
		if outcome[i] == Added || outcome[i] == Updated {
			lang, _ := j.fields[fieldLang].(string)
			added = append(added, langSuffix(lang))
		}
	}
	langs, grew := g.x.langs.with(added)
	if grew {
		b.SetInternal([]byte(langsKey), []byte(strings.Join(langs, ",")))
	}
	if b.Size() > 0 {
		if err := g.x.commit(b); err != nil {
			return fmt.Errorf("document index: %w", err)
		}
	}
	if grew {
		g.x.langs.p.Store(&langs)
	}
	for i, j := range jobs {
		if outcome[i] == Rejected {
			g.reject(j.p.seq, &j.p.r, j.err)
		} else {
			g.done(j.p, outcome[i])
		}
	}
	return nil
}

// fields are the indexed fields of d, before its annotation: with its language, and the
// fields of that language when it is not English (lang.go).
func (g *ingester) fields(d *docfile.Doc) map[string]any {
	fields := map[string]any{fieldTitle: d.Title, fieldText: d.Text}
	if d.URL != "" {
		fields[fieldURL] = d.URL
	}
	addLanguage(fields, d.Title, d.Text)
	return fields
}

// annotated reports whether the fields of a document are to be annotated: an English
// document's (an annotation holds the English pipeline's reading, which the snippets of
// another language do not use).
func annotated(fields map[string]any) bool {
	lang, _ := fields[fieldLang].(string)
	return langSuffix(lang) == ""
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
