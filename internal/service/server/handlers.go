package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/htmltext"
	"github.com/qsc-nlp/qsc/internal/core/jsonx"
	"github.com/qsc-nlp/qsc/internal/service/wire"
	"github.com/qsc-nlp/qsc/markdown"
	"github.com/qsc-nlp/qsc/render"
)

// errorBody is the body of every error answer.
type errorBody struct {
	Error string `json:"error"`
}

// Header values of every JSON answer, shared read-only by all answers so that setting them
// does not allocate.
var (
	jsonContentType = []string{"application/json"}
	noStore         = []string{"no-store"}
)

// writeJSON writes v as the JSON answer with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body := encodeJSON(v)
	if body == nil {
		status = http.StatusInternalServerError
		body = encodeJSON(errorBody{Error: "internal error: encoding the answer"})
	}
	writeBody(w, status, body)
}

// encodeJSON returns v encoded as one line of JSON, or nil if it cannot be encoded.
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	if err := jsonx.NewEncoder(&buf).Encode(v); err != nil {
		return nil
	}
	return buf.Bytes()
}

// writeBody writes an encoded JSON answer with status.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noStore
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

// buffers recycles the memory of the bodies and answers of POST /v1/compress: a request
// takes a buffer and gives it back when answered. Buffers that grew over maxPooled are
// left to the garbage collector, so that one large request does not stay in memory.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooled = 64 << 10

func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooled {
		b.Reset()
		buffers.Put(b)
	}
}

// writeResult writes a compression result with status: the line the batch interface
// writes for it (wire.Result's encoding and a newline).
func writeResult(w http.ResponseWriter, status int, res *wire.Result) {
	buf := getBuffer()
	defer putBuffer(buf)
	b := append(res.AppendJSON(buf.AvailableBuffer()), '\n')
	buf.Write(b) // no copy when b is still buf's memory; else buf grows for the next answer
	writeBody(w, status, buf.Bytes())
}

// writeError writes {"error": msg} with status, and notes msg for the request log.
func writeError(w http.ResponseWriter, status int, msg string) {
	if rec, ok := w.(*recorder); ok {
		rec.err = msg
	}
	writeJSON(w, status, errorBody{Error: msg})
}

// statusOf maps an error to its HTTP status: the client's faults to 4xx.
func statusOf(err error) int {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, qsc.ErrInfeasible):
		return http.StatusUnprocessableEntity
	case errors.Is(err, qsc.ErrBadRequest), errors.Is(err, qsc.ErrUnknownMethod):
		return http.StatusBadRequest
	case errors.Is(err, errSlowBody):
		return http.StatusRequestTimeout
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// errSlowBody is the error of a body that did not arrive before the request's deadline.
var errSlowBody = errors.New("the request body did not arrive in time")

// fail answers err with its status; the message of a server fault is not shown.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	msg := err.Error()
	switch {
	case status == http.StatusInternalServerError:
		s.log.Error("internal error", "method", r.Method, "path", r.URL.Path, "error", msg)
		msg = "internal error"
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("the request took longer than %s", s.cfg.RequestTimeout)
	case errors.Is(err, context.Canceled):
		msg = "the request was cancelled"
	case status == http.StatusRequestTimeout:
		msg = fmt.Sprintf("the request body did not arrive within %s (the request's deadline)", s.cfg.RequestTimeout)
		w.Header().Set("Connection", "close") // the rest of the body may still come
	}
	writeError(w, status, msg)
}

// badRequest is a fault of the client's request that matches qsc.ErrBadRequest.
func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", qsc.ErrBadRequest, fmt.Sprintf(format, args...))
}

// readBody reads a request body that must hold one JSON object, within the size limit,
// into buf, or, when buf is nil, into memory of the body's announced length. The body must
// arrive before the request's deadline: a read still blocked then is woken and the
// request gets 408 (withDeadline bounds the rest of the request).
func (s *Server) readBody(buf *bytes.Buffer, w http.ResponseWriter, r *http.Request) ([]byte, error) {
	b, err := s.readLimited(buf, w, r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return checkBody(b)
}

// limitFlag names the flag that sets a body limit, for the answer that refuses a body
// over it: " (the server's --max-body)" for the limit of every route but the batch of
// documents, "" for another.
func (s *Server) limitFlag(limit int64) string {
	if limit == s.cfg.MaxBodyBytes {
		return " (the server's --max-body)"
	}
	return ""
}

// readLimited reads a request body of at most limit bytes as readBody does, whatever it
// holds.
func (s *Server) readLimited(buf *bytes.Buffer, w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit { // refused before it is read
		return nil, fmt.Errorf("the body is larger than %d bytes%s: %w", limit, s.limitFlag(limit), &http.MaxBytesError{Limit: limit})
	}
	if err := r.Context().Err(); err != nil { // out of time before the turn to read came
		return nil, err
	}
	rc := http.NewResponseController(w)
	stop := context.AfterFunc(r.Context(), func() { rc.SetReadDeadline(time.Now()) })
	defer func() {
		if !stop() {
			// The deadline was set: net/http's read of the next request would fail on it
			// and cancel the connection's context, so this connection serves no more.
			w.Header().Set("Connection", "close")
		}
	}()
	body := http.MaxBytesReader(w, r.Body, limit)
	var err error
	var b []byte
	switch {
	case buf != nil:
		_, err = buf.ReadFrom(body)
		b = buf.Bytes()
	case r.ContentLength > 0:
		b = make([]byte, r.ContentLength)
		var n int
		n, err = io.ReadFull(body, b)
		b = b[:n]
	default:
		b, err = io.ReadAll(body)
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, fmt.Errorf("the body is larger than %d bytes%s: %w", mbe.Limit, s.limitFlag(mbe.Limit), err)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("%w: %v", errSlowBody, err)
	case err != nil:
		return nil, badRequest("reading the body: %v", err)
	}
	return b, nil
}

// checkBody checks that a request body is not empty and holds a JSON object.
func checkBody(body []byte) ([]byte, error) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return nil, badRequest("the body is empty; send a JSON object")
	case trimmed[0] != '{':
		return nil, badRequest("the body must be a JSON object")
	}
	return body, nil
}

// decodeStrict decodes one JSON object into v: unknown fields, wrong types and trailing
// data are errors, as in the batch interface.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("%s", jsonx.Describe(err))
	}
	if dec.More() {
		return badRequest("more than one JSON value in the body")
	}
	return nil
}

// hasDocument reports whether body, a JSON object that decodeStrict accepted, has a
// "document" field (named as encoding/json matches names; "" and null included): a
// request without one is refused, where an empty document has no snippets.
func hasDocument(body []byte) bool {
	var probe struct {
		Document json.RawMessage `json:"document"`
	}
	return json.Unmarshal(body, &probe) == nil && probe.Document != nil
}

// boolParam reads an optional boolean query parameter.
func boolParam(r *http.Request, name string) (bool, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, badRequest("parameter %s must be true or false, not %q", name, v)
	}
	return b, nil
}

// intParam reads an optional integer query parameter in [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, badRequest("parameter %s must be an integer from %d to %d, not %q", name, lo, hi, v)
	}
	return n, nil
}

// compress serves POST /v1/compress: one record of the batch interface, decoded,
// compressed and encoded by package wire. ?tokens=true adds every token, with its byte
// offsets in the text and whether it was kept.
func (s *Server) compress(w http.ResponseWriter, r *http.Request) {
	tokens, err := boolParam(r, "tokens")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	buf := getBuffer()
	defer putBuffer(buf)
	body, err := s.readBody(buf, w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := inTurn(s, r, func() (wire.Result, error) {
		return wire.Compress(r.Context(), s.cfg.Engine, body, wire.Body, wire.Options{Tokens: tokens})
	})
	if err != nil {
		status := statusOf(err)
		if status == http.StatusInternalServerError || status == http.StatusServiceUnavailable {
			s.fail(w, r, err)
			return
		}
		if rec, ok := w.(*recorder); ok {
			rec.err = res.Error
		}
		writeResult(w, status, &res) // {"id", "error"}, as the batch interface writes it
		return
	}
	s.metrics.compressed(res.Method, 1)
	writeResult(w, http.StatusOK, &res)
}

// Snippet is a qsc.Snippet with its renderings (render.Rendered, as qsc snippets --json
// writes it).
type Snippet = render.Rendered

// rendered renders the snippets of doc.
func rendered(doc string, sn []qsc.Snippet) []Snippet { return render.All(doc, sn) }

// snippetsResponse is the answer of POST /v1/snippets.
type snippetsResponse struct {
	Snippets []Snippet `json:"snippets"`
	// Document is the text of a Markdown or HTML document as it was read, which the
	// snippets' offsets refer to (formats "markdown" and "html" only).
	Document string `json:"document,omitempty"`
}

// snippets serves POST /v1/snippets.
func (s *Server) snippets(w http.ResponseWriter, r *http.Request) {
	body, err := s.readBody(nil, w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var req snippetsRequest
	if err := decodeStrict(body, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Document == "" && !hasDocument(body) {
		s.fail(w, r, badRequest(`"document" is required: the text to find snippets in`))
		return
	}
	var read string // the text of a Markdown or HTML document
	switch req.Format {
	case "", formatText:
	case formatMarkdown, formatHTML:
		if req.Annotation != nil {
			s.fail(w, r, badRequest(`"annotation" is of a text: with format %q, annotate the text that the answer's "document" gives, and send that text as format "text"`, req.Format))
			return
		}
		if req.Format == formatHTML {
			read = htmltext.Text([]byte(req.Document))
		} else {
			read = markdown.Text([]byte(req.Document))
		}
		req.Document = read
	default:
		s.fail(w, r, badRequest(`"format": %q is not one of %s, %s, %s`, req.Format, formatText, formatMarkdown, formatHTML))
		return
	}
	d := annotations.Get().(*decodedAnnotation)
	defer d.release()
	ann, err := annotationOf(&req, d)
	if err != nil {
		if req.Annotation != nil {
			s.metrics.annotation(annotationUnreadable)
		}
		s.fail(w, r, err)
		return
	}
	sn, err := inTurn(s, r, func() ([]qsc.Snippet, error) {
		if ann != nil {
			return s.cfg.Engine.SnippetsAnnotated(r.Context(), &req.SnippetRequest, ann, qsc.AnnotationOptions{Reparse: req.Reparse})
		}
		return s.cfg.Engine.DoSnippets(r.Context(), &req.SnippetRequest)
	})
	if ann != nil {
		s.metrics.annotation(s.annotationResult(ann, err))
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.metrics.compressed(req.Method, len(sn))
	writeJSON(w, http.StatusOK, snippetsResponse{Snippets: rendered(req.Document, sn), Document: read})
}

// The formats of a snippets request's document.
const (
	formatText     = "text"
	formatMarkdown = "markdown"
	formatHTML     = "html"
)

// health is the answer of GET /healthz.
type health struct {
	Status    string   `json:"status"`
	Error     string   `json:"error,omitempty"` // with status "degraded": why
	Documents int      `json:"documents"`
	Methods   []string `json:"methods"`
}

// healthz serves GET /healthz: 200 "ok", or 503 "degraded" while the collection's last
// commit has failed (indexFault).
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	h := health{Status: "ok", Methods: qsc.Methods()}
	if s.ready.Load() && s.cfg.Index != nil { // cfg.Index is set before ready, not after
		h.Documents = s.cfg.Index.Len()
	}
	if h.Error = s.indexFault(); h.Error != "" {
		h.Status = "degraded"
		writeJSON(w, http.StatusServiceUnavailable, h)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

// openapi serves GET /openapi.yaml.
func (s *Server) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	w.Write(openapiYAML)
}
