package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The audit writer commits audit records in groups, in one goroutine per Store: whatever
// queued while one transaction committed goes into the next, and a group of read records
// waits up to auditLinger (10 ms) for more, so read turns at a turn's pace pay one commit for
// many instead of one each; the rows go in with a few multi-row INSERTs.
//
// Two kinds of record pass through it:
//   - a record someone waits for (AppendAudit: an announcement or a console action is
//     audited before it happens) — the caller learns whether its commit succeeded, and a
//     failed one is dropped, since the caller did not act;
//   - a read turn's record (QueueAudit) — written behind the reply: the turn does not wait for
//     the disk. A failed commit keeps these records and retries them, with backoff, until the
//     store takes them, so a full disk that is freed loses none of them. The cost is a window
//     of the linger and one group commit (about 10 ms on a healthy disk) in which a kill -9
//     loses a read's record; an actuation's records never go this way (RecordActuation
//     commits the pending record, synced, before the handler runs, and SettleActuation its
//     outcome after).
//
// Readers of the audit log in this process (TailAudit, LastTurn, PurgeAudit) flush the queue
// first, so they see every record queued before they asked.
type auditWriter struct {
	mu      sync.Mutex
	started bool // the goroutine runs (it starts with the first record)
	closed  bool // Close was called: no writer starts any more
	queue   chan auditJob
	stop    chan struct{} // closed by Close
	exited  chan struct{} // closed when the writer has committed what it could and stopped

	// onFailure, when set, is told each time records fail to commit (n is how many, the
	// first time each fails) or are given up at Close (lost).
	onFailure atomic.Pointer[func(n int, lost bool, err error)]
}

// OnAuditFailure sets who is told when audit records fail to commit: n records failed (the
// first time each fails), or were given up at Close (lost).
func (s *Store) OnAuditFailure(f func(n int, lost bool, err error)) { s.audits.onFailure.Store(&f) }

// auditJob is one record, or a flush barrier when barrier is set.
type auditJob struct {
	rec     AuditRecord
	done    chan error      // nil: written behind (QueueAudit); else told the outcome
	ctx     context.Context // a waiter's: once it has given up, its record is not written
	barrier bool
	failed  bool // it failed once already (counted then)
}

// AuditQueueLen is how many records may wait while a commit runs or the disk is failing;
// AuditMaxBatch is how many one group commit takes at most.
const (
	AuditQueueLen   = 4096
	AuditMaxBatch   = 256
	auditRetryFirst = 50 * time.Millisecond
	auditRetryMax   = 5 * time.Second
	auditCommitTime = 10 * time.Second // one group commit's own deadline
	auditLinger     = 10 * time.Millisecond
	auditQueueWait  = 100 * time.Millisecond // how long a read's reply waits for room in a full queue
	// actuationFlushWait bounds how long an actuation's record waits for the reads queued
	// before it (so the log stays in order) when the store is slow or failing.
	actuationFlushWait = 200 * time.Millisecond
)

var errStateClosed = errors.New("the state store is closed")

// running starts the writer unless it runs already; false once the Store is closed.
func (w *auditWriter) running(s *Store) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	if !w.started {
		w.started = true
		w.queue = make(chan auditJob, AuditQueueLen)
		w.stop = make(chan struct{})
		w.exited = make(chan struct{})
		go w.run(s)
	}
	return true
}

// isStarted says whether a writer was ever started (and so may hold records).
func (w *auditWriter) isStarted() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.started
}

// enqueue hands j to the writer, waiting (under ctx) while the queue is full.
func (s *Store) enqueueAudit(ctx context.Context, j auditJob) error {
	w := &s.audits
	if !w.running(s) {
		return fmt.Errorf("audit: %w", errStateClosed)
	}
	select { // a queue with room takes the record, even from a caller whose time is up
	case w.queue <- j:
		return nil
	default:
	}
	select {
	case w.queue <- j:
		return nil
	case <-w.stop:
		return fmt.Errorf("audit: %w", errStateClosed)
	case <-ctx.Done():
		return fmt.Errorf("audit: the audit queue is full and the state store did not drain it in time: %w", ctx.Err())
	}
}

// AppendAudit writes one record and returns once it is committed (or failed).
func (s *Store) AppendAudit(ctx context.Context, r AuditRecord) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	done := make(chan error, 1)
	if err := s.enqueueAudit(ctx, auditJob{rec: r, done: done, ctx: ctx}); err != nil {
		return err
	}
	select {
	case err := <-done:
		return err
	case <-s.audits.exited:
		select {
		case err := <-done:
			return err
		default:
			return fmt.Errorf("audit: %w", errStateClosed)
		}
	case <-ctx.Done():
		return fmt.Errorf("audit: the state store did not answer in time: %w", ctx.Err())
	}
}

// QueueAudit queues a read turn's record to be written behind its reply; it waits only
// while the queue is full, and then at most auditQueueWait. See auditWriter for what that
// trades.
func (s *Store) QueueAudit(ctx context.Context, r AuditRecord) error {
	ctx, cancel := context.WithTimeout(ctx, auditQueueWait)
	defer cancel()
	return s.enqueueAudit(ctx, auditJob{rec: r})
}

// flushAudit returns once every record queued before it was called is committed, or has
// failed; it never starts the writer.
func (s *Store) flushAudit(ctx context.Context) error {
	w := &s.audits
	if !w.isStarted() {
		return nil // a writer that never started has nothing queued
	}
	done := make(chan error, 1)
	if err := s.enqueueAudit(ctx, auditJob{barrier: true, done: done}); err != nil {
		if errors.Is(err, errStateClosed) {
			return nil // Close flushed what it could
		}
		return err
	}
	select {
	case err := <-done:
		return err
	case <-w.exited:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("audit flush: %w", ctx.Err())
	}
}

// closeAudit stops the writer after it has committed what is queued (one last try each).
func (s *Store) closeAudit(ctx context.Context) {
	w := &s.audits
	w.mu.Lock()
	started, already := w.started, w.closed
	w.closed = true
	w.mu.Unlock()
	if !started {
		return
	}
	if !already {
		close(w.stop)
	}
	select {
	case <-w.exited:
	case <-ctx.Done():
	}
}

func (w *auditWriter) run(s *Store) {
	defer close(w.exited)
	var batch []auditJob
	backoff := time.Duration(0)
	for {
		if len(batch) == 0 {
			select {
			case j := <-w.queue:
				batch = append(batch, j)
			case <-w.stop:
				w.drain(s, nil)
				return
			}
		} else if backoff > 0 {
			t := time.NewTimer(backoff)
			select {
			case <-t.C:
			case <-w.stop:
				t.Stop()
				w.drain(s, batch)
				return
			}
		}
		batch = w.gather(batch)
		batch = w.commit(s, batch)
		if len(batch) == 0 {
			backoff = 0
			continue
		}
		backoff = min(auditRetryMax, max(auditRetryFirst, 2*backoff))
	}
}

// gather adds to batch what else is queued, waiting up to auditLinger for more when the
// batch holds only written-behind records: a busy broker then commits once per many turns,
// and nobody waits on those records. A record someone waits for is committed at once.
func (w *auditWriter) gather(batch []auditJob) []auditJob {
	waiter := false
	for _, j := range batch {
		waiter = waiter || j.done != nil
	}
	var linger <-chan time.Time
	for len(batch) < AuditMaxBatch && !waiter {
		var j auditJob
		select {
		case j = <-w.queue:
		default:
			if linger == nil {
				t := time.NewTimer(auditLinger)
				defer t.Stop()
				linger = t.C
			}
			select {
			case j = <-w.queue:
			case <-linger:
				return batch
			case <-w.stop:
				return batch
			}
		}
		batch = append(batch, j)
		waiter = j.done != nil
	}
	return batch
}

// commit writes batch in one transaction and tells its waiters. It returns what is left to
// retry: the written-behind records of a failed commit.
func (w *auditWriter) commit(s *Store, batch []auditJob) []auditJob {
	ctx, cancel := context.WithTimeout(context.Background(), auditCommitTime)
	defer cancel()
	err := s.commitAuditBatch(ctx, batch)
	s.noteWrite(err)
	if err == nil {
		for _, j := range batch {
			if j.done != nil {
				j.done <- nil
			}
		}
		return batch[:0]
	}
	keep, newlyFailed := batch[:0], 0
	for _, j := range batch {
		switch {
		case j.done != nil:
			j.done <- err // the waiter did not act; its record is dropped with its action
			if !j.barrier {
				newlyFailed++
			}
		default:
			if !j.failed {
				newlyFailed++
				j.failed = true
			}
			keep = append(keep, j)
		}
	}
	if f := w.onFailure.Load(); f != nil && newlyFailed > 0 {
		(*f)(newlyFailed, false, err)
	}
	return keep
}

// drain commits batch and everything still queued, once, when the Store closes.
func (w *auditWriter) drain(s *Store, batch []auditJob) {
	for {
	more:
		for len(batch) < AuditMaxBatch {
			select {
			case j := <-w.queue:
				batch = append(batch, j)
			default:
				break more
			}
		}
		if len(batch) == 0 {
			return
		}
		left := w.commit(s, batch)
		if len(left) > 0 {
			if f := w.onFailure.Load(); f != nil {
				(*f)(len(left), true, errors.New("the state store closed with audit records it could not write"))
			}
		}
		batch = batch[:0]
	}
}

// commitAuditBatch inserts the batch's records in one transaction.
func (s *Store) commitAuditBatch(ctx context.Context, batch []auditJob) error {
	if f := s.fault.Load(); f != nil {
		if err := (*f)(ctx, "audit"); err != nil {
			return fmt.Errorf("audit: %w", err)
		}
	}
	n := 0
	for _, j := range batch {
		if !j.barrier {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	rows := make([]any, 0, n*auditColumns)
	for _, j := range batch {
		if j.barrier || (j.ctx != nil && j.ctx.Err() != nil) {
			continue // a waiter that gave up did not act: its record would be false
		}
		rows = append(rows, auditValues(j.rec)...)
	}
	// Many rows per INSERT: one statement step per chunk instead of one per record. Each
	// chunk is a power of two (a handful of statements cover every size), prepared before the
	// transaction takes the Store's one connection.
	var chunks []*sql.Stmt
	for left := len(rows) / auditColumns; left > 0; {
		k := auditRowsPerInsert
		for k > left {
			k /= 2
		}
		stmt, err := s.prepared(ctx, insertAuditRowsSQL(k))
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		chunks = append(chunks, stmt)
		left -= k
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer tx.Rollback()
	for _, stmt := range chunks {
		k := auditRowsPerInsert
		for k > len(rows)/auditColumns {
			k /= 2
		}
		if _, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, rows[:k*auditColumns]...); err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		rows = rows[k*auditColumns:]
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// auditColumns is how many values one audit record has (insertAuditSQL's placeholders);
// auditRowsPerInsert is how many records one INSERT of a group commit carries at most.
const (
	auditColumns       = 11
	auditRowsPerInsert = 32
)

// insertAuditRowsSQL inserts k records in one statement.
func insertAuditRowsSQL(k int) string {
	if k == 1 {
		return insertAuditSQL
	}
	row := "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	return `INSERT INTO audit (time, turn_id, device, node, route, intent, args, outcome, code, latency_ms, redactions) VALUES ` +
		strings.Repeat(row+", ", k-1) + row
}

// auditValues are r's columns in insertAuditSQL's order.
func auditValues(r AuditRecord) []any {
	args, _ := json.Marshal(AllowlistArgs(r.Args))
	return []any{r.Time.UnixMilli(), r.TurnID, r.Device, r.Node, r.Route, r.Intent, string(args), r.Outcome, r.Code, r.LatencyMS, strings.Join(r.Redactions, ",")}
}
