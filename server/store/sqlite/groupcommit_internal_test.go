package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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

// groupCommitStore opens a store whose commits are counted: commits[i] is how many writes the i-th
// committed transaction held.
func groupCommitStore(t *testing.T) (*Store, func() []int) {
	t.Helper()
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	var mu sync.Mutex
	var commits []int
	s.gc.afterCommit = func(n int) { mu.Lock(); commits = append(commits, n); mu.Unlock() }
	return s, func() []int { mu.Lock(); defer mu.Unlock(); return append([]int(nil), commits...) }
}

// holdCommitter makes the committer run a write that blocks until release is called, so the writes
// sent meanwhile queue up and must go into one batch. The held write itself commits alone.
func holdCommitter(t *testing.T, s *Store) (release func()) {
	t.Helper()
	started, proceed := make(chan struct{}), make(chan struct{})
	go func() {
		_ = s.write(context.Background(), func(*sql.Tx) error { close(started); <-proceed; return nil })
	}()
	<-started
	return func() { close(proceed) }
}

// waitQueued waits until n writes are queued behind the held one.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	require.Eventually(t, func() bool { return len(s.gc.writes) == n }, 10*time.Second, time.Millisecond)
}

func contact(id string) store.Record { return storetest.Rec(id, "F") }

// TestConcurrentPutsShareOneCommit shows group commit at work: 64 Puts sent while the committer is
// busy are committed by one transaction, and each returns only after it.
func TestConcurrentPutsShareOneCommit(t *testing.T) {
	s, commits := groupCommitStore(t)
	release := holdCommitter(t, s)
	const n = 64
	var wg sync.WaitGroup
	var returned atomic.Int64
	for i := range n {
		wg.Go(func() {
			assert.NoError(t, s.Put(t.Context(), contact(fmt.Sprintf("c%d", i))))
			returned.Add(1)
		})
	}
	waitQueued(t, s, n)
	assert.Zero(t, returned.Load(), "a Put returned before its transaction committed")
	release()
	wg.Wait()
	assert.Equal(t, []int{1, n}, commits(), "the held write, then every queued Put in one commit")
	for i := range n {
		_, err := s.Get(t.Context(), fmt.Sprintf("c%d", i))
		assert.NoError(t, err)
	}
}

// TestFailedWriteDoesNotFailItsBatch puts a failing write, a panicking write and a write whose caller
// gave up into one batch with good writes: each bad one gets its own outcome, and the rest commit.
func TestFailedWriteDoesNotFailItsBatch(t *testing.T) {
	s, commits := groupCommitStore(t)
	release := holdCommitter(t, s)
	errBad := errors.New("bad write")
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() { assert.NoError(t, s.Put(t.Context(), contact(fmt.Sprintf("good%d", i)))) })
	}
	wg.Go(func() {
		err := s.write(t.Context(), func(tx *sql.Tx) error {
			// Half-done work must be rolled back with the failing write.
			if _, err := tx.Exec(`DELETE FROM contacts`); err != nil {
				return err
			}
			return errBad
		})
		assert.ErrorIs(t, err, errBad)
	})
	wg.Go(func() {
		assert.PanicsWithValue(t, "boom", func() {
			_ = s.write(t.Context(), func(*sql.Tx) error { panic("boom") })
		})
	})
	cancelled, cancel := context.WithCancel(t.Context())
	wg.Go(func() {
		err := s.Put(cancelled, contact("cancelled"))
		assert.ErrorIs(t, err, context.Canceled)
	})
	waitQueued(t, s, 8)
	cancel() // the cancelled Put is withdrawn, by its caller or by the committer, whichever comes first
	release()
	wg.Wait()
	assert.Equal(t, []int{1, 5}, commits(), "the held write, then the five good Puts together")
	for i := range 5 {
		_, err := s.Get(t.Context(), fmt.Sprintf("good%d", i))
		assert.NoError(t, err, "good%d", i)
	}
	_, err := s.Get(t.Context(), "cancelled")
	assert.ErrorIs(t, err, store.ErrNotFound, "a write cancelled before its batch started must not be applied")
}

// TestCloseDrainsQueuedWrites closes the store while writes are queued: each completes before Close
// returns, and later writes fail instead of hanging.
func TestCloseDrainsQueuedWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contacts.db")
	s, err := Open(t.Context(), path)
	require.NoError(t, err)
	release := holdCommitter(t, s)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() { assert.NoError(t, s.Put(context.Background(), contact(fmt.Sprintf("c%d", i)))) })
	}
	waitQueued(t, s, 10)
	closed := make(chan error)
	go func() { closed <- s.Close() }()
	release()
	require.NoError(t, <-closed)
	wg.Wait()
	assert.Error(t, s.Put(context.Background(), contact("late")))

	s, err = Open(t.Context(), path)
	require.NoError(t, err)
	defer s.Close()
	for i := range 10 {
		_, err := s.Get(t.Context(), fmt.Sprintf("c%d", i))
		assert.NoError(t, err, "c%d", i)
	}
}

// TestWriteOutcomeIsSettled: a write answered with an error was never committed, and a write whose
// batch was in flight when its caller's deadline passed is answered with the batch's outcome, not
// with the deadline's error.
func TestWriteOutcomeIsSettled(t *testing.T) {
	t.Run("deadline while queued: not applied", func(t *testing.T) {
		s, _ := groupCommitStore(t)
		release := holdCommitter(t, s)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- s.Put(ctx, contact("queued")) }()
		waitQueued(t, s, 1)
		cancel()
		// The caller is answered at once, while the committer is still busy with the held write.
		err := <-done
		require.ErrorIs(t, err, context.Canceled)
		release()
		require.NoError(t, s.Put(t.Context(), contact("after")), "the committer goes on")
		_, err = s.Get(t.Context(), "queued")
		assert.ErrorIs(t, err, store.ErrNotFound, "a write answered with an error was committed")
	})
	t.Run("deadline while its batch is in flight: the batch's outcome", func(t *testing.T) {
		s, commits := groupCommitStore(t)
		release := holdCommitter(t, s)
		// The next batch holds a write that blocks and, after it, the Put: when the blocking write
		// runs, the Put has been claimed for the batch.
		running, proceed := make(chan struct{}), make(chan struct{})
		var proceedOnce sync.Once
		letProceed := func() { proceedOnce.Do(func() { close(proceed) }) }
		t.Cleanup(letProceed) // before the store closes, so a failing test cannot hang in Close
		go func() {
			_ = s.write(context.Background(), func(*sql.Tx) error { close(running); <-proceed; return nil })
		}()
		waitQueued(t, s, 1)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- s.Put(ctx, contact("in-flight")) }()
		waitQueued(t, s, 2)
		release()
		<-running
		cancel()
		select {
		case err := <-done:
			t.Fatalf("the Put returned %v while its batch was still in flight", err)
		case <-time.After(100 * time.Millisecond): // a bounded check that it is still waiting
		}
		letProceed()
		require.NoError(t, <-done, "the batch committed, so the Put must say so")
		_, err := s.Get(t.Context(), "in-flight")
		require.NoError(t, err)
		assert.Equal(t, []int{1, 2}, commits(), "the held write, then the blocking write and the Put together")
	})
}
