package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHeldOut checks that of UD_English-GUM only the dev and train splits may be read.
func TestHeldOut(t *testing.T) {
	for path, ok := range map[string]bool{
		"../shared/data/ud-english/UD_English-GUM/en_gum-ud-test.conllu.gz":  false,
		"../shared/data/ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz": true,
		"../shared/data/ud-english/UD_English-GUM/en_gum-ud-test.conllu":     false,
		"../shared/data/ud-english/UD_English-GUM/not-a-split.conllu":        false,
		"../shared/data/ud-english/UD_English-GUM/en_gum-ud-dev.conllu.gz":   true,
		"../shared/data/ud-english/UD_English-EWT/en_ewt-ud-test.conllu":     true,
	} {
		if err := heldOut(path); (err == nil) != ok {
			t.Errorf("heldOut(%q) = %v, want allowed %v", path, err, ok)
		}
	}
}

// TestLoadGENTLE checks that -gentle names each sentence's source by its genre and refuses a
// file without an eligible sentence.
func TestLoadGENTLE(t *testing.T) {
	var b strings.Builder
	for i, genre := range []string{"legal", "poetry", "legal"} {
		words := strings.Fields("The court held that the statute was valid because the state had shown a compelling interest in the health of its citizens today")
		fmt.Fprintf(&b, "# sent_id = GENTLE_%s_doc-%d\n# text = %s\n", genre, i+1, strings.Join(words, " "))
		for k, w := range words {
			fmt.Fprintf(&b, "%d\t%s\t%s\tNOUN\tNN\t_\t0\troot\t_\t_\n", k+1, w, strings.ToLower(w))
		}
		b.WriteString("\n")
	}
	dir := t.TempDir()
	pools, err := loadGENTLE(writeFile(t, dir, "en_gentle-ud-test.conllu", b.String()), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range pools[0].cands {
		got = append(got, c.source)
	}
	if want := []string{"gentle-legal", "gentle-poetry", "gentle-legal"}; !slices.Equal(got, want) {
		t.Errorf("sources %v, want %v", got, want)
	}
	if _, err := loadGENTLE(writeFile(t, dir, "empty.conllu", "# text = Short.\n1\tShort\tshort\tADJ\tJJ\t_\t0\troot\t_\t_\n\n"), io.Discard); err == nil {
		t.Error("a file without an eligible sentence: no error")
	}
}

// TestLoadTreebanks checks that -conllu makes one pool of equal share per treebank, named
// by its files, and refuses a file without an eligible sentence.
func TestLoadTreebanks(t *testing.T) {
	sent := func(b *strings.Builder, id int) {
		words := strings.Fields("If you plot multiple charts in the report , you will see a drop area for every field that the chart holds in its legend today")
		fmt.Fprintf(b, "# sent_id = s-%d\n# text = %s\n", id, strings.Join(words, " "))
		for k, w := range words {
			fmt.Fprintf(b, "%d\t%s\t%s\tNOUN\tNN\t_\t0\troot\t_\t_\n", k+1, w, strings.ToLower(w))
		}
		b.WriteString("\n")
	}
	var a, b strings.Builder
	sent(&a, 1)
	sent(&b, 2)
	dir := t.TempDir()
	paths := []string{
		writeFile(t, dir, "en_lines-ud-dev.conllu", a.String()),
		writeFile(t, dir, "en_partut-ud-test.conllu", b.String()),
		writeFile(t, dir, "en_lines-ud-test.conllu", b.String()),
	}
	pools, err := loadTreebanks(paths, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pools {
		got = append(got, fmt.Sprintf("%s %d %.1f %s", p.name, len(p.cands), p.share, p.cands[0].source))
	}
	if want := []string{"lines 2 0.5 lines", "partut 1 0.5 partut"}; !slices.Equal(got, want) {
		t.Errorf("pools %q, want %q", got, want)
	}
	if _, err := loadTreebanks([]string{writeFile(t, dir, "empty.conllu", "# text = Short.\n1\tShort\tshort\tADJ\tJJ\t_\t0\troot\t_\t_\n\n")}, io.Discard); err == nil {
		t.Error("a file without an eligible sentence: no error")
	}
	if _, err := loadTreebanks([]string{filepath.Join(dir, "en_gum-ud-test.conllu")}, io.Discard); err == nil {
		t.Error("GUM's test split: no error")
	}
}

func TestExcludeRead(t *testing.T) {
	dir := t.TempDir()
	read := filepath.Join(dir, "items.jsonl")
	line := `{"id":"b60-1","protocol":"b60","source":"x","text":"The  cat sat.","query":["cat"],"budget":9,"budget_counts":"display"}`
	if err := os.WriteFile(read, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pools := []pool{{name: "p", share: 1, cands: []candidate{{text: "the cat sat."}, {text: "A dog ran."}}}}
	got, err := excludeRead(pools, []string{read}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0].cands) != 1 || got[0].cands[0].text != "A dog ran." {
		t.Fatalf("after -exclude: %+v, want only the unread sentence", got[0].cands)
	}
	if len(pools[0].cands) != 2 {
		t.Fatalf("excludeRead changed its argument: %+v", pools[0].cands)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(line+"\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := excludeRead(pools, []string{bad}, io.Discard); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Fatalf("a bad line: err %v, want one naming bad.jsonl:2", err)
	}
}
