// Package accesslog writes the access log's lines: one line per request, byte for byte what log/slog's
// built-in text or JSON handler would write for the same record, formatted by hand into a pooled
// buffer (a slog record per request costs throughput). observe's middleware writes one Entry per
// request through a Writer. It imports only the standard library.
package accesslog

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Format is the shape of a log line: the two of log/slog's built-in handlers.
type Format uint8

const (
	// Text is slog.TextHandler's key=value line.
	Text Format = iota
	// JSON is slog.JSONHandler's one object per line.
	JSON
)

// Message is the message of every access line ("msg" in both formats).
const Message = "request"

// Entry is one request's access log entry. Its fields are written in this order under these keys:
// request_id, method, path, binding, operation, status, outcome, duration, bytes, remote, and user when
// the request was authenticated.
type Entry struct {
	// Time is when the line is logged; the zero time means now.
	Time      time.Time
	RequestID string
	Method    string
	Path      string
	Binding   string
	Operation string
	Status    int
	Outcome   string
	Duration  time.Duration
	Bytes     int64
	Remote    string
	// User is the name the request authenticated as; empty (and the key left out) when authentication
	// is off or the request did not authenticate.
	User string
}

// Writer writes access lines exactly as a slog.Logger with slog's built-in handler of the same
// format and no handler options other than the level would write them (slog.Logger.LogAttrs at level
// info with message Message and the Entry fields as typed attributes), byte for byte, but
// without building a slog.Record: each line is appended by hand to a pooled buffer and handed to the
// writer in one Write. Under load that formatting was most of what the access log cost (BENCHMARKS.md).
//
// Batching is the writer's business: serve passes its buffered log, which writes lines in batches.
// An entry holding a string that the chosen format would have to quote or escape (a space, '=', a
// quote, a backslash, a control or non-ASCII byte, or an empty string) is rare: it goes through the
// slog handler itself, so such lines are exactly slog's too.
//
// An Writer is safe for concurrent use; each line is one Write to the writer.
type Writer struct {
	w      io.Writer
	format Format
	level  slog.Leveler
	// slow writes entries the fast path does not handle, through slog, to the same writer.
	slow *slog.Logger
	// through, when set, receives every entry as a LogAttrs call instead; see Through.
	through *slog.Logger
	// second caches the formatted date, time of day and zone of the last second a line was logged
	// in: a line then formats only its fraction of a second, which saved a third of its instructions.
	second atomic.Pointer[formattedSecond]
}

// formattedSecond is one second of one location in RFC 3339: date "2006-01-02T15:04:05" and zone
// "Z07:00", which every instant of that second shares.
type formattedSecond struct {
	unix int64
	loc  *time.Location
	date string
	zone string
}

// New returns an Writer writing lines of the given format to w, when level (nil means
// info) lets info lines through. Give it the writer and level of the logger the rest of the log uses.
func New(w io.Writer, format Format, level slog.Leveler) *Writer {
	if level == nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == JSON {
		h = slog.NewJSONHandler(w, opts)
	}
	return &Writer{w: w, format: format, level: level, slow: slog.New(h)}
}

// Through returns an Writer that hands every entry to logger as one LogAttrs call, for a logger
// whose handler and writer are not known (tests, embedding). It is slower than New's.
func Through(logger *slog.Logger) *Writer {
	return &Writer{through: logger}
}

// bufferPool holds line buffers; 512 bytes fits an ordinary line in either format.
var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// maxPooledBuffer keeps a buffer grown by a huge line out of the pool.
const maxPooledBuffer = 4 << 10

// Log writes one access line, unless the level keeps info lines out. Like slog's handlers, it drops a
// write error: the log has nowhere to report its own failure.
func (l *Writer) Log(ctx context.Context, a *Entry) {
	if l.through != nil {
		l.through.LogAttrs(ctx, slog.LevelInfo, Message, a.attrs()...)
		return
	}
	if slog.LevelInfo < l.level.Level() {
		return
	}
	t := a.Time
	if t.IsZero() {
		t = time.Now()
	}
	sec := l.formatSecond(t)
	if sec == nil || !a.plain() {
		r := slog.NewRecord(t, slog.LevelInfo, Message, 0)
		r.AddAttrs(a.attrs()...)
		_ = l.slow.Handler().Handle(ctx, r)
		return
	}
	bp := bufferPool.Get().(*[]byte)
	b := (*bp)[:0]
	if l.format == JSON {
		b = a.appendJSON(b, t, sec)
	} else {
		b = a.appendText(b, t, sec)
	}
	_, _ = l.w.Write(b)
	if cap(b) <= maxPooledBuffer {
		*bp = b
		bufferPool.Put(bp)
	}
}

// attrs returns the entry as slog attributes, in the order of the line.
func (a *Entry) attrs() []slog.Attr {
	attrs := []slog.Attr{
		slog.String("request_id", a.RequestID),
		slog.String("method", a.Method),
		slog.String("path", a.Path),
		slog.String("binding", a.Binding),
		slog.String("operation", a.Operation),
		slog.Int("status", a.Status),
		slog.String("outcome", a.Outcome),
		slog.Duration("duration", a.Duration),
		slog.Int64("bytes", a.Bytes),
		slog.String("remote", a.Remote),
	}
	if a.User != "" {
		attrs = append(attrs, slog.String("user", a.User))
	}
	return attrs
}

// plain reports whether every string of the entry can be written as it is in both formats: slog's
// text handler quotes an empty string and one holding a space, '=', '"', a control or non-ASCII
// character; its JSON handler escapes '"', '\\', control characters and some non-ASCII ones. Visible
// ASCII other than those three is written verbatim by both.
func (a *Entry) plain() bool {
	return plain(a.RequestID) && plain(a.Method) && plain(a.Path) && plain(a.Binding) &&
		plain(a.Operation) && plain(a.Outcome) && plain(a.Remote) && (a.User == "" || plain(a.User))
}

func plain(s string) bool {
	if s == "" {
		return false
	}
	// Eight bytes at a time, as most of a line's strings (the request id, the path, the remote address)
	// are longer than that: a byte below '!' makes its byte of v-'!' wrap to 0xdf or more, one above
	// '~' makes its byte of v+1 0x80 or more (or is 0x80 or more in v itself), and '"', '\\' and '='
	// make their byte of v^c zero, which minus one is 0xff; a plain byte sets no high bit in any of
	// them and neither borrows nor carries, so any high bit set means a byte that is not plain.
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(s) >= 8 {
		v := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if (v|(v-ones*'!')|(v+ones)|(v^ones*'"'-ones)|(v^ones*'\\'-ones)|(v^ones*'='-ones))&highs != 0 {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// plainByte tells the bytes plain allows: one table lookup per byte instead of five comparisons,
// which made the check a third of a line's instructions.
var plainByte = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = c != '"' && c != '\\' && c != '='
	}
	return t
}()

// formatSecond returns t's second formatted, from the cache when it holds that second, or nil when
// the year has other than four digits (which RFC 3339 does not allow: slog's JSON handler reports an
// error in the line, so such a line is left to slog).
func (l *Writer) formatSecond(t time.Time) *formattedSecond {
	unix, loc := t.Unix(), t.Location()
	if f := l.second.Load(); f != nil && f.unix == unix && f.loc == loc {
		return f
	}
	if y := t.Year(); y < 0 || y > 9999 {
		return nil
	}
	var buf [32]byte
	full := t.AppendFormat(buf[:0], time.RFC3339) // 2006-01-02T15:04:05Z07:00, no fraction
	const dateLen = len("2006-01-02T15:04:05")
	f := &formattedSecond{unix: unix, loc: loc, date: string(full[:dateLen]), zone: string(full[dateLen:])}
	l.second.Store(f)
	return f
}

// appendText appends the line slog.TextHandler writes for the entry at time t, whose second is s.
func (a *Entry) appendText(b []byte, t time.Time, s *formattedSecond) []byte {
	b = append(b, "time="...)
	// Exactly three digits of milliseconds, truncated, as slog's text handler writes them.
	ms := t.Nanosecond() / int(time.Millisecond)
	b = append(b, s.date...)
	b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	b = append(b, s.zone...)
	b = append(b, " level=INFO msg="+Message+" request_id="...)
	b = append(b, a.RequestID...)
	b = append(b, " method="...)
	b = append(b, a.Method...)
	b = append(b, " path="...)
	b = append(b, a.Path...)
	b = append(b, " binding="...)
	b = append(b, a.Binding...)
	b = append(b, " operation="...)
	b = append(b, a.Operation...)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(a.Status), 10)
	b = append(b, " outcome="...)
	b = append(b, a.Outcome...)
	b = append(b, " duration="...)
	// Duration.String is inlined to its caller, so its result is not heap allocated here.
	b = append(b, a.Duration.String()...)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, a.Bytes, 10)
	b = append(b, " remote="...)
	b = append(b, a.Remote...)
	if a.User != "" {
		b = append(b, " user="...)
		b = append(b, a.User...)
	}
	return append(b, '\n')
}

// appendJSON appends the line slog.JSONHandler writes for the entry at time t, whose second is s.
func (a *Entry) appendJSON(b []byte, t time.Time, s *formattedSecond) []byte {
	b = append(b, `{"time":"`...)
	b = append(b, s.date...) // time.RFC3339Nano, as slog's JSON handler writes it
	b = appendNanoFraction(b, t.Nanosecond())
	b = append(b, s.zone...)
	b = append(b, `","level":"INFO","msg":"`+Message+`","request_id":"`...)
	b = append(b, a.RequestID...)
	b = append(b, `","method":"`...)
	b = append(b, a.Method...)
	b = append(b, `","path":"`...)
	b = append(b, a.Path...)
	b = append(b, `","binding":"`...)
	b = append(b, a.Binding...)
	b = append(b, `","operation":"`...)
	b = append(b, a.Operation...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(a.Status), 10)
	b = append(b, `,"outcome":"`...)
	b = append(b, a.Outcome...)
	b = append(b, `","duration":`...)
	b = strconv.AppendInt(b, int64(a.Duration), 10) // nanoseconds, as encoding/json and slog write it
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, a.Bytes, 10)
	b = append(b, `,"remote":"`...)
	b = append(b, a.Remote...)
	if a.User != "" {
		b = append(b, `","user":"`...)
		b = append(b, a.User...)
	}
	return append(b, "\"}\n"...)
}

// appendNanoFraction appends ns as RFC3339Nano's ".999999999" does: a point and up to nine digits,
// trailing zeros dropped, nothing at all for zero.
func appendNanoFraction(b []byte, ns int) []byte {
	if ns == 0 {
		return b
	}
	var digits [10]byte
	digits[0] = '.'
	for i := 9; i >= 1; i-- {
		digits[i] = byte('0' + ns%10)
		ns /= 10
	}
	n := 10
	for digits[n-1] == '0' {
		n--
	}
	return append(b, digits[:n]...)
}
