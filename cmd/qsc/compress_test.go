package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc"
)

// batch runs the JSONL interface on input and returns the decoded output records.
func batch(t *testing.T, input string) []map[string]any {
	t.Helper()
	eng, err := qsc.New()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	batchErr := compressJSONL(eng, strings.NewReader(input), &out, qsc.DefaultMethod)
	var recs []map[string]any
	failed := 0
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %q is not JSON: %v", line, err)
		}
		if _, ok := m["error"]; ok {
			failed++
		}
		recs = append(recs, m)
	}
	// The batch's error counts its error records (the command then exits with status 1).
	if want := fmt.Sprintf("%d of %d records failed", failed, len(recs)); failed > 0 && (batchErr == nil || !strings.Contains(batchErr.Error(), want)) {
		t.Fatalf("%d error records: batch error %v, want %q", failed, batchErr, want)
	} else if failed == 0 && batchErr != nil {
		t.Fatal(batchErr)
	}
	return recs
}

// TestJSONLBadRecords checks that every bad record yields one error record, with its id
// when it has one, and that the batch goes on.
func TestJSONLBadRecords(t *testing.T) {
	long := `{"id":"long","text":"` + strings.Repeat("a", maxRecordBytes) + `"}`
	input := strings.Join([]string{
		`{"id":"a","tokens":["x"],"query_ids":[1]}`,
		`not json`,
		`{"id":"b","tokens":"x","query_ids":[1],"budget":5}`,
		``,
		`{"id":"c","tokens":["x"],"query_ids":[1],"budget":5,"querry":1}`,
		`{"tokens":["x"],"query_ids":[1],"budget":5}`,
		`{"id":"d","tokens":["x"],"query_ids":[1],"budget":"5"}`,
		long,
		`{"id":"e","tokens":["x"],"query_ids":[1],"budget":5} {"id":"f"}`,
		`{"id":"g","text":"Dogs bark.","query":["cats"],"budget":20,"method":"nope"}`,
	}, "\n")
	recs := batch(t, input)
	want := []struct{ id, msg string }{
		{"a", "budget must be a positive"},
		{"", "line 2: invalid record"},
		{"b", `field "tokens" must be a list of strings, not string`},
		{"c", `unknown field "querry"`},
		{"", `record has no "id"`},
		{"d", `field "budget" must be an integer, not string`},
		{"", "record longer than"},
		{"e", "more than one JSON value"},
		{"g", `unknown method "nope"`},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d output records for %d input records: %v", len(recs), len(want), recs)
	}
	for i, w := range want {
		id, _ := recs[i]["id"].(string)
		msg, _ := recs[i]["error"].(string)
		if id != w.id || !strings.Contains(msg, w.msg) {
			t.Errorf("record %d: id %q error %q; want id %q error containing %q", i+1, id, msg, w.id, w.msg)
		}
		if _, ok := recs[i]["kept"]; ok {
			t.Errorf("record %d: error record has kept", i+1)
		}
	}
}

func TestCompressUsage(t *testing.T) {
	for _, args := range [][]string{
		{"compress"},
		{"compress", "-q", "dogs", "Dogs bark."},
		{"compress", "--jsonl", "-b", "5"},
		{"compress", "--jsonl", "text"},
		{"compress", "-q", "dogs", "-b", "-5", "Dogs bark."}, // a usage error, as -b 0 is
		{"snippets", "-q", "dogs", "-b", "-5", "-"},
		{"compress", "-q", " , ", "-b", "5", "Dogs bark."}, // no term: not the API's "query_ids or query"
		{"snippets", "-q", ",,", "-b", "5", "-"},
	} {
		if code, _, _ := runQSC(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

func TestJSONLGoodRecords(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"t1","tokens":["Police","in","Syracuse","arrested","two","men","."],"query_ids":[3],"budget":30}`,
		`{"id":"t2","text":"Police in Syracuse arrested two men on Tuesday.","query":["police","Tuesday"],"budget":40,"method":"ablated"}`,
		`{"id":"t3","tokens":["Dogs","bark","."],"xpos":["NNS","VBP","."],"query_ids":[1],"budget":9,"method":"random"}`,
	}, "\n") + "\n"
	recs := batch(t, input)
	if len(recs) != 3 {
		t.Fatalf("got %d records: %v", len(recs), recs)
	}
	for i, r := range recs {
		if r["error"] != nil {
			t.Fatalf("record %d: %v", i+1, r["error"])
		}
		comp := r["compression"].(string)
		kept := r["kept"].([]any)
		// The compression is text cut from the sentence: at most one word per kept token.
		if len(kept) == 0 || len(strings.Fields(comp)) == 0 || len(strings.Fields(comp)) > len(kept) {
			t.Errorf("record %d: kept %v vs compression %q", i+1, kept, comp)
		}
	}
	if !strings.Contains(recs[0]["compression"].(string), "Syracuse") || len(recs[0]["compression"].(string)) > 30 {
		t.Errorf("t1: %v", recs[0])
	}
}

// TestExplainAnyCut checks that --explain tells a display whose cuts could not all be clean
// (a token budget too small for one) from one where the rules yield to the query: the
// display is still the best one the rules allow, and is not called the method's compression.
func TestExplainAnyCut(t *testing.T) {
	code, out, errs := runQSC(t, "compress", "-q", "police,burglaries", "-b", "30", "--explain",
		"Police in Syracuse, New York, arrested two men suspected of a string of burglaries in the city's east side on Tuesday morning.")
	_, display, ok := strings.Cut(out, "\ndisplay: ")
	if code != 0 || !ok {
		t.Fatalf("exit %d, no display block\n%s%s", code, out, errs)
	}
	if !strings.Contains(display, "none with clean cuts only fits") || strings.Contains(display, "yield") {
		t.Errorf("display block:\n%s", display)
	}
}

// TestExplainOneRun checks the plain display when no display with clean cuts fits a
// token budget but one run holding the query does: the run may start inside a phrase
// ("suck up" without "to"), where any cut would join "to suck up" to "this time people"
// into a false sentence; --explain says so.
func TestExplainOneRun(t *testing.T) {
	code, out, errs := runQSC(t, "compress", "-q", "suck,people", "-b", "53", "--explain",
		"Usually, these are just a chance for the suckups to suck up, but this time people are actually concerned about the company's plans.")
	first, rest, _ := strings.Cut(out, "\n")
	_, display, ok := strings.Cut(rest, "\ndisplay: ")
	if code != 0 || !ok {
		t.Fatalf("exit %d, no display block\n%s%s", code, out, errs)
	}
	if want := "suck up, but this time people are actually concerned"; first != want {
		t.Errorf("compression %q, want %q", first, want)
	}
	if !strings.HasPrefix(display, "1 run;") || !strings.Contains(display, "it is one run, which may start inside a phrase") {
		t.Errorf("display block:\n%s", display)
	}
}

func TestCompressSingleExplain(t *testing.T) {
	code, out, errs := runQSC(t, "compress", "-q", "police,Syracuse", "-b", "40", "--explain", "--method", "lr",
		"Police in Syracuse arrested two men on Tuesday after a long investigation.")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	first, rest, _ := strings.Cut(out, "\n")
	if !strings.Contains(first, "Police") || !strings.Contains(first, "Syracuse") || len(first) > 40 {
		t.Errorf("compression line %q", first)
	}
	if !strings.Contains(rest, "candidate") || !strings.Contains(rest, "accept") {
		t.Errorf("explain output:\n%s", rest)
	}
	// The default method, the ILP, has no per-candidate decisions: explain lists what it kept.
	code, out, errs = runQSC(t, "compress", "-q", "police,Syracuse", "-b", "40", "--explain",
		"Police in Syracuse arrested two men on Tuesday after a long investigation.")
	if code != 0 || !strings.Contains(out, "chooses the whole compression at once") || !strings.Contains(out, "keep") {
		t.Errorf("explain with the default method: exit %d\n%s%s", code, out, errs)
	}
	// Both methods show the objective of the display step, term by term, which adds up.
	for _, m := range []string{"ilp", "lr"} {
		code, out, errs = runQSC(t, "compress", "-q", "arrested,burglaries", "-b", "60", "--budget-counts", "display", "--explain", "--method", m,
			"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.")
		_, display, ok := strings.Cut(out, "\ndisplay: ")
		if code != 0 || !ok {
			t.Fatalf("explain, %s: exit %d, no display block\n%s%s", m, code, out, errs)
		}
		var total, sum float64
		if _, err := fmt.Sscanf(display[strings.Index(display, "objective "):], "objective %f", &total); err != nil {
			t.Fatalf("explain, %s: %v in %q", m, err, display)
		}
		lines := strings.Split(strings.TrimSpace(display), "\n")[1:]
		for _, l := range lines {
			var v float64
			if _, err := fmt.Sscanf(l[strings.LastIndex(l, "=")+1:], "%f", &v); err != nil {
				t.Fatalf("explain, %s: line %q: %v", m, l, err)
			}
			sum += v
		}
		if len(lines) != 7 || math.Abs(sum-total) > 0.2 {
			t.Errorf("explain, %s: %d terms adding to %.1f, objective %.1f:\n%s", m, len(lines), sum, total, display)
		}
	}
	code, out, _ = runQSC(t, "compress", "-q", "police", "-b", "30", "--explain", "--decoding", "paper",
		"Police in Syracuse arrested two men on Tuesday after a long investigation.")
	if code != 0 || !strings.Contains(out, "display: the paper decoding has no display step") {
		t.Errorf("explain, paper decoding: exit %d\n%s", code, out)
	}
	if code, _, errs := runQSC(t, "compress", "-q", "dogs", "-b", "40", "Police arrested two men."); code != 1 || !strings.Contains(errs, `"dogs" is not in the sentence`) {
		t.Errorf("missing term: %d %s", code, errs)
	}
}

// TestEllipsisCountsDisplay checks that --ellipsis, without --budget-counts, fits what it
// prints, "…" marks included, in the budget, and that --budget-counts tokens still lets
// the marks run over it.
func TestEllipsisCountsDisplay(t *testing.T) {
	const text = "The hotel room was clean and quiet, but the staff at the front desk did not answer the phone for two days, so we never got the late checkout we had asked for."
	for _, b := range []int{60, 80} {
		code, out, errs := runQSC(t, "compress", "-q", "staff,checkout", "-b", fmt.Sprint(b), "--ellipsis", text)
		out = strings.TrimSuffix(out, "\n")
		if code != 0 || !strings.Contains(out, "…") || len([]rune(out)) > b {
			t.Errorf("b=%d --ellipsis: exit %d, %d characters: %q %s", b, code, len([]rune(out)), out, errs)
		}
	}
	code, out, errs := runQSC(t, "compress", "-q", "staff,checkout", "-b", "60", "--ellipsis", "--budget-counts", "tokens", text)
	if out = strings.TrimSuffix(out, "\n"); code != 0 || len([]rune(out)) <= 60 {
		t.Errorf("b=60 tokens: exit %d, %d characters: %q %s", code, len([]rune(out)), out, errs)
	}
}
