package qsc_test

import (
	"context"
	"fmt"
	"log"
	"reflect"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
)

// Parse a document once, store its annotation, and make its snippets from the stored
// annotation later, with no parsing: the snippets are those of the raw text.
func ExampleEngine_SnippetsAnnotated() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	doc := "Police in Syracuse arrested two men on Tuesday. Both men were released on bail on Wednesday."

	// At index time: annotate, and store the bytes next to the text.
	ann, err := eng.Annotate(ctx, doc)
	if err != nil {
		log.Fatal(err)
	}
	stored, err := ann.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d sentences, %d tokens, %d bytes\n", ann.Len(), ann.Tokens(), len(stored))

	// At query time: decode (into a reused Annotation) and compress.
	var a annotation.Annotation
	if err := annotation.Decode(stored, &a); err != nil {
		log.Fatal(err)
	}
	req := &qsc.SnippetRequest{Document: doc, Query: []string{"bail"}, Budget: 40}
	fromAnnotation, err := eng.SnippetsAnnotated(ctx, req, &a, qsc.AnnotationOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fromText, err := eng.DoSnippets(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("same snippets:", reflect.DeepEqual(fromAnnotation, fromText))
	// Output:
	// 2 sentences, 18 tokens, 106 bytes
	// same snippets: true
}
