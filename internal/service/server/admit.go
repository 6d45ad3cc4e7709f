package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Admission. A request with a body is admitted in two steps, each in its lane:
//
//  1. Bytes: before its body is read, the request takes as many bytes of its lane's body
//     budget (Config.MaxBodyBytesInFlight) as its Content-Length announces (the whole
//     size limit when it announces none), and gives them back when answered. So the
//     bodies held in memory, read or being read, are bounded, whatever the number of
//     connections: the others wait unread in their sockets.
//  2. A turn to compress (turns): at most Config.MaxInFlight requests compress at once,
//     and large ones at most MaxInFlight-1 of them, so that a slot is always left to
//     small requests; a freed slot goes to the first waiting small request, if any, before
//     the first large one. With MaxInFlight 1 (one CPU) the large lane has a slot of its
//     own beside the small one: one small and one large request may compress at once,
//     never two of a lane, so that small requests keep a turn of their own there too.
//
// A request is small when it announces a body of at most smallBody bytes (or none, as a
// GET); the others are large. Within a lane it is first come, first served; every wait
// ends at the request's deadline (503). So a small request overtakes the queue of large
// documents instead of waiting behind it.
type lane int

const (
	small lane = iota
	large
)

// smallBody is the largest body of a small request: room for a sentence of
// qsc.MaxSentenceBytes with its query and JSON escapes.
const smallBody = 192 << 10

// laneOf returns the lane of a request.
func laneOf(r *http.Request) lane {
	if r.ContentLength >= 0 && r.ContentLength <= smallBody {
		return small
	}
	return large
}

// admit makes each request with a body wait for its bytes (step 1 above) before next
// runs, and gives them back after.
func (s *Server) admit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, limit := r.ContentLength, s.bodyLimit(r)
		if n == 0 || n > limit { // nothing to read, or refused unread (413)
			next.ServeHTTP(w, r)
			return
		}
		if n < 0 { // unknown length: the most it may be
			n = limit
		}
		n = min(n, s.cfg.MaxBodyBytesInFlight)
		l := laneOf(r)
		if err := s.bytes[l].Acquire(r.Context(), n); err != nil {
			s.fail(w, r, err)
			return
		}
		s.inFlightBytes[l].Add(n)
		if l == large {
			s.memory.admitted(n)
		}
		defer func() {
			s.inFlightBytes[l].Add(-n)
			s.bytes[l].Release(n)
			if l == large {
				s.memory.done(n)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// turns gives requests their turns to compress (step 2 above). It is safe for concurrent
// use.
type turns struct {
	mu       sync.Mutex
	free     int // slots not taken
	large    int // slots taken by large requests
	maxLarge int
	small    int // slots taken by small requests
	maxSmall int
	waiting  [2][]chan struct{} // per lane, in arrival order; closed when granted
}

// newTurns returns the turns of slots (≥ 1) requests at once, large ones at most
// slots-1 of them; with one slot, the large lane has one of its own beside it.
func newTurns(slots int) *turns {
	slots = max(1, slots)
	if slots == 1 {
		return &turns{free: 2, maxSmall: 1, maxLarge: 1}
	}
	return &turns{free: slots, maxSmall: slots, maxLarge: slots - 1}
}

// canTake reports whether a request of lane l may take a slot now; t.mu is held.
func (t *turns) canTake(l lane) bool {
	if l == small {
		return t.free > 0 && t.small < t.maxSmall
	}
	return t.free > 0 && t.large < t.maxLarge
}

// take takes a slot for lane l; t.mu is held.
func (t *turns) take(l lane) {
	t.free--
	if l == large {
		t.large++
	} else {
		t.small++
	}
}

// acquire waits for a turn in lane l until ctx is done; call release after a nil error.
func (t *turns) acquire(ctx context.Context, l lane) error {
	t.mu.Lock()
	if len(t.waiting[l]) == 0 && t.canTake(l) {
		t.take(l)
		t.mu.Unlock()
		return nil
	}
	ready := make(chan struct{})
	t.waiting[l] = append(t.waiting[l], ready)
	t.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
	}
	t.mu.Lock()
	select {
	case <-ready: // granted meanwhile: give it on
		t.mu.Unlock()
		t.release(l)
		return ctx.Err()
	default:
	}
	if i := slices.Index(t.waiting[l], ready); i >= 0 {
		t.waiting[l] = slices.Delete(t.waiting[l], i, i+1)
	}
	t.mu.Unlock()
	return ctx.Err()
}

// release ends a turn of lane l and grants the freed slot: small requests first.
func (t *turns) release(l lane) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.free++
	if l == large {
		t.large--
	} else {
		t.small--
	}
	for _, l := range [...]lane{small, large} {
		for len(t.waiting[l]) > 0 && t.canTake(l) {
			t.take(l)
			close(t.waiting[l][0])
			t.waiting[l] = slices.Delete(t.waiting[l], 0, 1)
		}
	}
}

// Returning memory after a burst of large bodies: once the large lane has admitted
// reclaimAfter bytes since memory was last returned and has none left in flight, the
// heap is collected and its free memory returned to the system (debug.FreeOSMemory)
// reclaimSettle later, at most once per reclaimGap. Otherwise the runtime returns it at
// its own pace, which took minutes after a burst.
const (
	reclaimAfter  = 64 << 20
	reclaimSettle = time.Second
	reclaimGap    = 10 * time.Second
)

// reclaimer returns memory after bursts. It is safe for concurrent use.
type reclaimer struct {
	mu       sync.Mutex
	inFlight int64 // large-lane bytes admitted and not yet done
	since    int64 // large-lane bytes admitted since memory was last returned
	last     time.Time
	timer    *time.Timer // pending return
	free     func()      // debug.FreeOSMemory; tests count the calls
	returns  atomic.Int64
}

// admitted notes n bytes admitted to the large lane.
func (m *reclaimer) admitted(n int64) {
	m.mu.Lock()
	m.inFlight += n
	m.since += n
	m.mu.Unlock()
}

// done notes n bytes of the large lane answered, and schedules the return of memory when
// a burst has ended.
func (m *reclaimer) done(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inFlight -= n
	if m.inFlight == 0 && m.since >= reclaimAfter && m.timer == nil {
		wait := reclaimSettle + max(0, reclaimGap-time.Since(m.last))
		m.timer = time.AfterFunc(wait, m.reclaim)
	}
}

// reclaim returns memory unless a new burst has begun (its end will schedule it again).
func (m *reclaimer) reclaim() {
	m.mu.Lock()
	m.timer = nil
	if m.inFlight != 0 {
		m.mu.Unlock()
		return
	}
	m.since, m.last = 0, time.Now()
	m.mu.Unlock()
	m.returns.Add(1)
	m.free()
}

// bodyLimit is the largest body of a request: Config.MaxDocumentsBodyBytes for POST
// /v1/documents, Config.MaxBodyBytes for the others.
func (s *Server) bodyLimit(r *http.Request) int64 {
	if r.Method == http.MethodPost && r.URL.Path == "/v1/documents" {
		return s.cfg.MaxDocumentsBodyBytes
	}
	return s.cfg.MaxBodyBytes
}

// Limits per key. Before the steps above, a request with a key (auth.go) takes a token
// from its key's bucket: Limits.Rate tokens a second, at most Limits.Burst at once (a
// key without a rate takes none). With none left it is answered at once, unread: 429
// with Retry-After, the seconds until the bucket has a token again, and a JSON error.
// A key also runs at most Limits.Ingests document ingests at once (ingestSlot); without
// keys, every request shares the server's open principal and its ingests. The buckets
// cost a mutex and no allocation per request (docs/reliability.md measures the load
// with keys on).

// DefaultIngests is the document ingests a key runs at once when neither its line of
// the keys file nor Config.KeyLimits says.
const DefaultIngests = 2

// ingestRetry is the Retry-After of a 429 for a batch beyond the key's ingests: a batch
// takes seconds, and its end cannot be foreseen. A write of one document waits for a slot
// up to ingestWait first (it takes milliseconds, and a CMS's publish hook sends many at
// once), and its 429 says to retry after ingestRetryOne.
const (
	ingestRetry    = 5 * time.Second
	ingestWait     = 2 * time.Second
	ingestRetryOne = time.Second
)

// principal is who a request acts as: a key with its limits, or the open principal of a
// server without keys.
type principal struct {
	key     Key
	limits  Limits        // resolved: no zero field; negative means none
	bucket  *rate.Limiter // nil: no rate limit
	ingests chan struct{} // one element per ingest running; nil: no limit
}

// newPrincipal returns the principal of k, its zero limits taken from def.
func newPrincipal(k Key, def Limits) *principal {
	l := k.Limits
	if l.Rate == 0 {
		l.Rate = def.Rate
	}
	if l.Burst == 0 {
		l.Burst = def.Burst
	}
	if l.Ingests == 0 {
		l.Ingests = def.Ingests
	}
	if l.Ingests == 0 {
		l.Ingests = DefaultIngests
	}
	p := &principal{key: k}
	if l.Rate > 0 {
		if l.Burst <= 0 {
			l.Burst = max(1, int(math.Ceil(l.Rate)))
		}
		p.bucket = rate.NewLimiter(rate.Limit(l.Rate), l.Burst)
	} else {
		l.Rate, l.Burst = -1, -1
	}
	if l.Ingests > 0 {
		p.ingests = make(chan struct{}, l.Ingests)
	}
	p.limits = l
	return p
}

// allow takes a token from p's bucket, or answers 429 and returns false.
func (s *Server) allow(w http.ResponseWriter, r *http.Request, p *principal) bool {
	if p.bucket == nil {
		return true
	}
	now := time.Now()
	if p.bucket.AllowN(now, 1) {
		return true
	}
	wait := time.Duration((1 - p.bucket.TokensAt(now)) / p.limits.Rate * float64(time.Second))
	tooMany(w, wait, fmt.Sprintf("key %s is over its rate of %g requests/s (burst %d)", p.key.Name, p.limits.Rate, p.limits.Burst))
	return false
}

// tooMany answers 429 with Retry-After: wait, rounded up to whole seconds (at least 1).
func tooMany(w http.ResponseWriter, wait time.Duration, why string) {
	secs := max(1, int64(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	writeError(w, http.StatusTooManyRequests, fmt.Sprintf("%s; retry after %d s", why, secs))
}

// ingestSlot takes one of the ingest slots of the request's key (or of the open
// principal), for a handler that ingests documents:
//
//	release, ok := s.ingestSlot(w, r)
//	if !ok {
//		return // answered 429
//	}
//	defer release()
//
// With every slot of the key taken, a batch (POST) gets 429 with Retry-After at once; a
// write of one document (PUT, DELETE) waits for a slot up to ingestWait, within its
// deadline, then gets 429. It returns false after a 429. A background ingest (a task)
// keeps its slot until it ends.
func (s *Server) ingestSlot(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	p := s.principalOf(r)
	if p.ingests == nil {
		return func() {}, true
	}
	taken := func() func() {
		var once sync.Once
		return func() { once.Do(func() { <-p.ingests }) }
	}
	select {
	case p.ingests <- struct{}{}:
		return taken(), true
	default:
	}
	retry := ingestRetry
	if r.Method == http.MethodPut || r.Method == http.MethodDelete {
		retry = ingestRetryOne
		t := time.NewTimer(ingestWait)
		defer t.Stop()
		select {
		case p.ingests <- struct{}{}:
			return taken(), true
		case <-t.C:
		case <-r.Context().Done():
		}
	}
	who := "the server"
	if p.key.Name != "" {
		who = "key " + p.key.Name
	}
	tooMany(w, retry, fmt.Sprintf("%s runs %d ingests already, its limit", who, p.limits.Ingests))
	return nil, false
}
