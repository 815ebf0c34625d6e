package main

import (
	"io"
	"sync"
	"time"
)

// logFlushInterval is how long a log line may wait in serve's log buffer before it is written: the
// most lines a SIGKILL can lose, and the longest any line (errors included) is delayed.
const logFlushInterval = 100 * time.Millisecond

// logBufferSize is the buffer of serve's log: about a hundred access lines per write.
const logBufferSize = 32 << 10

// logBuffer collects log lines in memory and writes them to out in batches. Writing each access line
// to standard error costs a write system call per request, about 5% of a core's throughput under load
// (see BENCHMARKS.md); batching makes that one call per ~100 lines.
//
// A batch is written when the next line would not fit, at most logFlushInterval after its first line
// was buffered (a timer armed by that line, so an idle server does not wake up), and on Close. Each
// Write is kept whole in one write to out (a line larger than the buffer is written on its own), so
// lines stay intact when out is shared with other writers, as slog's handlers expect of one Write.
// After Close, writes go straight to out, so lines logged late by a straggling goroutine are not lost.
//
// A batch is written outside the lock that Write appends under: the full buffer is swapped with a
// spare one, so while a slow destination (a terminal, a pipe whose reader lags) takes its time,
// requests keep logging into the other buffer instead of queueing behind the write (BENCHMARKS.md,
// round 3). Batches still reach out one at a time and in order (writeMu); only when a second batch
// fills before the first is written does a logging request wait.
type logBuffer struct {
	out      io.Writer
	interval time.Duration

	mu     sync.Mutex // guards buf, timer and closed; taken before writeMu, never while holding it
	buf    []byte
	timer  *time.Timer // armed while buf holds lines; nil until the first is buffered
	closed bool

	writeMu sync.Mutex // held while writing to out, so writes keep their order
	spare   []byte     // the buffer not in use, empty; guarded by writeMu
}

// newLogBuffer returns a logBuffer writing to out, holding up to size bytes for at most interval.
func newLogBuffer(out io.Writer, size int, interval time.Duration) *logBuffer {
	return &logBuffer{out: out, interval: interval, buf: make([]byte, 0, size), spare: make([]byte, 0, size)}
}

// Write buffers p, one or more whole lines (slog's handlers write one record per call).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	for {
		if b.closed || len(p) > cap(b.buf) && len(b.buf) == 0 {
			// Closed, or a line larger than the buffer with nothing buffered before it: written alone.
			b.mu.Unlock()
			return b.writeOut(p)
		}
		if len(b.buf)+len(p) <= cap(b.buf) {
			if len(b.buf) == 0 {
				b.armLocked()
			}
			b.buf = append(b.buf, p...)
			b.mu.Unlock()
			return len(p), nil
		}
		// The buffered lines go first. Other goroutines may buffer lines while they are written;
		// then p is placed after those, which is as concurrent as they were.
		if err := b.flushLocked(); err != nil {
			b.mu.Unlock()
			return 0, err
		}
	}
}

// writeOut writes p to out directly, after any batch being written.
func (b *logBuffer) writeOut(p []byte) (int, error) {
	b.writeMu.Lock()
	defer b.writeMu.Unlock()
	return b.out.Write(p)
}

// armLocked starts the timer that writes the lines about to be buffered within the interval.
func (b *logBuffer) armLocked() {
	if b.timer == nil {
		b.timer = time.AfterFunc(b.interval, b.flushOnTimer)
		return
	}
	b.timer.Reset(b.interval)
}

func (b *logBuffer) flushOnTimer() {
	b.mu.Lock()
	defer b.mu.Unlock()
	// A failing log destination has nowhere to be reported (slog drops its handler's write errors
	// too); the lines are dropped, as flushLocked documents.
	_ = b.flushLocked()
}

// flushLocked writes the buffered lines. Called with mu held, it releases mu while the lines are
// written (Write can fill the spare buffer meanwhile) and holds it again when it returns. On a write
// error the lines are dropped, so a broken destination cannot make the buffer hold lines forever.
func (b *logBuffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	if b.timer != nil {
		b.timer.Stop() // a timer firing now finds the buffer empty, or holding newer lines it may write
	}
	batch := b.buf
	b.writeMu.Lock() // waits for the batch before this one, if it is still being written
	b.buf, b.spare = b.spare, nil
	b.mu.Unlock()
	_, err := b.out.Write(batch)
	b.spare = batch[:0]
	b.writeMu.Unlock()
	b.mu.Lock()
	return err
}

// Flush writes the buffered lines now.
func (b *logBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

// Close writes the buffered lines and makes later writes unbuffered. It does not close out.
func (b *logBuffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	if b.timer != nil {
		b.timer.Stop()
	}
	return b.flushLocked()
}
