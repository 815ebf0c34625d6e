package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/spf13/cobra"
)

// migrateOptions holds everything migrate is configured with.
type migrateOptions struct {
	store          string
	connectTimeout time.Duration
	// check, renames and drops are the field maintenance (store.Fields): count the records holding
	// fields the contract no longer has, move a field's values under a new name, remove a field.
	check   bool
	renames []string // Old=New
	drops   []string
}

func newMigrateCommand() *cobra.Command {
	var opts migrateOptions
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Bring the store's schema up to date",
		Long: "Apply the schema migrations this binary carries that the store lacks, and report them.\n" +
			"serve applies them too when it starts; run migrate to upgrade ahead of a rollout. A store\n" +
			"migrated by a newer release is left untouched and reported as an error.\n\n" +
			"After a contract edit removed or renamed a field of the record, serve refuses to start while\n" +
			"stored records may hold it; then --check counts the records holding each such field,\n" +
			"--rename Old=New moves a renamed field's values to its new name, and --drop Field removes\n" +
			"a field's values for good. Renames run first, then drops, then the check.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMigrate(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&opts.store, "store", "sqlite:contactsync.db", storeHelp)
	cmd.Flags().DurationVar(&opts.connectTimeout, "db-connect-timeout", postgres.DefaultConnectTimeout, "PostgreSQL: time allowed to connect")
	cmd.Flags().BoolVar(&opts.check, "check", false, "count the records holding fields the contract no longer has (exit status 1 if any may)")
	cmd.Flags().StringArrayVar(&opts.renames, "rename", nil, "Old=New: move the values of Old, a field the contract no longer has, to New, one it has (repeatable)")
	cmd.Flags().StringArrayVar(&opts.drops, "drop", nil, "remove the values of a field the contract no longer has from every record (repeatable)")
	// The store settings only: --check, --rename and --drop say what to do this time, as import's
	// --mode does, and are never read from the environment or a config file.
	return bindSettings(cmd, "store", "db-connect-timeout")
}

// runMigrate migrates the store opts names and writes what it applied to out.
func runMigrate(ctx context.Context, opts migrateOptions, out io.Writer) error {
	var (
		applied []migrate.Migration
		known   fs.FS
		err     error
	)
	switch path, isSQLite := strings.CutPrefix(opts.store, "sqlite:"); {
	case isSQLite:
		if path == "" {
			return errors.New("--store sqlite: needs a file path, e.g. sqlite:contactsync.db")
		}
		known = sqlite.Migrations()
		applied, err = migrateSQLite(ctx, path)
	case isPostgres(opts.store):
		if opts.connectTimeout <= 0 {
			return errors.New("--db-connect-timeout must be positive")
		}
		known = postgres.Migrations()
		applied, err = postgres.Migrate(ctx, opts.store, opts.connectTimeout)
	default:
		return fmt.Errorf("--store %q: unknown store; use sqlite:PATH or postgres://…", redactStore(opts.store))
	}
	for _, m := range applied {
		fmt.Fprintf(out, "applied %s\n", m.File)
	}
	if err != nil {
		return err
	}
	ms, err := migrate.Load(known)
	if err != nil {
		return err
	}
	version := 0
	if len(ms) > 0 {
		version = ms[len(ms)-1].Version
	}
	if len(applied) == 0 {
		fmt.Fprintf(out, "schema already at version %d\n", version)
	} else {
		fmt.Fprintf(out, "schema now at version %d\n", version)
	}
	if !opts.check && len(opts.renames) == 0 && len(opts.drops) == 0 {
		return nil
	}
	return maintainFields(ctx, opts, out)
}

// maintainFields runs migrate's field maintenance on the store opts names: the renames, then the
// drops, then the check. Every rename and drop is refused unless it concerns a field the contract no
// longer has (a rename's new name must be one it has), so no field of the contract loses its values.
func maintainFields(ctx context.Context, opts migrateOptions, out io.Writer) error {
	contract := contractFields()
	known := make(map[string]bool, len(contract))
	for _, f := range contract {
		known[f] = true
	}
	type rename struct{ from, to string }
	var renames []rename
	for _, r := range opts.renames {
		from, to, ok := strings.Cut(r, "=")
		switch {
		case !ok || from == "" || to == "":
			return fmt.Errorf("--rename %q: want Old=New", r)
		case known[from]:
			return fmt.Errorf("--rename %s: %s is a field of the contract; a rename moves the values of a field the contract no longer has", r, from)
		case !known[to]:
			return fmt.Errorf("--rename %s: %s is not a field of the contract (its fields: %s)", r, to, strings.Join(contract, ", "))
		}
		renames = append(renames, rename{from, to})
	}
	for _, d := range opts.drops {
		if known[d] {
			return fmt.Errorf("--drop %s: %s is a field of the contract; drop removes only fields the contract no longer has", d, d)
		}
	}
	st, _, err := openStoreFor(ctx, opts.store, postgres.Options{ConnectTimeout: opts.connectTimeout}, writeStore)
	if err != nil {
		return fmt.Errorf("--store %s: %w", redactStore(opts.store), err)
	}
	defer st.Close()
	stored, err := st.StoredFields(ctx)
	if err != nil {
		return err
	}
	gone := store.Gone(stored, contract)
	isGone := func(f string) bool { return slices.Contains(gone, f) }
	for _, r := range renames {
		if !isGone(r.from) {
			return fmt.Errorf("--rename %s=%s: the stored records hold no field %s the contract lacks (%s)", r.from, r.to, r.from, listOrNone(gone))
		}
	}
	for _, d := range opts.drops {
		if !isGone(d) {
			return fmt.Errorf("--drop %s: the stored records hold no field %s the contract lacks (%s)", d, d, listOrNone(gone))
		}
	}
	for _, r := range renames {
		n, err := st.RenameField(ctx, r.from, r.to)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "renamed %s to %s in %d records\n", r.from, r.to, n)
	}
	for _, d := range opts.drops {
		n, err := st.DropField(ctx, d)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "dropped %s from %d records\n", d, n)
	}
	if !opts.check {
		return nil
	}
	if stored, err = st.StoredFields(ctx); err != nil {
		return err
	}
	if gone = store.Gone(stored, contract); len(gone) == 0 {
		fmt.Fprintln(out, "every field the stored records may hold is in the contract")
		return nil
	}
	for _, f := range gone {
		n, err := st.CountField(ctx, f)
		switch {
		case errors.Is(err, store.ErrPathInArray):
			fmt.Fprintf(out, "%s: not in the contract; inside an array, which migrate cannot count or rewrite (export, edit and import instead)\n", f)
		case err != nil:
			return err
		default:
			fmt.Fprintf(out, "%s: not in the contract; %d records hold a value\n", f, n)
		}
	}
	return fmt.Errorf("the stored records may hold %d fields the contract no longer has (%s): rename them (--rename Old=New) or drop them (--drop Field)",
		len(gone), strings.Join(gone, ", "))
}

// migrateSQLite applies the SQLite store's migrations to the database file at path (creating it),
// with the settings sqlite.Open uses for writing: WAL, a busy timeout, and write transactions that take
// the lock up front, so it is safe while a server uses the file.
func migrateSQLite(ctx context.Context, path string) ([]migrate.Migration, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	p := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(filepath.ToSlash(abs))
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path
	}
	sqlite.CreateFile(abs) // mode 0600 for a new database, as sqlite.Open creates one
	db, err := sql.Open("sqlite", "file:"+p+
		"?_pragma=busy_timeout%2810000%29&_pragma=journal_mode%28WAL%29&_pragma=synchronous%28FULL%29&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	applied, err := migrate.Up(ctx, db, sqlite.Migrations(), migrate.QuestionMark)
	if err != nil {
		return applied, fmt.Errorf("sqlite: %s: %w", abs, err)
	}
	return applied, nil
}

// listOrNone lists fields, or says there are none.
func listOrNone(fields []string) string {
	if len(fields) == 0 {
		return "there are none"
	}
	return "they are: " + strings.Join(fields, ", ")
}
