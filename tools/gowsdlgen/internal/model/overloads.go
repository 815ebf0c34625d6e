package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// Overloads: ASMX names every overload of a C# method after the method in each portType (two
// <wsdl:operation name="Add">) and tells them apart by the message name, written as the name of the
// operation's wsdl:input and wsdl:output in the portType and in every binding (MessageName =
// "AddDoubles"; shapes README §6). WSDL 1.1 §2.4.5 makes those names the way to tell overloads apart;
// everything on the wire (elements, SOAPAction, HTTP location) uses the message name.

// messageName returns the identity of a portType or binding operation: its wsdl:input's name when
// it has one, else its own name.
func messageName(op *wsdl.Node) string {
	for _, in := range op.Elements(wsdl.NamespaceWSDL, "input") {
		if n, ok := in.Attr("name"); ok && n != "" {
			return n
		}
	}
	name, _ := op.Attr("name")
	return name
}

// operationKey is what binds a binding operation to its portType operation: the pair (name, message
// name), as "Add/AddDoubles" (and "Add/Add" for the overload without a MessageName).
func operationKey(op *wsdl.Node) string {
	name, _ := op.Attr("name")
	return name + "/" + messageName(op)
}

// bindingOperations records the keys of binding b's operations in offered, checking that each binds
// exactly one operation of its portType pt, and that no two bind the same one: a binding operation
// whose name and input name match no portType operation (an overload without its input name, a
// misspelt name) would otherwise leave an operation silently unoffered.
func (m *modeler) bindingOperations(b, pt *wsdl.Node, offered map[string]*wsdl.Node) error {
	keys := map[string]int{}
	for _, op := range pt.Elements(wsdl.NamespaceWSDL, "operation") {
		keys[operationKey(op)]++
	}
	for key, n := range keys {
		if n > 1 {
			return modelError(m.data, pt, "the portType has %d operations named %s with the same message name; "+
				"overloads are told apart by the names of their wsdl:input and wsdl:output (ASMX's MessageName)", n, key)
		}
	}
	for _, op := range b.Elements(wsdl.NamespaceWSDL, "operation") {
		key := operationKey(op)
		if keys[key] == 0 {
			name, _ := op.Attr("name")
			return modelError(m.data, op, "binding operation %s (message name %s) matches no operation of its portType; "+
				"an overload's binding operation names its wsdl:input as the portType does", name, messageName(op))
		}
		if offered[key] != nil {
			name, _ := op.Attr("name")
			return modelError(m.data, op, "the binding lists operation %s (message name %s) twice; "+
				"an overload's binding operation names its wsdl:input as the portType does", name, messageName(op))
		}
		offered[key] = op
	}
	return nil
}
