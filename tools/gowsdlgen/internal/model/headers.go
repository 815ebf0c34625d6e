package model

import (
	"fmt"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// Direction is the way a SOAP header travels (ASMX's SoapHeaderDirection); the names match the
// runtime's wire.HeaderDirection constants.
type Direction string

// The directions: in the request, in the response, or both (the same element in both).
const (
	HeaderIn    Direction = "HeaderIn"
	HeaderOut   Direction = "HeaderOut"
	HeaderInOut Direction = "HeaderInOut"
)

// In reports whether the header is read from the request.
func (d Direction) In() bool { return d == HeaderIn || d == HeaderInOut }

// Out reports whether the header is written in the response.
func (d Direction) Out() bool { return d == HeaderOut || d == HeaderInOut }

// HeaderPart is a soap:header of an operation: the global element its message part names, the
// element's complex type, and its direction. ASMX writes one per [SoapHeader] member of a method,
// `<soap:header message="tns:WhoAmIAuthHeader" part="AuthHeader" use="literal" />`, in wsdl:input
// for In, wsdl:output for Out and both for InOut (shapes §1).
type HeaderPart struct {
	Element   string // local name of the element, in the target namespace
	Type      *Type
	Direction Direction
	// GoName is the field of the request (In, InOut) and of the response (Out, InOut) that holds the
	// header: the element's Go name, followed by "Header" when a body field has that name. The
	// response also has GoName+"MustUnderstand".
	GoName string
	Node   *wsdl.Node // the first soap:header naming it
}

// readHeaders reads the soap:header and soap12:header elements of operation co in the SOAP
// bindings: the two bindings must declare the same headers. What the generator cannot carry yet is
// refused, never ignored, with the construct and its line.
func (m *modeler) readHeaders(co *Operation) error {
	var first []*HeaderPart
	var firstKind string
	for _, b := range m.defs.Bindings.Order {
		kind := bindingKind(b)
		if kind != "SOAP11" && kind != "SOAP12" {
			continue
		}
		ns := wsdl.NamespaceSOAP11
		if kind == "SOAP12" {
			ns = wsdl.NamespaceSOAP12
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
		parts, err := m.bindingHeaders(co, bop, ns)
		if err != nil {
			return err
		}
		if firstKind == "" {
			first, firstKind = parts, kind
			continue
		}
		if !sameHeaders(first, parts) {
			return modelError(m.data, bop, "operation %s: the %s and %s bindings declare different soap:header elements; "+
				"headers that differ by binding are not supported yet", co.Name, firstKind, kind)
		}
	}
	if len(first) == 0 {
		return nil
	}
	taken := map[string]bool{}
	for _, f := range co.Request.Fields {
		taken[GoFieldOf(f).Name] = true
	}
	for _, f := range co.Response.Fields {
		taken[GoFieldOf(f).Name] = true
	}
	for _, h := range first {
		h.GoName = names.GowsdlType(h.Element)
		if taken[h.GoName] {
			h.GoName += "Header"
		}
		if taken[h.GoName] || taken[h.GoName+"MustUnderstand"] {
			return modelError(m.data, h.Node, "operation %s: the header %s would be the Go field %s, which a parameter or result already is; "+
				"such a name is not supported yet", co.Name, h.Element, h.GoName)
		}
		taken[h.GoName], taken[h.GoName+"MustUnderstand"] = true, true
	}
	co.Headers = first
	return nil
}

func sameHeaders(a, b []*HeaderPart) bool {
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
func (m *modeler) bindingHeaders(co *Operation, bop *wsdl.Node, ns string) ([]*HeaderPart, error) {
	var out []*HeaderPart
	byElement := map[string]*HeaderPart{}
	for _, io := range []string{"input", "output"} {
		seen := map[string]bool{}
		for _, msg := range bop.Elements(wsdl.NamespaceWSDL, io) {
			for _, h := range msg.Elements(ns, "header") {
				element, t, err := m.headerElement(co, h)
				if err != nil {
					return nil, err
				}
				if seen[element] {
					return nil, modelError(m.data, h, "operation %s: the header %s is declared twice in the %s; not supported yet", co.Name, element, io)
				}
				seen[element] = true
				if p := byElement[element]; p != nil { // in the input too
					p.Direction = HeaderInOut
					continue
				}
				dir := HeaderIn
				if io == "output" {
					dir = HeaderOut
				}
				p := &HeaderPart{Element: element, Type: t, Direction: dir, Node: h}
				byElement[element] = p
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// headerElement resolves a soap:header to its element and type: a global element of the target
// namespace with a named complex type, as ASMX writes every header class.
func (m *modeler) headerElement(co *Operation, h *wsdl.Node) (string, *Type, error) {
	notYet := func(n *wsdl.Node, format string, args ...any) (string, *Type, error) {
		return "", nil, modelError(m.data, n, "operation %s: %s: not supported yet", co.Name, fmt.Sprintf(format, args...))
	}
	if use, _ := h.Attr("use"); use != "literal" {
		return notYet(h, "a soap:header with use=%q (ASMX writes use=\"literal\")", use)
	}
	for _, c := range h.Children {
		if c.Name.Local == "headerfault" {
			return notYet(c, "soap:headerfault")
		}
	}
	msg, err := m.defs.Messages.Resolve(h, "message", m.defs.TNS)
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
		return "", nil, modelError(m.data, h, "operation %s: the message %s has no part %q", co.Name, msgName, partName)
	}
	q, ok, err := part.QNameAttr("element")
	if err != nil {
		return "", nil, err
	}
	switch {
	case !ok:
		return notYet(part, "a header part with a type instead of an element")
	case q.Space == "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" && q.Local == "Security":
		return notYet(part, "a soap:header whose element is {wsse}Security (the service reads WS-Security itself, beside the contract's headers)")
	case q.Space != m.defs.TNS:
		return notYet(part, "a header element in the namespace %q, another than the contract's", q.Space)
	}
	el := m.elements[q.Local]
	if el == nil {
		return "", nil, modelError(m.data, part, "element %s is not defined", q.Local)
	}
	if _, typed := el.Attr("type"); !typed || len(el.Children) > 0 {
		return notYet(el, "a header element without a named complex type (ASMX writes type=\"tns:%s\")", q.Local)
	}
	t, err := m.typeOf(el, "type")
	if err != nil {
		return "", nil, err
	}
	if t.Kind != KindComplex {
		return notYet(el, "a header element of type %s, which is not a complex type", t.Name)
	}
	return q.Local, t, nil
}

// markAnyAttribute records that complex type ct ends with <s:anyAttribute /> (the node a).
func (m *modeler) markAnyAttribute(ct, a *wsdl.Node) {
	if m.anyAttribute == nil {
		m.anyAttribute = map[*wsdl.Node]*wsdl.Node{}
	}
	m.anyAttribute[ct] = a
}

// checkAnyAttributes refuses <s:anyAttribute /> where it is not carried yet: it is carried on the
// type of a SOAP header (where ASMX writes it), as the header's AnyAttrs, and on a type nothing uses;
// not on a wrapper or on the type of an element (of a message body or of another type), where the
// foreign attributes would be dropped.
func (m *modeler) checkAnyAttributes() error {
	if len(m.anyAttribute) == 0 {
		return nil
	}
	headerTypes := map[*Type]bool{}
	for _, op := range m.c.Operations {
		for _, h := range op.Headers {
			headerTypes[h.Type] = true
		}
	}
	usedBy := map[*Type]string{}
	for _, t := range m.c.Structs {
		for _, f := range t.Fields {
			if usedBy[f.Type] == "" {
				usedBy[f.Type] = t.Name + "." + f.Name
			}
		}
	}
	for _, t := range m.c.Structs {
		ct := t.Node
		if !ct.Is(wsdl.NamespaceXSD, "complexType") {
			ct = ct.Elements(wsdl.NamespaceXSD, "complexType")[0]
		}
		a := m.anyAttribute[ct]
		switch {
		case a == nil:
		case ct != t.Node:
			return modelError(m.data, a, "s:anyAttribute on the operation wrapper %s is not supported yet", t.Name)
		case usedBy[t] != "" && !headerTypes[t]:
			return modelError(m.data, a, "s:anyAttribute on the type %s, the type of %s, is not supported yet "+
				"(it is carried on SOAP header types, where ASMX writes it)", t.Name, usedBy[t])
		case usedBy[t] != "":
			return modelError(m.data, a, "the header type %s is also the type of %s, where its s:anyAttribute is not supported yet", t.Name, usedBy[t])
		}
	}
	return nil
}
