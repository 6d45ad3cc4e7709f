package qsc

import (
	"context"
	"errors"
	"testing"

	"github.com/qsc-nlp/qsc/annotation"
)

// TestAnnotationModelsSplit checks that an annotation's tagger id records the rules that
// split the text (tokenize.Version), so that one a build with other rules made, whose
// sentences may be others, is refused as of other models rather than read.
func TestAnnotationModelsSplit(t *testing.T) {
	e := newEngine(t)
	if e.AnnotationModels().Tagger == annotation.NewModelID(e.pipe.TaggerSum) {
		t.Fatal("the tagger's id is the file's alone: it does not record the splitting rules")
	}
	ctx := context.Background()
	doc := "The motion was filed under Fed. R. Civ. P. 12(b)(6) and the court dismissed the complaint."
	a, err := e.Annotate(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	req := &SnippetRequest{Document: doc, Query: []string{"court"}, Budget: 60}
	if _, err := e.SnippetsAnnotated(ctx, req, a, AnnotationOptions{}); err != nil {
		t.Fatalf("this build's annotation: %v", err)
	}
	a.Models.Tagger = annotation.NewModelID(e.pipe.TaggerSum) // as a build before 2026-11-30 recorded it
	if _, err := e.SnippetsAnnotated(ctx, req, a, AnnotationOptions{}); !errors.Is(err, ErrModels) {
		t.Errorf("an annotation of other splitting rules: %v, want ErrModels", err)
	}
}
