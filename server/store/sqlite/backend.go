package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/pflag"

	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/sqlite/servelock"
)

// scheme starts every --store value of a SQLite store: sqlite:PATH.
const scheme = "sqlite:"

// DefaultStore is --store's default: a SQLite database in the working directory.
const DefaultStore = scheme + "contactsync.db"

// Backend is the SQLite store as the commands reach it through the registry (backend.Backend): a
// --store value sqlite:PATH names the database file PATH. It has no settings of its own.
type Backend struct{}

var (
	_ backend.Backend  = Backend{}
	_ backend.Locker   = Backend{}
	_ backend.Backuper = Backend{}
	_ backend.Store    = (*Store)(nil)
)

// Name implements backend.Backend.
func (Backend) Name() string { return "sqlite" }

// Recognise implements backend.Backend: a value starting with sqlite:.
func (Backend) Recognise(spec string) bool { return strings.HasPrefix(spec, scheme) }

// Help implements backend.Backend.
func (Backend) Help() backend.Help {
	return backend.Help{Form: scheme + "PATH", Usage: scheme + "PATH"}
}

// Redact implements backend.Backend: a path holds no secret, so it is shown as given.
func (Backend) Redact(spec string) string { return spec }

// Flags implements backend.Backend: SQLite has no settings.
func (Backend) Flags(*pflag.FlagSet, backend.Scope) backend.Options { return nil }

// path returns the database file a --store value names, or an error when it names none.
func path(spec string) (string, error) {
	p := strings.TrimPrefix(spec, scheme)
	if p == "" {
		return "", errors.New("a SQLite store needs a file path after " + scheme + ", e.g. " + DefaultStore)
	}
	return p, nil
}

// Open implements backend.Backend. Before SQLite opens the file, its directory and the file itself are
// checked (checkPath), so a mistyped or unwritable path is reported as such; the Created returned
// removes the database's files that did not exist before.
func (Backend) Open(ctx context.Context, spec string, _ backend.Options, use backend.Use) (backend.Store, *backend.Created, error) {
	p, err := path(spec)
	if err != nil {
		return nil, nil, err
	}
	files, err := checkPath(p, use)
	if err != nil {
		return nil, nil, err
	}
	st, err := Open(ctx, p)
	if err != nil {
		files.removeCreated()
		return nil, nil, err
	}
	return st, backend.NewCreated(files.removeCreated), nil
}

// Migrate implements backend.Backend (see the package function Migrate).
func (Backend) Migrate(ctx context.Context, spec string, _ backend.Options) ([]migrate.Migration, error) {
	p, err := path(spec)
	if err != nil {
		return nil, err
	}
	return Migrate(ctx, p)
}

// Migrations implements backend.Backend.
func (Backend) Migrations() fs.FS { return Migrations() }

// Lock implements backend.Locker: one serve per SQLite file (servelock). The path is checked first,
// so a mistyped directory is reported as such rather than as a lock that cannot be taken.
func (Backend) Lock(spec string) (func() error, error) {
	p, err := path(spec)
	if err != nil {
		return nil, nil // Open says why
	}
	if _, err := checkPath(p, backend.Write); err != nil {
		return nil, err
	}
	lock, err := servelock.Acquire(p)
	if err != nil {
		return nil, fmt.Errorf("%w%s", err, lockHint(err))
	}
	return lock.Release, nil
}

// lockHint says what to do when another serve holds a SQLite file.
func lockHint(err error) string {
	var held *servelock.HeldError
	if !errors.As(err, &held) {
		return ""
	}
	return ". One serve per SQLite file: stop the other one first; to run several instances, keep the contacts in PostgreSQL " +
		"(contactsync copy moves them; docs/operations.md, \"Running several instances\"). backup, export and import may run beside serve."
}

// Backup implements backend.Backuper (see the package function Backup).
func (Backend) Backup(ctx context.Context, spec, to string) (backend.BackupResult, error) {
	p, err := path(spec)
	if err != nil {
		return backend.BackupResult{}, err
	}
	res, err := Backup(ctx, p, to)
	return backend.BackupResult{Contacts: res.Contacts, Bytes: res.Bytes}, err
}
