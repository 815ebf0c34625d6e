package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// TestWALStaysBounded writes for a few seconds while readers keep read transactions open, the load
// under which SQLite's own PASSIVE checkpoints could not catch up and the log grew without bound
// (walsize.go), with the policy scaled down (a 64 KiB limit, a checkpoint over 128 KiB). It samples
// the -wal file's size all along and asserts that it stayed within a bound, that the policy's
// checkpoints ran and finished, and that the file was truncated back to the limit after them.
func TestWALStaysBounded(t *testing.T) {
	const (
		sizeLimit    = 64 << 10
		checkpointAt = 128 << 10
		// bound leaves room for the commits between the last look and the checkpoint, a checkpoint
		// that found readers in the way and the retry after it. Without the policy's checkpoint the
		// file passed 1 MiB in the same time on this load; with it, it stayed near 140 KiB.
		bound   = 512 << 10
		writing = 3 * time.Second
	)
	var finished, blocked atomic.Int64
	policy := walPolicy{
		sizeLimit: sizeLimit, checkpointAt: checkpointAt, checkEvery: 1,
		busyWait: 200 * time.Millisecond, retryAfter: 20 * time.Millisecond,
		afterCheckpoint: func(busy bool, err error) {
			assert.NoError(t, err)
			if busy {
				blocked.Add(1)
			} else {
				finished.Add(1)
			}
		},
	}
	path := filepath.Join(t.TempDir(), "contacts.db")
	s, err := open(t.Context(), path, policy)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })

	const keys = 2000
	fill := make([]store.Record, keys)
	for i := range fill {
		fill[i] = storetest.Rec(fmt.Sprintf("k%05d", i), "first")
	}
	_, err = s.WriteBatch(t.Context(), fill, store.Upsert)
	require.NoError(t, err)

	ctx, stop := context.WithTimeout(t.Context(), writing)
	defer stop()

	var (
		wg             sync.WaitGroup
		maxSize        atomic.Int64
		overCheckpoint atomic.Bool // the file grew past checkpointAt …
		truncated      atomic.Bool // … and was later back within sizeLimit
	)
	wg.Go(func() { // the sampler
		for ctx.Err() == nil {
			if info, err := os.Stat(path + "-wal"); err == nil {
				size := info.Size()
				if size > maxSize.Load() {
					maxSize.Store(size)
				}
				if size > checkpointAt {
					overCheckpoint.Store(true)
				} else if size <= sizeLimit && overCheckpoint.Load() {
					truncated.Store(true)
				}
			}
			time.Sleep(time.Millisecond)
		}
	})
	for r := range 2 { // readers, keeping read transactions open as Gets under load do
		wg.Go(func() {
			for i := r; ctx.Err() == nil; i += 7 {
				_, err := s.Get(ctx, fmt.Sprintf("k%05d", i%keys))
				if ctx.Err() == nil {
					assert.NoError(t, err)
				}
			}
		})
	}
	var writes atomic.Int64
	for w := range 4 {
		wg.Go(func() {
			for i := w; ctx.Err() == nil; i += 13 {
				err := s.Put(ctx, storetest.Rec(fmt.Sprintf("k%05d", i%keys), fmt.Sprintf("text %d, long enough to fill pages %0100d", i, i)))
				if ctx.Err() == nil && assert.NoError(t, err) {
					writes.Add(1)
				}
			}
		})
	}
	wg.Wait()

	t.Logf("%d writes; -wal at most %d bytes; %d checkpoints finished, %d held back by readers",
		writes.Load(), maxSize.Load(), finished.Load(), blocked.Load())
	assert.LessOrEqual(t, maxSize.Load(), int64(bound), "the -wal file's largest size")
	assert.Positive(t, finished.Load(), "no RESTART checkpoint finished")
	assert.True(t, truncated.Load(), "the -wal file was never truncated back to journal_size_limit after growing past the checkpoint size")
	var limit int64
	require.NoError(t, s.w.QueryRowContext(t.Context(), "PRAGMA journal_size_limit").Scan(&limit))
	assert.Equal(t, int64(sizeLimit), limit, "the write connection's journal_size_limit")
}

// TestWALPolicyDefault checks that Open sets the default journal_size_limit on the write connection.
func TestWALPolicyDefault(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	var limit int64
	require.NoError(t, s.w.QueryRowContext(t.Context(), "PRAGMA journal_size_limit").Scan(&limit))
	assert.Equal(t, defaultWALPolicy.sizeLimit, limit)
	// The checkpoint restores the connection's busy timeout.
	_, err = s.checkpointRestart()
	require.NoError(t, err)
	var timeout int64
	require.NoError(t, s.w.QueryRowContext(t.Context(), "PRAGMA busy_timeout").Scan(&timeout))
	assert.Equal(t, int64(10000), timeout, "busy_timeout after a checkpoint")
}
