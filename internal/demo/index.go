package demo

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/qsc-nlp/qsc/internal/stem"
)

const (
	// textField is the indexed field holding Doc.Text.
	textField = "text"
	// analyzerName is the index's analyzer; stemFilter its stemming token filter.
	analyzerName = "qsc_demo"
	stemFilter   = "qsc_stem"
)

func init() {
	if err := registry.RegisterTokenFilter(stemFilter, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return keyFilter{}, nil
	}); err != nil {
		panic(err) // a second registration: a programming error
	}
}

// keyFilter replaces each term by its stem.Key, the key qsc.Engine.DoSnippets matches
// query terms by.
type keyFilter struct{}

func (keyFilter) Filter(ts analysis.TokenStream) analysis.TokenStream {
	for _, t := range ts {
		t.Term = []byte(stem.Key(string(t.Term)))
	}
	return ts
}

// Index is an in-memory full-text index of a collection (bleve's scorch index, no
// files). Words are Unicode words, lower-cased, without English stop words, and reduced
// to the stem.Key that snippets match query terms by ("arrests" and "arrested" are one
// term), so that the documents a search finds are the documents whose sentences the
// snippets can mark. An Index is safe for concurrent use.
type Index struct {
	idx      bleve.Index
	docs     map[string]*Doc
	analyzer analysis.Analyzer
}

// NewIndex indexes docs, which must have distinct ids.
func NewIndex(docs []Doc) (*Index, error) {
	im := bleve.NewIndexMapping()
	if err := im.AddCustomAnalyzer(analyzerName, map[string]any{
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []any{lowercase.Name, en.StopName, stemFilter},
	}); err != nil {
		return nil, fmt.Errorf("demo index: %w", err)
	}
	im.DefaultAnalyzer = analyzerName
	dm := bleve.NewDocumentStaticMapping()
	tf := mapping.NewTextFieldMapping()
	tf.Store = false
	tf.IncludeInAll = false
	dm.AddFieldMappingsAt(textField, tf)
	im.DefaultMapping = dm
	im.StoreDynamic = false
	idx, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil) // path "": in memory
	if err != nil {
		return nil, fmt.Errorf("demo index: %w", err)
	}
	x := &Index{idx: idx, docs: make(map[string]*Doc, len(docs)), analyzer: im.AnalyzerNamed(analyzerName)}
	b := idx.NewBatch()
	for i := range docs {
		d := &docs[i]
		if _, dup := x.docs[d.ID]; dup {
			idx.Close()
			return nil, fmt.Errorf("demo index: duplicate document id %q", d.ID)
		}
		x.docs[d.ID] = d
		if err := b.Index(d.ID, map[string]string{textField: d.Text}); err != nil {
			idx.Close()
			return nil, fmt.Errorf("demo index: document %s: %w", d.ID, err)
		}
	}
	if err := idx.Batch(b); err != nil {
		idx.Close()
		return nil, fmt.Errorf("demo index: %w", err)
	}
	return x, nil
}

// Len returns the number of documents.
func (x *Index) Len() int { return len(x.docs) }

// Close releases the index.
func (x *Index) Close() error { return x.idx.Close() }

// Terms returns the words of query that a search looks for, as spelled in the query, in
// query order: stop words are left out, and of the words with the same key only the
// first is kept.
func (x *Index) Terms(query string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range x.analyzer.Analyze([]byte(query)) {
		if k := string(t.Term); !seen[k] {
			seen[k] = true
			out = append(out, query[t.Start:t.End])
		}
	}
	return out
}

// Hit is one document found by a search.
type Hit struct {
	Doc   *Doc
	Score float64
}

// Results are the best documents of a search.
type Results struct {
	// Terms are the query's words as searched (see Index.Terms).
	Terms []string
	// Total is the number of documents holding any of the terms.
	Total uint64
	// Hits are the best documents, best first (ties broken by id).
	Hits []Hit
}

// Search returns the k best documents holding any of the query's words, ranked by
// bleve's tf-idf score. A query with no searchable word (only stop words or
// punctuation) finds nothing.
func (x *Index) Search(ctx context.Context, query string, k int) (Results, error) {
	res := Results{Terms: x.Terms(query)}
	if len(res.Terms) == 0 || k <= 0 {
		return res, nil
	}
	q := bleve.NewMatchQuery(query)
	q.SetField(textField)
	q.Analyzer = analyzerName
	req := bleve.NewSearchRequestOptions(q, k, 0, false)
	req.SortBy([]string{"-_score", "_id"})
	sr, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return res, fmt.Errorf("search: %w", err)
	}
	res.Total = sr.Total
	for _, h := range sr.Hits {
		if d, ok := x.docs[h.ID]; ok {
			res.Hits = append(res.Hits, Hit{Doc: d, Score: h.Score})
		}
	}
	return res, nil
}
