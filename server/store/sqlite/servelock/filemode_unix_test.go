//go:build unix

package servelock_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/sqlite/servelock"
)

// TestLockFilePrivate checks that the lock file is created readable by its owner only under the
// umask 022 a service started outside systemd has, like the database file it guards.
func TestLockFilePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	l, err := servelock.Acquire(filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	defer func() { require.NoError(t, l.Release()) }()
	info, err := os.Stat(l.Path())
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
}
