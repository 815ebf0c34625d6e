package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/transfer"
)

// importOptions holds everything import is configured with.
type importOptions struct {
	store     string
	db        postgres.Options
	in        string
	format    string
	mode      string
	maxErrors int
	batchSize int
}

// maxReportedRefusals bounds the refusals printed one by one; the count in the report covers all.
const maxReportedRefusals = 1000

func newImportCommand() *cobra.Command {
	var opts importOptions
	cmd := &cobra.Command{
		Use:   "import [--in FILE|-] [--mode upsert|insert-only] [--max-errors N]",
		Short: "Load contacts from JSON Lines or CSV into a store",
		Long: "Read contacts in the format export writes (JSON Lines, or CSV with a header row of the Contact\n" +
			"element names, roles separated by semicolons, UTF-8 with or without a byte order mark) and write\n" +
			"them to the store in batches. --mode upsert (the default) replaces a stored contact with the same\n" +
			"id, so importing a file twice changes nothing; --mode insert-only refuses it. A record the service\n" +
			"would not accept is refused with its line number and the reason.\n\n" +
			"--max-errors 0 (the default) checks the whole input before writing anything (standard input is\n" +
			"spooled to a temporary file for that) and writes nothing if any record is bad. --max-errors N\n" +
			"writes the good records and stops at the Nth refusal. May run while serve uses the same SQLite\n" +
			"file: each write transaction is kept short, so the service's writes are not stalled. The report\n" +
			"(read, inserted, updated, refused) goes to standard output, refusals to standard error.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := formatFor(cmd, opts.format, opts.in)
			if err != nil {
				return err
			}
			return runImport(cmd.Context(), opts, format, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&opts.store, "store", "sqlite:contactsync.db", dataStoreHelp)
	dbFlags(cmd, &opts.db)
	cmd.Flags().StringVar(&opts.in, "in", "-", "file to read, or - for standard input")
	formatFlag(cmd, &opts.format)
	cmd.Flags().StringVar(&opts.mode, "mode", store.Upsert.String(), "upsert (replace a stored contact with the same id) or insert-only (refuse it)")
	cmd.Flags().IntVar(&opts.maxErrors, "max-errors", 0, "0: write nothing if any record is bad; N: write the good records, stop at the Nth refusal")
	cmd.Flags().IntVar(&opts.batchSize, "batch-size", transfer.DefaultBatchSize, "contacts per batch write")
	return bindSettings(cmd, "store", "db-max-conns", "db-connect-timeout", "db-timeout")
}

// parseMode returns the write mode --mode names.
func parseMode(s string) (store.WriteMode, error) {
	for _, m := range []store.WriteMode{store.Upsert, store.InsertOnly} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("--mode %q: use upsert or insert-only", s)
}

func runImport(ctx context.Context, opts importOptions, format transfer.Format, stdin io.Reader, stdout, stderr io.Writer) error {
	mode, err := parseMode(opts.mode)
	if err != nil {
		return err
	}
	if opts.maxErrors < 0 {
		return errors.New("--max-errors must be 0 or more")
	}
	if opts.batchSize < 1 {
		return errors.New("--batch-size must be at least 1")
	}
	in, size := stdin, int64(-1)
	var file *os.File
	if opts.in != "-" {
		if file, err = os.Open(opts.in); err != nil {
			return fmt.Errorf("--in: %w", err)
		}
		defer file.Close()
		if info, err := file.Stat(); err == nil && info.Mode().IsRegular() {
			size = info.Size()
		}
		in = file
	}
	// The store opens before the input is read, so a wrong --store fails at once, not after a check
	// of a large file.
	st, err := openBulkStore(ctx, opts.store, opts.db)
	if err != nil {
		return err
	}
	defer st.Close()

	reported := 0
	onRefused := func(r transfer.Refusal) {
		reported++
		switch {
		case reported <= maxReportedRefusals:
			fmt.Fprintf(stderr, "line %d: %s\n", r.Line, r.Reason)
		case reported == maxReportedRefusals+1:
			fmt.Fprintf(stderr, "(further refusals are counted in the report, not listed)\n")
		}
	}

	stopAfter := opts.maxErrors
	if opts.maxErrors == 0 {
		// First pass: check every record, writing nothing. Standard input cannot be read twice, so it is
		// spooled to a temporary file as it is checked; a file is read again from the start.
		source := in
		var spool *os.File
		if size < 0 || file == nil {
			if spool, err = os.CreateTemp("", "contactsync-import-*"); err != nil {
				return fmt.Errorf("spool standard input: %w", err)
			}
			defer func() { _ = spool.Close(); _ = os.Remove(spool.Name()) }()
			source = io.TeeReader(in, spool)
		}
		dec, err := transfer.NewDecoder(source, format, convert)
		if err != nil {
			return fmt.Errorf("--in %s: %w", opts.in, err)
		}
		bar := newProgress(stderr, size, "checking", true)
		read, refused, err := transfer.Check(dec, onRefused, bar.set)
		bar.done(dec.Offset())
		if err != nil {
			return fmt.Errorf("--in %s: %w", opts.in, err)
		}
		if refused > 0 {
			fmt.Fprintln(stdout, reportLine(transfer.Report{Read: read, Refused: refused}))
			return fmt.Errorf("%d of %d records refused; nothing was written (--max-errors 0: fix them, or pass --max-errors N to write the good ones)", refused, read)
		}
		if spool != nil {
			in = spool
		}
		if _, err := in.(io.Seeker).Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("--in %s: read again: %w", opts.in, err)
		}
		// Only writing can tell that an id is taken (insert-only): the first such refusal stops the
		// import, since the check promised a clean run.
		stopAfter = 1
	}

	dec, err := transfer.NewDecoder(in, format, convert)
	if err != nil {
		return fmt.Errorf("--in %s: %w", opts.in, err)
	}
	bar := newProgress(stderr, size, "importing", true)
	rep, err := transfer.Import(ctx, st, dec, transfer.ImportOptions{
		Mode: mode, StopAfter: stopAfter, BatchSize: opts.batchSize, OnRefused: onRefused, Progress: bar.set,
	})
	bar.done(dec.Offset())
	fmt.Fprintln(stdout, reportLine(rep))
	if err != nil {
		if errors.Is(err, transfer.ErrStopped) {
			return fmt.Errorf("import into %s stopped: %w (--max-errors %d); the records before it were written", redactStore(opts.store), err, opts.maxErrors)
		}
		return fmt.Errorf("import into %s: %w", redactStore(opts.store), err)
	}
	return nil
}
