package demo

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/shared"
)

func buildFile(t *testing.T, path string, size int) []Doc {
	t.Helper()
	r, err := conllu.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	docs, err := Build(r, size)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func TestBuild(t *testing.T) {
	docs := buildFile(t, "testdata/sample.conllu", 3)
	if len(docs) != 3 {
		t.Fatalf("8 sentences in documents of 3: got %d documents", len(docs))
	}
	d := docs[0]
	if d.ID != "d0001" || d.Title != "News digest 1 (test-00001 to test-00003)" || len(d.Sources) != 3 {
		t.Errorf("first document: %+v", d)
	}
	if !strings.HasPrefix(d.Text, "Five people have been taken to hospital") || !strings.Contains(d.Text, "this morning. Several school districts") {
		t.Errorf("first document's text: %q", d.Text)
	}
	last := docs[2]
	if last.ID != "d0003" || len(last.Sources) != 2 || last.Sources[1] != "test-00008" {
		t.Errorf("last document: %+v", last)
	}
	if !strings.Contains(last.Text, "“Staff of Serapis,”") || strings.Contains(last.Text, "``") {
		t.Errorf("quotes not made typographic: %q", last.Text)
	}
	if _, err := Build(nil, 0); err == nil {
		t.Error("size 0 accepted")
	}
}

func TestBuildMissingText(t *testing.T) {
	in := "# sent_id = x1\n1\tDogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n"
	r, err := conllu.NewReader(strings.NewReader(in), "in.conllu")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(r, 2); err == nil || !strings.Contains(err.Error(), "line") {
		t.Fatalf("sentence without text: %v", err)
	}
}

func TestWriteReadDeterministic(t *testing.T) {
	docs := buildFile(t, "testdata/sample.conllu", 2)
	var a, b bytes.Buffer
	if err := Write(&a, docs); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, buildFile(t, "testdata/sample.conllu", 2)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two writes of the same documents differ")
	}
	got, err := Read(bytes.NewReader(a.Bytes()), "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(docs) || got[3].Text != docs[3].Text || got[0].Sources[1] != docs[0].Sources[1] {
		t.Fatalf("round trip: %+v", got)
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Read(strings.NewReader("not gzip"), "x.gz"); err == nil || !strings.HasPrefix(err.Error(), "x.gz") {
		t.Errorf("not gzip: %v", err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, []Doc{{ID: "d1", Text: "a"}, {ID: "d2"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(&buf, "y.gz"); err == nil || !strings.Contains(err.Error(), "y.gz:2") {
		t.Errorf("document without text: %v", err)
	}
	buf.Reset()
	if err := Write(&buf, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(&buf, "z.gz"); err == nil {
		t.Error("empty collection accepted")
	}
}

func TestLoadEmbedded(t *testing.T) {
	docs, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2000 || docs[0].ID != "d0001" || docs[1999].ID != "d2000" {
		t.Fatalf("%d documents, first %q", len(docs), docs[0].ID)
	}
	for _, d := range docs {
		if len(d.Sources) != Size {
			t.Fatalf("%s: %d sentences", d.ID, len(d.Sources))
		}
	}
}

// TestEmbeddedIsReproducible rebuilds the collection from the corpus and compares it
// byte for byte with the committed file.
func TestEmbeddedIsReproducible(t *testing.T) {
	path := shared.Require(t, shared.GoogleTest)
	var buf bytes.Buffer
	if err := Write(&buf, buildFile(t, path, Size)); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(FileName)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), committed) {
		t.Fatalf("%s differs from the collection built from %s: run `go run ./cmd/qsc data demo`", FileName, path)
	}
}

func TestIndex(t *testing.T) {
	docs := buildFile(t, "testdata/sample.conllu", 1)
	x, err := NewIndex(docs)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.Len() != 8 {
		t.Fatalf("Len %d", x.Len())
	}
	if got := x.Terms("The Birmingham POET, the poets"); strings.Join(got, ",") != "Birmingham,POET" {
		t.Errorf("Terms = %q", got)
	}
	res, err := x.Search(context.Background(), "Birmingham poets", 5)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || len(res.Hits) != 1 || res.Hits[0].Doc.ID != "d0005" {
		t.Fatalf("search: %+v", res)
	}
	res, err = x.Search(context.Background(), "district", 5) // the corpus has "districts"
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || res.Hits[0].Doc.ID != "d0002" {
		t.Fatalf("search by inflection: %+v", res)
	}
	res, err = x.Search(context.Background(), "hospital OR Suarez London", 5)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 2 || res.Hits[0].Doc.ID != "d0003" { // two words of the query beat one
		t.Fatalf("search: total %d, hits %+v", res.Total, res.Hits)
	}
	if res, err := x.Search(context.Background(), "the of", 5); err != nil || len(res.Hits) != 0 || len(res.Terms) != 0 {
		t.Fatalf("stop words only: %+v %v", res, err)
	}
	if _, err := NewIndex([]Doc{{ID: "a", Text: "x"}, {ID: "a", Text: "y"}}); err == nil {
		t.Error("duplicate ids accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Search(ctx, "hospital", 5); err == nil {
		t.Error("search with a cancelled context succeeded")
	}
}

// BenchmarkNewIndex measures building the index of the embedded collection, the
// start-up cost of `qsc serve`.
func BenchmarkNewIndex(b *testing.B) {
	docs, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		x, err := NewIndex(docs)
		if err != nil {
			b.Fatal(err)
		}
		x.Close()
	}
}

// BenchmarkSearch measures one search of the embedded collection's index.
func BenchmarkSearch(b *testing.B) {
	docs, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	x, err := NewIndex(docs)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	for b.Loop() {
		if _, err := x.Search(ctx, "police arrested men", 10); err != nil {
			b.Fatal(err)
		}
	}
}
