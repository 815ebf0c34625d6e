package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// TestBackupUnderConcurrentWrites takes a backup while writers keep writing through the store, and
// restores it (opens the backup as serve would): every write acknowledged before the backup started
// is in it, and it holds exactly the contacts it reports.
func TestBackupUnderConcurrentWrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "contacts.db")
	s := open(t, path)
	ctx := t.Context()
	seed := make([]store.Record, 2000)
	for i := range seed {
		seed[i] = storetest.Rec(fmt.Sprintf("seed-%05d", i), "seed")
	}
	_, err := s.WriteBatch(ctx, seed, store.Upsert)
	require.NoError(t, err)

	var (
		mu    sync.Mutex
		acked []string
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id := fmt.Sprintf("w%d-%06d", w, i)
				if err := s.Put(context.Background(), storetest.Rec(id, "written")); err != nil {
					t.Errorf("Put %s: %v", id, err)
					return
				}
				mu.Lock()
				acked = append(acked, id)
				mu.Unlock()
			}
		})
	}
	time.Sleep(100 * time.Millisecond) // let the writers get going
	mu.Lock()
	before := append([]string(nil), acked...)
	mu.Unlock()
	backup := filepath.Join(dir, "backup.db")
	res, err := sqlite.Backup(ctx, path, backup)
	time.Sleep(50 * time.Millisecond) // writes go on after the backup, and must not disturb it
	close(stop)
	wg.Wait()
	require.NoError(t, err)
	require.NotEmpty(t, before, "no write was acknowledged before the backup: the test proves nothing")

	restored := open(t, backup)
	n, err := restored.Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, res.Contacts, n, "the backup holds what Backup reported")
	assert.GreaterOrEqual(t, n, int64(len(seed)+len(before)))
	for _, id := range append([]string{seed[0].Key, seed[len(seed)-1].Key}, before...) {
		_, err := restored.Get(ctx, id)
		require.NoError(t, err, "acknowledged before the backup started, missing from it: %s", id)
	}
	info, err := os.Stat(backup)
	require.NoError(t, err)
	assert.Equal(t, res.Bytes, info.Size())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp", "a temporary file was left behind")
	}
}

// TestBackupRefuses checks the cases where no backup can be taken leave no file behind.
func TestBackupRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "contacts.db")
	open(t, path)
	notContacts := filepath.Join(dir, "other.db")
	db := rawDB(t, notContacts)
	_, err := db.Exec("CREATE TABLE t (x)")
	require.NoError(t, err)

	for _, tc := range []struct{ name, src, dst, want string }{
		{"SameFile", path, path, "must not replace the database itself"},
		{"MissingSource", filepath.Join(dir, "missing.db"), filepath.Join(dir, "b1.db"), "no such file"},
		{"NotAContactsDatabase", notContacts, filepath.Join(dir, "b2.db"), "is it a contactsync database"},
		// Said of the directory named, not of the temporary file's made-up name in it.
		{"MissingDirectory", path, filepath.Join(dir, "nodir", "b3.db"), "the directory " + filepath.Join(dir, "nodir") + " does not exist: create it (mkdir -p "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sqlite.Backup(t.Context(), tc.src, tc.dst)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), ".tmp", "a temporary file's name means nothing to the operator")
			if tc.dst != tc.src {
				assert.NoFileExists(t, tc.dst)
			}
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp", "a temporary file was left behind")
	}
}
