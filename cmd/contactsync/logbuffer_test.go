package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeRecorder keeps each Write it receives as one chunk, so tests see how lines were batched.
type writeRecorder struct {
	mu     sync.Mutex
	chunks [][]byte
	err    error
	wrote  chan struct{} // receives a value after every Write, if not full
}

func newWriteRecorder() *writeRecorder { return &writeRecorder{wrote: make(chan struct{}, 1000)} }

func (w *writeRecorder) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	w.chunks = append(w.chunks, bytes.Clone(p))
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (w *writeRecorder) written() (chunks []string, all string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.chunks {
		chunks = append(chunks, string(c))
	}
	return chunks, strings.Join(chunks, "")
}

func TestLogBufferFlushesOnInterval(t *testing.T) {
	out := newWriteRecorder()
	b := newLogBuffer(out, 1024, 50*time.Millisecond)
	defer b.Close()

	start := time.Now()
	_, err := b.Write([]byte("one\n"))
	require.NoError(t, err)
	_, err = b.Write([]byte("two\n"))
	require.NoError(t, err)
	chunks, _ := out.written()
	assert.Empty(t, chunks, "lines wait in the buffer")

	select {
	case <-out.wrote:
	case <-time.After(5 * time.Second):
		t.Fatal("the buffered lines were not written by the timer")
	}
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "not before the interval")
	chunks, _ = out.written()
	assert.Equal(t, []string{"one\ntwo\n"}, chunks, "both lines in one write")

	// The timer is armed again by the next line after a flush.
	_, err = b.Write([]byte("three\n"))
	require.NoError(t, err)
	select {
	case <-out.wrote:
	case <-time.After(5 * time.Second):
		t.Fatal("a line buffered after a timed flush was not written by the timer")
	}
	chunks, _ = out.written()
	assert.Equal(t, []string{"one\ntwo\n", "three\n"}, chunks)
}

func TestLogBufferFlushesWhenFull(t *testing.T) {
	out := newWriteRecorder()
	b := newLogBuffer(out, 10, time.Hour) // the timer never fires within the test
	defer b.Close()

	for _, line := range []string{"aaaa\n", "bbbb\n", "cccc\n"} {
		n, err := b.Write([]byte(line))
		require.NoError(t, err)
		assert.Equal(t, len(line), n)
	}
	chunks, _ := out.written()
	assert.Equal(t, []string{"aaaa\nbbbb\n"}, chunks, "a line that does not fit writes the full buffer, never a part of the line")

	long := strings.Repeat("x", 25) + "\n"
	_, err := b.Write([]byte(long))
	require.NoError(t, err)
	chunks, _ = out.written()
	assert.Equal(t, []string{"aaaa\nbbbb\n", "cccc\n", long}, chunks, "a line larger than the buffer is written whole, after the lines before it")

	require.NoError(t, b.Flush())
	chunks, _ = out.written()
	assert.Len(t, chunks, 3, "nothing left to write")
}

func TestLogBufferClose(t *testing.T) {
	out := newWriteRecorder()
	b := newLogBuffer(out, 1024, time.Hour)
	_, err := b.Write([]byte("before close\n"))
	require.NoError(t, err)
	require.NoError(t, b.Close())
	_, all := out.written()
	assert.Equal(t, "before close\n", all, "Close writes what is buffered")

	_, err = b.Write([]byte("after close\n"))
	require.NoError(t, err)
	chunks, _ := out.written()
	assert.Equal(t, []string{"before close\n", "after close\n"}, chunks, "after Close lines go straight out")
	require.NoError(t, b.Close(), "a second Close is harmless")
}

func TestLogBufferWriteError(t *testing.T) {
	out := newWriteRecorder()
	b := newLogBuffer(out, 8, time.Hour)
	defer b.Close()
	_, err := b.Write([]byte("12345\n"))
	require.NoError(t, err)
	out.mu.Lock()
	out.err = errors.New("disk full")
	out.mu.Unlock()
	_, err = b.Write([]byte("67890\n"))
	require.ErrorContains(t, err, "disk full", "the write that needed a flush reports its failure")
	out.mu.Lock()
	out.err = nil
	out.mu.Unlock()
	require.NoError(t, b.Flush(), "the lines that could not be written were dropped, not kept forever")
}

// TestLogBufferSlogLines logs from many goroutines through slog (text and JSON) and checks that every
// line arrives whole and once, with a small buffer so fills and timed flushes both happen. Run with
// -race.
func TestLogBufferSlogLines(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			out := newWriteRecorder()
			b := newLogBuffer(out, 512, time.Millisecond)
			var logger *slog.Logger
			if format == "json" {
				logger = slog.New(slog.NewJSONHandler(b, nil))
			} else {
				logger = slog.New(slog.NewTextHandler(b, nil))
			}
			const goroutines, lines = 8, 200
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					for i := range lines {
						logger.Info("request", "id", fmt.Sprintf("g%d-%d", g, i), "padding", strings.Repeat("p", i%40))
					}
				})
			}
			wg.Wait()
			require.NoError(t, b.Close())

			chunks, all := out.written()
			assert.Greater(t, len(chunks), 1, "lines were batched into several writes")
			for _, c := range chunks {
				assert.True(t, strings.HasSuffix(c, "\n"), "every write ends at a line end: %q", c)
			}
			seen := map[string]bool{}
			for line := range strings.Lines(all) {
				var id string
				if format == "json" {
					var record map[string]any
					require.NoError(t, json.Unmarshal([]byte(line), &record), "a whole JSON line: %q", line)
					id, _ = record["id"].(string)
				} else {
					require.True(t, strings.HasPrefix(line, "time=") && strings.HasSuffix(line, "\n"), "a whole text line: %q", line)
					_, rest, ok := strings.Cut(line, " id=")
					require.True(t, ok, line)
					id, _, _ = strings.Cut(rest, " ")
				}
				assert.False(t, seen[id], "line %s written once", id)
				seen[id] = true
			}
			assert.Len(t, seen, goroutines*lines, "no line lost")
		})
	}
}

// TestServeLogIsFlushed runs serve's command in-process: its buffered log shows the start within the
// flush interval while it serves, and holds the last line, logged just before the command returns,
// as soon as it has returned (Close, not the timer, wrote it).
func TestServeLogIsFlushed(t *testing.T) {
	out := &syncBuffer{}
	cmd := newServeCommand()
	cmd.SetErr(out)
	cmd.SetArgs([]string{"--addr", "127.0.0.1:0", "--store", "sqlite:" + t.TempDir() + "/c.db"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "contactsync listening") },
		10*time.Second, 10*time.Millisecond, "the start line is written while serving: %s", out)
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	assert.Contains(t, out.String(), "contactsync stopped", "the last line is written before the command returns")
}

// BenchmarkAccessLine writes an access-log-shaped slog line to a file directly (a write system call
// per line, as serve did before logBuffer) and through logBuffer, against formatting it only.
func BenchmarkAccessLine(b *testing.B) {
	file, err := os.Create(filepath.Join(b.TempDir(), "log"))
	require.NoError(b, err)
	defer file.Close()
	buffered := newLogBuffer(file, logBufferSize, logFlushInterval)
	defer buffered.Close()
	for _, dest := range []struct {
		name string
		w    io.Writer
	}{{"discard", io.Discard}, {"file", file}, {"logbuffer", buffered}} {
		b.Run(dest.name, func(b *testing.B) {
			logger := slog.New(slog.NewTextHandler(dest.w, nil))
			b.ReportAllocs()
			for b.Loop() {
				logger.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.String("request_id", "28ef3596c759-2"),
					slog.String("method", "POST"), slog.String("path", "/contactsync/v1/sync.asmx"), slog.String("binding", "soap11"),
					slog.String("operation", "ReadContact"), slog.Int("status", 200), slog.String("outcome", "ok"),
					slog.Duration("duration", 234*time.Microsecond), slog.Int("bytes", 686), slog.String("remote", "127.0.0.1:39104"))
			}
		})
	}
}

// blockingWriter holds its first Write until release is closed, as a terminal or a lagging pipe
// reader would.
type blockingWriter struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	rec     *writeRecorder
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() {
		close(w.entered)
		<-w.release
	})
	return w.rec.Write(p)
}

// TestLogBufferWritesOutsideTheLock checks that while a full batch is being written to a slow
// destination, other lines are still buffered at once rather than waiting for that write, and that
// every line arrives once, in order.
func TestLogBufferWritesOutsideTheLock(t *testing.T) {
	out := &blockingWriter{entered: make(chan struct{}), release: make(chan struct{}), rec: newWriteRecorder()}
	b := newLogBuffer(out, 10, time.Hour)
	for _, line := range []string{"aaaa\n", "bbbb\n"} {
		_, err := b.Write([]byte(line))
		require.NoError(t, err)
	}
	flushed := make(chan error, 1)
	go func() { // does not fit: flushes "aaaa\nbbbb\n", which blocks in the destination
		_, err := b.Write([]byte("cccc\n"))
		flushed <- err
	}()
	<-out.entered

	wrote := make(chan error, 1)
	go func() {
		_, err := b.Write([]byte("dddd\n"))
		wrote <- err
	}()
	select {
	case err := <-wrote:
		require.NoError(t, err, "a line is buffered while the batch before it is being written")
	case <-time.After(5 * time.Second):
		t.Fatal("a Write waited for the slow destination although the spare buffer had room")
	}

	close(out.release)
	require.NoError(t, <-flushed)
	require.NoError(t, b.Close())
	chunks, all := out.rec.written()
	assert.Equal(t, "aaaa\nbbbb\n", chunks[0], "the full batch first")
	assert.ElementsMatch(t, []string{"aaaa", "bbbb", "cccc", "dddd"}, strings.Fields(all), "every line once")
}
