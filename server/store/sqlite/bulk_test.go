package sqlite_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/store/storetest"
)

func TestBulkConformance(t *testing.T) {
	storetest.RunBulk(t, func(t *testing.T) store.BulkStore {
		s, err := sqlite.Open(t.Context(), tempPath(t))
		require.NoError(t, err)
		return s
	})
}
