package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/demo"
	"github.com/qsc-nlp/qsc/internal/docfile"
	"github.com/qsc-nlp/qsc/internal/docindex"
	"github.com/qsc-nlp/qsc/internal/progress"
)

// checkCollection checks the collection flags of qsc serve: --no-demo excludes --index and
// --docs; --index without --docs must name an index that exists; --docs must exist.
func checkCollection(o serveOptions) error {
	if o.noDemo && (o.index != "" || o.docs != "") {
		return usagef("--no-demo turns search off; it cannot go with --index or --docs")
	}
	if o.docs != "" {
		if _, err := os.Stat(o.docs); err != nil {
			return usagef("--docs: %v", err)
		}
	}
	if o.index != "" && o.docs == "" {
		entries, err := os.ReadDir(o.index)
		if errors.Is(err, os.ErrNotExist) || (err == nil && len(entries) == 0) {
			return usagef("--index %s holds no index yet: give --docs FILE.jsonl|DIR to build it", o.index)
		}
	}
	return nil
}

// openCollection returns the collection that qsc serve searches, its documents annotated
// by eng: the index in o.index (opened, or created) with the documents of o.docs added;
// an index in memory of o.docs alone; the demo collection; or nil with --no-demo.
// Ingesting shows its progress on stderr (when it is a terminal), logs each rejected
// record (where and why) and a summary (added, updated, unchanged, rejected).
func openCollection(ctx context.Context, o serveOptions, eng *qsc.Engine, log *slog.Logger) (*docindex.Index, error) {
	t := time.Now()
	switch {
	case o.noDemo:
		return nil, nil
	case o.index == "" && o.docs == "":
		docs, err := demo.Load()
		if err != nil {
			return nil, err
		}
		x, err := docindex.FromDocs(ctx, eng, docs)
		if err != nil {
			return nil, err
		}
		log.Info("demo collection indexed", "documents", x.Len(), "took", time.Since(t).Round(time.Millisecond))
		return x, nil
	}
	var x *docindex.Index
	var err error
	if o.index != "" {
		x, err = docindex.Open(o.index)
	} else {
		x, err = docindex.NewMemory()
	}
	if err != nil {
		return nil, err
	}
	if o.docs != "" {
		total := 0
		if fi, err := os.Stat(o.docs); err == nil && fi.IsDir() {
			total = docfile.CountDocFiles(o.docs)
		}
		bar := progress.New("ingesting "+o.docs, total)
		sum, err := x.Ingest(ctx, o.docs, docindex.IngestOptions{Engine: eng, Progress: bar, Reject: func(e *docfile.RecordError) {
			log.Warn("document rejected", "at", e.Where, "error", e.Err.Error())
		}})
		bar.Done()
		if err != nil {
			return x, err
		}
		log.Info("documents ingested", "summary", sum.String(), "added", sum.Added, "updated", sum.Updated, "unchanged", sum.Unchanged,
			"rejected", sum.Rejected, "from", o.docs, "took", time.Since(t).Round(time.Millisecond))
	}
	log.Info("document index open", "path", x.Path(), "documents", x.Len())
	return x, nil
}
