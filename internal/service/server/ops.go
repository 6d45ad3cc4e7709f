package server

import (
	"net/http"
	"strconv"
)

// status is the answer of GET /livez.
type status struct {
	Status string `json:"status"`
}

// readiness is the answer of GET /readyz.
type readiness struct {
	// Status is ready or loading.
	Status string `json:"status"`
	// Ingesting is true while documents are ingested in the background (the --docs
	// ingest, batches of POST /v1/documents run as tasks); Ingests are those tasks, the
	// running one first, with their progress.
	Error     string         `json:"error,omitempty"` // with status "degraded": why
	Ingesting bool           `json:"ingesting"`
	Ingests   []taskProgress `json:"ingests,omitempty"`
}

// livez serves GET /livez: the process is up and answers.
func (s *Server) livez(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, status{Status: "ok"})
}

// readyz serves GET /readyz: 200 once the engine and the collection are open, 503 before,
// 503 "degraded" while the collection's last commit has failed (indexFault), and 503
// "draining" while the server drains before it stops (Config.DrainDelay).
// The collection is ready as soon as its index is open: documents ingested in the
// background are searched as each batch is committed, and the answer says whether an
// ingest is running, with its progress (still 200).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, readiness{Status: "loading"})
		return
	}
	ingests := s.tasks.active()
	if s.draining.Load() {
		writeJSON(w, http.StatusServiceUnavailable, readiness{Status: "draining", Ingesting: len(ingests) > 0, Ingests: ingests})
		return
	}
	if err := s.indexFault(); err != "" {
		// A failed commit (a full disk, the directory removed): bleve may fail searches
		// until a commit succeeds, so a gateway should stop sending.
		writeJSON(w, http.StatusServiceUnavailable, readiness{Status: "degraded", Error: err, Ingesting: len(ingests) > 0, Ingests: ingests})
		return
	}
	writeJSON(w, http.StatusOK, readiness{Status: "ready", Ingesting: len(ingests) > 0, Ingests: ingests})
}

// indexFault returns what /readyz and /healthz say of the collection's last failed
// commit (docindex.Index.Fault), or "" when there is none.
func (s *Server) indexFault() string {
	if !s.ready.Load() || s.cfg.Index == nil {
		return ""
	}
	if err := s.cfg.Index.Fault(); err != nil {
		return "the document index failed to commit a write: " + err.Error() +
			"; searches may fail until a write succeeds (free the disk, restore the directory) or the server restarts"
	}
	return ""
}

// faviconSVG is the icon of the page: a "q" cutting a line short.
const faviconSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
	`<rect width="32" height="32" rx="6" fill="#1f4e79"/>` +
	`<circle cx="13" cy="13" r="6.5" fill="none" stroke="#fff" stroke-width="3"/>` +
	`<path d="M19.5 9v18" stroke="#fff" stroke-width="3" stroke-linecap="round"/>` +
	`<path d="M6 26h7" stroke="#ffd166" stroke-width="3" stroke-linecap="round"/></svg>`

// favicon serves GET /favicon.ico: the icon, as SVG.
func favicon(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("Content-Length", strconv.Itoa(len(faviconSVG)))
	w.Write([]byte(faviconSVG))
}

// maxRequestIDLen bounds an X-Request-Id taken from a request.
const maxRequestIDLen = 128

// requestID returns the id of a request: its X-Request-Id when that is valid (1 to 128
// printable ASCII characters), else a new one, unique within the process: the server's
// start time in base 36 and a sequence number.
func (s *Server) requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); validRequestID(id) {
		return id
	}
	return s.idPrefix + strconv.FormatUint(s.requestSeq.Add(1), 10)
}

// validRequestID reports whether id may be echoed and logged as it is.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := range len(id) {
		if id[i] < 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}
