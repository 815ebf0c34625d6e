package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/transfer"
)

// What backup, export, import and copy share (backup.go, export.go, import.go, copy.go).
//
// Their store settings (--store, --from, --to of copy, the store backends' settings such as the --db-*
// pool settings) are settings like serve's: flag, environment variable or config file, so a DSN with a password need not appear on a
// command line (where any user of the machine can read it in the process list). The rest (files,
// format, mode) belong to one invocation and are flags only, as call's --id is. Every message names a
// store as the registry redacts it (stores.Registry.Redact), so no password is ever printed.

// records is the contract's record type as the service describes it (its generated descriptor and
// the service's check of input records): the record files hold the stored records' canonical
// documents, and an imported record is checked as the service checks its input. No command names the
// record type or a field of it.
var records = transfer.Schema(service.Records)

// formatFor returns the record format: the --format flag when given, else the one the file name's
// extension says (.csv), else JSON Lines.
func formatFor(cmd *cobra.Command, flag, path string) (transfer.Format, error) {
	if cmd.Flags().Changed("format") || !strings.EqualFold(filepath.Ext(path), ".csv") {
		return transfer.ParseFormat(flag)
	}
	return transfer.CSV, nil
}

// formatFlag registers --format.
func formatFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVar(target, "format", string(transfer.JSONL),
		"record format: jsonl (JSON Lines) or csv; default: csv for a .csv file, else jsonl")
}

// progress draws a progress bar on stderr when stderr is a terminal, and nothing otherwise (a log
// file or a pipe gets only the final report).
type progress struct {
	bar  *progressbar.ProgressBar
	w    io.Writer
	last time.Time
}

// newProgress returns a progress bar counting to max (-1: unknown, a spinner) of bytes or of
// contacts, drawn on w only if w is a terminal.
func newProgress(w io.Writer, max int64, description string, bytes bool) *progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(description),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(f) }),
	}
	if bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString("contacts"))
	}
	return &progress{bar: progressbar.NewOptions64(max, opts...), w: f}
}

// set moves the bar to n, at most every 50 ms: the bar takes a lock and formats a line, which per
// contact would cost more than the export itself.
func (p *progress) set(n int64) {
	if p.bar == nil {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 50*time.Millisecond {
		p.last = now
		_ = p.bar.Set64(n)
	}
}

// done shows the bar's last state and ends its line.
func (p *progress) done(n int64) {
	if p.bar == nil {
		return
	}
	_ = p.bar.Set64(n) // reaching the maximum finishes the bar by itself
	if !p.bar.IsFinished() {
		_ = p.bar.Exit()
		fmt.Fprintln(p.w)
	}
}

// reportLine formats an import's or a copy's final report.
func reportLine(r transfer.Report) string {
	return fmt.Sprintf("read %d, inserted %d, updated %d, refused %d", r.Read, r.Inserted, r.Updated, r.Refused)
}
