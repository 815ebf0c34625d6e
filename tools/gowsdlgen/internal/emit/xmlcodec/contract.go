package xmlcodec

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/anycodec"
)

// contractGoName is the generated variable holding the contract's descriptor (wire.Contract).
const contractGoName = "Contract"

// descriptorDecl writes the descriptor, Contract, which Bind puts in the wire.Bound it returns.
func (e *emitter) descriptorDecl() {
	d := e.desc
	e.p("")
	e.p("// %s describes the contract as a whole for the runtime that serves it: the document served at", contractGoName)
	e.p("// ?WSDL, the endpoint path, the service's name and its namespace, and whether the namespace is a")
	e.p("// deployment setting (RebaseNamespace, from gowsdlgen's -rebase-namespace flag).")
	e.p("var %s = &wire.Contract{", contractGoName)
	e.p("Service: %q,", d.Service)
	e.p("Namespace: %q,", d.Namespace)
	e.p("RebaseNamespace: %v,", d.RebaseNamespace)
	e.p("Address: %q,", d.Address)
	e.p("Path: %q,", d.Path)
	if types := anycodec.ObjectTypes(e.c); len(types) > 0 {
		names := make([]string, len(types))
		for i, t := range types {
			names[i] = t.Name
		}
		e.p("ObjectTypes: []string{%s},", emit.QuoteList(names))
	}
	e.p("Document: contractDocument,")
	e.p("}")
}

// contractDocumentDecl writes the document at the end of the file, where its length hides nothing: a
// raw string literal, so the generated file shows the WSDL as it is, unless the document holds what a
// raw literal cannot (a backquote, a carriage return, which Go drops from raw literals, a byte order
// mark or invalid UTF-8).
func (e *emitter) contractDocumentDecl() {
	doc := string(e.desc.Document)
	e.p("")
	e.p("// contractDocument is the WSDL the contract was generated from, without its comments: what ?WSDL")
	e.p("// serves, with the addresses (and a rebased namespace) filled in.")
	if strings.ContainsAny(doc, "`\r\uFEFF") || !utf8.ValidString(doc) {
		e.p("const contractDocument = %s", strconv.Quote(doc))
		return
	}
	e.p("const contractDocument = `%s`", doc)
}
