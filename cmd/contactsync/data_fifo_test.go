//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExportToNamedPipe writes the export into a FIFO another reader drains: the FIFO is written
// through, never replaced by a regular file (as a rename into place would do, to /dev/null too).
func TestExportToNamedPipe(t *testing.T) {
	clearSettingsEnv(t)
	spec := storeKinds[0].spec(t)
	fill(t, spec, 20)
	fifo := filepath.Join(t.TempDir(), "pipe.jsonl")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	r := runData(t, "", "export", "--store", spec, "--out", fifo)
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, exportOf(t, spec, "jsonl"), string(<-got))
	info, err := os.Stat(fifo)
	require.NoError(t, err)
	assert.Equal(t, os.ModeNamedPipe, info.Mode().Type(), "the named pipe was replaced")
}
