package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPragmasOnEveryConnection checks that the DSN's pragmas reach every pooled connection, not only
// the first: it holds several read connections at once, so the pool must open new ones.
func TestPragmasOnEveryConnection(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })

	want := map[string]int64{"synchronous": 2 /* FULL */, "foreign_keys": 1, "busy_timeout": 10000}
	check := func(name string, conn *sql.Conn, queryOnly int64) {
		t.Helper()
		for pragma, v := range want {
			var got int64
			require.NoError(t, conn.QueryRowContext(t.Context(), "PRAGMA "+pragma).Scan(&got), pragma)
			assert.Equal(t, v, got, "%s: PRAGMA %s", name, pragma)
		}
		var got int64
		require.NoError(t, conn.QueryRowContext(t.Context(), "PRAGMA query_only").Scan(&got))
		assert.Equal(t, queryOnly, got, "%s: PRAGMA query_only", name)
		var mode string
		require.NoError(t, conn.QueryRowContext(t.Context(), "PRAGMA journal_mode").Scan(&mode))
		assert.Equal(t, "wal", mode, "%s: PRAGMA journal_mode", name)
	}

	w, err := s.w.Conn(t.Context())
	require.NoError(t, err)
	check("writer", w, 0)
	require.NoError(t, w.Close())

	var readers []*sql.Conn
	for range 3 {
		r, err := s.r.Conn(t.Context())
		require.NoError(t, err)
		readers = append(readers, r)
	}
	for _, r := range readers {
		check("reader", r, 1)
		require.NoError(t, r.Close())
	}
}
