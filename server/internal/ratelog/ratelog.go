// Package ratelog logs repeated events at most once per interval, with a count of the ones left out,
// so a failure that recurs on every request (a full disk, a lost database) leaves a readable trace
// instead of a line per request. It depends on the standard library only.
package ratelog

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// maxKeys bounds the events remembered at once. Keys come from code, not from requests (the caller's
// duty), so a handful are in use; the bound only keeps a mistake from growing the map without limit.
const maxKeys = 256

// Logger logs through an slog.Logger, at most one line per key per interval. A line following left-out
// ones carries their number as "repeated" (how many times the event happened since the previous line,
// this one excluded). It is safe for concurrent use.
type Logger struct {
	log   *slog.Logger
	every time.Duration
	now   func() time.Time

	mu   sync.Mutex
	keys map[string]*event
}

type event struct {
	last    time.Time // when the last line for this key was written
	skipped int       // events since then, not logged
}

// New returns a Logger writing to log at most once per key per every.
func New(log *slog.Logger, every time.Duration) *Logger {
	return &Logger{log: log, every: every, now: time.Now, keys: map[string]*event{}}
}

// SetClock replaces the clock, for tests.
func (l *Logger) SetClock(now func() time.Time) { l.now = now }

// Log logs msg with args at level, unless a line for key was written less than the interval ago; then
// it only counts the event, to be reported with the next line for key. It returns whether it logged.
func (l *Logger) Log(ctx context.Context, level slog.Level, key, msg string, args ...any) bool {
	now := l.now()
	l.mu.Lock()
	e := l.keys[key]
	if e != nil && now.Sub(e.last) < l.every {
		e.skipped++
		l.mu.Unlock()
		return false
	}
	if e == nil {
		l.forgetOld(now)
		e = &event{}
		l.keys[key] = e
	}
	skipped := e.skipped
	e.skipped, e.last = 0, now
	l.mu.Unlock()
	if skipped > 0 {
		args = append(args, slog.Int("repeated", skipped))
	}
	l.log.Log(ctx, level, msg, args...)
	return true
}

// Pending returns, and resets, the number of events for key that were counted but not logged yet, so
// a caller can report them when the condition ends.
func (l *Logger) Pending(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.keys[key]
	if e == nil {
		return 0
	}
	n := e.skipped
	e.skipped = 0
	return n
}

// forgetOld makes room for a new key: it drops keys whose interval has passed and that have nothing
// pending, and, if the map is still full, every key (at worst a line is logged early).
func (l *Logger) forgetOld(now time.Time) {
	if len(l.keys) < maxKeys {
		return
	}
	for k, e := range l.keys {
		if now.Sub(e.last) >= l.every && e.skipped == 0 {
			delete(l.keys, k)
		}
	}
	if len(l.keys) >= maxKeys {
		clear(l.keys)
	}
}
