// Package backend says what a store backend supplies to the commands, and keeps the Registry that
// picks a backend from the form of a --store value: its scheme (sqlite:PATH, postgres://…) or
// whatever else the backend recognises as its own (a PostgreSQL key=value DSN, host=a,b dbname=x, has
// no scheme). Each backend brings its options and the flags that fill them, opening, migrating, the
// single-writer lock where it needs one, the redaction of secrets from its --store values for logs
// and errors, and its help text; the commands ask the registry and never name a backend.
//
// The model is dex's storage registry (cmd/dex: a map from a storage's name to its config type):
// adding a backend is one package implementing Backend plus one line in package stores, which lists
// the backends this binary carries. Backends do not register themselves (no init side effects): the
// list in package stores is the one place that says which exist, and the order there is the order in
// which they are asked whether a --store value is theirs.
//
// Imports: the standard library, server/store, server/store/migrate and pflag (the flags a backend
// registers). Never a backend package, which import this one, and nothing of the wire.
package backend

import (
	"context"
	"io/fs"

	"github.com/spf13/pflag"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"
)

// Backend is one kind of store.
type Backend interface {
	// Name names the kind of store, as the start-up log's store_kind and Settings' keys give it:
	// "sqlite", "postgres".
	Name() string
	// Recognise reports whether spec, a --store value, names a store of this kind. It must not fail
	// or do any I/O: it looks at the form of the value only.
	Recognise(spec string) bool
	// Help describes the --store values this backend takes.
	Help() Help
	// Redact returns spec, a value Recognise accepted, with any secret in it masked, for logs and
	// errors.
	Redact(spec string) string
	// Flags registers this backend's settings for a command on fs and returns the options they
	// fill, or nil when the backend has none. scope says which of them the command takes.
	Flags(fs *pflag.FlagSet, scope Scope) Options
	// Open opens the store spec names, applying the migrations it lacks, for a command that uses it
	// as use says. opts are the options Flags returned, or nil for the defaults. A store migrated by a
	// newer release is refused (*migrate.SchemaTooNewError). The errors do not name spec: the caller
	// prefixes them with the setting and the value, redacted. When opening fails, whatever opening
	// created is removed again.
	Open(ctx context.Context, spec string, opts Options, use Use) (Store, *Created, error)
	// Migrate applies the migrations the store spec names lacks, creating it if need be, and returns
	// those it applied (also when it fails part way). It is safe while a serve uses the store.
	Migrate(ctx context.Context, spec string, opts Options) ([]migrate.Migration, error)
	// Migrations returns the schema migrations this binary carries for the backend (NNNN_name.sql
	// files at the root), which say the schema version it writes.
	Migrations() fs.FS
}

// Locker is implemented by a backend whose store only one serve may use at a time (one SQLite file
// is written by one process): serve takes the lock before it opens the store and releases it after
// closing it. A backend that lets several instances share a store does not implement it.
type Locker interface {
	// Lock takes the single-writer lock of the store spec names, or says who holds it and what to do.
	// A spec too malformed to lock returns a nil release and no error, leaving Open to say why.
	Lock(spec string) (release func() error, err error)
}

// Waiter is implemented by a backend whose store may be reachable a little later than the command
// starts (a database server starting beside serve, under systemd or an orchestrator): serve retries
// opening such a store while Transient says the error may pass (--store-wait). A backend whose store
// is a local file (SQLite) does not implement it: its open errors never pass by themselves.
type Waiter interface {
	// Transient reports whether err, returned by Open, may pass without anyone changing anything: the
	// server is not reachable yet, is starting up or refuses connections for now. An error only a
	// person can fix (a wrong password, a missing database or role, a schema too new) is not.
	Transient(err error) bool
}

// Backuper is implemented by a backend that can back a store up while it serves, for the backup
// command. A backend whose stores are backed up with other tools implements it to say which.
type Backuper interface {
	// Backup writes a consistent, verified copy of the store spec names to the file to.
	Backup(ctx context.Context, spec, to string) (BackupResult, error)
}

// BackupResult is what a backup wrote.
type BackupResult struct {
	// Contacts is the number of contacts the backup holds.
	Contacts int64
	// Bytes is the backup file's size.
	Bytes int64
}

// Help describes a backend's --store values.
type Help struct {
	// Form is the values' shape in a few characters, as an error listing the forms --store takes
	// shows it: "sqlite:PATH", "postgres://…".
	Form string
	// Usage is the form as --store's help shows it, with whatever explains it.
	Usage string
}

// Store is a store as the commands open it: the store.Store, and the field metadata (store.Fields)
// that serve checks at start and migrate maintains.
type Store interface {
	store.Store
	store.Fields
}

// Use says how a command uses its store, which decides what opening it may create.
type Use int

const (
	// Read is the use of a command that reads a store that must exist already (export, copy --from):
	// a missing database is an error rather than an empty one created to read nothing from.
	Read Use = iota
	// Write is the use of a command that writes (serve, import, migrate, copy --to): a missing
	// database is created, and a command that then fails having written nothing removes it again
	// (Created.Remove).
	Write
)

// Scope says which of a backend's settings a command takes.
type Scope int

const (
	// Serving is the scope of the commands that open a store to serve or move contacts (serve, export,
	// import, copy): every setting.
	Serving Scope = iota
	// Migrating is the scope of migrate, which only connects to bring the schema up to date: the
	// settings that connecting needs.
	Migrating
)

// Options are one backend's settings, as its flags fill them.
type Options interface {
	// Validate refuses settings that cannot work, naming the flag.
	Validate() error
}

// Created is what opening a store created (a SQLite database's files), so that a command that fails
// having written nothing can leave things as it found them. A nil *Created created nothing.
type Created struct {
	remove func()
}

// NewCreated returns a Created that remove undoes.
func NewCreated(remove func()) *Created { return &Created{remove: remove} }

// Remove removes what opening created. Call it only after the store is closed.
func (c *Created) Remove() {
	if c != nil && c.remove != nil {
		c.remove()
	}
}
