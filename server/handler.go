// Package server is the service's HTTP handler: it wires the packages below it into one endpoint and
// routes each request to them. A request to /contactsync/v1/sync.asmx goes by method, path and content
// type to a binding (binding/soap, binding/httpform, binding/json) or to the documents (docs); the
// handler admits it (admission), authenticates it (auth), decodes it with the binding, calls the
// operation through the generated table (gen) on the service (service), and has the binding write
// the result or the error. What it decided is reported to observe's Exchange for metrics and the
// access log.
//
// Only cmd/, tools/ and tests import this package; no package under server/ does.
package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/binding/httpform"
	"github.com/contactsync/contactsync/server/binding/json"
	"github.com/contactsync/contactsync/server/binding/soap"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/docs"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// endpointPath is the single endpoint of every binding (spec §4).
const endpointPath = wsdl.Path

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
	// Protocols lists the protocols served (binding.ProtocolNames); nil means binding.DefaultProtocols.
	Protocols []string
	// Namespace, when set, is the namespace of the operations' elements as given, instead of the one
	// BaseURL fixes. It is for NewContractHandler serving another generated contract, whose namespace
	// is not this service's (the type zoo's golden tests); the documents still describe contactsync's
	// own contract under BaseURL.
	Namespace string
	// Addressing decides the addresses in the documents: --public-url, --trusted-proxies.
	Addressing docs.Addressing
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
	log            *slog.Logger
	soap11, soap12 binding.Binding
	get, post      binding.Binding
	json           binding.Binding
	protocols      binding.Protocols
	docs           *docs.Documents
	// gates bound the requests reading their body, waiting and running (admission).
	gates *admission.Gates
	// auth is nil when authentication is off; protectDocs guards the documents too (auth.go).
	auth        *auth.Authenticator
	protectDocs bool
	// debug is whether the logger takes debug lines: then every request served by a binding gets one
	// (trace.go).
	debug bool
}

// bodyReadGrace is the time every request body gets on top of its size at the minimum rate
// (admission.DefaultBodyReadGrace); a variable only so that tests can shorten it.
var bodyReadGrace = admission.DefaultBodyReadGrace

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
		names = binding.DefaultProtocols
	}
	protocols, err := binding.ParseProtocols(names)
	if err != nil {
		return nil, err
	}
	limits := cfg.Limits.withDefaults()
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	h := &Handler{
		svc:       svc,
		log:       logger,
		soap11:    soap.New(false, opsNS, limits.soap(), ops),
		soap12:    soap.New(true, opsNS, limits.soap(), ops),
		get:       httpform.New(false, opsNS, ops),
		post:      httpform.New(true, opsNS, ops),
		json:      json.New(limits.MaxXMLDepth, ops),
		protocols: protocols,
		gates:     admission.New(limits.AdmissionLimits, limits.MaxConcurrent, limits.MaxBodyBytes, bodyReadGrace),

		auth:        cfg.Auth,
		protectDocs: cfg.ProtectDocs,
		debug:       logger.Enabled(context.Background(), slog.LevelDebug),
	}
	// The help pages show a sample of every served binding, in this order.
	var faces []docs.Face
	for _, f := range []struct {
		on      bool
		heading string
		client  client.Binding
		server  binding.Binding
	}{
		{protocols.SOAP11, "SOAP 1.1", client.SOAP11, h.soap11},
		{protocols.SOAP12, "SOAP 1.2", client.SOAP12, h.soap12},
		{protocols.Get, "HTTP GET", client.HTTPGet, h.get},
		{protocols.Post, "HTTP POST", client.HTTPPost, h.post},
		{protocols.JSON, "JSON", client.JSON, h.json},
	} {
		if f.on {
			faces = append(faces, docs.Face{Heading: f.heading, Client: f.client, Server: f.server})
		}
	}
	h.docs, err = docs.New(docs.Config{Namespace: ns, Protocols: protocols, Addressing: cfg.Addressing, Faces: faces,
		Guard: h.docsGuarded, Logger: logger})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// ServeHTTP routes a request to a binding by path, method and content type.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header()["X-Content-Type-Options"] = headerNosniff // on every response (limits.go)
	switch {
	case r.URL.Path == endpointPath:
		h.serveEndpoint(w, r)
	case strings.HasPrefix(r.URL.Path, endpointPath+"/"):
		h.serveOperationPath(w, r)
	default:
		binding.WritePlainError(w, fault.Errorf(fault.UnknownOperation, "Nothing is served at %s; the service endpoint is %s.", r.URL.Path, endpointPath))
	}
}

// serveOperationPath routes /sync.asmx/<Operation>: the JSON endpoint for a JSON POST (when enabled),
// else the HTTP GET or POST binding.
func (h *Handler) serveOperationPath(w http.ResponseWriter, r *http.Request) {
	jsonRequest := h.protocols.JSON && json.IsMediaType(r.Header.Get("Content-Type"))
	switch {
	case r.Method == http.MethodPost && !h.protocols.JSON && jsonWhileOff(r):
		// Not the HTTP POST binding's "requires application/x-www-form-urlencoded": the caller meant
		// the JSON endpoint, and needs to know it is off and how it is turned on.
		binding.WritePlainError(w, fault.Errorf(fault.UnsupportedMediaType,
			"The JSON endpoint is not enabled on this service: it answers application/json requests only when serve's --protocols lists json. HTTP POST requests use application/x-www-form-urlencoded."))
	case jsonRequest && r.Method == http.MethodPost:
		h.serve(w, r, h.json)
	case jsonRequest:
		// ASP.NET AJAX refuses a GET of a method not marked UseHttpGet; the JSON endpoint answers GET
		// in JSON rather than falling through to the XML binding the client did not ask for.
		w.Header().Set("Allow", "POST")
		json.WriteError(w, fault.Errorf(fault.MethodNotAllowed, "The method %s is not allowed on the JSON endpoint; call it with POST.", r.Method))
	case r.Method == http.MethodGet && h.protocols.Get:
		h.serve(w, r, h.get)
	case r.Method == http.MethodPost && h.protocols.Post:
		h.serve(w, r, h.post)
	case r.Method == http.MethodGet || r.Method == http.MethodPost:
		what := map[string]string{http.MethodGet: "HTTP GET", http.MethodPost: "HTTP POST"}[r.Method]
		binding.WritePlainError(w, fault.Errorf(fault.UnknownOperation, "The %s protocol is not enabled on this service.", what))
	default:
		w.Header().Set("Allow", h.operationPathMethods())
		binding.WritePlainError(w, fault.Errorf(fault.MethodNotAllowed, "The method %s is not allowed; the HTTP bindings accept %s.", r.Method, h.operationPathMethods()))
	}
}

// jsonWhileOff reports whether a POST to an operation path is a JSON request, for a service whose JSON
// endpoint is off. The content type is parsed only when it mentions json at all, so the form POSTs of
// the HTTP POST binding pay a substring search, not a parse.
func jsonWhileOff(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	return strings.Contains(strings.ToLower(ct), "json") && json.IsMediaType(ct)
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
			binding.WritePlainError(w, fault.Errorf(fault.UnknownOperation, "The service description (?WSDL, ?disco, help pages) is not enabled on this service."))
			return
		}
		h.docs.ServeHTTP(w, r)
	case http.MethodPost:
		switch soap.MediaType(r.Header.Get("Content-Type")) {
		case "text/xml":
			if !h.protocols.SOAP11 {
				binding.WritePlainError(w, fault.Errorf(fault.UnsupportedMediaType, "SOAP 1.1 (text/xml) is not enabled on this service."))
				return
			}
			h.serve(w, r, h.soap11)
		case "application/soap+xml":
			if !h.protocols.SOAP12 {
				binding.WritePlainError(w, fault.Errorf(fault.UnsupportedMediaType, "SOAP 1.2 (application/soap+xml) is not enabled on this service."))
				return
			}
			h.serve(w, r, h.soap12)
		default:
			binding.WritePlainError(w, fault.Errorf(fault.UnsupportedMediaType,
				"The content type %q is not accepted here: SOAP 1.1 requests use text/xml and SOAP 1.2 requests application/soap+xml.", r.Header.Get("Content-Type")))
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		binding.WritePlainError(w, fault.Errorf(fault.MethodNotAllowed, "The method %s is not allowed; use POST for SOAP and GET for the service description.", r.Method))
	}
}

// serve runs one request through a binding: authenticate what the headers carry, admit the body,
// decode it (and authenticate the credentials it carries), take an operation slot, call, encode.
// Credentials are checked before the slot is taken: a wrong password waits for one of the
// authenticator's few bcrypt slots, and must not hold an operation slot meanwhile. A panic anywhere
// below becomes an internal error in the binding's form; the server keeps serving.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, b binding.Binding) {
	ex := observe.ExchangeOf(r) // what this request reports to metrics and the access log
	ex.SetBinding(b.Name())
	if h.debug {
		// What --log-level debug logs of the request (trace.go), once it is answered.
		tr := &trace{}
		ex.TraceStore()
		defer h.logTrace(r, b, tr)
		h.serveTraced(w, r, b, ex, tr)
		return
	}
	h.serveTraced(w, r, b, ex, nil)
}

// serveTraced is serve, recording into tr when it is not nil.
func (h *Handler) serveTraced(w http.ResponseWriter, r *http.Request, b binding.Binding, ex *observe.Exchange, tr *trace) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.Error("panic while serving a request", "request_id", ex.RequestID(), "binding", b.Name(), "panic", v, "stack", string(debug.Stack()))
			ex.SetCode(fault.Internal)
			b.WriteError(w, fault.InternalError(fmt.Errorf("panic: %v", v)))
		}
	}()

	// HTTP Basic (auth.go), from the headers alone: a caller without valid credentials is answered
	// before its body is read.
	var who authOutcome
	authenticated, aerr := h.checkBasic(r, b, &who)
	if aerr != nil {
		tr.auth(&who, aerr)
		h.writeError(w, r, b, aerr)
		return
	}
	// The body is read within the limits and a minimum rate, holding a pending place (admission).
	body, ticket, err := h.gates.Admit(w, r, b)
	defer ticket.Release()
	if err != nil {
		tr.admission(&ticket, err)
		h.writeError(w, r, b, err)
		return
	}
	var req binding.Request
	var derr *fault.Error
	if authenticated {
		req, derr = b.Decode(r, body)
	} else {
		req, derr = h.decodeAuthenticating(r, b, body, &who) // auth.go: the SOAP UsernameToken
		if who.refused != "" {
			tr.auth(&who, derr)
			h.writeError(w, r, b, derr)
			return
		}
	}
	if h.auth != nil {
		ex.SetUser(who.user)
		tr.auth(&who, nil)
	}
	if req.Op != nil {
		ex.SetOperation(req.Op.Name)
		tr.request(req)
	}
	if derr != nil {
		tr.failed("decode", derr)
		h.writeError(w, r, b, derr)
		return
	}
	if err := h.gates.Enter(&ticket, r); err != nil {
		tr.admission(&ticket, err)
		h.writeError(w, r, b, err)
		return
	}
	tr.admission(&ticket, nil)
	resp, cerr := req.Op.Call(r.Context(), h.svc, req.Msg)
	if cerr != nil {
		e := fault.As(cerr)
		tr.failed("operation", e)
		h.writeError(w, r, b, e)
		return
	}
	b.WriteResult(w, req.Op, resp)
}

func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, b binding.Binding, e *fault.Error) {
	ex := observe.ExchangeOf(r)
	ex.SetCode(e.Code)
	switch e.Code {
	case fault.Internal:
		h.log.Error("request failed", "request_id", ex.RequestID(), "binding", b.Name(), "path", r.URL.Path, "error", e.Err)
	case fault.OutcomeUnknown:
		// Rare, and the one answer that leaves the data in doubt: the log names the request, so an
		// operator can find what the client was told and check the contact.
		h.log.Warn("write outcome unknown: its commit was sent and the answer lost", "request_id", ex.RequestID(),
			"binding", b.Name(), "path", r.URL.Path, "error", e.Err)
	}
	b.WriteError(w, e)
}

// Contract returns the WSDL for a deployment whose namespace is set by baseURL, with every port at
// address. It is what `contactsync wsdl` prints.
func Contract(baseURL, address string) ([]byte, error) {
	return ContractFor(baseURL, address, binding.DefaultProtocols)
}

// ContractFor is Contract for a service serving the given protocols (binding.ProtocolNames): the
// bindings of disabled protocols are left out.
func ContractFor(baseURL, address string, protocols []string) ([]byte, error) {
	ns, err := Namespace(baseURL)
	if err != nil {
		return nil, err
	}
	p, err := binding.ParseProtocols(protocols)
	if err != nil {
		return nil, err
	}
	return docs.Contract(ns, p, address), nil
}
