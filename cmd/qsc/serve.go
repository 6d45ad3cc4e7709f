package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/service/server"
)

func init() {
	prog.Register(&cli.Command{Name: "serve", Summary: "serve the HTTP API and the search page over the demo collection or your own documents (--index, --docs)", Run: runServe})
}

// serveOptions are the flags of qsc serve.
type serveOptions struct {
	addr      string
	logFormat string
	// logLevel is the least level logged: slog's debug, info, warn or error.
	logLevel slog.Level
	maxBody  int64
	// maxDocsBody bounds the body of POST /v1/documents.
	maxDocsBody int64
	timeout     time.Duration
	drain       time.Duration
	noDemo      bool
	// index is the directory of the persistent document index ("": none); docs the
	// documents to ingest into it (a JSONL file, a folder or a document file; "": none).
	index, docs string
	seed        uint64
	accurate    bool
	inFlight    int
	spareProc   bool
	yield       bool
	// bodyInFlight bounds the request bodies in memory per lane (0: 4 × maxBody).
	bodyInFlight int64
	// memoryLimit is the runtime's soft memory limit in bytes (0: the runtime's own,
	// from GOMEMLIMIT).
	memoryLimit int64
	// Keys (serve_auth.go, docs/security.md): an admin key, a search key, a keys file.
	apiKey, searchKey, keysFile string
	metricsAuth                 bool
	insecureOpen                bool
	// Browsers (docs/security.md): origins whose pages may call the API and frame the
	// pages, public search with keyed writes, host names a proxy forwards.
	corsOrigins, frameAncestors, allowedHosts, baseURL string
	openSearch                                         bool
	// keyLimits are the limits of a key that its line of the keys file does not set.
	keyLimits       server.Limits
	tlsCert, tlsKey string
	args            []string // the command line, to warn of keys on it
}

// serveReady, when set (by tests), is called with the listening address once the server
// accepts connections.
var serveReady func(addr string)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("serve", "", stderr)
	var o serveOptions
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address (host:port; port 0 picks a free one)")
	fs.StringVar(&o.logFormat, "log-format", "text", "request log format on stderr: text or json")
	fs.TextVar(&o.logLevel, "log-level", slog.LevelInfo, "least level logged: debug, info, warn or error. Each request is logged at info, but a probe that succeeds (/livez, /readyz, /healthz, /metrics) at debug")
	fs.Int64Var(&o.maxBody, "max-body", server.DefaultMaxBodyBytes, "largest request body, in bytes (413 beyond)")
	fs.Int64Var(&o.maxDocsBody, "max-docs-body", server.DefaultMaxDocumentsBodyBytes, "largest body of POST /v1/documents, a batch of documents, in bytes (413 beyond)")
	fs.DurationVar(&o.timeout, "timeout", server.DefaultRequestTimeout, "deadline of each request (503 beyond)")
	fs.DurationVar(&o.drain, "shutdown-delay", 0, "on SIGTERM or SIGINT, keep serving this long with /readyz answering 503 \"draining\" before the listener closes, so that a load balancer stops sending first (e.g. 10s)")
	fs.BoolVar(&o.noDemo, "no-demo", false, "do not index the demo collection (search is off; starts faster)")
	fs.StringVar(&o.index, "index", "", "directory of a persistent document index to serve instead of the demo collection, and to write through the document API: opened if it exists, else created in its existing parent folder (empty, or from --docs)")
	fs.StringVar(&o.docs, "docs", "", "documents to add to the index in the background once the server is ready (new and changed ones only; a document the API deleted or replaced stays so until its file changes; one whose file is gone since the last start is removed, unless the API replaced it; /readyz shows the progress): a JSONL file of {\"id\",\"title\",\"text\",\"url\"} objects (other fields passed over, with a warning), a folder of .txt, .md and .html files (Markdown, .markdown and .mdx too, read as its rendering reads; HTML and .htm as a browser shows its content, menus and scripts left out) or one such file; without --index, an index in memory")
	fs.Uint64Var(&o.seed, "seed", 0, "seed of the random method")
	fs.BoolVar(&o.accurate, "accurate", false, cli.AccurateUsage+" (compare --max-in-flight and the load figures in docs/reliability.md)")
	fs.IntVar(&o.inFlight, "max-in-flight", 0, "requests that compress at once; the others wait their turn, first come first served (0: GOMAXPROCS)")
	fs.BoolVar(&o.yield, "yield", true, "after each compression, offer the core to a thread waiting for one (the server's network thread, or a client on the same machine) before the next compression starts (Linux)")
	fs.BoolVar(&o.spareProc, "spare-proc", true, "run one Go processor more than the compression slots (--max-in-flight), so that requests are read as they arrive while every slot compresses")
	fs.Int64Var(&o.bodyInFlight, "max-body-in-flight", 0, "request bodies held in memory at once, in bytes, in each of two lanes (bodies up to 192 KiB, larger ones); a request waits unread until its body fits (0: 4 × --max-body)")
	fs.Int64Var(&o.memoryLimit, "memory-limit", 0, "soft memory limit of the Go runtime, in bytes: the garbage collector works harder as the heap nears it (0: GOMEMLIMIT, else none)")
	fs.StringVar(&o.apiKey, "api-key", "", "an API key of scope admin (everything); with a key, every route but /livez, /readyz, /metrics, /openapi.yaml and the page's static files needs Authorization: Bearer KEY (docs/security.md). Prefer the variable to the flag: the process list shows flags")
	fs.StringVar(&o.searchKey, "search-key", "", "an API key of scope search: the page, search, snippets, compress and reading documents, nothing that changes the collection")
	fs.StringVar(&o.keysFile, "keys", "", "a file of API keys, one per line: SCOPE KEY [name=NAME] [rate=N] [burst=N] [ingests=N], SCOPE search, admin or metrics, KEY the key or sha256:HEX of it; # comments")
	fs.BoolVar(&o.metricsAuth, "metrics-auth", false, "put /metrics behind a key of scope metrics or admin (open by default)")
	fs.BoolVar(&o.insecureOpen, "insecure-open", false, "serve --index/--docs without a key on an address others can reach (refused otherwise): only on a network where everyone may read every document")
	fs.Float64Var(&o.keyLimits.Rate, "rate-limit", 0, "requests per second per key, on average (0: no limit); beyond, 429 with Retry-After. A line of --keys may set its own (rate=N)")
	fs.IntVar(&o.keyLimits.Burst, "rate-burst", 0, "requests a key may make at once above --rate-limit (0: the rate, at least 1); burst=N in --keys")
	fs.IntVar(&o.keyLimits.Ingests, "max-ingests", server.DefaultIngests, "document ingests a key runs at once (beyond, 429); ingests=N in --keys")
	fs.StringVar(&o.baseURL, "base-url", "", "with --docs of a folder: the address its documents are published at, so that a result links to its page: this URL followed by the file's path in the folder, a Markdown file's extension dropped as a static site publishes it (https://help.example.com/docs/ gives billing/refunds.md https://help.example.com/docs/billing/refunds, and billing/index.md .../docs/billing/); a URL with {path} gets the path as it is (https://github.com/org/repo/blob/main/docs/{path}); a Markdown file's front matter url, permalink or slug, or an HTML page's canonical link, wins")
	fs.StringVar(&o.corsOrigins, "cors-origin", "", "comma-separated origins (https://host[:port]) whose pages may call the API from a browser (CORS), keys still applying; pages of other origins may read nothing and change nothing")
	fs.StringVar(&o.frameAncestors, "frame-ancestors", "", "comma-separated origins whose pages may show the search page in a frame (none may by default)")
	fs.BoolVar(&o.openSearch, "open-search", false, "with keys: the page, search, snippets and reading documents need no key; changing the collection still does (a public search over documents anyone may read)")
	fs.StringVar(&o.allowedHosts, "allowed-hosts", "", "comma-separated host names a server without keys on a loopback address answers besides localhost (the names a reverse proxy on this machine forwards); others get 421, against DNS rebinding")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM; the chain, leaf first), with --tls-key; read again when it changes")
	fs.StringVar(&o.tlsKey, "tls-key", "", "the private key (PEM) of --tls-cert")
	if err := envFlags(fs, os.LookupEnv); err != nil {
		return err
	}
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if o.logFormat != "text" && o.logFormat != "json" {
		return cli.Usagef("--log-format must be text or json, not %q", o.logFormat)
	}
	if o.drain < 0 {
		return cli.Usagef("--shutdown-delay must be 0 or positive, not %v", o.drain)
	}
	if o.maxBody <= 0 || o.maxDocsBody <= 0 || o.timeout <= 0 {
		return cli.Usagef("--max-body, --max-docs-body and --timeout must be positive")
	}
	if o.inFlight < 0 {
		return cli.Usagef("--max-in-flight must be 0 (GOMAXPROCS) or positive, not %d", o.inFlight)
	}
	if o.bodyInFlight < 0 || o.memoryLimit < 0 {
		return cli.Usagef("--max-body-in-flight and --memory-limit must be 0 or positive")
	}
	if o.keyLimits.Rate < 0 || o.keyLimits.Burst < 0 || o.keyLimits.Ingests < 1 {
		return cli.Usagef("--rate-limit and --rate-burst must be 0 or positive, --max-ingests at least 1")
	}
	if o.insecureOpen && (o.apiKey != "" || o.searchKey != "" || o.keysFile != "") {
		return cli.Usagef("--insecure-open serves without keys; it cannot go with --api-key, --search-key or --keys (for a public search whose writes need a key: --open-search with an admin key)")
	}
	if o.baseURL != "" {
		if o.docs == "" {
			return cli.Usagef("--base-url is the address of the documents of --docs: give --docs FOLDER")
		}
		if u, err := url.Parse(o.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return cli.Usagef("--base-url %q: want an absolute http or https URL, such as https://help.example.com/docs/", o.baseURL)
		}
	}
	if o.openSearch && o.apiKey == "" && o.keysFile == "" {
		return cli.Usagef("--open-search opens search to everyone and keeps a key for changing the collection: give an admin key (--api-key or --keys); without keys every route is open already")
	}
	for _, list := range [][2]string{{"cors-origin", o.corsOrigins}, {"frame-ancestors", o.frameAncestors}} {
		for _, origin := range splitList(list[1]) {
			if _, err := server.CheckOrigin(origin); err != nil {
				return cli.Usagef("--%s: %v", list[0], err)
			}
		}
	}
	o.args = args
	if err := checkCollection(o); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, o, stderr)
}

// ignoreHangup keeps SIGHUP from stopping the server until ctx is done, and logs each
// one: a closed terminal, logrotate's "kill -HUP" or a "systemctl reload" would otherwise
// end the process at once, with no drain and no log line. The keys and the TLS
// certificate are read at start; a restart reloads them.
func ignoreHangup(ctx context.Context, log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-hup:
				log.Warn("SIGHUP ignored: the server keeps serving; restart it (SIGTERM, then start) to reload --keys or the TLS certificate")
			case <-ctx.Done():
				return
			}
		}
	}()
}

// processors returns the number of requests that compress at once and the GOMAXPROCS of
// the server. Compression slots default to GOMAXPROCS; with o.spareProc the server runs
// one Go processor more than the slots. The Go scheduler polls the network only when a
// processor runs out of goroutines to run (or every 10 ms from its monitor thread), so
// with every processor compressing, requests sit unread in their sockets and are read in
// bursts, which inflates the tail latency (docs/reliability.md). The spare processor is idle
// whenever the slots are busy, waits in the network poller and reads each request as it
// arrives, so that the first-come-first-served queue sees the true arrival order
// (docs/reliability.md).
func processors(o serveOptions) (inFlight, procs int) {
	procs = runtime.GOMAXPROCS(0)
	inFlight = o.inFlight
	if inFlight == 0 {
		inFlight = procs
	}
	if o.spareProc {
		procs = inFlight + 1
	}
	return inFlight, procs
}

// serve listens on o.addr, loads the models and opens the collection (openCollection),
// is ready, ingests o.docs in the background, and serves until ctx is done, then shuts
// down gracefully (an ingest running stops at the end of its batch).
func serve(ctx context.Context, o serveOptions, logw io.Writer) (err error) {
	var h slog.Handler = slog.NewTextHandler(logw, &slog.HandlerOptions{Level: o.logLevel})
	if o.logFormat == "json" {
		// Durations as "15s", as the text format writes them, not as nanoseconds.
		h = slog.NewJSONHandler(logw, &slog.HandlerOptions{Level: o.logLevel, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Value.Kind() == slog.KindDuration {
				return slog.String(a.Key, a.Value.Duration().String())
			}
			return a
		}})
	}
	log := slog.New(h)
	if o.logFormat == "json" {
		// The error that stops the server is a JSON line too, for a collector that reads
		// only those (the command also prints it plainly, as every command does).
		defer func() {
			if err != nil {
				log.Error("qsc serve stopped on an error", "error", err.Error())
			}
		}()
	}
	start := time.Now()
	ignoreHangup(ctx, log)
	keys, err := serveKeys(o, o.args, log)
	if err != nil {
		return err
	}
	if err := checkOpen(ctx, o, len(keys) > 0); err != nil {
		return err
	}
	tlsCfg, err := tlsConfig(o, log)
	if err != nil {
		return err
	}
	// Listen first, so that a busy address fails at once; connections wait for the models.
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	inFlight, procs := processors(o)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	if o.memoryLimit > 0 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(o.memoryLimit))
	}
	// Serve at once: /livez answers, /readyz says 503 until the models and the index are
	// loaded, and so does every other route.
	srv, err := server.NewLoading(server.Config{Logger: log, MaxBodyBytes: o.maxBody, MaxDocumentsBodyBytes: o.maxDocsBody, RequestTimeout: o.timeout, DrainDelay: o.drain,
		MaxInFlight: inFlight, YieldCPU: o.yield, MaxBodyBytesInFlight: o.bodyInFlight,
		Keys: keys, MetricsAuth: o.metricsAuth, KeyLimits: o.keyLimits, TLS: tlsCfg, Collection: o.collection(),
		DocsBaseURL: o.baseURL, Origins: splitList(o.corsOrigins), FrameAncestors: splitList(o.frameAncestors), OpenSearch: o.openSearch,
		LoopbackHosts: len(keys) == 0 && loopbackOnly(ctx, o.addr), AllowedHosts: splitList(o.allowedHosts)})
	if err != nil {
		return err
	}
	sctx, stopServing := context.WithCancel(ctx)
	defer stopServing()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx, ln) }()
	stop := func(err error) error { // after a failed start
		stopServing()
		<-served
		return err
	}
	scheme := "http"
	if tlsCfg != nil {
		scheme = "https"
	}
	log.Info("listening", "url", scheme+"://"+ln.Addr().String()+"/", "max_in_flight", inFlight, "gomaxprocs", procs,
		"yield", o.yield, "accurate", o.accurate, "memory_limit", memoryLimit(),
		"keys", len(keys), "metrics_auth", o.metricsAuth && len(keys) > 0)
	if len(keys) > 0 && tlsCfg == nil && !loopbackOnly(ctx, o.addr) {
		log.Warn("keys and documents travel in clear text on this address: give --tls-cert and --tls-key, or put a TLS reverse proxy in front (docs/security.md)", "addr", o.addr)
	}
	eng, err := qsc.NewWithOptions(qsc.Options{Seed: o.seed, Accurate: o.accurate})
	if err == nil {
		// Load the default method now, so that the first request does not wait for it.
		if err = eng.Load(); err != nil {
			err = fmt.Errorf("loading the default method: %w", err)
		}
	}
	tEngine := time.Since(start)
	if err != nil {
		return stop(err)
	}
	idx, err := openCollection(ctx, o, eng, log)
	if idx != nil {
		defer idx.Close()
	}
	if err != nil {
		return stop(err)
	}
	if err := srv.Ready(eng, idx); err != nil {
		return stop(err)
	}
	// Loading the models and the index leaves about 100 MB of garbage, which the runtime
	// would return to the system only over minutes.
	debug.FreeOSMemory()
	log.Info("ready", "startup", time.Since(start).Round(time.Millisecond), "models", tEngine.Round(time.Millisecond))
	if o.docs != "" {
		// In the background: searches see each batch of documents once it is committed,
		// and /readyz shows the progress.
		if _, err := srv.IngestPath(o.docs); err != nil {
			return stop(err)
		}
	}
	if serveReady != nil {
		serveReady(ln.Addr().String())
	}
	if err := <-served; err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// envFlags sets each flag of fs from its environment variable, if set: QSC_ and the flag's
// name in capitals with "_" for "-" (--max-in-flight: QSC_MAX_IN_FLIGHT). Call it before
// parsing the command line, so that a flag given there wins. A bad value is a usage error
// naming the variable. Each flag's help names its variable.
func envFlags(fs *flag.FlagSet, lookup func(string) (string, bool)) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		f.Usage += " [$" + name + "]"
		if v, ok := lookup(name); ok && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				want := ""
				if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
					want = " (a boolean: true or false, 1 or 0)"
				}
				err = cli.Usagef("environment variable %s=%q: %v%s", name, v, e, want)
			}
		}
	})
	return err
}

// envName is the environment variable of a flag: QSC_MAX_IN_FLIGHT for max-in-flight.
func envName(flagName string) string {
	return "QSC_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// memoryLimit is the Go runtime's soft memory limit (GOMEMLIMIT) for the start-up log:
// its bytes, or "none" when none is set.
func memoryLimit() any {
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l
	}
	return "none"
}

// splitList returns the non-empty, trimmed items of the comma-separated list s.
func splitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
