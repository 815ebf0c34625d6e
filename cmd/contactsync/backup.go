package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/contactsync/contactsync/server/store/stores"
)

// backupOptions holds everything backup is configured with.
type backupOptions struct {
	store string
	to    string
}

func newBackupCommand() *cobra.Command {
	var opts backupOptions
	cmd := &cobra.Command{
		Use:   "backup --to FILE",
		Short: "Write a consistent, verified copy of a SQLite store while it serves",
		Long: "Copy the SQLite database file of --store to --to while serve keeps using it: one read snapshot\n" +
			"copied page by page with SQLite's online backup (never a file copy, which would miss the writes\n" +
			"still in the -wal file), checked (integrity_check, contact count), fsynced and renamed into place,\n" +
			"so --to is either its previous content or a complete backup. The backup holds every write\n" +
			"acknowledged before it started. Restore by stopping serve and putting the file in the store's\n" +
			"place (docs/data.md). For a PostgreSQL store use pg_dump.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBackup(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	storeFlag(cmd, "store", &opts.store, "")
	cmd.Flags().StringVar(&opts.to, "to", "", "file to write the backup to (replaced atomically if it exists)")
	return bindSettings(cmd, "store")
}

func runBackup(ctx context.Context, opts backupOptions, out io.Writer) error {
	if opts.to == "" {
		return errors.New("--to is required: the file to write the backup to")
	}
	name := stores.Registry.Redact(opts.store)
	if _, err := stores.Registry.Lookup(opts.store); err != nil {
		return fmt.Errorf("--store %q: %w", name, err)
	}
	// A backend that cannot back up while serving says what backs its stores up instead.
	res, err := stores.Registry.Backup(ctx, opts.store, opts.to)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "backup of %s written to %s: %d contacts, %d bytes, integrity ok\n", name, opts.to, res.Contacts, res.Bytes)
	return nil
}
