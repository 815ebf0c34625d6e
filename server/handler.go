// Package server is the service's HTTP handler: it wires the packages below it into one endpoint and
// routes each request to them. A request to the endpoint (/contactsync/v1/sync.asmx for this
// service's contract) goes by method, path and content type to a binding or to the documents (docs),
// by the routes the bindings declare (routes.go); the handler asks auth whether the request may go on
// (auth.Authenticator.Decide), admits it (admission), decodes it with the binding, calls the operation
// on the implementation through the contract a generated Bind bound to it (wire.Bound), and has the
// binding write the result or the error. It serves whatever contract it is given: the endpoint path,
// the namespace, the documents and the metric labels come from the Bound, never from a contract's
// package (it imports neither gen nor wsdl). It reports each stage once, as it ends (the binding, the
// authentication decision, admission, decoding, the operation's result), into the request's
// observe.Exchange: the metrics, the access log and the debug trace all read that one record
// (observe.Events) when the request is answered.
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
)

// Config configures a Handler.
type Config struct {
	// BaseURL fixes the service namespace of a contract whose namespace is rebased
	// (wire.Contract.RebaseNamespace, this service's): the contract's namespace with its scheme and
	// host replaced by BaseURL's, BaseURL + "/contactsync/v1/" for this service. It is deployment
	// configuration, never taken from a request: clients compile the namespace in. A contract that
	// is not rebased is served in its own namespace, and needs no BaseURL.
	BaseURL string
	// Path is the endpoint path every binding is served at (spec §4); empty means the contract's own
	// (wire.Contract.Path, the path of its WSDL's address). Two contracts served by one process need
	// two paths.
	Path string
	// Limits bound each request; zero fields take their defaults.
	Limits Limits
	// Logger receives internal errors and recovered panics; nil means slog.Default().
	Logger *slog.Logger
	// Auth, when set, requires credentials on every operation request (HTTP Basic, or a WS-Security
	// UsernameToken on SOAP); nil means authentication is off. It decides (auth.Authenticator.Decide).
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

// ServedNamespace is the namespace a contract is served in under a base URL: its own, as its WSDL
// writes it, unless the contract is rebased (wire.Contract.RebaseNamespace), when it is moved onto
// baseURL (contractNamespace). For this service's contract it is Namespace(baseURL).
func ServedNamespace(c *wire.Contract, baseURL string) (string, error) {
	if !c.RebaseNamespace {
		if baseURL != "" {
			if _, err := Namespace(baseURL); err != nil {
				return "", err
			}
		}
		return c.Namespace, nil
	}
	return contractNamespace(baseURL, c.Namespace)
}

// contractNamespace is a rebased contract's namespace, as its WSDL writes it (for its own base URL,
// http://localhost:8080 for this service), moved to baseURL, which keeps the path.
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
	// path is the endpoint path; labels the metric label sets of what is served (MetricLabels).
	path   string
	labels observe.Labels
	log    *slog.Logger
	// endpoint and operations are the routes of the endpoint and of its operation paths (routes.go).
	endpoint, operations place
	protocols            binding.Protocols
	docs                 *docs.Documents
	// gates bound the requests reading their body, waiting and running (admission).
	gates *admission.Gates
	// auth is nil when authentication is off; protectDocs guards the documents too (docsGuarded).
	auth        *auth.Authenticator
	protectDocs bool
	// oneWay are the one-way operations running after their 202 (oneway.go).
	oneWay *oneWays
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
// generated Bind (gen.Bind(service.New(st)) for this service), under cfg. Everything it serves is
// svc's: the endpoint path (svc.Contract.Path unless cfg.Path says otherwise), the namespace and
// SOAPActions (ServedNamespace), the documents (?WSDL, ?disco, help pages) and the operation names it
// reports (MetricLabels). Any generated contract is served the same way, so one process can serve
// several, each on its own path.
func NewHandler(svc wire.Bound, cfg Config) (*Handler, error) {
	if svc.Call == nil || len(svc.Ops) == 0 || svc.Contract == nil {
		return nil, fmt.Errorf("the contract is not bound: serve what its generated Bind returns")
	}
	ns, err := ServedNamespace(svc.Contract, cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	path := cfg.Path
	if path == "" {
		path = svc.Contract.Path
	}
	if !strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") {
		return nil, fmt.Errorf("the endpoint path %q must start with / and not end with one (the contract %s names none: give Config.Path)", path, svc.Contract.Service)
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
		path:        path,
		labels:      metricLabels(svc.Ops),
		log:         logger,
		protocols:   protocols,
		gates:       admission.New(limits.Admission),
		auth:        cfg.Auth,
		protectDocs: cfg.ProtectDocs,
		oneWay:      newOneWays(limits.OneWayTimeout),
	}
	all := allBindings(ns, limits, ops)
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
	h.docs, err = docs.New(docs.Config{Contract: svc.Contract, Operations: ops, Path: path, Namespace: ns, Protocols: protocols,
		Addressing: cfg.Addressing, Bindings: served, Guard: h.docsGuarded, Logger: logger})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// serve runs one request through a binding: ask auth about the headers, admit the body, decode it
// (and when the headers carried no credentials, ask auth about those the body carried), take an
// operation slot, call, encode. Credentials are checked before the slot is taken: a wrong password
// waits for one of the authenticator's few bcrypt slots, and must not hold an operation slot meanwhile.
// Each stage is reported once, as it ends, to the request's observe.Exchange. A panic anywhere below
// becomes an internal error in the binding's form; the server keeps serving.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, b binding.Binding, opName string) {
	ex := observe.ExchangeOf(r) // the request's event record; nil (and every report a no-op) without observe
	ex.Routed(b.Name(), h.auth != nil)
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.Error("panic while serving a request", "request_id", ex.RequestID(), "binding", b.Name(), "panic", v, "stack", string(debug.Stack()))
			e := fault.InternalError(fmt.Errorf("panic: %v", v))
			ex.Panicked(e)
			b.WriteError(w, e)
		}
	}()

	// The headers first: a caller without valid credentials is answered before its body is read.
	var who auth.Decision
	if h.auth != nil {
		who = h.auth.Decide(r, b.CarriesTokens(), nil)
		if !who.Pending {
			ex.Authenticated(who.Scheme, who.User, who.Refused, who.Err)
			if who.Err != nil {
				h.writeError(w, r, b, who.Err)
				return
			}
		}
	}
	// The body is read within the limits and a minimum rate, holding a pending place (admission).
	body, ticket, err := h.gates.Admit(w, r, b)
	defer ticket.Release()
	if err != nil {
		ex.Admitted(ticket.Queued, err)
		h.writeError(w, r, b, err)
		return
	}
	req, derr := b.Decode(r, opName, body)
	if who.Pending {
		// The credentials the body carried (a SOAP UsernameToken) decide, before anything else decoding
		// found: a caller without valid ones learns nothing of its body but 401.
		who = h.auth.Decide(r, true, &req.Credentials)
		ex.Authenticated(who.Scheme, who.User, who.Refused, who.Err)
		if who.Err != nil {
			h.writeError(w, r, b, who.Err)
			return
		}
	}
	ex.Decoded(req.Op, req.Msg, derr)
	if derr != nil {
		h.writeError(w, r, b, derr)
		return
	}
	err = h.gates.Enter(&ticket, r)
	ex.Admitted(ticket.Queued, err)
	if err != nil {
		h.writeError(w, r, b, err)
		return
	}
	if req.Op.OneWay {
		if ack, ok := b.(binding.Acknowledger); ok { // SOAP: 202 first, then the run (oneway.go)
			h.acknowledge(w, r, ack, req, &ticket)
			return
		}
	}
	ctx := r.Context()
	if req.UnknownHeaders != nil {
		ctx = wire.WithUnknownHeaders(ctx, req.UnknownHeaders)
	}
	resp, cerr := h.call(ctx, req.Msg)
	if cerr == nil && req.Op.CheckResult != nil {
		// A result no binding can write is the service's error, answered as the call's instead of
		// failing halfway through the response (get-GetObject-widget).
		cerr = req.Op.CheckResult(resp)
	}
	if cerr != nil {
		e := fault.As(cerr)
		ex.Called(e)
		h.writeError(w, r, b, e)
		return
	}
	ex.Called(nil)
	b.WriteResult(w, req.Op, resp)
}

// writeError answers the request with e in the binding's form, logging the answers an operator must
// see. The stage that failed has reported e to the request's Exchange already.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, b binding.Binding, e *fault.Error) {
	switch e.Code {
	case fault.Internal:
		h.log.Error("request failed", "request_id", observe.ExchangeOf(r).RequestID(), "binding", b.Name(), "path", r.URL.Path, "error", e.Err)
	case fault.OutcomeUnknown:
		// Rare, and the one answer that leaves the data in doubt: the log names the request, so an
		// operator can find what the client was told and check the contact.
		h.log.Warn("write outcome unknown: its commit was sent and the answer lost", "request_id", observe.ExchangeOf(r).RequestID(),
			"binding", b.Name(), "path", r.URL.Path, "error", e.Err)
	}
	b.WriteError(w, e)
}

// docsGuarded reports whether a request for ?WSDL, ?disco or a help page was refused (and answered)
// because the documents are protected (Config.ProtectDocs) and the request has no valid Basic
// credentials: auth decides as for a binding whose body carries no token. Like an operation's
// credentials it is checked outside the operation slots, and its bcrypt comparisons take the
// authenticator's turns and bcrypt slots like every other (see auth.Authenticator), so a flood of
// document requests with new passwords is shed there, with 503.
func (h *Handler) docsGuarded(w http.ResponseWriter, r *http.Request) bool {
	if h.auth == nil || !h.protectDocs {
		return false
	}
	if d := h.auth.Decide(r, false, nil); d.Err != nil {
		binding.WritePlainError(w, d.Err)
		return true
	}
	return false
}

// Contract returns the WSDL of contract c for a deployment at baseURL (which fixes the namespace of a
// rebased contract: ServedNamespace), with every port at address. It is what `contactsync wsdl`
// prints.
func Contract(c *wire.Contract, baseURL, address string) ([]byte, error) {
	return ContractFor(c, baseURL, address, binding.DefaultProtocols)
}

// ContractFor is Contract for a service serving the given protocols (binding.ProtocolNames): the
// bindings of disabled protocols are left out.
func ContractFor(c *wire.Contract, baseURL, address string, protocols []string) ([]byte, error) {
	ns, err := ServedNamespace(c, baseURL)
	if err != nil {
		return nil, err
	}
	p, err := binding.ParseProtocols(protocols)
	if err != nil {
		return nil, err
	}
	return docs.Contract(c, ns, p, address), nil
}

// MetricLabels returns the label sets of the request metrics of what h serves: the names of its
// bindings and of its contract's operations. Give them to observe.NewMetrics, so the metrics count
// the operations of the contract served, whichever it is.
func (h *Handler) MetricLabels() observe.Labels { return h.labels }

// metricLabels is MetricLabels of a handler serving the operations ops: every binding the service has
// (allBindings, in the order of binding.ProtocolNames, whether --protocols serves it or not, so the
// label set does not depend on the deployment) and every operation of the table.
func metricLabels(ops []*wire.Operation) observe.Labels {
	var l observe.Labels
	for _, b := range allBindings("", Limits{}, nil) {
		l.Bindings = append(l.Bindings, b.Name())
	}
	for _, op := range ops {
		l.Operations = append(l.Operations, op.Name)
	}
	return l
}
