package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// TestMain removes the binary that qscBinary built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// qscBinary builds the qsc command once for the package's tests and returns its path.
func qscBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "qsc-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "qsc")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// runBinary runs the built qsc with args and stdin, and returns its exit status, stdout
// and stderr.
func runBinary(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(qscBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// TestBinaryMatcher: the compress command matches query terms as the snippets do
// (inflection, accents, hyphenated words, trailing punctuation), and an absent term is
// still an error.
func TestBinaryMatcher(t *testing.T) {
	for _, c := range []struct{ query, text, want string }{
		{"court,appeal", "The court rejected the appeals of both men on Monday.", "appeals"},
		{"Zurich", "Banks in Zürich raised their fees on Monday.", "Zürich"},
		{"Sao Paulo", "Heavy rain fell on São Paulo for a week.", "São Paulo"},
		{"transformer", "A transformer-based model won the prize.", "transformer-based"},
		{"U.S", "Troops of the U.S. left the base.", "U.S."},
	} {
		code, out, errs := runBinary(t, "", "compress", "-q", c.query, "-b", "60", c.text)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("compress -q %q %q: exit %d, %q %q; want %q kept", c.query, c.text, code, out, errs, c.want)
		}
	}
	code, _, errs := runBinary(t, "", "compress", "-q", "court,judge", "-b", "60", "The court rejected the appeals.")
	if code != 1 || !strings.Contains(errs, `query term "judge" is not in the sentence`) {
		t.Errorf("absent term: exit %d, %q", code, errs)
	}
}

// TestBinaryFlagsAnywhere: a flag after the sentence is parsed as a flag, or refused with a
// usage error; never taken for words of the sentence.
func TestBinaryFlagsAnywhere(t *testing.T) {
	code, out, errs := runBinary(t, "", "compress", "-b", "20", "-q", "police", "Police came home late.", "--explain")
	if code != 0 || strings.Contains(out, "explain") || !strings.Contains(out, "query: Police") {
		t.Errorf("--explain after the sentence: exit %d, %q %q", code, out, errs)
	}
	code, out, errs = runBinary(t, "", "compress", "-b", "20", "-q", "police", "Police came home late.", "--nope")
	if code != 2 || out != "" || !strings.Contains(errs, "flag provided but not defined: -nope") {
		t.Errorf("unknown flag after the sentence: exit %d, %q %q", code, out, errs)
	}
	// "--" ends the flags: a sentence may begin with "-".
	code, out, errs = runBinary(t, "", "compress", "-b", "30", "-q", "police", "--", "-- Police came home late.")
	if code != 0 || !strings.Contains(out, "Police") {
		t.Errorf("after --: exit %d, %q %q", code, out, errs)
	}
	// Every command: parse takes flags after its text too.
	code, out, errs = runBinary(t, "", "parse", "Dogs bark.", "--nope")
	if code != 2 || !strings.Contains(errs, "-nope") {
		t.Errorf("parse: exit %d, %q %q", code, out, errs)
	}
}

// TestBinaryCompress: the sentence from stdin, readable output, the ellipsis and the
// display budget, case-insensitive methods, and the usage errors.
func TestBinaryCompress(t *testing.T) {
	text := `The city's deficit grew 3.7% to $89.5 billion, said Sen. John Cornyn (R-Texas), calling it "quoted" nonsense.`
	code, out, errs := runBinary(t, text+"\n", "compress", "-q", "deficit", "-b", "500")
	if code != 0 || out != text+"\n" {
		t.Errorf("stdin, whole sentence: exit %d, %q %q", code, out, errs)
	}
	for _, b := range []string{"30", "45", "60"} {
		code, out, errs = runBinary(t, "", "compress", "-q", "deficit,Cornyn", "-b", b, "--budget-counts", "display", "--ellipsis", "--method", "LR", text)
		n, _ := strconv.Atoi(b)
		if line := strings.TrimSuffix(out, "\n"); code != 0 || utf8.RuneCountInString(line) > n || !strings.Contains(line, "…") || !strings.Contains(line, "Cornyn") {
			t.Errorf("b=%s display, ellipsis: exit %d, %q %q", b, code, out, errs)
		}
	}
	code, out, _ = runBinary(t, "", "compress", "-q", "deficit", "-b", "60", text)
	for _, bad := range []string{"$ 89", "city 's", "3.7 %", "( R", " ."} {
		if code != 0 || strings.Contains(out, bad) {
			t.Errorf("compression %q (exit %d) has the joined tokens %q", out, code, bad)
		}
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"compress", "-q", "police", "Police came."}, "budget is required"},
		{[]string{"compress", "-b", "20", "Police came."}, "-q (the query terms) is required"},
		{[]string{"compress", "-q", "police", "-b", "20"}, "give the sentence as an argument or on stdin"},
		{[]string{"compress", "-q", "police", "-b", "20", "--budget-counts", "bytes", "Police came."}, `budget_counts must be "tokens", "display" or "columns"`},
	} {
		code, _, errs := runBinary(t, "", c.args...)
		if code == 0 || !strings.Contains(errs, c.msg) {
			t.Errorf("%q: exit %d, %q; want an error containing %q", c.args, code, errs, c.msg)
		}
	}
	// The batch: readable compression and its ellipsis; budget_counts per record.
	code, out, errs = runBinary(t, `{"id":"1","text":"`+strings.ReplaceAll(text, `"`, `\"`)+`","query":["deficit"],"budget":40,"budget_counts":"display"}`+"\n", "compress", "--jsonl")
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil {
		t.Fatalf("jsonl: exit %d, %q %q", code, out, errs)
	}
	if c, e := rec["compression"].(string), rec["compression_ellipsis"].(string); utf8.RuneCountInString(e) > 40 || !strings.Contains(e, "…") || strings.Contains(c, " .") {
		t.Errorf("jsonl: %v", rec)
	}
}

// TestBinarySnippets: qsc snippets on a file and on stdin, as text and as JSON; the
// display budget holds for every snippet.
func TestBinarySnippets(t *testing.T) {
	doc, err := os.ReadFile("../../testdata/news.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []int{25, 40, 70} {
		code, out, errs := runBinary(t, "", "snippets", "-q", "police,arrest", "-b", strconv.Itoa(b), "-n", "4", "../../testdata/news.txt")
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 0 || len(lines) == 0 || len(lines) > 4 {
			t.Fatalf("b=%d: exit %d, %q %q", b, code, out, errs)
		}
		for _, l := range lines {
			if utf8.RuneCountInString(l) > b || !strings.Contains(strings.ToLower(l), "polic") && !strings.Contains(strings.ToLower(l), "arrest") {
				t.Errorf("b=%d: snippet %q", b, l)
			}
		}
	}
	code, out, errs := runBinary(t, string(doc), "snippets", "-q", "court", "-b", "50", "-", "--json")
	var got struct {
		Snippets []struct {
			Text         string `json:"text"`
			Ellipsis     string `json:"ellipsis"`
			HTMLEllipsis string `json:"html_ellipsis"`
		} `json:"snippets"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got.Snippets) == 0 {
		t.Fatalf("stdin --json: exit %d, %v, %q %q", code, err, out, errs)
	}
	if !strings.Contains(out, `"html_ellipsis":"`) || !strings.Contains(out, "<mark>") || !strings.Contains(out, `"ellipsis":"`) {
		t.Errorf("--json lacks the renderings: %s", out)
	}
	code, _, errs = runBinary(t, "", "snippets", "-q", "court", "../../testdata/news.txt")
	if code != 2 || !strings.Contains(errs, "budget is required") {
		t.Errorf("no budget: exit %d, %q", code, errs)
	}
	code, _, errs = runBinary(t, "", "snippets", "-q", "court", "-b", "40", "no-such-file.txt")
	if code != 1 || !strings.Contains(errs, "no-such-file.txt") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
}

// TestBinaryHelpAndVersion: qsc help CMD prints the command's flags; qsc version prints
// the module, the revision and each embedded model's SHA-256.
func TestBinaryHelpAndVersion(t *testing.T) {
	for cmd, flag := range map[string]string{"compress": "-budget-counts", "snippets": "-json", "serve": "-addr"} {
		code, out, errs := runBinary(t, "", "help", cmd)
		if code != 0 || !strings.Contains(out, "Usage: qsc "+cmd) || !strings.Contains(out, flag) {
			t.Errorf("help %s: exit %d, %q %q", cmd, code, out, errs)
		}
	}
	if code, _, errs := runBinary(t, "", "help", "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("help of an unknown command: exit %d, %q", code, errs)
	}
	code, out, errs := runBinary(t, "", "version")
	if code != 0 || !strings.Contains(out, "module github.com/qsc-nlp/qsc") || !strings.Contains(out, "\nrevision ") {
		t.Fatalf("version: exit %d, %q %q", code, out, errs)
	}
	var files []string
	for _, dir := range []string{"internal/core/pipeline", "parser/accurate", "method/*"} {
		f, err := filepath.Glob("../../" + dir + "/*.qsm")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	if len(files) != 7 {
		t.Fatalf("model files: %v, want 7", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%s sha256:%x", filepath.Base(f), sha256.Sum256(b)); !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}

// TestBinaryLanguages is the example of issue 35 (a Japanese sentence on stdin printed
// nothing), and the language and method of qsc snippets --json and qsc compress --json,
// --lang, --no-match and the columns budget.
func TestBinaryLanguages(t *testing.T) {
	ja := "政府は水曜日、中小企業の税金を引き下げると決めた。"
	if code, out, errs := runBinary(t, ja+"\n", "snippets", "-q", "政府", "-b", "40"); code != 0 || out != ja+"\n" {
		t.Errorf("snippets -q 政府 -b 40: exit %d, %q %q; want the sentence", code, out, errs)
	}
	code, out, errs := runBinary(t, ja, "snippets", "-q", "税金", "-b", "24", "--budget-counts", "columns", "--json")
	var sn struct {
		Snippets []struct {
			Lang, Method, Ellipsis string
		}
	}
	if err := json.Unmarshal([]byte(out), &sn); code != 0 || err != nil || len(sn.Snippets) != 1 || sn.Snippets[0].Lang != "ja" ||
		sn.Snippets[0].Method != "window" || sn.Snippets[0].Ellipsis != "…中小企業の税金を…" {
		t.Errorf("snippets --json, 24 columns: exit %d, %v, %q %q", code, err, out, errs)
	}
	de := "Die Regierung will die Steuern für kleine Unternehmen im nächsten Jahr senken."
	code, out, errs = runBinary(t, "", "compress", "--json", "-q", "Steuer", "-b", "40", de)
	var res struct {
		Compression, Lang, Method string
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.Lang != "de" || res.Method != "window" || !strings.Contains(res.Compression, "Steuern") {
		t.Errorf("compress --json: exit %d, %v, %q %q", code, err, out, errs)
	}
	if code, out, errs := runBinary(t, "", "compress", "--lang", "de", "-q", "Steuer", "-b", "20", "Steuern senken"); code != 0 || out != "Steuern senken\n" {
		t.Errorf("compress --lang de: exit %d, %q %q", code, out, errs)
	}
	if code, out, errs := runBinary(t, "Der Rat tagt am Montag im Rathaus der Stadt Köln, sagte der Bürgermeister.", "snippets", "-q", "Zebra", "-b", "30", "--no-match", "--lang", "de"); code != 0 || out != "Der Rat tagt am Montag …\n" {
		t.Errorf("snippets --no-match: exit %d, %q %q", code, out, errs)
	}
	if code, _, errs := runBinary(t, ja, "snippets", "-q", "政府", "-b", "40", "--lang", "japanese"); code == 0 || !strings.Contains(errs, "not a language code") {
		t.Errorf("--lang japanese: exit %d, %q", code, errs)
	}
}
