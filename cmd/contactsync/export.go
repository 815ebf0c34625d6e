package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/transfer"
)

// exportOptions holds everything export is configured with.
type exportOptions struct {
	store string
	// stores holds the store backends' settings; nil means their defaults.
	stores backend.Settings
	out    string
	format string
}

func newExportCommand() *cobra.Command {
	var opts exportOptions
	cmd := &cobra.Command{
		Use:   "export [--out FILE|-] [--format jsonl|csv]",
		Short: "Write every contact of a store as JSON Lines or CSV",
		Long: "Write every contact the store keeps, in id order, from one consistent snapshot (one read\n" +
			"transaction; REPEATABLE READ on PostgreSQL), streamed: memory stays flat whatever the size. JSON\n" +
			"Lines: one object per line, the contact's canonical document: every element of the contract's\n" +
			"record type in schema order, each XSD type in its lexical form (docs/data.md). CSV: a header row\n" +
			"of the top-level element names, a simple value as its lexical form, a nested value or an array as\n" +
			"its JSON text. A file is written beside --out and renamed into place when complete. The count goes\n" +
			"to stderr.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := formatFor(cmd, opts.format, opts.out)
			if err != nil {
				return err
			}
			return runExport(cmd.Context(), opts, format, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	storeFlag(cmd, "store", &opts.store, "")
	var names []string
	opts.stores, names = storeSettings(cmd, backend.Serving, "store")
	cmd.Flags().StringVar(&opts.out, "out", "-", "file to write, or - for standard output")
	formatFlag(cmd, &opts.format)
	return bindSettings(cmd, names...)
}

func runExport(ctx context.Context, opts exportOptions, format transfer.Format, stdout, stderr io.Writer) (err error) {
	st, _, err := openBulkStore(ctx, "store", opts.store, opts.stores, backend.Read)
	if err != nil {
		return err
	}
	defer st.Close()

	w := stdout
	var tmp *os.File
	if info, statErr := os.Stat(opts.out); opts.out != "-" && statErr == nil && !info.Mode().IsRegular() {
		// A device or a named pipe (/dev/null, a FIFO another process reads) is written as it is: a
		// rename would replace it with a regular file.
		dev, err := os.OpenFile(opts.out, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		defer dev.Close()
		w = dev
	} else if opts.out != "-" {
		// A file appears only when complete: an export that fails half way leaves no truncated file
		// that could later be imported as if it were whole.
		tmp, err = os.CreateTemp(filepath.Dir(opts.out), filepath.Base(opts.out)+".*.tmp")
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		defer func() {
			if err != nil {
				_ = tmp.Close()
				_ = os.Remove(tmp.Name())
			}
		}()
		w = tmp
	}
	enc, err := transfer.NewEncoder(w, format, records)
	if err != nil {
		return err
	}
	total := int64(-1)
	if n, err := st.Count(ctx); err == nil {
		total = n
	}
	bar := newProgress(stderr, total, "exporting", false)
	n, err := transfer.Export(ctx, st, enc, bar.set)
	bar.done(n)
	if err != nil {
		return fmt.Errorf("export from %s: %w", stores.Registry.Redact(opts.store), err)
	}
	if err := enc.Flush(); err != nil {
		return fmt.Errorf("export: write: %w", err)
	}
	if tmp != nil {
		if err := tmp.Sync(); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		if err := tmp.Close(); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		if err := os.Rename(tmp.Name(), opts.out); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	fmt.Fprintf(stderr, "exported %d contacts from %s (%s)\n", n, stores.Registry.Redact(opts.store), format)
	return nil
}
