package highlight_test

import (
	"fmt"
	"log"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/highlight"
)

// newIndex returns an in-memory index of two news stories.
func newIndex() bleve.Index {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = "en" // stems, so that "arrest" finds "arrested"
	idx, err := bleve.NewMemOnly(m)
	if err != nil {
		log.Fatal(err)
	}
	docs := map[string]string{
		"syracuse": "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries in the university district. Both men were released on bail.",
		"weather":  "Heavy rain is expected across the region on Wednesday, with flooding possible in low-lying areas.",
	}
	for id, body := range docs {
		if err := idx.Index(id, map[string]string{"body": body}); err != nil {
			log.Fatal(err)
		}
	}
	return idx
}

// A bleve search whose results show compressive snippets: ask for the "qsc" style.
func Example() {
	idx := newIndex()
	req := bleve.NewSearchRequest(bleve.NewMatchQuery("police arrest"))
	req.Highlight = bleve.NewHighlightWithStyle(highlight.Name) // budget highlight.DefaultBudget
	res, err := idx.Search(req)
	if err != nil {
		log.Fatal(err)
	}
	for _, hit := range res.Hits {
		fmt.Println(hit.ID, hit.Fragments["body"])
	}
	// Output:
	// syracuse [<mark>Police</mark> in Syracuse <mark>arrested</mark> two men on Tuesday after a long investigation into a string of burglaries …]
}

// A highlighter with a budget of 60 characters and plain-text fragments, called directly.
// (To use such a configuration as a bleve style, define it once in bleve's registry:
// bleve.Config.Cache.DefineHighlighter("qsc-60", map[string]any{"type": highlight.Name, "budget": 60}).)
func ExampleNew() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	h, err := highlight.New(eng, highlight.Options{Budget: 60, Format: highlight.FormatText})
	if err != nil {
		log.Fatal(err)
	}
	idx := newIndex()
	req := bleve.NewSearchRequest(bleve.NewMatchQuery("police arrest"))
	req.IncludeLocations = true // the highlighter needs the term locations
	res, err := idx.Search(req)
	if err != nil {
		log.Fatal(err)
	}
	hit := res.Hits[0]
	doc, err := idx.Document(hit.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h.BestFragmentsInField(hit, doc, "body", 1))
	// Output:
	// [Police in Syracuse arrested two men on Tuesday …]
}
