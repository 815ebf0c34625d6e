// Package migrate applies ordered SQL schema migrations to a database/sql database and records which
// ones it applied. It is deliberately small and backend-neutral, so that every store backend (SQLite
// now, PostgreSQL later) shares one well-tested runner instead of growing its own.
//
// Migrations are files named NNNN_name.sql (the number is the version, the name is for people) at the
// root of an fs.FS, usually an embed.FS. They are applied in ascending version order, each in its own
// transaction together with the row that records it in the schema_migrations table, so a migration is
// either fully applied and recorded or not applied at all.
package migrate

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// Migration is one schema change read from a NNNN_name.sql file. It is exported so that callers can
// report what Up applied and tests can inspect what Load found.
type Migration struct {
	// Version is the file's numeric prefix; migrations run in ascending Version order.
	Version int
	// File is the file's name, used in logs and error messages so a failure points at its source.
	File string
	// SQL is the file's content, executed as one Exec (it may hold several statements).
	SQL string
}

// Placeholder renders the n-th (1-based) bind parameter of a statement, because SQLite and PostgreSQL
// spell parameters differently and the runner must issue the same statements on both.
type Placeholder func(n int) string

// QuestionMark is the Placeholder for SQLite and MySQL style drivers, which write every parameter as "?".
func QuestionMark(int) string { return "?" }

// Dollar is the Placeholder for PostgreSQL drivers, which number their parameters "$1", "$2", ….
func Dollar(n int) string { return "$" + strconv.Itoa(n) }

// SchemaTooNewError is returned by Up when the database has a migration applied whose version is
// higher than any migration the binary carries: the database was migrated by a newer release, and an
// older binary must not write to a schema it does not understand.
type SchemaTooNewError struct {
	// Database is the highest version recorded in the database's schema_migrations table.
	Database int
	// Known is the highest version among the migrations given to Up (0 when there are none).
	Known int
}

// Error reports both versions so an operator can tell which release the database needs.
func (e *SchemaTooNewError) Error() string {
	return fmt.Sprintf("database schema version %d is newer than this binary knows (%d)", e.Database, e.Known)
}

// fileName matches migration file names: a decimal version, an underscore, a name, ".sql".
var fileName = regexp.MustCompile(`^([0-9]+)_([^/]+)\.sql$`)

// Load reads the migrations at the root of fsys and returns them sorted by version. Files that do not
// end in ".sql" are ignored, so a README may sit next to the migrations; a ".sql" file whose name is
// not NNNN_name.sql, a version of 0 or two files with the same version are errors, because each of
// those would make the applied schema depend on an accident of naming.
func Load(fsys fs.FS) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("migrate: read migrations: %w", err)
	}
	var ms []Migration
	byVersion := make(map[int]string)
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".sql" {
			continue
		}
		m := fileName.FindStringSubmatch(name)
		if m == nil {
			return nil, fmt.Errorf("migrate: %s: name is not NNNN_name.sql", name)
		}
		v, err := strconv.Atoi(m[1])
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("migrate: %s: version must be a positive integer", name)
		}
		if other, dup := byVersion[v]; dup {
			return nil, fmt.Errorf("migrate: %s and %s have the same version %d", other, name, v)
		}
		byVersion[v] = name
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("migrate: read %s: %w", name, err)
		}
		ms = append(ms, Migration{Version: v, File: name, SQL: string(body)})
	}
	slices.SortFunc(ms, func(a, b Migration) int { return cmp.Compare(a.Version, b.Version) })
	return ms, nil
}

// createTable makes the bookkeeping table. Its SQL is valid for both SQLite and PostgreSQL.
const createTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	applied_at TEXT NOT NULL
)`

// Up brings db's schema up to date with the migrations in fsys (see Load) and returns the migrations
// it applied, in order; an up-to-date database yields none. ph renders bind parameters for db's driver.
//
// Each migration runs in its own transaction together with the insertion of its schema_migrations row
// (version, applied_at as RFC 3339 UTC), so a failing migration leaves no trace and its error names the
// file; the migrations before it stay applied. Whether a version is applied is re-checked inside that
// transaction, so two processes migrating the same database do not apply a migration twice on backends
// whose write transactions serialize (SQLite with BEGIN IMMEDIATE); elsewhere the loser fails on the
// primary key and can simply retry.
//
// If the database records a version higher than the newest migration in fsys, Up changes nothing and
// returns a *SchemaTooNewError. Migrations must not contain statements that cannot run inside a
// transaction (such as SQLite's PRAGMA journal_mode or PostgreSQL's CREATE INDEX CONCURRENTLY).
func Up(ctx context.Context, db *sql.DB, fsys fs.FS, ph Placeholder) ([]Migration, error) {
	ms, err := Load(fsys)
	if err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, createTable); err != nil {
		return nil, fmt.Errorf("migrate: create schema_migrations: %w", err)
	}

	var current sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&current); err != nil {
		return nil, fmt.Errorf("migrate: read applied versions: %w", err)
	}
	known := 0
	if len(ms) > 0 {
		known = ms[len(ms)-1].Version
	}
	if current.Valid && int(current.Int64) > known {
		return nil, &SchemaTooNewError{Database: int(current.Int64), Known: known}
	}

	var applied []Migration
	for _, m := range ms {
		if current.Valid && int64(m.Version) <= current.Int64 {
			// Versions at or below the recorded maximum are normally applied already; apply still
			// re-checks, so a version added below the maximum (a late-merged branch) is not skipped.
			done, err := isApplied(ctx, db, ph, m.Version)
			if err != nil {
				return applied, err
			}
			if done {
				continue
			}
		}
		ok, err := apply(ctx, db, ph, m)
		if err != nil {
			return applied, err
		}
		if ok {
			applied = append(applied, m)
		}
	}
	return applied, nil
}

// querier is what isApplied needs; both *sql.DB and *sql.Tx provide it.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// isApplied reports whether schema_migrations records version.
func isApplied(ctx context.Context, q querier, ph Placeholder, version int) (bool, error) {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM schema_migrations WHERE version = `+ph(1), version).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("migrate: check version %d: %w", version, err)
	}
	return true, nil
}

// apply runs m and records it in one transaction. It reports false, with no error, when another
// process applied m between Up's check and this transaction.
func apply(ctx context.Context, db *sql.DB, ph Placeholder, m Migration) (ok bool, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("migrate: %s: begin: %w", m.File, err)
	}
	defer func() {
		if err != nil {
			// The rollback error adds nothing: the transaction is abandoned either way.
			_ = tx.Rollback()
		}
	}()

	done, err := isApplied(ctx, tx, ph, m.Version)
	if err != nil {
		return false, err
	}
	if done {
		return false, tx.Rollback()
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, fmt.Errorf("migrate: %s: %w", m.File, err)
	}
	at := time.Now().UTC().Format(time.RFC3339Nano)
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO schema_migrations (version, applied_at) VALUES (`+ph(1)+`, `+ph(2)+`)`,
		m.Version, at); err != nil {
		return false, fmt.Errorf("migrate: %s: record version: %w", m.File, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("migrate: %s: commit: %w", m.File, err)
	}
	return true, nil
}
