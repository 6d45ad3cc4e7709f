package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
)

// metrics are the server's Prometheus metrics, served at GET /metrics. Each Server has
// its own registry, so that several servers (tests) do not share counts.
type metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	inFlight     prometheus.Gauge
	compressions *prometheus.CounterVec
	counted      map[string]prometheus.Counter // compressions by method name, made once
	documents    *prometheus.CounterVec        // documents written, by result
	annotations  *prometheus.CounterVec        // annotations sent with POST /v1/snippets, by result
}

// The results of an annotation sent with POST /v1/snippets (metrics.annotation).
const (
	annotationUsed        = "used"         // the snippets were made from it
	annotationReparsed    = "reparsed"     // made by other models; the text was parsed again, as asked
	annotationOtherModels = "other_models" // made by other models, refused (400)
	annotationOtherText   = "other_text"   // made from another text, refused (400)
	annotationUnreadable  = "unreadable"   // not base64 or not an annotation (400)
)

// newMetrics registers the metrics of s: requests and their latency by route and status,
// requests in flight, request-body bytes in flight per lane, compressions by method, the
// returns of memory after bursts, and the Go runtime's and the process's own.
func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "qsc_http_requests_total",
			Help: "HTTP requests answered, by route (the pattern that served it; other for unknown paths) and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "qsc_http_request_duration_seconds",
			Help:    "Time from the end of a request's header to the end of its answer, by route and status code.",
			Buckets: []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10},
		}, []string{"route", "code"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "qsc_http_requests_in_flight",
			Help: "HTTP requests being served (waiting for their turn included).",
		}),
		compressions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "qsc_compressions_total",
			Help: "Sentences compressed, by method: one per answer of /v1/compress, one per snippet of /v1/snippets and /v1/search.",
		}, []string{"method"}),
		annotations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "qsc_snippet_annotations_total",
			Help: "Annotations sent with POST /v1/snippets, by result: used (the snippets were made from it), reparsed (made by other models; parsed again as the request asked), other_models and other_text (refused with 400: annotate the documents again after an upgrade of qsc's models), unreadable (400).",
		}, []string{"result"}),
		documents: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "qsc_documents_written_total",
			Help: "Records of the document API and of --docs, by result: added, updated, unchanged and rejected (ingested), deleted.",
		}, []string{"result"}),
	}
	for _, r := range []string{"added", "updated", "unchanged", "rejected", "deleted"} { // every result shows, at 0
		m.documents.WithLabelValues(r)
	}
	for _, r := range []string{annotationUsed, annotationReparsed, annotationOtherModels, annotationOtherText, annotationUnreadable} {
		m.annotations.WithLabelValues(r)
	}
	m.counted = map[string]prometheus.Counter{}
	for _, name := range qsc.Methods() { // every method shows, at 0 until used
		m.counted[name] = m.compressions.WithLabelValues(name)
	}
	bytes := prometheus.NewDesc("qsc_http_body_bytes_in_flight",
		"Request-body bytes admitted and not yet answered, by lane (small: bodies up to 192 KiB; large).", []string{"lane"}, nil)
	tasks := prometheus.NewDesc("qsc_ingest_tasks",
		"Ingests in the background (--docs, batches of POST /v1/documents run as tasks), by state: queued, running.", []string{"state"}, nil)
	m.reg.MustRegister(m.requests, m.duration, m.inFlight, m.compressions, m.documents, m.annotations,
		collectorFunc{desc: tasks, collect: func(ch chan<- prometheus.Metric) {
			waiting, running := s.tasks.counts()
			ch <- prometheus.MustNewConstMetric(tasks, prometheus.GaugeValue, float64(waiting), "queued")
			ch <- prometheus.MustNewConstMetric(tasks, prometheus.GaugeValue, float64(running), "running")
		}},
		collectorFunc{desc: bytes, collect: func(ch chan<- prometheus.Metric) {
			for l, name := range [...]string{"small", "large"} {
				ch <- prometheus.MustNewConstMetric(bytes, prometheus.GaugeValue, float64(s.inFlightBytes[l].Load()), name)
			}
		}},
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "qsc_memory_returns_total",
			Help: "Times the server returned its free memory to the system after a burst of large bodies.",
		}, func() float64 { return float64(s.memory.returns.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "qsc_ready",
			Help: "1 once the models and the collection are loaded and the collection's last commit did not fail (GET /readyz answers 200), else 0.",
		}, func() float64 {
			if s.ready.Load() && s.indexFault() == "" {
				return 1
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "qsc_documents",
			Help: "Documents in the searchable collection (0 before it is open).",
		}, func() float64 {
			if s.ready.Load() && s.cfg.Index != nil {
				return float64(s.cfg.Index.Len())
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "qsc_index_degraded",
			Help: "1 while the collection's last commit has failed (a full disk, the index's directory removed; GET /readyz answers 503 degraded), else 0.",
		}, func() float64 {
			if s.indexFault() != "" {
				return 1
			}
			return 0
		}),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// collectorFunc is a collector of one metric description whose values collect sends.
type collectorFunc struct {
	desc    *prometheus.Desc
	collect func(chan<- prometheus.Metric)
}

func (c collectorFunc) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }
func (c collectorFunc) Collect(ch chan<- prometheus.Metric) { c.collect(ch) }

// handler serves the metrics in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// observe counts one answered request.
func (m *metrics) observe(route string, status int, d time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, code).Inc()
	m.duration.WithLabelValues(route, code).Observe(d.Seconds())
}

// compressed counts n compressions by method (the default when empty); names that are
// not methods are not counted (their requests failed).
func (m *metrics) compressed(method string, n int) {
	if method == "" {
		method = qsc.DefaultMethod
	}
	if c, ok := m.counted[method]; ok && n > 0 {
		c.Add(float64(n))
	}
}

// annotation counts an annotation sent with POST /v1/snippets by its result.
func (m *metrics) annotation(result string) { m.annotations.WithLabelValues(result).Inc() }

// routeOf is the route label of a request: the pattern of the mux that serves it, "other"
// for a path the server does not have (a path that is not canonical included, and one
// that unknownPath answers).
func routeOf(mux *http.ServeMux, r *http.Request) string {
	if !canonicalPath(r.URL.EscapedPath()) {
		return "other"
	}
	h, pattern := mux.Handler(r)
	if _, unknown := h.(unknownPath); unknown || pattern == "" {
		return "other"
	}
	return pattern
}

// wrote counts n documents written with result.
func (m *metrics) wrote(result string, n int) {
	if n > 0 {
		m.documents.WithLabelValues(result).Add(float64(n))
	}
}

// wroteSummary counts the documents of an ingest's summary.
func (m *metrics) wroteSummary(sum docindex.Summary) {
	m.wrote("added", sum.Added)
	m.wrote("updated", sum.Updated)
	m.wrote("unchanged", sum.Unchanged)
	m.wrote("rejected", sum.Rejected)
}
