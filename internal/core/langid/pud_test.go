package langid

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CODE.txt files in %s: %v", dir, err)
	}
	for _, words := range []int{0, 5} {
		var n, ok int
		var took time.Duration
		var lines []string
		for _, f := range files {
			code := strings.TrimSuffix(filepath.Base(f), ".txt")
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(fh)
			var fn, fok int
			wrong := map[string]int{}
			for sc.Scan() {
				s := sc.Text()
				if words > 0 {
					s = Prefix(s, words)
				}
				start := time.Now()
				got := Detect(s).Lang
				took += time.Since(start)
				fn++
				if got == code {
					fok++
				} else {
					wrong[got]++
				}
			}
			fh.Close()
			n += fn
			ok += fok
			var ws []string
			for k, v := range wrong {
				ws = append(ws, fmt.Sprintf("%s:%d", k, v))
			}
			slices.Sort(ws)
			lines = append(lines, fmt.Sprintf("%s\t%d\t%.3f\t%s", code, fn, float64(fok)/float64(fn), strings.Join(ws, " ")))
		}
		acc := float64(ok) / float64(n)
		t.Logf("words=%d\n%s\nall\t%d\t%.4f\t%.1f µs/text", words, strings.Join(lines, "\n"), n, acc, float64(took.Microseconds())/float64(n))
		if min := map[int]float64{0: 0.93, 5: 0.65}[words]; acc < min {
			t.Errorf("words=%d: accuracy %.4f, below %.2f", words, acc, min)
		}
	}
}

// Prefix returns the first n words of s (fields between spaces) or, for a text of fewer
// than 3 such fields (written without spaces), its first 4n characters.
func Prefix(s string, n int) string {
	f := strings.Fields(s)
	if len(f) >= 3 {
		return strings.Join(f[:min(n, len(f))], " ")
	}
	if utf8.RuneCountInString(s) > 4*n {
		return string([]rune(s)[:4*n])
	}
	return s
}
