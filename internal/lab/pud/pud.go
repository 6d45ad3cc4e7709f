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
	"strings"
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
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no CODE.txt files in %q: %v", dir, err)
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
