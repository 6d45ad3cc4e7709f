// Package pud reads the parallel sentences that language identification is measured on
// (the langid test and scripts/langcompare): a folder of files, one per language, named
// CODE.txt for its ISO 639-1 code, a sentence a line (the "# text =" lines of the
// UD_*-PUD treebanks; docs/languages.md says how to make them).
package pud

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// File is the sentences of one language.
type File struct {
	// Code is the language's code: the file's name without ".txt".
	Code string
	// Sentences are the file's lines, in order.
	Sentences []string
}

// maxLine is the longest line Read accepts, in bytes.
const maxLine = 1 << 20

// Read returns the CODE.txt files of dir, by name. It fails when dir holds none, or a
// file cannot be read or has a line longer than 1 MiB.
func Read(dir string) ([]File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no CODE.txt files in %q", dir)
	}
	files := make([]File, 0, len(names))
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		file := File{Code: strings.TrimSuffix(filepath.Base(name), ".txt")}
		for sc.Scan() {
			file.Sentences = append(file.Sentences, sc.Text())
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files = append(files, file)
	}
	return files, nil
}

// Prefix returns the first n words of s (fields between spaces) or, for a text of fewer
// than 3 such fields (written without spaces), its first 4n characters: the short text
// that identification is measured on besides whole sentences.
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

// Result is how an identifier did on the files.
type Result struct {
	// Lines are a line per file: its code, its texts, the share identified right and the
	// wrong answers with their counts (code:n, sorted), separated by tabs.
	Lines []string
	// Texts and Right count the texts of all files, and those identified right.
	Texts, Right int
	// Took is the time identification took, in all.
	Took time.Duration
}

// Accuracy returns the share of the texts identified right.
func (r *Result) Accuracy() float64 { return float64(r.Right) / float64(r.Texts) }

// String returns the lines, then a line "all" with the texts, the accuracy and the mean
// time per text.
func (r *Result) String() string {
	return fmt.Sprintf("%s\nall\t%d\t%.4f\t%.1f µs/text", strings.Join(r.Lines, "\n"), r.Texts, r.Accuracy(),
		float64(r.Took.Microseconds())/float64(r.Texts))
}

// Measure identifies the language of each text of the files with detect, which returns
// a code, and counts the answers that are the file's code. A text is a run of join
// consecutive sentences (at least 1) joined by a space, cut to its first words by Prefix
// when words > 0; a last run shorter than join is left out.
func Measure(files []File, detect func(text string) string, words, join int) Result {
	join = max(join, 1)
	var r Result
	for _, f := range files {
		n, right := 0, 0
		wrong := map[string]int{}
		for i := 0; i+join <= len(f.Sentences); i += join {
			s := strings.Join(f.Sentences[i:i+join], " ")
			if words > 0 {
				s = Prefix(s, words)
			}
			start := time.Now()
			got := detect(s)
			r.Took += time.Since(start)
			n++
			if got == f.Code {
				right++
			} else {
				wrong[got]++
			}
		}
		r.Texts, r.Right = r.Texts+n, r.Right+right
		var ws []string
		for k, v := range wrong {
			ws = append(ws, fmt.Sprintf("%s:%d", k, v))
		}
		slices.Sort(ws)
		r.Lines = append(r.Lines, fmt.Sprintf("%s\t%d\t%.3f\t%s", f.Code, n, float64(right)/float64(n), strings.Join(ws, " ")))
	}
	return r
}
