package qsc

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// DoSnippetsLong is DoSnippets for a document of any size, as a command reads a file: a
// document over MaxDocumentBytes is cut into parts of at most that size, at a blank line
// where the part has one (else at a line break, else at a space), each part is read as a
// document of its own, and the best req.N snippets of all parts, each text once (as
// DoSnippets gives them), are returned in DoSnippets' rank order (more query terms
// first, then earlier), with their spans
// offsets into the whole document and their scores computed on it. A sentence that
// spans a cut is read as two. With req.NoMatch and no match in any part, the lead snippet
// is the first part's. A document of at most MaxDocumentBytes is DoSnippets'. An error
// of a part that stops all of them (a bad query, a cancelled context) is returned; a
// part whose every match is over the budget (ErrInfeasible) is skipped unless every
// part with a match is such. Memory: req.N snippets a part, besides the document.
func (e *Engine) DoSnippetsLong(ctx context.Context, req *SnippetRequest) ([]Snippet, error) {
	if req == nil {
		return nil, errNilRequest
	}
	doc := req.Document
	if len(doc) <= MaxDocumentBytes {
		return e.DoSnippets(ctx, req)
	}
	if i := invalidUTF8(doc); i >= 0 {
		return nil, fmt.Errorf("%w: document is not valid UTF-8 (byte offset %d)", ErrBadRequest, i)
	}
	n := req.N
	if n == 0 {
		n = DefaultSnippets
	}
	var (
		all        []Snippet
		infeasible error
	)
	for _, p := range DocumentParts(doc) {
		start, end := p.Start, p.End
		part := *req
		part.Document, part.NoMatch = doc[start:end], false
		sn, err := e.DoSnippets(ctx, &part)
		switch {
		case errors.Is(err, ErrInfeasible):
			infeasible = cmp.Or(infeasible, err)
		case err != nil:
			return nil, err
		}
		for _, s := range sn {
			all = append(all, shiftSnippet(s, start))
		}
	}
	if len(all) == 0 {
		switch {
		case infeasible != nil:
			return nil, infeasible
		case req.NoMatch:
			part := *req
			part.Document = doc[:cutPart(doc, 0)]
			return e.DoSnippets(ctx, &part)
		}
		return []Snippet{}, nil
	}
	for i := range all {
		all[i].Score = score(all[i].Terms, all[i].Sentence.Start, len(doc))
	}
	// The score is the rank order: more terms first, then earlier.
	slices.SortStableFunc(all, func(a, b Snippet) int { return cmp.Compare(b.Score, a.Score) })
	// Each snippet text once, as in one part (distinct): its best-ranked occurrence.
	out := distinct(all)
	return out[:min(n, len(out))], nil
}

// DocumentParts returns the parts of doc that DoSnippetsLong reads as documents of their
// own: doc whole when it is at most MaxDocumentBytes, else parts of at most that size, each
// cut just after the last blank line of its bytes, else the last line break, else the last
// space, else at a rune boundary. The parts are ascending and cover doc.
func DocumentParts(doc string) []Span {
	var parts []Span
	for start := 0; start < len(doc); {
		end := cutPart(doc, start)
		parts = append(parts, Span{Start: start, End: end})
		start = end
	}
	return parts
}

// cutPart returns the end of the part of doc that begins at start: len(doc) when the rest
// is at most MaxDocumentBytes, else just after the last blank line, line break or space
// of the next MaxDocumentBytes bytes (the first that has one), else at a rune boundary.
func cutPart(doc string, start int) int {
	if len(doc)-start <= MaxDocumentBytes {
		return len(doc)
	}
	window := doc[start : start+MaxDocumentBytes]
	for _, sep := range []string{"\n\n", "\n", " "} {
		if i := strings.LastIndex(window, sep); i > 0 {
			return start + i + len(sep)
		}
	}
	end := start + MaxDocumentBytes
	for end > start && !utf8.RuneStart(doc[end]) {
		end--
	}
	return end
}

// shiftSnippet returns s with its spans moved by off bytes.
func shiftSnippet(s Snippet, off int) Snippet {
	move := func(sp Span) Span { return Span{Start: sp.Start + off, End: sp.End + off} }
	s.Sentence = move(s.Sentence)
	s.Kept = slices.Clone(s.Kept)
	for i := range s.Kept {
		s.Kept[i] = move(s.Kept[i])
	}
	s.Hits = slices.Clone(s.Hits)
	for i := range s.Hits {
		s.Hits[i] = move(s.Hits[i])
	}
	return s
}
