package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/sqlite"
)

// How a command uses its store, which decides what opening it may do to the file system.
type storeUse int

const (
	// readStore: the store must exist already (export, copy --from); a missing SQLite file is an error
	// rather than an empty database created to read nothing from.
	readStore storeUse = iota
	// writeStore: a missing SQLite file is created (serve, import, copy --to); when the command then
	// fails having written nothing, the files it created are removed again (sqliteFiles.removeCreated).
	writeStore
)

// sqliteSuffixes are the files SQLite keeps beside a database: the write-ahead log, its shared-memory
// index, and a rollback journal.
var sqliteSuffixes = []string{"", "-wal", "-shm", "-journal"}

// sqliteFiles remembers which of a SQLite database's files existed before a command opened it, so a
// command that fails can remove the ones it created and leave the directory as it found it. A nil
// *sqliteFiles (a PostgreSQL store) does nothing.
type sqliteFiles struct {
	path    string
	existed map[string]bool
}

// removeCreated removes the files that did not exist before the command opened the database. Call it
// only after the store is closed.
func (f *sqliteFiles) removeCreated() {
	if f == nil {
		return
	}
	for _, s := range sqliteSuffixes {
		if !f.existed[f.path+s] {
			_ = os.Remove(f.path + s)
		}
	}
}

// checkSQLitePath checks, before SQLite opens it, that a database file can be used as use needs, so
// the error names the cause and what to do instead of SQLite's "unable to open database file (14)",
// which it gives for a missing directory and an unwritable one alike; a read-only file would
// otherwise open and fail at its first write. It returns what exists now.
func checkSQLitePath(path string, use storeUse) (*sqliteFiles, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(abs)
	switch info, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("the directory %s does not exist: create it (mkdir -p %s), or name a file in an existing directory with --store sqlite:PATH", dir, dir)
	case err != nil:
		return nil, fmt.Errorf("the directory %s cannot be used: %w", dir, err)
	case !info.IsDir():
		return nil, fmt.Errorf("%s is not a directory, so it cannot hold the database %s", dir, filepath.Base(abs))
	}
	files := &sqliteFiles{path: abs, existed: map[string]bool{}}
	for _, s := range sqliteSuffixes {
		if _, err := os.Lstat(abs + s); err == nil {
			files.existed[abs+s] = true
		}
	}
	if !files.existed[abs] {
		if use == readStore {
			return nil, fmt.Errorf("the database file %s does not exist; check --store (a new, empty database is created only by serve, import, migrate and copy --to)", abs)
		}
	} else {
		f, err := os.OpenFile(abs, os.O_RDWR, 0)
		switch {
		case isReadOnly(err):
			return nil, fmt.Errorf("the database file %s is read-only for this user (%v): contactsync writes to it even to read (SQLite's -wal and -shm files); make it writable (chmod u+w %s), run as its owner, or copy it elsewhere with cp and use the copy", abs, err, abs)
		case err != nil:
			return nil, fmt.Errorf("the database file %s cannot be opened: %w", abs, err)
		}
		_ = f.Close()
	}
	// SQLite creates the database, its -wal and its -shm files in the directory: check that it may.
	probe, err := os.CreateTemp(dir, ".contactsync-probe-*")
	switch {
	case isReadOnly(err):
		return nil, fmt.Errorf("the directory %s is not writable for this user (%v): SQLite creates %s-wal and %s-shm beside the database; make it writable, or name a file in a writable directory with --store sqlite:PATH", dir, err, filepath.Base(abs), filepath.Base(abs))
	case err != nil:
		return nil, fmt.Errorf("the directory %s cannot be used: %w", dir, err)
	}
	_ = probe.Close()
	_ = os.Remove(probe.Name())
	return files, nil
}

// isReadOnly reports whether err says a file or directory may not be written: permission denied, or a
// read-only file system.
func isReadOnly(err error) bool {
	return err != nil && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS))
}

// backend is a store as the commands open it: the Store, and the field metadata (store.Fields) that
// serve checks at start and migrate maintains. Both backends are one.
type backend interface {
	store.Store
	store.Fields
}

var (
	_ backend = (*sqlite.Store)(nil)
	_ backend = (*postgres.Store)(nil)
)

// openStoreFor opens the store a --store value names, for a command that uses it as use says. A
// database migrated by a newer release is refused (*migrate.SchemaTooNewError). Its errors do not name
// the store: the caller prefixes them with the setting and the store, redacted. For a SQLite store it
// also returns the files that existed before, so a command that fails can remove what it created; when
// opening itself fails, they are removed here.
func openStoreFor(ctx context.Context, spec string, db postgres.Options, use storeUse) (backend, *sqliteFiles, error) {
	if path, ok := strings.CutPrefix(spec, "sqlite:"); ok {
		if path == "" {
			return nil, nil, errors.New("a SQLite store needs a file path after sqlite:, e.g. sqlite:contactsync.db")
		}
		files, err := checkSQLitePath(path, use)
		if err != nil {
			return nil, nil, err
		}
		st, err := sqlite.Open(ctx, path)
		if err != nil {
			files.removeCreated()
			return nil, nil, err
		}
		return st, files, nil
	}
	if isPostgres(spec) {
		st, err := postgres.Open(ctx, spec, db)
		if err != nil {
			return nil, nil, explainPostgres(err)
		}
		return st, nil, nil
	}
	return nil, nil, errors.New("unknown store; use sqlite:PATH or postgres://…")
}

// explainPostgres adds what to do to the PostgreSQL errors a new deployment meets first.
func explainPostgres(err error) error {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		return err
	}
	switch pg.Code {
	case "3F000": // invalid_schema_name: no schema of the search_path exists
		return fmt.Errorf("%w\nno schema of the connection's search_path exists, so there is nowhere to create the tables: create it (CREATE SCHEMA name;) or name an existing one in the DSN (…&search_path=public)", err)
	case "3D000": // invalid_catalog_name: no such database
		return fmt.Errorf("%w\nthe database named in the DSN does not exist: create it (createdb NAME, or CREATE DATABASE name;)", err)
	case "42501": // insufficient_privilege
		return fmt.Errorf("%w\nthe DSN's user may not create or use the tables: grant it CREATE and USAGE on the schema (GRANT CREATE, USAGE ON SCHEMA name TO user;), or connect as the schema's owner", err)
	}
	return err
}
