package docs

import (
	"bytes"
	"net/http"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// contract serves the WSDL of a wire.Contract: its Document, the contract file without its comments.
// The document is written with the contract's namespace and with its Address at every port; a rebased
// namespace is a deployment setting, fixed at start, and the address depends on how the client reached
// us. So the document is split once, at start, at each address attribute, with the namespace already
// substituted, and each request only joins the pieces around its own address.
type contract struct {
	pieces [][]byte
}

// newContract prepares c's document for a deployment serving it in namespace (c.Namespace unless the
// contract is rebased) and serving protocols.
func newContract(c *wire.Contract, namespace string, protocols binding.Protocols) *contract {
	doc := contractFor([]byte(c.Document), protocols)
	var written [][]byte
	if c.Address == "" {
		written = [][]byte{doc} // no address to fill in
	} else {
		// How each port's address appears in the document.
		attr := append(append([]byte(`location="`), xmlwire.AppendEscaped(nil, c.Address)...), '"')
		written = bytes.Split(doc, attr)
	}
	var pieces [][]byte
	for _, piece := range written {
		if namespace != c.Namespace {
			piece = bytes.ReplaceAll(piece, xmlwire.AppendEscaped(nil, c.Namespace), xmlwire.AppendEscaped(nil, namespace))
		}
		pieces = append(pieces, piece)
	}
	return &contract{pieces: pieces}
}

// Contract returns the WSDL of c for a deployment whose service namespace is namespace and which
// serves protocols, with every port at address: the bindings of disabled protocols are left out.
func Contract(c *wire.Contract, namespace string, protocols binding.Protocols, address string) []byte {
	return newContract(c, namespace, protocols).render(address)
}

func (c *contract) render(address string) []byte {
	attr := append(append([]byte(`location="`), xmlwire.AppendEscaped(nil, address)...), '"')
	return bytes.Join(c.pieces, attr)
}

func (c *contract) serve(w http.ResponseWriter, address string) {
	binding.WriteBody(w, http.StatusOK, "text/xml; charset=utf-8", c.render(address))
}
