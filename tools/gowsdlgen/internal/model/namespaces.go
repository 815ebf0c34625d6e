package model

import (
	"encoding/xml"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// A second schema namespace: ASMX's [SoapDocumentMethod(RequestNamespace = "urn:items",
// ResponseNamespace = "urn:items")] puts an operation's wrappers in a schema of their own namespace,
// elementFormDefault="qualified", which the service namespace's schema does not import (zoo3's
// FetchItem: {urn:items}GetItem and {urn:items}GetItemReply; shapes README §6).

// foreignSchema reads a schema of namespace target, neither the contract's nor the AbstractTypes or
// Microsoft ones: its top-level elements with an anonymous complex type are wrappers a message part
// may name. What else such a schema could hold (named types, elements typed in it) is refused as not
// supported yet, and so is an unqualified one, whose wrappers' children would be in no namespace.
func (m *modeler) foreignSchema(s *wsdl.Node, target string) error {
	for _, c := range s.Children {
		name, _ := c.Attr("name")
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"), c.Is(wsdl.NamespaceXSD, "import"):
		case c.Is(wsdl.NamespaceXSD, "element") && len(c.Elements(wsdl.NamespaceXSD, "complexType")) == 1:
			if form, _ := s.Attr("elementFormDefault"); form != "qualified" {
				return modelError(m.data, s, "a schema of another namespace than the service's (%s) without elementFormDefault=\"qualified\" is not supported yet", target)
			}
			if m.elements[name] != nil {
				return modelError(m.data, c, "the element %s is defined in %s and in the service namespace; one Go type cannot stand for both: not supported yet", name, target)
			}
			m.foreign[xml.Name{Space: target, Local: name}] = c
		default:
			return modelError(m.data, c, "schema component %s in a schema of another namespace than the service's (%s): only operation wrappers "+
				"(elements with an anonymous complex type, as ASMX's RequestNamespace writes) are supported there yet; this is not supported yet", c.Name.Local, target)
		}
	}
	return nil
}

// foreignWrapper reads the wrapper element q of another namespace that message part part names. Its
// children must be of XML Schema simple types: a child of a complex type would be read in q's
// namespace, while its own children are in the namespace of their schema (not supported yet).
func (m *modeler) foreignWrapper(part *wsdl.Node, q xml.Name) (string, *Type, error) {
	el := m.foreign[q]
	if el == nil {
		return "", nil, modelError(m.data, part, "element {%s}%s is not defined", q.Space, q.Local)
	}
	if t := m.wrappers["{"+q.Space+"}"+q.Local]; t != nil {
		return q.Local, t, nil
	}
	fields, err := m.sequence(el.Elements(wsdl.NamespaceXSD, "complexType")[0])
	if err != nil {
		return "", nil, err
	}
	for _, f := range fields {
		if !f.Type.Simple() || f.Type.Kind == KindEnum {
			return "", nil, modelError(m.data, el, "the wrapper {%s}%s holds the element %s of type %s; a wrapper in another namespace than the "+
				"service's may hold only elements of XML Schema simple types yet (not supported yet)", q.Space, q.Local, f.Name, f.Type.Name)
		}
	}
	t := &Type{Name: q.Local, Kind: KindComplex, Fields: fields, Node: el}
	m.wrappers["{"+q.Space+"}"+q.Local] = t
	return q.Local, t, nil
}

// wrapperNamespace returns the namespace of the wrapper element message part part names when it is
// not the service namespace; "" otherwise.
func (m *modeler) wrapperNamespace(part *wsdl.Node) string {
	if q, ok, err := part.QNameAttr("element"); err == nil && ok && q.Space != m.defs.TNS {
		return q.Space
	}
	return ""
}

// soapActions reads co's soap:operation/@soapAction on each SOAP binding kind that offers it (its
// binding operation is offered[kind][key]). ASMX writes the service namespace followed by the message
// name unless [SoapDocumentMethod("urn:items/fetch")] names another; the runtime matches the action
// a request sends exactly against the one read here. Two operations of one binding with the same
// action cannot be told apart by it (a bare message with several parts is routed by its action
// alone), so that is refused as not supported yet.
func (m *modeler) soapActions(co *Operation, offered map[string]map[string]*wsdl.Node, key string) error {
	for _, kind := range []string{"SOAP11", "SOAP12"} {
		bop := offered[kind][key]
		if bop == nil {
			continue
		}
		ns := wsdl.NamespaceSOAP11
		if kind == "SOAP12" {
			ns = wsdl.NamespaceSOAP12
		}
		for _, so := range bop.Elements(ns, "operation") {
			action, _ := so.Attr("soapAction")
			if action == "" {
				continue
			}
			for _, other := range m.c.Operations {
				if other.SOAPAction[kind] == action {
					return modelError(m.data, so, "operations %s and %s have the same SOAPAction %q on %s; routing by the body alone is not supported yet",
						other.Name, co.Name, action, kind)
				}
			}
			if co.SOAPAction == nil {
				co.SOAPAction = map[string]string{}
			}
			co.SOAPAction[kind] = action
		}
	}
	return nil
}
