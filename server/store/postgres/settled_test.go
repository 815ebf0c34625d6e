package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// TestSessionLimits: the server is told the store's operation time limit as statement_timeout, and a
// transaction left idle (its client gone behind a partition) is ended after no more than that, so the
// row lock it holds is released within one operation's time.
func TestSessionLimits(t *testing.T) {
	s := open(t, pgtest.Schema(t), postgres.Options{Timeout: 1500 * time.Millisecond})
	for _, name := range []string{"statement_timeout", "idle_in_transaction_session_timeout"} {
		v, err := s.SessionSetting(t.Context(), name)
		require.NoError(t, err)
		assert.Equal(t, "1500ms", v, name)
	}
}

// TestAbandonedTransactionReleasesItsLock partitions instance A from the database in the middle of an
// Update, after its SELECT … FOR UPDATE took the row lock and before its UPDATE: A's call fails as
// unavailable, and its transaction, abandoned on the server with the lock held, must neither block
// the contact for longer than the server's idle-in-transaction limit nor commit when the partition
// heals and the held UPDATE arrives. Meanwhile another instance's writes to other contacts go on, and
// its write to the locked contact waits for the lock, then wins.
func TestAbandonedTransactionReleasesItsLock(t *testing.T) {
	dsn := pgtest.Schema(t)
	proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
	const timeoutA = 500 * time.Millisecond
	a := open(t, pgtest.WithHostPort(t, dsn, proxy.Addr()), postgres.Options{MaxConns: 1, Timeout: timeoutA, ConnectTimeout: timeoutA})
	b := open(t, dsn, postgres.Options{Timeout: 10 * time.Second})
	require.NoError(t, b.Put(t.Context(), storetest.Rec("locked", "before")))

	locked := make(chan struct{})
	bDone := make(chan error, 1)
	var bWaited time.Duration
	go func() {
		<-locked
		start := time.Now()
		_, err := b.Update(t.Context(), "locked", func(c store.Record) (store.Record, error) {
			c = storetest.WithText(c, "from B")
			return c, nil
		})
		bWaited = time.Since(start)
		bDone <- err
	}()
	_, err := a.Update(t.Context(), "locked", func(c store.Record) (store.Record, error) {
		proxy.Hold() // the lock is held; the UPDATE and everything after it wait in the partition
		close(locked)
		c = storetest.WithText(c, "from A")
		return c, nil
	})
	require.ErrorIs(t, err, store.ErrUnavailable, "the partitioned Update is not applied")
	require.NotErrorIs(t, err, store.ErrOutcomeUnknown, "its COMMIT was never sent")

	require.NoError(t, b.Put(t.Context(), storetest.Rec("other", "free")), "other contacts are not locked")
	require.NoError(t, <-bDone, "the abandoned transaction's lock must be released")
	t.Logf("B waited %v for the lock A's abandoned transaction held (A's time limit: %v)", bWaited.Round(time.Millisecond), timeoutA)

	proxy.Up()
	require.True(t, proxy.Delivered(15*time.Second), "the partition's bytes were not delivered")
	got, err := b.Get(t.Context(), "locked")
	require.NoError(t, err)
	assert.Equal(t, "from B", storetest.TextOf(got), "A's Update, answered as not applied, took effect after all")
}

// TestUnavailableIsNotApplied runs each write through an instance whose connection is partitioned
// (the proxy holds its bytes) until the write gives up, has another instance write the same contact,
// then heals the partition: the write answered unavailable must not take effect when its statement
// finally reaches the server.
func TestUnavailableIsNotApplied(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(s *postgres.Store) error
	}{
		{"Put", func(s *postgres.Store) error {
			return s.Put(t.Context(), storetest.Rec("c", "late"))
		}},
		{"Delete", func(s *postgres.Store) error { _, err := s.Delete(t.Context(), "c"); return err }},
		{"Update", func(s *postgres.Store) error {
			_, err := s.Update(t.Context(), "c", func(c store.Record) (store.Record, error) {
				c = storetest.WithText(c, "late")
				return c, nil
			})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := pgtest.Schema(t)
			proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
			const timeoutA = 400 * time.Millisecond
			a := open(t, pgtest.WithHostPort(t, dsn, proxy.Addr()), postgres.Options{MaxConns: 1, Timeout: timeoutA, ConnectTimeout: timeoutA})
			b := open(t, dsn, postgres.Options{})
			require.NoError(t, b.Put(t.Context(), storetest.Rec("c", "first")))
			// Once through A first, so A's connection has the statements prepared and is fresh: during
			// the partition the write itself is what is held.
			require.NoError(t, tc.write(a))
			require.NoError(t, b.Put(t.Context(), storetest.Rec("c", "first")))

			proxy.Hold()
			err := tc.write(a)
			require.ErrorIs(t, err, store.ErrUnavailable)
			require.NotErrorIs(t, err, store.ErrOutcomeUnknown)
			require.NoError(t, b.Put(t.Context(), storetest.Rec("c", "second")))
			proxy.Up()
			require.True(t, proxy.Delivered(15*time.Second), "the partition's bytes were not delivered")

			got, err := b.Get(t.Context(), "c")
			require.NoError(t, err, "the contact is gone: the Delete answered unavailable took effect")
			assert.Equal(t, "second", storetest.TextOf(got), "the write answered unavailable took effect")
		})
	}
}

// TestCancelOnGiveUp: a statement the store gives up on is cancelled on the server before the call
// returns, not left running for nobody until statement_timeout. Here a Delete waits for a row lock
// another instance holds; when its caller's deadline passes, the call returns and the server is no
// longer running it.
func TestCancelOnGiveUp(t *testing.T) {
	dsn := pgtest.Schema(t)
	app := "contactsync-cancel-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	s := open(t, pgtest.WithParam(t, dsn, "application_name", app), postgres.Options{Timeout: 30 * time.Second})
	other := open(t, dsn, postgres.Options{})
	require.NoError(t, s.Put(t.Context(), storetest.Rec("busy", "")))
	held := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := other.Update(t.Context(), "busy", func(c store.Record) (store.Record, error) {
			close(held)
			<-release
			return c, nil
		})
		done <- err
	}()
	<-held
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, err := s.Delete(ctx, "busy")
	require.ErrorIs(t, err, context.DeadlineExceeded)

	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var running int
	require.NoError(t, conn.QueryRow(t.Context(),
		`SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'`, app).Scan(&running))
	assert.Zero(t, running, "the Delete given up on still runs on the server")

	close(release)
	require.NoError(t, <-done)
	_, err = s.Get(t.Context(), "busy")
	require.NoError(t, err, "the cancelled Delete was not applied")
}

// isCommit matches the COMMIT the store sends: a simple query message ('Q') whose text is "commit".
func isCommit(b []byte) bool {
	return len(b) > 5 && b[0] == 'Q' && bytes.Equal(b[5:], []byte("commit\x00"))
}

// TestLostCommitIsOutcomeUnknown loses each write's COMMIT or its answer: the store cannot know
// whether the server applied it, and must say so (ErrOutcomeUnknown), not that it was not applied
// (ErrUnavailable). Two ways: a partition that holds the COMMIT until the write gives up (the
// contact ends in either state the write allows), and a reset that lets the COMMIT through and loses
// its answer (the write was applied: the answer "not applied" would be a lie, which pgx's own
// SafeToRetry would have told, see writeOnce).
func TestLostCommitIsOutcomeUnknown(t *testing.T) {
	cuts := []struct {
		name string
		arm  func(*pgtest.Proxy)
		// applied: the write must have taken effect (true), or may have (false).
		applied bool
	}{
		{"held", func(p *pgtest.Proxy) { p.HoldAt(isCommit) }, false},
		{"answer reset", func(p *pgtest.Proxy) { p.ResetAt(isCommit) }, true},
	}
	for _, tc := range []struct {
		name  string
		write func(s *postgres.Store) error
		// applied tells from a Get's result whether the write took effect.
		applied func(c store.Record, err error) bool
	}{
		{"Put", func(s *postgres.Store) error { return s.Put(t.Context(), storetest.Rec("c", "new")) },
			func(c store.Record, err error) bool { return err == nil && storetest.TextOf(c) == "new" }},
		{"Delete", func(s *postgres.Store) error { _, err := s.Delete(t.Context(), "c"); return err },
			func(_ store.Record, err error) bool { return errors.Is(err, store.ErrNotFound) }},
		{"Update", func(s *postgres.Store) error {
			_, err := s.Update(t.Context(), "c", func(c store.Record) (store.Record, error) {
				c = storetest.WithText(c, "new")
				return c, nil
			})
			return err
		}, func(c store.Record, err error) bool { return err == nil && storetest.TextOf(c) == "new" }},
	} {
		for _, cut := range cuts {
			t.Run(tc.name+"/"+cut.name, func(t *testing.T) {
				dsn := pgtest.Schema(t)
				proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
				const timeout = 400 * time.Millisecond
				s := open(t, pgtest.WithHostPort(t, dsn, proxy.Addr()), postgres.Options{MaxConns: 1, Timeout: timeout, ConnectTimeout: timeout})
				require.NoError(t, s.Put(t.Context(), storetest.Rec("c", "old")))

				cut.arm(proxy)
				err := tc.write(s)
				require.ErrorIs(t, err, store.ErrOutcomeUnknown)
				require.NotErrorIs(t, err, store.ErrUnavailable, "an unknown outcome must not read as not applied")
				proxy.Up()
				require.True(t, proxy.Delivered(15*time.Second), "the partition's bytes were not delivered")

				c, err := s.Get(t.Context(), "c")
				if !errors.Is(err, store.ErrNotFound) {
					require.NoError(t, err)
					require.Contains(t, []string{"old", "new"}, storetest.TextOf(c), "torn record")
				}
				if cut.applied {
					assert.True(t, tc.applied(c, err), "the server carried the COMMIT out")
				}
			})
		}
	}
}

// TestTerminatedBackendsAreRetried terminates every backend of a store's pool (as an administrator's
// pg_terminate_backend, or a failover, does) and then uses the store at once: each pooled connection
// is broken, but nothing of an operation can have taken effect on one, so every operation must be
// retried on a fresh connection and succeed, not fail as unavailable.
func TestTerminatedBackendsAreRetried(t *testing.T) {
	dsn := pgtest.Schema(t)
	app := "contactsync-terminate-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	const conns = 4
	s := open(t, pgtest.WithParam(t, dsn, "application_name", app), postgres.Options{MaxConns: conns})
	require.NoError(t, s.Put(t.Context(), storetest.Rec("kept", "K")))
	admin, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer admin.Close(context.Background())
	backends := func() (n int) {
		require.NoError(t, admin.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n))
		return n
	}

	ops := []struct {
		name string
		do   func(i int) error
	}{
		{"Get", func(int) error { _, err := s.Get(t.Context(), "kept"); return err }},
		{"Put", func(i int) error { return s.Put(t.Context(), storetest.Rec("p"+strconv.Itoa(i), "")) }},
		{"Update", func(int) error {
			_, err := s.Update(t.Context(), "kept", func(r store.Record) (store.Record, error) { return r, nil })
			return err
		}},
		{"Delete", func(i int) error { _, err := s.Delete(t.Context(), "p"+strconv.Itoa(i)); return err }},
		{"Ping", func(int) error { return s.Ping(t.Context()) }},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			// Fill the pool: conns operations at once, each holding its connection until all have one.
			var all sync.WaitGroup
			all.Add(conns)
			var wg sync.WaitGroup
			for i := range conns {
				wg.Go(func() {
					// Each on its own contact: one row lock cannot be held by several at once.
					id := "fill" + strconv.Itoa(i)
					assert.NoError(t, s.Put(t.Context(), storetest.Rec(id, "")))
					_, err := s.Update(t.Context(), id, func(c store.Record) (store.Record, error) {
						all.Done()
						all.Wait()
						return c, nil
					})
					assert.NoError(t, err)
				})
			}
			wg.Wait()
			require.Equal(t, conns, backends())

			_, err := admin.Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, app)
			require.NoError(t, err)
			require.Eventually(t, func() bool { return backends() == 0 }, 10*time.Second, time.Millisecond)

			// Straight away, within the second after which the pool would ping an idle connection:
			// the operations meet the broken connections themselves.
			for i := range conns + 1 {
				assert.NoError(t, op.do(i), "%s #%d after the backends were terminated", op.name, i+1)
			}
		})
	}
}
