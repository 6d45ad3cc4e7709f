package langid

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/lab/pud"
)

// TestParallelSentences measures Detect on the sentences of the Parallel Universal
// Dependencies treebanks (one file per language, CODE.txt, a sentence a line: the
// "# text =" lines of UD_*-PUD; docs/languages.md says how to make them), whole and cut to
// their first 5 words (20 characters for text without spaces), and prints the accuracy
// per language and the time per text. It needs QSC_PUD, the folder of the files, and
// fails when the accuracy over all files is below 0.93 whole or 0.65 cut: Detect keeps
// Latin-script text it is not sure of English, which costs short foreign text the most
// (docs/languages.md).
//
//	QSC_PUD=/tmp/pud go test ./internal/core/langid -run ParallelSentences -v
func TestParallelSentences(t *testing.T) {
	dir := os.Getenv("QSC_PUD")
	if dir == "" {
		t.Skip("QSC_PUD is not set: the folder of the PUD sentences (docs/languages.md)")
	}
	files, err := pud.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range []int{0, 5} {
		var n, ok int
		var took time.Duration
		var lines []string
		for _, f := range files {
			var fn, fok int
			wrong := map[string]int{}
			for _, s := range f.Sentences {
				if words > 0 {
					s = pud.Prefix(s, words)
				}
				start := time.Now()
				got := Detect(s).Lang
				took += time.Since(start)
				fn++
				if got == f.Code {
					fok++
				} else {
					wrong[got]++
				}
			}
			n += fn
			ok += fok
			var ws []string
			for k, v := range wrong {
				ws = append(ws, fmt.Sprintf("%s:%d", k, v))
			}
			slices.Sort(ws)
			lines = append(lines, fmt.Sprintf("%s\t%d\t%.3f\t%s", f.Code, fn, float64(fok)/float64(fn), strings.Join(ws, " ")))
		}
		acc := float64(ok) / float64(n)
		t.Logf("words=%d\n%s\nall\t%d\t%.4f\t%.1f µs/text", words, strings.Join(lines, "\n"), n, acc, float64(took.Microseconds())/float64(n))
		if min := map[int]float64{0: 0.93, 5: 0.65}[words]; acc < min {
			t.Errorf("words=%d: accuracy %.4f, below %.2f", words, acc, min)
		}
	}
}
