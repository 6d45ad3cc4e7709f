package server

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// TestTurns checks the turns to compress: large requests leave a slot to small ones, and
// a freed slot goes to a waiting small request before a large one that came earlier.
func TestTurns(t *testing.T) {
	ctx := context.Background()
	tr := newTurns(2)
	if err := tr.acquire(ctx, large); err != nil {
		t.Fatal(err)
	}
	// A second large request must wait: one slot stays for small ones.
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := tr.acquire(short, large); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second large request: %v, want to wait until its deadline", err)
	}
	if err := tr.acquire(ctx, small); err != nil { // the slot left to small requests
		t.Fatal(err)
	}
	// Both slots taken: a large request queues first, then a small one.
	order := make(chan lane, 2)
	for _, l := range []lane{large, small} {
		go func() {
			if err := tr.acquire(ctx, l); err == nil {
				order <- l
			}
		}()
		waitFor(t, func() bool { tr.mu.Lock(); defer tr.mu.Unlock(); return len(tr.waiting[l]) == 1 })
	}
	tr.release(small) // frees the small slot: the small request gets it, not the large one
	if got := <-order; got != small {
		t.Fatalf("the freed slot went to lane %d, want the small request", got)
	}
	tr.release(large)
	if got := <-order; got != large {
		t.Fatalf("then lane %d, want the large request", got)
	}
	tr.release(small)
	tr.release(large)
	if tr.free != 2 || tr.large != 0 || len(tr.waiting[small])+len(tr.waiting[large]) != 0 {
		t.Errorf("after all releases: %+v", tr)
	}
	// One slot (one CPU): a large request does not take the small requests' slot, and
	// never two of a lane at once.
	tr = newTurns(1)
	if err := tr.acquire(ctx, large); err != nil {
		t.Fatal(err)
	}
	if err := tr.acquire(ctx, small); err != nil { // beside the large one
		t.Fatal(err)
	}
	// A request whose deadline passes leaves the queue.
	for _, l := range []lane{small, large} {
		short2, cancel2 := context.WithTimeout(ctx, 10*time.Millisecond)
		if err := tr.acquire(short2, l); err == nil {
			t.Fatalf("lane %d: a second request of one slot's lane took a turn", l)
		}
		cancel2()
	}
	tr.release(small)
	tr.release(large)
	if tr.free != 2 || tr.small != 0 || tr.large != 0 || len(tr.waiting[small])+len(tr.waiting[large]) != 0 {
		t.Errorf("a request out of time stayed in the queue, or a slot was lost: %+v", tr)
	}
}

// waitFor waits up to 5 s for cond.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// TestAdmitBytes checks admission by body bytes: a large body waits (unread) while the
// large lane's bytes are taken, and gets 503 at its deadline; a small one goes by.
func TestAdmitBytes(t *testing.T) {
	s, err := New(Config{Engine: servicetest.Engine(t), MaxBodyBytes: 1 << 20, MaxBodyBytesInFlight: 600 << 10, RequestTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hold := make(chan struct{})
	var entered atomic.Int64
	h := s.withDeadline(s.admit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered.Add(1)
		if r.Header.Get("Hold") != "" {
			<-hold
		}
		w.WriteHeader(http.StatusNoContent)
	})))
	post := func(size int64, hold bool) int {
		r := httptest.NewRequest("POST", "/v1/snippets", strings.NewReader(""))
		r.ContentLength = size
		if hold {
			r.Header.Set("Hold", "1")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Code
	}
	done := make(chan int)
	go func() { done <- post(500<<10, true) }() // holds 500 KiB of the 600 KiB
	waitFor(t, func() bool { return s.inFlightBytes[large].Load() == 500<<10 })
	if code := post(200<<10, false); code != http.StatusServiceUnavailable {
		t.Errorf("a large body beyond the budget: %d, want 503 after waiting", code)
	}
	if code := post(100<<10, false); code != http.StatusNoContent { // small lane
		t.Errorf("a small body: %d, want it served", code)
	}
	if code := post(0, false); code != http.StatusNoContent {
		t.Errorf("no body: %d", code)
	}
	close(hold)
	<-done
	if code := post(-1, false); code != http.StatusNoContent { // unknown length: counted as 1 MiB, capped at the budget
		t.Errorf("unknown length once the bytes are free: %d", code)
	}
	if n := s.inFlightBytes[large].Load() + s.inFlightBytes[small].Load(); n != 0 {
		t.Errorf("%d bytes left in flight", n)
	}
	if entered.Load() != 4 {
		t.Errorf("%d requests reached the handler, want 4", entered.Load())
	}
}

// TestReclaim checks that memory is returned once after a burst of large bodies ends,
// not during it, and not after a small one.
func TestReclaim(t *testing.T) {
	var calls atomic.Int64
	m := reclaimer{free: func() { calls.Add(1) }}
	m.admitted(1 << 20)
	m.done(1 << 20) // not a burst
	m.admitted(reclaimAfter)
	m.admitted(1)
	m.done(reclaimAfter) // one still in flight
	time.Sleep(reclaimSettle + 200*time.Millisecond)
	if calls.Load() != 0 {
		t.Fatal("memory returned during a burst")
	}
	m.done(1)
	waitFor(t, func() bool { return calls.Load() == 1 })
	time.Sleep(200 * time.Millisecond)
	if calls.Load() != 1 || m.returns.Load() != 1 {
		t.Errorf("%d returns after one burst", calls.Load())
	}
}

// TestOneSlotQueryBesideBatch checks that with one slot (a server on one CPU) a query is
// answered while a large request, such as a batch of documents being ingested, holds the
// large lane's turn.
func TestOneSlotQueryBesideBatch(t *testing.T) {
	d := newDocServer(t, Config{MaxInFlight: 1, RequestTimeout: 5 * time.Second}, "")
	release := holdLargeTurns(t, d.s)
	defer release()
	if ex := do(t, d.ts, "POST", "/v1/compress", `{"text":"Dogs bark.","query":["dogs"],"budget":20}`, true); ex.status != 200 {
		t.Errorf("compress while the large lane is busy: %d %s", ex.status, ex.body)
	}
}
