package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/spf13/cobra"
)

// migrateOptions holds everything migrate is configured with.
type migrateOptions struct {
	store          string
	connectTimeout time.Duration
}

func newMigrateCommand() *cobra.Command {
	var opts migrateOptions
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Bring the store's schema up to date",
		Long: "Apply the schema migrations this binary carries that the store lacks, and report them.\n" +
			"serve applies them too when it starts; run migrate to upgrade ahead of a rollout. A store\n" +
			"migrated by a newer release is left untouched and reported as an error.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMigrate(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&opts.store, "store", "sqlite:contactsync.db", storeHelp)
	cmd.Flags().DurationVar(&opts.connectTimeout, "db-connect-timeout", postgres.DefaultConnectTimeout, "PostgreSQL: time allowed to connect")
	return bindSettings(cmd)
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
	return nil
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
