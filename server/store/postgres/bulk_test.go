package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// TestFields runs the shared suite of the field metadata, each subtest in a schema of its own.
func TestFields(t *testing.T) {
	pgtest.DSN(t) // skip (or fail in CI) once, not in every subtest
	storetest.RunFields(t, func(t *testing.T) storetest.FieldStore {
		s, err := postgres.Open(t.Context(), pgtest.Schema(t), postgres.Options{})
		require.NoError(t, err)
		return s
	})
}

// TestScanUsesTheByteOrderIndex checks the plan of the scan query under the settings Scan uses, on a
// table without statistics (as right after an import): an index scan, not a sort of the whole table.
func TestScanUsesTheByteOrderIndex(t *testing.T) {
	dsn := pgtest.Schema(t)
	s, err := postgres.Open(t.Context(), dsn, postgres.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	batch := make([]store.Record, 5000)
	for i := range batch {
		batch[i] = storetest.RecIn(fmt.Sprintf("c%05d", i), fmt.Sprintf("acct-%d", i%50), "")
	}
	_, err = s.WriteBatch(t.Context(), batch, store.Upsert)
	require.NoError(t, err)

	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	tx, err := conn.Begin(t.Context())
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(context.Background()) }()
	_, err = tx.Exec(t.Context(), `SET LOCAL enable_sort = off`)
	require.NoError(t, err)
	explain := func(query string, args ...any) string {
		t.Helper()
		rows, err := tx.Query(t.Context(), "EXPLAIN "+query, args...)
		require.NoError(t, err)
		var plan []string
		for rows.Next() {
			var line string
			require.NoError(t, rows.Scan(&line))
			plan = append(plan, line)
		}
		require.NoError(t, rows.Err())
		return strings.Join(plan, "\n")
	}
	plan := explain(`SELECT * FROM contacts ORDER BY id COLLATE "C"`)
	assert.Contains(t, plan, "Index Scan using contacts_id_bytes", "plan:\n%s", plan)

	// The account query (ListByIndex) goes through contacts_by_index, whose order is the query's: read
	// as an index scan, it needs no sort. (On a small account the planner may prefer a bitmap scan
	// and a sort of its few rows, which is as cheap; bitmap scans are off here to see the order.)
	_, err = tx.Exec(t.Context(), `SET LOCAL enable_sort = on; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off`)
	require.NoError(t, err)
	plan = explain(`SELECT id, doc FROM contacts WHERE index_value = $1 AND id COLLATE "C" > $2 ORDER BY id COLLATE "C" LIMIT $3`, "acct-7", "", 10)
	assert.Contains(t, plan, "contacts_by_index", "plan:\n%s", plan)
	assert.NotContains(t, plan, "Sort", "plan:\n%s", plan)
}
