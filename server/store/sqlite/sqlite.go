// Package sqlite implements store.Store on a single SQLite database file, using the pure-Go driver
// modernc.org/sqlite so the server builds without cgo.
//
// # Durability and concurrency
//
// Every connection is opened with these pragmas (as DSN _pragma parameters, so each connection the
// database/sql pool creates gets them, not just the first):
//
//   - journal_mode(WAL): readers never block the writer or each other, and a commit is one append to
//     the write-ahead log.
//   - synchronous(FULL): the log is fsynced at every commit, so a write that returned nil survives the
//     process being killed (and the machine losing power) right after.
//   - busy_timeout(10000): a connection that finds the database locked (by another process, or by a
//     checkpoint) waits up to ten seconds instead of failing at once with SQLITE_BUSY.
//   - foreign_keys(1): enforced, so future migrations can rely on them.
//   - journal_size_limit (the write connection's): with a checkpoint that waits for readers when the
//     log grows past a size, it keeps the -wal file small under sustained load (walsize.go).
//
// A database file the store creates is created with mode 0600 first, so its -wal and -shm files get
// that mode too (filemode.go).
//
// Writes go through a pool of exactly one connection, so they are serialized in Go rather than by
// SQLite's busy-wait retry loop. One committer goroutine runs them, batching concurrent writes into
// one transaction and one fsync (group commit, see groupcommit.go). Every write transaction starts
// with BEGIN IMMEDIATE (DSN _txlock=immediate): it takes the write lock before reading, so a
// read-modify-write transaction can never fail to upgrade its lock, even against another process. Reads use separate read-only
// (query_only) connections, which WAL lets run alongside the writer: Get a fixed set driven through
// SQLite's C API directly, with memory-mapped reads (reader.go), and Ping a database/sql pool.
//
// # Stored form
//
// Each record is one row of the contacts table: its key (id), its indexed value (index_value, with the
// index contacts_by_index on (index_value, id) behind ListByIndex) and its document (doc, the record's
// canonical JSON as TEXT, kept as given: the store never parses it on its hot paths). The field paths
// the records may hold are in record_fields (fields.go). See docs/data.md for why.
//
// The schema is created and upgraded by the embedded migrations/NNNN_name.sql files, applied by
// package migrate when Open runs (and by Migrate, over the writer's connection settings alone).
//
// # As the commands see it
//
// Backend (backend.go) is this store in the registry of store backends (package stores): --store
// sqlite:PATH, the checks of PATH before SQLite opens it (files.go), the removal of the files a failed
// command created, one serve per file (servelock) and the online backup.
package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"

	// The driver registers itself as "sqlite".
	_ "modernc.org/sqlite"
)

// migrationFiles holds the schema migrations; Open applies the ones the database lacks.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations returns the embedded schema migrations (NNNN_name.sql files at the root of the returned
// file system). It is exported so that tools and tests can inspect the schema a binary carries, for
// example to tell which version it expects.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		// fs.Sub only fails for an invalid directory name, and "migrations" is valid.
		panic(err)
	}
	return sub
}

// busyTimeout is the pragma making a connection wait up to ten seconds for a lock held elsewhere
// before giving up with SQLITE_BUSY.
const busyTimeout = "_pragma=busy_timeout(10000)"

// SQL of the statements the store prepares once, at Open, for the hot paths. Since modernc.org/sqlite
// v1.41 a prepared statement keeps its compiled SQLite statement across executions; before, every
// execution parsed and planned the SQL again, which was a fifth of a ReadContact's CPU time
// (BENCHMARKS.md).
const (
	// getSQL reads a record's index and document by key; the key is the caller's.
	getSQL = `SELECT index_value, doc FROM contacts WHERE id = ?`

	// putSQL creates or replaces a record. On a conflict it rewrites the document only, and only when
	// the account is unchanged: SQLite maintains an index whose column a SET names even when the value
	// stays the same (a delete and an insert in contacts_by_index), so setting index_value on every
	// replacement would cost every TestCreateContact of a stored contact two index writes for nothing.
	// When the account did change, the statement changes no row and Put runs moveSQL.
	putSQL = `INSERT INTO contacts (id, index_value, doc) VALUES (?, ?, ?)
ON CONFLICT (id) DO UPDATE SET doc = excluded.doc WHERE index_value = excluded.index_value`

	// moveSQL replaces a record whose account changes: the index entry moves.
	moveSQL = `UPDATE contacts SET index_value = ?, doc = ? WHERE id = ?`

	// updateDocSQL replaces a record's document, leaving its account (and the index) alone.
	updateDocSQL = `UPDATE contacts SET doc = ? WHERE id = ?`

	deleteSQL = `DELETE FROM contacts WHERE id = ?`

	pingSQL = `SELECT 1 FROM contacts LIMIT 1`
)

// Store is a store.Store kept in one SQLite database file. It is safe for concurrent use; see the
// package documentation for how reads and writes are scheduled.
type Store struct {
	w *sql.DB // exactly one connection: every write goes through it
	r *sql.DB // several query_only connections for reads

	get       *sql.Stmt // on r; Get's second path when a dedicated read connection fails (reader.go)
	getForTx  *sql.Stmt // on w, used inside Update and Delete transactions
	put       *sql.Stmt // on w
	move      *sql.Stmt // on w
	updateDoc *sql.Stmt // on w
	deleteRow *sql.Stmt // on w

	gc  *committer // runs every write; see groupcommit.go
	wal walCheck   // the committer's checkpoint policy; see walsize.go

	path    string     // the database file's absolute path; ProbeWrite writes beside it
	probeMu sync.Mutex // one probe file at a time: concurrent probes share its name
	reads   *readers   // Get's dedicated read connections; see reader.go
	// commits counts the committed write transactions, so a read connection knows when its read
	// transaction's snapshot may be out of date (reader.go).
	commits atomic.Uint64

	bulkResume atomic.Int64 // when the next WriteBatch transaction may start, in Unix nanoseconds; see bulk.go
	// indexDeferred is set when a bulk load into the empty table dropped the account index, which
	// Close (or the next Open) builds again; see bulk.go.
	indexDeferred atomic.Bool
}

// Compile-time check that Store satisfies the interface the server uses.
var _ store.Store = (*Store)(nil)

// Open opens (creating it if needed) the SQLite database at path, a file system path, and applies
// any embedded migrations the database lacks. It fails if the database was migrated by a newer binary
// (the error is a *migrate.SchemaTooNewError). The caller must Close the returned Store.
//
// ctx bounds only the work Open does (connecting, migrating, preparing); the Store outlives it.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, defaultWALPolicy)
}

// open is Open with the write-ahead log's size policy as a parameter, so tests can make it small.
func open(ctx context.Context, path string, wal walPolicy) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		// An in-memory database would be a different, empty database on each pooled connection.
		return nil, fmt.Errorf("sqlite: open %q: path must name a database file", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}

	s := &Store{path: abs, wal: walCheck{policy: wal}}
	ok := false
	defer func() {
		if !ok {
			// Open already failed; the close error would only hide the reason.
			_ = s.Close()
		}
	}()

	CreateFile(abs) // mode 0600 for a new database, before SQLite creates it with its own

	// The writer opens first and migrates, which also switches the file to WAL mode before any reader
	// connects (the journal mode is persistent, so readers need not, and as query_only cannot, set it).
	s.w, err = sql.Open("sqlite", writerDSN(abs, wal))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	s.w.SetConnMaxIdleTime(0)
	if err := s.w.PingContext(ctx); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	if _, err := migrate.Up(ctx, s.w, Migrations(), migrate.QuestionMark); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	// A bulk load that ended without closing its store left the account index to build (bulk.go).
	if _, err := s.w.ExecContext(ctx, indexSQL); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: build the account index: %w", abs, classify(err))
	}

	readers := max(4, runtime.GOMAXPROCS(0))
	s.r, err = sql.Open("sqlite", dsn(abs,
		busyTimeout, "_pragma=synchronous(FULL)", "_pragma=foreign_keys(1)",
		"_pragma=query_only(1)"))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	s.r.SetMaxOpenConns(readers)
	s.r.SetMaxIdleConns(readers)
	s.r.SetConnMaxLifetime(0)
	s.r.SetConnMaxIdleTime(0)

	for _, p := range []struct {
		db   *sql.DB
		stmt **sql.Stmt
		sql  string
	}{
		{s.r, &s.get, getSQL},
		{s.w, &s.getForTx, getSQL},
		{s.w, &s.put, putSQL},
		{s.w, &s.move, moveSQL},
		{s.w, &s.updateDoc, updateDocSQL},
		{s.w, &s.deleteRow, deleteSQL},
	} {
		if *p.stmt, err = p.db.PrepareContext(ctx, p.sql); err != nil {
			return nil, fmt.Errorf("sqlite: open %s: prepare %q: %w", abs, p.sql, err)
		}
	}
	if s.reads, err = openReaders(abs, readers, &s.commits); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	s.startCommitter()
	ok = true
	return s, nil
}

// writerDSN is the data source name of the connection that writes to the database at the absolute
// path abs: WAL, every commit fsynced, a busy timeout, and write transactions that take the lock up
// front (BEGIN IMMEDIATE), so that it is safe while another process uses the file.
func writerDSN(abs string, wal walPolicy) string {
	return dsn(abs, busyTimeout, "_pragma=journal_mode(WAL)", "_pragma=synchronous(FULL)",
		"_pragma=foreign_keys(1)", wal.sizeLimitPragma(), "_txlock=immediate")
}

// Migrate applies the migrations the database file at path lacks (creating it) and returns those it
// applied, over a connection with the settings Open writes with (writerDSN), so it is safe while a
// serve uses the file. Unlike Open it starts nothing else: no readers, no committer.
func Migrate(ctx context.Context, path string) ([]migrate.Migration, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	CreateFile(abs) // mode 0600 for a new database, as Open creates one
	db, err := sql.Open("sqlite", writerDSN(abs, defaultWALPolicy))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	applied, err := migrate.Up(ctx, db, Migrations(), migrate.QuestionMark)
	if err != nil {
		return applied, fmt.Errorf("sqlite: %s: %w", abs, err)
	}
	return applied, nil
}

// dsn builds the driver's data source name: a file: URI for the absolute path, carrying params
// ("key=value" pairs). The path is percent-encoded where the URI syntax requires it, so names
// containing '?', '#' or '%' open the intended file.
func dsn(path string, params ...string) string {
	p := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(filepath.ToSlash(path))
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // A Windows drive path: file:/C:/dir/name.
	}
	q := make([]string, 0, len(params))
	for _, kv := range params {
		k, v, _ := strings.Cut(kv, "=")
		q = append(q, url.QueryEscape(k)+"="+url.QueryEscape(v))
	}
	return "file:" + p + "?" + strings.Join(q, "&")
}

// Put creates the record or replaces the stored record with the same key, in one statement (two
// when the record moves to another account: see putSQL); it returns once the change is durable
// (committed, possibly together with concurrent writes: see groupcommit.go).
func (s *Store) Put(ctx context.Context, r store.Record) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Stmt(s.put).Exec(r.Key, r.Index, text(r.Doc))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		// A conflict whose account differs: putSQL's WHERE left the row alone.
		_, err = tx.Stmt(s.move).Exec(r.Index, text(r.Doc), r.Key)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: put record %q: %w", r.Key, err)
	}
	return nil
}

// Get returns the record with the given key, or an error wrapping store.ErrNotFound. It reads on
// dedicated read connections (reader.go), so it never waits for a write in progress; it always sees
// every completed write of this store, and a write of another process on the same file once it is
// readTxMaxAge (10 ms) old.
//
// The query runs without the caller's cancellation (it is checked once before): a read takes
// microseconds, and with a cancellable context the driver arms an interrupt with a goroutine per
// query, which was a tenth of a ReadContact's allocations under load (BENCHMARKS.md).
func (s *Store) Get(ctx context.Context, key string) (store.Record, error) {
	if err := ctx.Err(); err != nil {
		return store.Record{}, fmt.Errorf("sqlite: get record %q: %w", key, err)
	}
	r, err := s.read(key)
	if err != nil {
		return store.Record{}, fmt.Errorf("sqlite: get record %q: %w", key, classify(err))
	}
	return r, nil
}

// Update reads the record with the given key, applies change and writes the result, all in one
// write transaction (shared with concurrent writes, each in its own savepoint: see groupcommit.go),
// so concurrent updates of one key serialize and none is lost. It returns the stored result; an error
// wrapping store.ErrNotFound when key is unknown (change is not called); or change's error exactly as
// change returned it, when change fails (nothing is stored). The index entry is rewritten only when
// the record's Index changes.
//
// change runs while the store's single write connection is held, so it must be quick and must not
// call the Store itself (that would deadlock). It must keep the record's key: a result with another
// key is rejected, because Update changes a record in place and never moves or creates one. change
// runs once, or a second time if the shared transaction failed for another reason and the update is
// retried alone.
func (s *Store) Update(ctx context.Context, key string, change func(store.Record) (store.Record, error)) (store.Record, error) {
	var stored store.Record
	err := s.write(ctx, func(tx *sql.Tx) error {
		current, err := scanRow(key, tx.Stmt(s.getForTx).QueryRow(key))
		if err != nil {
			return fmt.Errorf("sqlite: update record %q: %w", key, err)
		}
		next, err := change(current)
		if err != nil {
			return changeError{err}
		}
		if next.Key != key {
			return fmt.Errorf("sqlite: update record %q: change must not alter the key (it returned %q)", key, next.Key)
		}
		if next.Index == current.Index {
			_, err = tx.Stmt(s.updateDoc).Exec(text(next.Doc), key)
		} else {
			_, err = tx.Stmt(s.move).Exec(next.Index, text(next.Doc), key)
		}
		if err != nil {
			return fmt.Errorf("sqlite: update record %q: %w", key, err)
		}
		// Return what a Get would now return, not change's slice (which the caller may still hold).
		stored = next
		stored.Doc = bytes.Clone(next.Doc)
		return nil
	})
	var ce changeError
	if errors.As(err, &ce) {
		return store.Record{}, ce.err
	}
	if err != nil {
		return store.Record{}, err
	}
	return stored, nil
}

// changeError carries the error returned by Update's change function out of the transaction, so
// Update can hand it back exactly as change returned it.
type changeError struct{ err error }

// Error returns the wrapped error's message.
func (e changeError) Error() string { return e.err.Error() }

// Delete removes the record with the given key and returns what was removed, or an error wrapping
// store.ErrNotFound. The read and the delete are one transaction, so the returned record is exactly
// the one deleted.
func (s *Store) Delete(ctx context.Context, key string) (store.Record, error) {
	var removed store.Record
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		removed, err = scanRow(key, tx.Stmt(s.getForTx).QueryRow(key))
		if err != nil {
			return fmt.Errorf("sqlite: delete record %q: %w", key, err)
		}
		if _, err := tx.Stmt(s.deleteRow).Exec(key); err != nil {
			return fmt.Errorf("sqlite: delete record %q: %w", key, err)
		}
		return nil
	})
	if err != nil {
		return store.Record{}, err
	}
	return removed, nil
}

// Ping reports whether the store can serve requests by running a trivial query on the contacts
// table through the read pool, which proves the file is open and the schema present. It does not
// touch the write connection, so a long write does not make the store look unhealthy.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	err := s.r.QueryRowContext(ctx, pingSQL).Scan(&one)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// Close releases the prepared statements and both connection pools. The writer closes last, so the
// final connection to go checkpoints the write-ahead log into the database file. Calls after the first
// return nil; other methods called after Close return errors.
func (s *Store) Close() error {
	s.stopCommitter() // every write accepted before Close completes first
	var errs []error
	if s.indexDeferred.CompareAndSwap(true, false) {
		// The committer has stopped: the write connection is this goroutine's.
		if _, err := s.w.Exec(indexSQL); err != nil {
			errs = append(errs, fmt.Errorf("build the account index (the next Open builds it): %w", err))
		}
	}
	if s.reads != nil {
		errs = append(errs, s.reads.close())
	}
	for _, st := range []*sql.Stmt{s.get, s.getForTx, s.put, s.move, s.updateDoc, s.deleteRow} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	for _, db := range []*sql.DB{s.r, s.w} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// scanRow reads the index and document of the record with the given key from row, translating "no
// row" into store.ErrNotFound.
func scanRow(key string, row *sql.Row) (store.Record, error) {
	r := store.Record{Key: key}
	err := row.Scan(&r.Index, &r.Doc)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Record{}, store.ErrNotFound
	}
	if err != nil {
		return store.Record{}, err
	}
	return r, nil
}

// text returns doc as the string bound to the doc column, without copying it: the column is TEXT in a
// STRICT table, which refuses the BLOB a []byte would bind as, and the driver copies the value into
// SQLite before Exec returns, while the caller's doc is not written (Store's documentation).
func text(doc []byte) string {
	return unsafe.String(unsafe.SliceData(doc), len(doc))
}
