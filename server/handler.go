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
	"github.com/contactsync/contactsync/server/wire"
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
	// Protocols lists the protocols served (ProtocolNames); nil means DefaultProtocols.
	Protocols []string
	// Namespace, when set, is the namespace of the operations' elements as given, instead of the one
	// BaseURL fixes. It is for NewContractHandler serving another generated contract, whose namespace
	// is not this service's (the type zoo's golden tests); the documents still describe contactsync's
	// own contract under BaseURL.
	Namespace string
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
	svc            any // implements the server interface the operation table calls
	limits         Limits
	log            *slog.Logger
	soap11, soap12 *soapBinding
	get, post      *httpBinding
	json           *jsonBinding
	protocols      Protocols
	contract       *contract
	// gates bound the requests reading their body, waiting and running (admission.go).
	gates *admission
	// addrs writes the documents' addresses (addressing.go).
	addrs *addresser
	// auth is nil when authentication is off; protectDocs guards the documents too (auth.go).
	auth        *auth.Authenticator
	protectDocs bool
}

// NewHandler returns the handler serving svc, the implementation of the generated server interface,
// under cfg.
func NewHandler(svc gen.SyncServiceSoapServer, cfg Config) (*Handler, error) {
	return NewContractHandler(gen.Operations, svc, cfg)
}

// NewContractHandler returns a handler serving the operations of a generated table, ops, with svc, which
// must implement the server interface generated with that table. NewHandler serves this service's own
// contract; this form lets tests and tools serve another generated contract through the same bindings.
// The documents (?WSDL, ?disco, help pages) always describe this service's contract.
func NewContractHandler(ops []*wire.Operation, svc any, cfg Config) (*Handler, error) {
	ns, err := Namespace(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	opsNS := ns
	if cfg.Namespace != "" {
		opsNS = cfg.Namespace
	}
	names := cfg.Protocols
	if names == nil {
		names = DefaultProtocols
	}
	protocols, err := ParseProtocols(names)
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
		soap11:   newSOAPBinding(false, opsNS, limits, ops),
		soap12:   newSOAPBinding(true, opsNS, limits, ops),
		get:      newHTTPBinding(false, opsNS, ops),
		post:     newHTTPBinding(true, opsNS, ops),
		json:     newJSONBinding(limits, ops),
		contract: newContract(ns, protocols),
		gates:    newAdmission(limits),
		addrs:    addresses,

		protocols: protocols,

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
		h.serveOperationPath(w, r)
	default:
		writePlainError(w, errorf(CodeUnknownOperation, "Nothing is served at %s; the service endpoint is %s.", r.URL.Path, endpointPath))
	}
}

// serveOperationPath routes /sync.asmx/<Operation>: the JSON endpoint for a JSON POST (when enabled),
// else the HTTP GET or POST binding.
func (h *Handler) serveOperationPath(w http.ResponseWriter, r *http.Request) {
	jsonRequest := h.protocols.JSON && isJSONMediaType(r.Header.Get("Content-Type"))
	switch {
	case jsonRequest && r.Method == http.MethodPost:
		h.serve(w, r, h.json)
	case jsonRequest:
		// ASP.NET AJAX refuses a GET of a method not marked UseHttpGet; the JSON endpoint answers GET
		// in JSON rather than falling through to the XML binding the client did not ask for.
		w.Header().Set("Allow", "POST")
		writeJSONError(w, errorf(CodeMethodNotAllowed, "The method %s is not allowed on the JSON endpoint; call it with POST.", r.Method))
	case r.Method == http.MethodGet && h.protocols.Get:
		h.serve(w, r, h.get)
	case r.Method == http.MethodPost && h.protocols.Post:
		h.serve(w, r, h.post)
	case r.Method == http.MethodGet || r.Method == http.MethodPost:
		what := map[string]string{http.MethodGet: "HTTP GET", http.MethodPost: "HTTP POST"}[r.Method]
		writePlainError(w, errorf(CodeUnknownOperation, "The %s protocol is not enabled on this service.", what))
	default:
		w.Header().Set("Allow", h.operationPathMethods())
		writePlainError(w, errorf(CodeMethodNotAllowed, "The method %s is not allowed; the HTTP bindings accept %s.", r.Method, h.operationPathMethods()))
	}
}

// operationPathMethods is the Allow value of /sync.asmx/<Operation>.
func (h *Handler) operationPathMethods() string {
	var m []string
	if h.protocols.Get {
		m = append(m, http.MethodGet)
	}
	if h.protocols.Post || h.protocols.JSON {
		m = append(m, http.MethodPost)
	}
	if len(m) == 0 {
		return "GET, POST"
	}
	return strings.Join(m, ", ")
}

func (h *Handler) serveEndpoint(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if !h.protocols.Docs {
			writePlainError(w, errorf(CodeUnknownOperation, "The service description (?WSDL, ?disco, help pages) is not enabled on this service."))
			return
		}
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
			if !h.protocols.SOAP11 {
				writePlainError(w, errorf(CodeUnsupportedMediaType, "SOAP 1.1 (text/xml) is not enabled on this service."))
				return
			}
			h.serve(w, r, h.soap11)
		case "application/soap+xml":
			if !h.protocols.SOAP12 {
				writePlainError(w, errorf(CodeUnsupportedMediaType, "SOAP 1.2 (application/soap+xml) is not enabled on this service."))
				return
			}
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
	var req request
	var derr *Error
	if authenticated {
		req, derr = b.decode(r, body)
	} else {
		req, derr = h.decodeAuthenticating(r, b, body) // auth.go: the SOAP UsernameToken
	}
	ex.setOperation(req.op)
	if derr != nil {
		h.writeError(w, r, b, derr)
		return
	}
	resp, cerr := req.op.Call(r.Context(), h.svc, req.msg)
	if cerr != nil {
		h.writeError(w, r, b, asError(cerr))
		return
	}
	b.writeResult(w, req.op, resp)
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
