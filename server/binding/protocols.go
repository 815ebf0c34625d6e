package binding

import (
	"fmt"
	"strings"
)

// Protocols says which faces of the service are served, as ASMX's <webServices><protocols> does: the
// four bindings, the JSON endpoint and the documentation (?WSDL, ?disco, help pages). A disabled
// protocol is answered as one that does not exist (404 or 415 naming it), and the WSDL, DISCO and help
// pages leave it out.
type Protocols struct {
	SOAP11, SOAP12, Get, Post, JSON, Docs bool
}

// ProtocolNames are the names --protocols accepts, in the order docs/bindings.md lists them.
var ProtocolNames = []string{"soap11", "soap12", "get", "post", "json", "docs"}

// DefaultProtocols is today's behaviour: everything but the JSON endpoint, which ASMX makes opt-in
// ([ScriptService]).
var DefaultProtocols = []string{"soap11", "soap12", "get", "post", "docs"}

// ParseProtocols reads a list of protocol names. An empty list, an empty entry or an unknown name is an
// error, so a typo cannot silently switch a protocol off.
func ParseProtocols(names []string) (Protocols, error) {
	var p Protocols
	if len(names) == 0 {
		return p, fmt.Errorf("no protocol is enabled; list some of %s", strings.Join(ProtocolNames, ", "))
	}
	for _, n := range names {
		switch strings.TrimSpace(n) {
		case "soap11":
			p.SOAP11 = true
		case "soap12":
			p.SOAP12 = true
		case "get":
			p.Get = true
		case "post":
			p.Post = true
		case "json":
			p.JSON = true
		case "docs":
			p.Docs = true
		case "":
			return p, fmt.Errorf("an empty protocol name in %q", strings.Join(names, ","))
		default:
			return p, fmt.Errorf("unknown protocol %q; the protocols are %s", n, strings.Join(ProtocolNames, ", "))
		}
	}
	return p, nil
}

// Serves reports whether the protocol of a binding, by its name (Binding.Name), is served; an unknown
// name is not.
func (p Protocols) Serves(name string) bool {
	switch name {
	case "soap11":
		return p.SOAP11
	case "soap12":
		return p.SOAP12
	case "get":
		return p.Get
	case "post":
		return p.Post
	case "json":
		return p.JSON
	case "docs":
		return p.Docs
	}
	return false
}
