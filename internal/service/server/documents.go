package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
)

// The document API: POST /v1/documents, PUT and DELETE /v1/documents/{id}, GET
// /v1/tasks/{id}. It writes to a collection on disk only (--index DIR): a collection in
// memory would lose the writes at the next restart, so they get 409.
//
// Each write takes one of the ingest slots of its key (ingestSlot; --max-ingests, or
// ingests=N in the keys file) before it reads its body, and gives it back with its
// answer, or, for a batch run as a task, when the task ends. With every slot of its key
// taken, a write gets 429 with Retry-After. Reads (GET /v1/documents/{id}, GET
// /v1/tasks/{id}) take no slot.
//
// Every 2xx answer is a promise that a crash does not break: 200 and 201 come after the
// write is committed (docindex: bleve's batch, synced to disk), 202 after the batch is
// written to the index's task folder (tasks.go), from which the next server resumes it.
// Writes are committed one batch at a time (docindex.Index); two requests that write the
// same id end with the document of the one committed last.

// Limits of POST /v1/documents: a batch of at most syncMaxRecords records and
// syncMaxBytes bytes is ingested while the request waits (in one committed batch, so all
// its documents are committed together or none is), and answered with the outcome of
// each record; a larger one (or any with ?async=true) runs as a task, answered 202.
// syncMaxBytes keeps the wait short: annotating 256 KiB of text takes about 1 s of
// two cores.
const (
	syncMaxRecords = 100
	syncMaxBytes   = 256 << 10
)

// Formats of a batch's body.
const (
	formatJSON  = "json"  // a JSON array of documents, or one document object
	formatJSONL = "jsonl" // one document object a line
)

// ingestResponse is the answer of a batch of POST /v1/documents ingested synchronously.
type ingestResponse struct {
	// Summary is the line that --docs logs: "2 added, 0 updated, 1 unchanged, 1 rejected".
	Summary string `json:"summary"`
	ingestCounts
	// Records are the records' outcomes, in the order of the body.
	Records []recordResult `json:"records"`
}

// writeResponse is the answer of PUT and DELETE /v1/documents/{id}.
type writeResponse struct {
	ID string `json:"id"`
	// Result is added, updated or unchanged (PUT), or deleted (DELETE).
	Result string `json:"result"`
	// Link is the server's page of the document (PUT).
	Link string `json:"link,omitempty"`
	// Ignored names the body's fields that a document does not have, passed over (PUT).
	Ignored []string `json:"ignored,omitempty"`
}

// writable answers 503 without a collection, and 409 for a collection in memory, and
// reports whether documents may be written.
func (s *Server) writable(w http.ResponseWriter) bool {
	switch {
	case s.cfg.Index == nil:
		writeError(w, http.StatusServiceUnavailable, "documents are off: the server has no collection")
		return false
	case s.cfg.Index.Path() == "":
		writeError(w, http.StatusConflict, "the collection is in memory (the demo collection, or --docs without --index): "+
			"a write would not survive a restart; serve an index on disk (--index DIR) to write documents")
		return false
	}
	return true
}

// bodyFormat returns the format of a batch's body from its Content-Type, or from its
// first character when the type says nothing: application/json is a JSON array of
// documents or one document object (a body of several objects sent as application/json
// is read as JSON lines); application/x-ndjson (or application/jsonl, application/x-jsonl,
// application/jsonlines, application/x-jsonlines) is JSON lines; any other type, or none,
// is a JSON array when the body begins with "[" and JSON lines when it begins with "{".
func bodyFormat(contentType string, body []byte) (string, error) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return "", badRequest("the body is empty; send a JSON array of documents or JSON lines, one {\"id\", \"title\", \"text\", \"url\"} object a line")
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "application/x-ndjson", "application/jsonl", "application/x-jsonl", "application/jsonlines", "application/x-jsonlines":
		return formatJSONL, nil
	case "application/json":
		switch {
		case trimmed[0] == '[':
			return formatJSON, nil
		case trimmed[0] == '{' && json.Valid(trimmed):
			return formatJSON, nil
		case trimmed[0] == '{':
			return formatJSONL, nil
		}
		return "", badRequest("a body of type application/json must be a JSON array of documents or one document object")
	}
	switch trimmed[0] {
	case '[':
		return formatJSON, nil
	case '{':
		return formatJSONL, nil
	}
	return "", badRequest("the body must be a JSON array of documents (Content-Type: application/json) or JSON lines, one document object a line (Content-Type: application/x-ndjson)")
}

// scanBody calls fn with each record of a batch's body in format, in order. A record
// that is not a document object (malformed JSON on a line, a wrong type, an unknown
// field) is a record with Err set; a JSON array that cannot be read as one is an error
// of the whole body (qsc.ErrBadRequest) naming the line and column of the fault. Records
// are at "line N" (JSON lines) or "item N" (an array; item 1 for a single object), from 1.
func scanBody(body []byte, format string, fn func(docfile.Record) error) error {
	if format == formatJSONL {
		return docfile.ScanLines(bytes.NewReader(body), func(n int) string { return "line " + strconv.Itoa(n) }, fn)
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		rec := docfile.Record{Where: "item 1"}
		rec.Ignored, rec.Err = docfile.DecodeDocLenient(trimmed, &rec.Doc)
		return fn(rec)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end"):
			return badRequest("invalid JSON: the body ends inside the array")
		case errors.As(err, &se):
			return badRequest("invalid JSON at %s: %v", position(body, se.Offset-1), err)
		case errors.As(err, &te):
			return badRequest("the body must be a JSON array of documents, not %s", te.Value)
		}
		return badRequest("invalid JSON: %v", err)
	}
	for i, raw := range items {
		rec := docfile.Record{Where: "item " + strconv.Itoa(i+1)}
		rec.Ignored, rec.Err = docfile.DecodeDocLenient(raw, &rec.Doc)
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}

// position is "line L, column C" (from 1, columns in bytes) of byte offset off of body.
func position(body []byte, off int64) string {
	off = min(max(off, 0), int64(len(body)))
	before := body[:off]
	line := 1 + bytes.Count(before, []byte("\n"))
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// postDocuments serves POST /v1/documents: a batch of documents, added or replaced.
func (s *Server) postDocuments(w http.ResponseWriter, r *http.Request) {
	if !s.writable(w) {
		return
	}
	release, ok := s.ingestSlot(w, r)
	if !ok {
		return
	}
	defer func() {
		if release != nil {
			release()
		}
	}()
	async, err := boolParam(r, "async")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body, err := s.readLimited(nil, w, r, s.cfg.MaxDocumentsBodyBytes)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = fmt.Errorf("the body is larger than the limit of %d bytes of POST /v1/documents: send the documents in several batches, or raise --max-docs-body: %w", mbe.Limit, err)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	format, err := bodyFormat(r.Header.Get("Content-Type"), body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var records []docfile.Record
	n := 0
	if err := scanBody(body, format, func(rec docfile.Record) error {
		if n++; n <= syncMaxRecords {
			records = append(records, rec)
		}
		return nil
	}); err != nil {
		s.fail(w, r, err)
		return
	}
	if n == 0 {
		s.fail(w, r, badRequest("no documents in the body"))
		return
	}
	if async || n > syncMaxRecords || len(body) > syncMaxBytes {
		t, err := s.tasks.add(body, format, n, release)
		if errors.Is(err, errQueueFull) {
			w.Header().Set("Retry-After", "10")
			writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%v (%d); try again later", err, maxQueuedTasks))
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		release = nil // the task's now
		w.Header().Set("Location", "/v1/tasks/"+t.info.ID)
		writeJSON(w, http.StatusAccepted, t.snapshot())
		return
	}
	resp := ingestResponse{Records: make([]recordResult, n)}
	sum, err := s.cfg.Index.IngestScan(r.Context(), func(fn func(docfile.Record) error) error {
		for _, rec := range records {
			if err := fn(rec); err != nil {
				return err
			}
		}
		return nil
	}, docindex.IngestOptions{Engine: s.cfg.Engine, Gate: s.annotationTurn, Report: func(rep docindex.Report) {
		resp.Records[rep.Seq] = resultOf(rep)
		resp.count(rep.Outcome)
	}})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.metrics.wroteSummary(sum)
	resp.Summary = sum.String()
	writeJSON(w, http.StatusOK, resp)
}

// putDocument serves PUT /v1/documents/{id}: one document (a docfile.Doc: its id, when
// given, must be the path's; fields a document does not have are passed over and named
// in the answer's "ignored"), added (201) or replaced
// (200; unchanged when its content is the stored one).
func (s *Server) putDocument(w http.ResponseWriter, r *http.Request) {
	if !s.writable(w) {
		return
	}
	id := r.PathValue("id")
	if id == "" {
		s.fail(w, r, badRequest("no document id in the path: PUT /v1/documents/{id}"))
		return
	}
	release, ok := s.ingestSlot(w, r)
	if !ok {
		return
	}
	defer release()
	body, err := s.readBody(nil, w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var pb docfile.Doc
	ignored, err := docfile.DecodeDocLenient(body, &pb)
	if err != nil {
		s.fail(w, r, badRequest("%v", strings.TrimPrefix(err.Error(), "invalid record: ")))
		return
	}
	if pb.ID != "" && pb.ID != id {
		s.fail(w, r, badRequest("the body's id %q is not the path's %q", pb.ID, id))
		return
	}
	var rep docindex.Report
	sum, err := s.cfg.Index.Add(r.Context(), "body", []docfile.Doc{{ID: id, Title: pb.Title, Text: pb.Text, URL: pb.URL}},
		docindex.IngestOptions{Engine: s.cfg.Engine, Gate: s.annotationTurn, Report: func(r docindex.Report) { rep = r }})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.metrics.wroteSummary(sum)
	switch rep.Outcome {
	case docindex.Rejected:
		s.fail(w, r, badRequest("%v", rep.Err))
	case docindex.Added:
		w.Header().Set("Location", "/v1/documents/"+idPath(id))
		writeJSON(w, http.StatusCreated, writeResponse{ID: id, Result: rep.Outcome.String(), Link: docLink(id), Ignored: ignored})
	default:
		writeJSON(w, http.StatusOK, writeResponse{ID: id, Result: rep.Outcome.String(), Link: docLink(id), Ignored: ignored})
	}
}

// deleteDocument serves DELETE /v1/documents/{id}: 200 once the document is removed, 404
// when there is none.
func (s *Server) deleteDocument(w http.ResponseWriter, r *http.Request) {
	if !s.writable(w) {
		return
	}
	release, ok := s.ingestSlot(w, r)
	if !ok {
		return
	}
	defer release()
	id := r.PathValue("id")
	found, err := s.cfg.Index.Delete(id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !found {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no document with id %q", id))
		return
	}
	s.metrics.wrote("deleted", 1)
	writeJSON(w, http.StatusOK, writeResponse{ID: id, Result: "deleted"})
}

// task serves GET /v1/tasks/{id}: the state and counts of a task.
func (s *Server) task(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	t, ok := s.tasks.get(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no task with id %q (the last %d finished tasks are kept)", id, keptTasks))
		return
	}
	writeJSON(w, http.StatusOK, t.snapshot())
}
