package qscbeam

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation/batch"
)

func TestMain(m *testing.M) { ptest.Main(m) } // the Prism runner unless --runner says otherwise

func init() { register.Function1x1(idStatus) }

// idStatus is "id:ok" or "id:error" for an output record.
func idStatus(line string) string {
	var o batch.Output
	if err := json.Unmarshal([]byte(line), &o); err != nil {
		return "not a record: " + err.Error()
	}
	if o.Failed() {
		return o.ID + ":error"
	}
	return o.ID + ":ok"
}

// readOutput reads the output records of a run.
func readOutput(t *testing.T, path string) map[string]batch.Output {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := map[string]batch.Output{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var o batch.Output
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatalf("output line %q: %v", sc.Text(), err)
		}
		recs[o.ID+"|"+o.Error] = o
	}
	return recs
}

// counters returns the pipeline's counters of namespace "qsc".
func counters(res beam.PipelineResult) map[string]int64 {
	m := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Key.Namespace == Namespace {
			m[c.Key.Name] += c.Result()
		}
	}
	return m
}

// inputs reads the fixture's records {"id", "text"} that are valid.
func inputs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("testdata/docs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if id, text, err := batch.DecodeInput([]byte(line), ""); err == nil {
			texts[id] = text
		}
	}
	return texts
}

func TestPipelineJSONL(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.jsonl")
	o := Options{Input: "testdata/docs.jsonl", Output: out, Options: batch.Options{Queries: [][]string{{"police"}, {"appeal", "court"}}, Budget: 60, N: 2}}
	p, s := beam.NewPipelineWithRoot()
	col, err := Build(s, o)
	if err != nil {
		t.Fatal(err)
	}
	passert.Count(s, col, "records", 9) // every non-blank line
	passert.Equals(s, beam.ParDo(s, idStatus, col),
		"d1:ok", "d2:ok", ":error", "d3:ok", "x1:error", "x2:error", ":error", "d4:ok", "d5:ok")
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	c := counters(res)
	recs := readOutput(t, out)
	if c[MetricRecords] != 9 || c[MetricErrors] != 4 {
		t.Errorf("counters %v, want 9 records and 4 error records", c)
	}
	// An error record names the file, and quotes the start of a line that gives no id.
	var noID []string
	for _, r := range recs {
		if r.Failed() && !strings.Contains(r.Error, "docs.jsonl: ") {
			t.Errorf("error record %+v does not name the file", r)
		}
		if r.Failed() && r.ID == "" {
			noID = append(noID, r.Error)
		}
	}
	slices.Sort(noID)
	if len(noID) != 2 || !strings.HasSuffix(noID[0], `(the line begins "not json")`) || !strings.HasSuffix(noID[1], `(the line begins "{\"text\":\"a record without an id\"}")`) {
		t.Errorf("error records without an id: %q", noID)
	}
	// The annotations and snippets are those of the library.
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	var toks, queryErrs int64
	for id, text := range inputs(t) {
		r, ok := recs[id+"|"]
		if !ok {
			t.Errorf("no output record for %s", id)
			continue
		}
		a, err := eng.Annotate(context.Background(), text)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := a.MarshalBinary()
		if !bytes.Equal(r.Annotation, want) {
			t.Errorf("%s: annotation differs from Engine.Annotate", id)
		}
		toks += int64(a.Tokens())
		for i, q := range o.Queries {
			sn, err := eng.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: text, Query: q, Budget: o.Budget, N: o.N})
			got := r.Snippets[i]
			if err != nil {
				queryErrs++
				if got.Error != err.Error() {
					t.Errorf("%s query %q: error %q, want %q", id, q, got.Error, err)
				}
			} else if !slices.EqualFunc(got.Snippets, sn, func(a, b qsc.Snippet) bool { return a.Text == b.Text && a.Sentence == b.Sentence }) {
				t.Errorf("%s query %q: snippets %+v, want %+v", id, q, got.Snippets, sn)
			}
		}
	}
	if c[MetricTokens] != toks || c[MetricQueryErrors] != queryErrs {
		t.Errorf("counters %v, want %d tokens and %d query errors", c, toks, queryErrs)
	}
}

func TestPipelineText(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.jsonl")
	o := Options{Input: "testdata/text/*.txt", Format: FormatText, Output: out}
	p, s := beam.NewPipelineWithRoot()
	col, err := Build(s, o)
	if err != nil {
		t.Fatal(err)
	}
	passert.Count(s, col, "records", 2)
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	if c := counters(res); c[MetricRecords] != 2 || c[MetricErrors] != 0 || c[MetricSentences] != 3 {
		t.Errorf("counters %v, want 2 records, no error, 3 sentences", c)
	}
	recs := readOutput(t, out)
	for _, name := range []string{"storm.txt", "election.txt"} {
		found := false
		for k, r := range recs {
			found = found || (strings.HasSuffix(k, name+"|") && len(r.Annotation) > 0)
		}
		if !found {
			t.Errorf("no annotation of %s in %v", name, recs)
		}
	}
}

func TestOptionsCheck(t *testing.T) {
	for _, o := range []Options{
		{Output: "x"},
		{Input: "x"},
		{Input: "x", Output: "y", Format: "csv"},
		{Input: "x", Output: "y", Options: batch.Options{Queries: [][]string{{"a"}}}},
		{Input: "x", Output: "y", Options: batch.Options{Queries: [][]string{{"a"}}, Budget: 10, Method: "nope"}},
		{Input: "nofs://bucket/x", Output: "y"},
	} {
		if err := o.Check(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	// What the flags offer is linked: the accurate parser and every method.
	for _, o := range []Options{
		{Input: "x", Output: "y", Accurate: true},
		{Input: "x", Output: "y", Options: batch.Options{Queries: [][]string{{"a"}}, Budget: 10, Method: "lr"}},
		{Input: "x", Output: "y", Options: batch.Options{Queries: [][]string{{"a"}}, Budget: 10, Method: "nn"}},
	} {
		if err := o.Check(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}
