package highlight

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
)

// AnnotationSuffix ends the name of the stored field that holds the annotation of a text
// field: the annotation of "body" is in "body_qsc".
const AnnotationSuffix = "_qsc"

// AnnotationField returns the name of the field that holds the annotation of the text field
// called field (its full path, as bleve names fields: "body", "article.body").
func AnnotationField(field string) string { return field + AnnotationSuffix }

// MapAnnotation adds to dm the mapping of the annotation field of its text property called
// field: stored, not indexed, not in the composite field "_all", no term vectors or doc
// values. The annotation of a text field in a sub-document is mapped in that sub-document's
// mapping. Without it a dynamic mapping would index the annotation's bytes as text.
func MapAnnotation(dm *mapping.DocumentMapping, field string) {
	fm := mapping.NewTextFieldMapping()
	fm.Index, fm.Store = false, true
	fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, false
	dm.AddFieldMappingsAt(field+AnnotationSuffix, fm)
}

// Annotate returns the value to store in the annotation field of a text field whose value is
// text: its binary annotation (package annotation) made by eng, as a string of bytes (bleve
// stores a text field's bytes as they are). It annotates the text as the highlighter reads
// the field (its first qsc.MaxDocumentBytes bytes, invalid UTF-8 bytes as spaces), so that
// any text can be annotated.
func Annotate(ctx context.Context, eng *qsc.Engine, text string) (string, error) {
	a, err := eng.Annotate(ctx, fieldText([]byte(text)))
	if err != nil {
		return "", err
	}
	b, err := a.MarshalBinary()
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AddAnnotations sets, in a document about to be indexed, the annotation field of each of the
// named fields, whose values must be strings or lists of strings (a list gets a list of
// annotations, position for position; a []any of strings, as encoding/json decodes a list,
// is one). A field is named by its full path, as bleve names it: "article.body" is the
// "body" of the sub-document "article" (a map[string]any), and its annotation goes beside
// it, in "body_qsc" of that sub-document. A field the document lacks is skipped.
func AddAnnotations(ctx context.Context, eng *qsc.Engine, doc map[string]any, fields ...string) error {
	for _, f := range fields {
		m, key, ok := fieldMap(doc, f)
		if !ok {
			continue
		}
		switch v := m[key].(type) {
		case string:
			a, err := Annotate(ctx, eng, v)
			if err != nil {
				return fmt.Errorf("field %s: %w", f, err)
			}
			m[key+AnnotationSuffix] = a
		case []string:
			anns, err := annotateAll(ctx, eng, f, v)
			if err != nil {
				return err
			}
			m[key+AnnotationSuffix] = anns
		case []any:
			texts := make([]string, len(v))
			for i, x := range v {
				t, ok := x.(string)
				if !ok {
					return fmt.Errorf("field %s, value %d is a %T, not a string", f, i+1, x)
				}
				texts[i] = t
			}
			anns, err := annotateAll(ctx, eng, f, texts)
			if err != nil {
				return err
			}
			m[key+AnnotationSuffix] = anns
		default:
			return fmt.Errorf("field %s is a %T, not a string or a list of strings", f, m[key])
		}
	}
	return nil
}

// fieldMap returns the map of doc that holds the field at path ("article.body": the map
// doc["article"]) and the field's key there; ok is false when doc lacks the field (a
// value nil included), or a part of the path before it is not a map[string]any.
func fieldMap(doc map[string]any, path string) (m map[string]any, key string, ok bool) {
	m = doc
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		if m, ok = m[p].(map[string]any); !ok {
			return nil, "", false
		}
	}
	key = parts[len(parts)-1]
	v, ok := m[key]
	return m, key, ok && v != nil
}

// annotateAll returns the annotations of the values of the list field f.
func annotateAll(ctx context.Context, eng *qsc.Engine, f string, texts []string) ([]string, error) {
	anns := make([]string, len(texts))
	for i, s := range texts {
		var err error
		if anns[i], err = Annotate(ctx, eng, s); err != nil {
			return nil, fmt.Errorf("field %s, value %d: %w", f, i+1, err)
		}
	}
	return anns, nil
}

// Stats count how the highlighter found the sentences of the field values it snippeted.
type Stats struct {
	// Annotated values were read from their stored annotation: no parsing.
	Annotated int64
	// Parsed values had no annotation and were tokenized, tagged and parsed.
	Parsed int64
	// Stale values had an annotation that could not be used (corrupt, of another text, or
	// of other models) and were parsed: re-index them to get the speed back.
	Stale int64
	// Failed values got no fragment from BestFragmentsInField because qsc failed on
	// them, whatever their annotation: every sentence with a term over the budget (a
	// budget too small for the terms), or a bad request (qsc.ErrInfeasible,
	// qsc.ErrBadRequest). A value with no sentence that holds a term is not a failure.
	Failed int64
}

// counters are a Highlighter's Stats.
type counters struct{ annotated, parsed, stale, failed atomic.Int64 }

// Stats returns the highlighter's counts since it was made.
func (h *Highlighter) Stats() Stats {
	return Stats{Annotated: h.stats.annotated.Load(), Parsed: h.stats.parsed.Load(), Stale: h.stats.stale.Load(),
		Failed: h.stats.failed.Load()}
}

// fieldValues are the values of a text field of a document and those of its annotation
// field, with their array positions, read in one pass over the document's fields into
// memory that a Highlighter reuses.
type fieldValues struct {
	texts, anns []fieldValue
}

// fieldValue is a value of a field and its array positions.
type fieldValue struct {
	val []byte
	pos []uint64
}

// read sets v to the values of the text field called field of doc, in the document's
// order, and to those of its annotation field.
func (v *fieldValues) read(doc index.Document, field string) {
	v.texts, v.anns = v.texts[:0], v.anns[:0]
	doc.VisitFields(func(f index.Field) {
		switch name := f.Name(); {
		case name == field:
			if _, ok := f.(index.TextField); ok {
				v.texts = append(v.texts, fieldValue{f.Value(), f.ArrayPositions()})
			}
		case len(name) == len(field)+len(AnnotationSuffix) && strings.HasPrefix(name, field) && strings.HasSuffix(name, AnnotationSuffix):
			v.anns = append(v.anns, fieldValue{f.Value(), f.ArrayPositions()}) // AnnotationField(field)
		}
	})
}

// annotationAt returns the stored annotation at array positions ap, or nil.
func (v *fieldValues) annotationAt(ap []uint64) []byte {
	for _, a := range v.anns {
		if slices.Equal(a.pos, ap) {
			return a.val
		}
	}
	return nil
}

// forget drops v's references to the document's values, keeping its memory.
func (v *fieldValues) forget() {
	clear(v.texts)
	clear(v.anns)
	v.texts, v.anns = v.texts[:0], v.anns[:0]
}

// snippets returns the snippets of text, from its stored annotation when it has a usable
// one (an annotation of other models, of another text or that cannot be decoded is
// ignored: the text is parsed).
func (h *Highlighter) snippets(req *qsc.SnippetRequest, stored []byte) ([]qsc.Snippet, error) {
	return h.Snippets(context.Background(), req, stored)
}

// Snippets returns the snippets of req (qsc.Engine.DoSnippets) made by the highlighter's
// Engine from stored, the annotation of req.Document (Annotate) read from an index, when it
// is usable; a nil, corrupt or stale annotation (of other models or another text) is
// ignored and the document parsed. Stats counts each case. Search services that render
// snippets themselves, with a budget and a method per request, call it with the stored
// annotation of each hit.
func (h *Highlighter) Snippets(ctx context.Context, req *qsc.SnippetRequest, stored []byte) ([]qsc.Snippet, error) {
	if stored == nil {
		h.stats.parsed.Add(1)
		return h.eng.DoSnippets(ctx, req)
	}
	a := h.anns.Get().(*annotation.Annotation)
	defer h.anns.Put(a)
	if annotation.Decode(stored, a) == nil && a.Models == h.eng.AnnotationModels() {
		sn, err := h.eng.SnippetsAnnotated(ctx, req, a, qsc.AnnotationOptions{})
		if !errors.Is(err, annotation.ErrText) && !errors.Is(err, annotation.ErrInvalid) {
			h.stats.annotated.Add(1)
			return sn, err
		}
	}
	h.stats.stale.Add(1)
	return h.eng.DoSnippets(ctx, req)
}
