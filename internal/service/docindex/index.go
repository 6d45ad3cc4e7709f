// Package docindex is the searchable document collection behind `qsc serve`: a bleve
// (scorch) full-text index of documents {id, title, text, url}, on disk so that it survives
// restarts (Open), or in memory (NewMemory, for the embedded demo collection).
//
// Each document stores its title, text and URL, a hash of its content (for incremental
// ingestion: Ingest skips a document whose id and hash are already in the index) and the
// annotation of its text (package annotation, through highlight.AddAnnotations): the
// sentences, tags and trees that snippets are made from, so that search snippets come from
// the stored annotation and not from parsing the text again (Index.Snippets).
//
// Words are Unicode words, lower-cased, and reduced to the key that the query matcher
// (internal/core/match) compares words by: "arrests" and "arrested",
// "Zurich" and "Zürich" are one term. So the documents a search finds are the documents
// whose sentences the snippets can mark. A document in another language is indexed too
// with the words and keys of that language's snippets (lang.go: "Steuer" finds
// "Steuern", 税金 is found inside 税金を). Queries use bleve's query-string syntax
// (Index.Search): words, "phrases", +must, -not, field:word, lang:de. English stop words
// are indexed, for phrases ("not to be"), and left out of a query's loose words, which
// they would otherwise find in nearly every document; a query of stop words alone is
// their phrase ("to be or not to be", "The Who").
package docindex

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/highlight"
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
)

// Fields of an indexed document.
const (
	fieldTitle = "title"
	fieldText  = "text"
	fieldURL   = "url"
)

// Names in bleve's registry: the index's analyzers and its token filter. The index's
// title and text (and _all) are analyzed with allWordsAnalyzer, which keeps English stop
// words, so that a phrase of common words ("not to be") can be found, and adds the words
// inside an address or a dotted name (partsTokenizer); a search's loose words are
// analyzed with analyzerName, which drops stop words (Index.words), and its phrases with
// phraseAnalyzer, which keeps them (Index.queryAnalyzers); neither adds the parts.
// Indexes made before allWordsAnalyzer have analyzerName as their default and for
// everything: they hold no stop words and no parts.
const (
	analyzerName     = "qsc_en"
	allWordsAnalyzer = "qsc_en_all"
	phraseAnalyzer   = "qsc_en_phrase"
	keyFilter        = "qsc_match_key"
)

// formatVersion is stored in every on-disk index; an index of another version is refused,
// since its mapping or its stored fields would not be those this code reads.
const (
	versionKey    = "qsc.docindex.version"
	formatVersion = "2" // 2: the fields of other languages (lang.go)
)

func init() {
	if err := registry.RegisterTokenFilter(keyFilter, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return keyTokenFilter{}, nil
	}); err != nil {
		panic(err) // a second registration: a programming error
	}
}

// keyTokenFilter replaces each term by its match.Key.
type keyTokenFilter struct{}

func (keyTokenFilter) Filter(ts analysis.TokenStream) analysis.TokenStream {
	for _, t := range ts {
		t.Term = []byte(match.Key(string(t.Term)))
	}
	return ts
}

// Index is a searchable collection. It is safe for concurrent use: searches run while
// documents are written, and see each batch of writes once it is committed; writes (the
// batches of Ingest, IngestScan and Add, and Delete) are committed one at a time.
//
// An index on disk commits each batch durably: bleve's scorch index returns from a batch
// only after its segment file and its root (bolt) file are written and synced (fsync), so
// that what a write has reported survives a crash of the process (kill -9).
type Index struct {
	idx  bleve.Index
	path string // "" in memory
	// analyzer gives the terms of a search's phrases, and wordAnalyzer (analyzerName,
	// without English stop words) those of its loose words. stopsIndexed says that the
	// index holds stop words and the parts of addresses (allWordsAnalyzer), and that
	// analyzer is phraseAnalyzer; in an index made before, both are analyzerName.
	analyzer, wordAnalyzer analysis.Analyzer
	stopsIndexed           bool
	langs                  langSet  // the suffixes of the language fields of the documents held
	hls                    sync.Map // *qsc.Engine → *highlight.Highlighter
	// write is held while a batch is checked against the stored hashes and committed.
	write sync.Mutex
	// fault is the error of the last commit when it failed (nil once one succeeds):
	// Fault.
	fault atomic.Pointer[error]
}

// commit commits b and records its outcome for Fault.
func (x *Index) commit(b *bleve.Batch) error {
	err := x.idx.Batch(b)
	if err != nil {
		x.fault.Store(&err)
	} else {
		x.fault.Store(nil)
	}
	return err
}

// docsKey is the internal key of the path of a --docs ingest begun and not finished.
const docsKey = "qsc.docindex.docs_ingest"

// BeginDocs records that an ingest of path (a --docs folder or file) begins, so that an
// index opened after it stopped midway can say so (UnfinishedDocs). The record is on
// disk when BeginDocs returns. It is a commit: a failure is the index's Fault.
func (x *Index) BeginDocs(path string) error {
	b := x.idx.NewBatch()
	b.SetInternal([]byte(docsKey), []byte(path))
	return x.commit(b)
}

// EndDocs records that the ingest BeginDocs recorded finished. It is a commit, as
// BeginDocs is.
func (x *Index) EndDocs() error {
	b := x.idx.NewBatch()
	b.DeleteInternal([]byte(docsKey))
	return x.commit(b)
}

// UnfinishedDocs returns the path of an ingest that BeginDocs recorded and EndDocs did
// not (a server stopped or killed while it ran), or "".
func (x *Index) UnfinishedDocs() string {
	v, err := x.idx.GetInternal([]byte(docsKey))
	if err != nil {
		return ""
	}
	return string(v)
}

// Fault returns the error of the index's last commit when it failed (a full disk, a
// directory removed under it), nil when it succeeded or none was made. After a failed
// commit bleve may fail searches too, until a commit succeeds (space freed) or the
// index is opened again: the server's readiness says so.
func (x *Index) Fault() error {
	if p := x.fault.Load(); p != nil {
		return *p
	}
	return nil
}

// newMapping returns the index mapping: title and text indexed (and in the composite
// field "_all" that queries without a field search), title, text and URL stored, the
// text's annotation stored (highlight.MapAnnotation). The content hashes of Ingest are
// in the index's internal store, beside the documents.
func newMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	for _, a := range []struct {
		name, tokenizer string
		filters         []any
	}{
		{analyzerName, hyphenTokenizerName, []any{lowercase.Name, en.StopName, keyFilter}},
		{allWordsAnalyzer, partsTokenizerName, []any{lowercase.Name, keyFilter}},
		{phraseAnalyzer, hyphenTokenizerName, []any{lowercase.Name, keyFilter}},
	} {
		if err := im.AddCustomAnalyzer(a.name, map[string]any{"type": custom.Name, "tokenizer": a.tokenizer, "token_filters": a.filters}); err != nil {
			return nil, err
		}
	}
	im.DefaultAnalyzer = allWordsAnalyzer
	dm := bleve.NewDocumentStaticMapping()
	for _, f := range []string{fieldTitle, fieldText} {
		fm := mapping.NewTextFieldMapping()
		fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = true, true, true, false
		dm.AddFieldMappingsAt(f, fm)
	}
	um := mapping.NewTextFieldMapping()
	um.Index, um.Store = false, true
	um.IncludeInAll, um.IncludeTermVectors, um.DocValues = false, false, false
	dm.AddFieldMappingsAt(fieldURL, um)
	highlight.MapAnnotation(dm, fieldText)
	if err := mapLanguages(im, dm); err != nil {
		return nil, err
	}
	im.DefaultMapping = dm
	im.StoreDynamic, im.IndexDynamic = false, false
	return im, nil
}

// NewMemory returns an empty index in memory.
func NewMemory() (*Index, error) {
	im, err := newMapping()
	if err != nil {
		return nil, fmt.Errorf("document index: %w", err)
	}
	idx, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil) // path "": in memory
	if err != nil {
		return nil, fmt.Errorf("document index: %w", err)
	}
	return newIndex(idx, "", im), nil
}

// Open opens the index in directory dir, or creates it there when dir is empty or does
// not exist but its parent folder does. A directory that holds something else, a missing
// parent folder, or an index of another format version, is an error.
func Open(dir string) (*Index, error) {
	if dir == "" {
		return nil, errors.New("document index: no directory")
	}
	if _, err := os.Stat(dir); err == nil {
		if entries, err := os.ReadDir(dir); err != nil {
			return nil, fmt.Errorf("document index: %w", err)
		} else if len(entries) == 0 {
			if err := os.Remove(dir); err != nil { // bleve creates the directory itself
				return nil, fmt.Errorf("document index: %w", err)
			}
		} else {
			return openExisting(dir)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("document index: %w", err)
	} else if parent := filepath.Dir(dir); !isDir(parent) {
		// A typo in the path, or a volume that is not mounted: creating the folders would
		// serve an empty collection as if all were well.
		return nil, fmt.Errorf("document index: %s does not exist, nor does its folder %s: create the folder first (a typo? a volume not mounted?)", dir, parent)
	}
	if err := create(dir); err != nil {
		return nil, err
	}
	return openExisting(dir)
}

// creatingSuffix names the folder beside an index's directory where create builds it.
const creatingSuffix = ".creating"

// create makes a new, empty index in dir, which does not exist (Open removes an empty
// one). It builds it in a folder beside dir and renames that into place once its mapping
// and format version are on disk, so that a process killed meanwhile leaves no
// half-made index that would never open (a mapping file cut short), only that folder,
// which the next create removes.
func create(dir string) error {
	im, err := newMapping()
	if err != nil {
		return fmt.Errorf("document index: %w", err)
	}
	build := func(path string) error {
		idx, err := bleve.NewUsing(path, im, scorch.Name, scorch.Name, nil)
		if err != nil {
			return fmt.Errorf("document index %s: %w", dir, err)
		}
		if err := idx.SetInternal([]byte(versionKey), []byte(formatVersion)); err != nil {
			idx.Close()
			return fmt.Errorf("document index %s: %w", dir, err)
		}
		return idx.Close()
	}
	tmp := dir + creatingSuffix
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("document index: %w", err)
	}
	if err := build(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("document index: %w", err)
	}
	return nil
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// lockWait is how long openExisting waits for the lock of an index that another process
// holds (bleve's root file is locked while an index is open) before it fails: without
// it, the open waits for ever, and a second qsc serve on the same directory never gets
// ready and never says why.
const lockWait = time.Second

// openExisting opens the index in the non-empty directory dir; an index that another
// process holds open is an error after lockWait.
func openExisting(dir string) (*Index, error) {
	if _, err := os.Stat(dir + string(os.PathSeparator) + "index_meta.json"); err != nil {
		return nil, fmt.Errorf("document index: %s is not empty and holds no index (no index_meta.json); give an empty or new directory", dir)
	}
	idx, skipped, err := openWatched(dir)
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("document index %s is in use by another process (another qsc serve?): stop it, or give another directory", dir)
	}
	if err != nil {
		return nil, damaged(dir, err)
	}
	if skipped != "" {
		// bleve passed over a snapshot it could not load and opened the one before it,
		// with fewer documents, and would remove the damaged one's files: closed at once,
		// they stay for a restore.
		idx.Close()
		return nil, damaged(dir, fmt.Errorf("its latest snapshot: %s", skipped))
	}
	v, err := idx.GetInternal([]byte(versionKey))
	if err != nil || string(v) != formatVersion {
		idx.Close()
		if err == nil {
			err = fmt.Errorf("format version %q, this qsc reads %q", v, formatVersion)
		}
		return nil, fmt.Errorf("document index %s was not made by this version of qsc (%v): remove it, or give another directory", dir, err)
	}
	im, ok := idx.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		idx.Close()
		return nil, fmt.Errorf("document index %s: unexpected mapping %T", dir, idx.Mapping())
	}
	// Read it once, so that an index whose segments cannot be read fails here, not at
	// every search of a server that says it is ready.
	if _, err := idx.Search(bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 1, 0, false)); err != nil {
		idx.Close()
		return nil, damaged(dir, err)
	}
	return newIndex(idx, dir, im), nil
}

// openWatched opens the index in dir with bleve, and returns what bleve logged of a
// snapshot it could not load and passed over ("" when none). bleve reports that only
// through the standard logger, whose output is copied for the call: a server opens its
// index once, at start. A panic of bleve's store (bbolt asserts its pages, and a damaged
// page fails the assertion) is an error.
func openWatched(dir string) (idx bleve.Index, skipped string, err error) {
	var w snapshotWatch
	prev := log.Writer()
	log.SetOutput(io.MultiWriter(prev, &w))
	defer log.SetOutput(prev)
	defer func() {
		if v := recover(); v != nil {
			idx, skipped, err = nil, "", fmt.Errorf("%v", v)
		}
	}()
	idx, err = bleve.OpenUsing(dir, map[string]any{"bolt_timeout": lockWait.String()})
	return idx, w.skipped(), err
}

// snapshotWatch keeps the first line that bleve logs of a snapshot it passed over.
type snapshotWatch struct {
	mu    sync.Mutex
	first string
}

func (w *snapshotWatch) Write(p []byte) (int, error) {
	if line := string(p); strings.Contains(line, "unable to load snapshot") {
		w.mu.Lock()
		if w.first == "" {
			_, w.first, _ = strings.Cut(strings.TrimSpace(line), "unable to load snapshot, ")
			w.first = strings.TrimSuffix(w.first, ", continuing")
		}
		w.mu.Unlock()
	}
	return len(p), nil
}

func (w *snapshotWatch) skipped() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

// damaged is the error of an index on disk that bleve cannot open or read: its first line
// (bleve's may go on with the mapping's contents), and what to do.
func damaged(dir string, err error) error {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return fmt.Errorf("document index %s cannot be read (%s): its files are damaged (a disk fault, a copy made while it was written, a process killed while it was being created): restore it from a backup, or move it aside and ingest the documents again (--docs)", dir, msg)
}

func newIndex(idx bleve.Index, path string, im *mapping.IndexMappingImpl) *Index {
	x := &Index{idx: idx, path: path, analyzer: im.AnalyzerNamed(analyzerName), wordAnalyzer: im.AnalyzerNamed(analyzerName)}
	if im.DefaultAnalyzer == allWordsAnalyzer {
		x.stopsIndexed, x.analyzer = true, im.AnalyzerNamed(phraseAnalyzer)
	}
	v, _ := idx.GetInternal([]byte(langsKey)) // none in a new index
	x.langs.parse(v)
	return x
}

// Path returns the index's directory, or "" for an index in memory.
func (x *Index) Path() string { return x.path }

// Len returns the number of documents.
func (x *Index) Len() int {
	n, err := x.idx.DocCount()
	if err != nil {
		return 0
	}
	return int(n)
}

// Close releases the index (and, on disk, its files' lock).
func (x *Index) Close() error { return x.idx.Close() }

// Document returns the document with id, and false when there is none.
func (x *Index) Document(id string) (docfile.Doc, bool, error) {
	d, err := x.idx.Document(id)
	if err != nil {
		return docfile.Doc{}, false, fmt.Errorf("document %q: %w", id, err)
	}
	if d == nil {
		return docfile.Doc{}, false, nil
	}
	doc := docfile.Doc{ID: id}
	d.VisitFields(func(f index.Field) {
		switch f.Name() {
		case fieldTitle:
			doc.Title = string(f.Value())
		case fieldText:
			doc.Text = string(f.Value())
		case fieldURL:
			doc.URL = string(f.Value())
		}
	})
	return doc, true, nil
}

// Snippets returns the snippets of req for a hit, made by eng from the hit's stored
// annotation when it has one made by eng's models, else by parsing its text (see
// highlight.Highlighter.Snippets). req.Document is set to the hit's text, and req.Query
// to the terms that mark a document of its language (TermsIn).
func (x *Index) Snippets(ctx context.Context, eng *qsc.Engine, h *Hit, req qsc.SnippetRequest) ([]qsc.Snippet, error) {
	hl, err := x.highlighter(eng)
	if err != nil {
		return nil, err
	}
	req.Document, req.Query = h.Doc.Text, TermsIn(req.Query, h.lang)
	return hl.Snippets(ctx, &req, h.annotation)
}

// Stats counts how the snippets of Snippets were made with eng: from stored annotations,
// or by parsing.
func (x *Index) Stats(eng *qsc.Engine) highlight.Stats {
	if hl, ok := x.hls.Load(eng); ok {
		return hl.(*highlight.Highlighter).Stats()
	}
	return highlight.Stats{}
}

// highlighter returns the highlighter of eng.
func (x *Index) highlighter(eng *qsc.Engine) (*highlight.Highlighter, error) {
	if hl, ok := x.hls.Load(eng); ok {
		return hl.(*highlight.Highlighter), nil
	}
	hl, err := highlight.New(eng, highlight.Options{})
	if err != nil {
		return nil, err
	}
	v, _ := x.hls.LoadOrStore(eng, hl)
	return v.(*highlight.Highlighter), nil
}

// Check reads the whole index and returns an error unless it is consistent: a search for
// every document finds as many as the document count, and each one found has its stored
// text and its content hash. It reads every document (a few seconds for 10,000): for
// tests, and for checking an index after a crash.
func (x *Index) Check() error {
	n, err := x.idx.DocCount()
	if err != nil {
		return fmt.Errorf("document index: %w", err)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), int(n)+1, 0, false)
	res, err := x.idx.Search(req)
	if err != nil {
		return fmt.Errorf("document index: %w", err)
	}
	if res.Total != n || uint64(len(res.Hits)) != n {
		return fmt.Errorf("document index: %d documents counted, %d found (%d hits)", n, res.Total, len(res.Hits))
	}
	for _, h := range res.Hits {
		d, ok, err := x.Document(h.ID)
		switch {
		case err != nil:
			return err
		case !ok || d.Text == "":
			return fmt.Errorf("document index: document %q found but not stored", h.ID)
		}
		if v, err := x.idx.GetInternal(hashKey(h.ID)); err != nil || len(v) == 0 {
			return fmt.Errorf("document index: document %q has no content hash (%v)", h.ID, err)
		}
	}
	return nil
}
