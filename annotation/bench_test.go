package annotation_test

import (
	"context"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
	"github.com/qsc-nlp/qsc/internal/service/demo"
)

// demoAnnotations returns the binary annotations of the demo collection's documents, the
// total length of their texts, and their tokens.
func demoAnnotations(b *testing.B) (data [][]byte, textBytes, tokens int) {
	b.Helper()
	e, err := qsc.New()
	if err != nil {
		b.Fatal(err)
	}
	docs, err := demo.Load()
	if err != nil {
		b.Fatal(err)
	}
	var a annotation.Annotation
	for _, d := range docs {
		if err := e.AnnotateTo(context.Background(), d.Text, &a); err != nil {
			b.Fatalf("%s: %v", d.ID, err)
		}
		enc, err := a.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, enc)
		textBytes += len(d.Text)
		tokens += a.Tokens()
	}
	return data, textBytes, tokens
}

// BenchmarkDecode decodes the annotations of the demo collection (2,000 documents of 5
// sentences) into one reused Annotation, and reports their size: bytes per token, per
// document, and against the text.
func BenchmarkDecode(b *testing.B) {
	data, textBytes, tokens := demoAnnotations(b)
	size := 0
	for _, d := range data {
		size += len(d)
	}
	var a annotation.Annotation
	b.ReportAllocs()
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, d := range data {
			if err := annotation.Decode(d, &a); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tokens), "ns/token")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(data)), "ns/doc")
	b.ReportMetric(float64(size)/float64(tokens), "bytes/token")
	b.ReportMetric(float64(size)/float64(len(data)), "bytes/doc")
	b.ReportMetric(float64(size)/float64(textBytes), "bytes/text-byte")
}
