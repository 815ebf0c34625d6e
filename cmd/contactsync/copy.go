package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/transfer"
)

// copyOptions holds everything copy is configured with.
type copyOptions struct {
	from string
	to   string
	// stores holds the store backends' settings; nil means their defaults.
	stores backend.Settings
	upsert bool
	// beforeVerify, when set, runs between the copy and its verification. Tests use it to change the
	// target and see the verification fail.
	beforeVerify func(dst store.Store)
}

func newCopyCommand() *cobra.Command {
	var opts copyOptions
	cmd := &cobra.Command{
		Use:   "copy --from STORE --to STORE [--upsert]",
		Short: "Copy every contact from one store to another and verify the copy",
		Long: "Move a deployment between stores, e.g. from SQLite to PostgreSQL: brings the target's schema up\n" +
			"to date, refuses a target that holds contacts unless --upsert, streams every contact of one\n" +
			"snapshot of the source into the target in batches, then verifies: both stores are read again and\n" +
			"their contact counts and a SHA-256 over their contents must match. Stop the service's writes to\n" +
			"the source first: a write made during the copy makes the verification fail (run copy --upsert\n" +
			"again). A target that held contacts before an --upsert copy is checked to hold every contact of the\n" +
			"source instead. The report goes to standard output.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCopy(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	storeFlag(cmd, "from", &opts.from, "the store to copy from: ")
	cmd.Flags().StringVar(&opts.to, "to", "", "the store to copy to: "+stores.Registry.Usage())
	var names []string
	opts.stores, names = storeSettings(cmd, backend.Serving, "from", "to")
	cmd.Flags().BoolVar(&opts.upsert, "upsert", false, "copy into a target that holds contacts, replacing those with the same ids")
	return bindSettings(cmd, names...)
}

func runCopy(ctx context.Context, opts copyOptions, stdout, stderr io.Writer) (err error) {
	if opts.to == "" {
		return errors.New("--to is required: the store to copy to")
	}
	if opts.from == opts.to {
		return fmt.Errorf("--from and --to name the same store (%s)", stores.Registry.Redact(opts.to))
	}
	src, _, err := openBulkStore(ctx, "from", opts.from, opts.stores, backend.Read)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, dstCreated, err := openBulkStore(ctx, "to", opts.to, opts.stores, backend.Write) // opening migrates the target's schema
	if err != nil {
		return err
	}
	defer func() {
		_ = dst.Close()
		if err != nil {
			dstCreated.Remove() // a target this copy created holds part of the source at most
		}
	}()

	held, err := dst.Count(ctx)
	if err != nil {
		return fmt.Errorf("--to %s: %w", stores.Registry.Redact(opts.to), err)
	}
	mode := store.InsertOnly
	if held > 0 {
		if !opts.upsert {
			return fmt.Errorf("--to %s holds %d contacts; copy refuses a target that is not empty (pass --upsert to merge into it)", stores.Registry.Redact(opts.to), held)
		}
	}
	if opts.upsert {
		mode = store.Upsert
	}
	// The fields copy writes are recorded in the target before it writes them: the contract's, and
	// those the source records that the contract lacks, whose values copy carries (store.Fields). A
	// store recording a field under another type than the contract's is refused, as serve refuses it.
	srcFields, err := src.StoredFields(ctx)
	if err != nil {
		return fmt.Errorf("--from %s: %w", stores.Registry.Redact(opts.from), err)
	}
	plan := store.Compare(srcFields, contractFields())
	if len(plan.Report.Changed) > 0 {
		return fmt.Errorf("--from %s: %w", stores.Registry.Redact(opts.from), &FieldTypeError{Changed: plan.Report.Changed, Store: quoteArg(stores.Registry.Redact(opts.from))})
	}
	if _, err := heldStranded(ctx, src, plan.Report.Dropped, opts.from); err != nil {
		return fmt.Errorf("--from %s: %w", stores.Registry.Redact(opts.from), err)
	}
	// The derived types the source records that the contract lacks (under a concrete declared type,
	// or where no source record holds one) are carried as well.
	carried := append(slices.Clone(plan.Report.Carried), plan.Report.Dropped...)
	if _, err := checkFields(ctx, dst, opts.to, carried, warnTo(stderr, "copy")); err != nil {
		return fmt.Errorf("--to %s: %w", stores.Registry.Redact(opts.to), err)
	}
	total := int64(-1)
	if n, err := src.Count(ctx); err == nil {
		total = n
	}
	bar := newProgress(stderr, total, "copying", false)
	rep, err := transfer.Copy(ctx, records, src, dst, transfer.CopyOptions{Mode: mode, Progress: bar.set})
	bar.done(rep.Read)
	fmt.Fprintf(stdout, "copied %s to %s: %s\n", stores.Registry.Redact(opts.from), stores.Registry.Redact(opts.to), reportLine(rep))
	if err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	if opts.beforeVerify != nil {
		opts.beforeVerify(dst)
	}
	return verifyCopy(ctx, opts, src, dst, held, stdout)
}

// verifyCopy reads both stores again, in parallel, and compares their digests (count and SHA-256).
// A target that held contacts before an --upsert copy cannot match the source: it is checked instead
// to hold every contact of the source, field for field.
func verifyCopy(ctx context.Context, opts copyOptions, src, dst store.Store, held int64, stdout io.Writer) error {
	if held > 0 {
		n, err := transfer.Contains(ctx, records, dst, src)
		if err != nil {
			return fmt.Errorf("verification failed: %s does not hold every contact of %s as it is: %w; a write reached one of them during the copy, or the copy is wrong",
				stores.Registry.Redact(opts.to), stores.Registry.Redact(opts.from), err)
		}
		fmt.Fprintf(stdout, "verified: %s holds all %d contacts of %s, field for field (and the %d it held before, or their updates)\n",
			stores.Registry.Redact(opts.to), n, stores.Registry.Redact(opts.from), held)
		return nil
	}
	type result struct {
		d   transfer.Digest
		err error
	}
	fromCh := make(chan result, 1)
	go func() {
		d, err := transfer.DigestOf(ctx, records, src)
		fromCh <- result{d, err}
	}()
	to, err := transfer.DigestOf(ctx, records, dst)
	from := <-fromCh
	if from.err != nil {
		return fmt.Errorf("verify: read %s: %w", stores.Registry.Redact(opts.from), from.err)
	}
	if err != nil {
		return fmt.Errorf("verify: read %s: %w", stores.Registry.Redact(opts.to), err)
	}
	if from.d != to {
		return fmt.Errorf("verification failed: %s has %s, %s has %s; a write reached one of them during the copy, or the copy is wrong: stop the writes and run copy --upsert again",
			stores.Registry.Redact(opts.from), from.d, stores.Registry.Redact(opts.to), to)
	}
	fmt.Fprintf(stdout, "verified: both stores hold %d contacts, sha256 %x\n", to.Count, to.Sum)
	return nil
}
