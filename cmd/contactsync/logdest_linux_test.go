package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// BenchmarkAccessLineDestination logs access lines through serve's buffered log to each kind of
// destination standard error can be: a file, /dev/null, a pipe and a pseudo-terminal (the last two
// read by a cat process, as a log collector or a terminal would). Besides wall time it reports
// cpu-ns/op, the process's user + system CPU time per line from getrusage, which is what the line
// costs the server whatever else runs on the machine; the reader's CPU is its own process's and is
// not counted. BENCHMARKS.md (the access log's cost) explains what it showed.
func BenchmarkAccessLineDestination(b *testing.B) {
	for _, dest := range []string{"file", "devnull", "pipe", "pty"} {
		b.Run(dest, func(b *testing.B) {
			w := openLogDestination(b, dest)
			buffered := newLogBuffer(w, logBufferSize, logFlushInterval)
			for _, format := range []string{"text", "json"} {
				b.Run(format, func(b *testing.B) {
					logger, err := newLogger(buffered, logOptions{format: choice{value: format}, level: choice{value: "info"}})
					require.NoError(b, err)
					b.ReportAllocs()
					before := cpuTime(b)
					for b.Loop() {
						logger.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.String("request_id", "28ef3596c759-2"),
							slog.String("method", "POST"), slog.String("path", "/contactsync/v1/sync.asmx"), slog.String("binding", "soap11"),
							slog.String("operation", "ReadContact"), slog.Int("status", 200), slog.String("outcome", "ok"),
							slog.Duration("duration", 234*time.Microsecond), slog.Int("bytes", 686), slog.String("remote", "127.0.0.1:39104"))
					}
					require.NoError(b, buffered.Flush())
					b.ReportMetric(float64(cpuTime(b)-before)/float64(b.N), "cpu-ns/op")
				})
			}
			require.NoError(b, buffered.Close())
		})
	}
}

// cpuTime returns the process's user + system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// openLogDestination returns a writer of the named kind; pipes and terminals get a cat process
// draining their other end for the rest of the benchmark.
func openLogDestination(b *testing.B, kind string) io.Writer {
	var w, readEnd *os.File
	var err error
	switch kind {
	case "file":
		w, err = os.Create(filepath.Join(b.TempDir(), "log"))
		require.NoError(b, err)
	case "devnull":
		w, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		require.NoError(b, err)
	case "pipe":
		readEnd, w, err = os.Pipe()
		require.NoError(b, err)
	case "pty":
		// The terminal's side (the master) is what a terminal emulator reads; the server writes to the
		// pseudo-terminal device, with the default line discipline settings (output processing on).
		readEnd, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
		require.NoError(b, err)
		require.NoError(b, unix.IoctlSetPointerInt(int(readEnd.Fd()), unix.TIOCSPTLCK, 0))
		n, err := unix.IoctlGetInt(int(readEnd.Fd()), unix.TIOCGPTN)
		require.NoError(b, err)
		w, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_WRONLY|syscall.O_NOCTTY, 0)
		require.NoError(b, err)
	default:
		b.Fatalf("unknown destination %q", kind)
	}
	b.Cleanup(func() { _ = w.Close() })
	if readEnd != nil {
		cat := exec.Command("cat")
		cat.Stdin = readEnd
		require.NoError(b, cat.Start())
		_ = readEnd.Close() // cat holds it now
		b.Cleanup(func() {
			_ = w.Close() // cat sees end of file (a pipe) or an error (a terminal) and exits
			_ = cat.Process.Kill()
			_ = cat.Wait()
		})
	}
	return w
}
