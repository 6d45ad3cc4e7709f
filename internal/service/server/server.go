// Package server is the HTTP service of qsc (`qsc serve`): the JSON API over a qsc.Engine
// and a search page over a document collection (internal/service/docindex: the embedded demo, or
// the user's own documents in an index on disk).
//
// Endpoints (the contract is openapi.yaml, served at GET /openapi.yaml):
//
//	POST /v1/compress   one compression: the record of `qsc compress --jsonl`, same answer
//	POST /v1/snippets   the best compressed sentences of a document, rendered; from its
//	                    annotation, when the request sends it, with no parsing
//	POST /v1/annotate   a document's annotation: the record of `qsc annotate`, same answer
//	GET  /v1/search     search the collection and return snippets of the best documents
//	GET  /v1/documents/{id}  one whole document of the collection
//	POST /v1/documents  add or replace documents (a JSON array or JSON lines); large batches run as a task
//	PUT  /v1/documents/{id}  add or replace one document
//	DELETE /v1/documents/{id}  remove one document
//	GET  /v1/tasks/{id}  the state and counts of a batch of documents run as a task
//	GET  /doc/{id}      the page of one whole document (HTML)
//	GET  /healthz       liveness
//	GET  /livez, /readyz  liveness, and readiness with the ingests running
//	GET  /metrics       Prometheus metrics
//	GET  /openapi.yaml  the API description
//	GET  /              the search page (HTML, CSS and JavaScript embedded in the binary)
//
// Every error is JSON, {"error": "..."}, with a 4xx status for a fault of the client:
// 400 for malformed JSON, a wrong type, an unknown field, a missing or invalid value or an
// unknown method; 413 for a body over the limit; 422 for a well-formed request that cannot
// be met (a query term not in the sentence, a budget shorter than the query); 409 for a
// write to a collection in memory (documents.go); 404 and 405 for unknown paths and
// methods. The server never redirects: a path with an empty, "." or ".." segment, one
// with a trailing "/" that no route has (/healthz/), and the bare prefix of a subtree
// (/static, /doc) are unknown paths. 500 is kept for faults of the server (a panic is
// recovered, logged and answered with 500), 503 for a request that ran out of time.
// Each request is logged as one line (method, path, status, duration, bytes).
//
// With keys (Config.Keys; auth.go, docs/security.md) every route but the open ones
// (/livez, /readyz, /openapi.yaml, the page's static files, and /metrics unless
// Config.MetricsAuth) needs "Authorization: Bearer KEY" of a scope that reaches it: 401
// without a valid key, 403 with the wrong scope, 429 over the key's limits (admit.go).
// Each route's scope is in the route table of NewLoading.
package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
)

// Defaults of Config.
const (
	// DefaultMaxBodyBytes bounds a request body: room for a document of
	// qsc.MaxDocumentBytes with JSON escapes.
	DefaultMaxBodyBytes = 2 << 20
	// DefaultRequestTimeout bounds the work on one request.
	DefaultRequestTimeout = 10 * time.Second
	// DefaultMaxDocumentsBodyBytes bounds the body of POST /v1/documents.
	DefaultMaxDocumentsBodyBytes = 32 << 20
)

// Config configures a Server.
type Config struct {
	// Engine compresses; required.
	Engine *qsc.Engine
	// Index is the searchable collection behind GET /v1/search and the web page; nil
	// turns search off (503).
	Index *docindex.Index
	// Logger gets one line per request and the recovered panics; nil discards.
	Logger *slog.Logger
	// MaxBodyBytes bounds request bodies (default DefaultMaxBodyBytes); a larger body
	// gets 413.
	MaxBodyBytes int64
	// RequestTimeout is the deadline of each request's context (default
	// DefaultRequestTimeout); a request that runs out of time gets 503.
	RequestTimeout time.Duration
	// DrainDelay is how long Serve keeps serving after its context is done, GET /readyz
	// answering 503 "draining", before it stops accepting connections: time for a load
	// balancer to take the server out of rotation, so that no request it sends meets a
	// closed listener. 0 (the default) stops accepting at once.
	DrainDelay time.Duration
	// MaxInFlight is the number of requests that compress at once (default GOMAXPROCS):
	// the others wait for their turn, within their deadline. More at once would not be
	// faster (compressing is CPU-bound), and the queue keeps the latency of a burst fair.
	// Requests with a large body (over 192 KiB) take at most MaxInFlight-1 of the turns,
	// and a freed turn goes to a waiting small request first (admit.go); with
	// MaxInFlight 1, one large request may compress beside the one small request.
	MaxInFlight int
	// MaxBodyBytesInFlight bounds the request bodies held in memory at once, in each of
	// two lanes: small bodies (up to 192 KiB) and large ones (default 4 × MaxBodyBytes).
	// A request waits, unread, until its announced length fits (the whole MaxBodyBytes
	// when it announces none), first come first served within its lane and its deadline.
	MaxBodyBytesInFlight int64
	// MaxDocumentsBodyBytes bounds the body of POST /v1/documents (default
	// DefaultMaxDocumentsBodyBytes); a larger body gets 413. PUT /v1/documents/{id} has
	// MaxBodyBytes, room for one document of the largest size.
	MaxDocumentsBodyBytes int64
	// YieldCPU makes a request that has compressed offer its core to any thread waiting
	// for one (sched_yield, on Linux; nothing elsewhere) before the next compression
	// starts on it. When every core is busy compressing, a thread woken by the network
	// (the server's own, reading the next requests, or a client's on the same machine)
	// otherwise waits for the end of the compressing thread's time slice, which spreads
	// the latency of the queued requests. See docs/reliability.md.
	YieldCPU bool
	// Keys are the API keys (auth.go). With none, every route is open; with some, every
	// route but /livez, /readyz, /metrics, the API description and the page's static
	// files needs a key whose scope allows it.
	Keys []Key
	// MetricsAuth puts /metrics behind a key of scope metrics or admin.
	MetricsAuth bool
	// KeyLimits are the limits of a key whose line in the keys file does not set them
	// (admit.go); its zero fields mean no rate limit and DefaultIngests ingests at once.
	KeyLimits Limits
	// TLS, when not nil, makes Serve serve HTTPS with it (its certificates, or
	// GetCertificate). Without it, Serve serves plain HTTP.
	TLS *tls.Config
	// DocsBaseURL is the address of the documents of a folder given to IngestPath: a
	// document without a URL gets DocsBaseURL followed by its id, its path in the folder
	// (docindex.IngestOptions.BaseURL).
	DocsBaseURL string
	// Origins are the origins (scheme://host[:port]) whose pages may call the API from a
	// browser (CORS) and send it writes; other origins' pages may not change anything
	// (origin.go).
	Origins []string
	// FrameAncestors are the origins whose pages may show the server's pages in a frame
	// (Content-Security-Policy frame-ancestors); none may when it is empty.
	FrameAncestors []string
	// LoopbackHosts answers 421 to a request whose Host is not a loopback name or address
	// (origin.go): for a server without keys on a loopback address, which a DNS name
	// pointed at 127.0.0.1 would otherwise open to any web page.
	LoopbackHosts bool
	// AllowedHosts are host names that LoopbackHosts accepts too: the names a reverse
	// proxy on this machine forwards in Host.
	AllowedHosts []string
	// OpenSearch serves the routes of scope search without a key even when the server has
	// keys: public search, and a key for what changes the collection.
	OpenSearch bool
	// Collection is what the search page's footer says of the collection it searches
	// (the zero value: the demo collection, with its source and license).
	Collection Collection
}

// Collection is the kind of collection a server searches, as its page tells the reader.
// The page is served without a key, so it names no path and no count.
type Collection int

const (
	// CollectionDemo is qsc's demo collection: the page credits its source and license.
	CollectionDemo Collection = iota
	// CollectionOwn is the operator's documents (--index, --docs).
	CollectionOwn
	// CollectionNone is no collection: search is off, and the page says so.
	CollectionNone
)

// collectionNote is the footer's HTML for the collection c.
func collectionNote(c Collection) string {
	switch c {
	case CollectionOwn:
		return "This server searches its own documents."
	case CollectionNone:
		return "Search is off: this server has no collection. Its API still compresses the text you send (POST /v1/compress, POST /v1/snippets)."
	}
	return `Demo collection: the web documents of the dev and test files of
  <a href="https://universaldependencies.org/treebanks/en_ewt/">UD_English-EWT</a>
  (Silveira et al. 2014; reviews, answers, e-mails, newsgroup and weblog posts), CC BY-SA 4.0.`
}

// searchPlaceholder is the search box's example query (HTML-escaped, in an attribute):
// words of the demo collection for the demo, the syntax alone for a collection of one's
// own, whose words the page does not know.
func searchPlaceholder(c Collection) string {
	if c == CollectionDemo {
		return "e.g. +judge nominated or &quot;car bomb&quot; -Baghdad"
	}
	return "words, &quot;a phrase&quot;, +must, -not"
}

// Server serves the API and the web page. It is safe for concurrent use.
type Server struct {
	cfg     Config
	log     *slog.Logger
	handler http.Handler
	turns   *turns
	bytes   [2]*semaphore.Weighted // body bytes admitted per lane
	memory  reclaimer
	// inFlightBytes are the body bytes admitted per lane, for the metrics.
	inFlightBytes [2]atomic.Int64
	metrics       *metrics
	mux           *http.ServeMux
	ready         atomic.Bool // engine (and index) loaded: every route served
	draining      atomic.Bool // Serve's context is done and Config.DrainDelay runs: /readyz answers 503
	tasks         *taskQueue  // the batches of documents ingested in the background
	idPrefix      string      // of the request ids the server makes
	requestSeq    atomic.Uint64
	keys          *keyring         // nil: no keys, every route open
	open          *principal       // who a request acts as without keys (or on an open route)
	routes        map[string]Scope // the scope of each route, by its mux pattern
	annotators    annotators       // of POST /v1/annotate, made on its first request
}

//go:embed openapi.yaml
var openapiYAML []byte

//go:embed web
var webFS embed.FS

// OpenAPI returns the OpenAPI 3 description of the API, as served at /openapi.yaml.
func OpenAPI() []byte { return append([]byte(nil), openapiYAML...) }

// New returns a Server for cfg, ready at once.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil {
		return nil, errors.New("server: no engine")
	}
	s, err := NewLoading(cfg)
	if err != nil {
		return nil, err
	}
	return s, s.Ready(cfg.Engine, cfg.Index)
}

// NewLoading returns a Server that can serve before its engine and collection are
// loaded: until Ready is called, GET /livez, /healthz, /metrics and /openapi.yaml answer,
// GET /readyz and every other path answer 503. cfg.Engine and cfg.Index are ignored.
func NewLoading(cfg Config) (*Server, error) {
	cfg.Engine, cfg.Index = nil, nil
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxBodyBytesInFlight <= 0 {
		cfg.MaxBodyBytesInFlight = 4 * cfg.MaxBodyBytes
	}
	if cfg.MaxDocumentsBodyBytes <= 0 {
		cfg.MaxDocumentsBodyBytes = DefaultMaxDocumentsBodyBytes
	}
	s := &Server{cfg: cfg, log: cfg.Logger, turns: newTurns(cfg.MaxInFlight), open: newPrincipal(Key{}, cfg.KeyLimits),
		bytes:    [2]*semaphore.Weighted{semaphore.NewWeighted(cfg.MaxBodyBytesInFlight), semaphore.NewWeighted(cfg.MaxBodyBytesInFlight)},
		idPrefix: strconv.FormatInt(time.Now().UnixMilli(), 36) + "-"}
	s.memory.free = debug.FreeOSMemory
	s.tasks = newTaskQueue(s)
	if len(cfg.Keys) > 0 {
		s.keys = &keyring{}
		for _, k := range cfg.Keys {
			if k.Scope == ScopeOpen {
				return nil, fmt.Errorf("server: key %s has no scope", k.Name)
			}
			s.keys.keys = append(s.keys.keys, newPrincipal(k, cfg.KeyLimits))
		}
	}
	s.metrics = newMetrics(s)
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	web, err := fs.Sub(webFS, "web")
	if err != nil {
		return nil, err
	}
	index, err := fs.ReadFile(web, "index.html")
	if err != nil {
		return nil, err
	}
	index = bytes.Replace(index, []byte("<!--collection-->"), []byte(collectionNote(cfg.Collection)), 1)
	index = bytes.Replace(index, []byte("<!--placeholder-->"), []byte(searchPlaceholder(cfg.Collection)), 1)
	locked, err := fs.ReadFile(web, "locked.html")
	if err != nil {
		return nil, err
	}
	// The route table: each route with the scope a key needs for it (auth.go), here and
	// nowhere else. A path may have several methods; other methods on it get 405 with
	// Allow (routeTable.register).
	var rt routeTable
	route := func(method, path string, scope Scope, h http.Handler) { rt.add(method, path, scope, h, nil) }
	api := func(method, path string, scope Scope, h http.HandlerFunc) { route(method, path, scope, s.whenReady(h)) }
	// pageRoute is a page for browsers: without a valid key it answers 401 with the HTML
	// of locked, which asks for the key and then shows the page.
	pageRoute := func(path string, scope Scope, h http.Handler, shell []byte) {
		rt.add(http.MethodGet, path, scope, s.whenReady(h), shell)
	}
	api(http.MethodPost, "/v1/compress", ScopeSearch, s.compress)
	api(http.MethodPost, "/v1/snippets", ScopeSearch, s.snippets)
	api(http.MethodPost, "/v1/annotate", ScopeSearch, s.annotate)
	api(http.MethodGet, "/v1/search", ScopeSearch, s.search)
	api(http.MethodGet, "/v1/documents/{id...}", ScopeSearch, s.document)
	// The document API (documents.go, tasks.go): it changes the collection, so admin.
	// Each write also takes one of its key's ingest slots (ingestSlot, --max-ingests).
	api(http.MethodPost, "/v1/documents", ScopeAdmin, s.postDocuments)
	api(http.MethodPut, "/v1/documents/{id...}", ScopeAdmin, s.putDocument)
	api(http.MethodDelete, "/v1/documents/{id...}", ScopeAdmin, s.deleteDocument)
	api(http.MethodGet, "/v1/tasks/{id}", ScopeAdmin, s.task)
	pageRoute("/doc/{id...}", ScopeSearch, http.HandlerFunc(s.docPage), locked)
	pageRoute("/{$}", ScopeSearch, page(index), index) // the page is no data: it asks for the key itself
	route(http.MethodGet, "/healthz", ScopeSearch, http.HandlerFunc(s.healthz))
	route(http.MethodGet, "/livez", ScopeOpen, http.HandlerFunc(s.livez))
	route(http.MethodGet, "/readyz", ScopeOpen, http.HandlerFunc(s.readyz))
	route(http.MethodGet, "/metrics", ScopeMetrics, s.metrics.handler()) // open unless Config.MetricsAuth
	route(http.MethodGet, "/openapi.yaml", ScopeOpen, http.HandlerFunc(s.openapi))
	route(http.MethodGet, "/favicon.ico", ScopeOpen, http.HandlerFunc(favicon))
	route(http.MethodGet, "/static/", ScopeOpen, staticFiles("/static/", web))
	// End of the route table.
	mux := http.NewServeMux()
	rt.register(mux, s.guard, s.admit)
	s.routes = rt.scopes()
	mux.Handle("/", unknownPath{})
	s.mux = mux
	browsers, err := newBrowserRules(&cfg)
	if err != nil {
		return nil, err
	}
	policy, err := frameAncestors(cfg.FrameAncestors)
	if err != nil {
		return nil, err
	}
	s.handler = s.logRequests(s.recoverPanics(s.withDeadline(secureHeaders(policy, browsers.handler(canonicalPaths(mux))))))
	return s, nil
}

// Ready gives a Server made by NewLoading its engine (required) and collection (nil:
// search is off), and makes it serve every route. Call it once. For an index on disk it
// also resumes the batches of documents that were accepted (202) and not finished when
// the server last stopped (see POST /v1/documents): they run in the background, as the
// ingests of IngestPath do, while the server serves.
func (s *Server) Ready(engine *qsc.Engine, index *docindex.Index) error {
	if engine == nil {
		return errors.New("server: no engine")
	}
	if s.ready.Load() {
		return errors.New("server: already ready")
	}
	s.cfg.Engine, s.cfg.Index = engine, index
	if err := s.tasks.start(index); err != nil {
		return err
	}
	s.ready.Store(true) // publishes cfg.Engine and cfg.Index to the handlers
	return nil
}

// Close stops the ingests running in the background and waits for them to stop (at the
// end of the batch being committed). A batch accepted through the API and not finished
// is resumed by the next server over the same index. Serve calls Close when it shuts
// down; close the index after.
func (s *Server) Close() error {
	s.tasks.stop()
	return nil
}

// whenReady answers 503 until the server is ready.
func (s *Server) whenReady(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.ready.Load() {
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, "the server is loading its models; try again in a second")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Handler returns the server's HTTP handler, with its middleware: request log, panic
// recovery, request deadline and security headers; each route then has its access
// control and per-key rate (guard, auth.go) and its admission by body bytes (admit).
func (s *Server) Handler() http.Handler { return s.handler }

// Timeouts of the HTTP server, beyond the per-request deadline (withDeadline).
const (
	readHeaderTimeout = 5 * time.Second
	idleTimeout       = 2 * time.Minute
	shutdownTimeout   = 15 * time.Second
)

// maxHeaderBytes bounds the request line and header fields of a request (431 beyond).
const maxHeaderBytes = 64 << 10

// Serve serves on ln until ctx is done, then shuts down gracefully: after
// Config.DrainDelay (readiness 503 "draining" meanwhile) it stops accepting connections
// and waits (up to 15 s) for the requests in flight to finish. It returns nil
// after a graceful shutdown.
//
// Every request gets an answer within its deadline: the header must arrive within 5 s,
// the body within the request timeout (408 beyond, withDeadline), and the answer has 5 s
// more to be written. The server's own read and write timeouts are only a backstop for
// connections that never reach a handler. The answers net/http gives itself (431 for
// header fields over 64 KiB, 400 for a malformed request) are JSON too (jsonErrors),
// except over TLS, where they are encrypted before jsonErrors sees them and stay
// net/http's plain text.
//
// With Config.TLS it serves HTTPS (HTTP/1.1 and HTTP/2) and nothing else: a plain HTTP
// request gets net/http's 400 and the connection is closed. When Serve returns, the
// ingests running in the background have stopped (Close).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	defer s.Close() // the ingests in the background stop with the server
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readHeaderTimeout + s.cfg.RequestTimeout,
		WriteTimeout:      s.cfg.RequestTimeout + writeGrace,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	jl := jsonErrors{Listener: ln, maxHeaderBytes: maxHeaderBytes}
	if s.cfg.TLS != nil {
		hs.TLSConfig = s.cfg.TLS.Clone()
		go func() { errc <- hs.ServeTLS(jl, "", "") }()
	} else {
		go func() { errc <- hs.Serve(jl) }()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if d := s.cfg.DrainDelay; d > 0 {
		s.draining.Store(true)
		s.log.Info("draining: /readyz answers 503 before the listener closes", "delay", d)
		select {
		case err := <-errc:
			return err
		case <-time.After(d):
		}
	}
	s.log.Info("shutting down", "grace", shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// acquire waits for a turn to compress in lane l (laneOf the request), until ctx is done;
// call release after a nil error.
func (s *Server) acquire(ctx context.Context, l lane) error {
	return s.turns.acquire(ctx, l)
}

// release ends a turn taken by acquire. With Config.YieldCPU the thread then offers its
// core to any thread waiting for one.
func (s *Server) release(l lane) {
	s.turns.release(l)
	if s.cfg.YieldCPU {
		yieldCPU()
	}
}

// inTurn runs f in a turn of the request's lane (laneOf), which it takes (acquire) and
// gives back (release) also when f panics; the error of a turn not had is f's.
func inTurn[T any](s *Server, r *http.Request, f func() (T, error)) (T, error) {
	l := laneOf(r)
	if err := s.acquire(r.Context(), l); err != nil {
		var zero T
		return zero, err
	}
	defer s.release(l)
	return f()
}

// yieldCPU is osYield; tests replace it to count the calls.
var yieldCPU = osYield

// routeTable is the table of routes that New builds: each route with its scope.
type routeTable struct {
	routes []tableRoute
}

type tableRoute struct {
	method, path string
	scope        Scope
	h            http.Handler
	locked       []byte // the 401 answer of a page: HTML that asks for the key
}

func (t *routeTable) add(method, path string, scope Scope, h http.Handler, locked []byte) {
	t.routes = append(t.routes, tableRoute{method: method, path: path, scope: scope, h: h, locked: locked})
}

// register registers every route on mux, each behind guard (its access control and
// per-key rate) and admit (the admission of its body), and for each path a 405 answer
// to the methods it does not serve. The bare prefix of a subtree route (/static of
// /static/, /doc of /doc/{id...}), when no route has it, answers as an unknown path
// (unknownPath) to every method: without it net/http.ServeMux would redirect it to the
// prefix with a "/" (307, with an HTML body), and the server never redirects.
func (t *routeTable) register(mux *http.ServeMux, guard func(Scope, []byte, http.Handler) http.Handler, admit func(http.Handler) http.Handler) {
	var paths []string
	methods := map[string][]string{}
	for _, r := range t.routes {
		mux.Handle(r.method+" "+r.path, guard(r.scope, r.locked, admit(r.h)))
		if methods[r.path] == nil {
			paths = append(paths, r.path)
		}
		methods[r.path] = append(methods[r.path], r.method)
	}
	for _, p := range paths {
		mux.HandleFunc(p, methodNotAllowed(methods[p]...)) // any other method
	}
	for _, p := range paths {
		if b := barePrefix(p); b != "" && methods[b] == nil {
			methods[b] = []string{} // once, for /v1/a/ and /v1/a/{x...} alike
			mux.Handle(b, unknownPath{})
		}
	}
}

// barePrefix returns the path that net/http.ServeMux redirects to the subtree pattern p:
// p without its final "/" when p ends with one ("/static/": "/static"), p without its
// final "/{name...}" segment when p ends with a wildcard of the rest ("/doc/{id...}":
// "/doc"); "" for any other pattern, and for the root.
func barePrefix(p string) string {
	if strings.HasSuffix(p, "...}") {
		p = p[:strings.LastIndexByte(p, '/')+1]
	}
	if !strings.HasSuffix(p, "/") {
		return ""
	}
	return strings.TrimSuffix(p, "/")
}

// scopes returns the scope of each route by its mux pattern ("GET /v1/search").
func (t *routeTable) scopes() map[string]Scope {
	m := make(map[string]Scope, len(t.routes))
	for _, r := range t.routes {
		m[r.method+" "+r.path] = r.scope
	}
	return m
}
