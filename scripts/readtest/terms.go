package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/method/runs"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tokenize"
)

// termsRecord is one shown pair of a key weighed under the snippet decoding's objective
// (qsc.Engine.Weigh): the terms of both snippets and of today's default display.
type termsRecord struct {
	Key      string     `json:"key"`
	Pair     int        `json:"pair"`
	First    string     `json:"first"`
	Protocol string     `json:"protocol"`
	LabelA   string     `json:"label_a"`
	LabelB   string     `json:"label_b"`
	A        runs.Terms `json:"a"`
	B        runs.Terms `json:"b"`
	Default  runs.Terms `json:"default"`
	SameA    bool       `json:"same_a"` // A's tokens are today's default display's
	SameB    bool       `json:"same_b"`
	Error    string     `json:"error,omitempty"`
}

// cmdTerms writes, for every shown pair of the keys, the terms of the snippet decoding's
// objective of its two snippets, each aligned to the tokens of its sentence, with the
// compression's C* of today's default: the data for fitting the objective's weights to
// the judges' verdicts (docs/reading/terms-fit).
func cmdTerms(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("terms", "-out FILE KEY.json …", stderr)
	out := fs.String("out", "", "JSON lines file to write (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("terms: no key file given")
	}
	eng, err := qsc.New()
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	n, failed := 0, 0
	for _, path := range fs.Args() {
		key, err := readKey(path)
		if err != nil {
			f.Close()
			return err
		}
		for _, p := range key.Pairs {
			if p.Status != statusShown {
				continue
			}
			r := weighPair(eng, p)
			r.Key, r.LabelA, r.LabelB = path, key.LabelA, key.LabelB
			if r.Error != "" {
				failed++
				fmt.Fprintf(stderr, "%s, pair %d: %s\n", path, p.Pair, r.Error)
			}
			if err := enc.Encode(r); err != nil {
				f.Close()
				return err
			}
			n++
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d pairs weighed, %d with an error, in %s\n", n, failed, *out)
	return nil
}

// weigher is what weighPair asks of the engine: qsc.Engine.Weigh.
type weigher interface {
	Weigh(ctx context.Context, req *qsc.Request, explain bool, alts [][]int) (*qsc.Result, []runs.Terms, error)
}

// weighPair weighs the two snippets of p; the record's Error says why it could not. The
// snippets are aligned to the tokens of the sentence before it is compressed, so that one
// Weigh call compresses it and weighs them: the engine tokenizes text as tokenize.Tokens
// does. When the compression's sentence has other tokens (a language read by another
// tokenizer), they are aligned to its tokens and weighed again.
func weighPair(eng weigher, p KeyPair) termsRecord {
	r := termsRecord{Pair: p.Pair, First: p.First, Protocol: p.Protocol}
	req := &qsc.Request{Text: p.Text, Query: p.Query, Budget: p.Budget, BudgetCounts: qsc.BudgetDisplay}
	tokens := &syntax.Sentence{Tokens: tokenize.Tokens(p.Text)}
	sets, alignErr := alignPair(p.Text, tokens, p)
	res, terms, err := eng.Weigh(context.Background(), req, false, sets)
	if err == nil && !sameTokens(res, p.Text, tokens) {
		if sets, alignErr = alignPair(res.Text, res.Sentence, p); alignErr == nil {
			res, terms, err = eng.Weigh(context.Background(), req, false, sets)
		}
	}
	switch {
	case err != nil:
		r.Error = err.Error()
		return r
	case alignErr != nil:
		r.Error = alignErr.Error()
		return r
	case terms == nil:
		r.Error = "no display was chosen (the sentence fits whole)"
		return r
	}
	r.Default, r.A, r.B = terms[0], terms[1], terms[2]
	r.SameA, r.SameB = slices.Equal(sets[0], res.Kept), slices.Equal(sets[1], res.Kept)
	return r
}

// alignPair aligns the snippets A and B of p to the tokens of s (alignDisplay).
func alignPair(text string, s *syntax.Sentence, p KeyPair) ([][]int, error) {
	var sets [][]int
	for _, shown := range []string{p.A, p.B} {
		ids, err := alignDisplay(text, s, shown)
		if err != nil {
			return nil, err
		}
		sets = append(sets, ids)
	}
	return sets, nil
}

// sameTokens reports whether res is a compression of text with the tokens of s, at the
// same offsets: then a snippet aligns to res's tokens as it does to those of s.
func sameTokens(res *qsc.Result, text string, s *syntax.Sentence) bool {
	if res.Text != text || res.Sentence == nil || len(res.Sentence.Tokens) != len(s.Tokens) {
		return false
	}
	for i, t := range res.Sentence.Tokens {
		if u := s.Tokens[i]; t.Start != u.Start || t.End != u.End {
			return false
		}
	}
	return true
}

// alignDisplay returns the ids of the tokens of s (with byte offsets into text) that the
// displayed snippet shown keeps: each run between "…" marks is matched, white space
// ignored, to consecutive tokens after the previous run's, where a token of punctuation
// alone may be left out (a quote or a list's comma that the display drops).
func alignDisplay(text string, s *syntax.Sentence, shown string) ([]int, error) {
	forms := make([]string, len(s.Tokens))
	for k, t := range s.Tokens {
		if t.Start < 0 || t.End > len(text) || t.End < t.Start {
			return nil, fmt.Errorf("token %d has no offsets into the text", k+1)
		}
		forms[k] = squeeze(text[t.Start:t.End])
	}
	var ids []int
	next := 0 // the first token a run may start on
	for _, run := range strings.Split(shown, "…") {
		r := squeeze(run)
		if r == "" {
			continue
		}
		found := false
		for i := next; i < len(forms) && !found; i++ {
			var got []int
			pos, j := 0, i
			for pos < len(r) && j < len(forms) {
				switch f := forms[j]; {
				case f != "" && strings.HasPrefix(r[pos:], f):
					got = append(got, j+1)
					pos += len(f)
				case j == i || !punctuation(f):
					j = len(forms) // no match from i
					continue
				}
				j++
			}
			if pos == len(r) {
				ids, next, found = append(ids, got...), j, true
			}
		}
		if !found {
			return nil, fmt.Errorf("the run %q of %q is not in the sentence", strings.TrimSpace(run), shown)
		}
	}
	return ids, nil
}

// punctuation reports whether s holds no letter or digit.
func punctuation(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// squeeze returns s without white space.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
