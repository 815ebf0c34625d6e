package accesslog_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/observe/accesslog"
)

// slogLine returns what slog's built-in handler of format writes for a, logged at a.Time: the lines
// AccessLog must reproduce byte for byte.
func slogLine(t testing.TB, format accesslog.Format, a accesslog.Entry) string {
	var buf bytes.Buffer
	var h slog.Handler = slog.NewTextHandler(&buf, nil)
	if format == accesslog.JSON {
		h = slog.NewJSONHandler(&buf, nil)
	}
	r := slog.NewRecord(a.Time, slog.LevelInfo, accesslog.Message, 0)
	r.AddAttrs(
		slog.String("request_id", a.RequestID), slog.String("method", a.Method), slog.String("path", a.Path),
		slog.String("binding", a.Binding), slog.String("operation", a.Operation), slog.Int("status", a.Status),
		slog.String("outcome", a.Outcome), slog.Duration("duration", a.Duration), slog.Int64("bytes", a.Bytes),
		slog.String("remote", a.Remote))
	if a.User != "" {
		r.AddAttrs(slog.String("user", a.User))
	}
	require.NoError(t, h.Handle(context.Background(), r))
	return buf.String()
}

func accessLine(t testing.TB, format accesslog.Format, a accesslog.Entry) string {
	var buf bytes.Buffer
	accesslog.New(&buf, format, nil).Log(context.Background(), &a)
	return buf.String()
}

var formats = []struct {
	name   string
	format accesslog.Format
}{{"text", accesslog.Text}, {"json", accesslog.JSON}}

func ordinary() accesslog.Entry {
	return accesslog.Entry{
		Time: time.Date(2026, 11, 21, 7, 1, 39, 500_000_000, time.UTC), RequestID: "3f9a1c2b7d4e-42", Method: "POST",
		Path: "/contactsync/v1/sync.asmx", Binding: "soap11", Operation: "ReadContact", Status: 200, Outcome: "ok",
		Duration: 234567 * time.Nanosecond, Bytes: 686, Remote: "127.0.0.1:39104",
	}
}

// TestAccessLogMatchesSlog checks that AccessLog writes exactly slog's line, on the fast path and on
// the values that need quoting or escaping, which it hands to slog.
func TestAccessLogMatchesSlog(t *testing.T) {
	local := time.FixedZone("CET", 3600)
	cases := []struct {
		name   string
		change func(*accesslog.Entry)
	}{
		{"ordinary", func(*accesslog.Entry) {}},
		{"whole milliseconds", func(a *accesslog.Entry) { a.Time = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }},
		{"time zone", func(a *accesslog.Entry) { a.Time = time.Date(2026, 1, 2, 3, 4, 5, 123456789, local) }},
		{"nanoseconds", func(a *accesslog.Entry) { a.Duration = 999 }},
		{"zero duration", func(a *accesslog.Entry) { a.Duration = 0 }},
		{"milliseconds", func(a *accesslog.Entry) { a.Duration = 12*time.Millisecond + 345 }},
		{"seconds", func(a *accesslog.Entry) { a.Duration = 61*time.Second + 5*time.Millisecond }},
		{"negative", func(a *accesslog.Entry) { a.Duration, a.Bytes = -time.Microsecond, -1 }},
		{"fault", func(a *accesslog.Entry) {
			a.Status, a.Outcome, a.Binding, a.Operation = 404, "UnknownOperation", "none", "unknown"
		}},
		{"IPv6 remote", func(a *accesslog.Entry) { a.Remote = "[::1]:52000" }},
		{"user", func(a *accesslog.Entry) { a.User = "alice" }},
		{"user with a space", func(a *accesslog.Entry) { a.User = "Alice Smith" }},
		{"user with a quote", func(a *accesslog.Entry) { a.User = `o"neil` }},
		{"space in path", func(a *accesslog.Entry) { a.Path = "/a b" }},
		{"equals in id", func(a *accesslog.Entry) { a.RequestID = "a=b" }},
		{"quote and backslash", func(a *accesslog.Entry) { a.RequestID = `x"y\z` }},
		{"html in path", func(a *accesslog.Entry) { a.Path = "/<script>&amp;" }},
		{"non-ASCII path", func(a *accesslog.Entry) { a.Path = "/kontakt/äö…" }},
		{"control byte", func(a *accesslog.Entry) { a.Path = "/a\x01\x7f" }},
		{"invalid UTF-8", func(a *accesslog.Entry) { a.Path = "/\xff\xfe" }},
		{"empty path", func(a *accesslog.Entry) { a.Path = "" }},
		{"year 0", func(a *accesslog.Entry) { a.Time = time.Date(0, 1, 1, 0, 0, 0, 1, time.UTC) }},
		{"year 9999", func(a *accesslog.Entry) { a.Time = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC) }},
		{"year 10000", func(a *accesslog.Entry) { a.Time = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }},
		{"year -1", func(a *accesslog.Entry) { a.Time = time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC) }},
	}
	for _, f := range formats {
		for _, c := range cases {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				a := ordinary()
				c.change(&a)
				assert.Equal(t, slogLine(t, f.format, a), accessLine(t, f.format, a))
			})
		}
	}
}

// FuzzAccessLogMatchesSlog feeds arbitrary strings and numbers (the path and the request id come from
// clients) and requires slog's exact line.
func FuzzAccessLogMatchesSlog(f *testing.F) {
	f.Add("3f9a1c2b7d4e-42", "/contactsync/v1/sync.asmx", "127.0.0.1:1", "", int64(234567), int64(686), int64(1_763_000_000_123_456_789))
	f.Add("a b", "/x=y", "", "alice", int64(-5), int64(0), int64(0))
	f.Fuzz(func(t *testing.T, id, path, remote, user string, duration, size, unixNano int64) {
		a := ordinary()
		a.RequestID, a.Path, a.Remote, a.User, a.Duration, a.Bytes = id, path, remote, user, time.Duration(duration), size
		a.Time = time.Unix(0, unixNano).UTC() // any instant an int64 of nanoseconds holds (years 1677-2262)
		for _, f := range formats {
			require.Equal(t, slogLine(t, f.format, a), accessLine(t, f.format, a))
			// The same line again through one AccessLog, the second now cached.
			var buf bytes.Buffer
			l := accesslog.New(&buf, f.format, nil)
			l.Log(context.Background(), &a)
			buf.Reset()
			l.Log(context.Background(), &a)
			require.Equal(t, slogLine(t, f.format, a), buf.String())
		}
	})
}

// TestAccessLogSecondCache logs a sequence of times through one AccessLog, which caches the formatted
// second: within a second, across seconds, back in time, in other zones, with every fraction shape.
func TestAccessLogSecondCache(t *testing.T) {
	base := time.Date(2026, 11, 23, 14, 59, 59, 0, time.UTC)
	cet, ny := time.FixedZone("CET", 3600), time.FixedZone("NY", -5*3600)
	times := []time.Time{
		base, base.Add(1), base.Add(10 * time.Millisecond), base.Add(999_999_999), base.Add(120_000_000),
		base.Add(time.Second), base.Add(time.Second + 5), base, base.In(cet), base.Add(123_456_789).In(cet),
		base.In(ny), base.Add(time.Hour), base.Add(time.Hour).In(time.Local), base.Add(time.Hour),
	}
	for _, f := range formats {
		var buf bytes.Buffer
		l := accesslog.New(&buf, f.format, nil)
		for _, tm := range times {
			a := ordinary()
			a.Time = tm
			buf.Reset()
			l.Log(context.Background(), &a)
			require.Equal(t, slogLine(t, f.format, a), buf.String(), "%s at %s", f.name, tm)
		}
	}
}

// TestAccessLogLevel checks that a level above info keeps access lines out, as it does slog's.
func TestAccessLogLevel(t *testing.T) {
	for _, c := range []struct {
		level slog.Level
		lines int
	}{{slog.LevelDebug, 1}, {slog.LevelInfo, 1}, {slog.LevelWarn, 0}, {slog.LevelError, 0}} {
		t.Run(c.level.String(), func(t *testing.T) {
			for _, a := range []accesslog.Entry{ordinary(), {Path: "needs quoting"}} {
				var buf bytes.Buffer
				accesslog.New(&buf, accesslog.Text, c.level).Log(context.Background(), &a)
				assert.Equal(t, c.lines, strings.Count(buf.String(), "\n"))
			}
		})
	}
}

// TestAccessLogNowAndConcurrency logs from many goroutines with the zero time (now): every line is
// whole, and its time is within the test's span.
func TestAccessLogNowAndConcurrency(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, string(p))
		return len(p), nil
	})
	l := accesslog.New(w, accesslog.JSON, nil)
	before := time.Now().Truncate(time.Second)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				a := ordinary()
				a.Time = time.Time{}
				l.Log(context.Background(), &a)
			}
		})
	}
	wg.Wait()
	require.Len(t, lines, 800)
	for _, line := range lines {
		require.True(t, strings.HasPrefix(line, `{"time":"`) && strings.HasSuffix(line, "\"}\n"), line)
		logged, err := time.Parse(time.RFC3339Nano, line[len(`{"time":"`):strings.Index(line, `","level"`)])
		require.NoError(t, err)
		assert.False(t, logged.Before(before), line)
	}
}

// TestThrough checks that Through hands the entry to the logger as slog attributes.
func TestThrough(t *testing.T) {
	var buf bytes.Buffer
	a := ordinary()
	accesslog.Through(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, at slog.Attr) slog.Attr {
			if at.Key == slog.TimeKey {
				at.Value = slog.TimeValue(a.Time)
			}
			return at
		},
	}))).Log(context.Background(), &a)
	assert.Equal(t, slogLine(t, accesslog.Text, a), buf.String())
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// BenchmarkAccessLine compares one access line written by AccessLog with the same line through a
// slog.Logger, both to io.Discard. The instruction counts in BENCHMARKS.md come from this benchmark
// run under callgrind.
func BenchmarkAccessLine(b *testing.B) {
	a := ordinary()
	a.Time = time.Time{}
	b.Run("observe", func(b *testing.B) {
		for _, f := range formats {
			b.Run(f.name, func(b *testing.B) {
				l := accesslog.New(discard{}, f.format, nil)
				b.ReportAllocs()
				for b.Loop() {
					l.Log(context.Background(), &a)
				}
			})
		}
	})
	b.Run("slog", func(b *testing.B) {
		for _, f := range formats {
			b.Run(f.name, func(b *testing.B) {
				var h slog.Handler = slog.NewTextHandler(discard{}, nil)
				if f.format == accesslog.JSON {
					h = slog.NewJSONHandler(discard{}, nil)
				}
				l := accesslog.Through(slog.New(h))
				b.ReportAllocs()
				for b.Loop() {
					l.Log(context.Background(), &a)
				}
			})
		}
	})
}

// discard is io.Discard without its io.StringWriter shortcuts, as a real destination.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
