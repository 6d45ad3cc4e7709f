package server

import (
	"encoding/base64"
	"errors"
	"net/http"
	"slices"
	"sync"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
	annbatch "github.com/qsc-nlp/qsc/annotation/batch"
)

// annotateAnswer is the answer of POST /v1/annotate: the record that `qsc annotate` writes
// for the document (batch.Output), with the request's id only when it gave one.
type annotateAnswer struct {
	ID *string `json:"id,omitempty"` // hides batch.Output's, which is always written
	annbatch.Output
}

// annotate serves POST /v1/annotate?tables=true|false: the body is one record of `qsc
// annotate` ({"id", "text"}, the id optional), and the answer is the record that the
// batch interface writes for it, made by the same code (batch.Processor.Document): the
// document's annotation in base64, for POST /v1/snippets.
func (s *Server) annotate(w http.ResponseWriter, r *http.Request) {
	tables, err := boolParam(r, "tables")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body, err := s.readBody(nil, w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id, text, err := annbatch.DecodeRequest(body)
	if err != nil {
		s.answerAnnotation(w, r, http.StatusBadRequest, id, annbatch.Output{Error: err.Error()})
		return
	}
	p, err := s.annotator(tables)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := inTurn(s, r, func() (annbatch.Output, error) {
		return p.Document(r.Context(), id, text), nil
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	status := http.StatusOK
	if out.Failed() {
		// The Engine's errors: a text that is not valid UTF-8 or over the limit (400), or
		// the request's deadline (503).
		if err := r.Context().Err(); err != nil {
			s.fail(w, r, err)
			return
		}
		status = http.StatusBadRequest
	}
	s.answerAnnotation(w, r, status, id, out)
}

// answerAnnotation writes out as the answer of POST /v1/annotate with status, echoing the
// request's id when it gave one (id not "", or an "id" in the body).
func (s *Server) answerAnnotation(w http.ResponseWriter, r *http.Request, status int, id string, out annbatch.Output) {
	a := annotateAnswer{Output: out}
	if id != "" {
		a.ID = &id
	}
	if out.Error != "" {
		if rec, ok := w.(*recorder); ok {
			rec.err = out.Error
		}
	}
	writeJSON(w, status, a)
}

// annotator returns the Processor of POST /v1/annotate, with the tag and label tables in
// each annotation or not; it is made once for each.
func (s *Server) annotator(tables bool) (*annbatch.Processor, error) {
	i := 0
	if tables {
		i = 1
	}
	s.annotators[i].once.Do(func() {
		s.annotators[i].p, s.annotators[i].err = annbatch.New(s.cfg.Engine, annbatch.Options{Tables: tables})
	})
	return s.annotators[i].p, s.annotators[i].err
}

// annotators holds the two Processors of annotator.
type annotators [2]struct {
	once sync.Once
	p    *annbatch.Processor
	err  error
}

// snippetsRequest is the body of POST /v1/snippets: a qsc.SnippetRequest, and optionally
// the document's annotation (from POST /v1/annotate or `qsc annotate`), with which the
// snippets are made without tagging or parsing (qsc.Engine.SnippetsAnnotated).
type snippetsRequest struct {
	qsc.SnippetRequest
	// Annotation is the binary annotation of Document in standard base64, as POST
	// /v1/annotate and `qsc annotate` write it.
	Annotation *string `json:"annotation,omitempty"`
	// Reparse analyses the document again when the annotation was made by other models
	// than the server's (qsc.AnnotationOptions.Reparse); without it, such an annotation is
	// refused with 400.
	Reparse bool `json:"reparse,omitempty"`
	// Format is how Document is written: "text" (the default), "markdown", read as its
	// rendering reads (package markdown), or "html", read as a browser shows it (package
	// htmltext), so that no snippet shows its markup.
	Format string `json:"format,omitempty"`
}

// decodedAnnotation is the memory of one request's annotation: its bytes and their
// reading, reused across requests (annotations), so that decoding one allocates nothing
// once the memory has grown.
type decodedAnnotation struct {
	data []byte
	a    annotation.Annotation
}

// annotations recycles the decodedAnnotations of POST /v1/snippets. One that grew over
// maxPooledAnnotation bytes, or as many tokens over a quarter of it, is left to the
// garbage collector, so that one large document does not stay in memory.
var annotations = sync.Pool{New: func() any { return new(decodedAnnotation) }}

const maxPooledAnnotation = 64 << 10

// annotationOf decodes the annotation of req into d, or returns nil when req has none.
// The annotation is d's memory.
func annotationOf(req *snippetsRequest, d *decodedAnnotation) (*annotation.Annotation, error) {
	if req.Annotation == nil {
		if req.Reparse {
			return nil, badRequest(`"reparse" needs an "annotation"`)
		}
		return nil, nil
	}
	src := *req.Annotation
	d.data = slices.Grow(d.data[:0], base64.StdEncoding.DecodedLen(len(src)))
	n, err := base64.StdEncoding.Decode(d.data[:cap(d.data)], []byte(src))
	if err == nil {
		d.data = d.data[:n]
		err = annotation.Decode(d.data, &d.a)
	}
	if err != nil {
		return nil, badRequest(`field "annotation": %v (send it as POST /v1/annotate or qsc annotate wrote it: the binary annotation in standard base64)`, err)
	}
	return &d.a, nil
}

// release gives d back to annotations, unless it grew too large to keep.
func (d *decodedAnnotation) release() {
	if cap(d.data) <= maxPooledAnnotation && cap(d.a.Start) <= maxPooledAnnotation/4 {
		annotations.Put(d)
	}
}

// annotationResult is the result of the annotation ann of a POST /v1/snippets whose
// snippets ended with err, for the metrics: refused for another text or other models,
// reparsed when made by other models and read again, else used.
func (s *Server) annotationResult(ann *annotation.Annotation, err error) string {
	switch {
	case errors.Is(err, annotation.ErrText):
		return annotationOtherText
	case errors.Is(err, qsc.ErrModels):
		return annotationOtherModels
	case ann.Models != s.cfg.Engine.AnnotationModels():
		return annotationReparsed
	}
	return annotationUsed
}
