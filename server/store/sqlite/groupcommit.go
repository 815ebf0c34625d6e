package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Group commit.
//
// A durable commit costs an fsync of the write-ahead log, and the disk, not SQLite, bounds how many
// of those a second there are. So every write (Put, Update, Delete) is handed to one committer
// goroutine, which runs whatever writes are waiting together in one transaction and commits them
// with one fsync. Durability is unchanged: synchronous stays FULL, and a write returns only once the
// transaction holding it has committed. Under light load a batch holds one write and nothing waits
// for company; under heavy load the writes that arrive while one batch commits form the next one.
//
// Each write runs inside its own SAVEPOINT, so a write that fails (a constraint, a change function's
// error or panic) is rolled back alone and the rest of its batch commits. If the transaction as a
// whole fails (BEGIN, a broken savepoint, COMMIT), the writes that had not failed by themselves are
// retried one per transaction, so one bad write can never fail or lose the others.
//
// Statements run under a context of the committer's own, not the caller's: cancelling a statement
// interrupts the connection (sqlite3_interrupt), which rolls back the whole transaction and would take
// the other writes of the batch with it.
//
// Settled outcomes: a write is either committed and answered nil, or answered with an error and never
// committed (store.ErrUnavailable's promise). A queued write belongs to whoever claims it first: the
// committer, when it takes the write into a batch, or the caller, when its context ends while the
// write still waits. A caller that gives up in time withdraws its write and gets the context's error
// (not applied); once the committer has claimed the write, its batch is in flight and the caller waits
// for the batch's outcome however late, because answering an error for a write that then commits is
// the one thing it must not do. The wait is bounded by one batch's work (at most maxBatch writes and
// one commit).

// maxBatch bounds the writes of one transaction, so one commit's latency stays bounded under a burst.
const maxBatch = 256

// Owners of a queued write (writeRequest.owner): nobody yet, the committer, or its caller.
const (
	queued int32 = iota
	claimed
	withdrawn
)

// writeRequest is one write waiting for the committer.
type writeRequest struct {
	ctx context.Context
	fn  func(tx *sql.Tx) error
	// owner says who decides the write's fate: queued until the committer claims it for a batch or its
	// caller withdraws it, whichever comes first (see Settled outcomes above).
	owner atomic.Int32
	// done receives the write's outcome exactly once; buffered so the committer never blocks on a
	// caller that gave up.
	done chan writeOutcome
	// settled is set once the outcome is final within a batch (the write failed by itself); the
	// others are settled by the commit.
	settled bool
	err     error
}

type writeOutcome struct {
	err   error
	panic any // a panic of fn, re-raised in the caller's goroutine
}

// panicError carries a panic of a write's fn out of its savepoint.
type panicError struct{ value any }

func (p panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// committer runs the writes queued on s.writes until the channel is closed and drained.
type committer struct {
	mu      sync.RWMutex // held for reading while sending, for writing while closing
	closed  bool
	writes  chan *writeRequest
	stopped chan struct{}
	// afterCommit, when set (by tests), is called after each successful commit with the number of
	// writes the transaction held.
	afterCommit func(writes int)
}

func (s *Store) startCommitter() {
	s.gc = &committer{writes: make(chan *writeRequest, maxBatch), stopped: make(chan struct{})}
	go s.runCommitter()
}

// write runs fn in a write transaction shared with other concurrent writes and returns once that
// transaction has committed (nil) or fn's own error, exactly as fn returned it.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	req := &writeRequest{ctx: ctx, fn: fn, done: make(chan writeOutcome, 1)}
	gc := s.gc
	gc.mu.RLock()
	if gc.closed {
		gc.mu.RUnlock()
		return errors.New("sqlite: store is closed")
	}
	select {
	case gc.writes <- req:
		gc.mu.RUnlock()
	case <-ctx.Done():
		gc.mu.RUnlock()
		return fmt.Errorf("sqlite: write not started: %w", ctx.Err())
	}
	var out writeOutcome
	select {
	case out = <-req.done:
	case <-ctx.Done():
		if req.owner.CompareAndSwap(queued, withdrawn) {
			return fmt.Errorf("sqlite: write withdrawn before it started, not applied: %w", ctx.Err())
		}
		// The committer claimed the write first: its batch is in flight, and only the batch's outcome
		// tells whether it committed.
		out = <-req.done
	}
	if out.panic != nil {
		panic(out.panic)
	}
	return classify(out.err) // health.go: disk full, read-only, I/O error are ErrNotWritable
}

// stopCommitter refuses new writes, lets the committer finish every queued one, and waits for it.
func (s *Store) stopCommitter() {
	gc := s.gc
	if gc == nil {
		return
	}
	gc.mu.Lock()
	if !gc.closed {
		gc.closed = true
		close(gc.writes)
	}
	gc.mu.Unlock()
	<-gc.stopped
}

func (s *Store) runCommitter() {
	gc := s.gc
	defer close(gc.stopped)
	batch := make([]*writeRequest, 0, maxBatch)
	for first := range gc.writes {
		batch = append(batch[:0], first)
	collect:
		for len(batch) < maxBatch {
			select {
			case req, ok := <-gc.writes:
				if !ok {
					break collect
				}
				batch = append(batch, req)
			default:
				break collect
			}
		}
		s.runBatch(batch)
		clear(batch) // drop references to finished requests
		// The write-ahead log's size policy (walsize.go), while the write connection is idle.
		s.afterBatch()
	}
}

// runBatch commits batch and delivers every write's outcome.
func (s *Store) runBatch(batch []*writeRequest) {
	live := batch[:0:0]
	for _, req := range batch {
		if err := req.ctx.Err(); err != nil {
			// Its caller gave up; withdraw the write for it (the caller may be doing the same: one of
			// them wins and the other leaves it alone).
			if req.owner.CompareAndSwap(queued, withdrawn) {
				req.done <- writeOutcome{err: fmt.Errorf("sqlite: write withdrawn before it started, not applied: %w", err)}
			}
			continue
		}
		if !req.owner.CompareAndSwap(queued, claimed) {
			continue // withdrawn by its caller, who has its answer already
		}
		live = append(live, req)
	}
	if len(live) == 0 {
		return
	}
	if err := s.commitTogether(live); err != nil {
		if len(live) == 1 {
			live[0].settled, live[0].err = true, err
		} else {
			// The transaction failed as a whole; retry each write that had not failed by itself on its
			// own, so the failure stays with the write that caused it.
			for _, req := range live {
				if !req.settled {
					if err := s.commitTogether([]*writeRequest{req}); err != nil {
						req.settled, req.err = true, err
					}
				}
			}
		}
	}
	for _, req := range live {
		out := writeOutcome{err: req.err}
		var p panicError
		if errors.As(req.err, &p) {
			out = writeOutcome{panic: p.value}
		}
		req.done <- out
	}
}

// commitTogether runs reqs in one transaction, each in a savepoint. A write whose fn fails is rolled
// back to its savepoint and settled with fn's error. It returns a non-nil error only when the
// transaction itself failed, in which case nothing of it was committed and the unsettled writes are
// not applied.
func (s *Store) commitTogether(reqs []*writeRequest) error {
	ctx := context.Background() // see the package comment above on why not the callers' contexts
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	pending := 0
	for _, req := range reqs {
		if !req.settled {
			pending++
		}
	}
	if pending == 1 {
		// A write alone needs no savepoint: if it fails, the whole transaction is rolled back.
		for _, req := range reqs {
			if req.settled {
				continue
			}
			if err := runWrite(tx, req.fn); err != nil {
				_ = tx.Rollback()
				req.settled, req.err = true, err
				return nil
			}
		}
		return s.commit(tx, reqs)
	}
	for _, req := range reqs {
		if req.settled {
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT write"); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("sqlite: savepoint: %w", err)
		}
		if err := runWrite(tx, req.fn); err != nil {
			req.settled, req.err = true, err
			if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO write"); rerr != nil {
				_ = tx.Rollback()
				return fmt.Errorf("sqlite: rollback to savepoint: %w", rerr)
			}
		}
		if _, err := tx.ExecContext(ctx, "RELEASE write"); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("sqlite: release savepoint: %w", err)
		}
	}
	return s.commit(tx, reqs)
}

// commit commits tx and settles the writes of reqs that did not fail by themselves.
func (s *Store) commit(tx *sql.Tx, reqs []*writeRequest) error {
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	// Counted before any write of the batch returns: a Get that begins after one was acknowledged
	// must not read in a snapshot from before it (reader.go).
	s.commits.Add(1)
	n := 0
	for _, req := range reqs {
		if !req.settled {
			req.settled = true
			n++
		}
	}
	if s.gc.afterCommit != nil {
		s.gc.afterCommit(n)
	}
	return nil
}

// runWrite calls fn, turning a panic into a panicError so one bad write cannot stop the committer.
func runWrite(tx *sql.Tx, fn func(tx *sql.Tx) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicError{v}
		}
	}()
	return fn(tx)
}
