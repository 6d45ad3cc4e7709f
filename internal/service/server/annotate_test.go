package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/annotation"
	annbatch "github.com/qsc-nlp/qsc/annotation/batch"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// annotateDocs are the documents of the annotation tests: the test collection, a document
// of several paragraphs, and text that qsc does not read as English (whose snippets ignore
// the annotation, as the library's do).
var annotateDocs = []string{
	testDocs[0].Text, testDocs[1].Text, testDocs[2].Text,
	"The court ruled on Monday.\n\nIts ruling, which the court published late, surprised the lawyers of both sides. \"We will appeal,\" one of them said.",
	"東京都は月曜日に新しい計画を発表した。計画は来年から始まる。",
}

// annotateOf asks the server for the annotation of text and returns it, in base64.
func annotateOf(t *testing.T, ex func(string) exchange, text string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"text": text})
	e := ex(string(body))
	var out struct {
		Annotation string
		Error      string
	}
	if e.status != 200 || json.Unmarshal(e.body, &out) != nil || out.Annotation == "" {
		t.Fatalf("POST /v1/annotate %.40q: %d %s", text, e.status, e.body)
	}
	return out.Annotation
}

// TestAnnotateIsTheBatchRecord checks that POST /v1/annotate answers what `qsc annotate`
// writes for the same record, with the id only when the request gives one, and the tables
// when asked for.
func TestAnnotateIsTheBatchRecord(t *testing.T) {
	ts, _ := newServer(t, Config{})
	eng := servicetest.Engine(t)
	for _, tables := range []bool{false, true} {
		p, err := annbatch.New(eng, annbatch.Options{Tables: tables})
		if err != nil {
			t.Fatal(err)
		}
		path := "/v1/annotate"
		if tables {
			path += "?tables=true"
		}
		for i, text := range annotateDocs {
			id := string(rune('a' + i))
			rec, _ := json.Marshal(map[string]string{"id": id, "text": text})
			out := p.Document(context.Background(), id, text)
			want, err := annbatch.Marshal(&out)
			if err != nil {
				t.Fatal(err)
			}
			ex := do(t, ts, "POST", path, string(rec), true)
			if ex.status != 200 || !bytes.Equal(ex.body, append(want, '\n')) {
				t.Errorf("%s %s: %d %s, want 200 %s", path, rec, ex.status, ex.body, want)
			}
			// Without an id, the same record without it.
			rec, _ = json.Marshal(map[string]string{"text": text})
			ex = do(t, ts, "POST", path, string(rec), true)
			if ex.status != 200 || !bytes.Equal(ex.body, append(bytes.Replace(want, []byte(`"id":"`+id+`",`), nil, 1), '\n')) {
				t.Errorf("%s without an id: %d %s", path, ex.status, ex.body)
			}
			var got annbatch.Output
			if err := json.Unmarshal(ex.body, &got); err != nil {
				t.Fatal(err)
			}
			var a annotation.Annotation
			if err := a.UnmarshalBinary(got.Annotation); err != nil || a.Len() != got.Sentences || (a.Tables != nil) != tables {
				t.Errorf("%s: annotation %v, %d sentences (answer %d), tables %v", path, err, a.Len(), got.Sentences, a.Tables != nil)
			}
		}
	}
}

// TestSnippetsAnnotated checks that POST /v1/snippets with the document's annotation from
// POST /v1/annotate answers byte for byte what it answers without, for every method,
// budget and query of a sample.
func TestSnippetsAnnotated(t *testing.T) {
	ts, _ := newServer(t, Config{})
	ann := func(body string) exchange { return do(t, ts, "POST", "/v1/annotate", body, true) }
	queries := [][]string{{"men", "arrest"}, {"tree"}, {"poetry", "Birmingham"}, {"court", "appeal"}, {"ruling"}, {"計画"}, {"bail"}}
	n := 0
	for _, doc := range annotateDocs {
		a := annotateOf(t, ann, doc)
		for _, q := range queries {
			for _, method := range []string{"", "lr", "window"} {
				for _, budget := range []int{12, 40, 100} {
					req := map[string]any{"document": doc, "query": q, "budget": budget, "n": 2}
					if method != "" {
						req["method"] = method
					}
					raw, _ := json.Marshal(req)
					want := do(t, ts, "POST", "/v1/snippets", string(raw), true)
					req["annotation"] = a
					body, _ := json.Marshal(req)
					got := do(t, ts, "POST", "/v1/snippets", string(body), true)
					if got.status != want.status || !bytes.Equal(got.body, want.body) {
						t.Errorf("%.30q %v %s b=%d: annotated %d %s, want %d %s", doc, q, method, budget, got.status, got.body, want.status, want.body)
					}
					if got.status == 200 && !bytes.Equal(got.body, []byte("{\"snippets\":[]}\n")) {
						n++
					}
				}
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d of the requests had snippets", n)
	}
}

// TestSnippetsAnnotationErrors checks the 400s of an annotation that cannot stand for the
// document, and that reparse answers an annotation of other models as if there were none.
func TestSnippetsAnnotationErrors(t *testing.T) {
	ts, _ := newServer(t, Config{})
	doc := testDocs[0].Text
	a := annotateOf(t, func(body string) exchange { return do(t, ts, "POST", "/v1/annotate", body, true) }, doc)
	data, _ := base64.StdEncoding.DecodeString(a)
	var other annotation.Annotation
	if err := other.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	other.Models.Parser = annotation.NewModelID([32]byte{1, 2, 3})
	od, err := other.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	otherModels := base64.StdEncoding.EncodeToString(od)
	req := func(doc, ann string, extra string) string {
		body, _ := json.Marshal(map[string]any{"document": doc, "query": []string{"men"}, "budget": 40})
		s := strings.TrimSuffix(string(body), "}")
		if ann != "" {
			s += `,"annotation":"` + ann + `"`
		}
		return s + extra + "}"
	}
	for _, c := range []struct {
		body   string
		status int
		msg    string
	}{
		{req(doc+" More.", a, ""), 400, "annotation does not belong to this text"},
		{req(strings.ToUpper(doc), a, ""), 400, "annotation does not belong to this text"},
		{req(doc, "%%%", ""), 400, `field "annotation": illegal base64`},
		{req(doc, base64.StdEncoding.EncodeToString([]byte("not one")), ""), 400, `field "annotation"`},
		{req(doc, a[:len(a)/2], ""), 400, `field "annotation"`},
		{req(doc, otherModels, ""), 400, "other models"},
		{req(doc, "", `,"reparse":true`), 400, `"reparse" needs an "annotation"`},
		{req(doc, a, `,"reparse":"yes"`), 400, `field "reparse" must be a boolean, not string`},
	} {
		ex := do(t, ts, "POST", "/v1/snippets", c.body, false)
		var e errorBody
		if ex.status != c.status || json.Unmarshal(ex.body, &e) != nil || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%.80s…: %d %s, want %d and %q", c.body[max(0, len(c.body)-80):], ex.status, ex.body, c.status, c.msg)
		}
	}
	want := do(t, ts, "POST", "/v1/snippets", req(doc, "", ""), true)
	got := do(t, ts, "POST", "/v1/snippets", req(doc, otherModels, `,"reparse":true`), true)
	if want.status != 200 || got.status != 200 || !bytes.Equal(got.body, want.body) {
		t.Errorf("reparse: %d %s, want %d %s", got.status, got.body, want.status, want.body)
	}
	// The snippets are made from the annotation's parse: with every token of a sentence
	// attached to its root, they change.
	other.Models = servicetest.Engine(t).AnnotationModels()
	for j := range other.Len() {
		lo, hi := other.Sentence(j)
		root := int32(0)
		for i := lo; i < hi; i++ {
			if other.Head[i] == 0 {
				root = int32(i - lo + 1)
			}
		}
		for i := lo; i < hi; i++ {
			if other.Head[i] != 0 {
				other.Head[i] = root
			}
		}
	}
	od, err = other.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	flat, differ := base64.StdEncoding.EncodeToString(od), 0
	for _, q := range []string{"men", "burglaries", "investigation", "bail", "Wednesday"} {
		for _, b := range []int{25, 35, 50, 70} {
			body, _ := json.Marshal(map[string]any{"document": doc, "query": []string{q}, "budget": b})
			want := do(t, ts, "POST", "/v1/snippets", string(body), true)
			body, _ = json.Marshal(map[string]any{"document": doc, "query": []string{q}, "budget": b, "annotation": flat})
			got := do(t, ts, "POST", "/v1/snippets", string(body), true)
			if got.status != want.status {
				t.Errorf("flat trees, %s, b=%d: %d %s, want %d", q, b, got.status, got.body, want.status)
			}
			if !bytes.Equal(got.body, want.body) {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("an annotation with flat trees gives the snippets of the parse: is it read?")
	}
	// The metrics count each annotation by its result.
	m := string(do(t, ts, "GET", "/metrics", "", true).body)
	for _, want := range []string{
		`qsc_snippet_annotations_total{result="other_text"} 2`,
		`qsc_snippet_annotations_total{result="unreadable"} 3`,
		`qsc_snippet_annotations_total{result="other_models"} 1`,
		`qsc_snippet_annotations_total{result="reparsed"} 1`,
		`qsc_snippet_annotations_total{result="used"} 20`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestAnnotateErrors checks the 400s of POST /v1/annotate: each names the problem, and the
// record's id when it could be read.
func TestAnnotateErrors(t *testing.T) {
	ts, _ := newServer(t, Config{MaxBodyBytes: 4096})
	for _, c := range []struct {
		path, body string
		status     int
		msg, id    string
	}{
		{"/v1/annotate", `{"id":"r1"}`, 400, `record has no "text"`, "r1"},
		{"/v1/annotate", `{"id":"r2","text":"Dogs.","lang":"en"}`, 400, `unknown field "lang"`, "r2"},
		{"/v1/annotate", `{"text":"Dogs."`, 400, "invalid record", ""},
		{"/v1/annotate", `{"id":"r3","text":"Dogs \udc00 bark."}`, 200, "", "r3"}, // JSON's lone surrogate reads as U+FFFD: valid text
		{"/v1/annotate", `{"id":"r4","text":7}`, 400, `field "text" must be a string`, "r4"},
		{"/v1/annotate?tables=maybe", `{"text":"Dogs."}`, 400, "parameter tables must be true or false", ""},
		{"/v1/annotate", `{"text":"` + strings.Repeat("a ", 3000) + `"}`, 413, "larger than 4096 bytes", ""},
	} {
		ex := do(t, ts, "POST", c.path, c.body, false)
		var e struct {
			ID    *string `json:"id"`
			Error string  `json:"error"`
		}
		if err := json.Unmarshal(ex.body, &e); err != nil || ex.status != c.status || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s %.50s: %d %s, want %d and %q", c.path, c.body, ex.status, ex.body, c.status, c.msg)
			continue
		}
		if got := ""; (e.ID != nil) != (c.id != "") || (e.ID != nil && *e.ID != c.id) {
			if e.ID != nil {
				got = *e.ID
			}
			t.Errorf("%s %.50s: id %q, want %q", c.path, c.body, got, c.id)
		}
	}
	// A text over the Engine's limit, in a body within the server's.
	big, _ := json.Marshal(map[string]string{"id": "big", "text": strings.Repeat("Dogs bark. ", (1<<20)/11+1)})
	ts2, _ := newServer(t, Config{})
	ex := do(t, ts2, "POST", "/v1/annotate", string(big), true)
	if ex.status != 400 || !bytes.HasPrefix(ex.body, []byte(`{"id":"big","error":`)) || !bytes.Contains(ex.body, []byte("bytes")) {
		t.Errorf("a text over 1 MiB: %d %.200s", ex.status, ex.body)
	}
	// The route needs POST.
	if ex := do(t, ts, "GET", "/v1/annotate", "", false); ex.status != 405 {
		t.Errorf("GET /v1/annotate: %d", ex.status)
	}
}
