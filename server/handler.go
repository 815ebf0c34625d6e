// Package server implements the Contact Synchronization Service: the generated operation interface
// (Service, over a store) and the HTTP handler that exposes it through four bindings (SOAP 1.1, SOAP
// 1.2, HTTP GET, HTTP POST) on one endpoint, plus the contract at ?WSDL.
package server

import (
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/wsdl"
)

// endpointPath is the single endpoint of every binding (spec §4).
const endpointPath = wsdl.Path

// Limits bound what one request may cost and how many run at once. The spec sets none (§8); the
// defaults are far above any legitimate request of this contract (the largest is a few hundred bytes)
// and far below what could hurt the server.
type Limits struct {
	// MaxBodyBytes is the largest request body accepted.
	MaxBodyBytes int64
	// MaxXMLDepth is the deepest element nesting accepted in a SOAP request.
	MaxXMLDepth int
	// MaxXMLElements is the most elements accepted in one SOAP request.
	MaxXMLElements int
	// MaxConcurrent is how many operation requests run at once; more wait up to QueueTimeout, then
	// are refused with 503 and Retry-After, so overload never builds an unbounded backlog (admission.go).
	MaxConcurrent int
	// MaxHeaderBytes bounds the request line and headers (net/http answers 431 beyond it).
	MaxHeaderBytes int
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout bound each connection's phases, so
	// a slow or stalled client (slowloris) cannot hold a connection open.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// XMLBudget bounds attributes, namespaces, names and comments of a SOAP request (xmlbudget.go).
	XMLBudget
	// AdmissionLimits bound what requests may hold before they run (admission.go).
	AdmissionLimits
}

// DefaultLimits returns the limits used when none are configured.
func DefaultLimits() Limits {
	return Limits{
		MaxBodyBytes:      1 << 20,
		MaxXMLDepth:       32,
		MaxXMLElements:    1000,
		MaxConcurrent:     DefaultMaxConcurrent(),
		MaxHeaderBytes:    64 << 10,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		XMLBudget:         DefaultXMLBudget(),
		AdmissionLimits:   DefaultAdmissionLimits(),
	}
}

// withDefaults fills every zero field of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = d.MaxBodyBytes
	}
	if l.MaxXMLDepth <= 0 {
		l.MaxXMLDepth = d.MaxXMLDepth
	}
	if l.MaxXMLElements <= 0 {
		l.MaxXMLElements = d.MaxXMLElements
	}
	if l.MaxConcurrent <= 0 {
		l.MaxConcurrent = d.MaxConcurrent
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if l.ReadHeaderTimeout <= 0 {
		l.ReadHeaderTimeout = d.ReadHeaderTimeout
	}
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = d.ReadTimeout
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = d.WriteTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = d.IdleTimeout
	}
	l.XMLBudget = l.XMLBudget.withDefaults()
	l.AdmissionLimits = l.AdmissionLimits.withDefaults()
	return l
}

// NewHTTPServer returns an http.Server for h with the connection limits of l applied.
func NewHTTPServer(h http.Handler, l Limits, logger *slog.Logger) *http.Server {
	l = l.withDefaults()
	if logger == nil {
		logger = slog.Default()
	}
	return &http.Server{
		Handler:           withNosniff(h), // addressing.go
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// Config configures a Handler.
type Config struct {
	// BaseURL fixes the service namespace, BaseURL + "/contactsync/v1/". It is deployment
	// configuration, never taken from a request: clients compile the namespace in.
	BaseURL string
	// Limits bound each request; zero fields take their defaults.
	Limits Limits
	// Logger receives internal errors and recovered panics; nil means slog.Default().
	Logger *slog.Logger
	// Auth, when set, requires credentials on every operation request (HTTP Basic, or a WS-Security
	// UsernameToken on SOAP); nil means authentication is off. See auth.go.
	Auth *auth.Authenticator
	// ProtectDocs puts ?WSDL, ?disco and the help pages behind HTTP Basic too (only with Auth).
	ProtectDocs bool
	// Addressing decides the addresses in the documents: --public-url, --trusted-proxies (addressing.go).
	Addressing
}

// Namespace returns the service namespace for a base URL, checking that the base URL is an absolute
// http or https URL without query or fragment.
func Namespace(baseURL string) (string, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("base URL %q must be an absolute http or https URL without user, query or fragment", baseURL)
	}
	return strings.TrimRight(baseURL, "/") + "/contactsync/v1/", nil
}

// Handler serves the endpoint. It is safe for concurrent use.
type Handler struct {
	svc            gen.SyncServiceSoap
	limits         Limits
	log            *slog.Logger
	soap11, soap12 *soapBinding
	get, post      *httpBinding
	contract       *contract
	// gates bound the requests reading their body, waiting and running (admission.go).
	gates *admission
	// addrs writes the documents' addresses (addressing.go).
	addrs *addresser
	// auth is nil when authentication is off; protectDocs guards the documents too (auth.go).
	auth        *auth.Authenticator
	protectDocs bool
}

// NewHandler returns the handler serving svc under cfg.
func NewHandler(svc gen.SyncServiceSoap, cfg Config) (*Handler, error) {
	ns, err := Namespace(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	addresses, err := newAddresser(cfg.Addressing) // addressing.go
	if err != nil {
		return nil, err
	}
	limits := cfg.Limits.withDefaults()
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return &Handler{
		svc:      svc,
		limits:   limits,
		log:      logger,
		soap11:   newSOAPBinding(false, ns, limits),
		soap12:   newSOAPBinding(true, ns, limits),
		get:      newHTTPBinding(false, ns),
		post:     newHTTPBinding(true, ns),
		contract: newContract(ns),
		gates:    newAdmission(limits),
		addrs:    addresses,

		auth:        cfg.Auth,
		protectDocs: cfg.ProtectDocs,
	}, nil
}

// ServeHTTP routes a request to a binding by path, method and content type.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header()["X-Content-Type-Options"] = headerNosniff // addressing.go: on every response
	switch {
	case r.URL.Path == endpointPath:
		h.serveEndpoint(w, r)
	case strings.HasPrefix(r.URL.Path, endpointPath+"/"):
		switch r.Method {
		case http.MethodGet:
			h.serve(w, r, h.get)
		case http.MethodPost:
			h.serve(w, r, h.post)
		default:
			w.Header().Set("Allow", "GET, POST")
			writePlainError(w, errorf(CodeMethodNotAllowed, "The method %s is not allowed; the HTTP bindings accept GET and POST.", r.Method))
		}
	default:
		writePlainError(w, errorf(CodeUnknownOperation, "Nothing is served at %s; the service endpoint is %s.", r.URL.Path, endpointPath))
	}
}

func (h *Handler) serveEndpoint(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		// addressing.go: Cache-Control and Vary when the documents' addresses follow the request.
		h.documentHeaders(w)
		if h.docsGuarded(w, r) { // auth.go: only when --auth-docs=protected
			return
		}
		if hasQueryFlag(r.URL.RawQuery, "wsdl") {
			h.contract.serve(w, h.requestAddress(r))
			return
		}
		if hasQueryFlag(r.URL.RawQuery, "disco") {
			h.serveDisco(w, r)
			return
		}
		h.serveHelp(w, r) // the service page, or ?op=<Op>'s page (help.go)
	case http.MethodPost:
		switch soapMediaType(r.Header.Get("Content-Type")) {
		case "text/xml":
			h.serve(w, r, h.soap11)
		case "application/soap+xml":
			h.serve(w, r, h.soap12)
		default:
			writePlainError(w, errorf(CodeUnsupportedMediaType,
				"The content type %q is not accepted here: SOAP 1.1 requests use text/xml and SOAP 1.2 requests application/soap+xml.", r.Header.Get("Content-Type")))
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		writePlainError(w, errorf(CodeMethodNotAllowed, "The method %s is not allowed; use POST for SOAP and GET for the service description.", r.Method))
	}
}

// soapMediaType returns the media type of a Content-Type header, lower case, or "" when it does not
// parse. The content types SOAP 1.1 clients send are recognised without mime.ParseMediaType, which
// allocates a parameter map per call and showed in the profile (BENCHMARKS.md); anything else goes
// through it.
func soapMediaType(contentType string) string {
	switch contentType {
	case "text/xml; charset=utf-8", "text/xml; charset=UTF-8", "text/xml;charset=utf-8", "text/xml":
		return "text/xml"
	}
	mediaType, _, _ := mime.ParseMediaType(contentType)
	return mediaType
}

// hasQueryFlag reports whether the raw query holds a bare key (or key=...) equal to name in any case,
// as ASMX accepts ?WSDL, ?wsdl and ?Wsdl alike.
func hasQueryFlag(rawQuery, name string) bool {
	for part := range strings.SplitSeq(rawQuery, "&") {
		key, _, _ := strings.Cut(part, "=")
		if strings.EqualFold(key, name) {
			return true
		}
	}
	return false
}

// serve runs one request through a binding: admit it (read the body, take a slot), authenticate,
// decode, call, encode. A panic anywhere below becomes an internal error in the binding's form; the
// server keeps serving.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, b binding) {
	ex := exchangeOf(r) // observe.go: what this request reports to metrics and the access log
	ex.setBinding(b)
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.Error("panic while serving a request", "request_id", ex.requestID(), "binding", b.name(), "panic", v, "stack", string(debug.Stack()))
			ex.setCode(CodeInternal)
			b.writeError(w, internalError(fmt.Errorf("panic: %v", v)))
		}
	}()

	// admission.go: the body is read (within limits and a minimum rate), then an operation slot taken.
	body, ticket, err := h.gates.admit(w, r)
	defer ticket.release()
	if err != nil {
		h.writeError(w, r, b, err)
		return
	}

	// Authentication (auth.go): HTTP Basic is checked within the slot, so bcrypt runs within
	// --max-concurrent, and before the body is parsed.
	authenticated, aerr := h.checkBasic(r, b)
	if aerr != nil {
		h.writeError(w, r, b, aerr)
		return
	}
	var op *operation
	var id string
	var derr *Error
	if authenticated {
		op, id, derr = b.decode(r, body)
	} else {
		op, id, derr = h.decodeAuthenticating(r, b, body) // auth.go: the SOAP UsernameToken
	}
	ex.setOperation(op)
	if derr != nil {
		h.writeError(w, r, b, derr)
		return
	}
	res, cerr := op.call(r.Context(), h.svc, id)
	if cerr != nil {
		h.writeError(w, r, b, asError(cerr))
		return
	}
	b.writeResult(w, op, res)
}

func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, b binding, e *Error) {
	ex := exchangeOf(r)
	ex.setCode(e.Code)
	if e.Code == CodeInternal {
		h.log.Error("request failed", "request_id", ex.requestID(), "binding", b.name(), "path", r.URL.Path, "error", e.Err)
	}
	b.writeError(w, e)
}

// bufferPool recycles response and request buffers; they are small and every request needs two.
var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuffer() *[]byte { return bufferPool.Get().(*[]byte) }

func putBuffer(b *[]byte) {
	if cap(*b) > 64<<10 {
		return // do not keep buffers grown by unusually large requests
	}
	*b = (*b)[:0]
	bufferPool.Put(b)
}

func itoa(n int) string { return strconv.Itoa(n) }
