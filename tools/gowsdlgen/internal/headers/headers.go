// Package headers reads the SOAP headers of a contract into its model (Read): the soap:header and
// soap12:header elements of the SOAP bindings' operations, ASMX's [SoapHeader] members (In, Out, or
// InOut when the same element is in both), with the <s:anyAttribute /> ASMX writes on every header
// type carried there. What it cannot carry yet is refused, never ignored, with the construct, its line
// and "not supported yet": so is an <s:anyAttribute /> anywhere its attributes would be dropped.
//
// It imports the standard library, wsdl, names and model.
package headers

import (
	"encoding/xml"
	"fmt"
	"strconv"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// wsseSecurity is the WS-Security header, which the service reads itself.
var wsseSecurity = xml.Name{Space: "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd", Local: "Security"}

// Read reads the headers of every operation of c (model.Operation.Headers), read by model.Read from
// defs, names their fields, adds their types to c.Types (the wire code's), and refuses what is not
// carried yet.
func Read(defs *wsdl.Definitions, c *model.Contract) error {
	r := &reader{defs: defs, c: c, elements: map[string]*wsdl.Node{}, types: map[string]*model.Type{}}
	for _, s := range defs.Schemas {
		if tns, _ := s.Attr("targetNamespace"); tns != defs.TNS {
			continue
		}
		for _, el := range s.Elements(wsdl.NamespaceXSD, "element") {
			name, _ := el.Attr("name")
			r.elements[name] = el
		}
	}
	for _, t := range c.Structs {
		if t.Node.Is(wsdl.NamespaceXSD, "complexType") {
			r.types[t.Name] = t
		}
	}
	for _, op := range c.Operations {
		if err := r.operation(op); err != nil {
			return err
		}
	}
	return r.checkAnyAttributes()
}

type reader struct {
	defs     *wsdl.Definitions
	c        *model.Contract
	elements map[string]*wsdl.Node  // the target namespace's global elements
	types    map[string]*model.Type // its named complex types
}

// notYet refuses a construct ASMX writes that is not carried yet: "line 12: <soap:headerfault>:
// soap:headerfault (operation Op) is not supported yet".
func (r *reader) notYet(n *wsdl.Node, format string, args ...any) error {
	return wsdl.Errorf(r.defs.Data, n, format+" is not supported yet", args...)
}

// soapNamespace is the binding extension namespace of a SOAP binding, "" for another binding.
func soapNamespace(b *wsdl.Node) string {
	for _, ns := range []string{wsdl.NamespaceSOAP11, wsdl.NamespaceSOAP12} {
		if len(b.Elements(ns, "binding")) > 0 {
			return ns
		}
	}
	return ""
}

// operation reads the soap:header and soap12:header elements of operation co in the SOAP
// bindings: the two bindings must declare the same headers.
func (r *reader) operation(co *model.Operation) error {
	var first []*model.HeaderPart
	var firstKind string
	for _, b := range r.defs.Bindings.Order {
		ns := soapNamespace(b)
		if ns == "" {
			continue
		}
		kind := "SOAP11"
		if ns == wsdl.NamespaceSOAP12 {
			kind = "SOAP12"
		}
		var bop *wsdl.Node
		for _, op := range b.Elements(wsdl.NamespaceWSDL, "operation") {
			if name, _ := op.Attr("name"); name == co.Name {
				bop = op
			}
		}
		if bop == nil {
			continue
		}
		parts, err := r.bindingHeaders(co, bop, ns)
		if err != nil {
			return err
		}
		if firstKind == "" {
			first, firstKind = parts, kind
			continue
		}
		if !sameHeaders(first, parts) {
			return r.notYet(bop, "soap:header elements that differ between the %s and %s bindings (operation %s)", firstKind, kind, co.Name)
		}
	}
	if len(first) == 0 {
		return nil
	}
	// The header fields take the element's Go name in the request's and response's field scopes
	// (after the body's, which model.Read named), followed by "Header" when a body field has it,
	// and a numeric suffix should that be taken too; a response's MustUnderstand field beside it.
	var req, resp names.Scope
	for _, s := range []*names.Scope{&req, &resp} {
		s.Reserve("XMLName")
	}
	req.Reserve("mu")
	for _, f := range co.Request.Fields {
		req.Reserve(f.GoName)
	}
	if co.Response != nil {
		for _, f := range co.Response.Fields {
			resp.Reserve(f.GoName)
		}
	}
	taken := func(n string) bool { return req.Taken(n) || resp.Taken(n) || resp.Taken(n+"MustUnderstand") }
	for _, h := range first {
		base := names.Go(h.Element, names.GowsdlType(h.Element))
		if taken(base) {
			base += "Header"
		}
		name := base
		for i := 2; taken(name); i++ {
			name = base + "_" + strconv.Itoa(i)
		}
		h.GoName = name
		req.Reserve(name)
		resp.Reserve(name)
		resp.Reserve(name + "MustUnderstand")
	}
	co.Headers = first
	return nil
}

func sameHeaders(a, b []*model.HeaderPart) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Element != b[i].Element || a[i].Direction != b[i].Direction {
			return false
		}
	}
	return true
}

// bindingHeaders reads the headers of one binding operation: In headers in input order, then the
// Out-only headers in output order; an element in both directions is InOut.
func (r *reader) bindingHeaders(co *model.Operation, bop *wsdl.Node, ns string) ([]*model.HeaderPart, error) {
	var out []*model.HeaderPart
	byElement := map[string]*model.HeaderPart{}
	for _, io := range []string{"input", "output"} {
		seen := map[string]bool{}
		for _, msg := range bop.Elements(wsdl.NamespaceWSDL, io) {
			for _, h := range msg.Elements(ns, "header") {
				element, t, err := r.headerElement(co, h)
				if err != nil {
					return nil, err
				}
				if seen[element] {
					return nil, r.notYet(h, "the header %s declared twice in the %s of operation %s", element, io, co.Name)
				}
				seen[element] = true
				if p := byElement[element]; p != nil { // in the input too
					p.Direction = model.HeaderInOut
					continue
				}
				dir := model.HeaderIn
				if io == "output" {
					dir = model.HeaderOut
				}
				p := &model.HeaderPart{Element: element, Type: t, Direction: dir, Node: h}
				byElement[element] = p
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// headerElement resolves a soap:header to its element and type: a global element of the target
// namespace with a named complex type, as ASMX writes every header class.
func (r *reader) headerElement(co *model.Operation, h *wsdl.Node) (string, *model.Type, error) {
	notYet := func(n *wsdl.Node, format string, args ...any) (string, *model.Type, error) {
		return "", nil, r.notYet(n, "%s (operation %s)", fmt.Sprintf(format, args...), co.Name)
	}
	if use, _ := h.Attr("use"); use != "literal" {
		return notYet(h, "a soap:header with use=%q; ASMX writes use=\"literal\"", use)
	}
	for _, c := range h.Children {
		if c.Name.Local == "headerfault" {
			return notYet(c, "soap:headerfault")
		}
	}
	msg, err := r.defs.Messages.Resolve(h, "message", r.defs.TNS)
	if err != nil {
		return "", nil, err
	}
	partName, _ := h.Attr("part")
	var part *wsdl.Node
	for _, p := range msg.Elements(wsdl.NamespaceWSDL, "part") {
		if name, _ := p.Attr("name"); name == partName {
			part = p
		}
	}
	if part == nil {
		msgName, _ := msg.Attr("name")
		return "", nil, wsdl.Errorf(r.defs.Data, h, "operation %s: the message %s has no part %q", co.Name, msgName, partName)
	}
	q, ok, err := part.QNameAttr("element")
	if err != nil {
		return "", nil, err
	}
	switch {
	case !ok:
		return notYet(part, "a header part with a type instead of an element")
	case q == wsseSecurity:
		return notYet(part, "a soap:header whose element is {wsse}Security; the service reads WS-Security itself, beside the contract's headers")
	case q.Space != r.defs.TNS:
		return notYet(part, "a header element in the namespace %q, another than the contract's", q.Space)
	}
	el := r.elements[q.Local]
	if el == nil {
		return "", nil, wsdl.Errorf(r.defs.Data, part, "element %s is not defined", q.Local)
	}
	typ, typed, err := el.QNameAttr("type")
	if err != nil {
		return "", nil, err
	}
	if !typed || len(el.Children) > 0 {
		return notYet(el, "a header element without a named complex type; ASMX writes type=\"tns:%s\"", q.Local)
	}
	t := r.types[typ.Local]
	if typ.Space != r.defs.TNS || t == nil || t.Kind != model.KindComplex {
		return notYet(el, "a header element of type %s, not a complex type", typ.Local)
	}
	r.addType(t)
	return q.Local, t, nil
}

// checkAnyAttributes refuses <s:anyAttribute /> where it is not carried yet: it is carried on the
// type of a SOAP header (where ASMX writes it), as the header's AnyAttrs, and on a type nothing uses;
// not on a wrapper or on the type of an element (of a message body or of another type), where the
// foreign attributes would be dropped.
func (r *reader) checkAnyAttributes() error {
	headerTypes := map[*model.Type]bool{}
	for _, op := range r.c.Operations {
		for _, h := range op.Headers {
			headerTypes[h.Type] = true
		}
	}
	usedBy := map[*model.Type]string{}
	for _, t := range r.c.Structs {
		for _, f := range t.Fields {
			if usedBy[f.Type] == "" {
				usedBy[f.Type] = t.Name + "." + f.Name
			}
		}
	}
	for _, t := range r.c.Structs {
		a := t.AnyAttribute
		switch {
		case a == nil:
		case !t.Node.Is(wsdl.NamespaceXSD, "complexType"):
			return r.notYet(a, "s:anyAttribute on the operation wrapper %s", t.Name)
		case usedBy[t] != "" && !headerTypes[t]:
			return r.notYet(a, "s:anyAttribute on the type %s, the type of %s (it is carried on SOAP header types, where ASMX writes it)", t.Name, usedBy[t])
		case usedBy[t] != "":
			return r.notYet(a, "s:anyAttribute of the header type %s, which is also the type of %s", t.Name, usedBy[t])
		}
	}
	return nil
}

// addType adds a header's type to the types the wire code is written for, when no body reaches it.
func (r *reader) addType(t *model.Type) {
	for _, u := range r.c.Types {
		if u == t {
			return
		}
	}
	r.c.Types = append(r.c.Types, t)
}
