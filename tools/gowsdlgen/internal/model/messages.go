package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// outRef checks an operation with out or ref parameters (co.OutRef): ASMX never offers one on HTTP
// GET or POST, whose answer is one root element (get-Split-not-offered: the WSDL's HTTP bindings
// leave it out); an HTTP binding that lists it is refused with the operation named, since no result
// root could carry its values.
func (m *modeler) outRef(op *wsdl.Node, co *Operation) error {
	if !co.OutRef() {
		return nil
	}
	for _, kind := range co.Bindings {
		if kind == "HTTPGet" || kind == "HTTPPost" {
			return modelError(m.data, op, "operation %s has out or ref parameters (its response wrapper %s holds %d elements), "+
				"which HTTP GET/POST cannot answer with one root element; ASMX does not offer it there: leave %s out of the %s binding",
				co.Name, co.ResponseElement, len(co.Response.Fields), co.Name, kind)
		}
	}
	return nil
}

// distinctWrappers checks that the wrapper elements of co are its own. Their names come from the
// schema, not from the operation's name: ASMX's ResponseElementName renames the response wrapper
// (Lookup answers LookupReply), RequestElementName the request one, and [return: XmlElement] the
// result (RenamedResponse holds Answer) (shapes README §6). What a request is routed by is its wrapper
// element, and each wrapper is one Go type with one codec, so an element that wraps a message of
// another operation (or both messages of this one) is refused, naming both.
func (m *modeler) distinctWrappers(op *wsdl.Node, co *Operation) error {
	type use struct{ op, message, element string }
	mine := []use{{co.Name, "request", co.RequestElement}}
	if !co.OneWay {
		mine = append(mine, use{co.Name, "response", co.ResponseElement})
		if co.RequestElement == co.ResponseElement {
			return modelError(m.data, op, "operation %s: the element %s wraps both its request and its response; each message needs its own wrapper element",
				co.Name, co.RequestElement)
		}
	}
	for _, other := range m.c.Operations {
		theirs := []use{{other.Name, "request", other.RequestElement}}
		if !other.OneWay {
			theirs = append(theirs, use{other.Name, "response", other.ResponseElement})
		}
		for _, a := range mine {
			for _, b := range theirs {
				if a.element == b.element {
					return modelError(m.data, op, "operation %s: the element %s wraps its %s and the %s of operation %s; each message needs its own wrapper element",
						a.op, a.element, a.message, b.message, b.op)
				}
			}
		}
	}
	return nil
}

// outOfOrder reports whether the HTTP GET/POST part named partName, at position i, names another
// parameter of the request wrapper fields: the parts are positional (ASMX names them after the C#
// parameters, which an XmlElement may rename in the schema: part id for element x-id), so a part
// that is named like another position's element is out of order, not renamed.
func outOfOrder(fields []*Field, i int, partName string) bool {
	if fields[i].Name == partName {
		return false
	}
	for j, g := range fields {
		if j != i && g.Name == partName {
			return true
		}
	}
	return false
}
