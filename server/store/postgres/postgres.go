// Package postgres implements store.Store on a PostgreSQL database through pgx
// (github.com/jackc/pgx/v5) and its connection pool, so several contactsync instances can share one
// database.
//
// # Consistency across instances
//
// Each operation is one statement or one transaction at PostgreSQL's default READ COMMITTED
// isolation, and PostgreSQL's row locks order the writes to one contact, whichever instance sends
// them:
//
//   - Put is one INSERT … ON CONFLICT (id) DO UPDATE in a transaction: an atomic create-or-replace.
//   - Update runs SELECT … FOR UPDATE, calls change, then UPDATE, in one transaction. The row lock is
//     held from the read to the commit, so a concurrent Update (from this pool or another instance)
//     waits and then reads the committed result: no update is lost. If the row was deleted while it
//     waited, the SELECT finds nothing and Update reports store.ErrNotFound.
//   - Delete is one DELETE … RETURNING in a transaction, which locks the row, removes it and returns
//     exactly what it removed; a second Delete of the same id waits for the first and then finds nothing.
//   - Get is one SELECT: it sees the last committed version of the row, never part of a write.
//
// Because no transaction locks more than one row, transactions never deadlock.
//
// # Settled outcomes
//
// A write the store reports as failed has not happened and will not happen later. That is why every
// write is an explicit transaction even when it is one statement: a statement sent just before the
// request gave up may still reach the server afterwards (TCP delivers what a partition held once it
// heals, seconds later), and as an autocommit statement it would then commit, undoing whatever other
// instances wrote meanwhile. Inside a transaction it cannot: the store sends COMMIT only after every
// statement has answered and only while the request's time has not run out, and a transaction whose
// COMMIT never comes is rolled back by the server when the connection closes, or after
// idle_in_transaction_session_timeout (set to Options.Timeout), which also releases the row lock it
// held. BEGIN travels with the first statement, so a Put or a Delete costs two round trips, an Update
// three. The one case that cannot be settled is a COMMIT sent whose answer is lost: it is reported as
// store.ErrOutcomeUnknown. Every other failure of a write is store.ErrUnavailable (or a refusal, such
// as store.ErrNotWritable) and means "not applied".
//
// # Failures and time limits
//
// Every operation, including waiting for a pooled connection and for row locks, is bounded by
// Options.Timeout; connecting is bounded by Options.ConnectTimeout, and the server is told the same
// limits (statement_timeout, and idle_in_transaction_session_timeout so locks held by a client that
// vanished are released). When the time runs out, or the caller gives up, the store sends the server
// a cancel request for the running statement and waits a moment (cancelWait) for it to take effect
// before closing the connection, so the server stops the work instead of finishing it for nobody. An
// operation that fails because the database is unreachable, a connection broke, the server is
// shutting down or overloaded, or the time limit passed returns an error wrapping
// store.ErrUnavailable; the pool replaces broken connections by itself, so service resumes as soon as
// the database answers again. A pooled connection found broken (its backend terminated, the network
// reset it) before anything of the operation could take effect is not a failure: the operation is
// retried on another connection, within the same time limit, and change may then run more than once.
//
// # Schema
//
// The schema is created and upgraded by the embedded migrations/NNNN_name.sql files (the same
// versions as the SQLite store's, in PostgreSQL's types), applied by package migrate: by Open, and by
// Migrate for the `contactsync migrate` command. Concurrent migrations (several instances starting at
// once) are serialized by an advisory lock. The tables live in the first schema of the connection's
// search_path, which the DSN may set (…?search_path=contactsync).
//
// # As the commands see it
//
// Backend (backend.go) is this store in the registry of store backends (package stores): --store as
// a postgres:// URL or libpq's key=value DSN, Options filled by the --db-* flags, the password masked
// wherever a DSN is shown, and what to do about the errors a new deployment meets first.
package postgres

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"
)

// migrationFiles holds the schema migrations.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrations returns the embedded schema migrations (NNNN_name.sql files at the root of the returned
// file system), for tools and tests that need to know the schema version a binary carries.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		// fs.Sub only fails for an invalid directory name, and "migrations" is valid.
		panic(err)
	}
	return sub
}

// Defaults for the zero fields of Options.
const (
	DefaultMaxConns       = 10
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 5 * time.Second
)

// Options are the pool settings. Zero fields take the defaults above.
type Options struct {
	// MaxConns is the most connections the pool opens; operations beyond it wait for one (within
	// Timeout). Across instances, the sum must stay below the server's max_connections.
	MaxConns int32
	// ConnectTimeout bounds establishing one connection (TCP, TLS and authentication).
	ConnectTimeout time.Duration
	// Timeout bounds each operation as a whole: waiting for a connection, for row locks and for the
	// statements themselves. It is also sent as the session's statement_timeout.
	Timeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

const (
	// getSQL reads a record's index and document by key; the key is the caller's.
	getSQL = `SELECT index_value, doc FROM contacts WHERE id = $1`

	lockSQL = getSQL + ` FOR UPDATE`

	// putSQL creates or replaces a record. Setting index_value to the value it has costs nothing
	// here: PostgreSQL compares the indexed columns' values, and when none changed the new row
	// version is a heap-only tuple (HOT) that no index is written for.
	putSQL = `INSERT INTO contacts (id, index_value, doc) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET index_value = excluded.index_value, doc = excluded.doc`

	updateSQL = `UPDATE contacts SET index_value = $2, doc = $3 WHERE id = $1`

	deleteSQL = `DELETE FROM contacts WHERE id = $1 RETURNING index_value, doc`

	// beginSQL, commitSQL and rollbackSQL delimit every write's transaction. COMMIT and ROLLBACK go
	// alone as simple queries; BEGIN is sent in one batch with the first statement (begin).
	beginSQL    = `begin`
	commitSQL   = `commit`
	rollbackSQL = `rollback`

	pingSQL = `SELECT count(*) FROM (SELECT 1 FROM contacts LIMIT 1) AS one`

	// migrateLockSQL serializes migrations of one schema across processes. The key is derived from
	// the schema, so tests migrating separate schemas of one database do not wait for each other.
	migrateLockSQL   = `SELECT pg_advisory_lock(hashtext('contactsync migrate ' || coalesce(current_schema(), '')))`
	migrateUnlockSQL = `SELECT pg_advisory_unlock(hashtext('contactsync migrate ' || coalesce(current_schema(), '')))`
)

// cancelWait is how long an operation that gives up waits for the server to act on its cancel
// request before closing the connection: enough for a cancel round trip to a reachable server, so the
// connection survives and the statement stops at once; short, because when the server is out of reach
// the request is answered only after it. It is capped at half of Options.Timeout.
const cancelWait = 500 * time.Millisecond

// Store is a store.Store kept in a PostgreSQL database. It is safe for concurrent use, and any number
// of Stores, in any number of processes, may share one database.
type Store struct {
	pool    *pgxpool.Pool
	timeout time.Duration
	// attempts bounds the tries of one operation on pooled connections found broken: one more than
	// the pool holds, so that even when every pooled connection died at once (the server restarted,
	// an administrator terminated them) the last try is on a fresh one.
	attempts int
}

// Compile-time check that Store satisfies the interface the server uses.
var _ store.Store = (*Store)(nil)

// Open connects to the database dsn names (a postgres:// URL or key=value string, as libpq and pgx
// accept), applies the embedded migrations it lacks and returns the store. It fails if the database
// was migrated by a newer binary (the error is a *migrate.SchemaTooNewError), and with an error
// wrapping store.ErrUnavailable if the database cannot be reached. ctx bounds only Open's own work.
// The caller must Close the returned Store.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	cfg.ConnConfig.ConnectTimeout = opts.ConnectTimeout
	if _, err := migrateWith(ctx, cfg.ConnConfig); err != nil {
		return nil, err
	}

	cfg.MaxConns = opts.MaxConns
	params := cfg.ConnConfig.RuntimeParams
	setDefault(params, "application_name", "contactsync")
	setDefault(params, "statement_timeout", strconv.FormatInt(opts.Timeout.Milliseconds(), 10))
	// A transaction whose client vanished behind a partition holds its row lock until the server
	// notices: at most one operation's time, so that a write to that contact through another instance
	// waits no longer than it would for a slow one (see "Settled outcomes").
	setDefault(params, "idle_in_transaction_session_timeout", strconv.FormatInt(opts.Timeout.Milliseconds(), 10))
	wait := min(cancelWait, opts.Timeout/2)
	cfg.ConnConfig.BuildContextWatcherHandler = func(conn *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: conn, DeadlineDelay: wait}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	s := &Store{pool: pool, timeout: opts.Timeout, attempts: int(opts.MaxConns) + 1}
	if err := s.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	return s, nil
}

// setDefault sets params[k] unless the DSN already did.
func setDefault(params map[string]string, k, v string) {
	if _, ok := params[k]; !ok {
		params[k] = v
	}
}

// Migrate applies the embedded migrations the database dsn names lacks and returns those it applied
// (none when it is up to date). It fails with a *migrate.SchemaTooNewError if the database was
// migrated by a newer binary. Concurrent calls, from any process, are serialized.
func Migrate(ctx context.Context, dsn string, connectTimeout time.Duration) ([]migrate.Migration, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if connectTimeout <= 0 {
		connectTimeout = DefaultConnectTimeout
	}
	cfg.ConnectTimeout = connectTimeout
	return migrateWith(ctx, cfg)
}

// migrateWith runs the migrations over a short-lived database/sql handle (what package migrate
// drives) on its own connections, holding the schema's advisory lock on one of them throughout.
func migrateWith(ctx context.Context, cfg *pgx.ConnConfig) (_ []migrate.Migration, err error) {
	db := stdlib.OpenDB(*cfg.Copy())
	defer db.Close()
	db.SetMaxOpenConns(2) // one holds the lock, one migrates
	lock, err := db.Conn(ctx)
	if err != nil {
		return nil, classify(ctx, "migrate: connect", err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, migrateLockSQL); err != nil {
		return nil, classify(ctx, "migrate: lock", err)
	}
	defer func() {
		// Closing the session would release the lock too; unlocking first returns the connection clean.
		_, _ = lock.ExecContext(context.WithoutCancel(ctx), migrateUnlockSQL)
	}()
	applied, err := migrate.Up(ctx, db, Migrations(), migrate.Dollar)
	if err != nil {
		var tooNew *migrate.SchemaTooNewError
		if errors.As(err, &tooNew) {
			return applied, fmt.Errorf("postgres: %w", err)
		}
		return applied, classify(ctx, "schema", err)
	}
	return applied, nil
}

// bound limits ctx to the store's operation timeout.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// Put creates the record or replaces the stored record with the same key, in one statement in its
// own transaction; it returns once the change is committed.
func (s *Store) Put(ctx context.Context, r store.Record) error {
	return s.write(ctx, fmt.Sprintf("put record %q", r.Key), func(op context.Context, conn *pgx.Conn) error {
		return begin(op, conn, func(br pgx.BatchResults) error {
			_, err := br.Exec()
			return err
		}, putSQL, r.Key, r.Index, r.Doc)
	})
}

// Get returns the record with the given key, or an error wrapping store.ErrNotFound.
func (s *Store) Get(ctx context.Context, key string) (store.Record, error) {
	op, cancel := s.bound(ctx)
	defer cancel()
	var r store.Record
	err := s.retry(op, func() (err error) {
		r, err = scanRow(key, s.pool.QueryRow(op, getSQL, key))
		return err
	})
	if err != nil {
		return store.Record{}, classify(ctx, fmt.Sprintf("get record %q", key), err)
	}
	return r, nil
}

// errChangeRefused ends an Update's transaction when change failed or broke a rule; Update returns
// change's own error.
var errChangeRefused = errors.New("change refused")

// Update reads the record with the given key under a row lock (SELECT … FOR UPDATE), applies change
// and writes the result in the same transaction, so concurrent updates of one key, from any instance,
// serialize and none is lost. It returns the stored result; an error wrapping store.ErrNotFound when
// key is unknown (change is not called); or change's error exactly as change returned it (nothing is
// stored). change runs while the row lock is held, so it must be quick and must not call the Store. It
// must keep the record's key: a result with another key is rejected. change runs once, or again when a
// broken pooled connection made the store retry the transaction on another.
func (s *Store) Update(ctx context.Context, key string, change func(store.Record) (store.Record, error)) (store.Record, error) {
	what := fmt.Sprintf("update record %q", key)
	var next store.Record
	var changeErr error
	err := s.write(ctx, what, func(op context.Context, conn *pgx.Conn) error {
		var current store.Record
		if err := begin(op, conn, func(br pgx.BatchResults) (err error) {
			current, err = scanRow(key, br.QueryRow())
			return err
		}, lockSQL, key); err != nil {
			return err
		}
		if next, changeErr = change(current); changeErr != nil {
			return errChangeRefused
		}
		if next.Key != key {
			changeErr = fmt.Errorf("postgres: %s: change must not alter the key (it returned %q)", what, next.Key)
			return errChangeRefused
		}
		_, err := conn.Exec(op, updateSQL, key, next.Index, next.Doc)
		return err
	})
	if changeErr != nil {
		return store.Record{}, changeErr
	}
	if err != nil {
		return store.Record{}, err
	}
	// Return what a Get would now return, not change's slice (which the caller may still hold).
	next.Doc = bytes.Clone(next.Doc)
	return next, nil
}

// Delete removes the record with the given key in one DELETE … RETURNING statement in its own
// transaction and returns what it removed, or an error wrapping store.ErrNotFound.
func (s *Store) Delete(ctx context.Context, key string) (store.Record, error) {
	var r store.Record
	err := s.write(ctx, fmt.Sprintf("delete record %q", key), func(op context.Context, conn *pgx.Conn) error {
		return begin(op, conn, func(br pgx.BatchResults) (err error) {
			r, err = scanRow(key, br.QueryRow())
			return err
		}, deleteSQL, key)
	})
	if err != nil {
		return store.Record{}, err
	}
	return r, nil
}

// begin opens a transaction on conn and runs its first statement, sending BEGIN and the statement
// together (one round trip); read reads the statement's result.
func begin(ctx context.Context, conn *pgx.Conn, read func(pgx.BatchResults) error, sql string, args ...any) error {
	var b pgx.Batch
	b.Queue(beginSQL)
	b.Queue(sql, args...)
	br := conn.SendBatch(ctx, &b)
	_, err := br.Exec()
	if err == nil {
		err = read(br)
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return err
}

// write runs one write: body in a transaction on a pooled connection, then COMMIT, settling the
// outcome as the package documentation's "Settled outcomes" says. body must open the transaction
// (begin) and may run more statements in it. It retries on another connection when the one it got was
// broken before COMMIT was sent (nothing of the transaction can have been committed then), and
// returns body's error classified, or an error wrapping store.ErrOutcomeUnknown when COMMIT was sent
// and its answer lost.
func (s *Store) write(ctx context.Context, what string, body func(op context.Context, conn *pgx.Conn) error) error {
	op, cancel := s.bound(ctx)
	defer cancel()
	for attempt := 1; ; attempt++ {
		sent, err := s.writeOnce(op, body)
		switch {
		case err == nil:
			return nil
		case sent:
			return fmt.Errorf("postgres: %s: %w: %w", what, store.ErrOutcomeUnknown, err)
		case attempt < s.attempts && op.Err() == nil && brokenConnection(err):
			continue
		}
		return classify(ctx, what, err)
	}
}

// writeOnce runs body and COMMIT on one pooled connection. sent reports whether COMMIT was sent
// without an answer settling it: then a failure leaves the outcome unknown. Before COMMIT is sent, and
// when the server answers it with an error, nothing of the transaction was committed or ever will be.
func (s *Store) writeOnce(op context.Context, body func(op context.Context, conn *pgx.Conn) error) (sent bool, err error) {
	pc, err := s.pool.Acquire(op)
	if err != nil {
		return false, err
	}
	// The pool closes a connection released inside a transaction instead of reusing it, and the server
	// rolls back the transaction of a connection that closed.
	defer pc.Release()
	conn := pc.Conn()
	if err := body(op, conn); err != nil {
		if !conn.IsClosed() {
			// The connection works (the statement was refused, found nothing, or was cancelled and
			// the server said so): end the transaction so the connection can return to the pool,
			// within a moment of its own since op may be over. If that fails, Release closes it.
			rb, cancel := context.WithTimeout(context.WithoutCancel(op), cancelWait)
			_, _ = conn.Exec(rb, rollbackSQL)
			cancel()
		}
		return false, err
	}
	if err := op.Err(); err != nil {
		// The caller gave up, or the time ran out, after the statements answered: the error the caller
		// gets says the write did not happen, and not committing is what makes that true.
		return false, err
	}
	if conn.IsClosed() {
		return false, errClosedBeforeCommit
	}
	tag, err := conn.Exec(op, commitSQL)
	var pgErr *pgconn.PgError
	switch {
	case tag.String() == "COMMIT":
		// The server said it committed: settled, even if the connection broke right after.
		return false, nil
	case err == nil:
		// The server ended the transaction as rolled back (it had failed), and said so.
		return false, fmt.Errorf("commit answered %q", tag.String())
	case errors.As(err, &pgErr) && pgErr.Severity == "ERROR":
		// An ERROR (unlike FATAL, which ends the session and may follow a commit) answers the COMMIT:
		// the transaction was rolled back.
		return false, err
	}
	// COMMIT was handed to an open connection and no answer settles it. pgconn's SafeToRetry is not
	// trusted here: pgx v5.12 reports a read that failed after the query was sent as "conn closed",
	// which it calls safe to retry (MultiResultReader.NextResult drops peekMessage's error, and the
	// read after it finds the connection closed), and the jepsen test caught COMMITs that had landed
	// behind that answer.
	return true, err
}

// errClosedBeforeCommit is writeOnce's failure when the connection broke after the statements
// answered and before COMMIT was sent; brokenConnection has the write retried.
var errClosedBeforeCommit = errors.New("the connection closed before COMMIT was sent")

// retry runs try, and again while it fails because the pooled connection it used was broken (see
// brokenConnection), within op's time and at most s.attempts times. It serves the operations that
// change nothing (reads, Ping): trying them again is always safe.
func (s *Store) retry(op context.Context, try func() error) error {
	for attempt := 1; ; attempt++ {
		err := try()
		if err == nil || attempt >= s.attempts || op.Err() != nil || !brokenConnection(err) {
			return err
		}
	}
}

// brokenConnection reports whether err says the connection itself failed under an operation that
// had not committed anything: nothing was sent, the server ended the session (its backend was
// terminated, or the server shut down) or the network reset it. A fresh connection may well work. It
// is false for a server's refusal of the statement, for a time-out (another connection would wait as
// long) and for a failure to connect at all (the pool found no connection to try).
func brokenConnection(err error) bool {
	if pgconn.SafeToRetry(err) || errors.Is(err, errClosedBeforeCommit) {
		return true
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) || pgconn.Timeout(err) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01", "57P02", "08006", "08003": // admin_shutdown (pg_terminate_backend), crash_shutdown, connection_failure, connection_does_not_exist
			return true
		}
		return false
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}

// Ping reports whether the database answers and holds the contacts table.
func (s *Store) Ping(ctx context.Context) error {
	op, cancel := s.bound(ctx)
	defer cancel()
	var n int
	if err := s.retry(op, func() error { return s.pool.QueryRow(op, pingSQL).Scan(&n) }); err != nil {
		return classify(ctx, "ping", err)
	}
	return nil
}

// Close closes the pool's connections, waiting for those in use to be released. Calling it again does
// nothing.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// scanRow reads the index and document of the record with the given key; no row becomes
// store.ErrNotFound. pgx hands a jsonb column to a *[]byte as its JSON text, in a buffer of its own.
func scanRow(key string, row pgx.Row) (store.Record, error) {
	r := store.Record{Key: key}
	err := row.Scan(&r.Index, &r.Doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Record{}, store.ErrNotFound
	}
	if err != nil {
		return store.Record{}, err
	}
	return r, nil
}

// classify wraps err from operation what, adding store.ErrUnavailable when err says the database
// could not serve the request now (see unavailable). An error after the caller's own ctx ended keeps
// only the driver's cause: the caller gave up, the database did not fail.
func classify(ctx context.Context, what string, err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("postgres: %s: %w", what, err)
	case ctx.Err() != nil:
		return fmt.Errorf("postgres: %s: %w (%w)", what, ctx.Err(), err)
	case notWritable(err):
		return fmt.Errorf("postgres: %s: %w: %w", what, store.ErrNotWritable, err)
	case unavailable(err):
		return fmt.Errorf("postgres: %s: %w: %w", what, store.ErrUnavailable, err)
	}
	return fmt.Errorf("postgres: %s: %w", what, err)
}

// notWritable reports whether err means the database cannot write for a reason on the server's side:
// disk_full (53100, in class 53, insufficient resources, which unavailable covers as a whole),
// read_only_sql_transaction (25006: connected to a standby, e.g. after a failover) and io_error (58030).
func notWritable(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	switch pgErr.Code {
	case "53100", "25006", "58030":
		return true
	}
	return false
}

// probeSQL rewrites the single row of write_probe (migration 0002): a committed write that is never read.
const probeSQL = `INSERT INTO write_probe (id, probed_at) VALUES (1, now())
ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at`

// ProbeWrite checks that the database takes a write now, by committing one to the write_probe table
// (within the store's operation timeout). PostgreSQL reserves the space of a write when it makes it,
// so a full disk shows as disk_full here as it would for a contact. It returns nil or the classified
// error: store.ErrNotWritable for a full disk, a read-only server or an I/O error, store.ErrUnavailable
// for a database that cannot be reached.
func (s *Store) ProbeWrite(ctx context.Context) error {
	op, cancel := s.bound(ctx)
	defer cancel()
	if _, err := s.pool.Exec(op, probeSQL); err != nil {
		return classify(ctx, "probe", err)
	}
	return nil
}

// unavailable reports whether err means the database is unreachable, a connection broke, the server
// refused work for now or an operation ran out of time, as opposed to a fault of the request or of
// this code (constraint violations, SQL errors), which a retry would not fix.
func unavailable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		code := pgErr.Code
		switch {
		case strings.HasPrefix(code, "08"): // connection_exception
			return true
		case strings.HasPrefix(code, "53"): // insufficient_resources, e.g. too_many_connections
			return true
		case strings.HasPrefix(code, "57P"): // admin_shutdown, crash_shutdown, cannot_connect_now, …
			return true
		case code == "57014": // query_canceled: statement_timeout
			return true
		case code == "55P03": // lock_not_available
			return true
		case code == "25P03": // idle_in_transaction_session_timeout
			return true
		}
		return false
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) || pgconn.SafeToRetry(err) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed)
}
