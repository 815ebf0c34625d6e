package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// markAnyAttribute records that complex type ct ends with <s:anyAttribute /> (the node a), for
// Type.AnyAttribute.
func (m *modeler) markAnyAttribute(ct, a *wsdl.Node) {
	if m.anyAttribute == nil {
		m.anyAttribute = map[*wsdl.Node]*wsdl.Node{}
	}
	m.anyAttribute[ct] = a
}
