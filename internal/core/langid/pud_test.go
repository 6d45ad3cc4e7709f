package langid

import (
	"os"
	"testing"

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
		r := pud.Measure(files, func(s string) string { return Detect(s).Lang }, words, 1)
		t.Logf("words=%d\n%s", words, &r)
		if min := map[int]float64{0: 0.93, 5: 0.65}[words]; r.Accuracy() < min {
			t.Errorf("words=%d: accuracy %.4f, below %.2f", words, r.Accuracy(), min)
		}
	}
}
