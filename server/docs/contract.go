package docs

import (
	"bytes"
	"net/http"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/wsdl"
)

// contract serves the WSDL, wsdl.Served: the contract file without its comments. The file is written with wsdl.DefaultNamespace as its namespace and
// wsdl.DefaultAddress as every port's address; the namespace is a deployment setting, fixed at start,
// and the address depends on how the client reached us. So the document is split once, at start, at
// each address attribute, with the namespace already substituted, and each request only joins the
// pieces around its own address.
type contract struct {
	pieces [][]byte
}

// addressAttribute is how each port's address appears in the contract file.
const addressAttribute = `location="` + wsdl.DefaultAddress + `"`

func newContract(namespace string, protocols binding.Protocols) *contract {
	ns := xmlwire.AppendEscaped(nil, namespace)
	var pieces [][]byte
	for piece := range bytes.SplitSeq(contractFor(wsdl.Served, protocols), []byte(addressAttribute)) {
		pieces = append(pieces, bytes.ReplaceAll(piece, []byte(wsdl.DefaultNamespace), ns))
	}
	return &contract{pieces: pieces}
}

// Contract returns the WSDL of a deployment whose service namespace is namespace and which serves
// protocols, with every port at address: the bindings of disabled protocols are left out.
func Contract(namespace string, protocols binding.Protocols, address string) []byte {
	return newContract(namespace, protocols).render(address)
}

func (c *contract) render(address string) []byte {
	attr := append(append([]byte(`location="`), xmlwire.AppendEscaped(nil, address)...), '"')
	return bytes.Join(c.pieces, attr)
}

func (c *contract) serve(w http.ResponseWriter, address string) {
	binding.WriteBody(w, http.StatusOK, "text/xml; charset=utf-8", c.render(address))
}
