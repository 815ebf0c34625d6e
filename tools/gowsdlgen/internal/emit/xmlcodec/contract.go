package xmlcodec

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// contractGoName is the generated variable holding the contract's descriptor (wire.Contract).
const contractGoName = "Contract"

// Descriptor is what the generated wire.Contract says of the contract as a whole: what the
// runtime needs to serve and describe it that is not an operation's (the operation table carries the
// rest), so the runtime never reads a package of its own contract.
type Descriptor struct {
	service, namespace, address, path string
	rebaseNamespace                   bool
	// document is the WSDL as served: the contract without its comments.
	document []byte
}

// Describe reads the descriptor from the parsed contract: the first wsdl:service's name, and
// the location of its first port with a SOAP address (ASMX writes the same location at every port),
// whose path is the endpoint's. A contract without a SOAP address generates, with no path: whoever
// serves it names one.
func Describe(defs *wsdl.Definitions, rebaseNamespace bool) (*Descriptor, error) {
	d := &Descriptor{namespace: defs.TNS, rebaseNamespace: rebaseNamespace, document: withoutComments(defs.Data)}
	if rebaseNamespace {
		if u, err := url.Parse(defs.TNS); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path == "" {
			return nil, fmt.Errorf("-rebase-namespace: the target namespace %q is not an absolute http or https URL with a path, which a base URL could replace the start of", defs.TNS)
		}
	}
	for _, svc := range defs.Services {
		if d.service == "" {
			d.service, _ = svc.Attr("name")
		}
		for _, port := range svc.Elements(wsdl.NamespaceWSDL, "port") {
			for _, ns := range []string{wsdl.NamespaceSOAP11, wsdl.NamespaceSOAP12} {
				for _, addr := range port.Elements(ns, "address") {
					if loc, ok := addr.Attr("location"); ok && d.address == "" {
						u, err := url.Parse(loc)
						if err != nil {
							return nil, wsdl.Errorf(defs.Data, addr, "the location %q is not a URL: %v", loc, err)
						}
						d.address, d.path = loc, u.EscapedPath()
						if d.path == "" {
							d.path = "/"
						}
					}
				}
			}
		}
	}
	return d, nil
}

// descriptorDecl writes the descriptor, Contract, which Bind puts in the wire.Bound it returns.
func (e *emitter) descriptorDecl() {
	d := e.desc
	e.p("")
	e.p("// %s describes the contract as a whole for the runtime that serves it: the document served at", contractGoName)
	e.p("// ?WSDL, the endpoint path, the service's name and its namespace, and whether the namespace is a")
	e.p("// deployment setting (RebaseNamespace, from gowsdlgen's -rebase-namespace flag).")
	e.p("var %s = &wire.Contract{", contractGoName)
	e.p("Service: %q,", d.service)
	e.p("Namespace: %q,", d.namespace)
	e.p("RebaseNamespace: %v,", d.rebaseNamespace)
	e.p("Address: %q,", d.address)
	e.p("Path: %q,", d.path)
	e.p("Document: contractDocument,")
	e.p("}")
}

// contractDocumentDecl writes the document at the end of the file, where its length hides nothing: a
// raw string literal, so the generated file shows the WSDL as it is, unless the document holds what a
// raw literal cannot (a backquote, a carriage return, which Go drops from raw literals, a byte order
// mark or invalid UTF-8).
func (e *emitter) contractDocumentDecl() {
	doc := string(e.desc.document)
	e.p("")
	e.p("// contractDocument is the WSDL the contract was generated from, without its comments: what ?WSDL")
	e.p("// serves, with the addresses (and a rebased namespace) filled in.")
	if strings.ContainsAny(doc, "`\r\uFEFF") || !utf8.ValidString(doc) {
		e.p("const contractDocument = %s", strconv.Quote(doc))
		return
	}
	e.p("const contractDocument = `%s`", doc)
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
