package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
	annbatch "github.com/qsc-nlp/qsc/annotation/batch"
)

// annotateOutput runs qsc annotate and decodes its output records.
func annotateOutput(t *testing.T, args ...string) []annbatch.Output {
	t.Helper()
	code, out, errs := runQSC(t, append([]string{"annotate"}, args...)...)
	if code != 0 && code != 1 {
		t.Fatalf("qsc annotate %q: exit %d: %s", args, code, errs)
	}
	var recs []annbatch.Output
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	for dec.More() {
		var o annbatch.Output
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("output is not records: %v\n%s", err, out)
		}
		recs = append(recs, o)
	}
	if strings.Count(out, "\n") != len(recs) {
		t.Fatalf("%d records on %d lines", len(recs), strings.Count(out, "\n"))
	}
	failed := 0
	for _, o := range recs {
		if o.Failed() {
			failed++
		}
	}
	// A batch with an error record exits with status 1 and says so on stderr.
	if want := fmt.Sprintf("%d of %d records failed", failed, len(recs)); failed > 0 && (code != 1 || !strings.Contains(errs, want)) {
		t.Fatalf("qsc annotate %q: %d error records, exit %d, stderr %q; want exit 1 and %q", args, failed, code, errs, want)
	} else if failed == 0 && code != 0 {
		t.Fatalf("qsc annotate %q: exit %d with no error record: %s", args, code, errs)
	}
	return recs
}

func TestAnnotateCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	texts := map[string]string{
		"a": "Police arrested two men in Syracuse. They were released on bail.",
		"c": "The court heard the appeal on Monday.\n\nIt will rule next week.",
	}
	jsonl := write("docs.jsonl", strings.Join([]string{
		`{"id":"a","text":"Police arrested two men in Syracuse. They were released on bail."}`,
		`not json`,
		``,
		`{"id":"b"}`,
		`{"id":"u","text":"x","lang":"en"}`,
		`{"text":"no id"}`,
		`{"id":"c","text":"The court heard the appeal on Monday.\n\nIt will rule next week."}`,
		`{"id":"e","text":""}`,
	}, "\n"))
	story := write("story.txt", "Police in Syracuse arrested two men on Tuesday after a long investigation.")
	texts[story] = "Police in Syracuse arrested two men on Tuesday after a long investigation."
	big := write("big.txt", strings.Repeat("word ", qsc.MaxDocumentBytes/5+1))
	missing := filepath.Join(dir, "missing.txt")

	recs := annotateOutput(t, "--jobs", "3", jsonl, story, missing, big)
	want := []struct{ id, err string }{
		{"a", ""},
		{"", "docs.jsonl:2: invalid record"},
		{"b", `docs.jsonl:4: record has no "text"`},
		{"u", `unknown field "lang"`},
		{"", `docs.jsonl:6: record has no "id"`},
		{"c", ""},
		{"e", ""},
		{story, ""},
		{missing, "no such file"},
		{big, "more than 1048576 bytes"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d output records, want %d: %+v", len(recs), len(want), recs)
	}
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		r := recs[i]
		if r.ID != w.id || (w.err == "") != (r.Error == "") || !strings.Contains(r.Error, w.err) {
			t.Errorf("record %d: id %q error %q; want id %q error containing %q", i+1, r.ID, r.Error, w.id, w.err)
			continue
		}
		if r.Error != "" {
			if r.Annotation != nil || r.Tokens != 0 {
				t.Errorf("record %d: error record with an annotation", i+1)
			}
			continue
		}
		text, ok := texts[r.ID]
		if !ok { // "e": empty text
			text = ""
		}
		a, err := eng.Annotate(context.Background(), text)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := a.MarshalBinary()
		if !bytes.Equal(r.Annotation, enc) || r.Bytes != len(enc) || r.Sentences != a.Len() || r.Tokens != a.Tokens() {
			t.Errorf("record %d (%s): annotation of %d bytes, %d sentences, %d tokens; want those of Annotate (%d, %d, %d)",
				i+1, r.ID, len(r.Annotation), r.Sentences, r.Tokens, len(enc), a.Len(), a.Tokens())
		}
	}
	if recs[5].Sentences != 2 {
		t.Errorf("document c: %d sentences, want 2", recs[5].Sentences)
	}
}

// TestAnnotateSnippets checks -q: the snippets of each query are those of DoSnippets.
func TestAnnotateSnippets(t *testing.T) {
	dir := t.TempDir()
	doc := "Police arrested two men in Syracuse on Tuesday. They were released on bail on Wednesday."
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(`{"id":"a","text":"`+doc+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := annotateOutput(t, "-q", "police,Syracuse", "-q", "bail", "-q", "arrested two men in Syracuse on Tuesday", "-b", "30", "-n", "2", "--tables", in)
	if len(recs) != 1 || recs[0].Error != "" || len(recs[0].Snippets) != 3 {
		t.Fatalf("records %+v", recs)
	}
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	for i, qs := range recs[0].Snippets {
		want, werr := eng.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: doc, Query: qs.Query, Budget: 30, N: 2})
		if werr != nil {
			if qs.Error != werr.Error() {
				t.Errorf("query %d: error %q, want %q", i+1, qs.Error, werr)
			}
			continue
		}
		if !reflect.DeepEqual(qs.Snippets, want) {
			t.Errorf("query %d %q: %+v, want %+v", i+1, qs.Query, qs.Snippets, want)
		}
	}
	if recs[0].Snippets[2].Error == "" {
		t.Errorf("a query longer than the budget has no error: %+v", recs[0].Snippets[2])
	}
	// --method takes any case, as in compress and snippets.
	upper := annotateOutput(t, "-q", "police,Syracuse", "-b", "30", "-n", "2", "--method", "ILP", in)
	if len(upper) != 1 || upper[0].Error != "" || !reflect.DeepEqual(upper[0].Snippets[0].Snippets, recs[0].Snippets[0].Snippets) {
		t.Errorf("--method ILP: %+v", upper)
	}
	// --tables: the annotation reads on its own.
	var a annotation.Annotation
	if err := annotation.Decode(recs[0].Annotation, &a); err != nil || a.Tables == nil {
		t.Errorf("annotation with tables: %v, tables %v", err, a.Tables)
	}

	recs = annotateOutput(t, "--json", in)
	if len(recs) != 1 || recs[0].AnnotationJSON == nil || recs[0].Annotation != nil || recs[0].AnnotationJSON.Sentences[0][0].XPOS == "" {
		t.Errorf("--json: %+v", recs)
	}
}

func TestAnnotateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"annotate", "-b", "30"},
		{"annotate", "-q", "police"},
		{"annotate", "-q", "police", "-b", "30", "--method", "nope"},
		{"annotate", "--jobs", "0"},
		{"annotate", "-q", " , "},
	} {
		if code, _, errs := runQSC(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errs)
		}
	}
}

// TestSplitTerms checks how -q is cut into terms: at commas, blanks trimmed and empty
// terms dropped, except a comma inside double quotes, which is the term's.
func TestSplitTerms(t *testing.T) {
	for in, want := range map[string][]string{
		"police, arrest":             {"police", "arrest"},
		" ,a,, b ,":                  {"a", "b"},
		`"1,000 pg/mL",IL-6`:         {"1,000 pg/mL", "IL-6"},
		`Smith, "Jones, Brown & Co"`: {"Smith", "Jones, Brown & Co"},
		`""`:                         nil,
		"1,94":                       {"1,94"}, // a number's comma is the term's
		"6,5 milyon, TL":             {"6,5 milyon", "TL"},
		"1,000,Smith":                {"1,000", "Smith"},
		"5, 6":                       {"5", "6"},
	} {
		if got := splitTerms(in); !slices.Equal(got, want) {
			t.Errorf("splitTerms(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAnnotateSkipAndInterrupt checks --skip, which resumes a run after its first N
// records, and that a run whose context ends stops after whole records with
// errInterrupted.
func TestAnnotateSkipAndInterrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "docs.jsonl")
	lines := `{"id":"a","text":"Police arrested two men."}

{"id":"b","text":"The council met on Tuesday."}
{"id":"c","text":"The audit found no fraud."}
`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, all, errs := runQSC(t, "annotate", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, rest, errs := runQSC(t, "annotate", "--skip", "1", path)
	full := strings.SplitAfter(all, "\n")
	if code != 0 || rest != strings.Join(full[1:], "") {
		t.Errorf("--skip 1: exit %d %s\n%s\nwant the records after the first:\n%s", code, errs, rest, strings.Join(full[1:], ""))
	}
	if code, _, _ := runQSC(t, "annotate", "--skip", "-1", path); code != 2 {
		t.Errorf("--skip -1: exit %d, want 2", code)
	}
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	p, err := annbatch.New(eng, annbatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out strings.Builder
	st, err := annotateAll(ctx, p, []annotateSource{{path: path, jsonl: true}}, nil, &out, 2, 0, nil)
	if !errors.Is(err, errInterrupted) || strings.Count(out.String(), "\n") != st.records || (out.Len() > 0 && !strings.HasSuffix(out.String(), "\n")) {
		t.Errorf("interrupted: %v, %d records, output %q", err, st.records, out.String())
	}
}
