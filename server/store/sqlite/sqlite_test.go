package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// tempPath returns the path of a not yet existing database file in a fresh temporary directory.
func tempPath(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "contacts.db")
}

// open opens the store at path and closes it when the test ends.
func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// rawDB opens path with the bare driver, to inspect or tamper with the database behind the store.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// latestVersion is the newest migration this binary carries.
func latestVersion(t *testing.T) int {
	t.Helper()
	ms, err := migrate.Load(sqlite.Migrations())
	require.NoError(t, err)
	require.NotEmpty(t, ms)
	return ms[len(ms)-1].Version
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := sqlite.Open(t.Context(), tempPath(t))
		require.NoError(t, err)
		return s
	})
}

func TestFields(t *testing.T) {
	storetest.RunFields(t, func(t *testing.T) storetest.FieldStore {
		s, err := sqlite.Open(t.Context(), tempPath(t))
		require.NoError(t, err)
		return s
	})
}

func TestDataPersistsAcrossReopen(t *testing.T) {
	path := tempPath(t)
	c := storetest.RecIn("c1", "a", `Zoë 🙂 <&"'>`)
	s, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	require.NoError(t, s.Put(t.Context(), c))
	require.NoError(t, s.Put(t.Context(), storetest.Rec("gone", "")))
	_, err = s.Delete(t.Context(), "gone")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	require.NoError(t, s.Close(), "a second Close")

	s = open(t, path)
	got, err := s.Get(t.Context(), "c1")
	require.NoError(t, err)
	assert.Equal(t, c.Index, got.Index)
	assert.Equal(t, string(c.Doc), string(got.Doc), "SQLite keeps the document as given")
	_, err = s.Get(t.Context(), "gone")
	assert.ErrorIs(t, err, store.ErrNotFound)
}

func TestPathsNeedingEscapes(t *testing.T) {
	for _, name := range []string{"a?b.db", "a#b.db", "a%20b.db", "a b&c=d.db", "ünï 🙂.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			s, err := sqlite.Open(t.Context(), path)
			require.NoError(t, err)
			require.NoError(t, s.Put(t.Context(), storetest.Rec("x", "")))
			require.NoError(t, s.Close())

			_, err = os.Stat(path)
			require.NoError(t, err, "the database file has the exact name asked for")
			s = open(t, path)
			_, err = s.Get(t.Context(), "x")
			require.NoError(t, err)
		})
	}
}

func TestOpenRejectsNonFilePaths(t *testing.T) {
	for _, path := range []string{"", ":memory:", "file:x.db?mode=memory"} {
		_, err := sqlite.Open(t.Context(), path)
		assert.Error(t, err, "Open(%q)", path)
	}
}

func TestOpenFailsInMissingDirectory(t *testing.T) {
	_, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "missing", "contacts.db"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sqlite: open")
}

func TestMigrationsAppliedOnce(t *testing.T) {
	path := tempPath(t)
	s, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	require.NoError(t, s.Put(t.Context(), storetest.Rec("kept", "")))
	require.NoError(t, s.Close())

	type row struct {
		Version   int
		AppliedAt string
	}
	applied := func() []row {
		rows, err := rawDB(t, path).QueryContext(t.Context(),
			`SELECT version, applied_at FROM schema_migrations ORDER BY version`)
		require.NoError(t, err)
		defer rows.Close()
		var rs []row
		for rows.Next() {
			var r row
			require.NoError(t, rows.Scan(&r.Version, &r.AppliedAt))
			rs = append(rs, r)
		}
		require.NoError(t, rows.Err())
		return rs
	}
	first := applied()
	require.Len(t, first, latestVersion(t), "one row per embedded migration")
	for i, r := range first {
		assert.Equal(t, i+1, r.Version)
		assert.NotEmpty(t, r.AppliedAt)
	}

	for range 2 {
		s, err = sqlite.Open(t.Context(), path)
		require.NoError(t, err, "reopening an up-to-date database")
		_, err = s.Get(t.Context(), "kept")
		require.NoError(t, err, "data survives the reopen (the table was not recreated)")
		require.NoError(t, s.Close())
	}
	assert.Equal(t, first, applied(), "reopening applied nothing")
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := tempPath(t)
	s, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	known := latestVersion(t)
	newer := known + 41
	db := rawDB(t, path)
	_, err = db.ExecContext(t.Context(),
		`INSERT INTO schema_migrations (version, applied_at) VALUES (?, '2099-01-01T00:00:00Z')`, newer)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	_, err = sqlite.Open(t.Context(), path)
	require.Error(t, err)
	var tooNew *migrate.SchemaTooNewError
	require.ErrorAs(t, err, &tooNew)
	assert.Equal(t, newer, tooNew.Database)
	assert.Equal(t, known, tooNew.Known)
	assert.Contains(t, err.Error(),
		fmt.Sprintf("database schema version %d is newer than this binary knows (%d)", newer, known))
}

func TestFileIsInWALMode(t *testing.T) {
	path := tempPath(t)
	s := open(t, path)
	require.NoError(t, s.Put(t.Context(), storetest.Rec("x", "")))

	// The journal mode is a property of the file, visible to any connection. The per-connection
	// pragmas are checked by the internal test TestPragmasOnEveryConnection.
	var mode string
	require.NoError(t, rawDB(t, path).QueryRowContext(t.Context(), `PRAGMA journal_mode`).Scan(&mode))
	assert.Equal(t, "wal", mode)
}

func TestUpdateRejectsIDChange(t *testing.T) {
	s := open(t, tempPath(t))
	require.NoError(t, s.Put(t.Context(), storetest.Rec("a", "A")))
	_, err := s.Update(t.Context(), "a", func(r store.Record) (store.Record, error) {
		return storetest.Rec("b", "B"), nil
	})
	require.Error(t, err)
	got, err := s.Get(t.Context(), "a")
	require.NoError(t, err)
	assert.Equal(t, "A", storetest.TextOf(got))
	_, err = s.Get(t.Context(), "b")
	assert.ErrorIs(t, err, store.ErrNotFound)
}

func TestCanceledContext(t *testing.T) {
	s := open(t, tempPath(t))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.Error(t, s.Put(ctx, storetest.Rec("x", "")), "Put")
	_, err := s.Update(ctx, "x", func(r store.Record) (store.Record, error) { return r, nil })
	assert.Error(t, err, "Update")
	_, err = s.Get(t.Context(), "x")
	assert.ErrorIs(t, err, store.ErrNotFound, "nothing was written")
}

func TestMethodsAfterCloseFail(t *testing.T) {
	s, err := sqlite.Open(t.Context(), tempPath(t))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.Error(t, s.Put(t.Context(), storetest.Rec("x", "")))
	_, err = s.Get(t.Context(), "x")
	assert.Error(t, err)
	assert.NotErrorIs(t, err, store.ErrNotFound)
	assert.Error(t, s.Ping(t.Context()))
}

// benchContact is a realistic record for the benchmarks: a document the size and shape of the
// contract's record codec's.
func benchContact(id string) store.Record {
	return store.Record{Key: id, Index: "account-42", Doc: []byte(`{"Id":"` + id +
		`","AccountId":"account-42","FirstName":"Zoë","LastName":"Łukasiewicz","PhoneMobile":"+49 30 1234567",` +
		`"PhoneWork":"+49 30 7654321","EmailAddress":"zoe@example.com","RoleIds":["admin","sales","support"]}`)}
}

func BenchmarkGet(b *testing.B) {
	s := open(b, tempPath(b))
	const n = 1000
	for i := range n {
		require.NoError(b, s.Put(b.Context(), benchContact(fmt.Sprintf("c%d", i))))
	}
	b.Run("Serial", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := s.Get(b.Context(), fmt.Sprintf("c%d", i%n)); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("Parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := s.Get(context.Background(), fmt.Sprintf("c%d", i%n)); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
}

// BenchmarkPut measures durable writes; each one fsyncs the write-ahead log, so the result mostly
// reflects the disk under the temporary directory.
func BenchmarkPut(b *testing.B) {
	s := open(b, tempPath(b))
	i := 0
	for b.Loop() {
		if err := s.Put(b.Context(), benchContact(fmt.Sprintf("c%d", i%1000))); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
