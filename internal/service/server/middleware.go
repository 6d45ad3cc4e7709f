package server

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// recorder remembers what a handler wrote, for the request log.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	err    string // the message of an error response
	key    string // the name of the request's key (never the key itself)
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

// Unwrap gives http.ResponseController the underlying writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests gives each request its id (X-Request-Id, echoed in the answer), logs one
// line per request (method, path, status, duration, response bytes, the id, the name of
// its key when it sent a valid one, and the error message of an error response), and
// counts it in the metrics: by route and status, and in flight while it is served. The
// line's level is requestLevel's. The log has the path, not the query, and no header: no
// key ever reaches it.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := s.requestID(r)
		w.Header()["X-Request-Id"] = []string{id}
		rec := &recorder{ResponseWriter: w}
		s.metrics.inFlight.Inc()
		defer func() {
			s.metrics.inFlight.Dec()
			status := rec.status
			if status == 0 {
				status = http.StatusOK // nothing written: net/http answers 200
			}
			took := time.Since(start)
			s.metrics.observe(routeOf(s.mux, r), status, took)
			attrs := [...]slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", status), slog.Duration("duration", took),
				slog.Int64("bytes", rec.bytes), slog.String("request_id", id), {}, {}}
			n := 6
			if rec.key != "" {
				attrs[n] = slog.String("key", rec.key)
				n++
			}
			if rec.err != "" {
				attrs[n] = slog.String("error", rec.err)
				n++
			}
			s.log.LogAttrs(r.Context(), requestLevel(r.URL.Path, status), "request", attrs[:n]...)
		}()
		next.ServeHTTP(rec, r)
	})
}

// requestLevel is the level of a request's log line: debug for a probe that succeeds
// (/livez, /readyz, /healthz, /metrics: a load balancer or a scraper asks every few
// seconds, and those lines would drown the others), info for every other request.
func requestLevel(path string, status int) slog.Level {
	switch path {
	case "/livez", "/readyz", "/healthz", "/metrics":
		if status < 400 {
			return slog.LevelDebug
		}
	}
	return slog.LevelInfo
}

// recoverPanics turns a panic of a handler into a logged error and a 500 answer (or an
// aborted connection when the answer had begun).
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "request_id", w.Header().Get("X-Request-Id"), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if rec, ok := w.(*recorder); ok && rec.status != 0 {
				panic(http.ErrAbortHandler) // too late for a clean answer
			}
			writeError(w, http.StatusInternalServerError, "internal error")
		}()
		next.ServeHTTP(w, r)
	})
}

// withDeadline gives each request one deadline, the request timeout from the moment its
// header has been read: it bounds the request's context, hence the wait for a turn, the
// work (503 beyond) and the reading of the body (408 beyond, readBody), so that a client
// that dribbles its body cannot hold the request longer than its budget. The answer may
// then take writeGrace more to be written, so that even the answer to a request out of
// time reaches the client (the connection's write deadline; none where the writer has no
// connection, as with httptest.ResponseRecorder).
func (s *Server) withDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		deadline := time.Now().Add(s.cfg.RequestTimeout)
		ctx, cancel := context.WithDeadline(r.Context(), deadline)
		defer cancel()
		http.NewResponseController(w).SetWriteDeadline(deadline.Add(writeGrace))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// writeGrace is the time an answer may take to be written after the request's deadline.
const writeGrace = 5 * time.Second

// contentSecurityPolicy lets the page load its own script and style sheet and nothing
// else: no inline script, no other origin.
const contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Values of the headers secureHeaders sets, shared read-only by all answers so that
// setting them does not allocate.
var (
	nosniff    = []string{"nosniff"}
	csp        = []string{contentSecurityPolicy}
	noReferrer = []string{"no-referrer"}
)

// secureHeaders sets headers that keep browsers from guessing types or loading anything
// from elsewhere; policy is the Content-Security-Policy (contentSecurityPolicy, or
// frameAncestors').
func secureHeaders(policy string, next http.Handler) http.Handler {
	csp := csp
	if policy != contentSecurityPolicy {
		csp = []string{policy}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w.Header(), csp)
		next.ServeHTTP(w, r)
	})
}

// canonicalPaths answers 404, as for any path the server does not have, to a request
// whose path is not canonical (canonicalPath), where net/http.ServeMux would redirect to
// the cleaned path with an HTML body: a JSON client cannot read that answer, and the
// cleaned path may name another resource (DELETE /v1/documents/a/../b is not a delete of
// document "b"). The paths the server writes are canonical (idPath).
func canonicalPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.EscapedPath(); !canonicalPath(p) {
			writeError(w, http.StatusNotFound, fmt.Sprintf(
				`no such path: %s (a path has no empty, "." or ".." segment; in a document id, write "/" as %%2F and "." as %%2E where they would make one)`, p))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// canonicalPath reports whether the escaped path p is one net/http.ServeMux serves as it
// is: it begins with "/" and has no empty, "." or ".." segment, a final "/" aside. It
// reads p once and does not allocate.
func canonicalPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for i := 1; i <= len(p); {
		j := strings.IndexByte(p[i:], '/')
		if j < 0 {
			j = len(p) - i
		}
		seg, last := p[i:i+j], i+j == len(p)
		if seg == "" && !last || seg == "." || seg == ".." {
			return false
		}
		i += j + 1
	}
	return true
}

// setSecurityHeaders sets the headers of secureHeaders in h, csp its
// Content-Security-Policy.
func setSecurityHeaders(h http.Header, csp []string) {
	h["X-Content-Type-Options"] = nosniff
	h["Content-Security-Policy"] = csp
	h["Referrer-Policy"] = noReferrer
}

// methodNotAllowed answers 405 for a path served only for methods.
func methodNotAllowed(methods ...string) http.HandlerFunc {
	allowed := slices.Clone(methods)
	if slices.Contains(allowed, http.MethodGet) && !slices.Contains(allowed, http.MethodHead) {
		allowed = append(allowed, http.MethodHead)
	}
	allow := strings.Join(allowed, ", ")
	use := strings.Join(methods, " or ")
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s is not served; use %s", r.Method, r.URL.Path, use))
	}
}

// page serves one HTML page.
func page(html []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeHTML(w, http.StatusOK, html)
	})
}

// writeHTML writes an HTML page with status.
func writeHTML(w http.ResponseWriter, status int, html []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(len(html)))
	w.WriteHeader(status)
	w.Write(html)
}

// staticFiles serves the embedded web assets under prefix (which ends with "/"): the
// file web/NAME at prefix+NAME, for the files the pages load (scripts, style sheets).
// A path that names no such file gets a JSON 404 naming the path: a directory (prefix
// itself included; no listings), and an HTML page, which is served at its own route
// (and which FileServer would redirect when it is index.html).
func staticFiles(prefix string, web fs.FS) http.Handler {
	files := http.FileServerFS(web)
	return http.StripPrefix(prefix, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if fi, err := fs.Stat(web, name); err != nil || fi.IsDir() || path.Ext(name) == ".html" {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no such file: %s%s", prefix, r.URL.Path))
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	}))
}

// unknownPath answers every request with the JSON 404 of a path the server does not have.
// It serves the mux's catch-all and the bare prefixes of subtree routes
// (routeTable.register); the metrics count its requests as route "other" (routeOf).
type unknownPath struct{}

func (unknownPath) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("no such path: %s", r.URL.Path))
}
