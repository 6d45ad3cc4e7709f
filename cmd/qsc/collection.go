package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/service/demo"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
	"github.com/qsc-nlp/qsc/internal/service/server"
)

// checkCollection checks the collection flags of qsc serve: --no-demo excludes --index and
// --docs; --docs must exist. --index alone opens the index in DIR, or creates an empty
// one there (to be filled through the document API).
func checkCollection(o serveOptions) error {
	if o.noDemo && (o.index != "" || o.docs != "") {
		return cli.Usagef("--no-demo turns search off; it cannot go with --index or --docs")
	}
	if o.docs != "" {
		if _, err := os.Stat(o.docs); err != nil {
			return cli.Usagef("--docs: %v", err)
		}
	}
	return nil
}

// collection is the kind of collection that openCollection opens, as the page tells it.
func (o serveOptions) collection() server.Collection {
	switch {
	case o.noDemo:
		return server.CollectionNone
	case o.index != "" || o.docs != "":
		return server.CollectionOwn
	}
	return server.CollectionDemo
}

// openCollection returns the collection that qsc serve searches: the index in o.index
// (opened, or created), or an index in memory for o.docs alone, both without o.docs's
// documents (serve ingests them in the background, once the server is ready); the demo
// collection, indexed here with its documents annotated by eng; or nil with --no-demo.
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
	case o.index == "":
		return docindex.NewMemory()
	}
	empty := true
	if entries, err := os.ReadDir(o.index); err == nil && len(entries) > 0 {
		empty = false
	}
	x, err := docindex.Open(o.index)
	if err != nil {
		return nil, err
	}
	if empty && o.docs == "" {
		log.Info("created an empty document index: add documents with POST /v1/documents or --docs", "path", x.Path())
	}
	log.Info("document index open", "path", x.Path(), "documents", x.Len(), "took", time.Since(t).Round(time.Millisecond))
	if p := x.UnfinishedDocs(); p != "" && o.docs == "" {
		log.Warn("the last --docs ingest into this index did not finish: it holds part of it; start with --docs again to add the rest", "docs", p)
	}
	return x, nil
}
