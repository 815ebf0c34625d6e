//go:build unix

package sqlite_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// withUmask runs fn with the process's umask set to mask, as a shell's default 022 would leave it for
// a service started outside systemd (whose unit sets UMask=0077). The umask is the process's, so
// these tests do not run in parallel.
func withUmask(t *testing.T, mask int, fn func()) {
	t.Helper()
	old := syscall.Umask(mask)
	defer syscall.Umask(old)
	fn()
}

// TestNewDatabaseFilesPrivate opens new stores with umask 022 and checks that the database file and
// the -wal and -shm files SQLite creates beside it are readable by their owner only, whether the
// store or migrate-style code (CreateFile, then the bare driver) created the database; and that a
// database file that exists keeps the mode its owner gave it.
func TestNewDatabaseFilesPrivate(t *testing.T) {
	modes := func(path string) map[string]fs.FileMode {
		got := map[string]fs.FileMode{}
		for _, suffix := range []string{"", "-wal", "-shm"} {
			info, err := os.Stat(path + suffix)
			if assert.NoError(t, err, "the file %s%s", filepath.Base(path), suffix) {
				got[suffix] = info.Mode().Perm()
			}
		}
		return got
	}
	private := map[string]fs.FileMode{"": 0o600, "-wal": 0o600, "-shm": 0o600}

	for _, tc := range []struct {
		name     string
		existing fs.FileMode // the mode of an empty file there before, or 0 for none
		want     map[string]fs.FileMode
	}{
		{"new database", 0, private},
		{"existing file keeps its mode", 0o640, map[string]fs.FileMode{"": 0o640, "-wal": 0o640, "-shm": 0o640}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tempPath(t)
			withUmask(t, 0o022, func() {
				if tc.existing != 0 {
					require.NoError(t, os.WriteFile(path, nil, tc.existing))
				}
				s, err := sqlite.Open(context.Background(), path)
				require.NoError(t, err)
				defer func() { require.NoError(t, s.Close()) }()
				// A write makes sure the -wal and -shm files exist, whatever SQLite does at open.
				require.NoError(t, s.Put(context.Background(), storetest.Rec("k1", "text")))
				assert.Equal(t, tc.want, modes(path))
			})
		})
	}

	t.Run("CreateFile before the bare driver", func(t *testing.T) {
		path := tempPath(t)
		withUmask(t, 0o022, func() {
			sqlite.CreateFile(path)
			db := rawDB(t, path)
			_, err := db.Exec(`PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)`)
			require.NoError(t, err)
			assert.Equal(t, private, modes(path))
		})
	})
}
