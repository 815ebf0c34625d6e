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
type logBuffer struct {
	out      io.Writer
	interval time.Duration

	mu     sync.Mutex
	buf    []byte
	timer  *time.Timer // armed while buf holds lines; nil until the first is buffered
	closed bool
}

// newLogBuffer returns a logBuffer writing to out, holding up to size bytes for at most interval.
func newLogBuffer(out io.Writer, size int, interval time.Duration) *logBuffer {
	return &logBuffer{out: out, interval: interval, buf: make([]byte, 0, size)}
}

// Write buffers p, one or more whole lines (slog's handlers write one record per call).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.out.Write(p)
	}
	if len(b.buf)+len(p) > cap(b.buf) {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
		if len(p) > cap(b.buf) {
			return b.out.Write(p)
		}
	}
	if len(b.buf) == 0 {
		b.armLocked()
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
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

// flushLocked writes the buffered lines. On a write error they are dropped, so a broken destination
// cannot make the buffer hold lines forever.
func (b *logBuffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	if b.timer != nil {
		b.timer.Stop() // a timer firing now finds the buffer empty and does nothing
	}
	_, err := b.out.Write(b.buf)
	b.buf = b.buf[:0]
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
