package postgres_test

import (
	"testing"

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
