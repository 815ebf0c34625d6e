package docs

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/wire"
)

// Config configures the documents of one deployment.
type Config struct {
	// Contract is the contract served: its document is what ?WSDL serves and what the help pages
	// and DISCO read the service from.
	Contract *wire.Contract
	// Operations are the contract's operation table, whose entries the help pages describe.
	Operations []*wire.Operation
	// Path is the endpoint path the documents' addresses end in.
	Path string
	// Namespace is the service namespace: the contract's, or its rebased one (fixed by the base URL).
	Namespace string
	// Protocols are the protocols served: the WSDL and DISCO leave the others out, and the help pages'
	// test form uses the first of HTTP POST, HTTP GET and JSON that is on.
	Protocols binding.Protocols
	// Addressing decides the endpoint address the documents show.
	Addressing Addressing
	// Bindings are the bindings served, whose sample messages the operation pages show, in order.
	// Each sample request is written by the bundled client speaking the binding (the client's binding
	// of the same name), each sample response by the binding itself (WriteSample), so a sample is
	// always what the service really sends.
	Bindings []binding.Binding
	// Guard, when set, runs before a document is served and answers the request itself (returning
	// true) when the caller may not read the documents: the handler's credential check when the
	// documents are protected.
	Guard func(w http.ResponseWriter, r *http.Request) bool
	// Logger receives failures to render a page; nil means slog.Default().
	Logger *slog.Logger
}

// Documents serves a GET (or HEAD) of the endpoint: ?WSDL, ?disco, and otherwise the help pages. It is
// safe for concurrent use.
type Documents struct {
	cfg      Config
	contract *contract
	model    *helpService // what the help pages and DISCO show of the contract (help.go)
	addrs    *addresser
	log      *slog.Logger
}

// New prepares the documents of cfg: the contract is cut to the protocols served and the namespace set
// once here, so a request only joins it around its address.
func New(cfg Config) (*Documents, error) {
	if cfg.Contract == nil {
		return nil, errors.New("docs: no contract to describe")
	}
	addrs, err := newAddresser(cfg.Addressing, cfg.Path)
	if err != nil {
		return nil, err
	}
	model, err := parseHelpModel([]byte(cfg.Contract.Document), cfg.Operations)
	if err != nil {
		return nil, errors.New("docs: the contract's document cannot describe the help pages: " + err.Error())
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return &Documents{cfg: cfg, contract: newContract(cfg.Contract, cfg.Namespace, cfg.Protocols), model: model, addrs: addrs, log: logger}, nil
}

// ServeHTTP answers ?WSDL (any case, as ASMX does), ?disco, the service page and ?op=<Op>'s pages.
func (d *Documents) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Cache-Control and Vary when the documents' addresses follow the request (addressing.go).
	d.addrs.documentHeaders(w)
	if d.cfg.Guard != nil && d.cfg.Guard(w, r) {
		return
	}
	switch {
	case hasQueryFlag(r.URL.RawQuery, "wsdl"):
		d.contract.serve(w, d.addrs.requestAddress(r))
	case hasQueryFlag(r.URL.RawQuery, "disco"):
		d.serveDisco(w, r)
	default:
		d.serveHelp(w, r) // the service page, or ?op=<Op>'s page (help.go)
	}
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
