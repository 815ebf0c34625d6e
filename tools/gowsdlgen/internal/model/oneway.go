package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// oneWay checks a one-way operation op (a SOAP portType operation with an input and no output,
// co.OneWay): no SOAP binding gives it an output, which the portType operation it binds has not
// (WSDL 1.1 §2.5: a binding operation mirrors its portType operation). GET and POST are read as for any operation: ASMX offers a one-way
// method there as a void one, with an empty output message (NotifyHttpGetOut), so it has no result
// root (httpRoot).
func (m *modeler) oneWay(op *wsdl.Node, co *Operation) error {
	for _, b := range m.defs.Bindings.Order {
		switch bindingKind(b) {
		case "SOAP11", "SOAP12":
		default:
			continue
		}
		for _, bop := range b.Elements(wsdl.NamespaceWSDL, "operation") {
			if operationKey(bop) != co.PortTypeName+"/"+co.Name {
				continue
			}
			if len(bop.Elements(wsdl.NamespaceWSDL, "output")) != 0 {
				return modelError(m.data, bop, "operation %s is one-way (its portType operation has no output), but this binding gives it an output", co.Name)
			}
		}
	}
	return nil
}
