package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/atomicfile"
	"github.com/qsc-nlp/qsc/internal/service/docfile"
	"github.com/qsc-nlp/qsc/internal/service/docindex"
)

// Ingest tasks. A batch of POST /v1/documents over the synchronous limits, and the --docs
// ingest of `qsc serve` (IngestPath), run as tasks in the background while the server
// serves: one at a time, in the order they came, each committed in batches of 128
// documents that searches see as soon as each is committed.
//
// Durability. A batch is answered 202 only once its body and its task record are written
// to the task folder of the index (DIR/tasks/ID.body and ID.json, each synced, and the
// folder synced), so that a crash after the 202 loses nothing: the next server over the
// index resumes every task not finished (Ready), from its first record; the records
// committed before the crash are then counted unchanged. A finished task's record (its
// state, counts and first errors) stays in the folder, for GET /v1/tasks/{id} after a
// restart, and its body is removed; the last keptTasks records are kept. A task that
// failed (the index failed, as on a full disk) keeps its body, and the next start runs it
// again. The --docs task is not written to the folder: its file is its record, and the
// next start ingests it again.
//
// A collection in memory keeps its tasks in memory.

// Task states.
const (
	taskQueued    = "queued"
	taskRunning   = "running"
	taskSucceeded = "succeeded"
	taskFailed    = "failed"
)

// Limits of the tasks.
const (
	// maxTaskErrors bounds the per-record errors a task reports; the others are counted.
	maxTaskErrors = 100
	// maxQueuedTasks bounds the batches waiting for their turn; one more gets 503.
	maxQueuedTasks = 16
	// keptTasks is the number of finished tasks whose record is kept.
	keptTasks = 100
	// taskDirName is the task folder in the index's directory.
	taskDirName = "tasks"
)

// Sources of tasks.
const (
	sourceAPI  = "POST /v1/documents"
	sourceDocs = "--docs"
)

// errQueueFull is the error of a batch that finds maxQueuedTasks waiting.
var errQueueFull = errors.New("too many batches of documents are waiting to be ingested")

// ingestCounts count the records of an ingest by outcome.
type ingestCounts struct {
	Added     int `json:"added"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Rejected  int `json:"rejected"`
}

// String is the summary line: "12 added, 0 updated, 3 unchanged, 1 rejected".
func (c ingestCounts) String() string {
	return docindex.Summary{Added: c.Added, Updated: c.Updated, Unchanged: c.Unchanged, Rejected: c.Rejected}.String()
}

// count counts one outcome.
func (c *ingestCounts) count(o docindex.Outcome) {
	switch o {
	case docindex.Added:
		c.Added++
	case docindex.Updated:
		c.Updated++
	case docindex.Unchanged:
		c.Unchanged++
	case docindex.Rejected:
		c.Rejected++
	}
}

// recordResult is the outcome of one record of a batch of documents.
type recordResult struct {
	// At is where the record is in the body: "line N" (JSON lines) or "item N" (a JSON
	// array; item 1 for a single object), from 1; or file:line for --docs.
	At     string `json:"at"`
	ID     string `json:"id,omitempty"`
	Result string `json:"result"`
	Error  string `json:"error,omitempty"`
	// Ignored names the record's fields that a document does not have, passed over.
	Ignored []string `json:"ignored,omitempty"`
}

// resultOf is the recordResult of an ingest report.
func resultOf(r docindex.Report) recordResult {
	rr := recordResult{At: r.Where, ID: r.ID, Result: r.Outcome.String(), Ignored: r.Ignored}
	if r.Err != nil {
		rr.Error = r.Err.Error()
	}
	return rr
}

// taskProgress is a task's state and counts, as GET /readyz shows it.
type taskProgress struct {
	ID     string `json:"id"`
	State  string `json:"state"`
	Source string `json:"source"`
	// Records is the number of records of the input, when known (0 when not).
	Records int `json:"records,omitempty"`
	// Processed is the number of records done so far: committed, unchanged or rejected.
	Processed int `json:"processed"`
	ingestCounts
}

// taskInfo is the answer of GET /v1/tasks/{id}, and the record of a task kept on disk.
type taskInfo struct {
	taskProgress
	// Format is how the body is read: json (an array, or one object) or jsonl.
	Format string `json:"format,omitempty"`
	// Errors are the first maxTaskErrors rejected records; ErrorsOmitted counts the others.
	Errors        []recordResult `json:"errors"`
	ErrorsOmitted int            `json:"errors_omitted"`
	// Error is why a failed task stopped.
	Error    string     `json:"error,omitempty"`
	Created  time.Time  `json:"created"`
	Started  *time.Time `json:"started,omitempty"`
	Finished *time.Time `json:"finished,omitempty"`
	// Resumed counts the restarts of the server that found the task unfinished.
	Resumed int `json:"resumed"`
}

// finished reports whether a task in state is over.
func finished(state string) bool { return state == taskSucceeded || state == taskFailed }

// task is one ingest in the background.
type task struct {
	mu   sync.Mutex
	info taskInfo
	// path is the --docs input; "" for a body.
	path string
	// body is the batch (of a collection in memory); nil when spooled to disk.
	body []byte
	// release gives back the ingest slot of the request's key (ingestSlot), called when
	// the task ends (nil: none, as for --docs and the tasks resumed at start).
	release func()
}

// snapshot returns a copy of the task's record.
func (t *task) snapshot() taskInfo {
	t.mu.Lock()
	defer t.mu.Unlock()
	info := t.info
	info.Errors = slices.Clone(info.Errors)
	if info.Errors == nil {
		info.Errors = []recordResult{}
	}
	return info
}

// note counts the outcome of one record.
func (t *task) note(r docindex.Report) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.info.Processed++
	t.info.count(r.Outcome)
	if r.Outcome == docindex.Rejected {
		if len(t.info.Errors) < maxTaskErrors {
			t.info.Errors = append(t.info.Errors, resultOf(r))
		} else {
			t.info.ErrorsOmitted++
		}
	}
}

// taskQueue runs the tasks, one at a time, and keeps their records. It is safe for
// concurrent use.
type taskQueue struct {
	s   *Server
	dir string // the task folder; "" for a collection in memory
	// ctx ends the tasks when the server stops.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	byID     map[string]*task
	waiting  []*task
	reserved int     // batches being written to the folder, counted as waiting
	running  *task   // nil when none runs
	done     []*task // finished, oldest first
	stopped  chan struct{}
	wake     chan struct{} // a task was queued
}

func newTaskQueue(s *Server) *taskQueue {
	ctx, cancel := context.WithCancel(context.Background())
	return &taskQueue{s: s, ctx: ctx, cancel: cancel, byID: map[string]*task{}, wake: make(chan struct{}, 1)}
}

// start loads the task folder of x (for an index on disk), queues the unfinished tasks
// again, and starts running the tasks. Nothing runs without a collection.
func (q *taskQueue) start(x *docindex.Index) error {
	if x == nil {
		return nil
	}
	if x.Path() != "" {
		q.dir = filepath.Join(x.Path(), taskDirName)
		if err := q.load(); err != nil {
			return fmt.Errorf("document tasks in %s: %w", q.dir, err)
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ctx.Err() != nil {
		return errors.New("server: closed")
	}
	q.stopped = make(chan struct{})
	go q.run(x, q.stopped)
	return nil
}

// stop stops the tasks and waits for the running one to return.
func (q *taskQueue) stop() {
	q.cancel()
	q.mu.Lock()
	stopped := q.stopped
	q.mu.Unlock()
	if stopped != nil {
		<-stopped
	}
}

// load reads the task folder: finished tasks are kept for GET /v1/tasks/{id}, unfinished
// ones are queued again, in the order they came; what a crash left half-written (a body
// without its record, a temporary file) is removed.
func (q *taskQueue) load() error {
	if err := os.MkdirAll(q.dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(q.dir)
	if err != nil {
		return err
	}
	bodies := map[string]bool{}
	var infos []taskInfo
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."): // an atomicfile temporary, from a crash
			os.Remove(filepath.Join(q.dir, name))
		case strings.HasSuffix(name, ".body"):
			bodies[strings.TrimSuffix(name, ".body")] = true
		case strings.HasSuffix(name, ".json"):
			b, err := os.ReadFile(filepath.Join(q.dir, name))
			if err != nil {
				return err
			}
			var info taskInfo
			if err := json.Unmarshal(b, &info); err != nil || info.ID+".json" != name {
				q.s.log.Warn("unreadable task record, left alone", "file", filepath.Join(q.dir, name), "error", err)
				continue
			}
			infos = append(infos, info)
		}
	}
	slices.SortFunc(infos, func(a, b taskInfo) int { return a.Created.Compare(b.Created) })
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, info := range infos {
		t := &task{info: info}
		q.byID[info.ID] = t
		switch {
		case info.State == taskSucceeded || (info.State == taskFailed && !bodies[info.ID]):
			if bodies[info.ID] { // finished, then killed before the body was removed
				os.Remove(q.bodyPath(info.ID))
			}
			q.done = append(q.done, t)
		case bodies[info.ID]: // unfinished, or failed (the index failed): run again
			t.info.Error, t.info.Finished = "", nil
			t.info.State, t.info.Started, t.info.Resumed = taskQueued, nil, info.Resumed+1
			t.info.Processed, t.info.ingestCounts, t.info.Errors, t.info.ErrorsOmitted = 0, ingestCounts{}, nil, 0
			q.waiting = append(q.waiting, t)
			q.s.log.Info("resuming a batch of documents", "task", info.ID, "records", info.Records, "created", info.Created)
		default: // cannot happen: the body is written before the record
			now := time.Now()
			t.info.State, t.info.Error, t.info.Finished = taskFailed, "the batch's body was lost", &now
			q.done = append(q.done, t)
		}
		delete(bodies, info.ID)
	}
	for id := range bodies { // written, but the server stopped before its record: never answered 202
		os.Remove(q.bodyPath(id))
	}
	slices.SortFunc(q.done, func(a, b *task) int { return a.info.Finished.Compare(*b.info.Finished) })
	q.prune()
	return nil
}

func (q *taskQueue) bodyPath(id string) string { return filepath.Join(q.dir, id+".body") }
func (q *taskQueue) infoPath(id string) string { return filepath.Join(q.dir, id+".json") }

// prune forgets the oldest finished tasks beyond keptTasks; q.mu is held.
func (q *taskQueue) prune() {
	for len(q.done) > keptTasks {
		id := q.done[0].info.ID
		delete(q.byID, id)
		if q.dir != "" {
			os.Remove(q.infoPath(id))
			os.Remove(q.bodyPath(id)) // a failed task's
		}
		q.done = q.done[1:]
	}
}

// newTaskID returns a new task id: the time in milliseconds, base 36, and 8 random hex
// digits.
func newTaskID() string {
	var b [4]byte
	rand.Read(b[:])
	return strconv.FormatInt(time.Now().UnixMilli(), 36) + "-" + hex.EncodeToString(b[:])
}

// add queues a batch of documents (body, read as format; records counted) and returns its
// task, once it is on disk for an index on disk. release is called when the task ends.
// With maxQueuedTasks waiting, the error is errQueueFull.
func (q *taskQueue) add(body []byte, format string, records int, release func()) (*task, error) {
	q.mu.Lock()
	if len(q.waiting)+q.reserved >= maxQueuedTasks {
		q.mu.Unlock()
		return nil, errQueueFull
	}
	if q.stopped == nil || q.ctx.Err() != nil {
		q.mu.Unlock()
		return nil, errors.New("the server is not running its ingests")
	}
	q.reserved++
	q.mu.Unlock()
	t := &task{release: release, info: taskInfo{taskProgress: taskProgress{ID: newTaskID(), State: taskQueued, Source: sourceAPI, Records: records},
		Format: format, Created: time.Now()}}
	var err error
	if q.dir == "" {
		t.body = body
	} else {
		err = q.spool(t, body)
	}
	q.mu.Lock()
	q.reserved--
	if err == nil {
		q.byID[t.info.ID] = t
		q.waiting = append(q.waiting, t)
	}
	q.mu.Unlock()
	if err != nil {
		return nil, err
	}
	q.signal()
	return t, nil
}

// spool writes a batch's body and then its record to the task folder, each synced, and
// syncs the folder.
func (q *taskQueue) spool(t *task, body []byte) error {
	id := t.info.ID
	err := atomicfile.WriteFile(q.bodyPath(id), body)
	if err == nil {
		err = q.save(t.snapshot())
	}
	if err != nil {
		os.Remove(q.bodyPath(id))
		os.Remove(q.infoPath(id))
		return fmt.Errorf("writing the batch to %s: %w", q.dir, err)
	}
	return nil
}

// save writes a task's record to the task folder and syncs the folder.
func (q *taskQueue) save(info taskInfo) error {
	b, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(q.infoPath(info.ID), b); err != nil {
		return err
	}
	return syncDir(q.dir)
}

// syncDir syncs a directory, so that the files renamed into it stay after a crash of the
// machine.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// addPath queues the ingest of the documents of path (--docs).
func (q *taskQueue) addPath(path string) (*task, error) {
	t := &task{path: path, info: taskInfo{taskProgress: taskProgress{ID: newTaskID(), State: taskQueued, Source: sourceDocs}, Created: time.Now()}}
	q.mu.Lock()
	if q.stopped == nil || q.ctx.Err() != nil {
		q.mu.Unlock()
		return nil, errors.New("server: not ready with a collection, or closed")
	}
	q.byID[t.info.ID] = t
	q.waiting = append(q.waiting, t)
	q.mu.Unlock()
	q.signal()
	return t, nil
}

func (q *taskQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// get returns the task with id.
func (q *taskQueue) get(id string) (*task, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	t, ok := q.byID[id]
	return t, ok
}

// active returns the progress of the running task and of the waiting ones, in order.
func (q *taskQueue) active() []taskProgress {
	q.mu.Lock()
	ts := slices.Clone(q.waiting)
	if q.running != nil {
		ts = append([]*task{q.running}, ts...)
	}
	q.mu.Unlock()
	out := make([]taskProgress, len(ts))
	for i, t := range ts {
		out[i] = t.snapshot().taskProgress
	}
	return out
}

// counts returns the numbers of waiting and running tasks.
func (q *taskQueue) counts() (waiting, running int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.running != nil {
		running = 1
	}
	return len(q.waiting), running
}

// run runs the tasks in the order they came until the queue is stopped.
func (q *taskQueue) run(x *docindex.Index, stopped chan struct{}) {
	defer close(stopped)
	for {
		t := q.next()
		if t == nil {
			return
		}
		q.execute(x, t)
	}
}

// next waits for the next task and makes it the running one; nil when the queue stops.
func (q *taskQueue) next() *task {
	for {
		q.mu.Lock()
		if q.ctx.Err() != nil {
			q.mu.Unlock()
			return nil
		}
		if len(q.waiting) > 0 {
			t := q.waiting[0]
			q.waiting = slices.Delete(q.waiting, 0, 1)
			q.running = t
			q.mu.Unlock()
			return t
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-q.ctx.Done():
		}
	}
}

// progressEvery is the interval of the progress lines a running task logs.
const progressEvery = 10 * time.Second

// execute runs one task, records how it ended and logs a summary.
func (q *taskQueue) execute(x *docindex.Index, t *task) {
	start := time.Now()
	t.mu.Lock()
	t.info.State, t.info.Started = taskRunning, &start
	id, source, path := t.info.ID, t.info.Source, t.path
	t.mu.Unlock()
	log := q.s.log.With("task", id, "source", source)
	opts := docindex.IngestOptions{Engine: q.s.cfg.Engine, Gate: q.s.annotationTurn, Report: func(r docindex.Report) {
		t.note(r)
		q.s.metrics.wrote(r.Outcome.String(), 1)
		if r.Note != "" {
			log.Warn("document read with a warning", "at", r.Where, "warning", r.Note)
		}
	}}
	if path != "" {
		opts.Reject = func(e *docfile.RecordError) { log.Warn("document rejected", "at", e.Where, "error", e.Err.Error()) }
		opts.Source = true // --docs: what the document API changed stays so until the file changes
	}
	stopProgress := make(chan struct{})
	go func() {
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				p := t.snapshot()
				log.Info("ingesting", "processed", p.Processed, "records", p.Records, "summary", p.ingestCounts.String())
			case <-stopProgress:
				return
			}
		}
	}()
	var sum docindex.Summary
	var err error
	if path != "" {
		if n, cerr := countRecords(path); cerr == nil {
			t.mu.Lock()
			t.info.Records = n
			t.mu.Unlock()
		}
		log.Info("ingesting", "from", path, "records", t.snapshot().Records)
		if berr := x.BeginDocs(path); berr != nil {
			log.Warn("could not record the ingest's start in the index", "error", berr.Error())
		}
		if n, first := docfile.OtherFiles(path, 3); n > 0 {
			log.Warn("files skipped: a folder's documents are its .txt, .md, .markdown, .mdx, .html and .htm files", "skipped", n, "first", strings.Join(first, ", "))
		}
		opts.BaseURL = q.s.cfg.DocsBaseURL
		sum, err = x.Ingest(q.ctx, path, opts)
	} else {
		body := t.body
		if body == nil {
			body, err = os.ReadFile(q.bodyPath(id))
		}
		if err == nil {
			format := t.snapshot().Format
			sum, err = x.IngestScan(q.ctx, func(fn func(docfile.Record) error) error { return scanBody(body, format, fn) }, opts)
		}
	}
	close(stopProgress)
	if q.ctx.Err() != nil { // the server is stopping
		if path != "" {
			log.Info("ingest interrupted: the next start with --docs ingests the rest", "summary", sum.String())
		} else {
			log.Info("ingest interrupted: the next start over the index resumes it", "summary", sum.String())
		}
		q.end(t, nil)
		return
	}
	// The task's end is recorded on disk, then its ingest slot released, then shown: a
	// client that sees it finished may send the next batch at once.
	now := time.Now()
	info := t.snapshot()
	info.State, info.Finished = taskSucceeded, &now
	if err != nil {
		info.State, info.Error = taskFailed, err.Error()
	}
	if q.dir != "" && path == "" {
		if serr := q.save(info); serr != nil {
			log.Error("writing the task's record", "error", serr)
		} else if err == nil {
			os.Remove(q.bodyPath(id))
		} // a failed task keeps its batch: the next start runs it again
	}
	if err == nil && path != "" {
		if eerr := x.EndDocs(); eerr != nil {
			log.Warn("could not record the ingest's end in the index", "error", eerr.Error())
		}
	}
	if sum.Ignored != "" {
		log.Warn("records have fields a document does not have; they were passed over (a record's fields are id, title, text and url)",
			"fields", sum.Ignored, "first", sum.IgnoredAt)
	}
	if sum.Removed > 0 {
		log.Warn("documents removed: their files are no longer in --docs", "removed", sum.Removed, "first", sum.RemovedFirst)
	}
	if err != nil {
		log.Error("ingest failed", "error", err.Error(), "summary", sum.String())
	} else {
		log.Info("documents ingested", "summary", sum.String(), "added", sum.Added, "updated", sum.Updated, "unchanged", sum.Unchanged,
			"rejected", sum.Rejected, "kept", sum.Kept, "documents", x.Len(), "took", time.Since(start).Round(time.Millisecond))
	}
	q.end(t, &info)
}

// end ends the running task t, gives back its ingest slot and, when it finished (info not
// nil), records how.
func (q *taskQueue) end(t *task, info *taskInfo) {
	if t.release != nil {
		t.release()
	}
	if info != nil {
		t.mu.Lock()
		t.info.State, t.info.Finished, t.info.Error = info.State, info.Finished, info.Error
		t.mu.Unlock()
	}
	q.mu.Lock()
	q.running = nil
	if info != nil {
		q.done = append(q.done, t)
		q.prune()
	}
	q.mu.Unlock()
}

// countRecords counts the records of an input of --docs: the non-blank lines of a
// JSON-lines file, the document files of a folder, 1 for a document file.
func countRecords(path string) (int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if fi.IsDir() {
		return docfile.CountDocFiles(path), nil
	}
	n := 0
	err = docfile.Scan(path, func(docfile.Record) error { n++; return nil })
	return n, err
}

// IngestPath ingests the documents of path (a JSON-lines file or a folder, read as
// docindex.Index.Ingest reads them) into the server's collection in the background, and
// returns the id of its task: GET /v1/tasks/{id} and GET /readyz show its progress, and
// searches see each batch of documents as soon as it is committed. Each rejected record
// is logged with its file:line, and a summary when the task ends. The server must be
// Ready with a collection. The task is not kept on disk: if the server stops before its
// end, the next start ingests path again, and the documents already committed are
// skipped as unchanged.
func (s *Server) IngestPath(path string) (string, error) {
	t, err := s.tasks.addPath(path)
	if err != nil {
		return "", err
	}
	return t.info.ID, nil
}

// annotationTurn waits for a turn of the large lane for one annotation of an ingest, so
// that searches (small requests) go first and keep a slot of their own (admit.go).
func (s *Server) annotationTurn(ctx context.Context) (func(), error) {
	if err := s.acquire(ctx, large); err != nil {
		return nil, err
	}
	return func() { s.release(large) }, nil
}
