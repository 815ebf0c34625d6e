package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestImportFromTerminalSaysWhatItReads: import without --in, its standard input a terminal, says on
// standard error what it reads and how to end, rather than waiting in silence; the contacts typed
// are then imported as from a pipe, which gets no such line. The terminal is a pseudo-terminal this
// test opens (Linux's /dev/ptmx), typed into through its master side.
func TestImportFromTerminalSaysWhatItReads(t *testing.T) {
	clearSettingsEnv(t)
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	defer master.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	terminal, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	defer terminal.Close()
	go func() { _, _ = io.Copy(io.Discard, master) }() // the terminal's echo of what is typed

	spec := "sqlite:" + filepath.Join(t.TempDir(), "c.db")
	cmd := newRootCommand()
	var stdout, stderr bytes.Buffer
	cmd.SetIn(terminal)
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"import", "--store", spec})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(context.Background()) }()

	// One contact, then Ctrl-D on a line of its own: the end of input, in the terminal's line mode.
	_, err = master.Write([]byte(`{"Id":"typed-1"}` + "\n\x04"))
	require.NoError(t, err)
	select {
	case err := <-done:
		require.NoError(t, err, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("import did not end at Ctrl-D")
	}
	assert.Contains(t, stderr.String(), "import: reading contacts from standard input, a terminal, as no --in FILE was given: "+
		"type or paste JSON Lines, one contact per line (or CSV with --format csv), then press Ctrl-D at the start of a line to import them (Ctrl-C stops)\n")
	assert.Contains(t, stdout.String(), "read 1, inserted 1")

	r := runData(t, `{"Id":"piped-1"}`+"\n", "import", "--store", spec)
	require.NoError(t, r.err)
	assert.NotContains(t, r.stderr, "a terminal", "piped input gets no hint")
	assert.Contains(t, r.stdout, "read 1, inserted 1")
}
