package parser

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
)

// embedded returns the embedded parser models, the default (greedy) and the accurate
// (beam search) one, loaded once per test binary.
var embedded = sync.OnceValues(func() ([]*Model, error) {
	var out []*Model
	// The files, relative to this package: the default pipeline's (internal/core/pipeline) and
	// the accurate parser's (parser/accurate).
	for _, name := range []string{"../internal/core/pipeline/en-ewt-parser-v3.qsm", "accurate/en-ewt-parser-beam8-v1.qsm"} {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		m, err := Load(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, m)
	}
	return out, nil
})

// fuzzTags are the tags a fuzz input picks from: the Penn Treebank tags, tags the model
// never saw, and the empty tag (an error).
var fuzzTags = []string{
	"CC", "CD", "DT", "EX", "FW", "IN", "JJ", "JJR", "JJS", "LS", "MD", "NN", "NNS", "NNP", "NNPS",
	"PDT", "POS", "PRP", "PRP$", "RB", "RBR", "RBS", "RP", "SYM", "TO", "UH", "VB", "VBD", "VBG",
	"VBN", "VBP", "VBZ", "WDT", "WP", "WP$", "WRB", ",", ".", ":", "``", "''", "-LRB-", "-RRB-",
	"HYPH", "NFP", "ADD", "AFX", "GW", "XX", "$", "#",
	"nn", "XYZ", "-NONE-", "\xff", "",
}

// FuzzParse parses arbitrary token sequences with arbitrary tags with each embedded model
// (greedy and beam search):
// the forms are forms split at spaces (empty forms included), token i takes the tag
// fuzzTags[tags[i mod len(tags)]]. Parse must never panic; it fails with ErrNoTag exactly
// when a tag is empty, and otherwise gives a valid projective tree with one token on the
// root (labelled "root") and a label on every other arc, the same as a fresh parser gives.
// Seeds are in testdata/fuzz/FuzzParse.
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 10m -parallel 1 ./parser
func FuzzParse(f *testing.F) {
	f.Add("The cat sat on the mat .", []byte{2, 11, 27, 5, 2, 11, 38})
	ms, err := embedded()
	if err != nil {
		f.Fatal(err)
	}
	reused := make([]*Parser, len(ms))
	for i, m := range ms {
		reused[i] = m.NewParser()
	}
	f.Fuzz(func(t *testing.T, forms string, tags []byte) {
		for i, m := range ms {
			checkParse(t, m, reused[i], forms, tags)
		}
	})
}

// checkParse is one FuzzParse check with model m, parsing with reused and with a fresh
// parser.
func checkParse(t *testing.T, m *Model, reused *Parser, forms string, tags []byte) {
	t.Helper()
	words := strings.Split(forms, " ")
	if len(words) > 1000 {
		words = words[:1000]
	}
	s := &syntax.Sentence{Tokens: make([]syntax.Token, len(words))}
	noTag := len(tags) == 0
	for i, w := range words {
		tag := ""
		if len(tags) > 0 {
			tag = fuzzTags[int(tags[i%len(tags)])%len(fuzzTags)]
		}
		noTag = noTag || tag == ""
		s.Tokens[i] = syntax.Token{Form: w, XPOS: tag, Head: syntax.NoHead}
	}
	err := reused.Parse(s)
	if noTag {
		if !errors.Is(err, ErrNoTag) {
			t.Fatalf("a token has no tag: err = %v, want ErrNoTag", err)
		}
		for i, tk := range s.Tokens {
			if tk.Head != syntax.NoHead || tk.Rel != "" {
				t.Fatalf("failed Parse changed token %d: %+v", i+1, tk)
			}
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := syntax.NewTree(s.Heads()); err != nil {
		t.Fatalf("invalid tree %v: %v", s.Heads(), err)
	}
	roots := 0
	h := []int32{-1}
	for i, tk := range s.Tokens {
		switch {
		case tk.Head == 0:
			roots++
			if tk.Rel != "root" {
				t.Fatalf("token %d on the root labelled %q", i+1, tk.Rel)
			}
		case tk.Rel == "" || tk.Rel == "root":
			t.Fatalf("token %d: label %q on the arc from %d", i+1, tk.Rel, tk.Head)
		}
		h = append(h, int32(tk.Head))
	}
	if roots != 1 || !isProjective(h) {
		t.Fatalf("%d tokens on the root, projective %v: %v", roots, isProjective(h), h)
	}
	fresh := &syntax.Sentence{Tokens: make([]syntax.Token, len(s.Tokens))}
	for i, tk := range s.Tokens {
		fresh.Tokens[i] = syntax.Token{Form: tk.Form, XPOS: tk.XPOS, Head: syntax.NoHead}
	}
	if err := m.NewParser().Parse(fresh); err != nil {
		t.Fatal(err)
	}
	for i := range s.Tokens {
		if a, b := s.Tokens[i], fresh.Tokens[i]; a.Head != b.Head || a.Rel != b.Rel {
			t.Fatalf("token %d: a reused parser gives %d/%s, a fresh one %d/%s", i+1, a.Head, a.Rel, b.Head, b.Rel)
		}
	}
}
