package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/contactsync/contactsync/server/store"

	moderncsqlite "modernc.org/sqlite"
)

// The read path of Get.
//
// Get is the hot path of the service (every ReadContact), and database/sql's machinery around a
// query (taking a pooled connection, a Rows with its own locks and context watching, converting
// each column into the scan destination) was a good part of its cost (BENCHMARKS.md). So Get runs on
// a fixed set of read connections opened through the driver directly, each holding the compiled
// SELECT, and reads the row's values straight from the driver. Nothing else uses these connections;
// Ping and any other read still go through the database/sql read pool, which stays as it was.
//
// The connections are opened like the pool's (query_only, the same pragmas) plus mmap_size: SQLite
// then reads database pages through a memory mapping of the file instead of a pread system call and
// a copy into its page cache for each page it misses. Mapped pages are file-backed (RssFile), shared
// with the kernel's page cache and reclaimable, not anonymous memory of the process. Writes still go
// through the write connection with ordinary writes, so a mapping never sees a torn page: WAL mode
// writes pages to the log, and the checkpoint copies them into the file while no reader uses an older
// frame (SQLite's own rule, unchanged by mmap).

// readMmapSize is each read connection's mmap_size: up to 1 GiB of the database file is read through
// the mapping (the 1,000,000-contact benchmark store is ~150 MiB); beyond it SQLite reads as usual.
// Virtual address space is cheap on 64-bit systems, and only pages touched become resident.
const readMmapSize = 1 << 30

// readConn is one dedicated read connection and its prepared Get statement. It is used by one
// goroutine at a time: it is taken from readers.free and given back after the read.
type readConn struct {
	conn driver.Conn
	get  driver.StmtQueryContext
	args [1]driver.NamedValue
	dest [8]driver.Value // one per column of getSQL
}

// readers holds the dedicated read connections. done is closed by close, so a Get waiting for a
// connection gives up instead of waiting for one that will never come back.
type readers struct {
	free chan *readConn
	n    int
	done chan struct{}
	once sync.Once
}

// openReaders opens n read connections to the database file at the absolute path abs, whose
// schema the write connection has already migrated.
func openReaders(ctx context.Context, abs string, n int) (*readers, error) {
	r := &readers{free: make(chan *readConn, n), done: make(chan struct{})}
	name := dsn(abs, busyTimeout, "_pragma=synchronous(FULL)", "_pragma=foreign_keys(1)", "_pragma=query_only(1)",
		fmt.Sprintf("_pragma=mmap_size(%d)", readMmapSize))
	for range n {
		rc, err := openReadConn(ctx, name)
		if err != nil {
			_ = r.close()
			return nil, err
		}
		r.free <- rc
		r.n++
	}
	return r, nil
}

func openReadConn(ctx context.Context, name string) (*readConn, error) {
	conn, err := (&moderncsqlite.Driver{}).Open(name)
	if err != nil {
		return nil, err
	}
	stmt, err := conn.(driver.ConnPrepareContext).PrepareContext(ctx, getSQL)
	if err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("prepare %q: %w", getSQL, err)
	}
	query, ok := stmt.(driver.StmtQueryContext)
	if !ok {
		_ = stmt.Close()
		_ = conn.Close()
		return nil, errors.New("the driver's statements do not implement driver.StmtQueryContext")
	}
	rc := &readConn{conn: conn, get: query}
	rc.args[0].Ordinal = 1
	return rc, nil
}

var errClosed = errors.New("store is closed")

// get reads the contact with the given id. It runs without the caller's cancellation, as Get
// documents: a read takes microseconds, and a cancellable context would make the driver arm an
// interrupt with a goroutine for each query.
func (r *readers) get(id string) (store.Contact, error) {
	var rc *readConn
	select {
	case rc = <-r.free:
	case <-r.done:
		return store.Contact{}, errClosed
	}
	defer func() { r.free <- rc }()
	rc.args[0].Value = id
	rows, err := rc.get.QueryContext(context.Background(), rc.args[:])
	if err != nil {
		return store.Contact{}, err
	}
	// Closing the rows resets the statement, which ends the read transaction: it must not stay open,
	// or it would hold back checkpoints and hide later writes from this connection.
	c, err := scanDriverRow(rows, rc.dest[:])
	if cerr := rows.Close(); err == nil && cerr != nil {
		return store.Contact{}, cerr
	}
	clear(rc.dest[:]) // let the strings go with the request
	return c, err
}

// scanDriverRow reads the first row of rows (getSQL's columns) into a contact.
func scanDriverRow(rows driver.Rows, dest []driver.Value) (store.Contact, error) {
	if err := rows.Next(dest); err != nil {
		if errors.Is(err, io.EOF) {
			return store.Contact{}, store.ErrNotFound
		}
		return store.Contact{}, err
	}
	var text [8]string
	for i, v := range dest {
		// Every column is TEXT NOT NULL in a STRICT table (migrations/0001), so the driver hands back
		// strings; anything else means the file is not the schema this store wrote.
		s, ok := v.(string)
		if !ok {
			return store.Contact{}, fmt.Errorf("column %d holds %T, not text", i, v)
		}
		text[i] = s
	}
	c := store.Contact{ID: text[0], AccountID: text[1], FirstName: text[2], LastName: text[3],
		PhoneMobile: text[4], PhoneWork: text[5], EmailAddress: text[6]}
	var err error
	if c.RoleIDs, err = decodeRoles(text[7]); err != nil {
		return store.Contact{}, err
	}
	return c, nil
}

// close waits for every connection to come back from the read it serves, then closes them all.
// Later calls return nil.
func (r *readers) close() error {
	var errs []error
	r.once.Do(func() {
		close(r.done)
		for range r.n {
			rc := <-r.free
			errs = append(errs, rc.get.(driver.Stmt).Close(), rc.conn.Close())
		}
	})
	return errors.Join(errs...)
}
