package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/storetest"
)

// pragmaOn runs "PRAGMA name" on a dedicated read connection and returns its one integer.
func pragmaOn(t *testing.T, rc *readConn, name string) int64 {
	t.Helper()
	query, err := libc.CString("PRAGMA " + name)
	require.NoError(t, err)
	defer libc.Xfree(rc.tls, query)
	// The out-parameter must not be on the goroutine's stack, which may move during the call: rc.out
	// is a field of a heap object, as openReadConn uses it.
	rc.out = 0
	require.Equal(t, int32(sqlite3.SQLITE_OK), sqlite3.Xsqlite3_prepare_v2(rc.tls, rc.db, query, -1, uintptr(unsafe.Pointer(&rc.out)), 0), name)
	stmt := rc.out
	defer sqlite3.Xsqlite3_finalize(rc.tls, stmt)
	require.Equal(t, int32(sqlite3.SQLITE_ROW), sqlite3.Xsqlite3_step(rc.tls, stmt), name)
	return sqlite3.Xsqlite3_column_int64(rc.tls, stmt, 0)
}

// TestReadConnectionPragmas checks every dedicated read connection has the read pool's pragmas and a
// working memory mapping (a build of SQLite without mmap support would report 0).
func TestReadConnectionPragmas(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	want := map[string]int64{"synchronous": 2, "foreign_keys": 1, "busy_timeout": 10000, "query_only": 1, "mmap_size": readMmapSize}
	var held []*readConn
	for range s.reads.n {
		held = append(held, <-s.reads.free)
	}
	require.GreaterOrEqual(t, len(held), 4)
	for i, rc := range held {
		for name, v := range want {
			assert.Equal(t, v, pragmaOn(t, rc, name), "connection %d: PRAGMA %s", i, name)
		}
	}
	for _, rc := range held {
		s.reads.free <- rc
	}
}

// TestGetEndsItsReadTransaction checks a Get leaves no read transaction open on its connection: after
// reads on every connection, a TRUNCATE checkpoint (which must wait for every reader of the log)
// completes at once and empties the log.
func TestGetEndsItsReadTransaction(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	ctx := t.Context()
	for i := range 20 {
		require.NoError(t, s.Put(ctx, storetest.Rec(fmt.Sprintf("c%d", i), "x")))
	}
	var wg sync.WaitGroup
	for g := range 4 * s.reads.n {
		wg.Go(func() {
			for i := range 50 {
				_, err := s.Get(ctx, fmt.Sprintf("c%d", (g+i)%25)) // some ids are unknown: the not-found path too
				if err != nil {
					assert.ErrorIs(t, err, store.ErrNotFound)
				}
			}
		})
	}
	wg.Wait()
	var busy, logFrames, checkpointed int
	require.NoError(t, s.w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &checkpointed))
	assert.Zero(t, busy, "no reader held the log")
	assert.Zero(t, logFrames, "the log was emptied")
	// A write after the checkpoint is seen by every connection's next read.
	require.NoError(t, s.Put(ctx, storetest.Rec("c0", "changed")))
	for range 2 * s.reads.n {
		c, err := s.Get(ctx, "c0")
		require.NoError(t, err)
		assert.Equal(t, "changed", storetest.TextOf(c))
	}
}

// TestCloseWhileReading closes the store while Gets run: each Get either reads the contact or fails
// with an error that is not ErrNotFound, and none is left waiting.
func TestCloseWhileReading(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	require.NoError(t, s.Put(t.Context(), storetest.Rec("c", "x")))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 32 {
		wg.Go(func() {
			<-start
			for range 100 {
				c, err := s.Get(context.Background(), "c")
				if err != nil {
					assert.NotErrorIs(t, err, store.ErrNotFound)
					return
				}
				assert.Equal(t, "x", storetest.TextOf(c))
			}
		})
	}
	close(start)
	require.NoError(t, s.Close())
	wg.Wait()
	_, err = s.Get(context.Background(), "c")
	assert.ErrorIs(t, err, errClosed)
}

// TestGetIDsOfAnyShape reads back contacts whose ids and fields need the id buffer to grow, hold
// non-ASCII text or an embedded NUL, or are empty: the C-level read must return exactly what was
// written, as database/sql did.
func TestGetIDsOfAnyShape(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	long := strings.Repeat("l", 5000)
	for _, c := range []struct {
		name string
		c    store.Record
	}{
		// First, so that it is each connection's first read: an empty id must bind as '' (an
		// allocated buffer), not as NULL (a nil pointer), or it would never be found.
		{"empty id", storetest.Rec("", "nobody")},
		{"short", storetest.Rec("a", "Zoë")},
		{"63 bytes", storetest.Rec(strings.Repeat("x", 63), "")},
		{"64 bytes", storetest.Rec(strings.Repeat("x", 64), "")},
		{"65 bytes", storetest.Rec(strings.Repeat("x", 65), "r\"2")},
		{"long", storetest.RecIn(long, long, long)},
		{"non-ASCII", storetest.RecIn("ид-😀", "€", "+49 30 1")},
		{"empty index", storetest.RecIn("no index", "", "x")},
		{"NUL", storetest.RecIn("a\x00b", "i\x00j", "x\x00y")},
		{"empty document", store.Record{Key: "empty document", Index: "i", Doc: []byte{}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, s.Put(t.Context(), c.c))
			// Read on every connection, shortest ids after longest, so each buffer is reused.
			for range 2 * s.reads.n {
				got, err := s.Get(t.Context(), c.c.Key)
				require.NoError(t, err)
				assert.Equal(t, c.c, got)
			}
			_, err := s.Get(t.Context(), c.c.Key+"-unknown")
			assert.ErrorIs(t, err, store.ErrNotFound)
		})
	}
}

// TestReadErrorTakesTheDriverPath breaks the statement of every dedicated read connection (its step
// fails with "integer overflow") and checks that Get still answers, through the database/sql read
// pool, whose errors are the driver's typed ones.
func TestReadErrorTakesTheDriverPath(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	want := storetest.Rec("c", "x")
	require.NoError(t, s.Put(t.Context(), want))

	failing := getSQL + " AND abs(-9223372036854775808) IS NOT NULL"
	query, err := libc.CString(failing)
	require.NoError(t, err)
	var held []*readConn
	for range s.reads.n {
		rc := <-s.reads.free
		held = append(held, rc)
		rc.out = 0
		require.Equal(t, int32(sqlite3.SQLITE_OK), sqlite3.Xsqlite3_prepare_v2(rc.tls, rc.db, query, -1, uintptr(unsafe.Pointer(&rc.out)), 0))
		sqlite3.Xsqlite3_finalize(rc.tls, rc.stmt)
		rc.stmt = rc.out
	}
	libc.Xfree(held[0].tls, query) // prepare copied the SQL
	_, err = held[0].get("c", s.commits.Load())
	var ce *cError
	require.ErrorAs(t, err, &ce, "the broken statement fails on the C path")
	assert.Equal(t, int32(sqlite3.SQLITE_ERROR), ce.code&0xff)
	for _, rc := range held {
		s.reads.free <- rc
	}

	for range 2 * s.reads.n {
		got, err := s.Get(t.Context(), "c")
		require.NoError(t, err, "answered through the database/sql pool")
		assert.Equal(t, want, got)
	}
	_, err = s.Get(t.Context(), "unknown")
	assert.ErrorIs(t, err, store.ErrNotFound)
}

// TestGetSeesEveryCommitAtOnce: a read connection keeps its read transaction across Gets, but a Get
// that begins after a write of this store returned reads in a snapshot that holds it, on every
// connection, whichever write path it took (Put, Update, Delete, WriteBatch).
func TestGetSeesEveryCommitAtOnce(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	ctx := t.Context()
	readAll := func(want string) {
		t.Helper()
		for range 2 * s.reads.n { // the free channel hands the connections out in turn
			c, err := s.Get(ctx, "c")
			if want == "" {
				require.ErrorIs(t, err, store.ErrNotFound)
				continue
			}
			require.NoError(t, err)
			require.Equal(t, want, storetest.TextOf(c))
		}
	}
	for i := range 20 {
		v := fmt.Sprint("put-", i)
		require.NoError(t, s.Put(ctx, storetest.Rec("c", v)))
		readAll(v)
		v = fmt.Sprint("update-", i)
		_, err := s.Update(ctx, "c", func(r store.Record) (store.Record, error) { return storetest.WithText(r, v), nil })
		require.NoError(t, err)
		readAll(v)
		v = fmt.Sprint("batch-", i)
		_, err = s.WriteBatch(ctx, []store.Record{storetest.Rec("c", v)}, store.Upsert)
		require.NoError(t, err)
		readAll(v)
		_, err = s.Delete(ctx, "c")
		require.NoError(t, err)
		readAll("")
	}
}

// TestGetSeesOtherWritersWithinMaxAge: a write of another store on the same file (another process,
// such as contactsync import beside serve) is not counted by this store, and is seen by every
// connection once readTxMaxAge has passed since it returned.
func TestGetSeesOtherWritersWithinMaxAge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contacts.db")
	s, err := Open(t.Context(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	other, err := Open(t.Context(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = other.Close() })
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, storetest.Rec("c", "first")))
	for i := range 10 {
		for range 2 * s.reads.n { // every connection in a read transaction
			_, err := s.Get(ctx, "c")
			require.NoError(t, err)
		}
		v := fmt.Sprint("other-", i)
		require.NoError(t, other.Put(ctx, storetest.Rec("c", v)))
		time.Sleep(readTxMaxAge)
		for range 2 * s.reads.n {
			c, err := s.Get(ctx, "c")
			require.NoError(t, err)
			require.Equal(t, v, storetest.TextOf(c), "seen readTxMaxAge after the other store's write")
		}
	}
}

// TestIdleConnectionsEndTheirReadTransactions: connections left idle do not keep their read
// transactions (which would hold back the log's checkpoint): a sweep ends them.
func TestIdleConnectionsEndTheirReadTransactions(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	require.NoError(t, s.Put(t.Context(), storetest.Rec("c", "x")))
	inTx := func() (n int) {
		var held []*readConn
		for range s.reads.n {
			rc := <-s.reads.free
			held = append(held, rc)
			if rc.inTx {
				n++
			}
		}
		for _, rc := range held {
			s.reads.free <- rc
		}
		return n
	}
	for range 2 * s.reads.n {
		_, err := s.Get(t.Context(), "c")
		require.NoError(t, err)
	}
	require.Positive(t, inTx(), "reads leave their transactions open for the next Get")
	for deadline := time.Now().Add(time.Minute); inTx() > 0; time.Sleep(readTxMaxAge) {
		require.True(t, time.Now().Before(deadline), "the idle connections' transactions were never ended")
	}
}
