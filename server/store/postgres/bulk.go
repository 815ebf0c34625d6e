package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/contactsync/contactsync/server/store"
)

// The store's queries beyond a single record: the account query (ListByIndex), the snapshot scan
// behind export and copy, the batch write behind import, and Count.

const (
	// scanSQL reads every record in byte order of id. COLLATE "C" makes the order that of the UTF-8
	// bytes whatever the database's collation, so both stores export the same file for the same
	// records; the index contacts_id_bytes (migration 0003) has that order, so no sort is needed.
	scanSQL = `SELECT id, index_value, doc FROM contacts ORDER BY id COLLATE "C"`

	// listSQL reads a page of one index value's records through the index contacts_by_index (migration
	// 0005), whose entries are in (index_value, id COLLATE "C") order, so the page needs no sort.
	listSQL = `SELECT id, doc FROM contacts WHERE index_value = $1 AND id COLLATE "C" > $2 ORDER BY id COLLATE "C" LIMIT $3`

	countSQL = `SELECT count(*) FROM contacts`

	// batchTableSQL creates the session's staging table for WriteBatch, emptied at every commit.
	// Temporary tables are private to the session (the pooled connection), so concurrent batches on
	// other connections never see each other's rows. (Version 3's staging table was contacts_batch,
	// with a column per field; the name changed with the columns.)
	batchTableSQL = `CREATE TEMPORARY TABLE IF NOT EXISTS records_batch (
	id TEXT, index_value TEXT, doc jsonb
) ON COMMIT DELETE ROWS`

	// upsertBatchSQL moves the staged rows into contacts. xmax is 0 in a freshly inserted row and the
	// locking transaction's id in one that ON CONFLICT updated, the usual way to tell the two apart
	// in one statement.
	upsertBatchSQL = `INSERT INTO contacts (id, index_value, doc) SELECT id, index_value, doc FROM records_batch
ON CONFLICT (id) DO UPDATE SET index_value = excluded.index_value, doc = excluded.doc
RETURNING id, xmax = 0`

	// insertBatchSQL inserts the staged rows whose id is free; it returns those it inserted.
	insertBatchSQL = `INSERT INTO contacts (id, index_value, doc) SELECT id, index_value, doc FROM records_batch
ON CONFLICT (id) DO NOTHING
RETURNING id, true`
)

// batchColumns are the staging table's columns, in the order WriteBatch copies them.
var batchColumns = []string{"id", "index_value", "doc"}

// ListByIndex returns up to limit records of account index with a key greater than afterKey, in byte
// order of key, read by one statement (one snapshot) within the store's operation time limit.
func (s *Store) ListByIndex(ctx context.Context, index, afterKey string, limit int) ([]store.Record, error) {
	what := fmt.Sprintf("list by index %q", index)
	if limit <= 0 {
		return nil, fmt.Errorf("postgres: %s: limit %d is not positive", what, limit)
	}
	op, cancel := s.bound(ctx)
	defer cancel()
	var rs []store.Record
	err := s.retry(op, func() error {
		rs = rs[:0]
		rows, err := s.pool.Query(op, listSQL, index, afterKey, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r := store.Record{Index: index}
			if err := rows.Scan(&r.Key, &r.Doc); err != nil {
				return err
			}
			rs = append(rs, r)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, classify(ctx, what, err)
	}
	return rs, nil
}

// Scan calls fn with every record in byte order of id, read by one query (an index scan of
// contacts_id_bytes) in one REPEATABLE READ, READ ONLY transaction, so every row comes from the same snapshot. pgx reads the rows from the
// connection as fn consumes them, so memory stays flat. The store's operation time limit does not
// apply: the transaction lifts statement_timeout and idle_in_transaction_session_timeout for itself
// (SET LOCAL), since reading a large table takes as long as it takes; ctx still cancels it.
func (s *Store) Scan(ctx context.Context, fn func(store.Record) error) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return classify(ctx, "scan", err)
	}
	defer func() {
		// Read-only: rolling back only ends the snapshot.
		_ = tx.Rollback(context.WithoutCancel(ctx))
	}()
	// enable_sort = off steers the planner to the contacts_id_bytes index even before the table has
	// statistics (right after an import, when it would otherwise guess a sort of the whole table is
	// cheaper); without the index it still sorts.
	if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0; SET LOCAL enable_sort = off`); err != nil {
		return classify(ctx, "scan", err)
	}
	rows, err := tx.Query(ctx, scanSQL)
	if err != nil {
		return classify(ctx, "scan", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r store.Record
		if err := rows.Scan(&r.Key, &r.Index, &r.Doc); err != nil {
			return classify(ctx, "scan", err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return classify(ctx, "scan", err)
	}
	return nil
}

// Count returns how many records the store holds.
func (s *Store) Count(ctx context.Context) (int64, error) {
	op, cancel := s.bound(ctx)
	defer cancel()
	var n int64
	if err := s.pool.QueryRow(op, countSQL).Scan(&n); err != nil {
		return 0, classify(ctx, "count", err)
	}
	return n, nil
}

// WriteBatch writes rs in one transaction within the store's operation time limit: COPY into the
// session's staging table, then one INSERT … SELECT … ON CONFLICT into contacts. COPY streams the
// rows in pgx's binary format, far cheaper per row than a statement each (BENCHMARKS.md). The keys of
// rs must be distinct: one INSERT … ON CONFLICT DO UPDATE cannot touch a row twice, and PostgreSQL
// refuses the whole batch if asked to.
func (s *Store) WriteBatch(ctx context.Context, rs []store.Record, mode store.WriteMode) (store.BatchResult, error) {
	res := store.NewBatchResult(len(rs))
	if len(rs) == 0 {
		return res, nil
	}
	what := fmt.Sprintf("write batch of %d", len(rs))
	index := make(map[string]int, len(rs))
	for i, r := range rs {
		index[r.Key] = i
	}
	op, cancel := s.bound(ctx)
	defer cancel()
	tx, err := s.pool.Begin(op)
	if err != nil {
		return res, classify(ctx, what, err)
	}
	defer func() {
		// A no-op after Commit; after a failure the transaction is abandoned either way.
		_ = tx.Rollback(context.WithoutCancel(op))
	}()
	if _, err := tx.Exec(op, batchTableSQL); err != nil {
		return res, classify(ctx, what, err)
	}
	if _, err := tx.CopyFrom(op, pgx.Identifier{"records_batch"}, batchColumns,
		pgx.CopyFromSlice(len(rs), func(i int) ([]any, error) {
			r := &rs[i]
			return []any{r.Key, r.Index, r.Doc}, nil
		})); err != nil {
		return res, classify(ctx, what, err)
	}
	move := upsertBatchSQL
	if mode == store.InsertOnly {
		move = insertBatchSQL
	}
	rows, err := tx.Query(op, move)
	if err != nil {
		return res, classify(ctx, what, err)
	}
	outcomes := make([]store.Outcome, len(rs))
	for rows.Next() {
		var (
			id       string
			inserted bool
		)
		if err := rows.Scan(&id, &inserted); err != nil {
			rows.Close()
			return res, classify(ctx, what, err)
		}
		i, ok := index[id]
		if !ok {
			rows.Close()
			return res, fmt.Errorf("postgres: %s: the database returned an id not in the batch: %q", what, id)
		}
		outcomes[i] = store.Updated
		if inserted {
			outcomes[i] = store.Inserted
		}
	}
	if err := rows.Err(); err != nil {
		return res, classify(ctx, what, err)
	}
	if err := tx.Commit(op); err != nil {
		return res, classify(ctx, what, err)
	}
	for i, o := range outcomes {
		if o == 0 {
			o = store.Refused // InsertOnly: not returned, so its id was taken
		}
		res.Add(i, o)
	}
	return res, nil
}
