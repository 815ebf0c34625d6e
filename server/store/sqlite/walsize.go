package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"os"
	"time"
)

// The write-ahead log's size.
//
// In WAL mode every commit appends the pages it changed to the -wal file, and a checkpoint copies them
// into the database file. SQLite's automatic checkpoint (wal_autocheckpoint, left at its default of
// 1000 pages) runs after a commit once the log holds that many pages, in PASSIVE mode: it copies only
// the pages no reader's snapshot still needs, and never waits. The log starts again from its beginning
// only when a checkpoint has copied all of it and no reader still reads from it as the next write
// transaction begins. Under sustained load some read connection almost always holds a snapshot from
// before the latest commit (reader.go keeps one for up to readTxMaxAge), so the PASSIVE checkpoints
// rarely catch up and the log keeps growing; and SQLite never shrinks the file by itself, so it kept
// its largest size while the load lasted (100 MB beside a 318 MB database after three minutes of
// mixed load, issue 31).
//
// Two things bound it:
//
//   - journal_size_limit (walPolicy.sizeLimit, 16 MiB): whenever the log starts again, SQLite
//     truncates the file to this size at the first commit after. The limit is not 0 so that a log
//     that restarts often overwrites the file's first pages in place instead of growing it again,
//     which with synchronous=FULL costs a file-size change in every fsync.
//   - a checkpoint that waits: every walPolicy.checkEvery commits the committer (groupcommit.go) looks
//     at the -wal file's size, and when it is over walPolicy.checkpointAt (32 MiB) runs
//     wal_checkpoint(RESTART) on the write connection between two batches. RESTART copies the whole
//     log, waiting for the read transactions that still need part of it, then waits until no reader
//     uses the log, so the next commit starts it again (and truncates the file to the limit). Readers
//     of this process end their transactions within readTxMaxAge; the wait is bounded by
//     walPolicy.busyWait (the write connection's busy timeout while the checkpoint runs) so that a
//     long read transaction of another process (contactsync backup, export) holds back the writes of
//     this one for at most that long. A checkpoint that could not finish is tried again no sooner
//     than walPolicy.retryAfter, so such a reader costs writes at most busyWait in every retryAfter.
//
// The cost per request is nothing on the read path and, on the write path, one comparison per commit
// (a commit holds a batch of writes); the file's size is looked at once per checkEvery commits, one
// stat system call beside as many fsyncs.

// walPolicy is how the store keeps its write-ahead log small (see above). Open uses defaultWALPolicy;
// tests open stores with smaller sizes.
type walPolicy struct {
	// sizeLimit is the write connection's journal_size_limit in bytes.
	sizeLimit int64
	// checkpointAt is the -wal file size in bytes over which the committer runs a RESTART checkpoint.
	checkpointAt int64
	// checkEvery is how many commits pass between two looks at the -wal file's size.
	checkEvery uint64
	// busyWait is how long a RESTART checkpoint waits for readers.
	busyWait time.Duration
	// retryAfter is how long after a checkpoint that readers kept from finishing the next may run.
	retryAfter time.Duration
	// afterCheckpoint, when set (by tests), is called after each RESTART checkpoint the committer ran,
	// with whether readers kept it from finishing and its error.
	afterCheckpoint func(busy bool, err error)
}

var defaultWALPolicy = walPolicy{
	sizeLimit:    16 << 20,
	checkpointAt: 32 << 20,
	checkEvery:   8,
	busyWait:     200 * time.Millisecond,
	retryAfter:   2 * time.Second,
}

// walCheck is the committer's state of the policy. Only the committer goroutine uses it.
type walCheck struct {
	policy   walPolicy
	looked   uint64    // the store's commit count at the last look at the file's size
	notUntil time.Time // no checkpoint before this time (after one that could not finish)
}

// restoreBusyTimeout gives the write connection back the busy timeout of its DSN (busyTimeout).
const restoreBusyTimeout = "PRAGMA busy_timeout = 10000"

// sizeLimitPragma is the DSN parameter setting the write connection's journal_size_limit.
func (p walPolicy) sizeLimitPragma() string {
	return fmt.Sprintf("_pragma=journal_size_limit(%d)", p.sizeLimit)
}

// afterBatch is called by the committer after each batch, with the write connection idle and outside
// any transaction, and runs a RESTART checkpoint when the policy calls for one.
func (s *Store) afterBatch() {
	c := &s.wal
	commits := s.commits.Load()
	if commits-c.looked < c.policy.checkEvery {
		return
	}
	c.looked = commits
	info, err := os.Stat(s.path + "-wal")
	if err != nil || info.Size() <= c.policy.checkpointAt {
		return
	}
	now := time.Now()
	if now.Before(c.notUntil) {
		return
	}
	busy, err := s.checkpointRestart()
	if busy || err != nil {
		c.notUntil = now.Add(c.policy.retryAfter)
	}
	if c.policy.afterCheckpoint != nil {
		c.policy.afterCheckpoint(busy, err)
	}
}

// checkpointRestart runs wal_checkpoint(RESTART) on the write connection with the policy's busy wait,
// and reports whether readers kept it from finishing. The connection's usual busy timeout is restored
// after; should that fail, the connection is discarded and the pool opens a new one with the DSN's
// pragmas.
func (s *Store) checkpointRestart() (busy bool, err error) {
	ctx := context.Background() // the committer's own work, as in groupcommit.go
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", s.wal.policy.busyWait.Milliseconds())); err != nil {
		return false, err
	}
	var blocked, logFrames, checkpointed int64
	err = conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(RESTART)").Scan(&blocked, &logFrames, &checkpointed)
	if _, rerr := conn.ExecContext(ctx, restoreBusyTimeout); rerr != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		if err == nil {
			err = rerr
		}
	}
	if err != nil {
		return false, fmt.Errorf("sqlite: checkpoint: %w", err)
	}
	return blocked != 0, nil
}
