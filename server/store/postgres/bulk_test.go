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

// TestBulkConformance runs the shared bulk suite, each subtest in a schema of its own.
func TestBulkConformance(t *testing.T) {
	pgtest.DSN(t) // skip (or fail in CI) once, not in every subtest
	storetest.RunBulk(t, func(t *testing.T) store.BulkStore {
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
	batch := make([]store.Contact, 5000)
	for i := range batch {
		batch[i] = store.Contact{ID: fmt.Sprintf("c%05d", i)}
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
	rows, err := tx.Query(t.Context(), `EXPLAIN SELECT * FROM contacts ORDER BY id COLLATE "C"`)
	require.NoError(t, err)
	var plan []string
	for rows.Next() {
		var line string
		require.NoError(t, rows.Scan(&line))
		plan = append(plan, line)
	}
	require.NoError(t, rows.Err())
	assert.Contains(t, strings.Join(plan, "\n"), "Index Scan using contacts_id_bytes", "plan:\n%s", strings.Join(plan, "\n"))
}
