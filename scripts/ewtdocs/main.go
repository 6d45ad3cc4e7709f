// Command ewtdocs writes a collection of documents from UD_English-EWT for measuring
// `qsc serve --docs` and the document API: each run of -sentences consecutive sentences of
// one treebank document ("# newdoc id") of the train, dev and test files, in that order, is
// one document {"id", "title", "text"}, its text the sentences' "# text" comments joined by
// spaces, its id the treebank document's id and the run's number, its title its first
// sentence. The first -n documents are written as JSON lines, and a count on stderr. With
// the defaults it writes the 5,400 documents (15,242 sentences, 1,175,803 bytes of text,
// 1.8 MB of JSONL) that docs/reliability.md measures the time to ready of `qsc serve
// --docs` on:
//
//	go run ./scripts/ewtdocs -data ../shared/data > /tmp/ewt5400.jsonl
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
)

func main() {
	data := flag.String("data", "", "data directory holding ud-english/UD_English-EWT/ (default: $QSC_DATA or ../shared/data)")
	n := flag.Int("n", 5400, "documents to write")
	per := flag.Int("sentences", 3, "sentences per document")
	flag.Parse()
	if *data == "" {
		if *data = shared.DataDir(); *data == "" {
			fail(fmt.Errorf("no data directory: pass -data DIR or set QSC_DATA"))
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	written, sentences, bytes := 0, 0, 0
	for _, rel := range []string{shared.EWTTrain, shared.EWTDev, shared.EWTTest} {
		r, err := conllu.Open(filepath.Join(*data, rel))
		if err != nil {
			fail(err)
		}
		var doc string
		var run []string
		part := 0
		flush := func() {
			if len(run) == 0 || written >= *n {
				run = nil
				return
			}
			part++
			text := strings.Join(run, " ")
			d := docfile.Doc{ID: fmt.Sprintf("%s#%d", doc, part), Title: docfile.Shorten(run[0], 90), Text: text}
			if err := enc.Encode(&d); err != nil {
				fail(err)
			}
			written++
			sentences += len(run)
			bytes += len(text)
			run = nil
		}
		for {
			s, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				fail(err)
			}
			if id, ok := s.Meta("newdoc id"); ok {
				flush()
				doc, part = id, 0
			}
			if text, ok := s.Meta("text"); ok && strings.TrimSpace(text) != "" {
				run = append(run, strings.Join(strings.Fields(text), " "))
			}
			if len(run) == *per {
				flush()
			}
		}
		flush()
		r.Close()
	}
	fmt.Fprintf(os.Stderr, "%d documents, %d sentences, %d bytes of text\n", written, sentences, bytes)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ewtdocs:", err)
	os.Exit(1)
}
