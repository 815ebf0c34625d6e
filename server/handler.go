// Package server is the service's HTTP handler: it wires the packages below it into one endpoint and
// routes each request to them. A request to /contactsync/v1/sync.asmx goes by method, path and content
// type to a binding or to the documents (docs), by the routes the bindings declare (routes.go); the
// handler admits it (admission), authenticates it (auth), decodes it with the binding, calls the
// operation on the service (service) through the contract the generated Bind bound to it (gen), and
// has the binding write the result or the error. What it decided is reported to observe's Exchange for metrics and the
// access log.
//
// Only cmd/, tools/ and tests import this package; no package under server/ does. It is the one package
// that imports the concrete binding packages (binding/soap, binding/httpform, binding/json), in one
// place: the list of bindings (allBindings).
package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"

	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/binding/httpform"
	"github.com/contactsync/contactsync/server/binding/json"
	"github.com/contactsync/contactsync/server/binding/soap"
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

// contractNamespace is the namespace a bound contract's operations are served in: the contract's own
// (Bound.Namespace, as its WSDL writes it, for the base URL http://localhost:8080) moved to baseURL,
// which keeps the path. For this service's contract it is Namespace(baseURL); a contract written for
// another base keeps its path too (the type zoo's http://localhost:8080/zoo/v1/).
func contractNamespace(baseURL, contract string) (string, error) {
	if _, err := Namespace(baseURL); err != nil {
		return "", err
	}
	u, err := url.Parse(contract)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path == "" {
		return "", fmt.Errorf("the contract's namespace %q is not an absolute http or https URL with a path", contract)
	}
	return strings.TrimRight(baseURL, "/") + u.Path, nil
}

// Handler serves the endpoint. It is safe for concurrent use.
type Handler struct {
	// call calls an operation on the implementation the contract was bound to (wire.Bound).
	call func(ctx context.Context, req wire.Message) (wire.Message, error)
	log  *slog.Logger
	// endpoint and operations are the routes of the endpoint and of its operation paths (routes.go).
	endpoint, operations place
	protocols            binding.Protocols
	docs                 *docs.Documents
	// gates bound the requests reading their body, waiting and running (admission).
	gates *admission.Gates
	// auth is nil when authentication is off; protectDocs guards the documents too (auth.go).
	auth        *auth.Authenticator
	protectDocs bool
}

// allBindings returns every binding the service has, in the order of binding.ProtocolNames, of the
// operations ops in namespace ns; --protocols chooses which are served. Adding a binding is its
// package, its name in the protocol list and one line here.
func allBindings(ns string, l Limits, ops []*wire.Operation) []binding.Binding {
	return []binding.Binding{
		soap.New(false, ns, l.XML, ops),
		soap.New(true, ns, l.XML, ops),
		httpform.New(false, ns, ops),
		httpform.New(true, ns, ops),
		json.New(l.XML, ops),
	}
}

// NewHandler returns the handler serving svc, a contract bound to its implementation by the contract's
// generated Bind (gen.Bind(service.New(st)) for this service), under cfg. The operations are served in
// the contract's namespace moved to cfg.BaseURL (contractNamespace). Another generated contract (the
// type zoos' tests) is served the same way; the documents (?WSDL, ?disco, help pages) always describe
// this service's contract.
func NewHandler(svc wire.Bound, cfg Config) (*Handler, error) {
	ns, err := Namespace(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	opsNS, err := contractNamespace(cfg.BaseURL, svc.Namespace)
	if err != nil {
		return nil, err
	}
	if svc.Call == nil || len(svc.Ops) == 0 {
		return nil, fmt.Errorf("the contract is not bound: serve what its generated Bind returns")
	}
	ops := svc.Ops
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
		call:        svc.Call,
		log:         logger,
		protocols:   protocols,
		gates:       admission.New(limits.Admission),
		auth:        cfg.Auth,
		protectDocs: cfg.ProtectDocs,
	}
	all := allBindings(opsNS, limits, ops)
	var atEndpoint, atOperations, served []binding.Binding
	for _, b := range all {
		if b.Route().OperationInPath {
			atOperations = append(atOperations, b)
		} else {
			atEndpoint = append(atEndpoint, b)
		}
		if protocols.Serves(b.Name()) {
			served = append(served, b)
		}
	}
	serves := func(b binding.Binding) bool { return protocols.Serves(b.Name()) }
	h.endpoint = newPlace(atEndpoint, serves, docsMethods, endpointNotAllowed)
	h.operations = newPlace(atOperations, serves, nil, operationNotAllowed)
	// The help pages show a sample of every served binding, in the list's order.
	h.docs, err = docs.New(docs.Config{Namespace: ns, Protocols: protocols, Addressing: cfg.Addressing, Bindings: served,
		Guard: h.docsGuarded, Logger: logger})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// serve runs one request through a binding: authenticate what the headers carry, admit the body,
// decode it (and authenticate the credentials it carries), take an operation slot, call, encode.
// Credentials are checked before the slot is taken: a wrong password waits for one of the
// authenticator's few bcrypt slots, and must not hold an operation slot meanwhile. A panic anywhere
// below becomes an internal error in the binding's form; the server keeps serving.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, b binding.Binding, opName string) {
	ex := observe.ExchangeOf(r) // what this request reports to metrics and the access log
	ex.SetBinding(b.Name())
	// Asked per request (one atomic load of the level), so a reload that changes --log-level turns
	// the debug lines on and off: when the logger takes debug lines, every request served by a
	// binding gets one (trace.go), once it is answered.
	if h.log.Enabled(r.Context(), slog.LevelDebug) {
		tr := &trace{}
		ex.TraceStore()
		defer h.logTrace(r, b, tr)
		h.serveTraced(w, r, b, opName, ex, tr)
		return
	}
	h.serveTraced(w, r, b, opName, ex, nil)
}

// serveTraced is serve, recording into tr when it is not nil.
func (h *Handler) serveTraced(w http.ResponseWriter, r *http.Request, b binding.Binding, opName string, ex *observe.Exchange, tr *trace) {
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
		req, derr = b.Decode(r, opName, body)
	} else {
		req, derr = h.decodeAuthenticating(r, b, opName, body, &who) // auth.go: the SOAP UsernameToken
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
	resp, cerr := h.call(r.Context(), req.Msg)
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
