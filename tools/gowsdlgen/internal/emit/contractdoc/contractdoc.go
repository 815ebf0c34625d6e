// Package contractdoc reads what the generated wire.Contract says of a contract as a whole (its
// service, namespace, address and path) and the document ?WSDL serves: the contract without its
// comments. Package xmlcodec writes both into the generated file.
package contractdoc

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// Descriptor is what the generated wire.Contract says of the contract as a whole: what the
// runtime needs to serve and describe it that is not an operation's (the operation table carries the
// rest), so the runtime never reads a package of its own contract.
type Descriptor struct {
	Service, Namespace, Address, Path string
	RebaseNamespace                   bool
	// Document is the WSDL as served: the contract without its comments.
	Document []byte
}

// Describe reads the descriptor from the parsed contract: the first wsdl:service's name, and
// the location of its first port with a SOAP address (ASMX writes the same location at every port),
// whose path is the endpoint's. A contract without a SOAP address generates, with no path: whoever
// serves it names one.
func Describe(defs *wsdl.Definitions, rebaseNamespace bool) (*Descriptor, error) {
	d := &Descriptor{Namespace: defs.TNS, RebaseNamespace: rebaseNamespace, Document: withoutComments(defs.Data)}
	if rebaseNamespace {
		if u, err := url.Parse(defs.TNS); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path == "" {
			return nil, fmt.Errorf("-rebase-namespace: the target namespace %q is not an absolute http or https URL with a path, which a base URL could replace the start of", defs.TNS)
		}
	}
	for _, svc := range defs.Services {
		if d.Service == "" {
			d.Service, _ = svc.Attr("name")
		}
		for _, port := range svc.Elements(wsdl.NamespaceWSDL, "port") {
			for _, ns := range []string{wsdl.NamespaceSOAP11, wsdl.NamespaceSOAP12} {
				for _, addr := range port.Elements(ns, "address") {
					if loc, ok := addr.Attr("location"); ok && d.Address == "" {
						u, err := url.Parse(loc)
						if err != nil {
							return nil, wsdl.Errorf(defs.Data, addr, "the location %q is not a URL: %v", loc, err)
						}
						d.Address, d.Path = loc, u.EscapedPath()
						if d.Path == "" {
							d.Path = "/"
						}
					}
				}
			}
		}
	}
	return d, nil
}

// withoutComments returns doc without its XML comments; a comment alone on its line takes the line
// with it. The comments of a contract file are notes for its maintainers (what to run after editing
// it), not for the clients that read the served contract. doc must be well-formed up to its last
// comment (the generator has parsed it whole before).
func withoutComments(doc []byte) []byte {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var out []byte
	kept := 0 // doc[:kept] is decided
	for {
		start := int(d.InputOffset())
		tok, err := d.RawToken()
		if err != nil {
			break
		}
		if _, ok := tok.(xml.Comment); !ok {
			continue
		}
		end := int(d.InputOffset())
		lineStart := start
		for lineStart > 0 && (doc[lineStart-1] == ' ' || doc[lineStart-1] == '\t') {
			lineStart--
		}
		if end < len(doc) && doc[end] == '\n' && (lineStart == 0 || doc[lineStart-1] == '\n') {
			start, end = lineStart, end+1 // the comment's whole line
		}
		out = append(out, doc[kept:start]...)
		kept = end
	}
	return append(out, doc[kept:]...)
}
