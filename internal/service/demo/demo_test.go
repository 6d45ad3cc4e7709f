package demo

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
)

// sample holds four EWT dev documents: three of 5, 5 and 6 sentences in two paragraphs
// each, and one of a single sentence.
const sample = "testdata/ewt-sample.conllu"

func buildFiles(t *testing.T, paths ...string) ([]Doc, Stats) {
	t.Helper()
	var rs []*conllu.Reader
	for _, p := range paths {
		r, err := conllu.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		rs = append(rs, r)
	}
	docs, st, err := Build(rs...)
	if err != nil {
		t.Fatal(err)
	}
	return docs, st
}

func TestBuild(t *testing.T) {
	docs, st := buildFiles(t, sample)
	if len(docs) != 3 || st != (Stats{Documents: 3, Sentences: 16, Skipped: 1}) {
		t.Fatalf("%d documents, %+v", len(docs), st)
	}
	d := docs[0]
	if d.ID != "weblog-blogspot.com_nominations_20041117172713_ENG_20041117_172713" || d.Title != "From the AP comes this story :" {
		t.Errorf("first document: %q %q", d.ID, d.Title)
	}
	// Two paragraphs: the first sentence alone, then four joined by spaces.
	paras := strings.Split(d.Text, "\n\n")
	if len(paras) != 2 || paras[0] != "From the AP comes this story :" ||
		!strings.HasPrefix(paras[1], "President Bush on Tuesday nominated two individuals") ||
		!strings.Contains(paras[1], "Washington area. Bush nominated Jennifer M. Anderson") {
		t.Errorf("paragraphs: %q", paras)
	}
	// A long first sentence is cut at a word with "…".
	if got := docs[2].Title; got != "In the eastern city of Baqubah, guerrillas detonated a car bomb outside a police station…" {
		t.Errorf("long title: %q", got)
	}
}

func TestBuildErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"no text", "# newdoc id = a\n# sent_id = 1\n1\tDogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n", "no text comment"},
		{"no document", "# sent_id = 1\n# text = Dogs\n1\tDogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n", "before any newdoc id"},
		{"repeated id", "# newdoc id = a\n# text = Dogs\n1\tDogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n# newdoc id = a\n# text = Cats\n1\tCats\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n", `repeated document id "a"`},
	} {
		r, err := conllu.NewReader(strings.NewReader(c.in), "in.conllu")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Build(r); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestWriteReadDeterministic(t *testing.T) {
	docs, _ := buildFiles(t, sample)
	again, _ := buildFiles(t, sample)
	var a, b bytes.Buffer
	if err := Write(&a, docs); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two writes of the same documents differ")
	}
	got, err := Read(bytes.NewReader(a.Bytes()), "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(docs) || got[2] != docs[2] {
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
	if len(docs) < 500 {
		t.Fatalf("%d documents", len(docs))
	}
	if len(embedded) > 400<<10 {
		t.Errorf("the embedded file is %d bytes, more than 400 KiB", len(embedded))
	}
	seen := map[string]bool{}
	genres := map[string]int{}
	for _, d := range docs {
		if seen[d.ID] || d.Title == "" || !strings.HasPrefix(d.Text, strings.TrimSuffix(d.Title, "…")) {
			t.Fatalf("%s: repeated, or its title is not its first sentence: %q", d.ID, d.Title)
		}
		seen[d.ID] = true
		genre, _, _ := strings.Cut(d.ID, "-")
		genres[genre]++
	}
	for _, g := range []string{"answers", "email", "newsgroup", "reviews", "weblog"} {
		if genres[g] == 0 {
			t.Errorf("no document of genre %s: %v", g, genres)
		}
	}
}

// TestEmbeddedIsReproducible rebuilds the collection from the treebank and compares it
// byte for byte with the committed file.
func TestEmbeddedIsReproducible(t *testing.T) {
	dev, test := shared.Require(t, shared.EWTDev), shared.Require(t, shared.EWTTest)
	docs, st := buildFiles(t, dev, test)
	var buf bytes.Buffer
	if err := Write(&buf, docs); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(FileName)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), committed) {
		t.Fatalf("%s differs from the collection built from %s and %s: run `go run ./cmd/qsc-lab data demo`", FileName, dev, test)
	}
	// Every document of the two files is in, but those of a single sentence.
	if st.Documents+st.Skipped != 634 || st.Skipped == 0 {
		t.Errorf("%+v: want the 634 documents of EWT dev and test", st)
	}
}
