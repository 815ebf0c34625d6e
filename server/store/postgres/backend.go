package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/spf13/pflag"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/migrate"
)

// Backend is the PostgreSQL store as the commands reach it through the registry (backend.Backend):
// a --store value is a DSN, as a postgres:// or postgresql:// URL or as libpq's key=value string
// (host=a,b dbname=x target_session_attrs=read-write, the form a replicated PostgreSQL is often
// named by), and its options are Options, filled by the --db-* flags. It takes no single-writer lock:
// any number of instances may share one database.
type Backend struct{}

var (
	_ backend.Backend  = Backend{}
	_ backend.Backuper = Backend{}
	_ backend.Waiter   = Backend{}
	_ backend.Store    = (*Store)(nil)
	_ backend.Options  = (*Options)(nil)
)

// Name implements backend.Backend.
func (Backend) Name() string { return "postgres" }

// Recognise implements backend.Backend: a postgres:// or postgresql:// URL, or a key=value DSN whose
// first key is one libpq knows (keywords).
func (Backend) Recognise(spec string) bool {
	if isURL(spec) {
		return true
	}
	key, _, ok := strings.Cut(strings.TrimLeftFunc(spec, unicode.IsSpace), "=")
	return ok && keywords[strings.TrimRightFunc(key, unicode.IsSpace)]
}

// isURL reports whether spec is a DSN in URL form.
func isURL(spec string) bool {
	return strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://")
}

// keywords are the libpq connection parameters a key=value DSN most often starts with
// (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-PARAMKEYWORDS).
var keywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true,
	"passfile": true, "connect_timeout": true, "sslmode": true, "sslcert": true, "sslkey": true,
	"sslrootcert": true, "application_name": true, "target_session_attrs": true, "service": true,
	"options": true, "search_path": true,
}

// Help implements backend.Backend.
func (Backend) Help() backend.Help {
	return backend.Help{
		Form:  "postgres://…",
		Usage: "postgres://USER@HOST:PORT/DB?sslmode=… (a PostgreSQL DSN; libpq's key=value form, host=H1,H2 dbname=DB …, too)",
	}
}

// Redact implements backend.Backend: a URL's password is masked, and so is a key=value DSN's
// password value; a value that cannot be read as either is not shown at all.
func (Backend) Redact(spec string) string {
	if isURL(spec) {
		u, err := url.Parse(spec)
		if err != nil {
			return "postgres://…"
		}
		return u.Redacted()
	}
	pairs, ok := splitKeywordDSN(spec)
	if !ok {
		return "…"
	}
	for i, kv := range pairs {
		if kv[0] == "password" {
			pairs[i][1] = "xxxxx"
		}
	}
	out := make([]string, len(pairs))
	for i, kv := range pairs {
		v := kv[1]
		if v == "" || strings.ContainsAny(v, " \t\n'\\") {
			v = "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
		}
		out[i] = kv[0] + "=" + v
	}
	return strings.Join(out, " ")
}

// splitKeywordDSN reads a key=value DSN as libpq does: pairs separated by white space, white space
// allowed around '=', a value single-quoted or not, a backslash escaping the next character. It
// reports false for anything else.
func splitKeywordDSN(s string) ([][2]string, bool) {
	var pairs [][2]string
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			return pairs, len(pairs) > 0
		}
		key, rest, ok := strings.Cut(s, "=")
		key = strings.TrimRightFunc(key, unicode.IsSpace)
		if !ok || key == "" || strings.ContainsFunc(key, unicode.IsSpace) {
			return nil, false
		}
		s = strings.TrimLeftFunc(rest, unicode.IsSpace)
		var v strings.Builder
		quoted := strings.HasPrefix(s, "'")
		if quoted {
			s = s[1:]
		}
		closed := !quoted
		for len(s) > 0 {
			c := s[0]
			if c == '\\' && len(s) > 1 {
				v.WriteByte(s[1])
				s = s[2:]
				continue
			}
			if quoted && c == '\'' {
				s, closed = s[1:], true
				break
			}
			if !quoted && unicode.IsSpace(rune(c)) {
				break
			}
			v.WriteByte(c)
			s = s[1:]
		}
		if !closed {
			return nil, false
		}
		pairs = append(pairs, [2]string{key, v.String()})
	}
}

// Flags implements backend.Backend: the pool settings for the commands that serve or move contacts,
// the connect timeout alone for migrate. Settings a scope leaves out keep their defaults.
func (Backend) Flags(f *pflag.FlagSet, scope backend.Scope) backend.Options {
	o := &Options{MaxConns: DefaultMaxConns, ConnectTimeout: DefaultConnectTimeout, Timeout: DefaultTimeout}
	if scope == backend.Migrating {
		f.DurationVar(&o.ConnectTimeout, "db-connect-timeout", DefaultConnectTimeout, "PostgreSQL: time allowed to connect")
		return o
	}
	f.Int32Var(&o.MaxConns, "db-max-conns", DefaultMaxConns, "PostgreSQL: most pooled connections of this instance")
	f.DurationVar(&o.ConnectTimeout, "db-connect-timeout", DefaultConnectTimeout, "PostgreSQL: time allowed to open one connection")
	f.DurationVar(&o.Timeout, "db-timeout", DefaultTimeout, "PostgreSQL: time allowed for one operation, waiting for a connection and locks included; beyond it the request gets 503")
	return o
}

// Validate implements backend.Options: it refuses settings that cannot work, naming their flags.
func (o *Options) Validate() error {
	switch {
	case o.MaxConns < 1:
		return errors.New("--db-max-conns must be at least 1")
	case o.ConnectTimeout <= 0:
		return errors.New("--db-connect-timeout must be positive")
	case o.Timeout <= 0:
		return errors.New("--db-timeout must be positive")
	}
	return nil
}

// optionsOf returns the Options the registry handed over: the defaults for nil.
func optionsOf(opts backend.Options) (Options, error) {
	switch o := opts.(type) {
	case nil:
		return Options{}, nil
	case *Options:
		return *o, nil
	}
	return Options{}, fmt.Errorf("postgres: options of type %T, want *postgres.Options", opts)
}

// Open implements backend.Backend; the errors a new deployment meets first say what to do (explain).
func (Backend) Open(ctx context.Context, spec string, opts backend.Options, _ backend.Use) (backend.Store, *backend.Created, error) {
	o, err := optionsOf(opts)
	if err != nil {
		return nil, nil, err
	}
	st, err := Open(ctx, spec, o)
	if err != nil {
		return nil, nil, explain(err)
	}
	return st, nil, nil
}

// Migrate implements backend.Backend (see the package function Migrate).
func (Backend) Migrate(ctx context.Context, spec string, opts backend.Options) ([]migrate.Migration, error) {
	o, err := optionsOf(opts)
	if err != nil {
		return nil, err
	}
	applied, err := Migrate(ctx, spec, o.ConnectTimeout)
	return applied, explain(err)
}

// Migrations implements backend.Backend.
func (Backend) Migrations() fs.FS { return Migrations() }

// Transient implements backend.Waiter: an error of Open is transient when the database could not
// serve now (unreachable, refusing connections, starting up or shutting down, out of connections:
// what wraps store.ErrUnavailable), and never when a person must act: a wrong password (28P01), a
// role that may not log in or does not exist (28000) or a missing database (3D000) fail at once
// rather than being retried until --store-wait runs out.
func (Backend) Transient(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch pg.Code {
		case "28P01", "28000", "3D000": // invalid_password, invalid_authorization_specification, invalid_catalog_name
			return false
		}
	}
	return errors.Is(err, store.ErrUnavailable) || unavailable(err)
}

// pgDumpHint is what backup says for a PostgreSQL store.
const pgDumpHint = "backup copies a SQLite store's file; a PostgreSQL store is backed up with PostgreSQL's own tools: " +
	"pg_dump --format=custom --table=SCHEMA.contacts --table=SCHEMA.record_fields --table=SCHEMA.schema_migrations (SCHEMA: public, or the DSN's search_path), " +
	"restored with pg_restore; or `contactsync export` for a JSON Lines copy (docs/data.md)"

// Backup implements backend.Backuper by saying which tools back a PostgreSQL store up.
func (Backend) Backup(context.Context, string, string) (backend.BackupResult, error) {
	return backend.BackupResult{}, errors.New(pgDumpHint)
}

// explain adds what to do to the PostgreSQL errors a new deployment meets first.
func explain(err error) error {
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
