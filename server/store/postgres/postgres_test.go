package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// open opens a store on dsn and closes it when the test ends.
func open(t *testing.T, dsn string, opts postgres.Options) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), dsn, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestConformance runs the shared store suite, each subtest in a schema of its own.
func TestConformance(t *testing.T) {
	pgtest.DSN(t) // skip (or fail in CI) once, not in every subtest
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := postgres.Open(t.Context(), pgtest.Schema(t), postgres.Options{})
		require.NoError(t, err)
		return s
	})
}

// TestMigrationsMatchSQLite keeps the two backends' schemas versioned alike: the same migration
// versions and names, so "schema version N" means the same thing whichever store an operator runs.
func TestMigrationsMatchSQLite(t *testing.T) {
	pg, err := migrate.Load(postgres.Migrations())
	require.NoError(t, err)
	lite, err := migrate.Load(sqlite.Migrations())
	require.NoError(t, err)
	names := func(ms []migrate.Migration) (out []string) {
		for _, m := range ms {
			out = append(out, m.File)
		}
		return out
	}
	assert.Equal(t, names(lite), names(pg))
}

func TestMigrateAppliesOnceAndConcurrently(t *testing.T) {
	dsn := pgtest.Schema(t)
	// Several processes starting at once all migrate; the advisory lock lets exactly one apply.
	var wg sync.WaitGroup
	results := make([][]migrate.Migration, 4)
	errs := make([]error, 4)
	for i := range results {
		wg.Go(func() { results[i], errs[i] = postgres.Migrate(t.Context(), dsn, 0) })
	}
	wg.Wait()
	total := 0
	for i := range results {
		require.NoError(t, errs[i])
		total += len(results[i])
	}
	ms, err := migrate.Load(postgres.Migrations())
	require.NoError(t, err)
	assert.Equal(t, len(ms), total, "every migration applied exactly once")

	applied, err := postgres.Migrate(t.Context(), dsn, 0)
	require.NoError(t, err)
	assert.Empty(t, applied)
	open(t, dsn, postgres.Options{}) // Open on a migrated schema applies nothing and works
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	dsn := pgtest.Schema(t)
	_, err := postgres.Migrate(t.Context(), dsn, 0)
	require.NoError(t, err)
	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(t.Context())
	_, err = conn.Exec(t.Context(), `INSERT INTO schema_migrations (version, applied_at) VALUES (9999, 'future')`)
	require.NoError(t, err)

	_, err = postgres.Open(t.Context(), dsn, postgres.Options{})
	var tooNew *migrate.SchemaTooNewError
	require.ErrorAs(t, err, &tooNew)
	assert.Equal(t, 9999, tooNew.Database)
	_, err = postgres.Migrate(t.Context(), dsn, 0)
	require.ErrorAs(t, err, &tooNew)
}

func TestUpdateRefusesChangedID(t *testing.T) {
	s := open(t, pgtest.Schema(t), postgres.Options{})
	require.NoError(t, s.Put(t.Context(), storetest.Rec("a", "A")))
	_, err := s.Update(t.Context(), "a", func(r store.Record) (store.Record, error) {
		return storetest.Rec("b", "B"), nil
	})
	require.ErrorContains(t, err, "must not alter the key")
	_, err = s.Get(t.Context(), "b")
	require.ErrorIs(t, err, store.ErrNotFound)
}

// TestNoLostUpdateAcrossInstances is the store-level proof for several instances: two Stores with
// separate pools (as two processes would have) append distinct roles to one contact concurrently. A
// lost update would drop roles; every one must be there exactly once, each writer's in its order.
func TestNoLostUpdateAcrossInstances(t *testing.T) {
	dsn := pgtest.Schema(t)
	instances := []*postgres.Store{open(t, dsn, postgres.Options{MaxConns: 4}), open(t, dsn, postgres.Options{MaxConns: 4})}
	const workers, perWorker = 8, 40
	require.NoError(t, instances[0].Put(t.Context(), storetest.Rec("shared", "S")))

	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				role := fmt.Sprintf("w%d-%d", w, i)
				s := instances[(w+i)%2] // each writer alternates between the instances
				_, err := s.Update(t.Context(), "shared", func(r store.Record) (store.Record, error) {
					return storetest.WithText(r, storetest.TextOf(r)+" "+role), nil
				})
				if err != nil {
					errs <- fmt.Errorf("adding %s: %w", role, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	for _, s := range instances {
		got, err := s.Get(t.Context(), "shared")
		require.NoError(t, err)
		roles := strings.Fields(storetest.TextOf(got))[1:] // after the initial text
		require.Len(t, roles, workers*perWorker)
		for w := range workers {
			last := -1
			for i := range perWorker {
				at := slices.Index(roles, fmt.Sprintf("w%d-%d", w, i))
				require.Greater(t, at, last, "w%d-%d missing or out of order", w, i)
				last = at
			}
		}
	}
}

// TestUpdateWaitsForRowLockAcrossInstances shows the mechanism directly: while one instance's Update
// holds the row (its change blocks), another instance's Update waits and then sees the first result.
func TestUpdateWaitsForRowLockAcrossInstances(t *testing.T) {
	dsn := pgtest.Schema(t)
	a, b := open(t, dsn, postgres.Options{}), open(t, dsn, postgres.Options{})
	require.NoError(t, a.Put(t.Context(), storetest.Rec("x", "")))

	inChange, release := make(chan struct{}), make(chan struct{})
	var releaseOnce sync.Once
	releaseFirst := func() { releaseOnce.Do(func() { close(release) }) }
	t.Cleanup(releaseFirst) // runs before the stores close, so a failing test cannot hang in Close
	firstDone := make(chan error, 1)
	go func() {
		_, err := a.Update(t.Context(), "x", func(r store.Record) (store.Record, error) {
			close(inChange)
			<-release
			return storetest.WithText(r, storetest.TextOf(r)+" first"), nil
		})
		firstDone <- err
	}()
	<-inChange
	secondDone := make(chan store.Record, 1)
	go func() {
		got, err := b.Update(t.Context(), "x", func(r store.Record) (store.Record, error) {
			return storetest.WithText(r, storetest.TextOf(r)+" second"), nil
		})
		assert.NoError(t, err)
		secondDone <- got
	}()
	select {
	case <-secondDone:
		t.Fatal("the second instance's Update did not wait for the row lock")
	case <-time.After(200 * time.Millisecond): // a bounded check that it is still waiting
	}
	releaseFirst()
	require.NoError(t, <-firstDone)
	got := <-secondDone
	assert.Equal(t, []string{"first", "second"}, strings.Fields(storetest.TextOf(got)))
}

// TestUnavailableAndRecovery cuts the database off with a proxy in each of its ways (refused
// connections; a black hole and a held partition, which only time-outs can detect; reset
// connections): every operation then fails quickly with store.ErrUnavailable, and the same Store works
// again once the database is back, without being reopened.
func TestUnavailableAndRecovery(t *testing.T) {
	dsn := pgtest.Schema(t)
	proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
	const timeout = 500 * time.Millisecond
	s := open(t, pgtest.WithHostPort(t, dsn, proxy.Addr()), postgres.Options{Timeout: timeout, ConnectTimeout: timeout})
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, storetest.Rec("kept", "K")))

	ops := map[string]func() error{
		"Get": func() error { _, err := s.Get(ctx, "kept"); return err },
		"Put": func() error { return s.Put(ctx, storetest.Rec("new", "")) },
		"Update": func() error {
			_, err := s.Update(ctx, "kept", func(r store.Record) (store.Record, error) { return r, nil })
			return err
		},
		"Delete": func() error { _, err := s.Delete(ctx, "nobody"); return err },
		"Ping":   func() error { return s.Ping(ctx) },
	}
	for _, cut := range []struct {
		name string
		do   func()
	}{{"Down", proxy.Down}, {"Blackhole", proxy.Blackhole}, {"Hold", proxy.Hold}, {"Reset", proxy.Reset}} {
		t.Run(cut.name, func(t *testing.T) {
			cut.do()
			for name, op := range ops {
				start := time.Now()
				err := op()
				took := time.Since(start)
				require.Error(t, err, name)
				assert.ErrorIs(t, err, store.ErrUnavailable, "%s: %v", name, err)
				assert.NotErrorIs(t, err, store.ErrNotFound, name)
				assert.Less(t, took, 2*timeout+time.Second, "%s took %v", name, took)
			}
			proxy.Up()
			require.Eventually(t, func() bool { return s.Ping(ctx) == nil }, 10*time.Second, 20*time.Millisecond,
				"the store did not recover after the database came back")
			got, err := s.Get(ctx, "kept")
			require.NoError(t, err)
			assert.Equal(t, "K", storetest.TextOf(got))
		})
	}
}

// TestOpenUnreachable checks that Open fails quickly, as unavailable, when nothing answers.
func TestOpenUnreachable(t *testing.T) {
	dsn := pgtest.Schema(t)
	proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
	proxy.Blackhole()
	start := time.Now()
	_, err := postgres.Open(t.Context(), pgtest.WithHostPort(t, dsn, proxy.Addr()),
		postgres.Options{ConnectTimeout: 300 * time.Millisecond})
	require.Error(t, err)
	assert.ErrorIs(t, err, store.ErrUnavailable)
	assert.Less(t, time.Since(start), 3*time.Second)
}

func TestErrorsAreNotUnavailableForBadRequests(t *testing.T) {
	s := open(t, pgtest.Schema(t), postgres.Options{})
	// A NUL byte is rejected by PostgreSQL (it cannot be stored in text): a request fault, not an outage.
	err := s.Put(t.Context(), storetest.Rec("nul\x00", ""))
	require.Error(t, err)
	assert.False(t, errors.Is(err, store.ErrUnavailable), "%v", err)
}

// TestNotWritable: a server that refuses writes for lack of resources (here a trigger raising
// disk_full, SQLSTATE 53100, the code PostgreSQL gives when it cannot extend a file) gives
// ErrNotWritable, which is also ErrUnavailable (503), on writes and on the probe, while reads go on;
// once the server writes again, so do the store and its probe.
func TestNotWritable(t *testing.T) {
	dsn := pgtest.Schema(t)
	s := open(t, dsn, postgres.Options{})
	require.NoError(t, s.ProbeWrite(t.Context()))
	require.NoError(t, s.Put(t.Context(), storetest.Rec("a", "A")))

	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(t.Context(), `
CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
CREATE TRIGGER full_contacts BEFORE INSERT OR UPDATE OR DELETE ON contacts FOR EACH ROW EXECUTE FUNCTION refuse_writes();
CREATE TRIGGER full_probe BEFORE INSERT OR UPDATE ON write_probe FOR EACH ROW EXECUTE FUNCTION refuse_writes();`)
	require.NoError(t, err)

	err = s.Put(t.Context(), storetest.Rec("b", ""))
	assert.ErrorIs(t, err, store.ErrNotWritable)
	assert.ErrorIs(t, err, store.ErrUnavailable)
	_, err = s.Delete(t.Context(), "a")
	assert.ErrorIs(t, err, store.ErrNotWritable)
	_, err = s.Update(t.Context(), "a", func(r store.Record) (store.Record, error) { return r, nil })
	assert.ErrorIs(t, err, store.ErrNotWritable)
	assert.ErrorIs(t, s.ProbeWrite(t.Context()), store.ErrNotWritable)
	got, err := s.Get(t.Context(), "a")
	require.NoError(t, err, "reads go on")
	assert.Equal(t, "A", storetest.TextOf(got))

	_, err = conn.Exec(t.Context(), `DROP TRIGGER full_contacts ON contacts; DROP TRIGGER full_probe ON write_probe;`)
	require.NoError(t, err)
	require.NoError(t, s.ProbeWrite(t.Context()))
	require.NoError(t, s.Put(t.Context(), storetest.Rec("b", "")))
}
