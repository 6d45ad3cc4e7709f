package qsc

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestDoSnippetsLong checks a document over MaxDocumentBytes read in parts: snippets from
// every part, in rank order (more terms first, then earlier), their spans offsets into the
// whole document, their scores computed on it; N kept; no match, the lead; and a short
// document read as DoSnippets reads it.
func TestDoSnippetsLong(t *testing.T) {
	eng := newEngine(t)
	ctx := context.Background()
	filler := strings.Repeat("The committee met on Tuesday and talked about the weather for a long time.\n\n", MaxDocumentBytes/76+1)
	doc := "The harbour opened in May.\n\n" + filler +
		"Fishermen said the harbour and the lighthouse were repaired.\n\n" + filler +
		"The old lighthouse stands on the hill.\n"
	if len(doc) < 2*MaxDocumentBytes {
		t.Fatalf("the document has %d bytes, want more than two parts", len(doc))
	}
	req := SnippetRequest{Document: doc, Query: []string{"harbour", "lighthouse"}, Budget: 80, N: 2}
	sn, err := eng.DoSnippetsLong(ctx, &req)
	if err != nil {
		t.Fatal(err)
	}
	if len(sn) != 2 {
		t.Fatalf("%d snippets, want 2: %+v", len(sn), sn)
	}
	if !strings.HasPrefix(doc[sn[0].Sentence.Start:], "Fishermen said") || sn[0].Terms != 2 {
		t.Errorf("first snippet %q (%d terms), want the sentence with both terms", doc[sn[0].Sentence.Start:sn[0].Sentence.End], sn[0].Terms)
	}
	if !strings.HasPrefix(doc[sn[1].Sentence.Start:], "The harbour opened") {
		t.Errorf("second snippet %q, want the earliest sentence with one term", doc[sn[1].Sentence.Start:sn[1].Sentence.End])
	}
	for _, s := range sn {
		for _, h := range s.Hits {
			if w := strings.ToLower(doc[h.Start:h.End]); w != "harbour" && w != "lighthouse" {
				t.Errorf("hit %v is %q in the whole document", h, w)
			}
		}
		if want := score(s.Terms, s.Sentence.Start, len(doc)); s.Score != want {
			t.Errorf("score %v, want %v computed on the whole document", s.Score, want)
		}
	}
	req.N = 5
	if sn, err = eng.DoSnippetsLong(ctx, &req); err != nil || len(sn) != 3 {
		t.Errorf("N 5: %d snippets, %v; want the 3 sentences with a term", len(sn), err)
	}

	req = SnippetRequest{Document: doc, Query: []string{"submarine"}, Budget: 40, NoMatch: true}
	if sn, err = eng.DoSnippetsLong(ctx, &req); err != nil || len(sn) != 1 || sn[0].Sentence.Start != 0 {
		t.Errorf("no match: %+v, %v; want the lead of the first part", sn, err)
	}
	req.NoMatch = false
	if sn, err = eng.DoSnippetsLong(ctx, &req); err != nil || len(sn) != 0 {
		t.Errorf("no match: %+v, %v; want none", sn, err)
	}
	req = SnippetRequest{Document: doc, Query: []string{"lighthouse"}, Budget: 3}
	if _, err = eng.DoSnippetsLong(ctx, &req); !errors.Is(err, ErrInfeasible) {
		t.Errorf("budget below the term: %v, want ErrInfeasible", err)
	}

	// A snippet text once across parts, as in one part (TestSnippetsDistinct): two
	// sentences that differ only in a word the compression drops show one snippet.
	twice := "Police arrested two men on Tuesday in Syracuse after a long investigation into burglaries.\n\n" + filler +
		"Police arrested two men on Monday in Syracuse after a long investigation into burglaries.\n"
	req = SnippetRequest{Document: twice, Query: []string{"police", "burglaries"}, Budget: 40, N: 3}
	if sn, err = eng.DoSnippetsLong(ctx, &req); err != nil || len(sn) != 1 || sn[0].Sentence.Start != 0 {
		t.Errorf("a snippet text in two parts: %+v, %v; want the first part's alone", sn, err)
	}

	short := SnippetRequest{Document: "The harbour opened in May. The lighthouse stands on the hill.", Query: []string{"lighthouse"}, Budget: 30}
	a, errA := eng.DoSnippetsLong(ctx, &short)
	b, errB := eng.DoSnippets(ctx, &short)
	if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("short document: %+v, %v; DoSnippets %+v, %v", a, errA, b, errB)
	}
}

// TestCutPart checks where a long document is cut: after a blank line, else a line break,
// else a space, else at a rune boundary, each part at most MaxDocumentBytes.
func TestCutPart(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      string // the text just before the cut
	}{
		{"blank line", strings.Repeat("a\n\nb c\n", MaxDocumentBytes/4), "\n\n"},
		{"line break", strings.Repeat("ab c\n", MaxDocumentBytes/4), "\n"},
		{"space", strings.Repeat("abc ", MaxDocumentBytes/3), " "},
		{"rune", strings.Repeat("é", MaxDocumentBytes), "é"},
	} {
		end := cutPart(c.doc, 0)
		if end > MaxDocumentBytes || end == 0 || !strings.HasSuffix(c.doc[:end], c.want) {
			t.Errorf("%s: cut at %d, text before it ends %q", c.name, end, c.doc[max(0, end-3):end])
		}
	}
}

// TestLongUnpunctuated checks that a hit in a megabyte of text with no sentence end
// (minified JSON) is shown by the window of its piece (maxPartBytes), the same from the
// text and from its annotation, and pieceEnd's cuts.
func TestLongUnpunctuated(t *testing.T) {
	eng := newEngine(t)
	ctx := context.Background()
	doc := strings.Repeat(`{"k":"v","n":1},`, 60000) + `{"error":"rollback failed"},` + strings.Repeat(`{"k":"v","n":2},`, 3000)
	sn, err := eng.Snippets(ctx, doc, []string{"rollback"}, 80, 2)
	if err != nil || len(sn) != 1 || !strings.Contains(sn[0].Text, `"error":"rollback`) || sn[0].Method != MethodWindow {
		t.Fatalf("%v, %+v", err, sn)
	}
	if sn[0].Sentence.End-sn[0].Sentence.Start > maxPartBytes {
		t.Errorf("the sentence shown is %d bytes, more than a piece", sn[0].Sentence.End-sn[0].Sentence.Start)
	}
	// From the annotation of a shorter one (annotating a megabyte of tokens takes
	// seconds): the same pieces.
	short := strings.Repeat(`{"k":"v","n":1},`, 3000) + `{"error":"rollback failed"},` + strings.Repeat(`{"k":"v","n":2},`, 300)
	a, err := eng.Annotate(ctx, short)
	if err != nil {
		t.Fatal(err)
	}
	req := SnippetRequest{Document: short, Query: []string{"rollback"}, Budget: 80, N: 2}
	fromText, err1 := eng.DoSnippets(ctx, &req)
	fromAnn, err2 := eng.SnippetsAnnotated(ctx, &req, a, AnnotationOptions{})
	if err1 != nil || err2 != nil || len(fromText) != 1 || !reflect.DeepEqual(fromAnn, fromText) {
		t.Errorf("from the annotation: %v, %+v; from the text %v, %+v", err2, fromAnn, err1, fromText)
	}
	for _, cut := range []int{1 << 14, 40000, 123456} {
		if e := pieceEnd(doc, 0, cut); e <= cut/2 || e > cut || doc[e-1] != ',' {
			t.Errorf("pieceEnd(0, %d) = %d, not after a comma", cut, e)
		}
	}
	if e := pieceEnd("aaaa bbbb cccc", 0, 12); e != 10 {
		t.Errorf("pieceEnd at a space: %d, want 10", e)
	}
}
