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

	"github.com/contactsync/contactsync/server/fault"
)

// RequestIDHeader carries a request's id: taken from the request when sane, generated otherwise, and
// always echoed in the response.
const RequestIDHeader = "X-Request-ID"

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
	AccessLines *AccessLog
}

// Middleware wraps the endpoint handler next with what every request needs for operating the service:
// an X-Request-ID (accepted or generated, echoed in the response), the in-flight gauge, the request
// counter and latency histogram, and the access log line. The handler reports the binding, operation
// and error code it chose into the request's Exchange (ExchangeOf), so the labels come from the
// handler's closed sets, never from the request.
func Middleware(next http.Handler, cfg Config) http.Handler {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	access := cfg.AccessLines
	if access == nil {
		access = Through(logger)
	}
	return &observer{next: next, metrics: cfg.Metrics, access: access, accessLog: cfg.AccessLog, idPrefix: newRequestIDPrefix()}
}

type observer struct {
	next      http.Handler
	metrics   *Metrics
	access    *AccessLog
	accessLog bool
	// idPrefix and idCounter make generated request ids: unique within the process by the counter,
	// and across processes and restarts by the random prefix, without reading crypto/rand per request.
	idPrefix  string
	idCounter atomic.Uint64
}

// Exchange is one request's record, its response writer and its context in one allocation. It
// implements http.ResponseWriter to learn the status and size of the response (hiding net/http's
// unexported requestTooLarge hook from http.MaxBytesReader, so after an oversized body the server
// drains or closes the connection itself instead of being told to close it), and context.Context
// (the request's own context, plus itself under exchangeKey) so that putting it in the request costs
// no context.WithValue allocation; Deadline, Done and Err are the parent's, so cancellation is
// unchanged.
type Exchange struct {
	http.ResponseWriter
	context.Context
	id string
	// idHeader backs the X-Request-ID header value, saving the allocation of a one-element slice.
	idHeader [1]string
	binding  string     // a name from the handler's Labels, set by the handler; "" until then
	op       string     // a name from the handler's Labels, set by the handler; "" until then
	code     fault.Code // the error code the handler answered with; "" on success
	user     string     // the user the request authenticated as; "" when it did not
	// traceStore makes AddStoreTime add up the store's time in store (--log-level debug).
	traceStore bool
	store      time.Duration
	status     int
	bytes      int64
}

func (e *Exchange) WriteHeader(status int) {
	if e.status == 0 {
		e.status = status
	}
	e.ResponseWriter.WriteHeader(status)
}

func (e *Exchange) Write(p []byte) (int, error) {
	if e.status == 0 {
		e.status = http.StatusOK
	}
	n, err := e.ResponseWriter.Write(p)
	e.bytes += int64(n)
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
	return e.Context.Value(key)
}

// ExchangeOf returns the record Middleware put in the request's context, or nil when the handler is
// served without Middleware (tests, embedding). Every method of *Exchange accepts nil.
func ExchangeOf(r *http.Request) *Exchange {
	e, _ := r.Context().Value(exchangeKey{}).(*Exchange)
	return e
}

// SetBinding records the binding that serves the request, one of the handler's Labels.
func (e *Exchange) SetBinding(name string) {
	if e != nil {
		e.binding = name
	}
}

// SetOperation records the operation the request was decoded as; "" leaves it unknown.
func (e *Exchange) SetOperation(name string) {
	if e != nil {
		e.op = name
	}
}

// SetCode records the error code the request was answered with.
func (e *Exchange) SetCode(c fault.Code) {
	if e != nil {
		e.code = c
	}
}

// SetUser records the user the request authenticated as, for the access log.
func (e *Exchange) SetUser(name string) {
	if e != nil {
		e.user = name
	}
}

// Operation returns the operation recorded by SetOperation; "" when none was.
func (e *Exchange) Operation() string {
	if e == nil {
		return ""
	}
	return e.op
}

// TraceStore makes the exchange add up the time its request spends in the store (AddStoreTime), for
// the debug log; StoreTime returns the sum.
func (e *Exchange) TraceStore() {
	if e != nil {
		e.traceStore = true
	}
}

// StoreTime returns the time the request spent in the store, when TraceStore was called.
func (e *Exchange) StoreTime() time.Duration {
	if e == nil {
		return 0
	}
	return e.store
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
	if e != nil && e.traceStore {
		e.store += d
	}
}

// RequestID returns the request's id for logs, or "" when the request was not observed.
func (e *Exchange) RequestID() string {
	if e == nil {
		return ""
	}
	return e.id
}

func (o *observer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ex := &Exchange{ResponseWriter: w, Context: r.Context(), id: o.requestID(r.Header.Get(RequestIDHeader))}
	// Set the header map entry directly: the key is already canonical, and Set would canonicalize it
	// again and allocate the value slice on every request.
	ex.idHeader[0] = ex.id
	w.Header()["X-Request-Id"] = ex.idHeader[:]
	if o.metrics != nil {
		o.metrics.inFlight.Inc()
	}
	// Deferred so that a panic the handler lets through (http.ErrAbortHandler, or one outside serve,
	// such as in a help page) still leaves the in-flight gauge right and is counted and logged as an
	// internal failure; net/http then handles the panic as without this middleware.
	defer func() {
		if v := recover(); v != nil {
			ex.code, ex.status = fault.Internal, http.StatusInternalServerError
			o.finish(ex, r, start)
			panic(v)
		}
		o.finish(ex, r, start)
	}()
	o.next.ServeHTTP(ex, r.WithContext(ex))
}

func (o *observer) finish(ex *Exchange, r *http.Request, start time.Time) {
	now := time.Now()
	elapsed := now.Sub(start)
	status := ex.status
	if status == 0 {
		status = http.StatusOK // net/http sends 200 for a handler that wrote nothing
	}
	outcome := outcomeOf(ex.code, status)
	if ex.code == fault.Unavailable && errors.Is(ex.Context.Err(), context.Canceled) {
		// The request's context is cancelled before ServeHTTP returns only when the client's
		// connection closed (or a shutdown cut it): the Unavailable answer went to nobody, and
		// counting it as one would raise false alarms about the store.
		outcome = outcomeClientGone
	}
	binding, op := ex.binding, ex.op
	if binding == "" {
		binding = bindingNone
	}
	if op == "" {
		op = operationUnknown
	}
	if o.metrics != nil {
		o.metrics.inFlight.Dec()
		o.metrics.observe(binding, op, outcomeIndex(outcome), elapsed.Seconds())
	}
	if o.accessLog {
		path := r.URL.Path
		if len(path) > maxLoggedPathBytes {
			path = path[:maxLoggedPathBytes] + "…"
		}
		o.access.Log(r.Context(), &Access{Time: now, RequestID: ex.id, Method: r.Method, Path: path,
			Binding: binding, Operation: op, Status: status, Outcome: outcome, Duration: elapsed, Bytes: ex.bytes,
			Remote: r.RemoteAddr, User: ex.user})
	}
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
