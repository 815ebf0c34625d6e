package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/contactsync/contactsync/server/store"
)

// The store's queries beyond a single record: the account query (ListByIndex), the snapshot scan
// behind export and copy, the batch write behind import, and Count.

const (
	// scanSQL reads every contact in primary-key order. The table is WITHOUT ROWID, so its b-tree is
	// the primary key and the rows come out in order without a sort; the id column has SQLite's
	// default BINARY collation, which compares the UTF-8 bytes, the order store.Store.Scan documents.
	scanSQL = `SELECT id, index_value, doc FROM contacts ORDER BY id`

	// listSQL reads a page of one index value's records from the index contacts_by_index (migration 0005),
	// whose entries are in (index_value, id) order, so the page needs no sort.
	listSQL = `SELECT id, doc FROM contacts WHERE index_value = ? AND id > ? ORDER BY id LIMIT ?`

	countSQL = `SELECT count(*) FROM contacts`

	// indexSQL creates the index behind ListByIndex as migration 0005 does, unless it exists.
	indexSQL = `CREATE INDEX IF NOT EXISTS contacts_by_index ON contacts (index_value, id)`

	// deferIndexSQL tells whether a bulk load may drop the account index: the table is empty and the
	// index exists.
	deferIndexSQL = `SELECT NOT EXISTS (SELECT 1 FROM contacts) AND EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'contacts_by_index')`

	// insertNewSQL inserts a contact unless its id is taken; the affected-row count tells which.
	insertNewSQL = `INSERT INTO contacts (id, index_value, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`
)

// writeBudget and maxWritePause keep a bulk write from stalling other writers of the same file.
// Import may run beside `serve`, in another process, and SQLite lets one connection write at a time:
// a writer of another process that finds the lock taken does not queue, it polls (the busy handler
// sleeps 1, 2, 5, 10, 15, 20, 25 ms … between tries, its gaps growing about as fast as its wait). So
// a batch is cut into transactions of at most writeBudget of statements (with the commit's fsync each
// stays well within 50 ms), and after each WriteBatch leaves the lock free for as long as the
// transaction held it (at least minWritePause, at most maxWritePause), in one call or across calls: a
// writer that started polling during the transaction tries again within that time and finds the lock
// free. Measured with a second store on the same file putting a contact every 2 ms during a bulk
// write: without the pause it won the lock about three times a second, waiting up to 1 s; with it,
// 100 to 250 times a second, waiting at most 20 to 40 ms (TestWriteBatchLeavesRoomForAnotherWriter).
var (
	writeBudget   = 20 * time.Millisecond
	minWritePause = 2 * time.Millisecond
	maxWritePause = 20 * time.Millisecond
)

// bulkLoadMin is the smallest batch that drops the account index when it finds the table empty.
//
// The account index (index_value, id) is written at random places: account ids do not follow the
// order records arrive in. A WriteBatch transaction is kept short (writeBudget), so each one dirties
// a few hundred index pages for a few hundred records, and every commit writes each dirty page whole
// to the write-ahead log: loading 300,000 contacts wrote 1.85 GB with the index and 0.19 GB without,
// and took five times as long. So a large batch that finds the table empty (an import or copy into a
// new store) drops the index, the load writes the table alone, and Close builds the index in one
// sorted pass (a second or two per million records). Until then ListByIndex reads the whole table:
// slower, not wrong. A load that never reached Close (killed) leaves the index to the next Open,
// which builds whatever index is missing.
var bulkLoadMin = 1024

// ListByIndex returns up to limit records of account index with a key greater than afterKey, in key
// order, read by one statement through the read pool (one snapshot).
func (s *Store) ListByIndex(ctx context.Context, index, afterKey string, limit int) ([]store.Record, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("sqlite: list by index: limit %d is not positive", limit)
	}
	rows, err := s.r.QueryContext(ctx, listSQL, index, afterKey, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list by index %q: %w", index, classify(err))
	}
	defer rows.Close()
	var rs []store.Record
	for rows.Next() {
		r := store.Record{Index: index}
		if err := rows.Scan(&r.Key, &r.Doc); err != nil {
			return nil, fmt.Errorf("sqlite: list by index %q: %w", index, classify(err))
		}
		rs = append(rs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list by index %q: %w", index, classify(err))
	}
	return rs, nil
}

// Scan calls fn with every record in key order, read in one read transaction on the read pool: in WAL
// mode that is a snapshot of the last commit before it started, taken without blocking the writer.
// While it runs, checkpoints cannot move past its snapshot, so the write-ahead log grows with the
// writes made meanwhile; it is reused from its start after the first checkpoint once Scan ends.
func (s *Store) Scan(ctx context.Context, fn func(store.Record) error) error {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: scan: %w", err)
	}
	defer func() {
		// Read-only: rolling back only ends the snapshot.
		_ = tx.Rollback()
	}()
	rows, err := tx.QueryContext(ctx, scanSQL)
	if err != nil {
		return fmt.Errorf("sqlite: scan: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r store.Record
		if err := rows.Scan(&r.Key, &r.Index, &r.Doc); err != nil {
			return fmt.Errorf("sqlite: scan: %w", err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlite: scan: %w", err)
	}
	return nil
}

// Count returns how many records the store holds, read through the read pool.
func (s *Store) Count(ctx context.Context) (int64, error) {
	var n int64
	if err := s.r.QueryRowContext(ctx, countSQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count: %w", err)
	}
	return n, nil
}

// WriteBatch writes rs through the group committer (groupcommit.go), like any other write, in as
// many transactions as it takes to keep each within writeBudget, with a pause after each: a
// write of the service, in this process or another, waits for one short transaction, not for the
// whole batch. Each record is first inserted with ON CONFLICT DO NOTHING, so a new one costs one
// statement; only when its key is taken does Upsert replace it with a second one.
func (s *Store) WriteBatch(ctx context.Context, rs []store.Record, mode store.WriteMode) (store.BatchResult, error) {
	res := store.NewBatchResult(len(rs))
	for next := 0; next < len(rs); {
		if err := s.bulkPause(ctx); err != nil {
			return res, fmt.Errorf("sqlite: write batch: %w", err)
		}
		began := time.Now()
		var (
			done     int
			outcomes []store.Outcome
		)
		// fn may run twice when the group transaction it shared failed as a whole and it is retried
		// alone, so it starts afresh from next each time and reports through done and outcomes.
		deferIndex := false
		err := s.write(ctx, func(tx *sql.Tx) error {
			done, outcomes, deferIndex = next, outcomes[:0], false
			if next == 0 && len(rs) >= bulkLoadMin && !s.indexDeferred.Load() {
				if err := tx.QueryRow(deferIndexSQL).Scan(&deferIndex); err != nil {
					return err
				}
				if deferIndex {
					if _, err := tx.Exec(`DROP INDEX contacts_by_index`); err != nil {
						return err
					}
				}
			}
			// Statements run without the caller's context, like every write: see groupcommit.go.
			insert, err := tx.Prepare(insertNewSQL)
			if err != nil {
				return err
			}
			defer insert.Close()
			var update *sql.Stmt
			if mode == store.Upsert {
				if update, err = tx.Prepare(moveSQL); err != nil {
					return err
				}
				defer update.Close()
			}
			deadline := time.Now().Add(writeBudget)
			for ; done < len(rs) && (done == next || time.Now().Before(deadline)); done++ {
				r := &rs[done]
				did, err := insert.Exec(r.Key, r.Index, text(r.Doc))
				if err != nil {
					return fmt.Errorf("record %q: %w", r.Key, err)
				}
				n, err := did.RowsAffected()
				if err != nil {
					return fmt.Errorf("record %q: %w", r.Key, err)
				}
				switch {
				case n == 1:
					outcomes = append(outcomes, store.Inserted)
				case mode == store.InsertOnly:
					outcomes = append(outcomes, store.Refused)
				default:
					if _, err := update.Exec(r.Index, text(r.Doc), r.Key); err != nil {
						return fmt.Errorf("record %q: %w", r.Key, err)
					}
					outcomes = append(outcomes, store.Updated)
				}
			}
			return nil
		})
		if err == nil && deferIndex {
			s.indexDeferred.Store(true)
		}
		ended := time.Now()
		s.bulkResume.Store(ended.Add(min(max(ended.Sub(began), minWritePause), maxWritePause)).UnixNano())
		if err != nil {
			return res, fmt.Errorf("sqlite: write batch: %w", err)
		}
		for i, o := range outcomes {
			res.Add(next+i, o)
		}
		next = done
	}
	return res, nil
}

// bulkPause waits until the pause after the last batch transaction, in this call or an earlier one,
// has passed.
func (s *Store) bulkPause(ctx context.Context) error {
	wait := time.Duration(s.bulkResume.Load() - time.Now().UnixNano())
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
