package observe

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/observe/accesslog"
)

// RequestIDHeader carries a request's id: taken from the request when sane, generated otherwise, and
// always echoed in the response.
const RequestIDHeader = "X-Request-ID"

// requestIDKey is RequestIDHeader in its canonical form, the key net/http files the header under:
// reading and writing the header map with it spares Header.Get and Set canonicalizing RequestIDHeader
// (Get allocated the canonical key on every request).
const requestIDKey = "X-Request-Id"

// maxRequestIDBytes bounds an accepted X-Request-ID; common ids (UUIDs, trace ids, ULIDs) are far
// shorter, and a longer value is replaced rather than logged.
const maxRequestIDBytes = 128

// maxLoggedPathBytes bounds the path written to the access log, so a request with a huge path (up to
// --max-header-bytes) cannot make every log line huge.
const maxLoggedPathBytes = 512

// Config configures Middleware.
type Config struct {
	// Metrics receives one observation per request; nil records none.
	Metrics *Metrics
	// Logger receives the access log, one line per request at level info; nil means slog.Default().
	Logger *slog.Logger
	// AccessLog turns the access log on. Operators who log at a proxy turn it off.
	AccessLog bool
	// AccessLines writes the access lines when set: serve passes one writing to Logger's destination
	// in Logger's format, which formats a line by hand instead of through a slog record. When nil,
	// the lines go through Logger.
	AccessLines *accesslog.Writer
	// Observers read each request's events after the built-in ones (the debug trace, which writes
	// only while Logger takes debug lines, the metrics, the access log), in this order.
	Observers []Observer
}

// Middleware wraps the endpoint handler next with what every request needs for operating the service:
// an X-Request-ID (accepted or generated, echoed in the response), the in-flight gauge, and the
// request's event record (Events, in its Exchange), which the observers read once it is answered: the
// debug line when Logger takes debug lines, the request counter and latency histogram, the access log
// line, and cfg.Observers. The handler reports each stage of a request once, into the request's
// Exchange (ExchangeOf), so the labels come from the handler's closed sets, never from the request.
func Middleware(next http.Handler, cfg Config) http.Handler {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	o := &observer{next: next, trace: debugTrace{log: logger}, metrics: cfg.Metrics, log: logger, idPrefix: newRequestIDPrefix(),
		observers: cfg.Observers}
	if cfg.AccessLog {
		o.access.log = cfg.AccessLines
		if o.access.log == nil {
			o.access.log = accesslog.Through(logger)
		}
	}
	return o
}

// errPanicked is what a request that panicked outside the handler's own recovery was answered with:
// net/http closes its connection.
var errPanicked = fault.Errorf(fault.Internal, "The handler panicked.")

type observer struct {
	next http.Handler
	// The built-in observers, called in this order when a request is answered, without an interface
	// call each: the debug trace (for Detailed requests), the metrics (nil: none) and the access log
	// (its log nil: off). observers, those of Config.Observers, follow them.
	trace     debugTrace
	metrics   *Metrics
	access    accessLine
	observers []Observer
	// log is asked at each request's start whether it takes debug lines: then the request's events
	// are Detailed, for the debug trace.
	log *slog.Logger
	// idPrefix and idCounter make generated request ids: unique within the process by the counter,
	// and across processes and restarts by the random prefix, without reading crypto/rand per request.
	idPrefix  string
	idCounter atomic.Uint64
}

// Exchange is one request's event record (Events), its response writer and its context in one
// allocation. It
// implements http.ResponseWriter to learn the status and size of the response (hiding net/http's
// unexported requestTooLarge hook from http.MaxBytesReader, so after an oversized body the server
// drains or closes the connection itself instead of being told to close it), and context.Context
// (the request's own context, plus itself under exchangeKey) so that putting it in the request costs
// no context.WithValue allocation; Deadline, Done and Err are the parent's, so cancellation is
// unchanged. It keeps the request as the middleware got it rather than its context (a pointer is half
// an interface value): it is allocated for every request, so it is held to 256 bytes, a size class
// of Go's allocator, where one more word would cost the next class's 288 (TestExchangeSize).
type Exchange struct {
	http.ResponseWriter
	// req is the request as the middleware got it: its context is the Exchange's parent.
	req *http.Request
	ev  Events
	// metrics are the request metrics, for a one-way run's failures (OneWayOf); nil without them.
	metrics *Metrics
}

// Deadline, Done and Err are those of the request's own context.
func (e *Exchange) Deadline() (time.Time, bool) { return e.req.Context().Deadline() }
func (e *Exchange) Done() <-chan struct{}       { return e.req.Context().Done() }
func (e *Exchange) Err() error                  { return e.req.Context().Err() }

func (e *Exchange) WriteHeader(status int) {
	if e.ev.Status == 0 {
		e.ev.Status = status
	}
	e.ResponseWriter.WriteHeader(status)
}

func (e *Exchange) Write(p []byte) (int, error) {
	if e.ev.Status == 0 {
		e.ev.Status = http.StatusOK
	}
	n, err := e.ResponseWriter.Write(p)
	e.ev.Bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer (deadlines, flushing).
func (e *Exchange) Unwrap() http.ResponseWriter { return e.ResponseWriter }

type exchangeKey struct{}

// Value returns the exchange itself for exchangeKey and defers every other key to the request's
// context.
func (e *Exchange) Value(key any) any {
	if _, ok := key.(exchangeKey); ok {
		return e
	}
	return e.req.Context().Value(key)
}

// ExchangeOf returns the record Middleware put in the request's context, or nil when the handler is
// served without Middleware (tests, embedding). Every method of *Exchange accepts nil.
func ExchangeOf(r *http.Request) *Exchange {
	e, _ := r.Context().Value(exchangeKey{}).(*Exchange)
	return e
}

// AddStoreTime adds d to the store time of the request whose context ctx is, when its exchange traces
// it. The store decorator (server/store/instrumented) calls it after every call; the service passes
// the request's own context to the store, which is the exchange itself, so finding it costs a type
// assertion.
func AddStoreTime(ctx context.Context, d time.Duration) {
	e, ok := ctx.(*Exchange)
	if !ok {
		e, _ = ctx.Value(exchangeKey{}).(*Exchange)
	}
	if e != nil && e.ev.Detailed {
		e.ev.StoreTime += d
	}
}

// RequestID returns the request's id for logs, or "" when the request was not observed.
func (e *Exchange) RequestID() string {
	if e == nil {
		return ""
	}
	return e.ev.RequestID
}

func (o *observer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := &Exchange{ResponseWriter: w, req: r, metrics: o.metrics}
	var client string
	if v := r.Header[requestIDKey]; len(v) > 0 {
		client = v[0] // what r.Header.Get(RequestIDHeader) returns
	}
	ex.ev.Start, ex.ev.RequestID, ex.ev.Detailed = time.Now(), o.requestID(client), o.log.Enabled(r.Context(), slog.LevelDebug)
	// Set the header map entry directly: Set would canonicalize the key again and allocate the value
	// slice on every request. The one-element slice is the record's RequestID field itself, which
	// saves the allocation and a field of the Exchange.
	w.Header()[requestIDKey] = unsafe.Slice(&ex.ev.RequestID, 1)
	if o.metrics != nil {
		o.metrics.inFlight.Inc()
	}
	// Deferred so that a panic the handler lets through (http.ErrAbortHandler, or one outside serve,
	// such as in a help page) still leaves the in-flight gauge right and is counted and logged as an
	// internal failure; net/http then handles the panic as without this middleware.
	defer func() {
		if v := recover(); v != nil {
			ex.ev.Err, ex.ev.Status = errPanicked, http.StatusInternalServerError
			o.finish(ex, r)
			panic(v)
		}
		o.finish(ex, r)
	}()
	o.next.ServeHTTP(ex, r.WithContext(ex))
}

// finish completes the request's events with its answer and hands them to every observer.
func (o *observer) finish(ex *Exchange, r *http.Request) {
	ev := &ex.ev
	ev.Duration = time.Since(ev.Start)
	if ev.Status == 0 {
		ev.Status = http.StatusOK // net/http sends 200 for a handler that wrote nothing
	}
	if ev.Code() == fault.Unavailable && errors.Is(ex.Err(), context.Canceled) {
		// The request's context is cancelled before ServeHTTP returns only when the client's
		// connection closed (or a shutdown cut it): the Unavailable answer went to nobody, and
		// counting it as one would raise false alarms about the store (Outcome).
		ev.clientGone = true
	}
	if ev.Detailed {
		o.trace.Finished(r, ev)
	}
	if o.metrics != nil {
		o.metrics.inFlight.Dec()
		o.metrics.Finished(r, ev)
	}
	if o.access.log != nil {
		o.access.Finished(r, ev)
	}
	for _, obs := range o.observers {
		obs.Finished(r, ev)
	}
}

// accessLine is the Observer writing the access log: one line per request.
type accessLine struct{ log *accesslog.Writer }

func (a accessLine) Finished(r *http.Request, ev *Events) {
	path := r.URL.Path
	if len(path) > maxLoggedPathBytes {
		path = path[:maxLoggedPathBytes] + "…"
	}
	a.log.Log(r.Context(), &accesslog.Entry{Time: ev.End(), RequestID: ev.RequestID, Method: r.Method, Path: path,
		Binding: ev.BindingLabel(), Operation: ev.OperationLabel(), Status: ev.Status, Outcome: ev.Outcome(), Duration: ev.Duration,
		Bytes: ev.Bytes, Remote: r.RemoteAddr, User: ev.User()})
}

// outcomeOf returns the outcome label of a finished request: the code the handler reported, else
// "ok" for a success, else the code whose status it is. The last case covers the errors written
// before a binding is chosen (unknown path, method or media type: 404, 405, 415), failures of the
// help pages (500) and a 401 for the documents when they require credentials; a status no code has
// becomes "other".
func outcomeOf(code fault.Code, status int) string {
	if code != "" {
		return string(code)
	}
	switch {
	case status < http.StatusBadRequest:
		return outcomeOK
	case status == http.StatusBadRequest:
		return string(fault.MalformedRequest)
	case status == http.StatusUnauthorized:
		return outcomeUnauthenticated
	case status == http.StatusNotFound:
		return string(fault.UnknownOperation)
	case status == http.StatusMethodNotAllowed:
		return string(fault.MethodNotAllowed)
	case status == http.StatusRequestEntityTooLarge:
		return string(fault.TooLarge)
	case status == http.StatusUnsupportedMediaType:
		return string(fault.UnsupportedMediaType)
	case status == http.StatusServiceUnavailable:
		return string(fault.Unavailable)
	case status == http.StatusInternalServerError:
		return string(fault.Internal)
	}
	return outcomeOther
}

// requestID returns the client's X-Request-ID when it is sane, else a new one. Sane is 1 to 128
// bytes of visible ASCII (0x21 to 0x7E): no spaces, control characters (CR and LF could forge log
// lines in a text log) or non-ASCII bytes. An insane id is replaced, never logged.
func (o *observer) requestID(client string) string {
	if saneRequestID(client) {
		return client
	}
	var buf [40]byte
	b := append(buf[:0], o.idPrefix...)
	b = strconv.AppendUint(b, o.idCounter.Add(1), 10)
	return string(b)
}

func saneRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDBytes {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// newRequestIDPrefix returns 12 random hex digits and a dash: two processes (or one after a restart)
// then generate different ids, with 48 bits against collisions.
func newRequestIDPrefix() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:]) + "-"
}
