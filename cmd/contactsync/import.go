package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/transfer"
)

// importOptions holds everything import is configured with.
type importOptions struct {
	store string
	// stores holds the store backends' settings; nil means their defaults.
	stores    backend.Settings
	in        string
	format    string
	mode      string
	maxErrors int
	batchSize int
	noCheck   bool
	renames   []string // Old=New
	// keepUnknown keeps every JSON Lines member the contract does not have, as an unknown field.
	keepUnknown bool
}

// maxReportedRefusals bounds the refusals printed one by one: a file in the wrong format refuses every
// line, and hundreds of identical lines hide the one that says why. The report counts them all.
const maxReportedRefusals = 20

func newImportCommand() *cobra.Command {
	var opts importOptions
	cmd := &cobra.Command{
		Use:   "import [--in FILE|-] [--mode upsert|insert-only] [--max-errors N] [--no-check] [--rename Old=New]...",
		Short: "Load contacts from JSON Lines or CSV into a store",
		Long: "Read contacts in the format export writes (JSON Lines, or CSV with a header row of the contract's\n" +
			"element names, UTF-8 with or without a byte order mark; an older export's ';'-separated lists are\n" +
			"read too) and write them to the store in batches. A field the contract does not have is refused,\n" +
			"naming the fields it has, unless the store records it (a field of a newer contract, written by a\n" +
			"newer release: it is kept and carried as the service carries it) or --keep-unknown keeps every such\n" +
			"field of a JSON Lines file (an export of a newer release, imported by an older one); --rename\n" +
			"Old=New (repeatable) reads an older export's field Old as New.\n" +
			" --mode upsert (the default) replaces a stored contact with the same\n" +
			"id, so importing a file twice changes nothing; --mode insert-only leaves it as it is and reports the\n" +
			"record as refused. A record the service would not accept is refused with its line number and the\n" +
			"reason; the first 20 refusals are listed, the report counts all.\n\n" +
			"--max-errors 0 (the default) checks the whole input before writing anything (standard input is\n" +
			"spooled to a temporary file for that) and writes nothing if any record is bad; --no-check skips\n" +
			"that pass for a file known good, writing as it reads and stopping at the first bad record.\n" +
			"--max-errors N writes the good records and stops at the Nth refusal. An interrupt (Ctrl-C) stops\n" +
			"the import within a second, in either pass, saying how many records were written and how to\n" +
			"finish. May run while serve uses the same SQLite file: each write transaction is kept short, so\n" +
			"the service's writes are not stalled. The report (read, inserted, updated, refused) goes to\n" +
			"standard output, refusals to standard error. Standard input on a terminal gets a line saying what\n" +
			"import reads and that Ctrl-D ends it.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := formatFor(cmd, opts.format, opts.in)
			if err != nil {
				return err
			}
			return runImport(cmd.Context(), opts, format, cmd.Flags().Changed("format"), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	storeFlag(cmd, "store", &opts.store, "")
	var names []string
	opts.stores, names = storeSettings(cmd, backend.Serving, "store")
	cmd.Flags().StringVar(&opts.in, "in", "-", "file to read, or - for standard input")
	formatFlag(cmd, &opts.format)
	cmd.Flags().StringVar(&opts.mode, "mode", store.Upsert.String(), "upsert (replace a stored contact with the same id) or insert-only (keep it, and report the record as refused)")
	cmd.Flags().IntVar(&opts.maxErrors, "max-errors", 0, "0: write nothing if any record is bad; N: write the good records, stop at the Nth refusal")
	cmd.Flags().IntVar(&opts.batchSize, "batch-size", transfer.DefaultBatchSize, "contacts per batch write")
	cmd.Flags().StringArrayVar(&opts.renames, "rename", nil, "Old=New: read the field Old of an older export as the contract's field New (repeatable)")
	cmd.Flags().BoolVar(&opts.keepUnknown, "keep-unknown", false, "keep the JSON Lines fields the contract does not have (a newer release's export) as unknown fields: stored as they are, carried by every update, exported again")
	cmd.Flags().BoolVar(&opts.noCheck, "no-check", false, "with --max-errors 0: skip the pass that checks every record before writing (for a file known good); a bad record then stops the import, the records before it written")
	return bindSettings(cmd, names...)
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

// runImport runs one import; formatGiven says whether --format was given (rather than taken from the
// file name), which changes the hint for a file in the other format.
func runImport(ctx context.Context, opts importOptions, format transfer.Format, formatGiven bool, stdin io.Reader, stdout, stderr io.Writer) (err error) {
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
	renames, err := parseRenames(opts.renames)
	if err != nil {
		return err
	}
	if opts.noCheck && opts.maxErrors > 0 {
		return errors.New("--no-check is for --max-errors 0 (the check pass is what --max-errors 0 adds); with --max-errors N nothing is checked ahead anyway")
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
	if opts.in == "-" {
		sayReadingTerminal(stdin, stderr, format)
		// A terminal's end of input (Ctrl-D) ends one read, not the input: bufio and the decoders
		// read again after an io.EOF, and would wait for a second Ctrl-D, or a third.
		in = &stickyEOF{r: stdin}
	}
	// A file in the other format would be refused line by line: say so at once. The first line is
	// read through a buffer the decoder then reads from, so standard input loses nothing.
	buffered := bufio.NewReaderSize(in, 64<<10)
	if err := sniffFormat(buffered, format, formatGiven, opts.in); err != nil {
		return err
	}
	in = buffered
	// The store opens before the input is read, so a wrong --store fails at once, not after a check
	// of a large file.
	st, created, err := openBulkStore(ctx, "store", opts.store, opts.stores, backend.Write)
	if err != nil {
		return err
	}
	var rep transfer.Report
	defer func() {
		_ = st.Close()
		if err != nil && rep.Inserted+rep.Updated == 0 {
			created.Remove() // a database this import created and wrote nothing to
		}
	}()
	// The fields import writes are recorded before it writes them (store.Fields), and a store
	// recording a field under another type than the contract's is refused as serve refuses it. The
	// fields the store records that the contract lacks (a newer contract's) are kept when a record
	// holds them, as --keep-unknown keeps any; those kept are recorded once written.
	report, err := checkFields(ctx, st, opts.store, nil, warnTo(stderr, "import"))
	if err != nil {
		return fmt.Errorf("--store %s: %w", stores.Registry.Redact(opts.store), err)
	}
	carried := make(map[string]bool, len(report.Carried))
	for _, f := range report.Carried {
		carried[f.Path] = true
	}
	decodeOpts := transfer.DecodeOptions{Renames: renames}
	if opts.keepUnknown || len(carried) > 0 {
		decodeOpts.Keep = func(path string) bool { return opts.keepUnknown || carried[path] }
	}

	reported := 0
	onRefused := func(r transfer.Refusal) {
		reported++
		if reported <= maxReportedRefusals {
			fmt.Fprintf(stderr, "line %d: %s\n", r.Line, r.Reason)
		}
	}
	unlisted := func() string {
		if reported <= maxReportedRefusals {
			return ""
		}
		return fmt.Sprintf(" (the first %d are listed above)", maxReportedRefusals)
	}

	stopAfter := opts.maxErrors
	switch {
	case opts.maxErrors == 0 && opts.noCheck:
		stopAfter = 1 // nothing was checked: the first bad record stops the import
	case opts.maxErrors == 0:
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
		dec, err := transfer.NewDecoder(source, format, records, decodeOpts)
		if err != nil {
			return fmt.Errorf("--in %s: %w", opts.in, err)
		}
		bar := newProgress(stderr, size, "checking", true)
		read, refused, err := transfer.Check(ctx, dec, onRefused, bar.set)
		bar.done(dec.Offset())
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while checking %s (%d records checked): nothing was written; run the same command again to import it", opts.in, read)
		}
		if err != nil {
			return fmt.Errorf("--in %s: %w", opts.in, err)
		}
		if refused > 0 {
			fmt.Fprintln(stdout, reportLine(transfer.Report{Read: read, Refused: refused}))
			return fmt.Errorf("%d of %d records refused%s; nothing was written (--max-errors 0: fix them, or pass --max-errors N to write the good ones)", refused, read, unlisted())
		}
		if spool != nil {
			in = spool
		} else {
			in = file
		}
		if _, err := in.(io.Seeker).Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("--in %s: read again: %w", opts.in, err)
		}
		// Every record is good; only writing can tell that an id is taken (insert-only), which refuses
		// that record and goes on: all of them are reported.
		stopAfter = 0
	}

	dec, err := transfer.NewDecoder(in, format, records, decodeOpts)
	if err != nil {
		return fmt.Errorf("--in %s: %w", opts.in, err)
	}
	bar := newProgress(stderr, size, "importing", true)
	rep, err = transfer.Import(ctx, st, dec, transfer.ImportOptions{
		Mode: mode, StopAfter: stopAfter, BatchSize: opts.batchSize, OnRefused: onRefused, Progress: bar.set,
	})
	bar.done(dec.Offset())
	if kept := dec.Kept(); len(kept) > 0 && rep.Inserted+rep.Updated > 0 {
		// The unknown fields written are recorded (their types are not known here), so serve names
		// them when it starts and migrate can count them.
		extra := make([]store.Field, len(kept))
		for i, p := range kept {
			extra[i] = store.Field{Path: p}
		}
		if _, serr := checkFields(context.WithoutCancel(ctx), st, opts.store, extra, nil); serr != nil && err == nil {
			err = serr
		}
		fmt.Fprintf(stderr, "import: kept fields the contract does not have, as unknown fields: %s\n", strings.Join(kept, ", "))
	}
	fmt.Fprintln(stdout, reportLine(rep))
	written := rep.Inserted + rep.Updated
	var stop *transfer.StopError
	switch {
	case errors.As(err, &stop) && errors.Is(err, transfer.ErrStopped):
		return fmt.Errorf("import into %s stopped at line %d, the refusal that reached --max-errors %d%s: %d records were written, every good one up to line %d and none after it; fix the refused records and import again (--mode upsert rewrites the ones written with the same values)",
			stores.Registry.Redact(opts.store), stop.Line, stopAfter, unlisted(), written, stop.Through)
	case errors.As(err, &stop):
		return fmt.Errorf("import into %s interrupted: %d records were written (inserted %d, updated %d), every good one up to line %d of %s and none after it; %s",
			stores.Registry.Redact(opts.store), written, rep.Inserted, rep.Updated, stop.Through, opts.in, rerunAdvice(mode, rep))
	case err != nil:
		return fmt.Errorf("import into %s: %w; %d records were written (inserted %d, updated %d); %s",
			stores.Registry.Redact(opts.store), err, written, rep.Inserted, rep.Updated, rerunAdvice(mode, rep))
	case rep.Refused > 0 && opts.maxErrors == 0:
		// Every record passed the check, so each refusal is an id the store holds (--mode insert-only);
		// with --max-errors N, up to N refusals are what the caller allowed.
		return fmt.Errorf("%d records were refused%s and %d written: the refused ones are contacts the store holds already, which --mode insert-only keeps; --mode upsert would replace them",
			rep.Refused, unlisted(), written)
	}
	return nil
}

// rerunAdvice says how to finish an import that ended early, given what it did so far.
func rerunAdvice(mode store.WriteMode, rep transfer.Report) string {
	if rep.Inserted+rep.Updated == 0 {
		return "nothing was written: run the same command again"
	}
	if mode == store.Upsert {
		return "running the same command again (--mode upsert) completes it: the records written are written again with the same values"
	}
	if rep.Refused == 0 {
		return "running it again with --mode upsert completes it (the records written are written again with the same values), as does --mode insert-only, which then refuses the ones written"
	}
	return fmt.Sprintf("running it again with --mode insert-only completes it, refusing the records written so far and the %d contacts that were there before; --mode upsert would also replace those %d", rep.Refused, rep.Refused)
}

// sniffFormat refuses, before anything is read for good, JSON Lines input whose first line is not a
// JSON object but looks like a CSV header, and CSV input whose first line is a JSON object: the
// default format comes from the file name (.csv or not), and a .txt CSV file would otherwise be
// refused line by line as "not a JSON object".
func sniffFormat(r *bufio.Reader, format transfer.Format, formatGiven bool, name string) error {
	peek, _ := r.Peek(4096)
	peek = bytes.TrimPrefix(peek, []byte("\xef\xbb\xbf"))
	first, _, _ := bytes.Cut(bytes.TrimLeft(peek, " \t\r\n"), []byte("\n"))
	if len(first) == 0 {
		return nil
	}
	how := "the format comes from the file name: csv for a .csv file, else jsonl"
	if formatGiven {
		how = "--format " + string(format) + " was given"
	}
	switch {
	case format == transfer.JSONL && first[0] != '{' && bytes.Contains(first, []byte(",")):
		return fmt.Errorf("--in %s: the first line is not a JSON object but looks like a CSV header row (%s); pass --format csv to read CSV", name, how)
	case format == transfer.CSV && first[0] == '{':
		return fmt.Errorf("--in %s: the first line is a JSON object, not a CSV header row (%s); pass --format jsonl to read JSON Lines", name, how)
	}
	return nil
}

// parseRenames reads the --rename values, Old=New each.
func parseRenames(values []string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(values))
	for _, v := range values {
		old, to, ok := strings.Cut(v, "=")
		old, to = strings.TrimSpace(old), strings.TrimSpace(to)
		if !ok || old == "" || to == "" {
			return nil, fmt.Errorf("--rename %q: use Old=New (the field's name in the file, then in the contract)", v)
		}
		if _, dup := out[old]; dup {
			return nil, fmt.Errorf("--rename %s is given twice", old)
		}
		out[old] = to
	}
	return out, nil
}

// sayReadingTerminal tells a person who ran import without --in, and so left standard input on the
// terminal, what import waits for and how to end it: otherwise it sits silent, reading. Piped or
// redirected input, the usual case, gets no such line.
func sayReadingTerminal(stdin io.Reader, stderr io.Writer, format transfer.Format) {
	f, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return
	}
	what := "JSON Lines, one contact per line (or CSV with --format csv)"
	if format == transfer.CSV {
		what = "CSV, a header row then one contact per row"
	}
	end := "Ctrl-D at the start of a line"
	if runtime.GOOS == "windows" {
		end = "Ctrl-Z then Enter"
	}
	fmt.Fprintf(stderr, "import: reading contacts from standard input, a terminal, as no --in FILE was given: type or paste %s, then press %s to import them (Ctrl-C stops)\n", what, end)
}

// stickyEOF is a reader that, once its reader has returned io.EOF, returns io.EOF ever after, as a
// file or a pipe does by itself and a terminal does not.
type stickyEOF struct {
	r   io.Reader
	eof bool
}

func (s *stickyEOF) Read(p []byte) (int, error) {
	if s.eof {
		return 0, io.EOF
	}
	n, err := s.r.Read(p)
	if errors.Is(err, io.EOF) {
		s.eof = true
	}
	return n, err
}
