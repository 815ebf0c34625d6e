package sqlite

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/contactsync/contactsync/server/store"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// The read path of Get.
//
// Get is the hot path of the service (every ReadContact). Through database/sql, and even through the
// driver's own driver.Stmt, a read paid for machinery it does not need: a pooled connection with its
// locks and context handling, a Rows object, the column names read out of the library again for every
// query, each column boxed in an interface and converted into the scan destination (BENCHMARKS.md,
// round 3). So Get runs on a fixed set of read connections that this file drives through SQLite's C
// API itself, as transpiled to Go by modernc.org/sqlite/lib (the library the driver wraps; no cgo):
// sqlite3_bind_text, sqlite3_step, sqlite3_column_text and sqlite3_reset on a statement prepared once
// per connection. Nothing else uses these connections; Ping and any other read go through the
// database/sql read pool, which stays as it was.
//
// The connections get the read pool's pragmas (query_only among them) plus mmap_size: SQLite then
// reads database pages through a memory mapping of the file instead of a pread system call and a copy
// into its page cache for each page it misses. Mapped pages are file-backed (RssFile), shared with
// the kernel's page cache and reclaimable, not anonymous memory of the process. (Each connection maps
// the file itself, so RSS counts a page once per connection that touched it; PSS counts it once.) Writes still go
// through the write connection with ordinary writes; in WAL mode they go to the log, and the
// checkpoint copies pages into the file only where no reader can still need the old ones (SQLite's
// rule, which mmap does not change).
//
// A connection is used by one goroutine at a time (taken from readers.free, given back after the
// read), so it is opened without SQLite's per-connection mutex (SQLITE_OPEN_NOMUTEX).
//
// A read transaction spans several Gets. Beginning and ending one took about half of a Get's
// instructions (the WAL index header read, a read-mark lock and its release, each lock an fcntl
// system call: BENCHMARKS.md), so a connection keeps its transaction, and with it its snapshot, from
// one Get to the next, and ends it when the snapshot could be out of date:
//
//   - at once after any write of this store commits: the committer counts its commits (commits), and a
//     Get whose connection began its transaction before the latest commit starts a new one, so a Get
//     that begins after a write was acknowledged always sees it (the commit is counted before the
//     write returns);
//   - after readTxMaxAge, so that writes of other processes on the same file (contactsync import
//     beside serve) are seen within that time, and so that no transaction holds back the log's
//     checkpoint longer: a connection left idle has its transaction ended by a sweep (readers.sweep).

// readTxMaxAge is the longest a read connection keeps one read transaction: the staleness bound for
// other processes' writes to the same file, and how long a reader may hold back a checkpoint.
const readTxMaxAge = 10 * time.Millisecond

// readMmapSize is each read connection's mmap_size: up to 1 GiB of the database file is read through
// the mapping (the 1,000,000-contact benchmark store is ~150 MiB); beyond it SQLite reads as usual.
// Virtual address space is cheap on 64-bit systems, and only pages touched become resident.
const readMmapSize = 1 << 30

// readPragmas are run on each read connection when it opens: the read pool's DSN pragmas and mmap.
var readPragmas = "PRAGMA busy_timeout = 10000; PRAGMA synchronous = FULL; PRAGMA foreign_keys = 1; " +
	fmt.Sprintf("PRAGMA mmap_size = %d; ", readMmapSize) + "PRAGMA query_only = 1;"

// getColumns is the number of columns getSQL returns.
const getColumns = 2

// readConn is one dedicated read connection, its prepared Get statement, and the C memory they use.
// It is heap-allocated and never copied: out receives pointers from the C API by its address, which
// must not be on a goroutine stack (a stack may move while the transpiled C code runs; the Go heap
// does not move).
type readConn struct {
	tls  *libc.TLS
	db   uintptr // sqlite3*
	stmt uintptr // sqlite3_stmt* of getSQL
	// id is a C buffer holding the bound id (sqlite3_bind_text with SQLITE_STATIC reads it until the
	// statement is reset); idCap is its size.
	id    uintptr
	idCap int
	out   uintptr // an out-parameter (sqlite3** or sqlite3_stmt**) for open and prepare
	// begin and end are prepared BEGIN and COMMIT statements: the read transaction a run of Gets
	// shares (see the comment at the top).
	begin, end uintptr
	// inTx reports that the connection is in a transaction begun at txSince, when the store had
	// made txCommits commits.
	inTx      bool
	txCommits uint64
	txSince   time.Time
}

// readers holds the dedicated read connections. done is closed by close, so a Get waiting for a
// connection gives up instead of waiting for one that will never come back.
type readers struct {
	free chan *readConn
	n    int
	done chan struct{}
	once sync.Once
	// commits counts the store's committed write transactions (groupcommit.go's commit).
	commits *atomic.Uint64
	// sweeping is set while a sweep is scheduled.
	sweeping atomic.Bool
}

// openReaders opens n read connections to the database file at the absolute path abs, whose schema
// the write connection has already migrated (and whose opening has initialised the library). commits
// is the store's count of committed writes.
func openReaders(abs string, n int, commits *atomic.Uint64) (*readers, error) {
	r := &readers{free: make(chan *readConn, n), done: make(chan struct{}), commits: commits}
	for range n {
		rc, err := openReadConn(abs)
		if err != nil {
			_ = r.close()
			return nil, err
		}
		r.free <- rc
		r.n++
	}
	return r, nil
}

func openReadConn(abs string) (rc *readConn, err error) {
	rc = &readConn{tls: libc.NewTLS()}
	defer func() {
		if err != nil {
			_ = rc.close()
		}
	}()
	name, err := libc.CString(abs)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(rc.tls, name)
	if rv := sqlite3.Xsqlite3_open_v2(rc.tls, name, uintptr(unsafe.Pointer(&rc.out)),
		sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_NOMUTEX, 0); rv != sqlite3.SQLITE_OK {
		rc.db = rc.out // open may return a handle holding the error; close frees it
		return nil, rc.errorf(rv, "open")
	}
	rc.db = rc.out
	sqlite3.Xsqlite3_extended_result_codes(rc.tls, rc.db, 1)
	if err := rc.exec(readPragmas); err != nil {
		return nil, err
	}
	for _, p := range []struct {
		stmt *uintptr
		sql  string
	}{{&rc.stmt, getSQL}, {&rc.begin, "BEGIN"}, {&rc.end, "COMMIT"}} {
		if *p.stmt, err = rc.prepare(p.sql); err != nil {
			return nil, err
		}
	}
	return rc, nil
}

// prepare compiles sql on the connection.
func (rc *readConn) prepare(sql string) (uintptr, error) {
	query, err := libc.CString(sql)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(rc.tls, query)
	rc.out = 0
	if rv := sqlite3.Xsqlite3_prepare_v2(rc.tls, rc.db, query, -1, uintptr(unsafe.Pointer(&rc.out)), 0); rv != sqlite3.SQLITE_OK {
		return 0, rc.errorf(rv, "prepare %q", sql)
	}
	return rc.out, nil
}

// run steps a statement that returns no rows (BEGIN, COMMIT) and resets it.
func (rc *readConn) run(stmt uintptr, what string) error {
	rv := sqlite3.Xsqlite3_step(rc.tls, stmt)
	sqlite3.Xsqlite3_reset(rc.tls, stmt)
	if rv != sqlite3.SQLITE_DONE {
		return rc.errorf(rv, "%s", what)
	}
	return nil
}

// endTx ends the connection's read transaction, if it has one. A COMMIT of a read transaction cannot
// lose anything; should it fail, the connection's autocommit state tells whether it is still in one.
func (rc *readConn) endTx() {
	if !rc.inTx {
		return
	}
	_ = rc.run(rc.end, "end the read transaction")
	rc.inTx = sqlite3.Xsqlite3_get_autocommit(rc.tls, rc.db) == 0
}

// exec runs sql (statements returning no rows that matter) on the connection.
func (rc *readConn) exec(sql string) error {
	p, err := libc.CString(sql)
	if err != nil {
		return err
	}
	defer libc.Xfree(rc.tls, p)
	if rv := sqlite3.Xsqlite3_exec(rc.tls, rc.db, p, 0, 0, 0); rv != sqlite3.SQLITE_OK {
		return rc.errorf(rv, "%s", sql)
	}
	return nil
}

// cError is a failure SQLite reported on a dedicated read connection.
type cError struct {
	op   string
	code int32
	msg  string
}

func (e *cError) Error() string { return fmt.Sprintf("%s: %s (%d)", e.op, e.msg, e.code) }

// Code returns SQLite's result code, as the driver's *sqlite.Error does.
func (e *cError) Code() int { return int(e.code) }

// errorf returns a *cError carrying SQLite's message for the connection's last failure and its code.
func (rc *readConn) errorf(code int32, format string, args ...any) error {
	msg := "out of memory"
	if rc.db != 0 {
		msg = libc.GoString(sqlite3.Xsqlite3_errmsg(rc.tls, rc.db))
	}
	return &cError{op: fmt.Sprintf(format, args...), code: code, msg: msg}
}

var errClosed = errors.New("store is closed")

// read reads the record with the given key on a dedicated read connection. If SQLite reports an
// error there (a disk or I/O failure, a busy timeout), the read is made again through the database/sql
// read pool: its errors are the driver's *sqlite.Error, the type callers classify failures by (a store
// that cannot read or write is Unavailable, not an internal error), and which cannot be built outside
// the driver. Such errors are rare, so the second path costs nothing in normal operation.
func (s *Store) read(key string) (store.Record, error) {
	r, err := s.reads.get(key)
	var ce *cError
	if errors.As(err, &ce) {
		return scanRow(key, s.get.QueryRowContext(context.Background(), key))
	}
	return r, err
}

// get reads the record with the given key. It runs without the caller's cancellation, as Get
// documents: a read takes microseconds.
func (r *readers) get(key string) (store.Record, error) {
	var rc *readConn
	select {
	case rc = <-r.free:
	case <-r.done:
		return store.Record{}, errClosed
	}
	c, err := rc.get(key, r.commits.Load())
	open := rc.inTx
	r.free <- rc
	if open {
		r.scheduleSweep()
	}
	return c, err
}

// scheduleSweep makes sure a sweep runs readTxMaxAge from now, unless one is already scheduled.
func (r *readers) scheduleSweep() {
	if r.sweeping.CompareAndSwap(false, true) {
		time.AfterFunc(readTxMaxAge, r.sweep)
	}
}

// sweep ends the read transactions that idle connections have held for readTxMaxAge or longer, and
// comes back while any connection may still hold one: a connection in use now is looked at next
// time (or its Get schedules the next sweep).
func (r *readers) sweep() {
	select {
	case <-r.done:
		return
	default:
	}
	var idle []*readConn
	for len(idle) < r.n {
		select {
		case rc := <-r.free:
			idle = append(idle, rc)
			continue
		default:
		}
		break
	}
	open := len(idle) < r.n
	now := time.Now()
	for _, rc := range idle {
		if rc.inTx && now.Sub(rc.txSince) >= readTxMaxAge {
			rc.endTx()
		}
		open = open || rc.inTx
		r.free <- rc
	}
	r.sweeping.Store(false)
	if open {
		r.scheduleSweep()
	}
}

// get reads the record with the given key in the connection's read transaction, first ending it when
// its snapshot may be out of date (the store committed since it began, or it is readTxMaxAge old) and
// beginning one if there is none. commits is the store's count of commits, read before the snapshot
// is taken (by the step), so the snapshot holds at least those commits.
func (rc *readConn) get(key string, commits uint64) (store.Record, error) {
	now := time.Now()
	if rc.inTx && (rc.txCommits != commits || now.Sub(rc.txSince) >= readTxMaxAge) {
		rc.endTx()
	}
	if !rc.inTx {
		if err := rc.run(rc.begin, "begin a read transaction"); err != nil {
			return store.Record{}, err
		}
		rc.inTx, rc.txCommits, rc.txSince = true, commits, now
	}
	if err := rc.bindID(key); err != nil {
		return store.Record{}, err
	}
	// Resetting the statement frees its cursor; the read transaction stays until endTx.
	defer sqlite3.Xsqlite3_reset(rc.tls, rc.stmt)
	switch rv := sqlite3.Xsqlite3_step(rc.tls, rc.stmt); rv {
	case sqlite3.SQLITE_ROW:
	case sqlite3.SQLITE_DONE:
		return store.Record{}, store.ErrNotFound
	default:
		err := rc.errorf(rv, "get")
		sqlite3.Xsqlite3_reset(rc.tls, rc.stmt)
		rc.endTx() // the next Get starts afresh
		return store.Record{}, err
	}
	// The columns are copied out of SQLite (their bytes are SQLite's only until the reset) into one
	// allocation that the index and the document share: one allocation per read.
	var (
		ptr  [getColumns]uintptr
		size [getColumns]int
	)
	total := 0
	for i := range ptr {
		// Both columns are TEXT NOT NULL in a STRICT table (migrations/0004); anything else means the
		// file is not the schema this store wrote.
		if t := sqlite3.Xsqlite3_column_type(rc.tls, rc.stmt, int32(i)); t != sqlite3.SQLITE_TEXT {
			return store.Record{}, fmt.Errorf("get: column %d has type %d, not text", i, t)
		}
		ptr[i] = sqlite3.Xsqlite3_column_text(rc.tls, rc.stmt, int32(i))
		size[i] = int(sqlite3.Xsqlite3_column_bytes(rc.tls, rc.stmt, int32(i)))
		total += size[i]
	}
	r := store.Record{Key: key}
	if total > 0 {
		buf := make([]byte, 0, total)
		for i := range ptr {
			if size[i] > 0 {
				buf = append(buf, libc.GoBytes(ptr[i], size[i])...)
			}
		}
		// The index is a string over the buffer's head, never written again; the document is its
		// tail, capped so that appending to it cannot reach into the index.
		r.Index = unsafe.String(unsafe.SliceData(buf), size[0])
		r.Doc = buf[size[0]:total:total]
	}
	return r, nil
}

// bindID copies id into the connection's C buffer, growing it if needed, and binds it.
func (rc *readConn) bindID(id string) error {
	if rc.id == 0 || len(id) > rc.idCap { // allocated even for "": a nil pointer would bind NULL
		size := max(64, len(id))
		p := libc.Xrealloc(rc.tls, rc.id, types.Size_t(size))
		if p == 0 {
			return errors.New("get: out of memory")
		}
		rc.id, rc.idCap = p, size
	}
	if len(id) > 0 {
		copy(libc.GoBytes(rc.id, len(id)), id)
	}
	// SQLITE_STATIC (0): SQLite reads the buffer in place; it stays unchanged until the next bind.
	if rv := sqlite3.Xsqlite3_bind_text(rc.tls, rc.stmt, 1, rc.id, int32(len(id)), 0); rv != sqlite3.SQLITE_OK {
		return rc.errorf(rv, "get: bind")
	}
	return nil
}

// close ends the read transaction, finalizes the statements, closes the connection and frees the C
// memory.
func (rc *readConn) close() error {
	var err error
	if rc.db != 0 {
		rc.endTx()
	}
	for _, stmt := range []*uintptr{&rc.stmt, &rc.begin, &rc.end} {
		if *stmt != 0 {
			sqlite3.Xsqlite3_finalize(rc.tls, *stmt)
			*stmt = 0
		}
	}
	if rc.db != 0 {
		if rv := sqlite3.Xsqlite3_close_v2(rc.tls, rc.db); rv != sqlite3.SQLITE_OK {
			err = fmt.Errorf("close: SQLite error %d", rv)
		}
		rc.db = 0
	}
	if rc.id != 0 {
		libc.Xfree(rc.tls, rc.id)
		rc.id = 0
	}
	rc.tls.Close()
	return err
}

// close waits for every connection to come back from the read it serves, then closes them all.
// Later calls return nil.
func (r *readers) close() error {
	var errs []error
	r.once.Do(func() {
		close(r.done)
		for range r.n {
			errs = append(errs, (<-r.free).close())
		}
	})
	return errors.Join(errs...)
}
