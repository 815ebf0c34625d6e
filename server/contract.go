package server

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"

	"github.com/contactsync/contactsync/wsdl"
)

// contract serves the WSDL. The file is written with wsdl.DefaultNamespace as its namespace and
// wsdl.DefaultAddress as every port's address; the namespace is a deployment setting, fixed at start,
// and the address depends on how the client reached us. So the document is split once, at start, at
// each address attribute, with the namespace already substituted, and each request only joins the
// pieces around its own address.
type contract struct {
	pieces [][]byte
}

// addressAttribute is how each port's address appears in the contract file.
const addressAttribute = `location="` + wsdl.DefaultAddress + `"`

func newContract(namespace string, protocols Protocols) *contract {
	ns := appendEscaped(nil, namespace)
	var pieces [][]byte
	for piece := range bytes.SplitSeq(contractFor(wsdl.Contract, protocols), []byte(addressAttribute)) {
		pieces = append(pieces, bytes.ReplaceAll(piece, []byte(wsdl.DefaultNamespace), ns))
	}
	return &contract{pieces: pieces}
}

// Contract returns the WSDL for a deployment whose namespace is set by baseURL, with every port at
// address. It is what `contactsync wsdl` prints.
func Contract(baseURL, address string) ([]byte, error) {
	return ContractFor(baseURL, address, DefaultProtocols)
}

// ContractFor is Contract for a service serving the given protocols (ProtocolNames): the bindings of
// disabled protocols are left out.
func ContractFor(baseURL, address string, protocols []string) ([]byte, error) {
	ns, err := Namespace(baseURL)
	if err != nil {
		return nil, err
	}
	p, err := ParseProtocols(protocols)
	if err != nil {
		return nil, err
	}
	return newContract(ns, p).render(address), nil
}

func (c *contract) render(address string) []byte {
	attr := append(append([]byte(`location="`), appendEscaped(nil, address)...), '"')
	return bytes.Join(c.pieces, attr)
}

func (c *contract) serve(w http.ResponseWriter, address string) {
	writeBody(w, http.StatusOK, "text/xml; charset=utf-8", c.render(address))
}

// firstValue is the first of a header's comma-separated values, trimmed and in lower case.
func firstValue(header string) string {
	v, _, _ := strings.Cut(header, ",")
	return strings.ToLower(strings.TrimSpace(v))
}

// isPlainHost reports whether h is a host[:port] and nothing more: a DNS name, an IPv4 address or a
// bracketed IPv6 address, with an optional port. url.Parse alone is too lenient (it accepts quotes and
// angle brackets in a host), so the characters are checked first.
func isPlainHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-.:[]", r)) {
			return false
		}
	}
	u, err := url.Parse("http://" + h)
	return err == nil && u.Host == h && u.Path == "" && u.RawQuery == "" && u.User == nil
}
